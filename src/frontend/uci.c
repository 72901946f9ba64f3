/*
 * UCI, as multi-variant engines speak it: the variant is chosen with
 * `setoption name UCI_Variant value NAME`.  Every error is one line,
 * `info string error: ...`, and leaves the session as it was: a `position` command with a
 * bad position text or a bad move changes nothing.
 */
#include "uci.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/game.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../core/perft.h"
#include "../core/pgn.h"
#include "display.h"

#define LINE_MAX_BYTES 65536
/* Enough for any line that fits the buffer: a token takes a byte and its separator another. */
#define MAX_TOKENS (LINE_MAX_BYTES / 2 + 1)

typedef struct {
    FILE *out;
    const Variant *variant;
    Game game;
} Session;

static void error(Session *s, const char *fmt, const char *arg)
{
    fprintf(s->out, "info string error: ");
    fprintf(s->out, fmt, arg);
    fprintf(s->out, "\n");
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
    fprintf(s->out, "\nuciok\n");
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
            error(s, "malformed setoption: expected 'setoption name NAME value VALUE'%s", "");
            return;
        }
        if (*dst)
            strcat(dst, " ");
        strcat(dst, tok[i]);
    }
    if (strcasecmp(name, "UCI_Variant") != 0) {
        error(s, "unknown option '%s'", name);
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
                error(s, "position text is too long%s", "");
                return;
            }
            if (*fen)
                strcat(fen, " ");
            strcat(fen, tok[i]);
        }
    } else {
        error(s, "malformed position: expected 'position startpos|fen FEN [moves ...]'%s", "");
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

static void cmd_go(Session *s, char **tok, int n)
{
    if (n >= 3 && strcmp(tok[1], "perft") == 0) {
        char *end;
        long depth = strtol(tok[2], &end, 10);
        if (*end || depth < 1 || depth > 64) {
            error(s, "bad perft depth '%s'", tok[2]);
            return;
        }
        Position *pos = &s->game.pos;
        Move moves[MAX_MOVES];
        int nm = gen_legal(pos, moves);
        uint64_t total = 0;
        for (int k = 0; k < nm; k++) {
            Undo u;
            char text[MOVE_TEXT_MAX];
            pos_make(pos, moves[k], &u);
            uint64_t count = depth > 1 ? perft(pos, (int)depth - 1) : 1;
            pos_unmake(pos, moves[k], &u);
            move_to_text(pos, moves[k], text);
            fprintf(s->out, "%s: %llu\n", text, (unsigned long long)count);
            total += count;
        }
        fprintf(s->out, "\nNodes searched: %llu\n", (unsigned long long)total);
        return;
    }
    error(s, "search is not available in this build: only 'go perft N'%s", "");
    fprintf(s->out, "bestmove 0000\n");
}

/* An extension: the game so far (from the last `position`) as PGN. */
static void cmd_pgn(Session *s)
{
    static char buf[1 << 20];
    game_pgn(&s->game, NULL, buf, sizeof buf);
    fputs(buf, s->out);
}

/* Splits line into whitespace-separated tokens in place. */
static int tokenize(char *line, char **tok)
{
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t && n < MAX_TOKENS; t = strtok(NULL, " \t\r\n"))
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
    if (strcmp(c, "quit") == 0)
        return false;
    if (strcmp(c, "uci") == 0)
        cmd_uci(s);
    else if (strcmp(c, "isready") == 0)
        fprintf(s->out, "readyok\n");
    else if (strcmp(c, "setoption") == 0)
        cmd_setoption(s, tok, n);
    else if (strcmp(c, "ucinewgame") == 0)
        reset_game(s);
    else if (strcmp(c, "position") == 0)
        cmd_position(s, tok, n);
    else if (strcmp(c, "go") == 0)
        cmd_go(s, tok, n);
    else if (strcmp(c, "d") == 0)
        display_game(s->out, &s->game);
    else if (strcmp(c, "pgn") == 0)
        cmd_pgn(s);
    else if (strcmp(c, "stop") == 0 || strcmp(c, "ponderhit") == 0)
        ; /* nothing runs in the background yet */
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
    Session s = {.out = out, .variant = variant_at(0)};
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
    game_free(&s.game);
    return 0;
}
