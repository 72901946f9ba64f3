/*
 * The board as the web client draws it.  Units: a square cell is 100 wide; a hex cell has a
 * radius (centre to corner) of 52.  Every level is laid out in its own frame (cx, cy of a cell
 * are relative to its level's frame), and a layout places the frames: side by side, or one
 * below the other, nested as closely as the cells allow (two-level boards get both; the client
 * takes the one that gives the largest cells on its screen).  Flipping the board turns the
 * drawing half a turn around the layout's pivot; labels carry their own flipped places, so
 * file letters stay under the board and titles stay in an empty corner.
 *
 * What differs between geometries is data: the style table below.
 */
#include "board_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SQUARE_SIDE 100.0
#define HEX_RADIUS 52.0
#define HEX_HALF_HEIGHT (HEX_RADIUS * 0.8660254037844386)
#define COORD_SIZE 20     /* file and rank labels */
#define COORD_GAP 17      /* from a cell's edge to its label's centre */
#define TITLE_SIZE 34     /* level titles */
#define LEVEL_GAP 34      /* between level frames, beyond the labels' room */
#define PAD 6             /* around everything */
#define TEXT_WIDTH 0.6    /* a character's width, as a share of the font size */
#define MAX_LABELS 160

typedef enum { TILE_SQUARE, TILE_HEX } Tiling;

/* How one geometry is drawn. */
typedef struct BoardStyle {
    const char *geometry; /* Geometry.name */
    const char *kind;     /* the board's kind in the API ("square" for square8) */
    Tiling tiling;
    int file_char;     /* index of the file letter in a cell name: labels under the columns; -1 none */
    bool rank_labels;  /* the rest of the name left of each row (square tilings) */
    int name_from;     /* cells show their name from this character on in a corner; -1 none */
    const char *level_titles[MAX_LEVELS];
    /* Two-level boards: the cells with a cell above or below them, and the others. */
    const char *zone_ids[2], *zone_names[2], *zone_texts[2];
} BoardStyle;

static const BoardStyle styles[] = {
    {"square8", "square", TILE_SQUARE, 0, true, -1, {NULL}, {NULL}, {NULL}, {NULL}},
    {"hexstar", "hexstar", TILE_HEX, -1, false, 0, {NULL}, {NULL}, {NULL}, {NULL}},
    {"megastar", "megastar", TILE_HEX, 1, false, 1, {"Upper level (U)", "Lower level (L)"}, {"drum", "rim"},
     {"Drum", "outside the Drum"}, {"the Drum (61 cells a level)", "outside the Drum"}},
};

/* The piece legend: how each piece moves, in a few words (from ../shared/rules). */
typedef struct PieceNote {
    const char *variant;
    char letter;
    const char *moves;
} PieceNote;

static const PieceNote notes[] = {
    {"megastar", 'K', "one step to a neighbouring cell, straight up or down, or sideways and to the other level at "
                      "once (in the Drum); royal"},
    {"megastar", 'R', "slides any distance along the six cell edges of its level, or one step up or down"},
    {"megastar", 'N', "leaps two cells straight on and to the other level (in the Drum); cannot be blocked"},
    {"megastar", 'P', "one step forward on its level; captures one step forward onto the other level; a double "
                      "step from a start cell; en passant; promotes on its file's last Drum cell"},
    {"megastar", 'C', "a Finch's or a Rabbi's move (either rose), or one step up or down"},
    {"megastar", 'F', "orthogonal rose: 1 to 4 steps through empty cells, each turned 60\u00b0 the same way; or "
                      "one step up or down"},
    {"megastar", 'T', "leaps \u221a13 (three cells on and one aside) to the other level, in the Drum; cannot be "
                      "blocked"},
    {"megastar", 'B', "diagonal rose: 1 to 4 diagonal steps, each turned 60\u00b0 the same way; never leaves its "
                      "level"},
    {"megastar", 'S', "leaps \u221a7 on its level (two cells on and one aside); cannot be blocked"},
    {"megastar", 'L', "slides along diagonals; captures only by jumping one piece to the first enemy beyond"},
    {"square-says", 'K', "royal; moves as its square's mark says"},
    {"square-says", 'M', "moves and captures as the piece its square's mark names (P: as a pawn)"},
};

/* ---- Cells in their level's frame ----------------------------------------------------------- */

typedef struct View {
    const Geometry *g;
    const BoardStyle *style;
    double halfw, halfh; /* half a cell's extent */
    double lx[MAX_CELLS], ly[MAX_CELLS];
    double fw[MAX_LEVELS], fh[MAX_LEVELS]; /* level frames */
} View;

static void place_cells(View *v)
{
    const Geometry *g = v->g;
    bool hex = v->style->tiling == TILE_HEX;
    double step_x = hex ? 1.5 * HEX_RADIUS : SQUARE_SIDE, step_y = hex ? HEX_HALF_HEIGHT : SQUARE_SIDE;
    v->halfw = hex ? HEX_RADIUS : SQUARE_SIDE / 2;
    v->halfh = hex ? HEX_HALF_HEIGHT : SQUARE_SIDE / 2;
    for (int l = 0; l < g->nlevels; l++) {
        int minx = 1 << 14, miny = 1 << 14, maxx = -minx, maxy = -miny;
        for (int c = 0; c < g->ncells; c++) {
            if (g->level[c] != l)
                continue;
            minx = g->draw_x[c] < minx ? g->draw_x[c] : minx;
            miny = g->draw_y[c] < miny ? g->draw_y[c] : miny;
            maxx = g->draw_x[c] > maxx ? g->draw_x[c] : maxx;
            maxy = g->draw_y[c] > maxy ? g->draw_y[c] : maxy;
        }
        for (int c = 0; c < g->ncells; c++) {
            if (g->level[c] != l)
                continue;
            v->lx[c] = v->halfw + (g->draw_x[c] - minx) * step_x;
            v->ly[c] = v->halfh + (g->draw_y[c] - miny) * step_y;
        }
        v->fw[l] = 2 * v->halfw + (maxx - minx) * step_x;
        v->fh[l] = 2 * v->halfh + (maxy - miny) * step_y;
    }
}

/* How far below cell a (above) cell b must start so that they do not overlap, by their
 * horizontal distance; negative: they never meet. */
static double clearance(const View *v, double dx)
{
    dx = fabs(dx);
    if (v->style->tiling == TILE_SQUARE)
        return dx < SQUARE_SIDE - 0.5 ? SQUARE_SIDE : -1;
    if (dx < 1.5 * HEX_RADIUS - 0.5)
        return 2 * HEX_HALF_HEIGHT; /* one column */
    return dx < 2 * HEX_RADIUS - 0.5 ? HEX_HALF_HEIGHT : -1;
}

/* ---- Layouts ------------------------------------------------------------------------------- */

typedef struct Label {
    char text[40];
    double x, y, fx, fy;
    int size, level; /* the level it names or marks */
    const char *anchor, *fanchor, *kind;
} Label;

typedef struct Layout {
    const char *name;
    double dx[MAX_LEVELS], dy[MAX_LEVELS];
    double px, py; /* the pivot of flipping */
    Label labels[MAX_LABELS];
    int nlabels;
} Layout;

static double cell_x(const View *v, const Layout *o, int c) { return o->dx[v->g->level[c]] + v->lx[c]; }
static double cell_y(const View *v, const Layout *o, int c) { return o->dy[v->g->level[c]] + v->ly[c]; }

/* Room under each level for its file letters. */
static double label_room(const View *v) { return v->style->file_char >= 0 ? 2 * COORD_GAP : 0; }

static void side_by_side(const View *v, Layout *o)
{
    o->name = "wide";
    double x = 0;
    for (int l = 0; l < v->g->nlevels; l++) {
        o->dx[l] = x;
        o->dy[l] = 0;
        x += v->fw[l] + LEVEL_GAP;
    }
}

/* Each level below the one before, left-aligned, as close as its cells allow. */
static void stacked(const View *v, Layout *o)
{
    const Geometry *g = v->g;
    o->name = "tall";
    for (int l = 0; l < g->nlevels; l++) {
        o->dx[l] = 0;
        o->dy[l] = 0;
        double need = 0;
        for (int a = 0; a < g->ncells; a++) {
            if (g->level[a] >= l)
                continue;
            for (int b = 0; b < g->ncells; b++) {
                if (g->level[b] != l)
                    continue;
                double gap = clearance(v, cell_x(v, o, a) - v->lx[b]);
                if (gap >= 0 && cell_y(v, o, a) + gap + label_room(v) + LEVEL_GAP / 2 - v->ly[b] > need)
                    need = cell_y(v, o, a) + gap + label_room(v) + LEVEL_GAP / 2 - v->ly[b];
            }
        }
        o->dy[l] = need;
    }
}

static Label *add_label(Layout *o, const char *text, int size, const char *kind, int level)
{
    if (o->nlabels == MAX_LABELS)
        return NULL;
    Label *lb = &o->labels[o->nlabels++];
    snprintf(lb->text, sizeof lb->text, "%s", text);
    lb->size = size;
    lb->kind = kind;
    lb->level = level;
    lb->anchor = lb->fanchor = "middle";
    return lb;
}

/* The cells of one column (same level, same x), lowest or highest, and of one row. */
static int column_end(const View *v, const Layout *o, int c, bool lowest)
{
    int best = c;
    for (int d = 0; d < v->g->ncells; d++)
        if (v->g->level[d] == v->g->level[c] && fabs(v->lx[d] - v->lx[c]) < 1 &&
            (lowest ? cell_y(v, o, d) > cell_y(v, o, best) : cell_y(v, o, d) < cell_y(v, o, best)))
            best = d;
    return best;
}

static int row_end(const View *v, const Layout *o, int c, bool leftmost)
{
    int best = c;
    for (int d = 0; d < v->g->ncells; d++)
        if (v->g->level[d] == v->g->level[c] && fabs(v->ly[d] - v->ly[c]) < 1 &&
            (leftmost ? cell_x(v, o, d) < cell_x(v, o, best) : cell_x(v, o, d) > cell_x(v, o, best)))
            best = d;
    return best;
}

/* File letters under each column, rank numbers left of each row: in a flipped board, under
 * (left of) the cell that turned to the bottom (the left). */
static void coordinate_labels(const View *v, Layout *o)
{
    const Geometry *g = v->g;
    const BoardStyle *s = v->style;
    for (int c = 0; c < g->ncells; c++) {
        if (s->file_char >= 0 && column_end(v, o, c, true) == c) {
            char text[2] = {g->cell_name[c][s->file_char], 0};
            int top = column_end(v, o, c, false);
            Label *lb = add_label(o, text, COORD_SIZE, "coord", g->level[c]);
            if (!lb)
                return;
            lb->x = cell_x(v, o, c);
            lb->y = cell_y(v, o, c) + v->halfh + COORD_GAP;
            lb->fx = 2 * o->px - cell_x(v, o, top);
            lb->fy = 2 * o->py - cell_y(v, o, top) + v->halfh + COORD_GAP;
        }
        if (s->rank_labels && row_end(v, o, c, true) == c) {
            int right = row_end(v, o, c, false);
            Label *lb = add_label(o, g->cell_name[c] + s->file_char + 1, COORD_SIZE, "coord", g->level[c]);
            if (!lb)
                return;
            lb->x = cell_x(v, o, c) - v->halfw - COORD_GAP;
            lb->y = cell_y(v, o, c);
            lb->fx = 2 * o->px - cell_x(v, o, right) - v->halfw - COORD_GAP;
            lb->fy = 2 * o->py - cell_y(v, o, right);
        }
    }
}

/* Distance from the nearest cell (any level) to a box; negative when a cell overlaps it. */
static double room_around(const View *v, const Layout *o, double x0, double y0, double x1, double y1)
{
    double best = 1e9;
    for (int c = 0; c < v->g->ncells; c++) {
        double x = cell_x(v, o, c), y = cell_y(v, o, c);
        double dx = fmax(fmax(x0 - x, x - x1), 0) - v->halfw, dy = fmax(fmax(y0 - y, y - y1), 0) - v->halfh;
        double d = fmax(dx, dy);
        best = d < best ? d : best;
    }
    return best;
}

/* Each level's title in the corner of its frame farthest from any cell (above the frame if
 * every corner is taken); flipped, it turns with the frame. */
static void level_titles(const View *v, Layout *o)
{
    for (int l = 0; l < v->g->nlevels; l++) {
        const char *title = v->style->level_titles[l];
        if (!title)
            continue;
        double w = TEXT_WIDTH * TITLE_SIZE * (double)strlen(title), h = TITLE_SIZE;
        double x0 = o->dx[l], y0 = o->dy[l], x1 = x0 + v->fw[l], y1 = y0 + v->fh[l];
        const double corners[4][2] = {{x0, y0}, {x1 - w, y0}, {x0, y1 - h}, {x1 - w, y1 - h}};
        int best = 0;
        double room = -1e9;
        for (int k = 0; k < 4; k++) {
            double r = room_around(v, o, corners[k][0], corners[k][1], corners[k][0] + w, corners[k][1] + h);
            if (r > room + 1) {
                room = r;
                best = k;
            }
        }
        double bx = corners[best][0], by = corners[best][1];
        if (room < 0) {
            bx = (x0 + x1 - w) / 2;
            by = y0 - h - 4;
        }
        Label *lb = add_label(o, title, TITLE_SIZE, "title", l);
        if (!lb)
            return;
        bool left = best % 2 == 0 || room < 0;
        lb->anchor = left ? "start" : "end";
        lb->fanchor = left ? "end" : "start";
        lb->x = left ? bx : bx + w;
        lb->y = by + h / 2;
        lb->fx = 2 * o->px - lb->x;
        lb->fy = 2 * o->py - lb->y;
    }
}

static void grow(double box[4], double x0, double y0, double x1, double y1)
{
    box[0] = fmin(box[0], x0);
    box[1] = fmin(box[1], y0);
    box[2] = fmax(box[2], x1);
    box[3] = fmax(box[3], y1);
}

static void grow_by_text(double box[4], double x, double y, const char *anchor, double w, double size)
{
    double x0 = strcmp(anchor, "start") == 0 ? x : strcmp(anchor, "end") == 0 ? x - w : x - w / 2;
    grow(box, x0, y - size / 2, x0 + w, y + size / 2);
}

static json_t *num(double x) { return json_integer((json_int_t)lround(x)); }

/* The layout as JSON, shifted so that everything drawn lies in [PAD, width - PAD]. */
static json_t *layout_json(const View *v, Layout *o)
{
    const Geometry *g = v->g;
    double cells[4] = {1e9, 1e9, -1e9, -1e9};
    for (int c = 0; c < g->ncells; c++)
        grow(cells, cell_x(v, o, c) - v->halfw, cell_y(v, o, c) - v->halfh, cell_x(v, o, c) + v->halfw,
             cell_y(v, o, c) + v->halfh);
    o->px = (cells[0] + cells[2]) / 2;
    o->py = (cells[1] + cells[3]) / 2;
    coordinate_labels(v, o);
    level_titles(v, o);
    double box[4] = {cells[0], cells[1], cells[2], cells[3]};
    for (int i = 0; i < o->nlabels; i++) {
        const Label *lb = &o->labels[i];
        double w = TEXT_WIDTH * lb->size * (double)strlen(lb->text);
        grow_by_text(box, lb->x, lb->y, lb->anchor, w, lb->size);
        grow_by_text(box, lb->fx, lb->fy, lb->fanchor, w, lb->size);
    }
    double sx = PAD - box[0], sy = PAD - box[1];
    json_t *levels = json_array(), *labels = json_array();
    for (int l = 0; l < g->nlevels; l++)
        json_array_append_new(levels, json_pack("[o, o]", num(o->dx[l] + sx), num(o->dy[l] + sy)));
    for (int i = 0; i < o->nlabels; i++) {
        const Label *lb = &o->labels[i];
        json_array_append_new(labels, json_pack("{s:s, s:o, s:o, s:o, s:o, s:i, s:s, s:s, s:s, s:i}", "text", lb->text,
                                                "x", num(lb->x + sx), "y", num(lb->y + sy), "fx", num(lb->fx + sx),
                                                "fy", num(lb->fy + sy), "size", lb->size, "anchor", lb->anchor,
                                                "fanchor", lb->fanchor, "kind", lb->kind, "level", lb->level));
    }
    return json_pack("{s:s, s:o, s:o, s:[o, o], s:o, s:o}", "name", o->name, "width", num(box[2] - box[0] + 2 * PAD),
                     "height", num(box[3] - box[1] + 2 * PAD), "pivot", num(o->px + sx), num(o->py + sy), "levels",
                     levels, "labels", labels);
}

static json_t *layouts_json(const View *v)
{
    Layout layout;
    json_t *list = json_array();
    memset(&layout, 0, sizeof layout);
    side_by_side(v, &layout);
    json_array_append_new(list, layout_json(v, &layout));
    if (v->g->nlevels > 1) {
        memset(&layout, 0, sizeof layout);
        stacked(v, &layout);
        json_array_append_new(list, layout_json(v, &layout));
    }
    return list;
}

/* ---- Cells, outline, legend ------------------------------------------------------------------ */

/* What every cell shares, around its centre: the outline, the box a piece is drawn in, and
 * where a cell's name and its mark are written (a corner, clear of the piece). */
static json_t *cell_shape_json(const View *v, bool marks)
{
    json_t *points = json_array();
    bool square = v->style->tiling == TILE_SQUARE;
    if (square) {
        static const int corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int i = 0; i < 4; i++)
            json_array_append_new(points, json_pack("[o, o]", num(corners[i][0] * v->halfw),
                                                    num(corners[i][1] * v->halfh)));
    } else {
        for (int i = 0; i < 6; i++) /* flat-topped: corners at 0, 60, ..., 300 degrees */
            json_array_append_new(points, json_pack("[o, o]", num(HEX_RADIUS * cos(M_PI / 3 * i)),
                                                    num(HEX_RADIUS * sin(M_PI / 3 * i))));
    }
    json_t *shape = json_pack("{s:o, s:o, s:o, s:{s:o, s:o}}", "points", points, "width", num(2 * v->halfw), "height",
                              num(2 * v->halfh), "piece", "size", num(square ? 0.9 * SQUARE_SIDE : 1.3 * HEX_RADIUS),
                              "dy", num(square ? 0 : 0.2 * HEX_HALF_HEIGHT));
    if (v->style->name_from >= 0) /* in the top edge's left half */
        json_object_set_new(shape, "text", json_pack("{s:o, s:o, s:i}", "dx", num(-0.42 * v->halfw), "dy",
                                                     num(-0.93 * v->halfh), "size", square ? 18 : 15));
    if (marks)
        json_object_set_new(shape, "mark", json_pack("{s:o, s:o, s:i}", "dx", num(-0.86 * v->halfw), "dy",
                                                     num(-0.88 * v->halfh), "size", 22));
    return shape;
}

static int mod(int a, int n) { return ((a % n) + n) % n; }

static json_t *cell_json(const View *v, const Variant *var, int c)
{
    const Geometry *g = v->g;
    const BoardStyle *s = v->style;
    int tone = s->tiling == TILE_SQUARE ? (g->q[c] + g->r[c] + 1) % 2 : mod(g->q[c] - g->r[c], 3);
    json_t *cell = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:i}", "name", g->cell_name[c], "q", g->q[c], "r",
                             g->r[c], "level", g->level[c], "x", g->draw_x[c], "y", g->draw_y[c], "cx", num(v->lx[c]),
                             "cy", num(v->ly[c]), "tone", tone);
    if (var->def->cell_mark) {
        char mark[2] = {var->def->cell_mark(g, (Cell)c), 0};
        json_object_set_new(cell, "mark", json_string(mark));
    }
    if (s->name_from >= 0)
        json_object_set_new(cell, "text", json_string(g->cell_name[c] + s->name_from));
    if (g->nlevels > 1) {
        bool drum = geo_has_other_level(g, (Cell)c);
        json_object_set_new(cell, "drum", json_boolean(drum));
        json_object_set_new(cell, "zone", json_string(s->zone_ids[drum ? 0 : 1]));
    }
    return cell;
}

static json_t *zones_json(const BoardStyle *s)
{
    json_t *zones = json_array();
    for (int i = 0; i < 2 && s->zone_ids[i]; i++)
        json_array_append_new(zones, json_pack("{s:s, s:s, s:s}", "id", s->zone_ids[i], "name", s->zone_names[i], "text",
                                                       s->zone_texts[i]));
    return zones;
}

static json_t *legend_json(const Variant *var)
{
    json_t *legend = json_array();
    const VariantDef *d = var->def;
    for (int t = 0; t < d->npieces; t++)
        for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
            if (strncmp(d->name, notes[i].variant, strlen(notes[i].variant)) == 0 && notes[i].letter == d->pieces[t].letter) {
                char letter[2] = {d->pieces[t].letter, 0};
                json_array_append_new(legend, json_pack("{s:s, s:s, s:s}", "letter", letter, "name", d->pieces[t].name,
                                                        "moves", notes[i].moves));
            }
    return legend;
}

static void caption(const View *v, char *out, size_t len)
{
    const Geometry *g = v->g;
    if (g->nlevels > 1)
        snprintf(out, len, "%d cells, %d levels", g->ncells, g->nlevels);
    else if (v->style->tiling == TILE_HEX)
        snprintf(out, len, "%d hex cells", g->ncells);
    else
        snprintf(out, len, "%d\u00d7%d", (int)lround(v->fw[0] / SQUARE_SIDE), (int)lround(v->fh[0] / SQUARE_SIDE));
}

static const BoardStyle *style_of(const Geometry *g)
{
    for (size_t i = 0; i < sizeof styles / sizeof styles[0]; i++)
        if (strcmp(styles[i].geometry, g->name) == 0)
            return &styles[i];
    return &styles[0];
}

json_t *board_view_json(const Variant *var)
{
    View v;
    memset(&v, 0, sizeof v);
    v.g = var->geo;
    v.style = style_of(v.g);
    place_cells(&v);
    const Geometry *g = v.g;
    json_t *cells = json_array();
    for (int c = 0; c < g->ncells; c++)
        json_array_append_new(cells, cell_json(&v, var, c));
    char text[40];
    caption(&v, text, sizeof text);
    json_t *view = json_pack("{s:o, s:i, s:o, s:o, s:o}", "cell", cell_shape_json(&v, var->def->cell_mark != NULL), "tones",
                             v.style->tiling == TILE_SQUARE ? 2 : 3, "zones", zones_json(v.style), "layouts",
                             layouts_json(&v), "legend", legend_json(var));
    return json_pack("{s:s, s:s, s:i, s:i, s:i, s:o, s:o}", "kind", v.style->kind, "caption", text, "levels",
                     g->nlevels, "width", g->draw_w, "height", g->draw_h, "cells", cells, "view", view);
}
