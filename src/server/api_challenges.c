/* The API's challenges, in lichess's shapes: making one (to an account, or open), accepting,
 * declining and canceling it, the account's open challenges, one challenge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_route.h"
#include "challenge_service.h"
#include "lichess_json.h"
#include "util.h"

static unsigned status_of(ChallengeStatus s)
{
    static const unsigned codes[] = {[CHALLENGE_OK] = 200,        [CHALLENGE_BAD] = 400,
                                     [CHALLENGE_DENIED] = 401,    [CHALLENGE_FORBIDDEN] = 403,
                                     [CHALLENGE_NOT_FOUND] = 404, [CHALLENGE_CLOSED] = 409,
                                     [CHALLENGE_FAILED] = 503};
    return codes[s];
}

/* The body's options of a challenge (lichess's fields, form or JSON): 0 or a status with err. */
static int read_challenge(json_t *o, ChallengeOptions *c, char *err)
{
    const char *variant = NULL, *color = NULL, *fen = NULL;
    long long limit, increment, days;
    int status;
    if ((status = form_bool(o, "rated", false, &c->rated, err)) || (status = opt_string(o, "variant", &variant, err)) ||
        (status = opt_string(o, "color", &color, err)) || (status = opt_string(o, "fen", &fen, err)) ||
        (status = form_int(o, "clock.limit", 0, 1000000, -1, &limit, err)) ||
        (status = form_int(o, "clock.increment", 0, 1000000, -1, &increment, err)) ||
        (status = form_int(o, "days", 0, 1000, 0, &days, err)))
        return status;
    c->v = lichess_variant(variant ? variant : "standard");
    if (!c->v) {
        snprintf(err, ERR_MAX, "unknown variant '%.40s'", variant);
        return 400;
    }
    if ((limit < 0) != (increment < 0)) {
        snprintf(err, ERR_MAX, "a clock needs both clock.limit and clock.increment");
        return 400;
    }
    c->has_clock = limit >= 0;
    c->limit_s = (int)(limit < 0 ? 0 : limit);
    c->increment_s = (int)(increment < 0 ? 0 : increment);
    c->days = (int)days;
    c->color = color ? color : "random";
    c->fen = fen && *fen ? fen : NULL;
    return 0;
}

static enum MHD_Result answer_challenge(ApiRequest *rq, const ChallengeRow *c)
{
    return http_json(rq->c, 200, challenge_json(c, rq->who.via != AUTH_NONE ? rq->who.user_id : NULL));
}

/* POST /api/challenge/{username} and /api/challenge/open (dest NULL). */
static enum MHD_Result create(ApiRequest *rq, const char *dest)
{
    char err[ERR_MAX], message[CHALLENGE_MESSAGE_MAX];
    json_t *o;
    ChallengeOptions options = {0};
    int bad = api_body(rq, &o, err);
    if (!bad)
        bad = read_challenge(o, &options, err);
    if (bad) {
        json_decref(o);
        return http_error(rq->c, (unsigned)bad, "%s", err);
    }
    ChallengeRow c;
    ChallengeStatus status = challenge_create(&rq->who, dest, &options, &c, message);
    json_decref(o);
    return status == CHALLENGE_OK ? answer_challenge(rq, &c) : http_error(rq->c, status_of(status), "%s", message);
}

static enum MHD_Result post_challenge(ApiRequest *rq)
{
    return create(rq, rq->arg[0]);
}

static enum MHD_Result post_open_challenge(ApiRequest *rq)
{
    return create(rq, NULL);
}

static enum MHD_Result answer_ok(ApiRequest *rq, ChallengeStatus status, const char *message)
{
    return status == CHALLENGE_OK ? http_json(rq->c, 200, json_pack("{s:b}", "ok", true))
                                  : http_error(rq->c, status_of(status), "%s", message);
}

static enum MHD_Result post_accept(ApiRequest *rq)
{
    char message[CHALLENGE_MESSAGE_MAX];
    return answer_ok(rq, challenge_accept(&rq->who, rq->arg[0], message), message);
}

static enum MHD_Result post_decline(ApiRequest *rq)
{
    char err[ERR_MAX], message[CHALLENGE_MESSAGE_MAX];
    json_t *o;
    const char *reason = NULL;
    int bad = api_body(rq, &o, err);
    if (!bad)
        bad = opt_string(o, "reason", &reason, err);
    if (bad) {
        json_decref(o);
        return http_error(rq->c, (unsigned)bad, "%s", err);
    }
    ChallengeStatus status = challenge_decline(&rq->who, rq->arg[0], reason, message);
    json_decref(o);
    return answer_ok(rq, status, message);
}

static enum MHD_Result post_cancel(ApiRequest *rq)
{
    char message[CHALLENGE_MESSAGE_MAX];
    return answer_ok(rq, challenge_cancel(&rq->who, rq->arg[0], message), message);
}

/* GET /api/challenge: {"in": [...], "out": [...]}. */
static enum MHD_Result get_challenges(ApiRequest *rq)
{
    char message[CHALLENGE_MESSAGE_MAX];
    ChallengeRow *rows = NULL;
    int n = 0;
    ChallengeStatus status = challenge_list(&rq->who, &rows, &n, message);
    if (status != CHALLENGE_OK)
        return http_error(rq->c, status_of(status), "%s", message);
    json_t *in = json_array(), *out = json_array();
    bool ok = in && out;
    for (int i = 0; i < n; i++)
        util_json_append(strcmp(rows[i].challenger, rq->who.user_id) == 0 ? out : in,
                         challenge_json(&rows[i], rq->who.user_id), &ok);
    free(rows);
    json_t *body = ok ? json_pack("{s:o, s:o}", "in", in, "out", out) : NULL;
    if (!ok) {
        json_decref(in);
        json_decref(out);
    }
    return http_json(rq->c, 200, body);
}

static enum MHD_Result get_challenge(ApiRequest *rq)
{
    char message[CHALLENGE_MESSAGE_MAX];
    ChallengeRow c;
    ChallengeStatus status = challenge_find(rq->arg[0], &c, message);
    return status == CHALLENGE_OK ? answer_challenge(rq, &c) : http_error(rq->c, status_of(status), "%s", message);
}

const ApiRoute api_challenge_routes[] = {
    {"GET", "/challenge", get_challenges, false},
    {"POST", "/challenge/open", post_open_challenge, false},
    {"POST", "/challenge/{username}", post_challenge, false},
    {"GET", "/challenge/{id}/show", get_challenge, false},
    {"POST", "/challenge/{id}/accept", post_accept, false},
    {"POST", "/challenge/{id}/decline", post_decline, false},
    {"POST", "/challenge/{id}/cancel", post_cancel, false},
    {NULL, NULL, NULL, false},
};
