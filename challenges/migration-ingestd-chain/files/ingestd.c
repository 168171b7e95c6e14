/* ingestd: receives telemetry batches over HTTP and appends a receipt line to its spool's
 * journal. Configuration (argv[1], default /etc/ingestd.conf): "port = N", "spool = DIR".
 * Needs libingestfmt (the vendor's library in /usr/lib/ingestd/lib). */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int ingestfmt_receipt(char *out, size_t n, const char *instance, long seq);

int main(int argc, char **argv) {
    const char *conf = argc > 1 ? argv[1] : "/etc/ingestd.conf";
    int port = 7070;
    char spool[256] = "/var/spool/ingestd", path[512], instance[128] = "unknown", line[512];
    FILE *f = fopen(conf, "r");
    if (!f) { fprintf(stderr, "ingestd: cannot read %s: %s\n", conf, strerror(errno)); return 78; }
    while (fgets(line, sizeof line, f)) {
        sscanf(line, " port = %d", &port);
        sscanf(line, " spool = %255s", spool);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/instance-id", spool);
    if ((f = fopen(path, "r"))) { if (fscanf(f, "%127s", instance) != 1) strcpy(instance, "unknown"); fclose(f); }
    snprintf(path, sizeof path, "%s/journal", spool);
    FILE *journal = fopen(path, "a");
    if (!journal) { fprintf(stderr, "ingestd: cannot open %s: %s\n", path, strerror(errno)); return 1; }
    setvbuf(journal, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 16)) {
        fprintf(stderr, "ingestd: cannot listen on port %d: %s\n", port, strerror(errno));
        return 1;
    }
    fprintf(stderr, "ingestd: listening on port %d, spool %s\n", port, spool);
    long seq = 0;
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) continue;
        char req[4096], body[512], resp[1024];
        if (read(c, req, sizeof req) > 0) {
            int bl = ingestfmt_receipt(body, sizeof body, instance, ++seq);
            fprintf(journal, "receipt %ld\n", seq);
            int rl = snprintf(resp, sizeof resp, "HTTP/1.0 200 OK\r\nServer: ingestd/2.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", bl, body);
            if (write(c, resp, rl) < 0) { /* client went away */ }
        }
        close(c);
    }
}
