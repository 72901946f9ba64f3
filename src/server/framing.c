#include "framing.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A byte that may stand in a field name (RFC 9110 token). */
static bool is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c);
}

/* A byte that may not stand in a field value: controls but tab, and DEL. */
static bool is_control(unsigned char c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

void framing_note_uri(RequestLine *line, const char *uri)
{
    line->uri = uri;
    line->uri_len = strlen(uri);
    for (size_t i = 0; i < line->uri_len; i++)
        if (is_control((unsigned char)uri[i]) || uri[i] == ' ' || uri[i] == '\t')
            line->uri_has_blanks = true;
}

/* The request line: the URI noted must reach up to the space before the version (else a NUL
 * cut it short), and hold no control byte or space. */
static unsigned check_line(const RequestLine *line, char *why, size_t len)
{
    if (!line->uri || line->version != line->uri + line->uri_len + 1) {
        snprintf(why, len, "a NUL byte in the request line");
        return MHD_HTTP_BAD_REQUEST;
    }
    if (line->uri_has_blanks) {
        snprintf(why, len, "a control byte or space in the request target");
        return MHD_HTTP_BAD_REQUEST;
    }
    return 0;
}

/* The walk over the header lines as libmicrohttpd left them in its read buffer: each line's
 * name, a NUL where its colon was, blanks, its value, and a NUL for each byte of its line end
 * (CR LF, or a bare LF).  Anything else between them (a NUL inside a value, a folded
 * continuation line) or a name that is not where the walk expects it (a folded header's,
 * copied elsewhere) is refused. */
typedef struct Walk {
    const char *line_end, *end; /* where the previous line's end begins; the end of the head */
    unsigned status;
    char *why;
    size_t len;
    int content_length, transfer_encoding;
    const char *encoding;
} Walk;

/* Does `next` follow line ends (from `from`: `min` to `max` NULs, nothing else)? */
static bool after_line_ends(const char *from, const char *next, long min, long max)
{
    if (next - from < min || next - from > max)
        return false;
    for (const char *p = from; p < next; p++)
        if (*p)
            return false;
    return true;
}

static enum MHD_Result refuse(Walk *w, unsigned status, const char *what)
{
    w->status = status;
    snprintf(w->why, w->len, "%s", what);
    return MHD_NO;
}

static enum MHD_Result walk_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_len,
                                   const char *value, size_t value_len)
{
    (void)kind;
    Walk *w = cls;
    if (!after_line_ends(w->line_end, key, 1, 2) || key + key_len >= w->end || key[key_len] != 0)
        return refuse(w, MHD_HTTP_BAD_REQUEST, "a folded header line or a NUL byte in the headers");
    for (size_t i = 0; i < key_len; i++)
        if (!is_tchar((unsigned char)key[i]))
            return refuse(w, MHD_HTTP_BAD_REQUEST, "a header name with a space or a byte not allowed in it");
    const char *p = key + key_len + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (value != p && !(value_len == 0 && *p == 0))
        return refuse(w, MHD_HTTP_BAD_REQUEST, "a NUL byte in the headers");
    for (size_t i = 0; i < value_len; i++)
        if (is_control((unsigned char)value[i]))
            return refuse(w, MHD_HTTP_BAD_REQUEST, "a control byte (a bare CR) in a header value");
    w->line_end = p + value_len;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        w->content_length++;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        w->transfer_encoding++;
        w->encoding = value;
    }
    return MHD_YES;
}

/* How the body is framed: one Content-Length, or Transfer-Encoding chunked alone. */
static unsigned check_body_framing(const Walk *w, char *why, size_t len)
{
    const char *problem = w->content_length > 1                             ? "two Content-Length headers"
                          : w->transfer_encoding > 1                        ? "two Transfer-Encoding headers"
                          : w->transfer_encoding && w->content_length       ? "Transfer-Encoding with Content-Length"
                                                                            : NULL;
    if (problem) {
        snprintf(why, len, "%s", problem);
        return MHD_HTTP_BAD_REQUEST;
    }
    if (w->transfer_encoding && strcasecmp(w->encoding, "chunked") != 0) {
        snprintf(why, len, "transfer coding '%.40s' is not supported (only chunked)", w->encoding);
        return MHD_HTTP_NOT_IMPLEMENTED;
    }
    return 0;
}

unsigned framing_check(struct MHD_Connection *c, const RequestLine *line, char *why, size_t len)
{
    unsigned status = check_line(line, why, len);
    if (status)
        return status;
    const union MHD_ConnectionInfo *size = MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    Walk w = {.line_end = line->version + strlen(line->version),
              .end = line->method + (size ? size->header_size : 0),
              .why = why,
              .len = len};
    MHD_get_connection_values_n(c, MHD_HEADER_KIND, walk_header, &w);
    /* The last line's end and the empty line that ends the head, and nothing more. */
    if (!w.status && !after_line_ends(w.line_end, w.end, 2, 4))
        refuse(&w, MHD_HTTP_BAD_REQUEST, "a folded header line or a NUL byte in the headers");
    return w.status ? w.status : check_body_framing(&w, why, len);
}
