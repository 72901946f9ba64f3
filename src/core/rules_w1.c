/* The rules on one-word cell sets: boards of up to 64 cells (8x8, the Starchess star). */
#define SET_W 1
#define RULES_OPS rules_ops_w1
#include "rules_impl.h"

_Thread_local RulesStats rules_stats;
