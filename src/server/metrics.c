#include "metrics.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/version.h"
#include "analysis_stream.h"
#include "engine_worker.h"
#include "events.h"
#include "game_service.h"
#include "metrics_process.h"

#define TOKEN_MIN 16
#define TOKEN_MAX 256
#define STATUS_SLOTS 600 /* status codes 0 (no response) to 599 */

/* ---- Routes ------------------------------------------------------------------------------ */

/* Every route of the server, as a pattern: a {name} segment stands for any one segment.  The
 * first three are the metrics' own; the API's are added at start (api_routes_to_metrics),
 * from the same tables that route its requests. */
#define ROUTES_MAX 96
typedef struct Route {
    char pattern[80];
    bool stream; /* an event stream: counted, not timed */
} Route;
static Route routes[ROUTES_MAX] = {{"static", false}, {"/api/other", false}, {"/metrics", false}};
static int nroutes = 3;
#define ROUTE_STATIC 0
#define ROUTE_OTHER 1

void metrics_add_route(const char *pattern, bool stream)
{
    for (int i = 0; i < nroutes; i++)
        if (strcmp(routes[i].pattern, pattern) == 0)
            return; /* another method of the same path */
    if (nroutes == ROUTES_MAX || strlen(pattern) >= sizeof routes[0].pattern) {
        fprintf(stderr, "starfish: metrics: no room for route %s: counted as /api/other\n", pattern);
        return;
    }
    snprintf(routes[nroutes].pattern, sizeof routes[nroutes].pattern, "%s", pattern);
    routes[nroutes++].stream = stream;
}

/* Does the path (up to its end or its query) follow the pattern, segment by segment? */
static bool path_follows(const char *path, const char *pattern)
{
    while (*pattern) {
        if (*path != '/' || *pattern != '/')
            return false;
        path++, pattern++;
        size_t seg = strcspn(path, "/?"), want = strcspn(pattern, "/");
        if (pattern[0] == '{' ? seg == 0 : seg != want || strncmp(path, pattern, seg) != 0)
            return false;
        path += seg, pattern += want;
    }
    return *path == 0 || *path == '?';
}

static int route_index(const char *target)
{
    if (strncmp(target, "/api/", 5) != 0 && strcmp(target, "/metrics") != 0 && strncmp(target, "/metrics?", 9) != 0)
        return ROUTE_STATIC;
    for (int i = ROUTE_OTHER + 1; i < nroutes; i++)
        if (path_follows(target, routes[i].pattern))
            return i;
    return ROUTE_OTHER;
}

const char *metrics_route(const char *target)
{
    return routes[route_index(target)].pattern;
}

/* ---- Counters ---------------------------------------------------------------------------- */

/* Upper bounds of the request duration histogram's buckets, seconds (then +Inf). */
static const double bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
#define BUCKETS (int)(sizeof bounds / sizeof bounds[0])

static atomic_uint_fast64_t requests[ROUTES_MAX][STATUS_SLOTS];
static atomic_uint_fast64_t timed[ROUTES_MAX][BUCKETS + 1]; /* per bucket, not cumulative; the last: +Inf */
static atomic_uint_fast64_t timed_ns[ROUTES_MAX];
static atomic_uint_fast64_t store_errors;
static atomic_int pool_size, pool_in_use;
static Store *counted_store;
static char token[TOKEN_MAX + 1];

void metrics_start(Store *store)
{
    counted_store = store;
}

void metrics_request(const char *route, unsigned status, double seconds)
{
    int r = 0;
    while (r < nroutes && routes[r].pattern != route)
        r++;
    if (r == nroutes)
        r = ROUTE_OTHER;
    atomic_fetch_add(&requests[r][status < STATUS_SLOTS ? status : 0], 1);
    if (routes[r].stream)
        return;
    int b = 0;
    while (b < BUCKETS && seconds > bounds[b])
        b++;
    atomic_fetch_add(&timed[r][b], 1);
    atomic_fetch_add(&timed_ns[r], (uint_fast64_t)(seconds * 1e9));
}

void metrics_store_error(void)
{
    atomic_fetch_add(&store_errors, 1);
}

void metrics_db_pool_size(int connections)
{
    atomic_store(&pool_size, connections);
}

void metrics_db_pool_use(int change)
{
    atomic_fetch_add(&pool_in_use, change);
}

/* ---- Who may read them ------------------------------------------------------------------- */

bool metrics_use_token_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read the metrics token file %s", path);
        return false;
    }
    char line[TOKEN_MAX + 2] = "";
    bool read = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    line[strcspn(line, "\r\n")] = 0;
    size_t len = strlen(line);
    if (!read || len < TOKEN_MIN || len > TOKEN_MAX || strchr(line, ' ')) {
        snprintf(err, errlen, "%s: the metrics token must be one line of %d to %d bytes, no spaces", path, TOKEN_MIN,
                 TOKEN_MAX);
        return false;
    }
    memcpy(token, line, len + 1);
    return true;
}

/* Compares in a time that does not depend on where they differ. */
static bool same_secret(const char *given, const char *secret)
{
    size_t n = strlen(secret);
    if (strlen(given) != n)
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(given[i] ^ secret[i]);
    return diff == 0;
}

unsigned metrics_refusal(bool from_loopback, bool proxied, const char *authorization)
{
    if (!token[0])
        return from_loopback && !proxied ? 0 : 403;
    bool bearer = authorization && strncasecmp(authorization, "Bearer ", 7) == 0;
    return bearer && same_secret(authorization + 7, token) ? 0 : 401;
}

/* ---- The page ---------------------------------------------------------------------------- */

static void family(FILE *out, const char *name, const char *type, const char *help)
{
    fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void write_requests(FILE *out)
{
    family(out, "starfish_http_requests_total", "counter",
           "HTTP requests answered, by route and status (0: closed before an answer).");
    for (int r = 0; r < nroutes; r++)
        for (int s = 0; s < STATUS_SLOTS; s++) {
            uint_fast64_t n = atomic_load(&requests[r][s]);
            if (n)
                fprintf(out, "starfish_http_requests_total{route=\"%s\",status=\"%d\"} %llu\n", routes[r].pattern, s,
                        (unsigned long long)n);
        }
    family(out, "starfish_http_request_duration_seconds", "histogram",
           "Time from a request's start to the end of its answer, by route (event streams left out).");
    for (int r = 0; r < nroutes; r++) {
        uint_fast64_t seen = 0;
        for (int b = 0; b <= BUCKETS; b++)
            seen += atomic_load(&timed[r][b]);
        if (!seen)
            continue;
        uint_fast64_t below = 0;
        for (int b = 0; b <= BUCKETS; b++) {
            below += atomic_load(&timed[r][b]);
            if (b < BUCKETS)
                fprintf(out, "starfish_http_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %llu\n",
                        routes[r].pattern, bounds[b], (unsigned long long)below);
            else
                fprintf(out, "starfish_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n",
                        routes[r].pattern, (unsigned long long)below);
        }
        fprintf(out, "starfish_http_request_duration_seconds_sum{route=\"%s\"} %.9f\n", routes[r].pattern,
                (double)atomic_load(&timed_ns[r]) / 1e9);
        fprintf(out, "starfish_http_request_duration_seconds_count{route=\"%s\"} %llu\n", routes[r].pattern,
                (unsigned long long)below);
    }
}

static void gauge(FILE *out, const char *name, const char *help, double value)
{
    family(out, name, "gauge", help);
    fprintf(out, "%s %.17g\n", name, value);
}

static void write_service(FILE *out)
{
    family(out, "starfish_build_info", "gauge", "The version and commit running (always 1).");
    fprintf(out, "starfish_build_info{version=\"%s\",commit=\"%s\"} 1\n", version_number(), version_commit());
    gauge(out, "starfish_games_live", "Games held in memory: the unfinished ones and the finished ones in use.",
          service_count());
    int64_t stored;
    if (counted_store && store_count_games(counted_store, &stored))
        gauge(out, "starfish_games_stored", "Games in the store, finished or not.", (double)stored);
    gauge(out, "starfish_event_streams_open", "Games' event streams open (GET /api/games/ID/events).", events_count());
    gauge(out, "starfish_analysis_streams_open", "Analysis streams open (GET /api/analysis/stream).",
          analysis_streams_count());
    LaneLoad moves, questions;
    workers_load(&moves, &questions);
    family(out, "starfish_engine_searches_running", "gauge", "Engine searches running, by lane.");
    fprintf(out, "starfish_engine_searches_running{lane=\"moves\"} %d\n", moves.running);
    fprintf(out, "starfish_engine_searches_running{lane=\"questions\"} %d\n", questions.running);
    family(out, "starfish_engine_queue_length", "gauge", "Engine jobs waiting for a search thread, by lane.");
    fprintf(out, "starfish_engine_queue_length{lane=\"moves\"} %d\n", moves.queued);
    fprintf(out, "starfish_engine_queue_length{lane=\"questions\"} %d\n", questions.queued);
    family(out, "starfish_store_errors_total", "counter", "Statements of the game store that failed.");
    fprintf(out, "starfish_store_errors_total %llu\n", (unsigned long long)atomic_load(&store_errors));
    if (atomic_load(&pool_size)) {
        gauge(out, "starfish_db_pool_connections", "Connections of the PostgreSQL pool.", atomic_load(&pool_size));
        gauge(out, "starfish_db_pool_connections_in_use", "Connections of the PostgreSQL pool taken by a thread.",
              atomic_load(&pool_in_use));
    }
}

char *metrics_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    write_service(out);
    write_requests(out);
    metrics_write_process(out);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
