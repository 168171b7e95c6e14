/* libingestfmt: formats ingestd's receipts (shipped by the vendor in ingestd's own directory). */
#include <stdio.h>

int ingestfmt_receipt(char *out, size_t n, const char *instance, long seq) {
    return snprintf(out, n, "{\"status\": \"ok\", \"service\": \"ingestd\", \"instance\": \"%s\", \"seq\": %ld}\n", instance, seq);
}
