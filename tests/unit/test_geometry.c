/* Geometry: cell counts, names, coordinates and neighbours as the rules files give them. */
#include "../../src/geometry/geometry.h"
#include <stdlib.h>

#include "test.h"

static Cell cell(const Geometry *g, const char *name)
{
    int len;
    Cell c = geo_parse_cell(g, name, &len);
    return c != NO_CELL && name[len] == 0 ? c : NO_CELL;
}

static const char *neighbour(const Geometry *g, const char *from, const char *dir)
{
    Cell c = cell(g, from);
    for (int d = 0; d < g->ndirs; d++)
        if (strcmp(g->dir_name[d], dir) == 0)
            return g->step[c][d] == NO_CELL ? "-" : g->cell_name[g->step[c][d]];
    return "?";
}

static void check_round_trip(const Geometry *g)
{
    for (int c = 0; c < g->ncells; c++) {
        int len;
        CHECK_EQ_INT(geo_parse_cell(g, g->cell_name[c], &len), c);
        CHECK_EQ_INT(len, (int)strlen(g->cell_name[c]));
        CHECK_EQ_INT(geo_cell_at(g, g->q[c], g->r[c], g->level[c]), c);
    }
}

/* Every step has its opposite step back. */
static void check_symmetric_steps(const Geometry *g)
{
    for (int c = 0; c < g->ncells; c++)
        for (int d = 0; d < g->ndirs; d++) {
            Cell n = g->step[c][d];
            if (n == NO_CELL)
                continue;
            Vec back = {(int8_t)-g->dir[d].dq, (int8_t)-g->dir[d].dr, (int8_t)-g->dir[d].dl};
            CHECK_EQ_INT(g->step[n][geo_dir_index(g, back)], c);
        }
}

TEST(square_board_has_64_named_cells)
{
    const Geometry *g = geo_square8();
    CHECK_EQ_INT(g->ncells, 64);
    check_round_trip(g);
    check_symmetric_steps(g);
    CHECK_EQ_STR(g->cell_name[0], "a8"); /* position-text order: rank 8 first */
    CHECK_EQ_STR(g->cell_name[63], "h1");
    CHECK_EQ_INT(g->q[cell(g, "e4")], 4);
    CHECK_EQ_INT(g->r[cell(g, "e4")], 3);
    CHECK(cell(g, "i1") == NO_CELL);
    CHECK(cell(g, "a9") == NO_CELL);
}

TEST(square_board_neighbours)
{
    const Geometry *g = geo_square8();
    CHECK_EQ_STR(neighbour(g, "e4", "N"), "e5");
    CHECK_EQ_STR(neighbour(g, "e4", "SW"), "d3");
    CHECK_EQ_STR(neighbour(g, "a1", "W"), "-");
    CHECK_EQ_STR(neighbour(g, "h8", "NE"), "-");
    CHECK_EQ_STR(neighbour(g, "h8", "SW"), "g7");
    Cell ray[8];
    CHECK_EQ_INT(geo_ray(g, cell(g, "a1"), 4 /* NE */, ray), 7);
    CHECK_EQ_STR(g->cell_name[ray[6]], "h8");
}

/* The table of rules/starchess.md: cell number -> (q, r). */
static const int star_table[37][2] = {
    {-4, 2}, {-3, 1}, {-3, 2}, {-2, -2}, {-2, -1}, {-2, 0}, {-2, 1}, {-2, 2}, {-2, 3}, {-2, 4},
    {-1, -2}, {-1, -1}, {-1, 0}, {-1, 1}, {-1, 2}, {-1, 3}, {0, -2}, {0, -1}, {0, 0}, {0, 1},
    {0, 2}, {1, -3}, {1, -2}, {1, -1}, {1, 0}, {1, 1}, {1, 2}, {2, -4}, {2, -3}, {2, -2},
    {2, -1}, {2, 0}, {2, 1}, {2, 2}, {3, -2}, {3, -1}, {4, -2},
};

TEST(hexstar_has_37_cells_as_the_rules_table_says)
{
    const Geometry *g = geo_hexstar();
    CHECK_EQ_INT(g->ncells, 37);
    check_round_trip(g);
    check_symmetric_steps(g);
    for (int i = 0; i < 37; i++) {
        char name[16];
        snprintf(name, sizeof name, "%d", i + 1);
        Cell c = cell(g, name);
        CHECK(c != NO_CELL);
        if (c == NO_CELL)
            continue;
        CHECK_EQ_INT(g->q[c], star_table[i][0]);
        CHECK_EQ_INT(g->r[c], star_table[i][1]);
    }
    /* Columns of 1, 2, 7, 6, 5, 6, 7, 2, 1 cells. */
    static const int columns[9] = {1, 2, 7, 6, 5, 6, 7, 2, 1};
    CHECK_EQ_INT(g->nrows, 9);
    for (int i = 0; i < 9; i++)
        CHECK_EQ_INT(g->row_len[i], columns[i]);
    CHECK(cell(g, "38") == NO_CELL);
    CHECK(cell(g, "0") == NO_CELL);
    int len;
    CHECK_EQ_INT(geo_parse_cell(g, "12-3", &len), cell(g, "12")); /* "1" must not win */
    CHECK_EQ_INT(len, 2);
}

TEST(hexstar_neighbours)
{
    const Geometry *g = geo_hexstar();
    /* The centre 19 = (0,0): N (0,1) = 20, S = 18, NE (1,0) = 25, SE (1,-1) = 24,
     * NW (-1,1) = 14, SW (-1,0) = 13. */
    CHECK_EQ_STR(neighbour(g, "19", "N"), "20");
    CHECK_EQ_STR(neighbour(g, "19", "S"), "18");
    CHECK_EQ_STR(neighbour(g, "19", "NE"), "25");
    CHECK_EQ_STR(neighbour(g, "19", "SE"), "24");
    CHECK_EQ_STR(neighbour(g, "19", "NW"), "14");
    CHECK_EQ_STR(neighbour(g, "19", "SW"), "13");
    /* The left star tip 1 = (-4,2) has only NE (-3,2) = 3 and SE (-3,1) = 2. */
    CHECK_EQ_STR(neighbour(g, "1", "NE"), "3");
    CHECK_EQ_STR(neighbour(g, "1", "SE"), "2");
    CHECK_EQ_STR(neighbour(g, "1", "N"), "-");
    CHECK_EQ_STR(neighbour(g, "1", "S"), "-");
    CHECK_EQ_STR(neighbour(g, "1", "NW"), "-");
    CHECK_EQ_STR(neighbour(g, "1", "SW"), "-");
    /* 10 = (-2,4), the top of column q=-2: S = 9, SE (-1,3) = 16, nothing else. */
    CHECK_EQ_STR(neighbour(g, "10", "S"), "9");
    CHECK_EQ_STR(neighbour(g, "10", "SE"), "16");
    CHECK_EQ_STR(neighbour(g, "10", "N"), "-");
    CHECK_EQ_STR(neighbour(g, "10", "NE"), "-");
    /* 28 = (2,-4), bottom tip: N = 29, NW (1,-3) = 22. */
    CHECK_EQ_STR(neighbour(g, "28", "N"), "29");
    CHECK_EQ_STR(neighbour(g, "28", "NW"), "22");
    CHECK_EQ_STR(neighbour(g, "28", "NE"), "-");
    /* A rook ray along column q=0 from 17 upward: 18 19 20 21. */
    Cell ray[16];
    CHECK_EQ_INT(geo_ray(g, cell(g, "17"), 0, ray), 4);
    CHECK_EQ_STR(g->cell_name[ray[3]], "21");
}

TEST(hexstar_mirror_turns_white_forward_into_black_forward)
{
    const Geometry *g = geo_hexstar();
    Vec n = {0, 1, 0}, ne = {1, 0, 0}, nw = {-1, 1, 0};
    Vec s = geo_mirror(g, n), se = geo_mirror(g, ne), sw = geo_mirror(g, nw);
    CHECK(s.dq == 0 && s.dr == -1);
    CHECK(se.dq == 1 && se.dr == -1);
    CHECK(sw.dq == -1 && sw.dr == 0);
}

static int max3(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

TEST(megastar_has_182_cells_and_a_61_cell_drum_per_level)
{
    const Geometry *g = geo_megastar();
    CHECK_EQ_INT(g->ncells, 182);
    check_round_trip(g);
    check_symmetric_steps(g);
    int per_level[2] = {0, 0}, drum[2] = {0, 0};
    for (int c = 0; c < g->ncells; c++) {
        per_level[g->level[c]]++;
        int q = g->q[c], r = g->r[c];
        bool in_drum = max3(abs(q), abs(r), abs(q + r)) <= 4;
        CHECK_EQ_INT(geo_has_other_level(g, (Cell)c), in_drum);
        drum[g->level[c]] += in_drum;
        /* Vertical steps exist exactly inside the Drum. */
        CHECK_EQ_INT(g->step[c][12] != NO_CELL || g->step[c][13] != NO_CELL, in_drum);
    }
    CHECK_EQ_INT(per_level[0], 91);
    CHECK_EQ_INT(per_level[1], 91);
    CHECK_EQ_INT(drum[0], 61);
    CHECK_EQ_INT(drum[1], 61);
    CHECK_EQ_INT(g->nrows, 26);
}

TEST(megastar_names_follow_the_rules_file)
{
    const Geometry *g = geo_megastar();
    /* Files and rank ranges from the table in rules/megastar.md. */
    static const struct {
        char file;
        int q, upper_lo, upper_hi, lower_lo, lower_hi;
    } files[] = {
        {'a', -8, 1, 1, 0, 0}, {'b', -7, 1, 2, 0, 0},  {'c', -6, 1, 3, 0, 0},  {'d', -5, 1, 4, 0, 0},
        {'e', -4, 5, 9, 1, 13}, {'f', -3, 4, 9, 1, 12}, {'g', -2, 3, 9, 1, 11}, {'h', -1, 2, 9, 1, 10},
        {'i', 0, 1, 9, 1, 9},  {'j', 1, 1, 10, 2, 9},  {'k', 2, 1, 11, 3, 9},  {'l', 3, 1, 12, 4, 9},
        {'m', 4, 1, 13, 5, 9}, {'n', 5, 0, 0, 1, 4},   {'o', 6, 0, 0, 1, 3},   {'p', 7, 0, 0, 1, 2},
        {'q', 8, 0, 0, 1, 1},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        for (int level = 0; level < 2; level++) {
            int lo = level == 0 ? files[i].upper_lo : files[i].lower_lo;
            int hi = level == 0 ? files[i].upper_hi : files[i].lower_hi;
            for (int rank = 0; rank <= 14; rank++) {
                char name[16];
                snprintf(name, sizeof name, "%c%c%d", level == 0 ? 'U' : 'L', files[i].file, rank);
                Cell c = cell(g, name);
                bool exists = lo > 0 && rank >= lo && rank <= hi;
                CHECK_EQ_INT(c != NO_CELL, exists);
                if (exists) {
                    CHECK_EQ_INT(g->q[c], files[i].q);
                    CHECK_EQ_INT(g->level[c], level);
                }
            }
        }
    /* A cell and the one vertically beside it differ only in the level letter. */
    CHECK_EQ_STR(neighbour(g, "Ui5", "DOWN"), "Li5");
    CHECK_EQ_STR(neighbour(g, "Li5", "UP"), "Ui5");
    CHECK_EQ_STR(neighbour(g, "Ue5", "DOWN"), "Le5");
    CHECK_EQ_STR(neighbour(g, "Le4", "UP"), "-"); /* Le4 is outside the Drum */
    CHECK_EQ_STR(neighbour(g, "Ua1", "DOWN"), "-");
}

TEST(megastar_neighbours)
{
    const Geometry *g = geo_megastar();
    /* Ui5 is (0,0) (file i: rmin = -4, so rank = r + 5).  File j (q=1) has rmin = -5, so
     * NE (1,0) is Uj6 and SE (1,-1) is Uj5. */
    CHECK_EQ_STR(neighbour(g, "Ui5", "N"), "Ui6");
    CHECK_EQ_STR(neighbour(g, "Ui5", "S"), "Ui4");
    CHECK_EQ_STR(neighbour(g, "Ui5", "NE"), "Uj6");
    CHECK_EQ_STR(neighbour(g, "Ui5", "SE"), "Uj5");
    /* File h (q=-1): upper r from -3 to 4, lower from -4 to 5: rmin = -4, so (-1,1) is rank 6. */
    CHECK_EQ_STR(neighbour(g, "Ui5", "NW"), "Uh6");
    CHECK_EQ_STR(neighbour(g, "Ui5", "SW"), "Uh5");
    /* Diagonals (1,1) (2,-1) (1,-2) (-1,-1) (-2,1) (-1,2) from (0,0). */
    CHECK_EQ_STR(neighbour(g, "Ui5", "DNE"), "Uj7");
    CHECK_EQ_STR(neighbour(g, "Ui5", "DE"), "Uk6"); /* file k: rmin = -6, r = -1 */
    CHECK_EQ_STR(neighbour(g, "Ui5", "DSE"), "Uj4");
    CHECK_EQ_STR(neighbour(g, "Ui5", "DSW"), "Uh4");
    CHECK_EQ_STR(neighbour(g, "Ui5", "DW"), "Ug6");
    CHECK_EQ_STR(neighbour(g, "Ui5", "DNW"), "Uh7");
    /* The upper level's left tip Ua1 = (-8,4): only SE (-7,3) = Ub1 and NE (-7,4) = Ub2. */
    CHECK_EQ_STR(neighbour(g, "Ua1", "SE"), "Ub1");
    CHECK_EQ_STR(neighbour(g, "Ua1", "NE"), "Ub2");
    CHECK_EQ_STR(neighbour(g, "Ua1", "N"), "-");
    CHECK_EQ_STR(neighbour(g, "Ua1", "S"), "-");
}

/* The longest name that starts s, found by comparing s with every name (geo_parse_cell looks
 * only at the names that begin with s's first two bytes). */
static Cell longest_name_at(const Geometry *g, const char *s, int *len)
{
    Cell best = NO_CELL;
    *len = 0;
    for (int c = 0; c < g->ncells; c++) {
        int n = (int)strlen(g->cell_name[c]);
        if (n > *len && strncmp(s, g->cell_name[c], (size_t)n) == 0) {
            best = (Cell)c;
            *len = n;
        }
    }
    if (best != NO_CELL && g->numeric_names && s[*len] >= '0' && s[*len] <= '9') {
        best = NO_CELL;
        *len = 0;
    }
    return best;
}

/* Every name, its first character alone, and each followed by text that could extend it (a
 * digit, a letter, a separator, another name's start) parse as reading every name would. */
TEST(geo_parse_cell_reads_the_longest_name_on_every_board)
{
    const Geometry *boards[3] = {geo_square8(), geo_hexstar(), geo_megastar()};
    static const char *const tails[] = {"", "0", "1", "3", "9", "a", "U", "-", "x", "=Q", "e4", "19", "Ld3"};
    for (int b = 0; b < 3; b++) {
        const Geometry *g = boards[b];
        for (int c = 0; c < g->ncells; c++)
            for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
                char text[32], first[32];
                snprintf(text, sizeof text, "%s%s", g->cell_name[c], tails[t]);
                snprintf(first, sizeof first, "%c%s", g->cell_name[c][0], tails[t]);
                const char *texts[2] = {text, first};
                for (int k = 0; k < 2; k++) {
                    int len, expected_len;
                    Cell expected = longest_name_at(g, texts[k], &expected_len);
                    CHECK_EQ_INT(geo_parse_cell(g, texts[k], &len), expected);
                    CHECK_EQ_INT(len, expected_len);
                }
            }
        int len;
        CHECK_EQ_INT(geo_parse_cell(g, "", &len), NO_CELL);
        CHECK_EQ_INT(len, 0);
    }
}
