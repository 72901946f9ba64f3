/*
 * What the server gives those who run it: the route labels of the metrics (a fixed set, so no
 * client can make new series), who may read the metrics, and the log's request target with
 * its secrets redacted.
 */
#include <stdlib.h>

#include "../../src/server/api.h"
#include "../../src/server/logger.h"
#include "../../src/server/metrics.h"
#include "test.h"

TEST(ops_routes_are_patterns_from_a_fixed_set)
{
    api_routes_to_metrics(); /* the API's route tables, as api_start gives them */
    CHECK_EQ_STR(metrics_route("/"), "static");
    CHECK_EQ_STR(metrics_route("/game/x.js?v=1"), "static");
    CHECK_EQ_STR(metrics_route("/metrics"), "/metrics");
    CHECK_EQ_STR(metrics_route("/api/health"), "/api/health");
    CHECK_EQ_STR(metrics_route("/api/games"), "/api/games");
    CHECK_EQ_STR(metrics_route("/api/games?limit=5"), "/api/games");
    CHECK_EQ_STR(metrics_route("/api/games/AbCd1234"), "/api/games/{id}");
    CHECK_EQ_STR(metrics_route("/api/games/AbCd1234?token=x"), "/api/games/{id}");
    CHECK_EQ_STR(metrics_route("/api/games/AbCd1234/moves"), "/api/games/{id}/moves");
    CHECK_EQ_STR(metrics_route("/api/games/AbCd1234/events"), "/api/games/{id}/events");
    CHECK_EQ_STR(metrics_route("/api/puzzles/chess/3"), "/api/puzzles/{variant}/{number}");
    CHECK_EQ_STR(metrics_route("/api/games/user/alice"), "/api/games/user/{name}");
    CHECK_EQ_STR(metrics_route("/api/account/tokens/x1"), "/api/account/tokens/{id}");
    CHECK_EQ_STR(metrics_route("/api/auth/login"), "/api/auth/login");
    /* Anything else under /api/ is one label, whatever a client sends. */
    CHECK_EQ_STR(metrics_route("/api/games/AbCd1234/moves/extra"), "/api/other");
    CHECK_EQ_STR(metrics_route("/api/games//moves"), "/api/other");
    CHECK_EQ_STR(metrics_route("/api/gamesx"), "/api/other");
    CHECK_EQ_STR(metrics_route("/api/"), "/api/other");
    CHECK_EQ_STR(metrics_route("/api/random-1234"), "/api/other");
}

TEST(ops_metrics_are_read_from_this_machine_or_with_the_token)
{
    CHECK_EQ_INT(metrics_refusal(true, false, NULL), 0);
    CHECK_EQ_INT(metrics_refusal(true, true, NULL), 403); /* a proxy on this machine passed it on */
    CHECK_EQ_INT(metrics_refusal(false, false, "Bearer anything"), 403);
}

static void check_redacted(const char *target, const char *expected)
{
    char *got = logger_redacted_target(target);
    CHECK(got != NULL);
    if (got)
        CHECK_EQ_STR(got, expected);
    free(got);
}

TEST(ops_log_targets_lose_their_secrets)
{
    check_redacted("/api/games/abc", "/api/games/abc");
    check_redacted("/api/games/abc?token=s3cret", "/api/games/abc?token=REDACTED");
    check_redacted("/x?a=1&Token=s&b=2&password=p&api_key=k&x_auth=&code=9&cursor=c",
                   "/x?a=1&Token=REDACTED&b=2&password=REDACTED&api_key=REDACTED&x_auth=REDACTED&code=REDACTED&cursor=c");
    check_redacted("/x?token", "/x?token"); /* no value */
    check_redacted("/x?t=&token=&token=&token=", "/x?t=&token=REDACTED&token=REDACTED&token=REDACTED");
    check_redacted("/a b\x01\xc3?q=\"", "/a%20b%01%C3?q=\"");
}
