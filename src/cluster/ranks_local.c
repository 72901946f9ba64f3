/* One process, rank 0 of 1: the ranks of `starfish`, which is built without MPI.  A single
 * rank has no one to send to, so the farm never sends or receives. */
#include "ranks.h"

bool ranks_start(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return true;
}

void ranks_finish(void)
{
}

bool ranks_under_mpirun(void)
{
    return false;
}

int ranks_rank(void)
{
    return 0;
}

int ranks_size(void)
{
    return 1;
}

void ranks_share(void *data, size_t len)
{
    (void)data;
    (void)len;
}

void ranks_send(int to, const void *msg, size_t len)
{
    (void)to;
    (void)msg;
    (void)len;
}

bool ranks_receive(int *from, void **msg, size_t *len)
{
    (void)from;
    (void)msg;
    (void)len;
    return false;
}
