/*
 * Continuous analysis as Server-Sent Events (GET /api/analysis/stream).  Each stream searches
 * its position on a thread of its own with an Engine of its own (full strength, MultiPV) for
 * up to ANALYSIS_STREAM_MS and sends every finished iteration as an event `info`, then `done`.
 * Its connection is suspended while there is nothing to send (it holds no HTTP thread); the
 * search notices a client that hung up within about a second and stops.  At most
 * ANALYSIS_STREAMS run at once, each on a core; more get 503.
 */
#ifndef STARFISH_SERVER_ANALYSIS_STREAM_H
#define STARFISH_SERVER_ANALYSIS_STREAM_H

#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>

#include "../core/game.h"
#include "engine_worker.h"

#define ANALYSIS_STREAMS 2
#define ANALYSIS_LINES_MAX 8
#define ANALYSIS_STREAM_MS 60000
#define ANALYSIS_STREAM_HASH_MB 16

/* A stream searching g (taken over: *g is left zeroed) for `lines` lines, for the request on
 * connection c; NULL with *status (503) and err set when it cannot be opened. */
struct MHD_Response *analysis_stream_open(Game *g, int lines, struct MHD_Connection *c, int *status, char *err,
                                          size_t len);
/* Shutdown: every search stops and every stream ends; returns when their threads are done. */
void analysis_streams_close_all(void);
/* How many searches run. */
int analysis_streams_count(void);
/* An analysis's line as JSON: { score_cp, mate, depth, pv, pv_san, bestmove } (NULL when
 * memory runs out). */
json_t *analysis_json(const Analysis *a);

#endif
