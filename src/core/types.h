/* Small types shared by every layer: colours, piece codes and moves. */
#ifndef STARFISH_TYPES_H
#define STARFISH_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../geometry/geometry.h"

enum { WHITE = 0, BLACK = 1 };

/*
 * A piece code packs colour and type: code = colour << 4 | type, type 1..15, 0 = empty cell.
 * Types are numbered per variant, in the order of the variant's piece table.
 */
#define MAX_TYPES 16
#define MAX_CODES 32
#define MAKE_PIECE(colour, type) ((uint8_t)((colour) << 4 | (type)))
#define PIECE_TYPE(code) ((code) & 15)
#define PIECE_COLOUR(code) ((code) >> 4)

/*
 * A move in 32 bits: from (bits 0-7), to (8-15), piece (16-19: the promotion piece, or the
 * placed piece), kind (20-22).  A placement has from == NO_CELL.
 */
typedef uint32_t Move;
typedef enum { MK_NORMAL, MK_DOUBLE, MK_EP, MK_CASTLE, MK_PLACE } MoveKind;

#define MOVE_NONE 0u
#define MOVE(from, to, piece, kind) \
    ((Move)(from) | (Move)(to) << 8 | (Move)(piece) << 16 | (Move)(kind) << 20)
#define MOVE_FROM(m) ((Cell)((m) & 255))
#define MOVE_TO(m) ((Cell)(((m) >> 8) & 255))
#define MOVE_PIECE(m) ((int)(((m) >> 16) & 15))
#define MOVE_KIND(m) ((MoveKind)(((m) >> 20) & 7))

#define MAX_MOVES 512

#endif
