/* Shared helpers for unit tests: set up positions, list moves as text. */
#ifndef STARFISH_TEST_HELPERS_H
#define STARFISH_TEST_HELPERS_H

#include "../../src/core/game.h"
#include "../../src/core/movegen.h"
#include "../../src/core/notation.h"
#include "../../src/core/perft.h"
#include "../../src/variants/registry.h"

/* Sets up pos from fen in the named variant; a failure is recorded and returns false. */
bool setup(Position *pos, const char *variant, const char *fen);
/*
 * The legal moves of pos in coordinate notation, sorted and space-separated into buf; with
 * from != NULL, only the moves from that cell.
 */
const char *legal_moves_text(Position *pos, const char *from, char *buf, size_t len);
/* Plays space-separated moves (any notation) on a game; false (and a failure) on a bad one. */
bool play_moves(Game *g, const char *moves);
/* Starts a game in the named variant (fen NULL: the start); false (and a failure) on error. */
bool start_game(Game *g, const char *variant, const char *fen);
/* The position text of pos (a static buffer). */
const char *fen_of(const Position *pos);
/* The error a position text gets, or "(accepted)". */
const char *fen_error(const char *variant, const char *fen);
/* The error a move text gets in pos, or "(accepted)". */
const char *parse_error(Position *pos, const char *text);
/*
 * Makes and unmakes every legal move of pos, checking that the incremental key equals the key
 * computed from scratch after each, and that unmake restores the position text and key.
 * Returns the number of legal moves.
 */
int check_make_unmake(Position *pos);
/* The SAN of a move given in any notation, or the error it gets (a static buffer). */
const char *san_of(Position *pos, const char *move);
/* The number of legal moves. */
int count_legal(Position *pos);
/* The game status after playing `moves` from fen (NULL: the start) in the named variant. */
GameResult status_after(const char *variant, const char *fen, const char *moves);

/*
 * Starchess position text from a list of pieces: "K17 k21 P12~" puts a White king on 17, a
 * Black king on 21 and a limping White pawn on 12; `hand` goes between the brackets and
 * `tail` after them ("w 0 1", or "b - 0 1" in starchess-ludii).  A static buffer.
 */
const char *star_fen(const char *pieces, const char *hand, const char *tail);

/*
 * Megastar position text from a piece list ("KUa1 kLq1 RUi5": letter, cell) and the fields
 * after the board ("w - 0 1").  A static buffer.
 */
const char *ms_fen(const char *pieces, const char *rest);

/* A game result: its kind and its reason ("(none)" while the game goes on). */
#define CHECK_RESULT(r, kind_, reason_)                                                          \
    do {                                                                                         \
        GameResult r_ = (r);                                                                     \
        CHECK_EQ_INT(r_.kind, kind_);                                                            \
        CHECK_EQ_STR(r_.reason ? r_.reason : "(none)", reason_);                                 \
    } while (0)

#endif
