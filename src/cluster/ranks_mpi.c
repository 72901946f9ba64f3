/*
 * The ranks of `starfish-mpi`: MPI (Open MPI from Debian), every message an array of bytes
 * on MPI_COMM_WORLD under one tag.  Messages from one rank to another arrive in the order
 * sent (MPI's non-overtaking rule), which the farm relies on.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../util/error.h"
#include "ranks.h"

#define TAG 17

static int rank, size = 1;

bool ranks_start(char *err, size_t errlen)
{
    int provided;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return error_set(err, errlen, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_FUNNELED)
        return error_set(err, errlen, "the MPI library does not allow threads (MPI_THREAD_FUNNELED)");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return true;
}

void ranks_finish(void)
{
    MPI_Finalize();
}

bool ranks_under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") != NULL; /* set by Open MPI's launcher in every rank */
}

int ranks_rank(void)
{
    return rank;
}

int ranks_size(void)
{
    return size;
}

void ranks_share(void *data, size_t len)
{
    MPI_Bcast(data, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void ranks_send(int to, const void *msg, size_t len)
{
    MPI_Send(msg, (int)len, MPI_BYTE, to, TAG, MPI_COMM_WORLD);
}

bool ranks_receive(int *from, void **msg, size_t *len)
{
    int waiting, count;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &waiting, &st);
    if (!waiting)
        return false;
    MPI_Get_count(&st, MPI_BYTE, &count);
    *msg = malloc(count > 0 ? (size_t)count : 1);
    if (!*msg) { /* a rank that cannot take its messages cannot go on, nor can the others */
        fprintf(stderr, "starfish: out of memory for a message of %d bytes from rank %d\n", count, st.MPI_SOURCE);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Recv(*msg, count, MPI_BYTE, st.MPI_SOURCE, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    *from = st.MPI_SOURCE;
    *len = (size_t)count;
    return true;
}
