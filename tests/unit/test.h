/*
 * A minimal unit-test framework: TEST(name) { ... } registers a test; CHECK(expr) and
 * CHECK_EQ_INT / CHECK_EQ_STR record a failure with file and line and go on.  The runner
 * (main.c) prints "ok NAME" or "FAIL NAME: ..." per test and a closing count line.
 */
#ifndef STARFISH_TEST_H
#define STARFISH_TEST_H

#include <stdio.h>
#include <string.h>

typedef void (*TestFn)(void);
void test_register(const char *name, TestFn fn);
void test_fail(const char *file, int line, const char *fmt, ...);

#define TEST(name)                                                          \
    static void name(void);                                                 \
    __attribute__((constructor)) static void register_##name(void)          \
    {                                                                       \
        test_register(#name, name);                                         \
    }                                                                       \
    static void name(void)

#define CHECK(expr)                                                         \
    do {                                                                    \
        if (!(expr))                                                        \
            test_fail(__FILE__, __LINE__, "%s", #expr);                     \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                  \
    do {                                                                    \
        long long a_ = (long long)(a), b_ = (long long)(b);                 \
        if (a_ != b_)                                                       \
            test_fail(__FILE__, __LINE__, "%s == %lld, expected %lld", #a, a_, b_); \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                  \
    do {                                                                    \
        const char *a_ = (a), *b_ = (b);                                    \
        if (strcmp(a_, b_) != 0)                                            \
            test_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, a_, b_); \
    } while (0)

#endif
