/*
 * Messages for the streams of a topic on every instance (relay.c): delivered to this instance's
 * streams at once and told to the other instances that share the store (on its streams
 * channel), which deliver them to theirs.  An account's events, a seek's end and the lobby's
 * news go this way.
 */
#ifndef STARFISH_SERVER_RELAY_H
#define STARFISH_SERVER_RELAY_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* Hears the other instances' messages (at start); false when it cannot. */
bool relay_start(Store *store);
/* `text` (len bytes, sent as it is; may be empty) to every stream of `topic` on every instance;
 * `end`: each stream ends after it. */
void relay_publish(const char *topic, const char *text, size_t len, bool end);

#endif
