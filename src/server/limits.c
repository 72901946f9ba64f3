#include "limits.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define BUCKETS 1024

/* What one address holds: its open connections, and its game-creation allowance (tokens,
 * refilled at new_games_per_minute a minute up to that many). */
typedef struct Client {
    unsigned char addr[16]; /* IPv4 in the first 4 bytes, or IPv6 */
    int connections;
    double tokens;
    int64_t refilled_ms;
    struct Client *next;
} Client;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Client *buckets[BUCKETS];
static int max_connections, max_new_games;

void limits_set(int connections_per_ip, int new_games_per_minute)
{
    max_connections = connections_per_ip;
    max_new_games = new_games_per_minute;
}

int limits_connections(void)
{
    return max_connections;
}

int limits_new_games(void)
{
    return max_new_games;
}

/* The address's bytes (16, IPv4 zero-padded). */
static void key_of(const struct sockaddr *sa, unsigned char key[16])
{
    memset(key, 0, 16);
    if (sa && sa->sa_family == AF_INET)
        memcpy(key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
    else if (sa && sa->sa_family == AF_INET6)
        memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
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

/* Tops up the allowance for the time passed. */
static void refill(Client *c, int64_t now)
{
    c->tokens += (double)(now - c->refilled_ms) * max_new_games / 60000.0;
    if (c->tokens > max_new_games)
        c->tokens = max_new_games;
    c->refilled_ms = now;
}

/* The address's entry (lock held), made if absent; NULL when memory runs out. */
static Client *client(const struct sockaddr *sa, Client ***where)
{
    unsigned char key[16];
    key_of(sa, key);
    Client **p = slot_of(key);
    if (!*p && (*p = calloc(1, sizeof **p))) {
        memcpy((*p)->addr, key, 16);
        (*p)->tokens = max_new_games;
        (*p)->refilled_ms = clock_ms();
    }
    *where = p;
    return *p;
}

/* Forgets an entry that holds nothing (lock held): no connection, a full allowance. */
static void forget_if_idle(Client **p, int64_t now)
{
    Client *c = *p;
    refill(c, now);
    if (c->connections == 0 && c->tokens >= max_new_games) {
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

bool limits_new_game(const struct sockaddr *addr, int *retry_s)
{
    if (!max_new_games)
        return true;
    pthread_mutex_lock(&lock);
    Client **p, *c = client(addr, &p);
    bool ok = false;
    *retry_s = 1;
    if (c) {
        refill(c, clock_ms());
        ok = c->tokens >= 1;
        if (ok)
            c->tokens -= 1;
        else
            *retry_s = 1 + (int)((1 - c->tokens) * 60.0 / max_new_games);
    }
    pthread_mutex_unlock(&lock);
    return ok;
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
