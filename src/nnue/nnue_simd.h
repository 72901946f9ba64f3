/*
 * The loops over a net's rows, the bulk of its arithmetic: compiled twice (GCC's
 * target_clones), for AVX2 and for the build's own level (x86-64-v2 by default), the clone the
 * processor runs picked when the program starts.  Kept in their own object, compiled without
 * LTO, so that tools/check_isa.py finds the AVX2 code in the link map (the default build's only
 * code beyond x86-64-v2, with the rules' BMI2 instantiation).
 */
#ifndef STARFISH_NNUE_SIMD_H
#define STARFISH_NNUE_SIMD_H

#include <stdint.h>

/* acc[i] += row[i] (or -=), for i < n. */
void nnue_add_row(int16_t *restrict acc, const int16_t *restrict row, int n);
void nnue_sub_row(int16_t *restrict acc, const int16_t *restrict row, int n);
/* The sum of a[i] x b[i], i < n, in 32 bits. */
int nnue_dot(const int16_t *restrict a, const int16_t *restrict b, int n);

#endif
