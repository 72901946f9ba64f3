/* The bot's HTTP through libcurl: requests, NDJSON streams, and readers of lichess's JSON. */
#include "bot_http.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/error.h"
#include "../util/version.h"
#include "bot.h"

#define REPLY_MAX (1 << 20) /* the body of an answer kept, at most */

bool http_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

void http_global_free(void)
{
    curl_global_cleanup();
}

bool conn_init(BotConn *c, const char *server, const char *token, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (strncmp(server, "http://", 7) != 0 && strncmp(server, "https://", 8) != 0)
        return error_set(err, errlen, "the server must be an http:// or https:// URL, not '%.100s'", server);
    size_t n = strlen(server);
    while (n > 8 && server[n - 1] == '/')
        n--;
    if (n >= sizeof c->base)
        return error_set(err, errlen, "the server's URL is too long");
    memcpy(c->base, server, n);
    c->base[n] = 0;
    if (!*token)
        return error_set(err, errlen, "no token (--token, or token = ... in the config)");
    for (const char *t = token; *t; t++)
        if ((unsigned char)*t <= ' ' || *t == 0x7f)
            return error_set(err, errlen, "the token holds a blank or a control character");
    char auth[320];
    if (snprintf(auth, sizeof auth, "Authorization: Bearer %s", token) >= (int)sizeof auth)
        return error_set(err, errlen, "the token is too long");
    c->headers = curl_slist_append(NULL, auth);
    return c->headers || error_set(err, errlen, "out of memory");
}

void conn_free(BotConn *c)
{
    curl_slist_free_all(c->headers);
    c->headers = NULL;
}

static size_t keep_reply(char *data, size_t size, size_t n, void *ctx)
{
    Text *body = ctx;
    size_t len = size * n;
    if (body && body->len < REPLY_MAX && !text_addn(body, data, len))
        return 0;
    return len;
}

/* An easy handle for base + path with what every request shares. */
static CURL *new_handle(const BotConn *c, const char *path, char *errbuf)
{
    char url[2048];
    if (snprintf(url, sizeof url, "%s%s", c->base, path) >= (int)sizeof url)
        return NULL;
    CURL *e = curl_easy_init();
    if (!e)
        return NULL;
    char agent[64];
    snprintf(agent, sizeof agent, "starfish-bot/%s", version_number());
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, c->headers);
    curl_easy_setopt(e, CURLOPT_USERAGENT, agent);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM for DNS timeouts */
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, (long)CONNECT_SECONDS);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    errbuf[0] = 0;
    return e;
}

/* Why a transfer failed, from curl: its error buffer, else its code's text. */
static void transfer_error(CURLcode code, const char *errbuf, char *err, size_t errlen)
{
    error_set(err, errlen, "%s", errbuf[0] ? errbuf : curl_easy_strerror(code));
}

long http_call(const BotConn *c, const char *method, const char *path, const char *form, Text *body, char *err,
               size_t errlen)
{
    char errbuf[CURL_ERROR_SIZE];
    CURL *e = new_handle(c, path, errbuf);
    if (!e)
        return error_set(err, errlen, "cannot make the request %s %.100s", method, path), 0;
    curl_easy_setopt(e, CURLOPT_TIMEOUT, (long)REQUEST_SECONDS);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_reply);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, body);
    if (strcmp(method, "POST") == 0)
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, form ? form : "");
    else if (strcmp(method, "GET") != 0)
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
    CURLcode code = curl_easy_perform(e);
    long status = 0;
    if (code == CURLE_OK)
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    else
        transfer_error(code, errbuf, err, errlen);
    curl_easy_cleanup(e);
    return status;
}

long http_get_json(const BotConn *c, const char *path, json_t **out, char *err, size_t errlen)
{
    Text body = {0};
    long status = http_call(c, "GET", path, NULL, &body, err, errlen);
    *out = status ? json_loadb(text_str(&body), body.len, 0, NULL) : NULL;
    if (status && !*out)
        http_describe(status, &body, "", err, errlen);
    text_free(&body);
    return status;
}

void http_describe(long status, const Text *body, const char *err, char *out, size_t len)
{
    if (!status) {
        snprintf(out, len, "%s", err);
        return;
    }
    json_t *o = body && body->len ? json_loadb(body->s, body->len, 0, NULL) : NULL;
    const char *message = json_text(o, "error");
    if (*message)
        snprintf(out, len, "%ld %s", status, message);
    else
        snprintf(out, len, "%ld %.120s", status, body ? text_str(body) : "");
    json_decref(o);
    for (char *p = out; *p; p++) /* one line in the log */
        if ((unsigned char)*p < ' ')
            *p = ' ';
}

/* ---- Streams --------------------------------------------------------------------------- */

static bool queue_push(BotStream *s, json_t *o)
{
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        json_t **q = malloc((size_t)cap * sizeof *q);
        if (!q)
            return false;
        for (int i = 0; i < s->count; i++)
            q[i] = s->queue[(s->head + i) % s->cap];
        free(s->queue);
        s->queue = q, s->cap = cap, s->head = 0;
    }
    s->queue[(s->head + s->count++) % s->cap] = o;
    return true;
}

/* One line of the stream: a keep-alive (empty), or an object for the queue. */
static bool take_line(BotStream *s, char *line, size_t n)
{
    if (n > 0 && line[n - 1] == '\r')
        n--;
    if (n == 0)
        return true;
    json_error_t jerr;
    json_t *o = json_loadb(line, n, 0, &jerr);
    if (!json_is_object(o)) {
        bot_log("%s: a malformed line ignored (%s): %.80s", s->what, o ? "not an object" : jerr.text, line);
        json_decref(o);
        return true;
    }
    if (!queue_push(s, o)) {
        json_decref(o);
        return false;
    }
    return true;
}

static size_t on_stream_data(char *data, size_t size, size_t n, void *ctx)
{
    BotStream *s = ctx;
    size_t len = size * n;
    if (!s->status)
        curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &s->status);
    if (s->status != 200) /* an error's body, for the log */
        return s->error_body.len < 4096 && !text_addn(&s->error_body, data, len) ? 0 : len;
    if (!text_addn(&s->partial, data, len))
        return 0;
    char *start = s->partial.s, *end = s->partial.s + s->partial.len, *nl;
    while ((nl = memchr(start, '\n', (size_t)(end - start)))) {
        *nl = 0;
        if (!take_line(s, start, (size_t)(nl - start)))
            return 0;
        start = nl + 1;
    }
    size_t rest = (size_t)(end - start);
    memmove(s->partial.s, start, rest);
    s->partial.len = rest;
    s->partial.s[rest] = 0;
    if (rest > STREAM_LINE_MAX) {
        s->too_long = true;
        return 0;
    }
    return len;
}

bool stream_open(BotStream *s, const BotConn *c, const char *path, const char *what, char *err, size_t errlen)
{
    stream_close(s);
    snprintf(s->what, sizeof s->what, "%s", what);
    char *buffer = calloc(1, CURL_ERROR_SIZE); /* curl's error text, kept with the handle */
    s->easy = buffer ? new_handle(c, path, buffer) : NULL;
    s->multi = s->easy ? curl_multi_init() : NULL;
    if (!s->multi || curl_multi_add_handle(s->multi, s->easy) != CURLM_OK) {
        free(buffer);
        if (s->easy)
            curl_easy_setopt(s->easy, CURLOPT_ERRORBUFFER, NULL);
        stream_close(s);
        return error_set(err, errlen, "cannot open %s (out of memory)", what);
    }
    curl_easy_setopt(s->easy, CURLOPT_PRIVATE, buffer);
    curl_easy_setopt(s->easy, CURLOPT_WRITEFUNCTION, on_stream_data);
    curl_easy_setopt(s->easy, CURLOPT_WRITEDATA, s);
    /* Silence for STREAM_STALL_SECONDS (not a byte, keep-alives included) ends the transfer. */
    curl_easy_setopt(s->easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(s->easy, CURLOPT_LOW_SPEED_TIME, (long)STREAM_STALL_SECONDS);
    s->state = STREAM_OPEN;
    return true;
}

bool stream_is_open(const BotStream *s)
{
    return s->multi != NULL && s->state == STREAM_OPEN;
}

long stream_status(BotStream *s)
{
    if (s->easy && !s->status) {
        long code = 0;
        curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &code);
        return code;
    }
    return s->status;
}

/* The transfer is over: how it ended. */
static void finish(BotStream *s)
{
    CURLcode code = CURLE_OK;
    int left;
    CURLMsg *m;
    while ((m = curl_multi_info_read(s->multi, &left)))
        if (m->msg == CURLMSG_DONE)
            code = m->data.result;
    curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &s->status);
    if (code == CURLE_OK && s->status == 200) {
        s->state = STREAM_ENDED;
        return;
    }
    s->state = STREAM_FAILED;
    char *errbuf = NULL;
    curl_easy_getinfo(s->easy, CURLINFO_PRIVATE, &errbuf);
    if (s->too_long)
        snprintf(s->err, sizeof s->err, "a line longer than %d bytes", STREAM_LINE_MAX);
    else if (s->status && s->status != 200)
        http_describe(s->status, &s->error_body, "", s->err, sizeof s->err);
    else
        transfer_error(code, errbuf ? errbuf : "", s->err, sizeof s->err);
}

/* Waits for fd alone (the stream is closed). */
static void wait_fd(int fd, int timeout_ms, bool *fd_ready)
{
    if (fd < 0) {
        struct timespec nap = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
        nanosleep(&nap, NULL);
        return;
    }
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) > 0)
        *fd_ready = true;
}

StreamState stream_pump(BotStream *s, int fd, int timeout_ms, bool *fd_ready)
{
    *fd_ready = false;
    if (!stream_is_open(s)) {
        wait_fd(fd, timeout_ms, fd_ready);
        return s->multi ? s->state : STREAM_ENDED;
    }
    int running = 0;
    curl_multi_perform(s->multi, &running);
    if (running && s->count == 0) {
        struct curl_waitfd w = {fd, CURL_WAIT_POLLIN, 0};
        curl_multi_poll(s->multi, fd >= 0 ? &w : NULL, fd >= 0 ? 1 : 0, timeout_ms, NULL);
        *fd_ready = fd >= 0 && (w.revents & CURL_WAIT_POLLIN);
        curl_multi_perform(s->multi, &running);
    }
    if (!running)
        finish(s);
    return s->state;
}

json_t *stream_next(BotStream *s)
{
    if (s->count == 0)
        return NULL;
    json_t *o = s->queue[s->head];
    s->head = (s->head + 1) % s->cap;
    s->count--;
    return o;
}

void stream_close(BotStream *s)
{
    if (s->easy) {
        char *errbuf = NULL;
        curl_easy_getinfo(s->easy, CURLINFO_PRIVATE, &errbuf);
        if (s->multi)
            curl_multi_remove_handle(s->multi, s->easy);
        curl_easy_cleanup(s->easy);
        free(errbuf);
    }
    if (s->multi)
        curl_multi_cleanup(s->multi);
    json_t *o;
    while ((o = stream_next(s)))
        json_decref(o);
    free(s->queue);
    text_free(&s->partial);
    text_free(&s->error_body);
    *s = (BotStream){.state = STREAM_ENDED};
}

/* ---- Reading lichess's JSON ------------------------------------------------------------ */

json_t *json_at(json_t *o, const char *path)
{
    while (o && *path) {
        size_t n = strcspn(path, ".");
        if (!json_is_object(o))
            return NULL;
        o = json_object_getn(o, path, n);
        path += n + (path[n] == '.');
    }
    return o;
}

const char *json_text(json_t *o, const char *path)
{
    const char *s = json_string_value(json_at(o, path));
    return s ? s : "";
}

long long json_number(json_t *o, const char *path)
{
    json_t *v = json_at(o, path);
    return json_is_integer(v) ? (long long)json_integer_value(v) : json_is_real(v) ? (long long)json_real_value(v) : 0;
}

bool json_flag(json_t *o, const char *path)
{
    return json_is_true(json_at(o, path));
}
