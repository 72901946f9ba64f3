/*
 * `starfish match`: games between two UCI engines, adjudicated by the rules core.
 *
 * Each worker thread owns one process of each engine and plays whole games: a random
 * opening (the same one twice, colours swapped), then the engines' moves, each checked by
 * parse_move() and played with game_play(), until game_status() ends the game.  The runner
 * keeps the clocks itself (monotonic time from `go` to `bestmove`).  An engine that plays an
 * illegal or unreadable move, exits, answers nothing in time or oversteps its clock loses.
 */
#include "match.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/game.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../core/opening.h"
#include "../core/pgn.h"
#include "../util/clock.h"
#include "../util/error.h"
#include "../util/parse.h"
#include "../util/rng.h"
#include "../util/text.h"
#include "match_engine.h"
#include "match_stats.h"

#define MAX_OPTIONS 32
#define MAX_WORKERS 64
#define HANDSHAKE_SECONDS 10.0 /* for uciok, and for readyok */
#define MARGIN_SECONDS 1.0     /* how long past its time a move is waited for */
#define STOP_SECONDS 1.0       /* how long a late engine has to answer `stop` */
#define QUIT_SECONDS 1.0       /* how long an engine has to exit after `quit` */

typedef struct {
    const char *cmd;
    const char *name;
    char *opt_name[MAX_OPTIONS], *opt_value[MAX_OPTIONS];
    int nopt;
} EngineSpec;

typedef struct {
    EngineSpec eng[2];
    const Variant *v;
    int games, concurrency, opening_plies, max_plies;
    bool use_movetime;
    int movetime_ms;
    double base, inc; /* seconds */
    bool tc_given;
    char tc_text[64];
    uint64_t seed; /* 0: from the time */
    const char *pgn_path;
    bool sprt;
    double elo0, elo1, alpha, beta;
} Config;

typedef struct {
    const char *what;
    int count;
} Tally;

typedef struct {
    const Config *cfg;
    pthread_mutex_t lock;
    int next;     /* the next game to hand out */
    int finished; /* games counted */
    int w, d, l;  /* from engine1's view */
    Tally tally[64];
    int ntally;
    atomic_bool stop; /* no more games; games under way are abandoned */
    int verdict;      /* SPRT: +1 H1 accepted, -1 H0 accepted, 0 not (yet) */
    char fatal[512];
    bool tty;
    FILE *pgn;
    double lower, upper; /* SPRT bounds */
} Match;

typedef struct {
    Match *m;
    UciProc proc[2]; /* engine1's and engine2's processes */
    pthread_t thread;
} Worker;

/* The end of one game. */
typedef struct {
    int index;
    bool abandoned;
    int engine_white; /* 0: engine1 played White */
    ResultKind kind;
    const char *what; /* a short kind of ending, for the tally: "checkmate", "illegal move", ... */
    char detail[320]; /* the PGN's Termination */
    int plies;
    char *pgn;
} Outcome;

/* ------------------------------------------------------------------------------------ */
/* Arguments */

static bool read_tc(void *target, char **values, char *err, size_t errlen)
{
    Config *c = target;
    char copy[64];
    const char *text = values[0];
    char *plus = strlen(text) < sizeof copy ? strchr(strcpy(copy, text), '+') : NULL;
    if (plus)
        *plus = 0;
    c->inc = 0;
    if (strlen(text) >= sizeof copy || (plus && !parse_double(plus + 1, 0, 3600, &c->inc)) ||
        !parse_double(copy, 0, 86400, &c->base) || c->base <= 0)
        return error_set(err, errlen, "bad time control '%s' (expected BASE+INC in seconds, e.g. 1+0.01)", text);
    c->tc_given = true;
    return true;
}

static bool add_option(void *target, char **values, char *err, size_t errlen)
{
    EngineSpec *e = target;
    const char *text = values[0], *eq = strchr(text, '=');
    if (!eq || eq == text)
        return error_set(err, errlen, "bad option '%s' (expected NAME=VALUE)", text);
    if (e->nopt >= MAX_OPTIONS)
        return error_set(err, errlen, "more than %d options for one engine", MAX_OPTIONS);
    e->opt_name[e->nopt] = strndup(text, (size_t)(eq - text));
    e->opt_value[e->nopt] = strdup(eq + 1);
    e->nopt++;
    return true;
}

static bool read_variant(void *target, char **values, char *err, size_t errlen)
{
    const Variant **v = target;
    if (!(*v = variant_by_name(values[0])))
        return error_set(err, errlen, "unknown variant '%s' (see 'starfish help')", values[0]);
    return true;
}

static bool read_sprt(void *target, char **values, char *err, size_t errlen)
{
    Config *c = target;
    if (!parse_double(values[0], -1000, 1000, &c->elo0) || !parse_double(values[1], -1000, 1000, &c->elo1))
        return error_set(err, errlen, "--sprt needs two Elo values, not '%s %s'", values[0], values[1]);
    if (c->elo1 <= c->elo0)
        return error_set(err, errlen, "--sprt needs ELO0 < ELO1");
    c->sprt = true;
    return true;
}

static Config cfg = {.games = 20, .concurrency = 1, .opening_plies = 4, .max_plies = 1000, .base = 1, .inc = 0.01,
                     .alpha = 0.05, .beta = 0.05};

static const Option match_options[] = {
    OPTION_STRING("engine1", "CMD", "the first engine (for example ./starfish, /usr/games/stockfish)", &cfg.eng[0].cmd),
    OPTION_STRING("engine2", "CMD", "the second engine", &cfg.eng[1].cmd),
    OPTION_STRING("name1", "N", "the first engine's name (default: its command)", &cfg.eng[0].name),
    OPTION_STRING("name2", "N", "the second engine's name", &cfg.eng[1].name),
    OPTION_CALL("option1", "NAME=VALUE", "a UCI option for engine 1 (repeatable)", &cfg.eng[0], 1, add_option),
    OPTION_CALL("option2", "NAME=VALUE", "a UCI option for engine 2 (repeatable)", &cfg.eng[1], 1, add_option),
    OPTION_CALL("variant", "V", "the variant (default chess)", &cfg.v, 1, read_variant),
    OPTION_INT("games", "N", "games to play (default 20); each opening is played twice,\ncolours swapped", &cfg.games,
               1, 1000000),
    OPTION_CALL("tc", "BASE+INC", "clock per side and increment, seconds (default 1+0.01)", &cfg, 1, read_tc),
    OPTION_INT("movetime", "MS", "a fixed time per move instead of a clock", &cfg.movetime_ms, 1, 100000000),
    OPTION_INT("concurrency", "K", "games at once (default 1)", &cfg.concurrency, 1, MAX_WORKERS),
    OPTION_INT("openings", "PLIES",
               "random legal plies from the start (default 4); Starchess\n"
               "first gets a random full setup (its 10 placements)",
               &cfg.opening_plies, 0, 200),
    OPTION_U64("seed", "S", "seed for the openings (default, or 0: from the time)", &cfg.seed),
    OPTION_STRING("pgn", "FILE", "write every game to FILE", &cfg.pgn_path),
    OPTION_CALL("sprt", "ELO0 ELO1",
                "a sequential test of H1 (elo1) against H0 (elo0); stops\n"
                "the match when it concludes",
                &cfg, 2, read_sprt),
    OPTION_DOUBLE("alpha", "A", "the SPRT's chance of accepting H1 wrongly (default 0.05)", &cfg.alpha, 0.0001, 0.4999),
    OPTION_DOUBLE("beta", "B", "its chance of accepting H0 wrongly (default 0.05)", &cfg.beta, 0.0001, 0.4999),
    OPTION_INT("max-plies", "N",
               "adjudicate a game still going after N plies as a draw\n"
               "(default 1000; the variant's rule for draws applies)",
               &cfg.max_plies, 1, 1000000),
    OPTIONS_END,
};

const Command match_command = {
    "match", "--engine1 CMD --engine2 CMD [OPTIONS]", "games between two UCI engines (match --help)",
    "Plays games between two UCI engines (each CMD is run with /bin/sh -c); the rules core\n"
    "judges every move and every result.  An engine loses a game by an illegal or unreadable\n"
    "move, by exiting (it is started again for the next game), by sending no move in time,\n"
    "or when its clock, kept by the runner, runs out.",
    match_options, 0, 0};

/* Checks what no single option can and fills in the defaults; false after a message. */
static bool finish_config(Config *c)
{
    if (!c->eng[0].cmd || !c->eng[1].cmd)
        return options_fail(&match_command, "both --engine1 CMD and --engine2 CMD are needed"), false;
    if (c->movetime_ms && c->tc_given)
        return options_fail(&match_command, "--tc and --movetime exclude each other"), false;
    c->use_movetime = c->movetime_ms > 0;
    if (!c->v)
        c->v = variant_by_name("chess");
    if (!c->seed)
        c->seed = rng_fresh_seed();
    if (c->use_movetime)
        snprintf(c->tc_text, sizeof c->tc_text, "movetime %d ms", c->movetime_ms);
    else
        snprintf(c->tc_text, sizeof c->tc_text, "%g+%g", c->base, c->inc);
    /* Default names: the commands, told apart by a number when they are the same. */
    bool same = strcmp(c->eng[0].cmd, c->eng[1].cmd) == 0;
    for (int e = 0; e < 2; e++)
        if (!c->eng[e].name) {
            static char names[2][300];
            snprintf(names[e], sizeof names[e], same ? "%.280s (%d)" : "%.280s", c->eng[e].cmd, e + 1);
            c->eng[e].name = names[e];
        }
    if (c->concurrency > c->games)
        c->concurrency = c->games;
    return true;
}

/* ------------------------------------------------------------------------------------ */
/* Engines */

/* Waits for a line equal to `want`; false with why set on end of file or time out. */
static bool wait_for(UciProc *p, const char *want, double seconds, char *why, size_t whylen)
{
    char line[ENGINE_LINE_MAX];
    double deadline = clock_seconds() + seconds;
    for (;;) {
        LineStatus st = uciproc_read_line(p, line, sizeof line, deadline);
        if (st == LINE_EOF)
            return error_set(why, whylen, "exited while the runner waited for '%s'", want);
        if (st == LINE_TIMEOUT)
            return error_set(why, whylen, "sent no '%s' within %.0f s", want, seconds);
        char *t = line + strspn(line, " \t");
        size_t n = strlen(want);
        if (strncmp(t, want, n) == 0 && (t[n] == 0 || t[n] == ' ' || t[n] == '\t'))
            return true;
    }
}

static bool send_line(UciProc *p, const char *line, char *why, size_t whylen)
{
    if (uciproc_send(p, line))
        return true;
    return error_set(why, whylen, "exited (or stopped reading its input)");
}

/* Starts the engine and does the uci handshake; options and the variant are set here. */
static bool start_engine(UciProc *p, const EngineSpec *spec, const Variant *v, char *why, size_t whylen)
{
    char err[200], line[ENGINE_LINE_MAX];
    if (!uciproc_start(p, spec->cmd, err, sizeof err))
        return error_set(why, whylen, "could not be started: %.150s", err);
    if (!send_line(p, "uci", why, whylen))
        return false;
    double deadline = clock_seconds() + HANDSHAKE_SECONDS;
    for (;;) {
        LineStatus st = uciproc_read_line(p, line, sizeof line, deadline);
        if (st == LINE_EOF)
            return error_set(why, whylen, "exited during the uci handshake");
        if (st == LINE_TIMEOUT)
            return error_set(why, whylen, "sent no 'uciok' within %.0f s", HANDSHAKE_SECONDS);
        if (strncmp(line, "id name ", 8) == 0) {
            snprintf(p->id_name, sizeof p->id_name, "%.120s", line + 8);
        } else if (strncmp(line, "option name UCI_Variant ", 24) == 0) {
            p->has_variant_option = true;
        } else if (strcmp(line, "uciok") == 0 || strncmp(line, "uciok ", 6) == 0) {
            break;
        }
    }
    /* Chess engines that know no variants are left alone in chess. */
    char cmd[600];
    if (p->has_variant_option || strcmp(v->def->name, "chess") != 0) {
        snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s", v->def->name);
        if (!send_line(p, cmd, why, whylen))
            return false;
    }
    for (int i = 0; i < spec->nopt; i++) {
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", spec->opt_name[i], spec->opt_value[i]);
        if (!send_line(p, cmd, why, whylen))
            return false;
    }
    return true;
}

/* The engine running (started again after a crash), told of a new game and ready. */
static bool engine_ready(Worker *wk, int e, char *why, size_t whylen)
{
    const Config *cfg = wk->m->cfg;
    UciProc *p = &wk->proc[e];
    if (p->pid == 0 && !start_engine(p, &cfg->eng[e], cfg->v, why, whylen)) {
        uciproc_stop(p, 0.1);
        return false;
    }
    if (!send_line(p, "ucinewgame", why, whylen) || !send_line(p, "isready", why, whylen) ||
        !wait_for(p, "readyok", HANDSHAKE_SECONDS, why, whylen)) {
        uciproc_stop(p, 0.1);
        return false;
    }
    return true;
}

/* After a move not sent in time: `stop`, a moment for its bestmove, else the engine goes. */
static void recover_late_engine(UciProc *p)
{
    char why[100];
    if (!uciproc_send(p, "stop") || !wait_for(p, "bestmove", STOP_SECONDS, why, sizeof why))
        uciproc_stop(p, 0.1);
}

/* ------------------------------------------------------------------------------------ */
/* Games */

/* Plays a move, adding its coordinate notation to the list the engines are sent; false
 * (and nothing played) when memory runs out. */
static bool play(Game *g, Move m, Text *moves)
{
    char text[MOVE_TEXT_MAX];
    move_to_text(&g->pos, m, text);
    if (!text_addf(moves, " %s", text))
        return false;
    game_play(g, m);
    return true;
}

/* The coordinate notation of every move played, each after a space, into moves (replayed from
 * the start); false when memory runs out. */
static bool moves_text(Game *g, Text *moves)
{
    int played = g->n;
    bool ok = true;
    text_clear(moves);
    while (game_undo(g))
        ;
    for (int i = 0; i < played; i++) {
        char text[MOVE_TEXT_MAX];
        move_to_text(&g->pos, g->moves[i], text);
        ok = ok && text_addf(moves, " %s", text);
        game_play(g, g->moves[i]);
    }
    return ok;
}

/* Opening number k: the same random opening for both games of the pair. */
static bool play_opening(Game *g, const Config *cfg, int k, Text *moves)
{
    opening_random(g, cfg->opening_plies, cfg->seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(k + 1)));
    return moves_text(g, moves);
}

/* Ends the game off the board: `side` loses, for the reason in o->detail (which becomes the
 * PGN's Termination, so a '"' or '\' from an engine's name or move is replaced). */
static void lose(Game *g, Outcome *o, int side, const char *what)
{
    for (char *c = o->detail; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '\'';
    o->what = what;
    g->ended = (GameResult){side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, o->detail};
}

/* The game's PGN, with the players' names, the round and the time control; NULL when memory
 * runs out. */
static char *game_record(Game *g, const Config *cfg, const Outcome *o)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char date[32], round[16], tc[80];
    snprintf(date, sizeof date, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    snprintf(round, sizeof round, "%d", o->index + 1);
    snprintf(tc, sizeof tc, "%g+%g", cfg->base, cfg->inc);
    PgnTags tags = {.event = "starfish match",
                    .date = date,
                    .round = round,
                    .white = cfg->eng[o->engine_white].name,
                    .black = cfg->eng[1 - o->engine_white].name,
                    .time_control = cfg->use_movetime ? NULL : tc};
    Text pgn = {0};
    if (!game_pgn(g, &tags, &pgn))
        text_free(&pgn);
    return text_take(&pgn);
}

/* Leaves a move text fit for a one-line report. */
static void sanitize(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (; *in && n + 1 < len; in++)
        out[n++] = (*in == '"' || *in == '\\' || (unsigned char)*in < 32) ? '?' : *in;
    out[n] = 0;
}

/* Stops the match: a game that cannot go on for want of memory is abandoned. */
static void out_of_memory(Match *m, Outcome *o)
{
    pthread_mutex_lock(&m->lock);
    snprintf(m->fatal, sizeof m->fatal, "out of memory");
    pthread_mutex_unlock(&m->lock);
    atomic_store(&m->stop, true);
    o->abandoned = true;
}

static void play_game(Worker *wk, int index, Outcome *o)
{
    const Config *cfg = wk->m->cfg;
    memset(o, 0, sizeof *o);
    o->index = index;
    o->engine_white = index % 2;
    int engine_of[2] = {o->engine_white, 1 - o->engine_white}; /* per colour */
    const char *colour_name[2] = {"White", "Black"};
    Game g = {0};
    Text moves = {0}, command = {0};
    char err[200], why[2][200];
    if (!game_init(&g, cfg->v, NULL, err, sizeof err)) {
        snprintf(wk->m->fatal, sizeof wk->m->fatal, "the start position does not load: %s", err);
        atomic_store(&wk->m->stop, true);
        o->abandoned = true;
        goto done;
    }
    if (!play_opening(&g, cfg, index / 2, &moves)) {
        out_of_memory(wk->m, o);
        goto done;
    }

    bool ok[2];
    for (int side = 0; side < 2; side++)
        ok[side] = engine_ready(wk, engine_of[side], why[side], sizeof why[side]);
    if (!ok[WHITE] && !ok[BLACK]) {
        pthread_mutex_lock(&wk->m->lock);
        snprintf(wk->m->fatal, sizeof wk->m->fatal, "neither engine is working: %s %s; %s %s",
                 cfg->eng[0].name, why[engine_of[WHITE] == 0 ? WHITE : BLACK], cfg->eng[1].name,
                 why[engine_of[WHITE] == 1 ? WHITE : BLACK]);
        pthread_mutex_unlock(&wk->m->lock);
        atomic_store(&wk->m->stop, true);
        o->abandoned = true;
        goto done;
    }
    for (int side = 0; side < 2; side++)
        if (!ok[side]) {
            snprintf(o->detail, sizeof o->detail, "%.100s (%s) %.190s", cfg->eng[engine_of[side]].name,
                     colour_name[side], why[side]);
            /* "exited ..." is a crash; a missing answer or a failed start is not */
            lose(&g, o, side, strncmp(why[side], "exited", 6) == 0 ? "crash" : "engine failure");
        }

    double clock[2] = {cfg->base, cfg->base};
    while (g.ended.kind == RESULT_NONE && game_status(&g).kind == RESULT_NONE) {
        if (atomic_load(&wk->m->stop)) {
            o->abandoned = true;
            break;
        }
        if (g.n >= cfg->max_plies) {
            const VariantDef *d = cfg->v->def;
            GameResult r = d->decide_draw ? d->decide_draw(&g.pos, "max-plies") : (GameResult){RESULT_DRAW, ""};
            snprintf(o->detail, sizeof o->detail, "adjudication: %d plies played (--max-plies)%s", g.n,
                     r.kind == RESULT_DRAW ? ", a draw" : "; the variant's rule for draws decides it");
            o->what = "max-plies";
            g.ended = (GameResult){r.kind, o->detail};
            break;
        }
        int side = g.pos.side, e = engine_of[side];
        UciProc *p = &wk->proc[e];
        const char *name = cfg->eng[e].name;
        /* position ... moves ...; then go */
        text_clear(&command);
        if (!text_addf(&command, "position startpos%s%s", g.n ? " moves" : "", text_str(&moves))) {
            out_of_memory(wk->m, o);
            break;
        }
        char go[160];
        if (cfg->use_movetime)
            snprintf(go, sizeof go, "go movetime %d", cfg->movetime_ms);
        else
            snprintf(go, sizeof go, "go wtime %lld btime %lld winc %lld binc %lld",
                     (long long)(clock[WHITE] * 1000), (long long)(clock[BLACK] * 1000),
                     (long long)(cfg->inc * 1000), (long long)(cfg->inc * 1000));
        double allowed = cfg->use_movetime ? cfg->movetime_ms / 1000.0 : clock[side];
        bool sent = uciproc_send(p, command.s);
        double start = clock_seconds();
        sent = sent && uciproc_send(p, go);
        LineStatus st = sent ? LINE_OK : LINE_EOF;
        char line[ENGINE_LINE_MAX], best[ENGINE_LINE_MAX] = "";
        bool got = false;
        while (sent && !got) {
            st = uciproc_read_line(p, line, sizeof line, start + allowed + MARGIN_SECONDS);
            if (st != LINE_OK)
                break;
            char *t = line + strspn(line, " \t");
            if (strncmp(t, "bestmove", 8) == 0 && (t[8] == 0 || t[8] == ' ' || t[8] == '\t')) {
                got = true;
                t += 8;
                t += strspn(t, " \t");
                size_t n = strcspn(t, " \t");
                memcpy(best, t, n);
                best[n] = 0;
            }
        }
        double elapsed = clock_seconds() - start;
        if (!got && st == LINE_EOF) {
            snprintf(o->detail, sizeof o->detail, "%s (%s) crashed: its process ended at ply %d", name,
                     colour_name[side], g.n + 1);
            lose(&g, o, side, "crash");
            uciproc_stop(p, 0.1); /* reaps it; the next game starts it again */
            break;
        }
        if (!got) {
            snprintf(o->detail, sizeof o->detail, "%s (%s) sent no move within %.0f ms at ply %d", name,
                     colour_name[side], (allowed + MARGIN_SECONDS) * 1000, g.n + 1);
            lose(&g, o, side, "no answer");
            recover_late_engine(p);
            break;
        }
        if (!cfg->use_movetime) {
            if (elapsed > clock[side]) {
                snprintf(o->detail, sizeof o->detail, "%s (%s) lost on time: took %.0f ms with %.0f ms left, ply %d",
                         name, colour_name[side], elapsed * 1000, clock[side] * 1000, g.n + 1);
                lose(&g, o, side, "time forfeit");
                break;
            }
            clock[side] += cfg->inc - elapsed;
        }
        Move m = best[0] ? parse_move(&g.pos, best, err, sizeof err) : MOVE_NONE;
        if (m == MOVE_NONE) {
            char shown[48];
            sanitize(best, shown, sizeof shown);
            if (best[0])
                snprintf(o->detail, sizeof o->detail, "%s (%s) played '%s' at ply %d: %s", name, colour_name[side],
                         shown, g.n + 1, err);
            else
                snprintf(o->detail, sizeof o->detail, "%s (%s) sent 'bestmove' without a move at ply %d", name,
                         colour_name[side], g.n + 1);
            lose(&g, o, side, "illegal move");
            break;
        }
        if (!play(&g, m, &moves)) {
            out_of_memory(wk->m, o);
            break;
        }
    }
    text_free(&command);
    if (!o->abandoned) {
        GameResult r = game_status(&g);
        o->kind = r.kind;
        if (!o->what)
            o->what = r.reason;
        if (!o->detail[0])
            snprintf(o->detail, sizeof o->detail, "%s", r.reason);
        o->plies = g.n;
        o->pgn = game_record(&g, cfg, o);
        if (!o->pgn)
            out_of_memory(wk->m, o);
    }
done:
    text_free(&moves);
    game_free(&g);
}

/* ------------------------------------------------------------------------------------ */
/* Results */

static void format_elo(int w, int d, int l, char *buf, size_t len)
{
    double elo, err;
    elo_estimate(w, d, l, &elo, &err);
    char e[32], b[32];
    if (isnan(elo))
        snprintf(e, sizeof e, "n/a");
    else if (isinf(elo))
        snprintf(e, sizeof e, "%sinf", elo > 0 ? "+" : "-");
    else
        snprintf(e, sizeof e, "%+.1f", elo + 0.0); /* no "-0.0" */
    if (isnan(err))
        snprintf(b, sizeof b, "n/a");
    else if (isinf(err))
        snprintf(b, sizeof b, "inf");
    else
        snprintf(b, sizeof b, "%.1f", err);
    snprintf(buf, len, "%s +/- %s", e, b);
}

/* W-D-L, score, Elo and LLR: the progress line's text. */
static void format_standing(const Match *m, char *buf, size_t len)
{
    int n = m->w + m->d + m->l;
    char elo[80];
    format_elo(m->w, m->d, m->l, elo, sizeof elo);
    int used = snprintf(buf, len, "W-D-L %d-%d-%d, score %.1f%%, Elo %s", m->w, m->d, m->l,
                        n ? 100.0 * (m->w + 0.5 * m->d) / n : 0.0, elo);
    if (m->cfg->sprt && used > 0 && (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, ", LLR %.2f [%.2f, %.2f]",
                 sprt_llr(m->w, m->d, m->l, m->cfg->elo0, m->cfg->elo1), m->lower, m->upper);
}

static void record(Match *m, const Outcome *o)
{
    const Config *cfg = m->cfg;
    pthread_mutex_lock(&m->lock);
    m->finished++;
    /* engine1's result */
    int points = o->kind == RESULT_DRAW ? 1 : (o->kind == RESULT_WHITE_WINS) == (o->engine_white == 0) ? 2 : 0;
    if (points == 2)
        m->w++;
    else if (points == 1)
        m->d++;
    else
        m->l++;
    int t = 0;
    while (t < m->ntally && strcmp(m->tally[t].what, o->what) != 0)
        t++;
    if (t < m->ntally)
        m->tally[t].count++;
    else if (m->ntally < (int)(sizeof m->tally / sizeof m->tally[0]))
        m->tally[m->ntally++] = (Tally){o->what, 1};
    if (m->pgn && o->pgn) {
        fputs(o->pgn, m->pgn);
        fputs("\n", m->pgn);
        fflush(m->pgn);
    }
    if (cfg->sprt && !m->verdict) {
        double llr = sprt_llr(m->w, m->d, m->l, cfg->elo0, cfg->elo1);
        m->verdict = llr >= m->upper ? 1 : llr <= m->lower ? -1 : 0;
        if (m->verdict)
            atomic_store(&m->stop, true);
    }
    char standing[300];
    format_standing(m, standing, sizeof standing);
    if (m->tty) {
        printf("\r[%d/%d] %s\033[K", m->finished, cfg->games, standing);
    } else {
        printf("Game %d (%s vs %s): %s %s; after %d/%d: %s\n", o->index + 1, cfg->eng[o->engine_white].name,
               cfg->eng[1 - o->engine_white].name, result_text(o->kind), o->detail, m->finished, cfg->games,
               standing);
    }
    fflush(stdout);
    pthread_mutex_unlock(&m->lock);
}

static void *worker_main(void *arg)
{
    Worker *wk = arg;
    Match *m = wk->m;
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int index = atomic_load(&m->stop) || m->next >= m->cfg->games ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (index < 0)
            break;
        Outcome o;
        play_game(wk, index, &o);
        if (!o.abandoned)
            record(m, &o);
        free(o.pgn);
    }
    for (int e = 0; e < 2; e++)
        uciproc_stop(&wk->proc[e], QUIT_SECONDS);
    return NULL;
}

static void summary(const Match *m)
{
    const Config *cfg = m->cfg;
    int n = m->w + m->d + m->l;
    char elo[80];
    format_elo(m->w, m->d, m->l, elo, sizeof elo);
    printf("\nMatch: %s vs %s, %s, %d of %d games played%s\n", cfg->eng[0].name, cfg->eng[1].name, cfg->v->def->name,
           n, cfg->games, m->verdict ? " (stopped by the SPRT)" : "");
    printf("W-D-L: %d-%d-%d (wins, draws and losses of %s)\n", m->w, m->d, m->l, cfg->eng[0].name);
    printf("Score: %.1f/%d = %.1f%%\n", m->w + 0.5 * m->d, n, n ? 100.0 * (m->w + 0.5 * m->d) / n : 0.0);
    printf("Elo difference: %s (95%%)\n", elo);
    if (cfg->sprt) {
        double llr = sprt_llr(m->w, m->d, m->l, cfg->elo0, cfg->elo1);
        printf("SPRT: elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.3f, bounds [%.3f, %.3f]: %s\n", cfg->elo0,
               cfg->elo1, cfg->alpha, cfg->beta, llr, m->lower, m->upper,
               m->verdict > 0 ? "H1 accepted" : m->verdict < 0 ? "H0 accepted" : "inconclusive");
    }
    printf("Endings:");
    for (int t = 0; t < m->ntally; t++)
        printf("%s %s %d", t ? "," : "", m->tally[t].what, m->tally[t].count);
    printf("%s\n", m->ntally ? "" : " none");
}

int match_main(int argc, char **argv)
{
    int nargs, status;
    if (!options_parse(&match_command, argc, argv, NULL, &nargs, &status))
        return status;
    if (!finish_config(&cfg))
        return 2;
    static Match m;
    m.cfg = &cfg;
    pthread_mutex_init(&m.lock, NULL);
    atomic_init(&m.stop, false);
    m.tty = isatty(STDOUT_FILENO);
    sprt_bounds(cfg.alpha, cfg.beta, &m.lower, &m.upper);
    if (cfg.pgn_path) {
        m.pgn = fopen(cfg.pgn_path, "w");
        if (!m.pgn)
            return options_fail(&match_command, "cannot write the PGN file '%s'", cfg.pgn_path);
    }
    signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error code, not a signal */
    printf("Match: %s vs %s, %s, %d games, %s%s, concurrency %d, openings of %d plies, seed %llu\n",
           cfg.eng[0].name, cfg.eng[1].name, cfg.v->def->name, cfg.games, cfg.use_movetime ? "" : "tc ", cfg.tc_text,
           cfg.concurrency, cfg.opening_plies, (unsigned long long)cfg.seed);
    if (cfg.sprt)
        printf("SPRT: H0 elo %g, H1 elo %g, alpha %g, beta %g: bounds [%.3f, %.3f]\n", cfg.elo0, cfg.elo1, cfg.alpha,
               cfg.beta, m.lower, m.upper);
    fflush(stdout);

    static Worker workers[MAX_WORKERS];
    int started = 0;
    for (int i = 0; i < cfg.concurrency; i++) {
        workers[i].m = &m;
        if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) != 0)
            break;
        started++;
    }
    if (started == 0) {
        fprintf(stderr, "starfish match: cannot start a worker thread\n");
        return 1;
    }
    for (int i = 0; i < started; i++)
        pthread_join(workers[i].thread, NULL);
    if (m.tty && m.finished)
        printf("\n");
    summary(&m);
    if (m.pgn)
        fclose(m.pgn);
    if (m.fatal[0]) {
        fprintf(stderr, "starfish match: stopped: %s\n", m.fatal);
        return 1;
    }
    return 0;
}
