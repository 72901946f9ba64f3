#include "piece_terms.h"

#include <stdio.h>
#include <string.h>

typedef struct Term {
    const char *variant;
    char letter;
    bool limping;      /* a pawn marked limping in the position text (`~`) */
    const char *cells; /* or a pawn on one of these cells (space-separated) */
    const char *name, *about;
} Term;

/* From ../shared/rules/starchess.md's vocabulary (the official site's and Ludii's). */
#define DEAD_PAWN "2 3 35 36", "dead pawn", "on an outer column it can never promote: it must capture back towards the middle first"
#define MUMMY "1 37", "mummy", "on a tip of the middle row it has no move forward: it can only capture"

static const Term terms[] = {
    {"starchess", 'P', true, NULL, "limping pawn",
     "it has captured onto a start cell of its side, so it may not step two cells from there"},
    {"starchess", 'P', false, DEAD_PAWN},
    {"starchess", 'P', false, MUMMY},
    {"starchess-ludii", 'P', false, DEAD_PAWN},
    {"starchess-ludii", 'P', false, MUMMY},
};

json_t *piece_terms_json(const Variant *v)
{
    json_t *list = json_array();
    for (size_t i = 0; list && i < sizeof terms / sizeof terms[0]; i++) {
        const Term *t = &terms[i];
        if (strcmp(t->variant, v->def->name) != 0)
            continue;
        json_t *cells = json_array();
        char copy[64], *save = NULL;
        snprintf(copy, sizeof copy, "%s", t->cells ? t->cells : "");
        for (char *c = strtok_r(copy, " ", &save); cells && c; c = strtok_r(NULL, " ", &save))
            json_array_append_new(cells, json_string(c));
        char letter[2] = {t->letter, 0};
        json_array_append_new(list, json_pack("{s:s, s:b, s:o, s:s, s:s}", "piece", letter, "limping", t->limping,
                                              "cells", cells, "name", t->name, "about", t->about));
    }
    return list;
}
