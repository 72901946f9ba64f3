#include "game_hold.h"

#include <stdlib.h>

GameHold *game_hold_new(LiveGame *g)
{
    GameHold *h = calloc(1, sizeof *h);
    if (h)
        h->g = g;
    return h;
}

bool game_hold_wants_presence(const LiveGame *g, int you)
{
    return you >= 0 && g->has_clock && !g->days && g->result == RESULT_NONE;
}

void game_hold_enter(GameHold *h, int you, bool wanted)
{
    if (wanted)
        h->presence = presence_enter(h->g->id, you);
}

void game_hold_release(void *hold)
{
    GameHold *h = hold;
    if (h->presence)
        presence_leave(h->presence);
    service_release(h->g);
    free(h);
}
