#include "bigmem.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* `bytes` rounded up to whole pages: what mmap hands out and munmap must be given back (a
 * trim that ends inside a page fails, and the rest of the mapping stayed mapped). */
static size_t whole_pages(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

void *bigmem_alloc(size_t bytes)
{
    if (!bytes)
        return NULL;
    bytes = whole_pages(bytes);
    /* Map a huge page more than asked, then give back the pages before and after the aligned
     * part; anonymous pages come zeroed, and only when touched. */
    size_t total = bytes + HUGE_PAGE;
    char *raw = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    size_t tail = (size_t)(raw + total - (start + bytes));
    if (tail)
        munmap(start + bytes, tail);
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE) /* a hint: without huge pages the table works all the same */
        madvise(start, bytes, MADV_HUGEPAGE);
#endif
    return start;
}

void bigmem_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, whole_pages(bytes));
}
