/*
 * Long-lived responses written as things happen: a game's Server-Sent Events, an account's
 * event stream and a game's stream for boards and bots (NDJSON).  Each stream listens to one
 * topic (a game's id, an account's id) and holds a queue of messages; whoever publishes on a
 * topic hands each of its streams the message meant for it (a message is shared, reference
 * counted, by every stream it goes to: written once per audience, not once per stream).  A
 * stream costs little while it waits: its queue holds two messages until more wait.
 *
 * No thread waits for a stream: a stream with nothing to send suspends its connection
 * (libmicrohttpd's thread goes on with other connections) and a new message resumes it.  One
 * thread watches every stream's socket for a client that hangs up (the stream then ends at
 * once) and queues a keep-alive on a stream that has been quiet for its kind's interval.
 */
#ifndef STARFISH_SERVER_STREAM_H
#define STARFISH_SERVER_STREAM_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#define STREAM_TOPIC_MAX 32

typedef struct Stream Stream;

/* A message: its text, exactly as it goes on the wire. */
typedef struct StreamMessage StreamMessage;
/* A message of the text (copied), NULL when memory runs out; let go of with stream_unref. */
StreamMessage *stream_message(const char *text, size_t len);
/* m with one more reference (m may be NULL). */
StreamMessage *stream_ref(StreamMessage *m);
void stream_unref(StreamMessage *m);

/* What differs between the kinds of stream. */
typedef struct StreamKind {
    const char *content_type;
    const char *keepalive; /* sent after keepalive_ms without a message */
    int keepalive_ms;
    /* The stream is over (the client left or it ended): let go of what `owner` holds.  Called
     * once, without any lock of this module held. */
    void (*ended)(void *owner);
} StreamKind;

/* Starts the watching thread (at start); stops it (after the HTTP daemon has stopped). */
bool stream_start(void);
void stream_stop(void);

/* A new stream for connection c on `topic`, of `kind`; `owner` is the opener's state (given
 * to kind->ended at the end, and to the publishers' callbacks).  NULL when memory runs out. */
Stream *stream_new(const StreamKind *kind, struct MHD_Connection *c, const char *topic, void *owner);
/* Queues m for s (which keeps a reference of its own); m NULL ends the stream once what is
 * queued is sent (the end of what it streams; or memory ran out for a message: the client
 * reconnects rather than miss one).  A stream whose reader is QUEUE_MAX messages behind ends
 * too, dropping them.  Before stream_join, this is how the first messages go in. */
void stream_push(Stream *s, StreamMessage *m);
/* s joins its topic (its socket watched from now on): publishers reach it.  Join under the
 * lock that orders what is published on the topic, after pushing the first messages, so that
 * no message falls between them. */
void stream_join(Stream *s);
/* The response that sends s (after stream_join; call it holding no other lock: on failure it
 * ends the stream, kind->ended called, and answers NULL: memory ran out). */
struct MHD_Response *stream_response(Stream *s);
/* A stream that never joined, freed (kind->ended is not called). */
void stream_discard(Stream *s);
/* The opener's state of a stream (for the publishers' callbacks). */
void *stream_owner(const Stream *s);
/* Which of its topic's audiences a stream belongs to (0 unless set before stream_join): a
 * publisher may send each audience a message of its own. */
void stream_set_audience(Stream *s, int audience);
int stream_audience(const Stream *s);

/* Calls `each` for every open stream on `topic` (true: some), under the module's lock: `each`
 * may push and must not block.  Streams pushed to are resumed after the lock is let go of. */
bool stream_publish(const char *topic, void (*each)(Stream *s, void *ctx), void *ctx);
/* Is any stream open on `topic`? */
bool stream_listened(const char *topic);

/* Ends every stream, and every stream that joins from now on (shutdown). */
void stream_close_all(void);
bool stream_closed(void);
/* How many streams of a kind are open. */
int stream_count(const StreamKind *kind);

#endif
