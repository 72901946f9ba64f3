#include "tournament_news.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define TOUCHED_MAX 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char touched[TOUCHED_MAX][STORE_ID_MAX + 1];
static int ntouched;

void tournament_topic(const char *id, char *topic, size_t len)
{
    snprintf(topic, len, "tournament:%s", id);
}

void tournament_touch(const char *id)
{
    pthread_mutex_lock(&lock);
    bool known = false;
    for (int i = 0; i < ntouched && !known; i++)
        known = strcmp(touched[i], id) == 0;
    if (!known && ntouched < TOUCHED_MAX) /* full: what is listed goes first, the rest next time it changes */
        snprintf(touched[ntouched++], sizeof touched[0], "%s", id);
    pthread_mutex_unlock(&lock);
}

int tournament_take_touched(char (*ids)[STORE_ID_MAX + 1], int max)
{
    pthread_mutex_lock(&lock);
    int n = ntouched < max ? ntouched : max;
    memcpy(ids, touched, (size_t)n * sizeof touched[0]);
    memmove(touched, touched + n, (size_t)(ntouched - n) * sizeof touched[0]);
    ntouched -= n;
    pthread_mutex_unlock(&lock);
    return n;
}
