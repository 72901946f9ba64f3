/* The loops over a net's rows (nnue_simd.h): plain C that GCC vectorises, 16 int16 lanes with
 * AVX2 and 8 with SSE (the layer's products by pmaddwd). */
#include "nnue_simd.h"

/* Sanitizer builds and other compilers: one version, the build's own. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CLONED __attribute__((target_clones("avx2", "default")))
#else
#define CLONED
#endif

CLONED void nnue_add_row(int16_t *restrict acc, const int16_t *restrict row, int n)
{
    for (int i = 0; i < n; i++)
        acc[i] = (int16_t)(acc[i] + row[i]);
}

CLONED void nnue_sub_row(int16_t *restrict acc, const int16_t *restrict row, int n)
{
    for (int i = 0; i < n; i++)
        acc[i] = (int16_t)(acc[i] - row[i]);
}

CLONED int nnue_dot(const int16_t *restrict a, const int16_t *restrict b, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}
