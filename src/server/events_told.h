/*
 * What a game's event streams are told (GET /api/games/ID/events, docs/api.md): a stream
 * starts with the game's whole state, and each change then comes as a patch, the moves added
 * and the fields that changed, so that a spectator's event after a move is a few hundred
 * bytes.  A stream belongs to an audience: the spectators, or one side's player, who is also
 * sent the legal moves when it is that side's turn.  Each change is written once per audience
 * (a message shared by all its streams), and what was told is kept with the game (LiveGame's
 * `told`) to make the next patch from.  Every function here is called under the game's lock.
 */
#ifndef STARFISH_SERVER_EVENTS_TOLD_H
#define STARFISH_SERVER_EVENTS_TOLD_H

#include <stdbool.h>

#include "live_game.h"
#include "stream.h"

/* The audiences of a game's streams: a stream of side `you`'s player is audience you + 1. */
enum { AUDIENCE_SPECTATORS, AUDIENCE_WHITE, AUDIENCE_BLACK, AUDIENCES };

/* The messages of one change, by audience (one message may serve several). */
typedef struct Telling {
    StreamMessage *to[AUDIENCES];
} Telling;

/* The first event of a stream of side `you` (-1: a spectator): the game's state.  g's streams
 * are told from now on (g->told set up).  NULL when memory runs out. */
StreamMessage *told_first(LiveGame *g, int you);
/* What g's streams are told of its change since they were last told: true with a message per
 * audience in *t, or with none when memory ran out (each stream then ends, and its client
 * reconnects); false when nothing is to be told (nothing they see changed, or they were
 * never told anything). */
bool told_change(LiveGame *g, Telling *t);
/* Lets go of the messages of a Telling. */
void told_done(Telling *t);
/* Forgets what g's streams were told (none listens any more). */
void told_forget(LiveGame *g);

#endif
