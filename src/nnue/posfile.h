/*
 * Training positions on disk (docs/nnue.md): a 64-byte header naming the variant and its
 * board, then fixed-size records, so that a trainer reads a batch as one array (numpy's
 * fromfile with a structured type) with no object per position.  Little-endian throughout.
 *
 * Header: "sfpos\0\0\0", u16 version (1), u16 cells, u16 piece types, u16 hand bytes (0, or
 * 2 x types where pieces wait in hand), u16 record bytes, char variant[22] (NUL-padded), char
 * letters[24] (White's letter of piece types 1.. in order, NUL-padded); then u8 mirror[cells]
 * (each cell's image seen from Black's side, geo_mirror_cells: a network's features from
 * Black's view), so the records start at 64 + cells.
 *
 * Record: i16 search score (centipawns, for the side to move), i8 game result (for the side
 * to move: 1 won, 0 drawn, -1 lost), u8 side to move (0 White, 1 Black), u16 ply (since the
 * game's start), the hand (u8 count per side, then per type), the board (u8 per cell: 0
 * empty, else the piece type, plus 16 for Black).
 */
#ifndef STARFISH_NNUE_POSFILE_H
#define STARFISH_NNUE_POSFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/position.h"

#define POSFILE_HEADER 64
#define POSFILE_VERSION 1
#define POSFILE_RECORD_HEAD 6
#define POSFILE_RECORD_MAX (POSFILE_RECORD_HEAD + 2 * MAX_TYPES + MAX_CELLS)

/* The size of one record of variant v, and where the first begins. */
int posfile_record_size(const Variant *v);
int posfile_data_offset(const Variant *v);
/* Writes the header and the mirror table for variant v; false on a write error (or a board
 * without a mirror). */
bool posfile_write_header(FILE *f, const Variant *v);
/* Fills out[0 .. posfile_record_size(v)) with the position, its score and the result (for
 * the side to move) and the ply. */
void posfile_encode(const Position *pos, int score, int result, int ply, uint8_t *out);

#endif
