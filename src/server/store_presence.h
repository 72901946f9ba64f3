/*
 * The players' presence in their games, in the store (store_presence.c), on any backend: when
 * each side of a game was last seen with a stream of the game open, whichever instance held it.
 */
#ifndef STARFISH_SERVER_STORE_PRESENCE_H
#define STARFISH_SERVER_STORE_PRESENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

/* A side of a game seen at a time. */
typedef struct PresenceMark {
    const char *game_id;
    int side;
    int64_t seen_ms;
} PresenceMark;

/* Notes the marks (n of them), each replacing what was noted of its side; one transaction. */
StoreResult store_presence_note(Store *s, const PresenceMark *marks, int n);
/* When each side of game_id was last seen (seen_ms[side], -1: never noted); false after an
 * error. */
bool store_presence_read(Store *s, const char *game_id, int64_t seen_ms[2]);

#endif
