/*
 * Puzzles: mate-in-N positions of every game, and the answers to a player solving one.
 *
 * The sets are data in the tree (data/puzzles/VARIANT.epd: found in the engine's self-play
 * and proven by exhaustive search, see data/puzzles/README.md), read once at start.  Solving
 * is stateless: the client sends the moves played so far (its own, the defences it was given)
 * and its new move, and the service judges it from the rules core alone: the first move is
 * right when it is one of the keys the proof lists (every first move that forces the mate in
 * N); a later move when it still forces mate within the moves left (mate.c, exhaustive).  A
 * right move that does not mate at once is answered by the best defence, the reply that puts
 * the mate off longest.  A wrong one fails the puzzle, with a defence that escapes.  Each
 * answer searches only inside the tree the puzzle's proof covers, so it costs at most about
 * what the proof did (data/puzzles/ records each proof's time: most well under a second, the
 * longest a few seconds on a loaded machine); it runs on the engine questions' lane.
 */
#ifndef STARFISH_SERVER_PUZZLE_SERVICE_H
#define STARFISH_SERVER_PUZZLE_SERVICE_H

#include "../core/game.h"
#include "game_service.h"

#define PUZZLE_TEXT_MAX 400

typedef struct Puzzle {
    const Variant *v;
    int number; /* 1, 2, ... in its file */
    char fen[FEN_MAX];
    int mate;                     /* the side to move mates in this many moves, no sooner */
    char keys[PUZZLE_TEXT_MAX];   /* every first move that forces it (coordinate notation) */
    char line[PUZZLE_TEXT_MAX];   /* a main line: a key, the best defence, ... */
    char proof[PUZZLE_TEXT_MAX];  /* how it was proven */
    char source[PUZZLE_TEXT_MAX]; /* where in the self-play it arose */
} Puzzle;

/* Reads DIR/VARIANT.epd for every variant (a variant without a file has no puzzles); false
 * with err naming the file, the line and what is wrong when a file cannot be read. */
bool puzzles_load(const char *dir, char *err, size_t errlen);
void puzzles_free(void);
int puzzles_count(const Variant *v);
/* Puzzle `number` (from 1) of v, or NULL. */
const Puzzle *puzzle_find(const Variant *v, int number);

typedef enum { PUZZLE_GOES_ON, PUZZLE_SOLVED, PUZZLE_FAILED } PuzzleState;

typedef struct PuzzleAnswer {
    PuzzleState state;
    Game game;       /* the puzzle after the moves (and the defence, if one was played) */
    Move defence;    /* the best defence just played, or MOVE_NONE */
    int left;        /* the moves the player has still to mate in */
    Move escape;     /* failed: a defence after which there is no mate in time, or MOVE_NONE */
    char why[GAME_MESSAGE_MAX]; /* failed: why */
} PuzzleAnswer;

/*
 * Judges the player's latest move: `moves` are the player's moves and the defences in turn,
 * ending with the player's new move (n odd).  GAME_OK with *out filled (free out->game with
 * game_free), or GAME_ILLEGAL_MOVE / GAME_BAD_ACTION / GAME_NO_MEMORY with `message` set.
 */
GameStatus puzzle_answer(const Puzzle *p, const char *const *moves, int n, PuzzleAnswer *out, char *message,
                         size_t len);

#endif
