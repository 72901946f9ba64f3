/*
 * Board geometry: a board is a set of cells (at most MAX_CELLS), each with integer
 * coordinates (q, r, level), a name, and a place on the page.  Every board of every game is
 * described with this one vocabulary:
 *
 *   - the 8x8 board: q = file 0..7, r = rank 0..7, one level;
 *   - the Starchess hexagram: axial hex coordinates, one level;
 *   - the Megastar board: axial hex coordinates on two levels.
 *
 * A direction is a vector (dq, dr, dlevel).  step[cell][dir] is the neighbouring cell in that
 * direction or NO_CELL; rays and leap targets are derived from it and from geo_cell_at().
 * Geometries are built once at start-up and are read-only afterwards.
 */
#ifndef STARFISH_GEOMETRY_H
#define STARFISH_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_CELLS 256
#define MAX_DIRS 16
#define MAX_LEVELS 2
#define NO_CELL 255
#define CELL_NAME_MAX 8
/* Coordinates are stored offset by COORD_BIAS in the lookup table. */
#define COORD_RANGE 32
#define COORD_BIAS 16
/* Buckets of the chains that geo_parse_cell follows (a power of two). */
#define NAME_BUCKETS 256

typedef uint8_t Cell;

typedef struct {
    int8_t dq, dr, dl;
} Vec;

typedef enum { MIRROR_SQUARE, MIRROR_HEX } MirrorKind;

typedef struct Geometry {
    const char *name;
    int ncells;
    int nlevels;
    int ndirs;
    MirrorKind mirror;
    /* Coordinates, names and drawing position (column, row on a character canvas). */
    int8_t q[MAX_CELLS], r[MAX_CELLS], level[MAX_CELLS];
    char cell_name[MAX_CELLS][CELL_NAME_MAX];
    int16_t draw_x[MAX_CELLS], draw_y[MAX_CELLS];
    int draw_w, draw_h;
    /* Directions and the neighbour table. */
    Vec dir[MAX_DIRS];
    const char *dir_name[MAX_DIRS];
    Cell step[MAX_CELLS][MAX_DIRS];
    /* Cells in position-text order: nrows rows; row i has row_len[i] cells. */
    int nrows;
    uint8_t row_len[MAX_CELLS];
    Cell row_cells[MAX_CELLS];
    /* (level, q, r) -> cell or NO_CELL. */
    Cell lookup[MAX_LEVELS][COORD_RANGE][COORD_RANGE];
    /* Cells chained by the first two bytes of their names (a one-character name's NUL the
     * second): geo_parse_cell compares a text only with the names that could start it. */
    Cell name_head[NAME_BUCKETS], name_next[MAX_CELLS];
    uint8_t name_len[MAX_CELLS];
    bool numeric_names;   /* names are numbers: coordinate notation uses FROM-TO */
    bool file_rank_names; /* names are file letter + rank (8x8): SAN disambiguates by either */
} Geometry;

const Geometry *geo_square8(void);
const Geometry *geo_hexstar(void);
const Geometry *geo_megastar(void);

/* The cell at (q, r, level), or NO_CELL when that is off the board. */
Cell geo_cell_at(const Geometry *g, int q, int r, int level);
/* The cell reached from `c` by vector v, or NO_CELL. */
Cell geo_add(const Geometry *g, Cell c, Vec v);
/* A vector seen from the other side of the board (White's forward becomes Black's). */
Vec geo_mirror(const Geometry *g, Vec v);
/* Each cell's image seen from the other side (out[c]: where a Black piece on c would stand
 * had White the same position): the rank flipped on square boards, y = 2r + q negated about
 * its middle on hex boards, level by level.  False when a cell has no image (not such a
 * board). */
bool geo_mirror_cells(const Geometry *g, Cell out[MAX_CELLS]);
/* Index of direction v in g->dir, or -1. */
int geo_dir_index(const Geometry *g, Vec v);
/*
 * Parses the longest cell name at the start of s; returns the cell and stores the number of
 * characters read in *len, or returns NO_CELL.
 */
Cell geo_parse_cell(const Geometry *g, const char *s, int *len);
/* True when a cell lies directly above or below c (on Megastar: c is in the Drum). */
bool geo_has_other_level(const Geometry *g, Cell c);
/* Writes the cells of the ray from c in direction dir (c excluded) to out; returns the count. */
int geo_ray(const Geometry *g, Cell c, int dir, Cell *out);

/* Shared builder used by the three board files. */
void geo_init(Geometry *g, const char *name, int nlevels, MirrorKind mirror);
Cell geo_add_cell(Geometry *g, int q, int r, int level, const char *name);
void geo_set_dirs(Geometry *g, const Vec *dirs, const char *const *names, int n);
/*
 * Adds hex column q of `level`, bottom to top, as one row of position text: the cells (q, r)
 * with on(q, r, level), named by name(), drawn at x = q + xoff, y = top - (2r + q) (flat-topped
 * hexes: neighbours in a column are two rows apart).
 */
void geo_add_hex_column(Geometry *g, int q, int level, int xoff, int top, bool (*on)(int q, int r, int level),
                        void (*name)(const Geometry *g, int q, int r, int level, char *out));
void geo_finish(Geometry *g);

#endif
