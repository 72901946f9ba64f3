/* Which instantiation of the rules runs on this CPU (rules.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static const RulesOps *one_word;
static pthread_once_t chosen = PTHREAD_ONCE_INIT;

/* PEXT is there and runs in a few cycles: BMI2, and not AMD family 17h (Zen 1 and 2). */
static bool pext_is_fast(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam17h");
#else
    return false;
#endif
}

static void choose(void)
{
    const char *wanted = getenv("STARFISH_PEXT");
    bool allowed = !wanted || strcmp(wanted, "0") != 0;
    one_word = allowed && rules_ops_w1_pext.pext && pext_is_fast() ? &rules_ops_w1_pext : &rules_ops_w1;
}

const RulesOps *rules_ops_for(int words)
{
    pthread_once(&chosen, choose);
    return words == 1 ? one_word : &rules_ops_w3;
}

const char *rules_slider_method(void)
{
    return rules_ops_for(1)->pext ? "PEXT look-ups (BMI2)" : "first blockers along each ray";
}
