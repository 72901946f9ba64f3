/*
 * A game's stream for boards and bots, in lichess's shapes: GET /api/board/game/stream/ID and
 * /api/bot/game/stream/ID, NDJSON on the streams of stream.h: gameFull first, then gameState
 * after every change (a move, an offer, the end), an empty line as a keep-alive every 7 s; the
 * stream ends after the state that ends the game.  Only an account seated in the game may open
 * it (a spectator has /api/games/ID/events).
 */
#ifndef STARFISH_SERVER_BOARD_STREAM_H
#define STARFISH_SERVER_BOARD_STREAM_H

#include <microhttpd.h>

#include "account_service.h"
#include "game_service.h"

/* Observes the game service (at start, after events_start: the streams' thread). */
bool board_stream_start(void);
/* The stream of game g for the principal on connection c (the stream holds a reference to g
 * of its own); NULL with *status and message set when it cannot be opened. */
struct MHD_Response *board_stream_open(LiveGame *g, const Principal *p, struct MHD_Connection *c, GameStatus *status,
                                       char *message, size_t len);
/* How many are open. */
int board_stream_count(void);

#endif
