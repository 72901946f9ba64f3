/*
 * The rules derived from the tables, as data compiled into the program:
 * src/tablebase/derived_data.bin (written by `starfish tb stats --write-data FILE`),
 * included by derived_blob.S and read by tb_derived.c.
 *
 * The file, little-endian:
 *   header (32 bytes): magic "SFTBDRV1", u32 max_men (the signatures analysed have at most
 *     that many men), u32 nsigs (records below), u32 nfifty, u32 size (of the whole file),
 *     u32 CRC-32 of the bytes after the header, u32 reserved (0);
 *   nfifty names (16 bytes each, NUL-padded): the signatures whose longest win needs more
 *     than 100 plies without a zeroing move (the 50-move rule's exceptions);
 *   nsigs records (48 bytes each), sorted by signature code (tb_sig_code): name (16 bytes),
 *     u32 code, u32 reserved, u64 per_side and u64 rest (the index sizes the data was made
 *     for), u32 offset of the groups set, u32 offset of the exceptions set (from the file's
 *     start);
 *   the sets.
 *
 * The dead positions of one signature (in its stored orientation: see docs/tablebases.md):
 * entries are numbered side * per_side + index (White to move first), the index being the
 * table's (tb_index: king pair * rest + the other men's part).  The entries sharing the other
 * men's part and the side to move form a group; the groups set lists the groups that are
 * mostly dead, as side * rest + (index % rest), and the exceptions set the entries whose
 * deadness differs from their group's.  Stalemates (decided before this question arises) and
 * invalid entries count as either.
 *
 * A set of sorted u32 values: u32 count, u32 nblocks, then nblocks block heads (u32 first
 * value, u32 byte offset of the block's remaining values in the stream), then the stream:
 * each block's values after its first as LEB128 differences from the previous value.  A block
 * holds TB_SET_BLOCK values, so a lookup is a binary search over the heads and at most
 * TB_SET_BLOCK - 1 decoded differences.
 */
#ifndef STARFISH_TB_DERIVED_H
#define STARFISH_TB_DERIVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TB_DERIVED_MAGIC "SFTBDRV1"
#define TB_DERIVED_HEADER 32
#define TB_DERIVED_NAME 16
#define TB_DERIVED_RECORD 48
#define TB_SET_BLOCK 64

/* Checks a derived-data image (magic, sizes, checksum, every offset); false with a reason. */
bool tb_derived_check(const uint8_t *data, size_t size, char *err, size_t errlen);

#endif
