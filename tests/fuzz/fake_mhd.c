/* The libmicrohttpd stand-in of fake_mhd.h: responses are kept in memory, reference counted. */
#include "fake_mhd.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct MHD_Response {
    atomic_int refs;
    char *data; /* NULL for a stream */
    size_t size;
    bool owned;
    void *cls;
    MHD_ContentReaderFreeCallback free_cb;
    char content_type[128];
};

struct MHD_Connection {
    char *query;
    char *headers; /* "Name: value" lines */
    struct sockaddr_in addr;
    union MHD_ConnectionInfo addr_info, fd_info;
    unsigned status;
    struct MHD_Response *queued;
    atomic_bool suspended, resumed;
};

static void broken(const char *what)
{
    fprintf(stderr, "fake_mhd: %s\n", what);
    abort();
}

struct MHD_Connection *fake_request(const char *query, const char *headers, uint32_t ip)
{
    struct MHD_Connection *c = calloc(1, sizeof *c);
    c->query = strdup(query ? query : "");
    c->headers = strdup(headers ? headers : "");
    c->addr.sin_family = AF_INET;
    c->addr.sin_addr.s_addr = htonl(ip);
    c->addr_info.client_addr = (struct sockaddr *)&c->addr;
    c->fd_info.connect_fd = -1;
    return c;
}

unsigned fake_status(const struct MHD_Connection *c)
{
    return c->status;
}

const char *fake_body(const struct MHD_Connection *c, size_t *len)
{
    *len = c->queued ? c->queued->size : 0;
    return c->queued ? c->queued->data : NULL;
}

const char *fake_content_type(const struct MHD_Connection *c)
{
    return c->queued ? c->queued->content_type : "";
}

bool fake_waiting(const struct MHD_Connection *c)
{
    return c->suspended && !c->resumed;
}

bool fake_take_resumed(struct MHD_Connection *c)
{
    bool was = c->resumed;
    c->suspended = c->resumed = false;
    return was;
}

void fake_request_end(struct MHD_Connection *c)
{
    if (c->queued)
        MHD_destroy_response(c->queued);
    free(c->query);
    free(c->headers);
    free(c);
}

/* ---- the libmicrohttpd functions the server calls ---- */

static struct MHD_Response *response_new(void)
{
    struct MHD_Response *r = calloc(1, sizeof *r);
    if (r)
        r->refs = 1;
    return r;
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode)
{
    struct MHD_Response *r = response_new();
    if (!r)
        return NULL;
    r->size = size;
    r->owned = mode != MHD_RESPMEM_PERSISTENT;
    r->data = mode == MHD_RESPMEM_MUST_COPY ? malloc(size + 1) : buffer;
    if (mode == MHD_RESPMEM_MUST_COPY)
        memcpy(r->data, buffer, size);
    return r;
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                       void *crc_cls, MHD_ContentReaderFreeCallback crfc)
{
    (void)size, (void)block_size, (void)crc;
    struct MHD_Response *r = response_new();
    if (!r) {
        if (crfc)
            crfc(crc_cls);
        return NULL;
    }
    r->cls = crc_cls;
    r->free_cb = crfc;
    return r;
}

struct MHD_Response *MHD_create_response_from_fd(size_t size, int fd)
{
    (void)size;
    close(fd);
    return NULL;
}

void MHD_destroy_response(struct MHD_Response *r)
{
    if (!r || --r->refs > 0)
        return;
    if (r->owned)
        free(r->data);
    if (r->free_cb)
        r->free_cb(r->cls);
    free(r);
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *header, const char *content)
{
    if (!r || !header || !content || strpbrk(header, "\r\n:") || strpbrk(content, "\r\n"))
        broken("a response header that libmicrohttpd would refuse");
    if (strcasecmp(header, MHD_HTTP_HEADER_CONTENT_TYPE) == 0)
        snprintf(r->content_type, sizeof r->content_type, "%s", content);
    return MHD_YES;
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status, struct MHD_Response *r)
{
    if (!r)
        return MHD_NO;
    if (c->queued)
        broken("two responses queued for one request");
    if (status < 100 || status > 599)
        broken("a status out of range");
    r->refs++;
    c->queued = r;
    c->status = status;
    return MHD_YES;
}

/* The value of `key` in text of pairs: key, then `eq`, then the value up to `end` (the value
 * copied out: the text stays whole); NULL when absent.  Keys compare without case when `nocase`. */
static const char *pair_value(const char *text, const char *key, char eq, const char *end, bool nocase)
{
    static _Thread_local char value[4096];
    size_t klen = strlen(key);
    for (const char *p = text; *p; p += strcspn(p, end), p += strspn(p, end)) {
        while (*p == ' ')
            p++;
        bool same = nocase ? strncasecmp(p, key, klen) == 0 : strncmp(p, key, klen) == 0;
        if (same && p[klen] == eq) {
            const char *v = p + klen + 1;
            while (eq == ':' && *v == ' ')
                v++;
            snprintf(value, sizeof value, "%.*s", (int)strcspn(v, end), v);
            return value;
        }
    }
    return NULL;
}

const char *MHD_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind kind, const char *key)
{
    if (kind == MHD_GET_ARGUMENT_KIND)
        return pair_value(c->query, key, '=', "&", false);
    if (kind == MHD_HEADER_KIND)
        return pair_value(c->headers, key, ':', "\n", true);
    if (kind == MHD_COOKIE_KIND) {
        const char *cookies = pair_value(c->headers, "Cookie", ':', "\n", true);
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", cookies ? cookies : "");
        return cookies ? pair_value(copy, key, '=', ";", false) : NULL;
    }
    return NULL;
}

int MHD_get_connection_values_n(struct MHD_Connection *c, enum MHD_ValueKind kind, MHD_KeyValueIteratorN it,
                                void *cls)
{
    (void)c, (void)kind, (void)it, (void)cls;
    return 0;
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c, enum MHD_ConnectionInfoType type,
                                                        ...)
{
    return type == MHD_CONNECTION_INFO_CLIENT_ADDRESS ? &c->addr_info
           : type == MHD_CONNECTION_INFO_CONNECTION_FD ? &c->fd_info
                                                       : NULL;
}

void MHD_suspend_connection(struct MHD_Connection *c)
{
    c->suspended = true;
}

void MHD_resume_connection(struct MHD_Connection *c)
{
    c->resumed = true;
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    (void)flags, (void)port, (void)apc, (void)apc_cls, (void)dh, (void)dh_cls;
    return NULL;
}

void MHD_stop_daemon(struct MHD_Daemon *d)
{
    (void)d;
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *d, enum MHD_DaemonInfoType type, ...)
{
    (void)d, (void)type;
    return NULL;
}
