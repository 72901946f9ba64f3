#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/clock.h"
#include "api.h"
#include "framing.h"
#include "limits.h"
#include "logger.h"
#include "metrics.h"
#include "response.h"

/* Bodies beyond the limit are read and thrown away (so that the client reads the 413),
 * up to this much; beyond it the connection is closed. */
#define DISCARD_MAX (16 * 1024 * 1024)
/* At shutdown, how long the streams (already ended) get to send their last events before the
 * daemon closes their connections: a client that does not read loses them. */
#define DRAIN_MS 3000

static struct MHD_Daemon *daemon_handle;
static char web_root[PATH_MAX]; /* realpath of the web directory, "" when there is none */

typedef struct Request {
    RequestLine line; /* the raw URI, from the URI log callback */
    bool started;     /* the access handler has seen the request's head */
    double start_s;   /* when its line arrived (clock_seconds) */
    char *target;     /* a copy of the raw URI, for the metrics and the log */
    char method[16];
    char client_text[INET6_ADDRSTRLEN]; /* the client's address as logged, "" when unknown */
    char *body;
    size_t len, received;
    bool too_large, out_of_memory;
    void *api_state; /* what api.c keeps while the request waits (for the engine) */
    bool counted;    /* through a trusted proxy: counted as one of its client's connections */
    struct sockaddr_storage client;
} Request;

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* ---- Static files ----------------------------------------------------------------------- */

static const char *content_type(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".htm", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json; charset=utf-8"},
        {".map", "application/json; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".webp", "image/webp"},
        {".ico", "image/x-icon"},
        {".woff", "font/woff"},
        {".woff2", "font/woff2"},
        {".ttf", "font/ttf"},
        {".txt", "text/plain; charset=utf-8"},
        {".md", "text/plain; charset=utf-8"},
        {".pgn", "application/x-chess-pgn; charset=utf-8"},
        {".wasm", "application/wasm"},
        {".ogg", "audio/ogg"},
        {".webmanifest", "application/manifest+json"},
    };
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcasecmp(dot, types[i].ext) == 0)
                return types[i].type;
    return "application/octet-stream";
}

/* A path is served only if every segment is a plain name (no "..", no hidden files). */
static bool safe_path(const char *url)
{
    if (url[0] != '/' || strchr(url, '\\'))
        return false;
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p < 0x20)
            return false;
    for (const char *seg = url + 1; *seg; seg = strchr(seg, '/') ? strchr(seg, '/') + 1 : seg + strlen(seg))
        if (seg[0] == '.')
            return false;
    return strstr(url, "//") == NULL;
}

static enum MHD_Result serve_static(struct MHD_Connection *c, const char *method, const char *url)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return http_method_not_allowed(c, "GET, HEAD");
    if (!web_root[0] || !safe_path(url))
        return http_error(c, 404, "not found: %s", url);
    char path[PATH_MAX], real[PATH_MAX];
    size_t len = strlen(url);
    if (snprintf(path, sizeof path, "%s%s%s", web_root, url, url[len - 1] == '/' ? "index.html" : "") >=
        (int)sizeof path)
        return http_error(c, 404, "not found");
    /* The file's real path (after symbolic links) must still lie inside the web directory. */
    size_t root_len = strlen(web_root);
    if (!realpath(path, real) || strncmp(real, web_root, root_len) != 0 || real[root_len] != '/')
        return http_error(c, 404, "not found: %s", url);
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return http_error(c, 404, "not found: %s", url);
    }
    struct MHD_Response *r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
    if (!r) {
        close(fd);
        return http_send(c, 503, NULL);
    }
    if (!response_headers(r, content_type(real), "no-cache", NULL)) {
        MHD_destroy_response(r);
        r = NULL;
    }
    return http_send(c, MHD_HTTP_OK, r);
}

/* Unescapes %XX in the URL and its arguments, except %00, which stays as it is written: a
 * NUL byte would silently cut the path short. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls, (void)c;
    char *w = s;
    for (const char *r = s; *r; r++) {
        int hi, lo;
        if (r[0] == '%' && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0 && (hi | lo)) {
            *w++ = (char)(hi << 4 | lo);
            r += 2;
        } else {
            *w++ = *r;
        }
    }
    *w = 0;
    return (size_t)(w - s);
}

/* A connection's own state, from its start to its end: whether its address is over the
 * connection limit (then its requests get 429).  A trusted proxy's connection is not
 * counted: each of its requests is, for its client (see limits.h). */
typedef struct Peer {
    struct sockaddr_storage addr;
    bool over_limit, proxy;
} Peer;

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    Peer *peer = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        if (peer && !peer->proxy)
            limits_disconnect((struct sockaddr *)&peer->addr);
        free(peer);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    peer = info ? calloc(1, sizeof *peer) : NULL; /* without it, the connection is not counted */
    if (peer) {
        memcpy(&peer->addr, info->client_addr,
               info->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
        peer->proxy = limits_trusted((struct sockaddr *)&peer->addr);
        peer->over_limit = !peer->proxy && !limits_connect((struct sockaddr *)&peer->addr);
    }
    *socket_context = peer;
}

static const Peer *peer_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* The address of the connection's client (behind a trusted proxy, the one the proxy names)
 * in *client; false when it is not known. */
static bool http_client(struct MHD_Connection *c, struct sockaddr_storage *client)
{
    const Peer *peer = peer_of(c);
    if (!peer)
        return false;
    if (peer->proxy)
        limits_forwarded((const struct sockaddr *)&peer->addr,
                         MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For"), client);
    else
        *client = peer->addr;
    return true;
}

/* Did the client come over TLS, as a trusted proxy says (X-Forwarded-Proto: https)? */
static bool over_tls(struct MHD_Connection *c)
{
    const Peer *peer = peer_of(c);
    const char *proto = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-Proto");
    return peer && peer->proxy && proto && strcasecmp(proto, "https") == 0;
}

/* Is the request's client over the connection limit?  Through a trusted proxy, the request
 * is counted now as one of its client's connections, until it completes. */
static bool over_limit(struct MHD_Connection *c, Request *rq)
{
    const Peer *peer = peer_of(c);
    if (!peer || !peer->proxy)
        return peer && peer->over_limit;
    http_client(c, &rq->client);
    rq->counted = true;
    return !limits_connect((struct sockaddr *)&rq->client);
}

/* ---- Metrics and the request log -------------------------------------------------------- */

static bool is_loopback(const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    const struct in6_addr *v6 = &((const struct sockaddr_in6 *)a)->sin6_addr;
    return a->ss_family == AF_INET6 &&
           (IN6_IS_ADDR_LOOPBACK(v6) || (IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127));
}

/* GET /metrics, to those metrics.h says may read it. */
static enum MHD_Result serve_metrics(struct MHD_Connection *c, const char *method)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return http_method_not_allowed(c, "GET, HEAD");
    const Peer *peer = peer_of(c);
    bool proxied = (peer && peer->proxy) || MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For") ||
                   MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Forwarded");
    unsigned refused = metrics_refusal(peer && is_loopback(&peer->addr), proxied,
                                       MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION));
    if (refused == 401)
        return http_error_header(c, 401, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer",
                                 "the metrics need the token of --metrics-token-file");
    if (refused)
        return http_error(c, refused, "the metrics are served to this machine only (see --metrics-token-file)");
    return http_text(c, 200, METRICS_CONTENT_TYPE, metrics_text(), NULL);
}

/* Counts the request and writes its log line (logger.h): the route, the status queued (0
 * when the connection ended before an answer), the time from its line to its end. */
static void account(struct MHD_Connection *c, const Request *rq)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_HTTP_STATUS);
    unsigned status = info ? info->http_status : 0;
    const char *route = metrics_route(rq->target);
    double seconds = clock_seconds() - rq->start_s;
    metrics_request(route, status, seconds);
    /* Scrapes and health checks come every few seconds: debug lines. */
    LogLevel level = status >= 500            ? LOG_LEVEL_WARN
                     : strcmp(route, "/metrics") == 0 || strcmp(route, "/api/health") == 0 ? LOG_LEVEL_DEBUG
                                                                                          : LOG_LEVEL_INFO;
    if (!logger_wants(level))
        return;
    char *path = logger_redacted_target(rq->target);
    logger_event(level, "request",
                 json_pack("{s:s, s:s?, s:s, s:i, s:f, s:s}", "method", rq->method, "path", path, "route", route,
                           "status", (int)status, "ms", (double)(int64_t)(seconds * 1e6) / 1000, "client",
                           rq->client_text));
    free(path);
}

/* The client's address as the log shows it (behind a trusted proxy, the one it names). */
static void note_client(struct MHD_Connection *c, Request *rq)
{
    struct sockaddr_storage a;
    if (!http_client(c, &a))
        return;
    const void *bytes = a.ss_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)&a)->sin6_addr
                                                : (const void *)&((struct sockaddr_in *)&a)->sin_addr;
    if (!inet_ntop(a.ss_family, bytes, rq->client_text, sizeof rq->client_text))
        rq->client_text[0] = 0;
}

/* ---- Requests --------------------------------------------------------------------------- */

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)cls;
    Request *rq = *con_cls;
    if (!rq) /* on_uri could not make it */
        return http_send(c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL);
    if (!rq->started) {
        rq->started = true;
        rq->line.method = method;
        rq->line.version = version;
        snprintf(rq->method, sizeof rq->method, "%s", method);
        note_client(c, rq);
        if (over_limit(c, rq))
            return http_refuse(c, 429, "too many connections from this address (at most %d)", limits_connections());
        char why[120];
        unsigned bad = framing_check(c, &rq->line, why, sizeof why);
        if (bad)
            return http_refuse(c, bad, "%s", why);
        const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (length && strtoull(length, NULL, 10) > DISCARD_MAX)
            return http_error(c, 413, "request body over %d KiB", HTTP_BODY_MAX / 1024);
        return MHD_YES;
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        rq->received += n;
        if (rq->received > DISCARD_MAX)
            return MHD_NO;
        if (!rq->too_large && rq->len + n > HTTP_BODY_MAX)
            rq->too_large = true;
        char *grown = rq->too_large || rq->out_of_memory ? NULL : realloc(rq->body, rq->len + n + 1);
        if (grown) {
            rq->body = grown;
            memcpy(rq->body + rq->len, upload_data, n);
            rq->len += n;
            rq->body[rq->len] = 0;
        } else { /* the rest is read and thrown away, then answered */
            rq->out_of_memory = !rq->too_large;
            free(rq->body);
            rq->body = NULL;
            rq->len = 0;
        }
        return MHD_YES;
    }
    if (rq->too_large)
        return http_error(c, 413, "request body over %d KiB", HTTP_BODY_MAX / 1024);
    if (rq->out_of_memory)
        return http_send(c, 503, NULL);
    if (strcmp(url, "/metrics") == 0)
        return serve_metrics(c, method);
    if (strncmp(url, "/api/", 5) == 0 || strcmp(url, "/api") == 0) {
        struct sockaddr_storage client;
        bool known = http_client(c, &client);
        return api_handle(c, known ? (struct sockaddr *)&client : NULL, over_tls(c), method, url,
                          rq->body ? rq->body : "", rq->len, &rq->api_state);
    }
    return serve_static(c, method, url);
}

/* libmicrohttpd's URI log callback, called with the raw request target before it is
 * unescaped: the request's state starts here. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls, (void)c;
    Request *rq = calloc(1, sizeof *rq);
    if (rq && !(rq->target = strdup(uri))) {
        free(rq);
        rq = NULL;
    }
    if (rq) {
        framing_note_uri(&rq->line, uri);
        rq->start_s = clock_seconds();
    }
    return rq;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode code)
{
    (void)cls, (void)code;
    Request *rq = *con_cls;
    if (rq) {
        if (rq->started)
            account(c, rq);
        if (rq->counted)
            limits_disconnect((struct sockaddr *)&rq->client);
        api_request_done(rq->api_state);
        free(rq->body);
        free(rq->target);
        free(rq);
    }
    *con_cls = NULL;
}

bool http_start(const HttpOptions *o, int *bound_port, char *err, size_t errlen)
{
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)o->port);
    if (inet_pton(AF_INET, o->host, &addr.sin_addr) != 1) {
        snprintf(err, errlen, "bad host address '%s' (an IPv4 address like 127.0.0.1)", o->host);
        return false;
    }
    if (!response_start()) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (!realpath(o->web_dir, web_root)) {
        fprintf(stderr, "starfish: no web directory %s (%s): serving the API only\n", o->web_dir, strerror(errno));
        web_root[0] = 0;
    }
    daemon_handle = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)HTTP_THREADS,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->max_connections, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)HTTP_CONNECTION_MEMORY, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)o->timeout_s, MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, NULL, MHD_OPTION_URI_LOG_CALLBACK, on_uri, NULL, MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)1,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL, MHD_OPTION_END);
    if (!daemon_handle) {
        snprintf(err, errlen, "cannot listen on %s:%d", o->host, o->port);
        return false;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_BIND_PORT);
    *bound_port = info && info->port ? info->port : o->port;
    return true;
}

void http_stop(void)
{
    int64_t deadline = clock_ms() + DRAIN_MS;
    while (daemon_handle && http_streams_held() > 0 && clock_ms() < deadline)
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    if (daemon_handle)
        MHD_stop_daemon(daemon_handle);
    daemon_handle = NULL;
    response_stop();
}
