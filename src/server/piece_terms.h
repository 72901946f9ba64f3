/* The names the rules give a piece in a particular situation (Starchess's limping pawn, dead
 * pawn and mummy), for the web client's piece tooltips and the rules pages. */
#ifndef STARFISH_SERVER_PIECE_TERMS_H
#define STARFISH_SERVER_PIECE_TERMS_H

#include <jansson.h>

#include "../core/variant.h"

/* The variant's terms: [{ piece, limping, cells, name, about }] (docs/api.md, VARIANT). */
json_t *piece_terms_json(const Variant *v);

#endif
