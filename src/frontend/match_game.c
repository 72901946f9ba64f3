/*
 * One game of `starfish match`.  The rules core judges everything: each engine's move is read
 * by parse_move() and played with game_play() until game_status() ends the game.  The runner
 * keeps the clocks itself (monotonic time from `go` to `bestmove`).  An engine that plays an
 * illegal or unreadable move, exits, answers nothing in time or oversteps its clock (by more
 * than --timemargin) loses.
 */
#include "match_game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/notation.h"
#include "../core/opening.h"
#include "../core/pgn.h"
#include "../util/clock.h"
#include "../util/error.h"

#define HANDSHAKE_SECONDS 10.0  /* for uciok, and for readyok */
#define MARGIN_SECONDS 1.0      /* how long past its time (and margin) a move is waited for */
#define NODES_WAIT_SECONDS 60.0 /* how long a move under `go nodes` is waited for */
#define STOP_SECONDS 1.0        /* how long a late engine has to answer `stop` */
#define QUIT_SECONDS 1.0        /* how long an engine has to exit after `quit` */

static const char *const colour_name[2] = {"White", "Black"};

/* ------------------------------------------------------------------------------------ */
/* Engines */

static bool send_line(UciProc *p, const char *line, char *why, size_t whylen)
{
    if (uciproc_send(p, line))
        return true;
    return error_set(why, whylen, "exited (or stopped reading its input)");
}

/* Starts the engine and does the uci handshake; options and the variant are set here. */
static bool start_engine(UciProc *p, const EngineSpec *spec, const Variant *v, char *why, size_t whylen)
{
    return uciproc_handshake(p, spec->cmd, HANDSHAKE_SECONDS, why, whylen) &&
           uciproc_configure(p, v->def->name, spec->opt_name, spec->opt_value, spec->nopt, why, whylen);
}

/* The engine running (started again after a crash), told of a new game and ready. */
static bool engine_ready(UciProc *p, const EngineSpec *spec, const Variant *v, char *why, size_t whylen)
{
    bool ok = (p->pid != 0 || start_engine(p, spec, v, why, whylen)) && send_line(p, "ucinewgame", why, whylen) &&
              send_line(p, "isready", why, whylen) &&
              uciproc_wait_for(p, "readyok", HANDSHAKE_SECONDS, why, whylen);
    if (!ok)
        uciproc_stop(p, 0.1);
    return ok;
}

/* After a move not sent in time: `stop`, a moment for its bestmove, else the engine goes. */
static void recover_late_engine(UciProc *p)
{
    char why[100];
    if (!uciproc_send(p, "stop") || !uciproc_wait_for(p, "bestmove", STOP_SECONDS, why, sizeof why))
        uciproc_stop(p, 0.1);
}

void match_stop_engines(UciProc proc[2])
{
    for (int e = 0; e < 2; e++)
        uciproc_stop(&proc[e], QUIT_SECONDS);
}

/* ------------------------------------------------------------------------------------ */
/* A game under way */

typedef struct {
    const MatchConfig *cfg;
    UciProc *proc; /* per engine */
    Outcome *o;
    Game g;
    char head[FEN_MAX + 16]; /* "position startpos" or "position fen FEN" */
    Text moves;              /* " m1 m2 ...": every move since the start, as the engines are sent them */
    Text command;
    int engine_of[2];        /* per colour */
    double clock[2];         /* per colour, seconds */
    char (*notes)[PGN_NOTE_MAX]; /* the PGN's comment after each move ("" for the opening's) */
    int nnotes;
} Run;

/* Ends the game off the board: `side` loses, for the reason in o->detail (which becomes the
 * PGN's Termination, so a '"' or '\' from an engine's name or move is replaced). */
static void lose(Run *r, int side, const char *what)
{
    for (char *c = r->o->detail; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '\'';
    snprintf(r->o->what, sizeof r->o->what, "%s", what);
    r->g.ended = (GameResult){side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, r->o->detail};
}

/* Stops the match: this game cannot go on, for the reason given. */
static bool __attribute__((format(printf, 2, 3))) fatal(Run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->o->fatal, sizeof r->o->fatal, fmt, ap);
    va_end(ap);
    r->o->abandoned = true;
    return false;
}

/* The game at its opening: opening index / 2 of the book, or a random one. */
static bool set_up(Run *r, int index)
{
    const MatchConfig *cfg = r->cfg;
    char err[300], initial[FEN_MAX];
    int k = index / 2;
    bool ok = cfg->book.n ? opening_start(&cfg->book, k, cfg->v, &r->g, err, sizeof err)
                          : game_init(&r->g, cfg->v, NULL, err, sizeof err);
    if (!ok)
        return fatal(r, "opening %d does not load: %s", k + 1, err);
    if (!cfg->book.n)
        (cfg->mirrored_setup ? opening_random_mirrored : opening_random)(
            &r->g, cfg->random_plies, cfg->seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(k + 1)));
    Position start;
    pos_set_fen(&start, cfg->v, cfg->v->def->start_fen, err, sizeof err);
    pos_fen(&start, initial, sizeof initial);
    if (strcmp(r->g.start_fen, initial) == 0)
        snprintf(r->head, sizeof r->head, "position startpos");
    else
        snprintf(r->head, sizeof r->head, "position fen %s", r->g.start_fen);
    return game_moves_text(&r->g, &r->moves) || fatal(r, "out of memory");
}

/* Both engines ready for the game; one that is not loses it, and the match stops when neither is. */
static bool engines_ready(Run *r)
{
    const MatchConfig *cfg = r->cfg;
    char why[2][200];
    bool ok[2];
    for (int side = 0; side < 2; side++) {
        int e = r->engine_of[side];
        ok[side] = engine_ready(&r->proc[e], &cfg->eng[e], cfg->v, why[side], sizeof why[side]);
    }
    if (!ok[WHITE] && !ok[BLACK]) {
        int white_is_1 = r->engine_of[WHITE] == 0;
        return fatal(r, "neither engine is working: %s %s; %s %s", cfg->eng[0].name, why[white_is_1 ? WHITE : BLACK],
                     cfg->eng[1].name, why[white_is_1 ? BLACK : WHITE]);
    }
    for (int side = 0; side < 2; side++)
        if (!ok[side]) {
            snprintf(r->o->detail, sizeof r->o->detail, "%.100s (%s) %.190s", cfg->eng[r->engine_of[side]].name,
                     colour_name[side], why[side]);
            /* "exited ..." is a crash; a missing answer or a failed start is not */
            lose(r, side, strncmp(why[side], "exited", 6) == 0 ? "crash" : "engine failure");
        }
    return true;
}

/* A game still going after --max-plies is a draw, or what the variant's rule for draws says. */
static void adjudicate(Run *r)
{
    const VariantDef *d = r->cfg->v->def;
    GameResult res = d->decide_draw ? d->decide_draw(&r->g.pos, "max-plies") : (GameResult){RESULT_DRAW, ""};
    snprintf(r->o->detail, sizeof r->o->detail, "adjudication: %d plies played (--max-plies)%s", r->g.n,
             res.kind == RESULT_DRAW ? ", a draw" : "; the variant's rule for draws decides it");
    snprintf(r->o->what, sizeof r->o->what, "max-plies");
    r->g.ended = (GameResult){res.kind, r->o->detail};
}

/* The `go` command for the side to move, and how long its answer is waited for. */
static double go_command(const Run *r, int side, char *go, size_t len)
{
    const MatchConfig *cfg = r->cfg;
    int nodes = cfg->eng[r->engine_of[side]].nodes;
    if (nodes) {
        snprintf(go, len, "go nodes %d", nodes);
        return NODES_WAIT_SECONDS;
    }
    if (cfg->movetime_ms) {
        snprintf(go, len, "go movetime %d", cfg->movetime_ms);
        return cfg->movetime_ms / 1000.0 + MARGIN_SECONDS;
    }
    snprintf(go, len, "go wtime %lld btime %lld winc %lld binc %lld", (long long)(r->clock[WHITE] * 1000),
             (long long)(r->clock[BLACK] * 1000), (long long)(cfg->inc * 1000), (long long)(cfg->inc * 1000));
    return r->clock[side] + cfg->timemargin_ms / 1000.0 + MARGIN_SECONDS;
}

/* Sends the position and `go`, then reads lines until `bestmove` (its move into best) or the
 * deadline; the status of the last read, the seconds taken and the last score the engine
 * gave (sc->depth -1 when it gave none). */
static LineStatus ask(Run *r, UciProc *p, const char *go, double wait, char *best, double *elapsed, UciScore *sc)
{
    text_clear(&r->command);
    if (!text_addf(&r->command, "%s%s%s", r->head, r->g.n ? " moves" : "", text_str(&r->moves)))
        return fatal(r, "out of memory"), LINE_EOF;
    bool sent = uciproc_send(p, r->command.s);
    double start = clock_seconds();
    LineStatus st = sent && uciproc_send(p, go) ? LINE_OK : LINE_EOF;
    char line[ENGINE_LINE_MAX];
    best[0] = 0;
    sc->depth = -1;
    while (st == LINE_OK) {
        st = uciproc_read_line(p, line, sizeof line, start + wait);
        if (st == LINE_OK && uciproc_info_score(line, sc))
            continue;
        if (st == LINE_OK && uciproc_bestmove(line, best, ENGINE_LINE_MAX)) {
            *elapsed = clock_seconds() - start;
            return LINE_OK;
        }
    }
    *elapsed = clock_seconds() - start;
    return st;
}

/* Leaves a move text fit for a one-line report. */
static void sanitize(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (; *in && n + 1 < len; in++)
        out[n++] = (*in == '"' || *in == '\\' || (unsigned char)*in < 32) ? '?' : *in;
    out[n] = 0;
}

/* The comment on the move about to be played, as cutechess-cli writes it: the mover's score
 * in pawns (or +M5 / -M5, moves to mate) and depth from its last info line, and the seconds
 * it took.  False when memory runs out. */
static bool note_move(Run *r, const UciScore *sc, double elapsed)
{
    int ply = r->g.n;
    if (ply >= r->nnotes) {
        int n = ply < 64 ? 128 : 2 * ply;
        char(*grown)[PGN_NOTE_MAX] = realloc(r->notes, (size_t)n * sizeof *grown);
        if (!grown)
            return false;
        memset(grown + r->nnotes, 0, (size_t)(n - r->nnotes) * sizeof *grown);
        r->notes = grown;
        r->nnotes = n;
    }
    char *note = r->notes[ply];
    if (sc->depth < 0)
        snprintf(note, PGN_NOTE_MAX, "%.3fs", elapsed);
    else if (sc->mate)
        snprintf(note, PGN_NOTE_MAX, "%cM%d/%d %.3fs", sc->value < 0 ? '-' : '+', abs(sc->value), sc->depth, elapsed);
    else
        snprintf(note, PGN_NOTE_MAX, "%+.2f/%d %.3fs", sc->value / 100.0, sc->depth, elapsed);
    return true;
}

/* The move of the side to move, asked for, timed, judged and played; false when the game ended. */
static bool engine_move(Run *r)
{
    const MatchConfig *cfg = r->cfg;
    int side = r->g.pos.side, e = r->engine_of[side], ply = r->g.n + 1;
    UciProc *p = &r->proc[e];
    const char *name = cfg->eng[e].name;
    char go[160], best[ENGINE_LINE_MAX], err[200];
    double wait = go_command(r, side, go, sizeof go), elapsed;
    UciScore sc;
    LineStatus st = ask(r, p, go, wait, best, &elapsed, &sc);
    if (r->o->fatal[0])
        return false;
    if (st == LINE_EOF) {
        snprintf(r->o->detail, sizeof r->o->detail, "%s (%s) crashed: its process ended at ply %d", name,
                 colour_name[side], ply);
        lose(r, side, "crash");
        uciproc_stop(p, 0.1); /* reaps it; the next game starts it again */
        return false;
    }
    if (st == LINE_TIMEOUT) {
        snprintf(r->o->detail, sizeof r->o->detail, "%s (%s) sent no move within %.0f ms at ply %d", name,
                 colour_name[side], wait * 1000, ply);
        lose(r, side, "no answer");
        recover_late_engine(p);
        return false;
    }
    bool clocked = !cfg->eng[e].nodes && !cfg->movetime_ms;
    if (clocked && elapsed > r->clock[side] + cfg->timemargin_ms / 1000.0) {
        snprintf(r->o->detail, sizeof r->o->detail, "%s (%s) lost on time: took %.0f ms with %.0f ms left, ply %d",
                 name, colour_name[side], elapsed * 1000, r->clock[side] * 1000, ply);
        lose(r, side, "time forfeit");
        return false;
    }
    if (clocked) /* within the margin the clock stops at zero */
        r->clock[side] = (elapsed < r->clock[side] ? r->clock[side] - elapsed : 0) + cfg->inc;
    Move m = best[0] ? parse_move(&r->g.pos, best, err, sizeof err) : MOVE_NONE;
    if (m == MOVE_NONE) {
        char shown[48];
        sanitize(best, shown, sizeof shown);
        if (best[0])
            snprintf(r->o->detail, sizeof r->o->detail, "%s (%s) played '%s' at ply %d: %s", name, colour_name[side],
                     shown, ply, err);
        else
            snprintf(r->o->detail, sizeof r->o->detail, "%s (%s) sent 'bestmove' without a move at ply %d", name,
                     colour_name[side], ply);
        lose(r, side, "illegal move");
        return false;
    }
    char text[MOVE_TEXT_MAX];
    move_to_text(&r->g.pos, m, text);
    if (!text_addf(&r->moves, " %s", text) || !note_move(r, &sc, elapsed))
        return fatal(r, "out of memory");
    game_play(&r->g, m);
    return true;
}

/* The game's PGN, with the players' names, the round and the time control; NULL when memory
 * runs out. */
static char *game_record(Run *r)
{
    const MatchConfig *cfg = r->cfg;
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char date[32], round[16], tc[80];
    snprintf(date, sizeof date, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    snprintf(round, sizeof round, "%d", r->o->index + 1);
    snprintf(tc, sizeof tc, "%g+%g", cfg->base, cfg->inc);
    bool clocked = !cfg->movetime_ms && !cfg->eng[0].nodes && !cfg->eng[1].nodes;
    PgnTags tags = {.event = "starfish match",
                    .date = date,
                    .round = round,
                    .white = cfg->eng[r->engine_of[WHITE]].name,
                    .black = cfg->eng[r->engine_of[BLACK]].name,
                    .time_control = clocked ? tc : NULL,
                    .notes = r->notes,
                    .nnotes = r->nnotes < r->g.n ? r->nnotes : r->g.n};
    Text pgn = {0};
    if (!game_pgn(&r->g, &tags, &pgn))
        text_free(&pgn);
    return text_take(&pgn);
}

void match_play_game(const MatchConfig *cfg, UciProc proc[2], int index, atomic_bool *stop, Outcome *o)
{
    memset(o, 0, sizeof *o);
    o->index = index;
    o->engine_white = index % 2;
    Run r = {.cfg = cfg, .proc = proc, .o = o, .clock = {cfg->base, cfg->base}};
    r.engine_of[WHITE] = o->engine_white;
    r.engine_of[BLACK] = 1 - o->engine_white;
    if (set_up(&r, index) && engines_ready(&r)) {
        while (r.g.ended.kind == RESULT_NONE && game_status(&r.g).kind == RESULT_NONE) {
            if (atomic_load(stop)) {
                o->abandoned = true;
                break;
            }
            if (r.g.n >= cfg->max_plies) {
                adjudicate(&r);
                break;
            }
            if (!engine_move(&r))
                break;
        }
    }
    if (!o->abandoned) {
        GameResult res = game_status(&r.g);
        o->kind = res.kind;
        if (!o->what[0])
            snprintf(o->what, sizeof o->what, "%s", res.reason);
        if (!o->detail[0])
            snprintf(o->detail, sizeof o->detail, "%s", res.reason);
        o->plies = r.g.n;
        if (!(o->pgn = game_record(&r)))
            fatal(&r, "out of memory");
    }
    text_free(&r.moves);
    text_free(&r.command);
    free(r.notes);
    game_free(&r.g);
}
