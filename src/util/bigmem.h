/* Large tables read at random places (the transposition table, the continuation histories):
 * zeroed memory aligned to a huge page, which the kernel is asked to back with huge pages.
 * With 4 KB pages most reads of such a table also miss the TLB. */
#ifndef STARFISH_UTIL_BIGMEM_H
#define STARFISH_UTIL_BIGMEM_H

#include <stddef.h>

/* `bytes` of zeroed memory (pages are zero until touched), or NULL. */
void *bigmem_alloc(size_t bytes);
/* Gives back what bigmem_alloc(bytes) returned; NULL is fine. */
void bigmem_free(void *p, size_t bytes);

#endif
