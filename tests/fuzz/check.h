/*
 * What every fuzz target checks of the rules core (check.c), and the helpers they share.
 */
#ifndef STARFISH_FUZZ_CHECK_H
#define STARFISH_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "../../src/core/position.h"

/* The longest input a target reads (the rest is cut off). */
#define INPUT_MAX 4096

/* Reports a broken invariant (the variant or NULL, what, two texts) and aborts: libFuzzer keeps
 * the input. */
void fuzz_fail(const char *what, const Variant *v, const char *a, const char *b) __attribute__((noreturn));
/* The variant a selector byte picks: the digit '0' + i variant i (variant_at), any other byte
 * one too (its distance from '0' modulo the number of variants).  The first byte of the
 * inputs of the targets that work in one variant. */
const Variant *fuzz_variant(uint8_t selector);
/* A number that the input's bytes choose (a hash of them), for choices a target makes
 * without spending input bytes on them. */
uint32_t fuzz_pick(const uint8_t *data, size_t size);
/* The input as a NUL-terminated text in buf (INPUT_MAX + 1 bytes), cut at INPUT_MAX. */
char *fuzz_text(const uint8_t *data, size_t size, char *buf);

/*
 * A parsed position's invariants:
 *   - pos_fen's text parses again, to a position with the same text and key;
 *   - pos->key equals pos_compute_key();
 *   - gen_legal works, perft depth 1 equals the number of legal moves, and no two legal moves
 *     have the same coordinate text (nor is one listed twice);
 *   - for a sample of the legal moves (at most 8, spread over the list from the one that
 *     `pick` names modulo their number): its coordinate text and its SAN parse back to it;
 *     making it keeps the key consistent and yields a position whose text parses again (move
 *     counters permitting); unmaking it restores the key and the text exactly.
 */
void check_position(Position *pos, uint32_t pick);
/* pos->key equals pos_compute_key() (else fails with `what`). */
void check_key(const Position *pos, const char *what);
/* Plays the whitespace-separated moves of `list` (coordinate or SAN) from pos as far as they
 * parse (at most 64 moves, of the first 128 words): a move that does not parse must say why;
 * one that does must be legal. */
void play_moves(Position pos, const char *list);

#endif
