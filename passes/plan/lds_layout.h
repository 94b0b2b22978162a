/* lds_layout.h — the XOR-swizzled LDS layout of a staged tile (lds_layout.c),
 * for the tiles of the plan (lds_tiles.c) and isel/lds_stage.c. */
#ifndef WAVECC_PLAN_LDS_LAYOUT_H
#define WAVECC_PLAN_LDS_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "../../ir/sym/sym.h"

enum { LDS_GRANULE = 8 }; /* bytes: the unit the swizzle moves; no access may cross one */

/* A tile's swizzle: rows of row_bytes, row r's granule g stored at granule
 * g ^ ((r / lines) % keys) of the row. row_bytes 0: not swizzled. */
typedef struct LdsSwizzle {
	int64_t row_bytes, lines, keys;
} LdsSwizzle;

/* The swizzle for rows of row_bytes; false (z zeroed) when none keeps
 * every granule in its row and spreads 16 rows over all 32 banks. */
bool plan_lds_swizzle_for(int64_t row_bytes, LdsSwizzle *z);
/* The byte offset, from the tile's start, of the byte colb of row `row`
 * (both >= 0, colb < row_bytes). */
Sym *plan_lds_swizzle_offset(SymCtx *sc, const LdsSwizzle *z, Sym *row, Sym *colb, const SymAssume *a);
/* Workgroups per CU that `bytes` of LDS each allow on a CU of cu_bytes
 * (64 KiB on gfx942 and gfx90a, 160 KiB on gfx950; 512-byte granule);
 * 0 bytes: unlimited (INT32_MAX). */
int plan_lds_workgroups_per_cu(int64_t bytes, int64_t cu_bytes);

#endif
