/*
 * Terminal drawing.  Square boards get a framed grid with file and rank labels.  Other
 * boards are drawn from the geometry's drawing coordinates: each cell shows its name and
 * its piece (or '.'), so hex columns and levels appear where they lie on the page.
 */
#include "display.h"

#include <string.h>

#include "../core/movegen.h"

/* A framed grid; where the variant marks its squares, the mark is drawn beside the piece. */
static void draw_square(FILE *out, const Position *pos)
{
    const Geometry *g = pos->v->geo;
    char (*mark)(const Geometry *, Cell) = pos->v->def->cell_mark;
    int files = g->draw_w, ranks = g->draw_h;
    const char *rule = mark ? "+----" : "+---";
    for (int y = 0; y < ranks; y++) {
        fprintf(out, "   ");
        for (int x = 0; x < files; x++)
            fputs(rule, out);
        fprintf(out, "+\n %d ", ranks - y);
        for (int x = 0; x < files; x++) {
            Cell c = geo_cell_at(g, x, ranks - 1 - y, 0);
            char piece = pos->board[c] ? pos->v->letter[pos->board[c]] : ' ';
            if (mark)
                fprintf(out, "|%c  %c", piece, mark(g, c) - 'A' + 'a');
            else
                fprintf(out, "| %c ", piece);
        }
        fprintf(out, "|\n");
    }
    fprintf(out, "   ");
    for (int x = 0; x < files; x++)
        fputs(rule, out);
    fprintf(out, "+\n    ");
    for (int x = 0; x < files; x++)
        fprintf(out, mark ? "  %c  " : " %c  ", 'a' + x);
    fprintf(out, "\n%s", mark ? "   (piece at the left of a square, the square's mark at the right)\n" : "");
}

#define CANVAS_W 256
#define CANVAS_H 64

static void draw_canvas(FILE *out, const Position *pos)
{
    const Geometry *g = pos->v->geo;
    /* Hex columns alternate rows, so same-row cells are two columns apart. */
    int col_w = g->nlevels > 1 ? 3 : 5;
    char canvas[CANVAS_H][CANVAS_W];
    memset(canvas, ' ', sizeof canvas);
    int width = 0;
    for (Cell c = 0; c < g->ncells; c++) {
        char text[16];
        char empty = geo_has_other_level(g, c) ? ':' : '.';
        int n = snprintf(text, sizeof text, "%s%c", g->cell_name[c], pos->board[c] ? pos->v->letter[pos->board[c]] : empty);
        int x = g->draw_x[c] * col_w, y = g->draw_y[c];
        if (y >= CANVAS_H || x + n >= CANVAS_W)
            continue;
        memcpy(&canvas[y][x], text, (size_t)n);
        if (x + n > width)
            width = x + n;
    }
    for (int y = 0; y < g->draw_h && y < CANVAS_H; y++) {
        int end = width;
        while (end > 0 && canvas[y][end - 1] == ' ')
            end--;
        fprintf(out, "  %.*s\n", end, canvas[y]);
    }
    if (g->nlevels > 1)
        fprintf(out, "  (each cell: name, then its piece; '.' empty, ':' empty and in the Drum, which has a cell\n"
                     "   directly above or below it; upper level U left, lower level L right)\n");
}

void display_game(FILE *out, Game *g)
{
    Position *pos = &g->pos;
    const Variant *v = pos->v;
    char fen[FEN_MAX];
    fprintf(out, "\n");
    if (v->geo->file_rank_names)
        draw_square(out, pos);
    else
        draw_canvas(out, pos);
    pos_fen(pos, fen, sizeof fen);
    fprintf(out, "\nVariant: %s\nFen: %s\nKey: %016llx\nSide to move: %s\n", v->def->name, fen,
            (unsigned long long)pos->key, pos->side == WHITE ? "white" : "black");
    if (pos->hand_total[WHITE] + pos->hand_total[BLACK]) {
        fprintf(out, "In hand:");
        for (int side = 0; side < 2; side++)
            for (int t = 1; t <= v->ntypes; t++)
                for (int k = 0; k < pos->hand[side][t]; k++)
                    fprintf(out, " %c", v->letter[MAKE_PIECE(side, t)]);
        fprintf(out, "\n");
    }
    fprintf(out, "In check: %s\n", pos_in_check(pos) ? "yes" : "no");
    GameResult r = game_status(g);
    if (r.kind == RESULT_NONE)
        fprintf(out, "Status: ongoing\n");
    else
        fprintf(out, "Status: %s %s\n", result_text(r.kind), r.reason);
}
