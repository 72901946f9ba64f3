#include "api_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/parse.h"
#include "../variants/registry.h"
#include "util.h"

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes a form's name or value (len bytes: "+" is a space, "%XX" a byte) into out (len + 1
 * bytes); false on a bad escape or a NUL byte. */
static bool form_decode(const char *in, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        int hi, lo;
        if (in[i] == '+') {
            out[n++] = ' ';
        } else if (in[i] != '%') {
            out[n++] = in[i];
        } else if (i + 2 < len && (hi = hexval(in[i + 1])) >= 0 && (lo = hexval(in[i + 2])) >= 0 && (hi | lo)) {
            out[n++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            return false;
        }
    }
    out[n] = 0;
    return true;
}

int parse_form(const char *body, size_t len, json_t **out, char *err)
{
    json_t *o = *out = json_object();
    if (!o) {
        snprintf(err, ERR_MAX, "out of memory");
        return 503;
    }
    for (size_t at = 0; at < len;) {
        size_t pair = strcspn(body + at, "&"), eq = strcspn(body + at, "=");
        if (pair > len - at)
            pair = len - at;
        char *name = malloc(pair + 1), *value = malloc(pair + 1);
        bool ok = name && value && eq < pair && form_decode(body + at, eq, name) &&
                  form_decode(body + at + eq + 1, pair - eq - 1, value) && !json_object_get(o, name);
        int status = !name || !value ? 503 : ok ? 0 : 400;
        json_t *text = status ? NULL : json_string(value); /* NULL: not UTF-8 */
        if (!status && (!text || json_object_set_new(o, name, text) != 0))
            status = 400;
        free(name);
        free(value);
        if (status) {
            json_decref(o);
            *out = NULL;
            snprintf(err, ERR_MAX, status == 503 ? "out of memory" : "a bad form field (name=value, each once)");
            return status;
        }
        at += pair + 1;
    }
    return 0;
}

/* The body as a JSON object in *out: 0, or 400 (or 503: no memory) with err set. */
int parse_body(const char *body, size_t len, json_t **out, char *err)
{
    json_error_t e;
    util_json_memory_reset();
    json_t *j = *out = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
    if (util_json_memory_ran_out()) { /* no object, or one with a string cut short */
        json_decref(j);
        *out = NULL;
        snprintf(err, ERR_MAX, "out of memory");
        return 503;
    }
    if (!j) {
        snprintf(err, ERR_MAX, "invalid JSON: %s (line %d, column %d)", e.text, e.line, e.column);
        return 400;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        *out = NULL;
        snprintf(err, ERR_MAX, "the body must be a JSON object");
        return 400;
    }
    return 0;
}

/* An optional string field: 0 (and *out NULL when absent or null) or 400. */
int opt_string(json_t *o, const char *key, const char **out, char *err)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v)) {
        snprintf(err, ERR_MAX, "\"%s\" must be a string", key);
        return 400;
    }
    *out = json_string_value(v);
    return 0;
}

int req_string(json_t *o, const char *key, const char **out, char *err)
{
    int status = opt_string(o, key, out, err);
    if (!status && !*out) {
        snprintf(err, ERR_MAX, "missing \"%s\"", key);
        return 400;
    }
    return status;
}

/* The field named `key`: "clock.limit" is that key, or "limit" inside the object "clock". */
static json_t *field(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    const char *dot = strchr(key, '.');
    if (v || !dot)
        return v;
    char outer[32];
    snprintf(outer, sizeof outer, "%.*s", (int)(dot - key), key);
    json_t *inner = json_object_get(o, outer);
    return json_is_object(inner) ? json_object_get(inner, dot + 1) : NULL;
}

/* An optional boolean field: 0 (*out = fallback when absent or null) or 400; `text`: "true"
 * and "false" too. */
static int read_bool(json_t *o, const char *key, bool text_too, bool fallback, bool *out, char *err)
{
    json_t *v = field(o, key);
    const char *text = text_too ? json_string_value(v) : NULL;
    *out = fallback;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_boolean(v) || (text && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0))) {
        *out = json_is_true(v) || (text && strcmp(text, "true") == 0);
        return 0;
    }
    snprintf(err, ERR_MAX, "\"%s\" must be true or false", key);
    return 400;
}

/* An optional integer field within [min, max]: 0 (*out = fallback when absent) or 400;
 * `text_too`: the integer's text too. */
static int read_int(json_t *o, const char *key, bool text_too, long long min, long long max, long long fallback,
                    long long *out, char *err)
{
    json_t *v = field(o, key);
    const char *text = text_too ? json_string_value(v) : NULL;
    long parsed;
    *out = fallback;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_integer(v) && json_integer_value(v) >= min && json_integer_value(v) <= max) {
        *out = json_integer_value(v);
        return 0;
    }
    if (text && parse_long(text, (long)min, (long)max, &parsed)) {
        *out = parsed;
        return 0;
    }
    snprintf(err, ERR_MAX, "\"%s\" must be an integer from %lld to %lld", key, min, max);
    return 400;
}

int opt_bool(json_t *o, const char *key, bool fallback, bool *out, char *err)
{
    return read_bool(o, key, false, fallback, out, err);
}

int form_number(json_t *o, const char *key, double min, double max, double fallback, double *out, char *err)
{
    json_t *v = field(o, key);
    const char *text = json_string_value(v);
    *out = fallback;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_number(v) && json_number_value(v) >= min && json_number_value(v) <= max) {
        *out = json_number_value(v);
        return 0;
    }
    if (text && parse_double(text, min, max, out))
        return 0;
    snprintf(err, ERR_MAX, "\"%s\" must be a number from %g to %g", key, min, max);
    return 400;
}

int opt_int(json_t *o, const char *key, long long min, long long max, long long fallback, long long *out, char *err)
{
    return read_int(o, key, false, min, max, fallback, out, err);
}

int form_bool(json_t *o, const char *key, bool fallback, bool *out, char *err)
{
    return read_bool(o, key, true, fallback, out, err);
}

int form_int(json_t *o, const char *key, long long min, long long max, long long fallback, long long *out, char *err)
{
    return read_int(o, key, true, min, max, fallback, out, err);
}

int read_variant(json_t *o, bool required, const Variant **v, char *err)
{
    const char *name;
    int status = (required ? req_string : opt_string)(o, "variant", &name, err);
    *v = NULL;
    if (status || !name)
        return status;
    *v = variant_by_name(name);
    if (!*v) {
        snprintf(err, ERR_MAX, "unknown variant '%.60s'", name);
        return 400;
    }
    return 0;
}

/* The options of POST /api/games (and /api/import) besides the variant and the position. */
int read_options(json_t *o, GameOptions *opt, char *err)
{
    const char *opponent, *color;
    long long skill, base, inc;
    int status;
    if ((status = opt_string(o, "opponent", &opponent, err)) || (status = opt_string(o, "color", &color, err)) ||
        (status = opt_int(o, "skill", 0, 20, 10, &skill, err)))
        return status;
    if (opponent && strcmp(opponent, "engine") != 0 && strcmp(opponent, "friend") != 0) {
        snprintf(err, ERR_MAX, "\"opponent\" must be \"engine\" or \"friend\"");
        return 400;
    }
    opt->engine_opponent = !opponent || strcmp(opponent, "engine") == 0;
    opt->skill = (int)skill;
    if (!color || strcmp(color, "white") == 0) {
        opt->creator = WHITE;
    } else if (strcmp(color, "black") == 0) {
        opt->creator = BLACK;
    } else if (strcmp(color, "random") == 0) {
        unsigned char bit;
        if (!util_random(&bit, 1)) {
            snprintf(err, ERR_MAX, "no random numbers");
            return 500;
        }
        opt->creator = bit & 1;
    } else {
        snprintf(err, ERR_MAX, "\"color\" must be \"white\", \"black\" or \"random\"");
        return 400;
    }
    json_t *clock = json_object_get(o, "clock");
    opt->has_clock = clock && !json_is_null(clock);
    if (opt->has_clock) {
        if (!json_is_object(clock)) {
            snprintf(err, ERR_MAX, "\"clock\" must be an object {\"base_ms\", \"inc_ms\"} or null");
            return 400;
        }
        if (!json_object_get(clock, "base_ms")) {
            snprintf(err, ERR_MAX, "missing \"base_ms\" in \"clock\"");
            return 400;
        }
        if ((status = opt_int(clock, "base_ms", 1, 24LL * 3600 * 1000, 0, &base, err)) ||
            (status = opt_int(clock, "inc_ms", 0, 3600LL * 1000, 0, &inc, err)))
            return status;
        opt->base_ms = base;
        opt->inc_ms = inc;
    }
    return 0;
}

/* "moves": an optional array of strings: 0 or 400. */
int check_moves(json_t *moves, char *err)
{
    size_t i;
    json_t *m;
    if (!moves || json_is_null(moves))
        return 0;
    bool ok = json_is_array(moves);
    json_array_foreach(moves, i, m) ok = ok && json_is_string(m);
    if (ok)
        return 0;
    snprintf(err, ERR_MAX, "\"moves\" must be an array of strings");
    return 400;
}
