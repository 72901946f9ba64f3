/* Reading the derived rules (derived_data.c): dead positions and the 50-move exceptions. */
#include <string.h>

#include "tb_derived.h"
#include "tb_internal.h"

static bool covered(const Position *pos)
{
    return strcmp(pos->v->def->name, "starchess") == 0 && !pos->hand_total[0] && !pos->hand_total[1] &&
           pos->pcount[0] + pos->pcount[1] <= tb_derived_max_men;
}

static bool contains(const uint32_t *a, uint32_t n, uint32_t x)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == x;
}

bool tb_derived_dead(const Position *pos)
{
    if (!covered(pos))
        return false;
    TbSig sig;
    TbPos p;
    if (!tb_encode(pos, &sig, &p, NULL))
        return false;
    char name[32];
    tb_sig_name(&sig, name);
    for (int i = 0; i < tb_derived_ndead; i++) {
        const TbDerivedDead *d = &tb_derived_dead_sigs[i];
        if (strcmp(d->sig, name) != 0)
            continue;
        TbLayout L;
        tb_layout_init(&L, &sig);
        if (L.per_side != d->per_side || L.rest != d->rest || !tb_canon(&L, &p))
            return false;
        uint64_t idx = tb_index(&L, &p);
        if (idx == UINT64_MAX)
            return false;
        uint32_t group = (uint32_t)((uint64_t)p.side * L.rest + idx % L.rest);
        uint32_t entry = (uint32_t)((uint64_t)p.side * L.per_side + idx);
        return contains(d->groups, d->ngroups, group) != contains(d->exceptions, d->nexceptions, entry);
    }
    return false;
}

bool tb_derived_fifty_exception(const Position *pos)
{
    if (!covered(pos))
        return false;
    TbSig sig;
    TbPos p;
    if (!tb_encode(pos, &sig, &p, NULL))
        return false;
    char name[32];
    tb_sig_name(&sig, name);
    for (int i = 0; i < tb_derived_nfifty; i++)
        if (strcmp(tb_derived_fifty[i], name) == 0)
            return true;
    return false;
}
