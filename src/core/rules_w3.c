/* The rules on three-word cell sets: boards of up to 192 cells (Megastar's 182). */
#define SET_W 3
#define RULES_OPS rules_ops_w3
#include "rules_impl.h"
