/* Little-endian integers in byte buffers, as the program's file formats store them (the
 * position files, the nets, the endgame tables), whatever the machine's own order. */
#ifndef STARFISH_UTIL_BYTES_H
#define STARFISH_UTIL_BYTES_H

#include <stdint.h>

static inline void le_put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void le_put32(uint8_t *p, uint32_t v)
{
    le_put16(p, v);
    le_put16(p + 2, v >> 16);
}

static inline void le_put64(uint8_t *p, uint64_t v)
{
    le_put32(p, (uint32_t)v);
    le_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t le_get16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t le_get32(const uint8_t *p)
{
    return le_get16(p) | le_get16(p + 2) << 16;
}

static inline uint64_t le_get64(const uint8_t *p)
{
    return (uint64_t)le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}

#endif
