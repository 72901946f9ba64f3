#include "posfile.h"

#include <string.h>

#include "../core/tables.h"
#include "../util/bytes.h"

/* A count per side and type where pieces wait in hand, else nothing. */
static int hand_bytes(const Variant *v)
{
    return v->def->fen_hand ? 2 * v->ntypes : 0;
}

int posfile_record_size(const Variant *v)
{
    return POSFILE_RECORD_HEAD + hand_bytes(v) + v->geo->ncells;
}

int posfile_data_offset(const Variant *v)
{
    return POSFILE_HEADER + v->geo->ncells;
}

bool posfile_write_header(FILE *f, const Variant *v)
{
    uint8_t h[POSFILE_HEADER] = "sfpos";
    le_put16(h + 8, POSFILE_VERSION);
    le_put16(h + 10, v->geo->ncells);
    le_put16(h + 12, v->ntypes);
    le_put16(h + 14, hand_bytes(v));
    le_put16(h + 16, posfile_record_size(v));
    strncpy((char *)h + 18, v->def->name, 21);
    for (int t = 1; t <= v->ntypes && t <= 23; t++)
        h[40 + t - 1] = (uint8_t)v->letter[MAKE_PIECE(WHITE, t)];
    Cell mirror[MAX_CELLS];
    size_t cells = (size_t)v->geo->ncells;
    return geo_mirror_cells(v->geo, mirror) && fwrite(h, 1, sizeof h, f) == sizeof h &&
           fwrite(mirror, 1, cells, f) == cells;
}

void posfile_encode(const Position *pos, int score, int result, int ply, uint8_t *out)
{
    const Variant *v = pos->v;
    int clamped = score > INT16_MAX ? INT16_MAX : score < INT16_MIN ? INT16_MIN : score;
    le_put16(out, clamped);
    out[2] = (uint8_t)(int8_t)result;
    out[3] = (uint8_t)pos->side;
    le_put16(out + 4, ply > UINT16_MAX ? UINT16_MAX : ply);
    uint8_t *p = out + POSFILE_RECORD_HEAD;
    if (hand_bytes(v))
        for (int side = 0; side < 2; side++)
            for (int t = 1; t <= v->ntypes; t++)
                *p++ = pos->hand[side][t];
    memcpy(p, pos->board, (size_t)v->geo->ncells);
}
