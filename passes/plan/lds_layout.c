/* lds_layout.c — the XOR-swizzled layout of a staged LDS tile (the plan's
 * unpadded layout, lds_tiles.c, which isel/lds_stage.c picks where row
 * padding would cost a workgroup per CU).
 *
 * The problem: the MFMA operand reads (16x16x16 and 32x32x8, and their
 * f32/i8/fp8 forms) take 8 bytes per lane from 16 (or 32) consecutive rows
 * at one column; the LDS serves a ds_read_b64 16 lanes at a time over 32
 * banks of 4 bytes (loader/timing/trace.c), so those 16 rows x 8 bytes
 * must land on all 32 banks. Unpadded rows of 128 bytes put them all on
 * one bank pair (16-way conflict). Padding each row by 8 bytes fixes it
 * but costs LDS; a swizzle fixes it in place.
 *
 * The swizzle: a row is cut into granules of 8 bytes; granule g of row r
 * is stored at granule g ^ key(r) of the same row, key(r) = (r / lines) %
 * keys, where for rows of W bytes
 *   W < 128 (a power of two): lines = 128 / W rows share a 128-byte line,
 *     keys = W / 8 (every granule of the row), so the 16 rows r..r+15
 *     (r a multiple of 16) take 16 distinct (line slot, granule) pairs;
 *   W a multiple of 128: lines = 1, keys = 16; g ^ key only changes g's
 *     low 4 bits, so it stays in the row and in the same 128-byte part,
 *     and the 16 rows take 16 distinct granules mod 16.
 * Either way 16 rows read at one granule cover 16 distinct bank pairs: no
 * conflict. Why 8-byte granules and not 16-byte chunks: with 16-byte
 * chunks the 16 reads share their offset within a chunk and so reach only
 * half of the banks, two rows per bank pair at best (2-way). The price is
 * that no access may cross a granule: the cooperative writes go out as
 * ds_write_b64 (two per 16-byte chunk), the reads as at most b64 — which
 * MFMA operand reads are anyway. Consecutive rows get keys of different
 * parity, so those b64 writes (16 lanes: two rows of 8 chunks, or four of
 * 4) are conflict-free too for W <= 128.
 *
 * Contract: the caller applies plan_lds_swizzle_offset to every write and read
 * of the tile, each access of at most 8 bytes aligned to its size. */
#include "lds_layout.h"

bool plan_lds_swizzle_for(int64_t row_bytes, LdsSwizzle *z)
{
	*z = (LdsSwizzle){0, 0, 0};
	bool pow2 = row_bytes > 0 && (row_bytes & (row_bytes - 1)) == 0;
	if (row_bytes >= 16 && row_bytes < 128 && pow2)
		*z = (LdsSwizzle){row_bytes, 128 / row_bytes, row_bytes / LDS_GRANULE};
	else if (row_bytes >= 128 && row_bytes % 128 == 0)
		*z = (LdsSwizzle){row_bytes, 1, 16};
	return z->row_bytes != 0;
}

Sym *plan_lds_swizzle_offset(SymCtx *sc, const LdsSwizzle *z, Sym *row, Sym *colb, const SymAssume *a)
{
	Sym *g8 = sym_int(sc, LDS_GRANULE);
	Sym *key = sym_mod(sc, sym_floordiv(sc, row, sym_int(sc, z->lines)), sym_int(sc, z->keys));
	Sym *g = sym_xor(sc, sym_simplify(sc, sym_floordiv(sc, colb, g8), a), sym_simplify(sc, key, a));
	Sym *off = sym_add(sc, sym_mul(sc, row, sym_int(sc, z->row_bytes)),
		sym_add(sc, sym_mul(sc, g, g8), sym_mod(sc, colb, g8)));
	return sym_simplify(sc, off, a);
}

int plan_lds_workgroups_per_cu(int64_t bytes, int64_t cu_bytes)
{
	if (bytes <= 0)
		return INT32_MAX;
	int64_t granules = (bytes + 511) / 512;
	return (int)(cu_bytes / 512 / granules);
}
