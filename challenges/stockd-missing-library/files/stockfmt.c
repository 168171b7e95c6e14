/* libstockfmt: formats stockd's answers (shipped by the vendor in stockd's own directory). */
#include <stdio.h>

int stockfmt_status(char *out, size_t n, const char *instance, long served) {
    return snprintf(out, n, "{\"status\": \"ok\", \"service\": \"stockd\", \"instance\": \"%s\", \"served\": %ld}\n", instance, served);
}
