/*
 * UCI, as multi-variant engines speak it: the variant is chosen with
 * `setoption name UCI_Variant value NAME` (answered `info string variant NAME`, as
 * Fairy-Stockfish does).  Every error is one line, `info string error: ...`, and leaves the
 * session as it was: a `position` command with a bad position text or a bad move changes
 * nothing.
 *
 * Commands: uci, isready, setoption, ucinewgame, position, go (depth, nodes, movetime, mate,
 * wtime/btime/winc/binc/movestogo, infinite, ponder; `go perft N`), stop, ponderhit, quit,
 * and the extensions d (the board), pgn (the game so far) and eval (the static evaluations:
 * the hand-written one and the variant's net's).  The search runs on its own
 * thread, so `stop`, `ponderhit` and `isready` are answered at once; the search thread prints
 * `info` lines and `bestmove`, each line written whole so that lines never interleave.  `go
 * perft` runs on that thread too.  While either runs, `go` is refused (one error line, the
 * running one goes on) and any other command but `isready` and `ponderhit` ends it first
 * (`stop`, `quit`, `position`, ...); a perft given up prints the moves counted so far and
 * `info string perft N stopped`, without a total.  At the end of the input a search is ended
 * as by `quit`, but a perft finishes its count and prints its total, as Stockfish's does.
 */
#include "uci.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../core/perft.h"
#include "../core/pgn.h"
#include "../engine/eval.h"
#include "../engine/search.h"
#include "../nnue/nnue.h"
#include "../util/parse.h"
#include "../variants/registry.h"
#include "display.h"
#include "uci_session.h"

#define LINE_MAX_BYTES 65536
/* Enough for any line that fits the buffer: a token takes a byte and its separator another. */
#define MAX_TOKENS (LINE_MAX_BYTES / 2 + 1)
/* One output line: an `info` line with a principal variation of MAX_PLY moves fits. */
#define OUT_LINE_MAX (256 + MAX_PLY * (MOVE_TEXT_MAX + 1))

/* Writes one whole line (printf-style, the newline added), control bytes made safe. */
void uci_say(Session *s, const char *fmt, ...)
{
    char line[OUT_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    /* Text echoed from bad input may hold control bytes: none may reach a GUI's parser. */
    for (int i = 0; i < n; i++)
        if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
            line[i] = '?';
    line[n] = '\n';
    line[n + 1] = 0;
    fputs(line, s->out);
    fflush(s->out);
}


/* Waits for the search thread to end on its own. */
static void join_search(Session *s)
{
    if (!s->searching)
        return;
    pthread_join(s->thread, NULL);
    s->searching = false;
    s->counting_perft = false;
}

/* Ends a running search (its bestmove is printed) and waits for its thread. */
static void stop_search(Session *s)
{
    if (s->searching)
        atomic_store(&s->engine.stop, true);
    join_search(s);
}

/* Is a search or perft still at work (not only waiting to be joined)? */
static bool search_running(Session *s)
{
    return s->searching && !atomic_load(&s->job_done);
}

/* The search thread's job is over: said before its last line, so that a `go` sent on reading
 * that line finds it over. */
static void mark_job_done(Session *s)
{
    atomic_store(&s->job_done, true);
}

/* Runs `run` (the search or perft) on the search thread; stop_search ends it. */
static void start_thread(Session *s, void *(*run)(void *), bool perft)
{
    atomic_store(&s->engine.stop, false);
    atomic_store(&s->job_done, false);
    if (pthread_create(&s->thread, NULL, run, s) != 0) {
        uci_error(s, "cannot start the search thread");
        return;
    }
    s->searching = true;
    s->counting_perft = perft;
}

void uci_reset_game(Session *s)
{
    char err[160];
    game_init(&s->game, s->variant, NULL, err, sizeof err);
}

/* The current position's static evaluations, in centipawns for the side to move. */
static void cmd_eval(Session *s)
{
    const Position *pos = &s->game.pos;
    uci_say(s, "hand-written evaluation %d cp (side to move)", evaluate(pos, eval_tables(pos->v)));
    const NnueNet *net = nnue_net_for(pos->v);
    if (net)
        uci_say(s, "NNUE evaluation %d cp (side to move, %s)", nnue_evaluate_position(net, pos), net->name);
}

static void cmd_position(Session *s, char **tok, int n)
{
    char fen[FEN_MAX * 2] = "", err[200];
    int i = 1;
    bool from_fen = false;
    if (i < n && strcmp(tok[i], "startpos") == 0) {
        i++;
    } else if (i < n && strcmp(tok[i], "fen") == 0) {
        from_fen = true;
        for (i++; i < n && strcmp(tok[i], "moves") != 0; i++) {
            if (strlen(fen) + strlen(tok[i]) + 2 > sizeof fen) {
                uci_error(s, "position text is too long");
                return;
            }
            if (*fen)
                strcat(fen, " ");
            strcat(fen, tok[i]);
        }
    } else {
        uci_error(s, "malformed position: expected 'position startpos|fen FEN [moves ...]'");
        return;
    }
    if (i < n && strcmp(tok[i], "moves") != 0) {
        uci_error(s, "malformed position: unexpected '%s'", tok[i]);
        return;
    }
    Game g = {0};
    if (!game_init(&g, s->variant, from_fen ? fen : NULL, err, sizeof err)) {
        uci_error(s, "bad position: %s", err);
        game_free(&g);
        return;
    }
    for (i++; i < n;) {
        int used;
        Move m = parse_move_tokens(&g.pos, tok + i, n - i, &used, err, sizeof err);
        if (m == MOVE_NONE) {
            uci_error(s, "%s", err);
            game_free(&g);
            return;
        }
        game_play(&g, m);
        i += used;
    }
    game_free(&s->game);
    s->game = g;
}

/* ---- The search's reports ------------------------------------------------------------------ */

/* Appends a line's moves, each in coordinate notation, to text. */
static int append_moves(char *text, size_t size, const Position *root, const SearchLine *line)
{
    Position pos = *root;
    Undo undo;
    int len = 0;
    for (int k = 0; k < line->length && (size_t)len < size; k++) {
        char move[MOVE_TEXT_MAX];
        move_to_text(&pos, line->moves[k], move);
        len += snprintf(text + len, size - (size_t)len, " %s", move);
        pos_make(&pos, line->moves[k], &undo);
    }
    return len;
}

static void print_iteration(void *ctx, const Position *root, const SearchInfo *info)
{
    Session *s = ctx;
    uint64_t nps = info->seconds > 0 ? (uint64_t)(info->nodes / info->seconds) : 0;
    for (int i = 0; i < info->nlines; i++) {
        const SearchLine *line = &info->lines[i];
        char score[32], moves[OUT_LINE_MAX - 256];
        int mate = score_mate_moves(line->score);
        if (mate)
            snprintf(score, sizeof score, "mate %d", mate);
        else
            snprintf(score, sizeof score, "cp %d", line->score);
        moves[0] = 0;
        append_moves(moves, sizeof moves, root, line);
        uci_say(s, "info depth %d seldepth %d multipv %d score %s nodes %llu nps %llu hashfull %d tbhits %llu time %.0f pv%s",
            info->depth, info->seldepth, i + 1, score, (unsigned long long)info->nodes, (unsigned long long)nps,
            info->hashfull, (unsigned long long)info->tbhits, info->seconds * 1000, moves);
    }
}

static void print_current_move(void *ctx, const Position *root, Move m, int number, int depth)
{
    char move[MOVE_TEXT_MAX];
    move_to_text(root, m, move);
    uci_say(ctx, "info depth %d currmove %s currmovenumber %d", depth, move, number);
}

static void *search_thread(void *arg)
{
    Session *s = arg;
    SearchObserver observer = {print_iteration, print_current_move, s};
    SearchResult r = search_run(&s->engine, &s->game, &s->limits, &observer);
    char best[MOVE_TEXT_MAX] = "0000", ponder[MOVE_TEXT_MAX];
    if (r.best != MOVE_NONE)
        move_to_text(&s->game.pos, r.best, best);
    if (r.ponder != MOVE_NONE) {
        Undo u;
        pos_make(&s->game.pos, r.best, &u);
        move_to_text(&s->game.pos, r.ponder, ponder);
        pos_unmake(&s->game.pos, r.best, &u);
    }
    mark_job_done(s);
    if (r.ponder != MOVE_NONE)
        uci_say(s, "bestmove %s ponder %s", best, ponder);
    else
        uci_say(s, "bestmove %s", best);
    return NULL;
}

/* ---- go ------------------------------------------------------------------------------------ */

/* go [depth N] [nodes N] [movetime MS] [mate N] [wtime MS] [btime MS] [winc MS] [binc MS]
 *    [movestogo N] [infinite] [ponder] */
static void start_search(Session *s, char **tok, int n)
{
    SearchLimits l = {0};
    bool ponder = false;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        int *field = strcmp(k, "depth") == 0       ? &l.depth
                     : strcmp(k, "movetime") == 0  ? &l.movetime
                     : strcmp(k, "mate") == 0      ? &l.mate
                     : strcmp(k, "wtime") == 0     ? &l.time[WHITE]
                     : strcmp(k, "btime") == 0     ? &l.time[BLACK]
                     : strcmp(k, "winc") == 0      ? &l.inc[WHITE]
                     : strcmp(k, "binc") == 0      ? &l.inc[BLACK]
                     : strcmp(k, "movestogo") == 0 ? &l.movestogo
                                                   : NULL;
        int nodes;
        if (field) {
            if (i + 1 >= n || !parse_int(tok[i + 1], -100000000, 1000000000, field)) {
                uci_error(s, "go: '%s' needs a number", k);
                return;
            }
            i++;
        } else if (strcmp(k, "nodes") == 0) {
            if (i + 1 >= n || !parse_int(tok[i + 1], 1, 2000000000, &nodes)) {
                uci_error(s, "go: 'nodes' needs a positive number");
                return;
            }
            l.nodes = (uint64_t)nodes;
            i++;
        } else if (strcmp(k, "infinite") == 0) {
            l.infinite = true;
        } else if (strcmp(k, "ponder") == 0) {
            ponder = true;
        } else {
            uci_error(s, "go: unknown parameter '%s'", k);
            return;
        }
    }
    s->limits = l;
    atomic_store(&s->engine.pondering, ponder);
    start_thread(s, search_thread, false);
}

static void *perft_thread(void *arg)
{
    Session *s = arg;
    uint64_t total;
    bool counted = perft_divide_moves(&s->game.pos, s->perft_depth, s->out, &s->engine.stop, &total);
    mark_job_done(s);
    if (counted)
        perft_print_total(s->out, total);
    else
        uci_say(s, "info string perft %d stopped: only the moves above were counted", s->perft_depth);
    fflush(s->out);
    return NULL;
}

static void cmd_go(Session *s, char **tok, int n)
{
    if (n >= 3 && strcmp(tok[1], "perft") == 0) {
        if (!parse_int(tok[2], 1, 64, &s->perft_depth))
            uci_error(s, "bad perft depth '%s'", tok[2]);
        else
            start_thread(s, perft_thread, true);
        return;
    }
    start_search(s, tok, n);
}

/* An extension: the game so far (from the last `position`) as PGN. */
static void cmd_pgn(Session *s)
{
    Text pgn = {0};
    if (game_pgn(&s->game, NULL, &pgn))
        fputs(pgn.s, s->out);
    else
        uci_error(s, "out of memory for the PGN");
    text_free(&pgn);
}

/* Splits line into whitespace-separated tokens in place. */
static int tokenize(char *line, char **tok)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < MAX_TOKENS; t = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = t;
    return n;
}

/* Returns false on `quit`. */
static bool handle(Session *s, char *line)
{
    static char *tok[MAX_TOKENS];
    int n = tokenize(line, tok);
    if (n == 0)
        return true;
    const char *c = tok[0];
    if (strcmp(c, "isready") == 0) {
        if (!s->searching) {
            engine_prepare(&s->engine, s->variant);
            uci_say_evaluation(s);
        }
        uci_say(s, "readyok");
        return true;
    }
    if (strcmp(c, "ponderhit") == 0) {
        engine_ponderhit(&s->engine);
        return true;
    }
    /* While a search runs a `go` is refused, `isready` and `ponderhit` leave it alone, and
     * anything else ends it first. */
    if (strcmp(c, "go") == 0 && search_running(s)) {
        uci_error(s, "go: a search is running (stop ends it)");
        return true;
    }
    stop_search(s);
    if (strcmp(c, "quit") == 0)
        return false;
    if (strcmp(c, "uci") == 0)
        uci_cmd_uci(s);
    else if (strcmp(c, "setoption") == 0)
        uci_cmd_setoption(s, tok, n);
    else if (strcmp(c, "ucinewgame") == 0) {
        uci_reset_game(s);
        engine_new_game(&s->engine);
    } else if (strcmp(c, "position") == 0)
        cmd_position(s, tok, n);
    else if (strcmp(c, "go") == 0)
        cmd_go(s, tok, n);
    else if (strcmp(c, "d") == 0)
        display_game(s->out, &s->game);
    else if (strcmp(c, "pgn") == 0)
        cmd_pgn(s);
    else if (strcmp(c, "eval") == 0)
        cmd_eval(s);
    else if (strcmp(c, "stop") != 0) /* the search, if any, was stopped above */
        uci_error(s, "unknown command '%s'", c);
    return true;
}

/*
 * Reads one line, without its '\n', into buf; false at the end of the input.  A line longer
 * than size - 1 bytes is consumed whole and flagged; *len counts NUL bytes too.
 */
static bool read_line(FILE *in, char *buf, size_t size, size_t *len, bool *too_long)
{
    size_t n = 0;
    int ch;
    *too_long = false;
    while ((ch = getc(in)) != EOF && ch != '\n') {
        if (n + 1 < size)
            buf[n++] = (char)ch;
        else
            *too_long = true;
    }
    buf[n] = 0;
    *len = n;
    return ch != EOF || n > 0 || *too_long;
}

int uci_loop(FILE *in, FILE *out)
{
    static Session s;
    s = (Session){.out = out, .variant = variant_at(0), .skill_level = 20, .elo = 1500};
    if (!engine_init(&s.engine, HASH_DEFAULT)) {
        fprintf(out, "info string error: cannot allocate the hash table\n");
        return 1;
    }
    static char line[LINE_MAX_BYTES];
    size_t len;
    bool too_long;
    uci_reset_game(&s);
    bool quit = false;
    while (!quit && read_line(in, line, sizeof line, &len, &too_long)) {
        if (too_long) {
            uci_error(&s, "line longer than %d bytes ignored", LINE_MAX_BYTES - 1);
            continue;
        }
        if (memchr(line, 0, len)) {
            uci_error(&s, "line with a NUL byte ignored");
            continue;
        }
        quit = !handle(&s, line);
        fflush(out);
    }
    /* The end of the input lets a perft finish its count; `quit` and a search end now. */
    if (!quit && s.counting_perft)
        join_search(&s);
    stop_search(&s);
    game_free(&s.game);
    engine_free(&s.engine);
    return 0;
}
