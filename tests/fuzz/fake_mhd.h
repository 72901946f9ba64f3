/*
 * A stand-in for libmicrohttpd (fake_mhd.c) with which the fuzz targets are linked: the
 * server's handlers answer requests made in memory, with no daemon and no sockets.  Each
 * MHD_* function the server calls is defined there; a target makes a request, calls the
 * handler, and reads what was queued.
 */
#ifndef STARFISH_FUZZ_FAKE_MHD_H
#define STARFISH_FUZZ_FAKE_MHD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>

/* A request from IPv4 address `ip` with the query text `query` ("a=1&b=2", no escapes) and
 * header lines `headers` ("Name: value" each, "\n" between them; NULL: none).  A `Cookie`
 * header's "name=value; ..." pairs are its cookies. */
struct MHD_Connection *fake_request(const char *query, const char *headers, uint32_t ip);
/* What was queued: the status (0: nothing), the body (NULL for a stream) and its type. */
unsigned fake_status(const struct MHD_Connection *c);
const char *fake_body(const struct MHD_Connection *c, size_t *len);
const char *fake_content_type(const struct MHD_Connection *c);
/* Suspended and not resumed since: the request waits. */
bool fake_waiting(const struct MHD_Connection *c);
/* Resumed after a suspension (the flag cleared): the handler is to be called again. */
bool fake_take_resumed(struct MHD_Connection *c);
/* The request is over: its response let go of, the connection freed. */
void fake_request_end(struct MHD_Connection *c);

#endif
