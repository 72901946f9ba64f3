/*
 * The board as the web client draws it (BOARD in docs/api.md): every cell's centre, colour and
 * texts in one coordinate space, the outline all cells share, file and rank labels, level titles,
 * the arrangements of the levels, the legend.  The client has one drawing routine for every
 * geometry: a new geometry adds a row to the style table in board_view.c, not code in web/.
 */
#ifndef STARFISH_SERVER_BOARD_VIEW_H
#define STARFISH_SERVER_BOARD_VIEW_H

#include <jansson.h>

#include "../core/variant.h"

/* A new JSON object describing the board of variant v (never NULL unless memory runs out). */
json_t *board_view_json(const Variant *v);

#endif
