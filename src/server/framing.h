/*
 * The request framing checks that libmicrohttpd (0.9.75, Debian 12) leaves to the server.
 * It serves a request whose line holds a NUL (cutting the path short: `GET /index.html<NUL>.png`
 * serves index.html), control bytes in the path, two Content-Length headers (the first wins),
 * Transfer-Encoding beside Content-Length, a transfer coding it does not know (it then waits
 * for the connection to close), a NUL or bare CR in a header value, whitespace before a colon,
 * and folded header lines (it glues the continuation onto the field name).  A proxy that read
 * any of these differently could be used to smuggle requests; the server answers 400 (501 for
 * an unknown transfer coding) and closes the connection.
 *
 * What libmicrohttpd rejects itself (a malformed request line, a bare CR in it, headers too
 * large, an unsupported HTTP version) it answers with its own short HTML page.
 */
#ifndef STARFISH_SERVER_FRAMING_H
#define STARFISH_SERVER_FRAMING_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

/* The request line as libmicrohttpd parsed it in place: the URI its URI log callback saw
 * (framing_note_uri, before libmicrohttpd unescapes it and splits off the arguments), the
 * method and version its access handler is given. */
typedef struct RequestLine {
    const char *uri, *method, *version;
    size_t uri_len;      /* strlen(uri) when it was noted */
    bool uri_has_blanks; /* a control byte, space or tab in it */
} RequestLine;

/* Notes the raw URI (from the URI log callback). */
void framing_note_uri(RequestLine *line, const char *uri);

/* 0 when the request's line and headers are well-formed, else the status to answer (400,
 * 501) with why set. */
unsigned framing_check(struct MHD_Connection *c, const RequestLine *line, char *why, size_t len);

#endif
