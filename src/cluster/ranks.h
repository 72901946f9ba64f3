/*
 * The processes of one run.  `starfish-mpi` started by `mpirun -n K` is K processes, ranks
 * 0..K-1, that exchange messages through MPI (ranks_mpi.c, Open MPI); `starfish` is always
 * one process, rank 0 of 1 (ranks_local.c), and needs no MPI library.  Only the commands that
 * spread their work (match, tb generate) join the run, through the task farm (farm.h).
 *
 * All calls come from the thread that called ranks_start (MPI_THREAD_FUNNELED).
 */
#ifndef STARFISH_CLUSTER_RANKS_H
#define STARFISH_CLUSTER_RANKS_H

#include <stdbool.h>
#include <stddef.h>

/* Joins the run (MPI_Init); false with err set when the MPI library refuses. */
bool ranks_start(char *err, size_t errlen);
/* Leaves it (MPI_Finalize, which waits for every rank): after the last message. */
void ranks_finish(void);

/* Whether mpirun started this process, even as its only rank.  A rank's output then goes
 * through mpirun, which gives it a terminal whatever mpirun's own output is: the rank cannot
 * tell whether a person is watching. */
bool ranks_under_mpirun(void);

/* This process's rank, and how many there are (1 without mpirun). */
int ranks_rank(void);
int ranks_size(void);

/* Rank 0's copy of data, len bytes, overwrites every other rank's (every rank calls it). */
void ranks_share(void *data, size_t len);

/* Sends len bytes to rank `to`; returns when the buffer may be reused. */
void ranks_send(int to, const void *msg, size_t len);
/* A message that has arrived from any rank, without waiting: false when there is none, else
 * the sender, and the bytes in a buffer the caller frees. */
bool ranks_receive(int *from, void **msg, size_t *len);

#endif
