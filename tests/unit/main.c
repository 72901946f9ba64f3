/* Runs every registered unit test (optionally only those whose name contains argv[1]). */
#include <stdarg.h>
#include <stdlib.h>

#include "../../src/tablebase/tb.h"
#include "test.h"

#define MAX_TESTS 1024

static struct {
    const char *name;
    TestFn fn;
} tests[MAX_TESTS];
static int ntests;
static int failures_in_current;
static const char *current;

void test_register(const char *name, TestFn fn)
{
    if (ntests < MAX_TESTS) {
        tests[ntests].name = name;
        tests[ntests].fn = fn;
        ntests++;
    }
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (failures_in_current++ < 10) {
        printf("FAIL %s: %s:%d: ", current, file, line);
        vprintf(fmt, ap);
        printf("\n");
    }
    va_end(ap);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    tb_install();
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1]))
            continue;
        current = tests[i].name;
        failures_in_current = 0;
        tests[i].fn();
        if (failures_in_current) {
            failed++;
        } else {
            passed++;
            printf("ok %s\n", tests[i].name);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
