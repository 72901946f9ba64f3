/*
 * The rules on one-word cell sets once more, compiled for BMI2 so that a slider's attacks are
 * one PEXT look-up.  The default build assumes x86-64-v2, which has no BMI2; rules_ops_for
 * picks this instantiation at start on a CPU where PEXT is there and fast.  The pragma, not a
 * flag in the Makefile, gives the functions of this file (and only them) the instruction set:
 * it stays with them through link-time optimisation, which inlines none of them elsewhere.
 */
#pragma GCC target("bmi2")
#define SET_W 1
#define RULES_OPS rules_ops_w1_pext
#include "rules_impl.h"
