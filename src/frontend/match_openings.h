/*
 * Opening books for the match runner (`--openings FILE`): the start positions of an EPD file
 * (a position text per line, optional `;` fields after it) or the games of a PGN file (each
 * game's start and moves), checked against the variant's rules when the file is read.
 */
#ifndef STARFISH_MATCH_OPENINGS_H
#define STARFISH_MATCH_OPENINGS_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"
#include "../util/text.h"

typedef struct Opening {
    char *fen;   /* the start (as the rules core writes it) */
    char *moves; /* coordinate notation, each move after a space ("" for none) */
} Opening;

typedef struct OpeningBook {
    Opening *list;
    int n;
} OpeningBook;

/* Reads the openings of an EPD or PGN file for variant v; false with err naming the file, the
 * line or game, and what is wrong. */
bool openings_load(OpeningBook *b, const char *path, const Variant *v, char *err, size_t errlen);
/* Puts the openings in a random order decided by seed. */
void openings_shuffle(OpeningBook *b, uint64_t seed);
void openings_free(OpeningBook *b);

/* The coordinate notation of the moves played in g, each after a space, into out (replayed
 * from g's start); false when memory runs out. */
bool game_moves_text(Game *g, Text *out);

/* Starts g (zeroed) at opening k (counting round the book) with its moves played; false with
 * err set when memory runs out. */
bool opening_start(const OpeningBook *b, int k, const Variant *v, Game *g, char *err, size_t errlen);

#endif
