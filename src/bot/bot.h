/*
 * `starfish bot`: a UCI engine playing on a server that speaks lichess's Bot API (ours, or
 * lichess.org for chess).  docs/bots.md tells how to set it up; this is the map of the code.
 *
 *   bot_main.c    the command: options, the config, the checks at start (the token, the
 *                 engine), signals, and the end (games left, threads joined)
 *   bot_config.c  the config file (key = value lines) and the challenge filters
 *   bot_http.c    HTTP through libcurl: requests, and NDJSON streams read a line at a time
 *   bot_events.c  the account's event stream: challenges accepted or declined, a game
 *                 thread started on gameStart, the table of games
 *   bot_game.c    one game's thread: its stream (gameFull, gameState), its turns, its end
 *   bot_player.c  one game's engine process: position, go, bestmove, the score
 *
 * Threads: the main thread reads the event stream; each game has a thread of its own and an
 * engine process of its own.  Nothing but the table of games (bot_events.c, under its lock)
 * and the stop flag is shared between them.  Every stream is opened again after it drops,
 * with a growing wait; the server announces running games again on the event stream and a
 * game's stream starts with every move (gameFull), so a dropped connection loses no game.
 */
#ifndef STARFISH_BOT_H
#define STARFISH_BOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOT_MAX_GAMES 64      /* games at once, whatever the config says */
#define BOT_ID_MAX 64         /* a game's, a challenge's or an account's id */
#define BOT_OPTIONS_MAX 32    /* engine options set by the config (uci.NAME = VALUE) */
#define BOT_VARIANTS_MAX 32   /* variants the config accepts */
#define BOT_KEY_MAX 40        /* a variant key, a speed */
#define BOT_JOIN_MAX 16       /* tournaments joined at start */

/* What the bot does with the opponent's draw offer or takeback request. */
typedef enum { OFFER_DECLINE, OFFER_ACCEPT, OFFER_IGNORE } OfferPolicy;
/* What becomes of the games under way when the bot is stopped. */
typedef enum { STOP_LEAVE, STOP_RESIGN, STOP_ABORT } StopPolicy;

/* Speeds as lichess names them, a bit each in BotConfig.speeds. */
typedef enum { SPEED_ULTRABULLET, SPEED_BULLET, SPEED_BLITZ, SPEED_RAPID, SPEED_CLASSICAL, SPEED_CORRESPONDENCE,
               SPEEDS } Speed;

typedef struct BotConfig {
    /* Where and who (the command line's --server and --token win over the file's). */
    char server[512], token[256];
    /* The engine: a command run with /bin/sh -c, and options set at its start. */
    char engine[1024];
    char opt_name[BOT_OPTIONS_MAX][64], opt_value[BOT_OPTIONS_MAX][256];
    int nopt;
    /* Limits added to every `go` (0: none). */
    long go_nodes;
    int go_depth;
    int move_overhead_ms;   /* taken off the bot's own clock in `go`, for the network */
    int movetime_ms;        /* `go movetime` in games without a real clock (days, unlimited) */
    /* Challenges accepted: variants (lichess keys; none listed: those the engine plays), */
    char variants[BOT_VARIANTS_MAX][BOT_KEY_MAX];
    int nvariants;
    unsigned speeds;        /* 1 << Speed */
    int clock_min_s, clock_max_s, increment_min_s, increment_max_s;
    int days_min, days_max; /* correspondence: days a move */
    bool unlimited;         /* games without a clock and without days */
    bool rated, casual;     /* rated games, casual games */
    bool bots, humans;      /* challengers that are bots, that are not */
    int concurrency;        /* games at once */
    /* In a game. */
    OfferPolicy draws, takebacks;
    int resign_score_cp;    /* > 0: resign after resign_moves moves in a row scored this far down */
    int resign_moves;
    StopPolicy on_stop;
    /* Tournaments: those joined once the event stream is open; berserk in their games. */
    char join[BOT_JOIN_MAX][BOT_ID_MAX];
    int njoin;
    bool berserk;
} BotConfig;

/* A challenge as the filters see it (read from lichess's challenge JSON by bot_events.c). */
typedef struct ChallengeInfo {
    char id[BOT_ID_MAX], challenger[BOT_ID_MAX], variant[BOT_KEY_MAX], speed[BOT_KEY_MAX];
    bool rated, challenger_is_bot;
    enum { TC_CLOCK, TC_CORRESPONDENCE, TC_UNLIMITED } tc;
    int limit_s, increment_s, days;
} ChallengeInfo;

/* ---- bot_config.c ---------------------------------------------------------------------- */

/* The defaults (docs/bots.md lists them). */
void bot_config_defaults(BotConfig *c);
/* Sets one key; false with err set for an unknown key or a bad value. */
bool bot_config_set(BotConfig *c, const char *key, const char *value, char *err, size_t errlen);
/* Reads `key = value` lines (# comments, blank lines); false with err naming the line. */
bool bot_config_read(BotConfig *c, const char *text, const char *name, char *err, size_t errlen);
bool bot_config_load(BotConfig *c, const char *path, char *err, size_t errlen);
/* With no variants listed, the engine's (the values of its UCI_Variant option, space-separated;
 * chess as lichess's `standard`; only standard when the engine offers none). */
void bot_config_engine_variants(BotConfig *c, const char *engine_variants);
/* NULL to accept the challenge, else why not: one of lichess's decline reasons, in lower
 * case (lichess reads them in any case; our server in lower case). */
const char *bot_verdict(const BotConfig *c, const ChallengeInfo *ch, int games_now);
/* lichess's speed key (`blitz`, ...) as a Speed; SPEEDS when unknown. */
Speed bot_speed(const char *key);
/* The UCI_Variant value for a server's variant key: lichess's `standard` and `fromPosition`
 * are chess; a few of lichess's keys are spelt otherwise by multi-variant engines. */
const char *bot_uci_variant(const char *key);

/* ---- bot_main.c: the stop flag and the log, for every thread --------------------------- */

/* True once SIGTERM or SIGINT came, or a thread asked the bot to stop. */
bool bot_stopping(void);
/* Stops the bot (the exit status it ends with: 0, or 1 after a fatal error). */
void bot_request_stop(int status);
/* One line on stderr: `starfish bot: ...`. */
void bot_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
