#include "puzzle_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/mate.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../variants/registry.h"

#define VARIANTS_MAX 16

static struct {
    Puzzle *list;
    int n;
} sets[VARIANTS_MAX];

static int set_of(const Variant *v)
{
    for (int i = 0; i < variant_count() && i < VARIANTS_MAX; i++)
        if (variant_at(i) == v)
            return i;
    return -1;
}

int puzzles_count(const Variant *v)
{
    int s = set_of(v);
    return s < 0 ? 0 : sets[s].n;
}

const Puzzle *puzzle_find(const Variant *v, int number)
{
    int s = set_of(v);
    return s < 0 || number < 1 || number > sets[s].n ? NULL : &sets[s].list[number - 1];
}

void puzzles_free(void)
{
    for (int i = 0; i < VARIANTS_MAX; i++) {
        free(sets[i].list);
        sets[i].list = NULL;
        sets[i].n = 0;
    }
}

/* ---- Reading the files -------------------------------------------------------------------- */

/* Field `name` of a puzzle line ("keys d1d8 c2c3") into out: false when absent or too long. */
static bool field(char *const *fields, int n, const char *name, char *out, size_t len)
{
    size_t k = strlen(name);
    for (int i = 1; i < n; i++)
        if (strncmp(fields[i], name, k) == 0 && fields[i][k] == ' ')
            return snprintf(out, len, "%s", fields[i] + k + 1) < (int)len;
    return false;
}

/* Reads the space-separated moves of `text` from pos (a copy), each played when `line` (else
 * each a move of pos itself): how many, or -1 when one is not legal. */
static int read_moves(Position pos, const char *text, bool line, Position *end)
{
    char copy[PUZZLE_TEXT_MAX], *save = NULL, why[200];
    snprintf(copy, sizeof copy, "%s", text);
    int n = 0;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save), n++) {
        Move m = parse_move(&pos, t, why, sizeof why);
        if (m == MOVE_NONE)
            return -1;
        Undo u;
        if (line)
            pos_make(&pos, m, &u);
    }
    *end = pos;
    return n;
}

/* One line of a puzzle file: FEN;mate N;keys ...;line ...;proof ...;source ... */
static bool read_puzzle(const Variant *v, char *text, Puzzle *p, char *why, size_t len)
{
    char *fields[8], *save = NULL, mate[16];
    int n = 0;
    for (char *f = strtok_r(text, ";", &save); f && n < 8; f = strtok_r(NULL, ";", &save))
        fields[n++] = f;
    Position pos, end;
    *p = (Puzzle){.v = v};
    if (n < 6 || !field(fields, n, "mate", mate, sizeof mate) || !field(fields, n, "keys", p->keys, sizeof p->keys) ||
        !field(fields, n, "line", p->line, sizeof p->line) || !field(fields, n, "proof", p->proof, sizeof p->proof) ||
        !field(fields, n, "source", p->source, sizeof p->source)) {
        snprintf(why, len, "expected FEN;mate N;keys ...;line ...;proof ...;source ...");
        return false;
    }
    snprintf(p->fen, sizeof p->fen, "%s", fields[0]);
    p->mate = atoi(mate);
    char err[200];
    Move none[MAX_MOVES];
    if (!pos_set_fen(&pos, v, p->fen, err, sizeof err))
        snprintf(why, len, "bad position: %s", err);
    else if (p->mate < 1 || p->mate > MATE_MOVES_MAX)
        snprintf(why, len, "bad mate length '%s'", mate);
    else if (read_moves(pos, p->keys, false, &end) < 1)
        snprintf(why, len, "a key is not a legal move: %.200s", p->keys);
    else if (read_moves(pos, p->line, true, &end) != 2 * p->mate - 1 || !pos_in_check(&end) || gen_legal(&end, none) > 0)
        snprintf(why, len, "the line is not a mate in %d: %.200s", p->mate, p->line);
    else
        return true;
    return false;
}

static bool load_file(const Variant *v, FILE *f, const char *path, int set, char *err, size_t errlen)
{
    char text[FEN_MAX + 6 * PUZZLE_TEXT_MAX], why[300];
    for (int line = 1; fgets(text, sizeof text, f); line++) {
        text[strcspn(text, "\r\n")] = 0;
        if (!text[0] || text[0] == '#')
            continue;
        Puzzle *grown = realloc(sets[set].list, (size_t)(sets[set].n + 1) * sizeof *grown);
        if (!grown) {
            snprintf(err, errlen, "%s: out of memory", path);
            return false;
        }
        sets[set].list = grown;
        if (!read_puzzle(v, text, &grown[sets[set].n], why, sizeof why)) {
            snprintf(err, errlen, "%s line %d: %s", path, line, why);
            return false;
        }
        grown[sets[set].n].number = sets[set].n + 1;
        sets[set].n++;
    }
    return true;
}

bool puzzles_load(const char *dir, char *err, size_t errlen)
{
    for (int i = 0; i < variant_count() && i < VARIANTS_MAX; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.epd", dir, variant_at(i)->def->name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* no puzzles for this variant */
        bool ok = load_file(variant_at(i), f, path, i, err, errlen);
        fclose(f);
        if (!ok) {
            puzzles_free();
            return false;
        }
    }
    return true;
}

/* ---- Solving -------------------------------------------------------------------------------- */

/* Is m (legal in pos) one of the puzzle's keys? */
static bool is_key(const Puzzle *p, const Position *pos, Move m)
{
    char text[MOVE_TEXT_MAX];
    move_to_text(pos, m, text);
    size_t k = strlen(text);
    for (const char *at = p->keys; (at = strstr(at, text)); at += k)
        if ((at == p->keys || at[-1] == ' ') && (at[k] == ' ' || at[k] == 0))
            return true;
    return false;
}

static const char *side_word(int side)
{
    return side == WHITE ? "White" : "Black";
}

/* The player's move m (played, and wrong): why, and the defence that escapes (played too). */
static void fail(PuzzleAnswer *out, const char *san, int remaining)
{
    Game *g = &out->game;
    GameResult r = game_status(g);
    out->state = PUZZLE_FAILED;
    if (r.kind != RESULT_NONE) {
        snprintf(out->why, sizeof out->why, "%s ends the game by %s, not by checkmate", san, r.reason);
        return;
    }
    if (remaining == 1) {
        snprintf(out->why, sizeof out->why, "%s is not checkmate", san);
        return;
    }
    int left;
    Move escape = mate_best_defence(&g->pos, remaining - 1, &left);
    char reply[MOVE_TEXT_MAX];
    move_to_san(&g->pos, escape, reply);
    snprintf(out->why, sizeof out->why, "after %s, %s escapes with %s: no mate in %d follows", san,
             side_word(g->pos.side), reply, remaining - 1);
    out->escape = escape;
    game_play(g, escape);
}

/* The player's right move was just played: solved, or the best defence. */
static void defend(PuzzleAnswer *out, int remaining)
{
    Game *g = &out->game;
    if (game_status(g).kind != RESULT_NONE) {
        out->state = PUZZLE_SOLVED;
        return;
    }
    out->state = PUZZLE_GOES_ON;
    out->defence = mate_best_defence(&g->pos, remaining - 1, &out->left);
    game_play(g, out->defence);
}

GameStatus puzzle_answer(const Puzzle *p, const char *const *moves, int n, PuzzleAnswer *out, char *message,
                         size_t len)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n % 2 == 0 || n > 2 * p->mate - 1) {
        snprintf(message, len, "\"moves\" must be the player's moves and the defences in turn, ending with the "
                               "player's: an odd number, at most %d here", 2 * p->mate - 1);
        return GAME_BAD_ACTION;
    }
    char why[200];
    if (!game_init(&out->game, p->v, p->fen, why, sizeof why)) {
        snprintf(message, len, "%s", why);
        return GAME_NO_MEMORY;
    }
    Game *g = &out->game;
    for (int i = 0; i < n; i++) {
        Move m = game_status(g).kind == RESULT_NONE ? parse_move(&g->pos, moves[i], why, sizeof why) : MOVE_NONE;
        if (m == MOVE_NONE) {
            snprintf(message, len, "move %d: %s", i + 1, game_status(g).kind == RESULT_NONE ? why : "the game is over");
            game_free(g);
            return GAME_ILLEGAL_MOVE;
        }
        int remaining = p->mate - i / 2;
        bool right = i % 2 == 1 || (i == 0 ? is_key(p, &g->pos, m) : move_mates_within(&g->pos, m, remaining));
        char san[MOVE_TEXT_MAX];
        move_to_san(&g->pos, m, san);
        if (!game_play(g, m)) {
            snprintf(message, len, "out of memory");
            game_free(g);
            return GAME_NO_MEMORY;
        }
        if (!right) {
            fail(out, san, remaining);
            return GAME_OK;
        }
        if (i == n - 1)
            defend(out, remaining);
    }
    return GAME_OK;
}
