/* The loops over a net's rows (nnue_simd.h).  The row loops are plain C that GCC vectorises,
 * 16 int16 lanes with AVX2 and 8 with SSE.  The layer is written with intrinsics: GCC does
 * not find pmaddwd in it by itself, and pmaddwd is what makes it cheap (two inputs' products
 * with one output's two weights, summed, in one instruction). */
#include "nnue_simd.h"

#include <string.h>

#include "nnue.h"

/* Sanitizer builds and other compilers: one version, the build's own. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CLONED __attribute__((target_clones("avx2", "default")))
#define LAYER_DISPATCHED 1
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

/* ---- The layer --------------------------------------------------------------------------- */

/*
 * Each pair of inputs (2i, 2i+1) is one 32-bit word; broadcast, it meets the pair's weights
 * (l1_pairs: each output's two side by side) in pmaddwd, which gives every output its
 * x[2i] w[o][2i] + x[2i+1] w[o][2i+1] as a 32-bit lane.  Skipping the pairs that are zero
 * (clipped activations often are) was measured 21% slower in Starchess's searches: the branch
 * is hard to predict and costs more than the 4 products it saves.
 */
static inline uint32_t input_pair(const int16_t *x, int i)
{
    uint32_t pair;
    memcpy(&pair, x + 2 * i, sizeof pair);
    return pair;
}

#if defined(__x86_64__)
#include <immintrin.h>

#if defined(LAYER_DISPATCHED)
__attribute__((target("avx2"))) static void layer_avx2(const int16_t *x, const int16_t *pairs, int hidden,
                                                        int32_t *sums)
{
    __m256i s[NNUE_L1 / 8];
    for (int k = 0; k < NNUE_L1 / 8; k++)
        s[k] = _mm256_loadu_si256((const __m256i *)(sums + 8 * k));
    for (int i = 0; i < hidden; i++) {
        __m256i both = _mm256_set1_epi32((int)input_pair(x, i));
        const __m256i *w = (const __m256i *)(pairs + (size_t)i * 2 * NNUE_L1);
        for (int k = 0; k < NNUE_L1 / 8; k++)
            s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(both, _mm256_load_si256(w + k)));
    }
    for (int k = 0; k < NNUE_L1 / 8; k++)
        _mm256_storeu_si256((__m256i *)(sums + 8 * k), s[k]);
}
#endif

static void layer_sse2(const int16_t *x, const int16_t *pairs, int hidden, int32_t *sums)
{
    __m128i s[NNUE_L1 / 4];
    for (int k = 0; k < NNUE_L1 / 4; k++)
        s[k] = _mm_loadu_si128((const __m128i *)(sums + 4 * k));
    for (int i = 0; i < hidden; i++) {
        __m128i both = _mm_set1_epi32((int)input_pair(x, i));
        const __m128i *w = (const __m128i *)(pairs + (size_t)i * 2 * NNUE_L1);
        for (int k = 0; k < NNUE_L1 / 4; k++)
            s[k] = _mm_add_epi32(s[k], _mm_madd_epi16(both, _mm_load_si128(w + k)));
    }
    for (int k = 0; k < NNUE_L1 / 4; k++)
        _mm_storeu_si128((__m128i *)(sums + 4 * k), s[k]);
}
#else
static void layer_portable(const int16_t *x, const int16_t *pairs, int hidden, int32_t *sums)
{
    for (int i = 0; i < hidden; i++) {
        const int16_t *w = pairs + (size_t)i * 2 * NNUE_L1;
        for (int o = 0; o < NNUE_L1; o++)
            sums[o] += x[2 * i] * w[2 * o] + x[2 * i + 1] * w[2 * o + 1];
    }
}
#endif

#if defined(LAYER_DISPATCHED)
/* Chosen once, when the program is loaded, as target_clones chooses the row loops. */
static void (*resolve_layer(void))(const int16_t *, const int16_t *, int, int32_t *)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? layer_avx2 : layer_sse2;
}

void nnue_layer(const int16_t *x, const int16_t *pairs, int hidden, int32_t *sums)
    __attribute__((ifunc("resolve_layer")));
#else
void nnue_layer(const int16_t *x, const int16_t *pairs, int hidden, int32_t *sums)
{
#if defined(__x86_64__)
    layer_sse2(x, pairs, hidden, sums);
#else
    layer_portable(x, pairs, hidden, sums);
#endif
}
#endif
