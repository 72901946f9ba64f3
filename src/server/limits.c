#include "limits.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define BUCKETS 1024
#define TRUSTED_MAX 32

/* An allowance: tokens refilled evenly at `max` a period up to `max`; each use takes one. */
typedef struct Bucket {
    double tokens;
    int64_t refilled_ms;
} Bucket;

typedef struct Allowance {
    int max; /* 0: no limit */
    int64_t period_ms;
} Allowance;

enum { GAMES, SIGNUPS, ALLOWANCES };

/* What one address holds: its open connections, and its allowances to create games and
 * accounts. */
typedef struct Client {
    unsigned char addr[16]; /* IPv4 in the first 4 bytes, or IPv6 */
    int connections;
    Bucket bucket[ALLOWANCES];
    struct Client *next;
} Client;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Client *buckets[BUCKETS];
static int max_connections;
static Allowance allowance[ALLOWANCES] = {[GAMES] = {0, 60 * 1000}, [SIGNUPS] = {0, 3600 * 1000}};
static unsigned char trusted[TRUSTED_MAX][16]; /* the trusted proxies' keys (see key_of) */
static int ntrusted;

void limits_set(int connections_per_ip, int new_games_per_minute, int signups_per_hour)
{
    max_connections = connections_per_ip;
    allowance[GAMES].max = new_games_per_minute;
    allowance[SIGNUPS].max = signups_per_hour;
}

int limits_connections(void)
{
    return max_connections;
}

int limits_new_games(void)
{
    return allowance[GAMES].max;
}

int limits_signups(void)
{
    return allowance[SIGNUPS].max;
}

/* An IPv4 address as IPv6 sees it (::ffff:a.b.c.d): the 16 bytes of a key. */
static void key_of_ipv4(const struct in_addr *a, unsigned char key[16])
{
    memset(key, 0, 16);
    key[10] = key[11] = 0xff;
    memcpy(key + 12, a, 4);
}

/* The address's 16 bytes (IPv4 mapped into IPv6). */
static void key_of(const struct sockaddr *sa, unsigned char key[16])
{
    memset(key, 0, 16);
    if (sa && sa->sa_family == AF_INET)
        key_of_ipv4(&((const struct sockaddr_in *)sa)->sin_addr, key);
    else if (sa && sa->sa_family == AF_INET6)
        memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
}

/* The key of an address written as text (surrounding blanks ignored); false when it is none. */
static bool key_of_text(const char *text, size_t len, unsigned char key[16])
{
    char buf[INET6_ADDRSTRLEN];
    while (len && (*text == ' ' || *text == '\t'))
        text++, len--;
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = 0;
    struct in_addr v4;
    if (inet_pton(AF_INET, buf, &v4) == 1) {
        key_of_ipv4(&v4, key);
        return true;
    }
    return inet_pton(AF_INET6, buf, key) == 1;
}

static bool key_trusted(const unsigned char key[16])
{
    for (int i = 0; i < ntrusted; i++)
        if (memcmp(trusted[i], key, 16) == 0)
            return true;
    return false;
}

bool limits_trust(const char *list, char *err, size_t errlen)
{
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (ntrusted == TRUSTED_MAX) {
            snprintf(err, errlen, "more than %d trusted proxies", TRUSTED_MAX);
            return false;
        }
        if (!key_of_text(p, len, trusted[ntrusted])) {
            snprintf(err, errlen, "'%.*s' is not an IPv4 or IPv6 address", (int)(len > 60 ? 60 : len), p);
            return false;
        }
        ntrusted++;
        p += len;
        if (!*p)
            return true;
    }
}

bool limits_trusted(const struct sockaddr *addr)
{
    unsigned char key[16];
    key_of(addr, key);
    return addr && key_trusted(key);
}

/* A key as a socket address (IPv6, or IPv4 when it is a mapped one). */
static void address_of_key(const unsigned char key[16], struct sockaddr_storage *out)
{
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    memset(out, 0, sizeof *out);
    if (memcmp(key, mapped, 12) == 0) {
        struct sockaddr_in *in = (struct sockaddr_in *)out;
        in->sin_family = AF_INET;
        memcpy(&in->sin_addr, key + 12, 4);
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;
        in6->sin6_family = AF_INET6;
        memcpy(&in6->sin6_addr, key, 16);
    }
}

void limits_forwarded(const struct sockaddr *peer, const char *forwarded_for, struct sockaddr_storage *client)
{
    unsigned char key[16], found[16];
    key_of(peer, found);
    /* From the right: the addresses the trusted proxies appended, up to the first that is not
     * a trusted proxy's (those left of it are the client's to write, so not believed). */
    for (size_t end = forwarded_for ? strlen(forwarded_for) : 0; end > 0;) {
        size_t start = end;
        while (start > 0 && forwarded_for[start - 1] != ',')
            start--;
        if (!key_of_text(forwarded_for + start, end - start, key))
            break;
        memcpy(found, key, 16);
        if (!key_trusted(key))
            break;
        end = start ? start - 1 : 0;
    }
    address_of_key(found, client);
}

static Client **slot_of(const unsigned char key[16])
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 16777619u;
    Client **p = &buckets[h % BUCKETS];
    while (*p && memcmp((*p)->addr, key, 16) != 0)
        p = &(*p)->next;
    return p;
}

/* Tops up an allowance for the time passed; true when it is full. */
static bool refill(Bucket *b, const Allowance *a, int64_t now)
{
    b->tokens += (double)(now - b->refilled_ms) * a->max / (double)a->period_ms;
    if (b->tokens > a->max)
        b->tokens = a->max;
    b->refilled_ms = now;
    return b->tokens >= a->max;
}

/* The address's entry (lock held), made if absent; NULL when memory runs out. */
static Client *client(const struct sockaddr *sa, Client ***where)
{
    unsigned char key[16];
    key_of(sa, key);
    Client **p = slot_of(key);
    if (!*p && (*p = calloc(1, sizeof **p))) {
        memcpy((*p)->addr, key, 16);
        int64_t now = clock_ms();
        for (int i = 0; i < ALLOWANCES; i++)
            (*p)->bucket[i] = (Bucket){allowance[i].max, now};
    }
    *where = p;
    return *p;
}

/* Forgets an entry that holds nothing (lock held): no connection, every allowance full. */
static void forget_if_idle(Client **p, int64_t now)
{
    Client *c = *p;
    bool full = true;
    for (int i = 0; i < ALLOWANCES; i++)
        full &= refill(&c->bucket[i], &allowance[i], now);
    if (c->connections == 0 && full) {
        *p = c->next;
        free(c);
    }
}

bool limits_connect(const struct sockaddr *addr)
{
    if (!max_connections)
        return true;
    pthread_mutex_lock(&lock);
    Client **p, *c = client(addr, &p);
    bool ok = c && ++c->connections <= max_connections;
    pthread_mutex_unlock(&lock);
    return ok;
}

void limits_disconnect(const struct sockaddr *addr)
{
    if (!max_connections)
        return;
    pthread_mutex_lock(&lock);
    Client **p, *c = client(addr, &p);
    if (c) {
        c->connections--;
        forget_if_idle(p, clock_ms());
    }
    pthread_mutex_unlock(&lock);
}

/* Takes one use of allowance `which` for addr, if it has one; else *retry_s says when. */
static bool take(int which, const struct sockaddr *addr, int *retry_s)
{
    const Allowance *a = &allowance[which];
    if (!a->max)
        return true;
    pthread_mutex_lock(&lock);
    Client **p, *c = client(addr, &p);
    bool ok = false;
    *retry_s = 1;
    if (c) {
        Bucket *b = &c->bucket[which];
        refill(b, a, clock_ms());
        ok = b->tokens >= 1;
        if (ok)
            b->tokens -= 1;
        else
            *retry_s = 1 + (int)((1 - b->tokens) * (double)a->period_ms / 1000.0 / a->max);
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

bool limits_new_game(const struct sockaddr *addr, int *retry_s)
{
    return take(GAMES, addr, retry_s);
}

bool limits_signup(const struct sockaddr *addr, int *retry_s)
{
    return take(SIGNUPS, addr, retry_s);
}

void limits_sweep(void)
{
    int64_t now = clock_ms();
    pthread_mutex_lock(&lock);
    for (int b = 0; b < BUCKETS; b++)
        for (Client **p = &buckets[b]; *p;) {
            Client *c = *p;
            forget_if_idle(p, now);
            if (*p == c)
                p = &c->next;
        }
    pthread_mutex_unlock(&lock);
}

void limits_free(void)
{
    pthread_mutex_lock(&lock);
    for (int b = 0; b < BUCKETS; b++)
        while (buckets[b]) {
            Client *c = buckets[b];
            buckets[b] = c->next;
            free(c);
        }
    pthread_mutex_unlock(&lock);
}
