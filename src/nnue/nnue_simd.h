/*
 * The loops over a net's rows, the bulk of its arithmetic: compiled twice, for AVX2 and for
 * the build's own level (x86-64-v2 by default), the version the processor runs picked when the
 * program starts (GCC's target_clones for the row loops, an ifunc for the layer).  Kept in
 * their own object, compiled without LTO, so that tools/check_isa.py finds the AVX2 code in
 * the link map (the default build's only code beyond x86-64-v2, with the rules' BMI2
 * instantiation).
 */
#ifndef STARFISH_NNUE_SIMD_H
#define STARFISH_NNUE_SIMD_H

#include <stdint.h>

/* acc[i] += row[i] (or -=), for i < n. */
void nnue_add_row(int16_t *restrict acc, const int16_t *restrict row, int n);
void nnue_sub_row(int16_t *restrict acc, const int16_t *restrict row, int n);
/* The layer of NNUE_L1 outputs: sums[o] += the sum over i < 2 x hidden of x[i] x w[o][i], the
 * weights in NnueNet.l1_pairs's order (nnue.h); x 4-byte aligned. */
void nnue_layer(const int16_t *x, const int16_t *pairs, int hidden, int32_t *sums);

#endif
