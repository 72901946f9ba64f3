#include "relay.h"

#include <stdio.h>
#include <string.h>

#include "../util/text.h"
#include "stream.h"

static Store *store;

/* What a publication hands each stream of its topic. */
typedef struct Delivery {
    StreamMessage *m;
    bool end;
} Delivery;

static void push_each(Stream *s, void *ctx)
{
    const Delivery *d = ctx;
    if (d->m)
        stream_push(s, d->m);
    if (d->end)
        stream_push(s, NULL);
}

/* To this instance's streams of the topic. */
static void deliver(const char *topic, const char *text, size_t len, bool end)
{
    if (!stream_listened(topic))
        return;
    Delivery d = {len ? stream_message(text, len) : NULL, end};
    if (len && !d.m) /* memory ran out: the streams end, their clients come again */
        d.end = true;
    stream_publish(topic, push_each, &d);
    stream_unref(d.m);
}

void relay_publish(const char *topic, const char *text, size_t len, bool end)
{
    deliver(topic, text, len, end);
    if (!store_shared(store))
        return;
    Text payload = {0}; /* "TOPIC\nE" (E: 1 for the end, else 0), then the text */
    bool told = text_addf(&payload, "%s\n%d", topic, end) && text_addn(&payload, text, len) &&
                store->ops->publish(store, STORE_STREAMS_CHANNEL, payload.s);
    if (!told)
        fprintf(stderr, "starfish: a message for %s was not told to the other instances\n", topic);
    text_free(&payload);
}

/* Another instance's message: "TOPIC\nE" then the text.  (NULL: news may have been lost;
 * nothing to do: a client that comes again hears what goes on again.) */
static void heard(void *ctx, const char *payload)
{
    (void)ctx;
    const char *nl = payload ? strchr(payload, '\n') : NULL;
    if (!nl || nl - payload >= STREAM_TOPIC_MAX || (nl[1] != '0' && nl[1] != '1'))
        return;
    char topic[STREAM_TOPIC_MAX];
    snprintf(topic, sizeof topic, "%.*s", (int)(nl - payload), payload);
    deliver(topic, nl + 2, strlen(nl + 2), nl[1] == '1');
}

bool relay_start(Store *s)
{
    store = s;
    return !store_shared(s) || s->ops->watch(s, STORE_STREAMS_CHANNEL, heard, NULL);
}
