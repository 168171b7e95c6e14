/* stockd: a tiny HTTP status endpoint for the warehouse's stock feed. Reads "port = N" and
 * "instance_file = PATH" from its configuration, answers every request with a JSON status line
 * formatted by libstockfmt (the vendor's library, in /usr/lib/stockd/lib). */
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int stockfmt_status(char *out, size_t n, const char *instance, long served);

int main(int argc, char **argv) {
    const char *conf = argc > 1 ? argv[1] : "/etc/stockd.conf";
    int port = 9100;
    char instance_file[256] = "/var/lib/stockd/instance-id", instance[128] = "unknown", line[512];
    FILE *f = fopen(conf, "r");
    if (!f) { fprintf(stderr, "stockd: cannot read %s\n", conf); return 78; }
    while (fgets(line, sizeof line, f)) {
        sscanf(line, " port = %d", &port);
        sscanf(line, " instance_file = %255s", instance_file);
    }
    fclose(f);
    if ((f = fopen(instance_file, "r"))) { if (fscanf(f, "%127s", instance) != 1) strcpy(instance, "unknown"); fclose(f); }
    signal(SIGPIPE, SIG_IGN);
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 16)) { perror("stockd: cannot listen"); return 1; }
    fprintf(stderr, "stockd: listening on port %d\n", port);
    long served = 0;
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) continue;
        char req[2048], body[512], resp[1024];
        if (read(c, req, sizeof req) > 0) {
            int bl = stockfmt_status(body, sizeof body, instance, ++served);
            int rl = snprintf(resp, sizeof resp, "HTTP/1.0 200 OK\r\nServer: stockd/1.2\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", bl, body);
            if (write(c, resp, rl) < 0) { /* client went away */ }
        }
        close(c);
    }
}
