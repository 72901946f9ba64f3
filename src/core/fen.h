/* Position text: parsing with validation, and writing. */
#ifndef STARFISH_FEN_H
#define STARFISH_FEN_H

#include "tables.h"

struct Position;

/* The BOARD field (with its [HAND] suffix where the variant has one), before validation. */
typedef struct FenBoard {
    uint8_t board[MAX_CELLS];
    bool limping[MAX_CELLS];
    uint8_t hand[2][MAX_TYPES];
} FenBoard;

bool fen_read_board(const Variant *v, const char *text, FenBoard *out, char *err, size_t errlen);
/* Sets up pos from position text; on error leaves pos unchanged and explains in err. */
bool pos_set_fen(struct Position *pos, const Variant *v, const char *fen, char *err, size_t errlen);
/* Writes the position text of pos into buf (at least FEN_MAX bytes). */
void pos_fen(const struct Position *pos, char *buf, size_t len);

#define FEN_MAX 512

#endif
