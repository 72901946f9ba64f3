/*
 * One game of the match runner: the engines told of a new game (started again after a crash),
 * the opening set up, then each engine's moves asked for, timed, checked by the rules core and
 * played, until the rules or the runner end the game.
 */
#ifndef STARFISH_MATCH_GAME_H
#define STARFISH_MATCH_GAME_H

#include <stdatomic.h>
#include <stdint.h>

#include "../core/game.h"
#include "../client/uci_process.h"
#include "match_openings.h"
#include "match_stats.h"

#define MAX_OPTIONS 32

typedef struct EngineSpec {
    const char *cmd, *name;
    char *opt_name[MAX_OPTIONS], *opt_value[MAX_OPTIONS];
    int nopt;
    int nodes; /* > 0: `go nodes N` every move instead of a clock */
} EngineSpec;

/* What the command line asked for. */
typedef struct MatchConfig {
    EngineSpec eng[2];
    const Variant *v;
    int games, concurrency, max_plies;
    int random_plies;    /* random openings: movement plies after a random setup */
    OpeningBook book;    /* --openings FILE: its openings (n == 0: random openings) */
    const char *openings_path;
    bool shuffle;        /* the book in an order decided by the seed */
    bool mirrored_setup; /* random openings: Black's setup mirrors White's */
    uint64_t seed;
    int movetime_ms;     /* > 0: `go movetime` instead of a clock */
    double base, inc;    /* the clock per side and the increment, seconds */
    bool tc_given;
    int timemargin_ms;   /* how far past its clock an engine may go before it forfeits */
    const char *pgn_path;
    int rating_interval; /* a summary every this many game pairs (0: at the end only) */
    bool sprt;
    SprtModel model;
    double elo0, elo1, alpha, beta;
} MatchConfig;

/* The end of one game. */
typedef struct Outcome {
    int index;
    bool abandoned;   /* not played to its end: not counted */
    int engine_white; /* 0: engine 1 played White */
    ResultKind kind;
    char what[48];    /* a short kind of ending, for the tally: "checkmate", "illegal move", ... */
    char detail[320]; /* the PGN's Termination */
    int plies;
    char *pgn;        /* the game's record (the caller frees it) */
    char fatal[512];  /* set when the match cannot go on (neither engine works, no memory) */
} Outcome;

/* Plays game `index` (opening index / 2, engine 1 White in even games) with the worker's two
 * engine processes; `stop` abandons it between moves. */
void match_play_game(const MatchConfig *cfg, UciProc proc[2], int index, atomic_bool *stop, Outcome *o);

/* Ends every engine process of a worker: `quit`, then a moment to exit. */
void match_stop_engines(UciProc proc[2]);

#endif
