/*
 * The fields of the API's request bodies (JSON objects, jansson): each reader returns 0, or
 * the status to answer (400, or 503 when memory runs out) with err set (ERR_MAX bytes).
 */
#ifndef STARFISH_SERVER_API_FIELDS_H
#define STARFISH_SERVER_API_FIELDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "live_game.h"

#define ERR_MAX 400

/* The body as a JSON object in *out. */
int parse_body(const char *body, size_t len, json_t **out, char *err);
/* A form's body (application/x-www-form-urlencoded, as lichess's clients send) as a JSON
 * object of strings in *out; each name once. */
int parse_form(const char *body, size_t len, json_t **out, char *err);
/* An optional string field (*out NULL when absent or null), a required one. */
int opt_string(json_t *o, const char *key, const char **out, char *err);
int req_string(json_t *o, const char *key, const char **out, char *err);
/* An optional boolean field (*out = fallback when absent or null), and an optional integer
 * field within [min, max] (*out = fallback when absent).  A key "a.b" is that key, or "b"
 * inside an object "a". */
int opt_bool(json_t *o, const char *key, bool fallback, bool *out, char *err);
int opt_int(json_t *o, const char *key, long long min, long long max, long long fallback, long long *out, char *err);
/* The same for lichess's endpoints, whose clients send forms: the text of the value too
 * ("true", "42"). */
int form_bool(json_t *o, const char *key, bool fallback, bool *out, char *err);
int form_int(json_t *o, const char *key, long long min, long long max, long long fallback, long long *out, char *err);
int form_number(json_t *o, const char *key, double min, double max, double fallback, double *out, char *err);
/* "moves": an optional array of strings: 0 or 400. */
int check_moves(json_t *moves, char *err);
/* "variant": a variant's name. */
int read_variant(json_t *o, bool required, const Variant **v, char *err);
/* The options of POST /api/games (and /api/import) besides the variant and the position. */
int read_options(json_t *o, GameOptions *opt, char *err);

#endif
