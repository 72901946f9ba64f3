/*
 * UCI, as multi-variant engines speak it: the variant is chosen with
 * `setoption name UCI_Variant value NAME`.  Every error is one line,
 * `info string error: ...`, and leaves the session as it was: a `position` command with a
 * bad position text or a bad move changes nothing.
 */
#include "uci.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/game.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../core/perft.h"
#include "../core/pgn.h"
#include "../engine/search.h"
#include "../tablebase/tb.h"
#include "../util/parse.h"
#include "display.h"

#define LINE_MAX_BYTES 65536
/* Enough for any line that fits the buffer: a token takes a byte and its separator another. */
#define MAX_TOKENS (LINE_MAX_BYTES / 2 + 1)

typedef struct {
    FILE *out;
    const Variant *variant;
    Game game;
    Engine engine;
    int skill_level, elo;
    bool limit_strength;
    /* The search runs on its own thread so that `stop` and `isready` are answered at once. */
    pthread_t thread;
    bool searching;
    SearchLimits limits;
} Session;

/* Ends a running search (its bestmove is printed) and waits for its thread. */
static void stop_search(Session *s)
{
    if (!s->searching)
        return;
    atomic_store(&s->engine.stop, true);
    pthread_join(s->thread, NULL);
    s->searching = false;
}

/* Reports bad input: one line, `info string error: ...`. */
static void __attribute__((format(printf, 2, 3))) error(Session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(s->out, "info string error: ");
    vfprintf(s->out, fmt, ap);
    fprintf(s->out, "\n");
    va_end(ap);
}

static void reset_game(Session *s)
{
    char err[160];
    game_init(&s->game, s->variant, NULL, err, sizeof err);
}

static void cmd_uci(Session *s)
{
    fprintf(s->out, "id name starfish\nid author the starfish developers\n");
    fprintf(s->out, "option name UCI_Variant type combo default %s", variant_at(0)->def->name);
    for (int i = 0; i < variant_count(); i++)
        fprintf(s->out, " var %s", variant_at(i)->def->name);
    fprintf(s->out, "\noption name Hash type spin default 16 min 1 max 4096\n"
                    "option name Clear Hash type button\n"
                    "option name Skill Level type spin default 20 min 0 max 20\n"
                    "option name UCI_LimitStrength type check default false\n"
                    "option name UCI_Elo type spin default 1500 min 800 max 2800\n"
                    "option name Greedy type check default false\n"
                    "option name TablebasePath type string default tb\n"
                    "uciok\n");
}

static bool read_int(const char *text, int min, int max, int *out)
{
    char *end;
    long n = strtol(text, &end, 10);
    if (!*text || *end || n < min || n > max)
        return false;
    *out = (int)n;
    return true;
}

/* The strength the engine plays at: Skill Level, or UCI_Elo when strength is limited. */
static void apply_strength(Session *s)
{
    int skill = s->skill_level;
    if (s->limit_strength) /* 800 Elo plays as level 0, 2800 as level 20 */
        skill = (s->elo - 800) / 100;
    s->engine.skill = skill < 0 ? 0 : skill > 20 ? 20 : skill;
}

static void set_engine_option(Session *s, const char *name, const char *value)
{
    int n;
    if (strcasecmp(name, "Hash") == 0) {
        if (!read_int(value, 1, 4096, &n))
            error(s, "Hash must be a number of megabytes from 1 to 4096, not '%s'", value);
        else if (!tt_resize(&s->engine.tt, (size_t)n))
            error(s, "cannot allocate %s MB for the hash table", value);
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        engine_new_game(&s->engine);
    } else if (strcasecmp(name, "Skill Level") == 0) {
        if (!read_int(value, 0, 20, &s->skill_level))
            error(s, "Skill Level must be from 0 to 20, not '%s'", value);
    } else if (strcasecmp(name, "UCI_LimitStrength") == 0) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            error(s, "UCI_LimitStrength must be true or false, not '%s'", value);
        s->limit_strength = strcmp(value, "true") == 0;
    } else if (strcasecmp(name, "Greedy") == 0) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            error(s, "Greedy must be true or false, not '%s'", value);
        s->engine.greedy = strcmp(value, "true") == 0;
    } else if (strcasecmp(name, "TablebasePath") == 0) {
        /* The Starchess tables' folder (`starfish tb generate`); "<empty>" turns them off. */
        tb_set_dir(strcmp(value, "<empty>") == 0 ? "" : value);
    } else if (strcasecmp(name, "UCI_Elo") == 0) {
        if (!read_int(value, 800, 2800, &s->elo))
            error(s, "UCI_Elo must be from 800 to 2800, not '%s'", value);
    } else {
        error(s, "unknown option '%s'", name);
    }
    apply_strength(s);
}

static void cmd_setoption(Session *s, char **tok, int n)
{
    /* setoption name NAME... value VALUE... */
    char name[256] = "", value[256] = "";
    char *dst = NULL;
    for (int i = 1; i < n; i++) {
        if (strcmp(tok[i], "name") == 0 && !dst) {
            dst = name;
            continue;
        }
        if (strcmp(tok[i], "value") == 0 && dst == name) {
            dst = value;
            continue;
        }
        if (!dst || strlen(dst) + strlen(tok[i]) + 2 > sizeof name) {
            error(s, "malformed setoption: expected 'setoption name NAME value VALUE'");
            return;
        }
        if (*dst)
            strcat(dst, " ");
        strcat(dst, tok[i]);
    }
    if (strcasecmp(name, "UCI_Variant") != 0) {
        set_engine_option(s, name, value);
        return;
    }
    const Variant *v = variant_by_name(value);
    if (!v) {
        error(s, "unknown variant '%s'", value);
        return;
    }
    s->variant = v;
    reset_game(s);
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
                error(s, "position text is too long");
                return;
            }
            if (*fen)
                strcat(fen, " ");
            strcat(fen, tok[i]);
        }
    } else {
        error(s, "malformed position: expected 'position startpos|fen FEN [moves ...]'");
        return;
    }
    if (i < n && strcmp(tok[i], "moves") != 0) {
        error(s, "malformed position: unexpected '%s'", tok[i]);
        return;
    }
    Game g = {0};
    if (!game_init(&g, s->variant, from_fen ? fen : NULL, err, sizeof err)) {
        error(s, "bad position: %s", err);
        game_free(&g);
        return;
    }
    for (i++; i < n; i++) {
        Move m = parse_move(&g.pos, tok[i], err, sizeof err);
        if (m == MOVE_NONE) {
            error(s, "%s", err);
            game_free(&g);
            return;
        }
        game_play(&g, m);
    }
    game_free(&s->game);
    s->game = g;
}

static void *search_thread(void *arg)
{
    Session *s = arg;
    SearchResult r = search_run(&s->engine, &s->game, &s->limits, s->out);
    char best[MOVE_TEXT_MAX] = "0000", ponder[MOVE_TEXT_MAX];
    if (r.best != MOVE_NONE)
        move_to_text(&s->game.pos, r.best, best);
    if (r.ponder != MOVE_NONE) {
        Undo u;
        pos_make(&s->game.pos, r.best, &u);
        move_to_text(&s->game.pos, r.ponder, ponder);
        pos_unmake(&s->game.pos, r.best, &u);
        fprintf(s->out, "bestmove %s ponder %s\n", best, ponder);
    } else {
        fprintf(s->out, "bestmove %s\n", best);
    }
    fflush(s->out);
    return NULL;
}

/* go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
 *    [movestogo N] [infinite] [ponder] */
static void start_search(Session *s, char **tok, int n)
{
    SearchLimits l = {0};
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        int *field = strcmp(k, "depth") == 0       ? &l.depth
                     : strcmp(k, "movetime") == 0  ? &l.movetime
                     : strcmp(k, "wtime") == 0     ? &l.time[WHITE]
                     : strcmp(k, "btime") == 0     ? &l.time[BLACK]
                     : strcmp(k, "winc") == 0      ? &l.inc[WHITE]
                     : strcmp(k, "binc") == 0      ? &l.inc[BLACK]
                     : strcmp(k, "movestogo") == 0 ? &l.movestogo
                                                   : NULL;
        int nodes;
        if (field) {
            if (i + 1 >= n || !read_int(tok[i + 1], -100000000, 1000000000, field)) {
                error(s, "go: '%s' needs a number", k);
                return;
            }
            i++;
        } else if (strcmp(k, "nodes") == 0) {
            if (i + 1 >= n || !read_int(tok[i + 1], 1, 2000000000, &nodes)) {
                error(s, "go: 'nodes' needs a positive number");
                return;
            }
            l.nodes = (uint64_t)nodes;
            i++;
        } else if (strcmp(k, "infinite") == 0) {
            l.infinite = true;
        } else if (strcmp(k, "ponder") != 0) {
            error(s, "go: unknown parameter '%s'", k);
            return;
        }
    }
    s->limits = l;
    atomic_store(&s->engine.stop, false);
    if (pthread_create(&s->thread, NULL, search_thread, s) != 0) {
        error(s, "cannot start the search thread");
        return;
    }
    s->searching = true;
}

static void cmd_go(Session *s, char **tok, int n)
{
    if (n >= 3 && strcmp(tok[1], "perft") == 0) {
        int depth;
        if (!parse_int(tok[2], 1, 64, &depth))
            error(s, "bad perft depth '%s'", tok[2]);
        else
            perft_divide(&s->game.pos, depth, s->out);
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
        error(s, "out of memory for the PGN");
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
    /* While a search runs only `isready` leaves it alone; anything else ends it first. */
    if (strcmp(c, "isready") != 0)
        stop_search(s);
    if (strcmp(c, "quit") == 0)
        return false;
    if (strcmp(c, "uci") == 0)
        cmd_uci(s);
    else if (strcmp(c, "isready") == 0)
        fprintf(s->out, "readyok\n");
    else if (strcmp(c, "setoption") == 0)
        cmd_setoption(s, tok, n);
    else if (strcmp(c, "ucinewgame") == 0) {
        reset_game(s);
        engine_new_game(&s->engine);
    }
    else if (strcmp(c, "position") == 0)
        cmd_position(s, tok, n);
    else if (strcmp(c, "go") == 0)
        cmd_go(s, tok, n);
    else if (strcmp(c, "d") == 0)
        display_game(s->out, &s->game);
    else if (strcmp(c, "pgn") == 0)
        cmd_pgn(s);
    else if (strcmp(c, "stop") == 0 || strcmp(c, "ponderhit") == 0)
        ; /* the search, if any, was stopped above */
    else
        error(s, "unknown command '%s'", c);
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
    if (!engine_init(&s.engine, 16)) {
        fprintf(out, "info string error: cannot allocate the hash table\n");
        return 1;
    }
    static char line[LINE_MAX_BYTES];
    size_t len;
    bool too_long;
    reset_game(&s);
    setvbuf(out, NULL, _IOLBF, 0);
    while (read_line(in, line, sizeof line, &len, &too_long)) {
        if (too_long) {
            fprintf(out, "info string error: line longer than %d bytes ignored\n", LINE_MAX_BYTES - 1);
            continue;
        }
        if (memchr(line, 0, len)) {
            fprintf(out, "info string error: line with a NUL byte ignored\n");
            continue;
        }
        if (!handle(&s, line))
            break;
        fflush(out);
    }
    stop_search(&s);
    game_free(&s.game);
    engine_free(&s.engine);
    return 0;
}
