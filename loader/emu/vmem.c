/* vmem.c — memory instructions: SMEM (scalar loads/stores), DS (LDS and the
 * cross-lane ds_swizzle/ds_permute/ds_bpermute), MUBUF (buffer loads/stores
 * through a V#) and FLAT/GLOBAL.
 *
 * Memory operations complete immediately, in lane order; s_waitcnt is thus a
 * no-op. An access that leaves every mapped region stops the launch with the
 * address, size, lane and instruction. LDS accesses outside the workgroup's
 * allocation are reported the same way (hardware would read 0 / drop the
 * write; for a compiler test bed an error is more useful).
 *
 * MUBUF addressing and range checks (AMD CDNA3 ISA guide, buffer instructions):
 *   address = base + soffset + inst_offset + voffset (+ stride * index)
 *   raw (idxen = 0 or stride = 0): each dword is in range iff
 *     soffset + inst_offset + voffset + 4k + 4 <= num_records;
 *   structured (idxen, stride != 0): in range iff index < num_records.
 * Out-of-range loads give 0 and out-of-range stores are dropped, per dword
 * for the x2/x3/x4 forms. */
#include <pthread.h>
#include <math.h>
#include <string.h>

#include "../../util/dtype.h"
#include "emu_int.h"

static uint8_t *dev_ptr(Emu *e, Wave *w, const Inst *in, uint64_t addr, unsigned size, bool wr, int lane)
{
	const EmuRegion *r = emu_mem_find(e->mem, addr, size);
	if (!r) {
		char near[256];
		emu_mem_describe(e->mem, addr, size, near, sizeof near);
		emu_fail(e, w, in, "memory %s outside any mapped region: address 0x%llx, %u bytes, lane %d: %s",
			 wr ? "write" : "read", (unsigned long long)addr, size, lane, near);
		return NULL;
	}
	if (wr && !r->writable) {
		emu_fail(e, w, in, "write to read-only region '%s' at address 0x%llx, lane %d", r->name,
			 (unsigned long long)addr, lane);
		return NULL;
	}
	if (e->watch && !emu_watch(e, w, in, r, addr, size, lane))
		return NULL;
	return r->host + (addr - r->addr);
}

static uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void st32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* ---- SMEM ---- */

void emu_exec_smem(Emu *e, Wave *w, const Inst *in)
{
	const IsaInfo *r = &isa_info[in->id];
	if (in->id == I_S_DCACHE_INV || in->id == I_S_DCACHE_WB)
		return;
	if (in->id == I_S_MEMTIME || in->id == I_S_MEMREALTIME) {
		emu_sreg_write64(e, w, in->dst, e->executed);
		return;
	}
	if (in->sbase + ((r->flags & IF_SMEM_BUF) ? 3 : 1) >= NUM_SGPRS) {
		emu_fail(e, w, in, "scalar base s%u out of range", in->sbase);
		return;
	}
	uint64_t base = w->sgpr[in->sbase] | (uint64_t)(w->sgpr[in->sbase + 1] & 0xffff) << 32;
	if (!(r->flags & IF_SMEM_BUF))
		base = w->sgpr[in->sbase] | (uint64_t)w->sgpr[in->sbase + 1] << 32;
	int64_t off = in->smem_imm ? in->imm : 0;
	if (in->soffset_en)
		off += emu_sreg_read(e, w, in->soffset);
	unsigned n = r->dst;
	if (in->dst + n > NUM_SGPRS) {
		emu_fail(e, w, in, "scalar destination s%u..s%u out of range", in->dst, in->dst + n - 1);
		return;
	}
	uint64_t addr = (base + (uint64_t)off) & ~(uint64_t)3;
	emu_note_access(e, EMU_SPACE_SCALAR, 4 * n, false);
	emu_note_addr(e, 0, (r->flags & IF_SMEM_BUF) ? base + (((uint64_t)off) & ~(uint64_t)3) : addr);
	if (r->flags & IF_SMEM_BUF) {
		uint32_t num = w->sgpr[in->sbase + 2];
		uint64_t o = ((uint64_t)off) & ~(uint64_t)3;
		for (unsigned k = 0; k < n; k++) {
			if (o + 4 * k + 4 > num) {
				w->sgpr[in->dst + k] = 0;
				continue;
			}
			uint8_t *p = dev_ptr(e, w, in, base + o + 4 * k, 4, false, -1);
			if (!p)
				return;
			w->sgpr[in->dst + k] = ld32(p);
		}
		return;
	}
	/* A wide scalar load may run past the end of its region (clang merges
	 * kernarg loads into x4/x8 beyond the last argument; hardware memory is
	 * page-granular): dwords past the end of the region holding the first
	 * dword read as 0. Stores must fit. */
	const EmuRegion *reg = emu_mem_find(e->mem, addr, 4);
	if (!(r->flags & (IF_STORE | IF_ATOMIC)) && reg && !emu_mem_find(e->mem, addr, 4 * n)) {
		for (unsigned k = 0; k < n; k++) {
			uint64_t a = addr + 4 * k;
			w->sgpr[in->dst + k] = a + 4 <= reg->addr + reg->size ? ld32(reg->host + (a - reg->addr)) : 0;
		}
		return;
	}
	uint8_t *p = dev_ptr(e, w, in, addr, 4 * n, (r->flags & (IF_STORE | IF_ATOMIC)) != 0, -1);
	if (!p)
		return;
	if (r->flags & IF_ATOMIC) { /* s_atomic_inc/dec: the old value returned with glc */
		uint32_t old = ld32(p), v = w->sgpr[in->dst];
		st32(p, in->id == I_S_ATOMIC_INC ? (old >= v ? 0 : old + 1) : (old == 0 || old > v ? v : old - 1));
		if (in->glc)
			w->sgpr[in->dst] = old;
		return;
	}
	for (unsigned k = 0; k < n; k++) {
		if (r->flags & IF_STORE)
			st32(p + 4 * k, w->sgpr[in->dst + k]);
		else
			w->sgpr[in->dst + k] = ld32(p + 4 * k);
	}
}

/* ---- element helpers shared by DS, MUBUF and FLAT ---- */

static unsigned elem_size_of(const IsaInfo *r)
{
	if (strstr(r->name, "byte") || strstr(r->name, "_b8") || strstr(r->name, "u8") || strstr(r->name, "i8"))
		return 1;
	if (strstr(r->name, "short") || strstr(r->name, "_b16") || strstr(r->name, "u16") || strstr(r->name, "i16"))
		return 2;
	return 4;
}

/* Element size by instruction, computed once per process from the
 * mnemonics (the per-lane paths must not parse names; pthread_once:
 * emulator runs may start on several threads at once). */
static uint8_t elem_sizes[I_COUNT];
static pthread_once_t elem_sizes_once = PTHREAD_ONCE_INIT;

static void elem_sizes_build(void)
{
	for (size_t i = 0; i < I_COUNT; i++)
		elem_sizes[i] = (uint8_t)elem_size_of(&isa_info[i]);
}

static unsigned elem_size(const IsaInfo *r)
{
	pthread_once(&elem_sizes_once, elem_sizes_build);
	return elem_sizes[r - isa_info];
}

/* Load `size` (1 or 2) bytes into a register value per the row's flags. A
 * d16 form puts the (zero- or sign-extended to 16 bits) value in its half;
 * the other half keeps `old`'s bits when the launch preserves them, else it
 * is 0 (SRAM ECC on: the load writes all 32 bits, emu.h). */
static uint32_t load_sub(const IsaInfo *r, const uint8_t *p, unsigned size, uint32_t old, EmuD16 d16)
{
	if (d16 == EMU_D16_CLOBBER)
		old = 0;
	uint32_t v = size == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
	if (r->flags & IF_SIGNED)
		v = size == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
	if (r->flags & IF_D16)
		return (old & 0xffff0000u) | (v & 0xffff);
	if (r->flags & IF_D16HI)
		return (old & 0xffff) | v << 16;
	return v;
}

static void store_sub(const IsaInfo *r, uint8_t *p, unsigned size, uint32_t v)
{
	if (r->flags & IF_D16HI)
		v >>= 16;
	p[0] = (uint8_t)v;
	if (size == 2)
		p[1] = (uint8_t)(v >> 8);
}

static uint32_t atomic_op(IsaOp id, uint32_t old, uint32_t v, uint32_t cmp)
{
	float f;
	switch (id) {
	case I_DS_ADD_U32: case I_DS_ADD_RTN_U32: case I_BUFFER_ATOMIC_ADD: case I_FLAT_ATOMIC_ADD: case I_GLOBAL_ATOMIC_ADD: return old + v;
	case I_DS_SUB_U32: case I_BUFFER_ATOMIC_SUB: case I_FLAT_ATOMIC_SUB: case I_GLOBAL_ATOMIC_SUB: return old - v;
	case I_DS_MIN_I32: case I_BUFFER_ATOMIC_SMIN: case I_FLAT_ATOMIC_SMIN: case I_GLOBAL_ATOMIC_SMIN: return (int32_t)v < (int32_t)old ? v : old;
	case I_DS_MAX_I32: case I_BUFFER_ATOMIC_SMAX: case I_FLAT_ATOMIC_SMAX: case I_GLOBAL_ATOMIC_SMAX: return (int32_t)v > (int32_t)old ? v : old;
	case I_DS_MIN_U32: case I_BUFFER_ATOMIC_UMIN: case I_FLAT_ATOMIC_UMIN: case I_GLOBAL_ATOMIC_UMIN: return v < old ? v : old;
	case I_DS_MAX_U32: case I_DS_MAX_RTN_U32: case I_BUFFER_ATOMIC_UMAX: case I_FLAT_ATOMIC_UMAX: case I_GLOBAL_ATOMIC_UMAX: return v > old ? v : old;
	case I_DS_AND_B32: case I_BUFFER_ATOMIC_AND: case I_FLAT_ATOMIC_AND: case I_GLOBAL_ATOMIC_AND: return old & v;
	case I_DS_OR_B32: case I_BUFFER_ATOMIC_OR: case I_FLAT_ATOMIC_OR: case I_GLOBAL_ATOMIC_OR: return old | v;
	case I_DS_XOR_B32: case I_BUFFER_ATOMIC_XOR: case I_FLAT_ATOMIC_XOR: case I_GLOBAL_ATOMIC_XOR: return old ^ v;
	case I_DS_WRXCHG_RTN_B32: case I_BUFFER_ATOMIC_SWAP: case I_FLAT_ATOMIC_SWAP: case I_GLOBAL_ATOMIC_SWAP: return v;
	case I_BUFFER_ATOMIC_CMPSWAP: case I_FLAT_ATOMIC_CMPSWAP: case I_GLOBAL_ATOMIC_CMPSWAP: return old == cmp ? v : old;
	case I_DS_ADD_F32: case I_BUFFER_ATOMIC_ADD_F32: case I_FLAT_ATOMIC_ADD_F32: case I_GLOBAL_ATOMIC_ADD_F32: {
		float a, b;
		memcpy(&a, &old, 4), memcpy(&b, &v, 4);
		f = a + b;
		memcpy(&old, &f, 4);
		return old;
	}
	case I_BUFFER_ATOMIC_INC: case I_FLAT_ATOMIC_INC: case I_GLOBAL_ATOMIC_INC: return old >= v ? 0 : old + 1;
	case I_BUFFER_ATOMIC_DEC: case I_FLAT_ATOMIC_DEC: case I_GLOBAL_ATOMIC_DEC: return old == 0 || old > v ? v : old - 1;
	case I_BUFFER_ATOMIC_PK_ADD_F16: case I_FLAT_ATOMIC_PK_ADD_F16: case I_GLOBAL_ATOMIC_PK_ADD_F16: {
		/* each half rounds to nearest even (the f32 sum of two halves
		 * rounds to the same f16 as the exact sum) */
		uint32_t lo = dtype_f32_to_f16(dtype_f16_to_f32((uint16_t)old) + dtype_f16_to_f32((uint16_t)v));
		uint32_t hi = dtype_f32_to_f16(dtype_f16_to_f32((uint16_t)(old >> 16)) + dtype_f16_to_f32((uint16_t)(v >> 16)));
		return lo | hi << 16;
	}
	case I_BUFFER_ATOMIC_PK_ADD_BF16: case I_FLAT_ATOMIC_PK_ADD_BF16: case I_GLOBAL_ATOMIC_PK_ADD_BF16: {
		/* as pk_add_f16: a bf16 has 8 significant bits, the f32 sum
		 * of two rounds to the bf16 the exact sum rounds to */
		uint32_t lo = dtype_f32_to_bf16(dtype_bf16_to_f32((uint16_t)old) + dtype_bf16_to_f32((uint16_t)v));
		uint32_t hi = dtype_f32_to_bf16(dtype_bf16_to_f32((uint16_t)(old >> 16)) + dtype_bf16_to_f32((uint16_t)(v >> 16)));
		return lo | hi << 16;
	}
	default: return old;
	}
}

/* The 64-bit atomics (_x2 and f64). */
static uint64_t atomic_op64(IsaOp id, uint64_t old, uint64_t v, uint64_t cmp)
{
	double a, b, f;
	memcpy(&a, &old, 8), memcpy(&b, &v, 8);
	switch (id) {
	case I_BUFFER_ATOMIC_SWAP_X2: case I_FLAT_ATOMIC_SWAP_X2: case I_GLOBAL_ATOMIC_SWAP_X2: return v;
	case I_BUFFER_ATOMIC_CMPSWAP_X2: case I_FLAT_ATOMIC_CMPSWAP_X2: case I_GLOBAL_ATOMIC_CMPSWAP_X2: return old == cmp ? v : old;
	case I_BUFFER_ATOMIC_ADD_X2: case I_FLAT_ATOMIC_ADD_X2: case I_GLOBAL_ATOMIC_ADD_X2: return old + v;
	case I_BUFFER_ATOMIC_SUB_X2: case I_FLAT_ATOMIC_SUB_X2: case I_GLOBAL_ATOMIC_SUB_X2: return old - v;
	case I_BUFFER_ATOMIC_SMIN_X2: case I_FLAT_ATOMIC_SMIN_X2: case I_GLOBAL_ATOMIC_SMIN_X2: return (int64_t)v < (int64_t)old ? v : old;
	case I_BUFFER_ATOMIC_UMIN_X2: case I_FLAT_ATOMIC_UMIN_X2: case I_GLOBAL_ATOMIC_UMIN_X2: return v < old ? v : old;
	case I_BUFFER_ATOMIC_SMAX_X2: case I_FLAT_ATOMIC_SMAX_X2: case I_GLOBAL_ATOMIC_SMAX_X2: return (int64_t)v > (int64_t)old ? v : old;
	case I_BUFFER_ATOMIC_UMAX_X2: case I_FLAT_ATOMIC_UMAX_X2: case I_GLOBAL_ATOMIC_UMAX_X2: return v > old ? v : old;
	case I_BUFFER_ATOMIC_AND_X2: case I_FLAT_ATOMIC_AND_X2: case I_GLOBAL_ATOMIC_AND_X2: return old & v;
	case I_BUFFER_ATOMIC_OR_X2: case I_FLAT_ATOMIC_OR_X2: case I_GLOBAL_ATOMIC_OR_X2: return old | v;
	case I_BUFFER_ATOMIC_XOR_X2: case I_FLAT_ATOMIC_XOR_X2: case I_GLOBAL_ATOMIC_XOR_X2: return old ^ v;
	case I_BUFFER_ATOMIC_INC_X2: case I_FLAT_ATOMIC_INC_X2: case I_GLOBAL_ATOMIC_INC_X2: return old >= v ? 0 : old + 1;
	case I_BUFFER_ATOMIC_DEC_X2: case I_FLAT_ATOMIC_DEC_X2: case I_GLOBAL_ATOMIC_DEC_X2: return old == 0 || old > v ? v : old - 1;
	case I_BUFFER_ATOMIC_ADD_F64: case I_FLAT_ATOMIC_ADD_F64: case I_GLOBAL_ATOMIC_ADD_F64: f = a + b; break;
	case I_BUFFER_ATOMIC_MIN_F64: case I_FLAT_ATOMIC_MIN_F64: case I_GLOBAL_ATOMIC_MIN_F64: f = fmin(a, b); break;
	case I_BUFFER_ATOMIC_MAX_F64: case I_FLAT_ATOMIC_MAX_F64: case I_GLOBAL_ATOMIC_MAX_F64: f = fmax(a, b); break;
	default: return old;
	}
	memcpy(&old, &f, 8);
	return old;
}

/* One lane of a VMEM/DS access. p[k] is the host address of dword k (or of
 * the sub-dword element for k = 0), NULL when out of range. */
static void lane_access(Emu *e, Wave *w, const Inst *in, int lane, uint8_t **p, unsigned vdst, unsigned vdata)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned n = r->dst, es = elem_size(r);
	(void)e;
	bool rtn = (in->fmt == FMT_DS && (r->flags & IF_LOAD)) || (in->fmt != FMT_DS && in->glc);
	if ((r->flags & IF_ATOMIC) && n == 2) { /* 64-bit: {new, cmp} pairs for cmpswap_x2 */
		uint64_t v = vreg(w, vdata)[lane] | (uint64_t)vreg(w, vdata + 1)[lane] << 32;
		uint64_t cmp = (r->flags & IF_CMPSWAP) ? vreg(w, vdata + 2)[lane] | (uint64_t)vreg(w, vdata + 3)[lane] << 32 : 0;
		uint64_t old = 0;
		if (p[0] && p[1]) {
			old = ld32(p[0]) | (uint64_t)ld32(p[1]) << 32;
			uint64_t nw = atomic_op64((IsaOp)in->id, old, v, cmp);
			st32(p[0], (uint32_t)nw), st32(p[1], (uint32_t)(nw >> 32));
		}
		if (rtn)
			vreg(w, vdst)[lane] = (uint32_t)old, vreg(w, vdst + 1)[lane] = (uint32_t)(old >> 32);
		return;
	}
	if (r->flags & IF_ATOMIC) {
		uint32_t v = vreg(w, vdata)[lane];
		uint32_t cmp = (r->flags & IF_CMPSWAP) ? vreg(w, vdata + 1)[lane] : 0;
		if (!p[0]) {
			if (rtn)
				vreg(w, vdst)[lane] = 0;
			return;
		}
		uint32_t old = ld32(p[0]);
		st32(p[0], atomic_op((IsaOp)in->id, old, v, cmp));
		if (rtn)
			vreg(w, vdst)[lane] = old;
		return;
	}
	if (r->flags & IF_LOAD) {
		if (es < 4) {
			uint32_t *row = vreg(w, vdst);
			row[lane] = load_sub(r, p[0] ? p[0] : (const uint8_t *)"\0\0", es, row[lane], e->l->d16);
			return;
		}
		for (unsigned k = 0; k < n; k++)
			vreg(w, vdst + k)[lane] = p[k] ? ld32(p[k]) : 0;
	} else {
		if (es < 4) {
			if (p[0])
				store_sub(r, p[0], es, vreg(w, vdata)[lane]);
			return;
		}
		for (unsigned k = 0; k < n; k++)
			if (p[k])
				st32(p[k], vreg(w, vdata + k)[lane]);
	}
}

/* ---- DS ---- */

static uint8_t *lds_ptr(Emu *e, Wave *w, const Inst *in, uint64_t a, unsigned size, int lane)
{
	Workgroup *g = e->wg;
	if (a + size > g->lds_size) {
		emu_fail(e, w, in, "LDS access outside the workgroup's %u bytes: address 0x%llx, %u bytes, lane %d",
			 g->lds_size, (unsigned long long)a, size, lane);
		return NULL;
	}
	if (e->watch && !emu_watch(e, w, in, NULL, a, size, lane))
		return NULL;
	return g->lds + a;
}

static void ds_cross_lane(Emu *e, Wave *w, const Inst *in)
{
	uint32_t out[64];
	uint64_t exec = w->exec;
	if (!emu_vreg_ok(e, w, in, in->dst, 1) || !emu_vreg_ok(e, w, in, in->addr, 1) || !emu_vreg_ok(e, w, in, in->data0, 1))
		return;
	const uint32_t *addr = vreg(w, in->addr), *data = vreg(w, in->data0);
	uint32_t *dst = vreg(w, in->dst);
	if (in->id == I_DS_SWIZZLE_B32) { /* the data comes in the address operand */
		data = addr;
		unsigned off = (unsigned)in->imm & 0xffff;
		for (int l = 0; l < 64; l++) {
			int s;
			if (off & 0x8000)
				s = (l & ~3) | ((off >> (2 * (l & 3))) & 3);
			else {
				unsigned andm = off & 31, orm = (off >> 5) & 31, xorm = (off >> 10) & 31;
				s = (l & 32) | ((((unsigned)l & andm) | orm) ^ xorm);
			}
			out[l] = (exec >> s) & 1 ? data[s] : 0;
		}
	} else if (in->id == I_DS_BPERMUTE_B32) {
		for (int l = 0; l < 64; l++) {
			int s = (int)(((addr[l] + (uint32_t)in->imm) >> 2) & 63);
			out[l] = (exec >> s) & 1 ? data[s] : 0;
		}
	} else { /* ds_permute_b32: forward; later lanes win */
		for (int l = 0; l < 64; l++)
			out[l] = 0;
		for (int l = 0; l < 64; l++)
			if ((exec >> l) & 1)
				out[((addr[l] + (uint32_t)in->imm) >> 2) & 63] = data[l];
	}
	for (int l = 0; l < 64; l++)
		if ((exec >> l) & 1)
			dst[l] = out[l];
}

/* Bits [pos, pos + n) of the little-endian bytes p (n <= 16). */
static uint32_t get_bits(const uint8_t *p, unsigned pos, unsigned n)
{
	uint32_t v = 0;
	for (unsigned b = 0; b < n; b++)
		v |= (uint32_t)((p[(pos + b) / 8] >> ((pos + b) % 8)) & 1) << b;
	return v;
}

/* gfx950's transposing reads (ds_read_b64_tr_b16/b8/b4, ds_read_b96_tr_b6):
 * each lane reads 64 (96) bits at its address, n elements of 16, 8, 4 (6)
 * bits, n = 4, 8, 16 (16); within each row of 16 lanes, element j of lane
 * i comes from lane R*j + i/n (R = 16/n lanes per source row), its element
 * i%n: the 16 lanes' reads, taken as n rows of R lanes (a row of 16
 * elements), transposed so that lane i gets column i. For b16 these are
 * four 4x4 transposes over the lanes {q, q+4, q+8, q+12}, for b8 two
 * interleaved 8x8 transposes (even and odd lanes), for b4 and b6 one 16x16
 * (the CDNA4 ISA guide's MFMA transpose loads: each lane holds consecutive
 * M or N values of one K; Wave's hardware_transpose.py lays lane t at row
 * t/R, column group t%R). A lane whose source lane is inactive is an
 * error. */
static void ds_read_tr(Emu *e, Wave *w, const Inst *in)
{
	unsigned bits = (unsigned)isa_ds_tr_bits(in->id), bytes = bits == 6 ? 12 : 8, n = bytes * 8 / bits, R = 16 / n;
	unsigned vdst = in->dst + (in->acc ? w->accum_offset : 0);
	if (!emu_vreg_ok(e, w, in, in->addr, 1) || !emu_vreg_ok(e, w, in, vdst, bytes / 4))
		return;
	uint8_t raw[64][12];
	const uint32_t *addr = vreg(w, in->addr);
	emu_note_access(e, EMU_SPACE_LDS, bytes, false);
	for (int l = 0; l < 64; l++) {
		if (!((w->exec >> l) & 1))
			continue;
		uint64_t a = (uint64_t)addr[l] + ((unsigned)in->imm & 0xffff);
		emu_note_addr(e, l, a);
		uint8_t *p = lds_ptr(e, w, in, a, bytes, l);
		if (!p)
			return;
		memcpy(raw[l], p, bytes);
	}
	uint32_t out[64][3];
	for (int l = 0; l < 64; l++) {
		if (!((w->exec >> l) & 1))
			continue;
		unsigned i = (unsigned)l % 16;
		uint8_t o[12] = {0};
		for (unsigned j = 0; j < n; j++) {
			unsigned src = (unsigned)l - i + R * j + i / n;
			if (!((w->exec >> src) & 1)) {
				emu_fail(e, w, in, "%s: lane %d takes element %u of lane %u, which is inactive", emu_inst_name(in), l,
					 i % n, src);
				return;
			}
			uint32_t v = get_bits(raw[src], (i % n) * bits, bits);
			for (unsigned b = 0; b < bits; b++)
				o[(j * bits + b) / 8] |= (uint8_t)(((v >> b) & 1) << ((j * bits + b) % 8));
		}
		for (unsigned k = 0; k < bytes / 4; k++)
			out[l][k] = ld32(o + 4 * k);
	}
	for (int l = 0; l < 64; l++)
		if ((w->exec >> l) & 1)
			for (unsigned k = 0; k < bytes / 4; k++)
				vreg(w, vdst + k)[l] = out[l][k];
}

void emu_exec_ds(Emu *e, Wave *w, const Inst *in)
{
	const IsaInfo *r = &isa_info[in->id];
	if (isa_ds_tr_bits(in->id)) {
		ds_read_tr(e, w, in);
		return;
	}
	if (in->id == I_DS_SWIZZLE_B32 || in->id == I_DS_PERMUTE_B32 || in->id == I_DS_BPERMUTE_B32) {
		emu_note_access(e, EMU_SPACE_LDS, 4, false);
		ds_cross_lane(e, w, in);
		return;
	}
	unsigned acc = in->acc ? w->accum_offset : 0;
	unsigned n = r->dst, es = elem_size(r);
	bool two = strncmp(r->name, "ds_read2", 8) == 0 || strncmp(r->name, "ds_write2", 9) == 0;
	bool st64 = strstr(r->name, "st64") != NULL;
	bool load = (r->flags & IF_LOAD) != 0;
	unsigned vdst = in->dst + acc, vd0 = in->data0 + acc, vd1 = in->data1 + acc;
	if (!emu_vreg_ok(e, w, in, in->addr, 1))
		return;
	if (load && !emu_vreg_ok(e, w, in, vdst, n * (two ? 2 : 1)))
		return;
	bool cmpst = in->id == I_DS_CMPST_B32 || in->id == I_DS_CMPST_RTN_B32;
	if (!load || (r->flags & IF_ATOMIC)) {
		if (!emu_vreg_ok(e, w, in, vd0, n) || ((two || cmpst) && !emu_vreg_ok(e, w, in, vd1, n)))
			return;
	}
	const uint32_t *addr = vreg(w, in->addr);
	emu_note_access(e, EMU_SPACE_LDS, two ? 4 * n : (es < 4 ? es : 4 * n), two);
	for (int l = 0; l < 64 && !e->failed; l++) {
		if (!((w->exec >> l) & 1))
			continue;
		uint8_t *p[4] = {0};
		if (two) {
			unsigned stride = es * n * (st64 ? 64 : 1);
			uint64_t a0 = (uint64_t)addr[l] + in->offset0 * stride, a1 = (uint64_t)addr[l] + in->offset1 * stride;
			emu_note_addr(e, l, a0);
			emu_note_addr(e, 64 + l, a1);
			uint8_t *p0 = lds_ptr(e, w, in, a0, 4 * n, l), *p1 = p0 ? lds_ptr(e, w, in, a1, 4 * n, l) : NULL;
			if (!p1)
				return;
			for (unsigned k = 0; k < n; k++) {
				if (load) {
					vreg(w, vdst + k)[l] = ld32(p0 + 4 * k);
					vreg(w, vdst + n + k)[l] = ld32(p1 + 4 * k);
				} else {
					st32(p0 + 4 * k, vreg(w, vd0 + k)[l]);
					st32(p1 + 4 * k, vreg(w, vd1 + k)[l]);
				}
			}
			continue;
		}
		uint64_t a = (uint64_t)addr[l] + ((unsigned)in->imm & 0xffff);
		emu_note_addr(e, l, a);
		uint8_t *base = lds_ptr(e, w, in, a, es < 4 ? es : 4 * n, l);
		if (!base)
			return;
		if (cmpst) { /* GFX9 order: data0 is the compare value, data1 the new one */
			uint32_t old = ld32(base);
			if (old == vreg(w, vd0)[l])
				st32(base, vreg(w, vd1)[l]);
			if (load)
				vreg(w, vdst)[l] = old;
			continue;
		}
		for (unsigned k = 0; k < n; k++)
			p[k] = base + 4 * k;
		lane_access(e, w, in, l, p, vdst, vd0);
	}
}

/* ---- scratch (private segment) ---- */

/* gfx942's architected flat scratch: a scratch address is an offset into
 * the lane's own private memory (the hardware's base and lane swizzle are
 * invisible to the program). Outside the KD's private_segment_fixed_size is
 * an error, as for LDS. */
static uint8_t *priv_ptr(Emu *e, Wave *w, const Inst *in, uint32_t a, unsigned size, int lane)
{
	Workgroup *g = e->wg;
	if ((uint64_t)a + size > g->priv_size) {
		emu_fail(e, w, in, "scratch access outside the lane's %u private bytes: offset 0x%x, %u bytes, lane %d",
			 g->priv_size, a, size, lane);
		return NULL;
	}
	return g->priv + ((size_t)w->id * 64 + (size_t)lane) * g->priv_size + a;
}

/* address = SGPR (unless off) + VGPR (when enabled) + inst offset, 32-bit */
static void scratch_access(Emu *e, Wave *w, const Inst *in, unsigned vdst, unsigned vdata)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned n = r->dst, es = elem_size(r);
	if (in->sve && !emu_vreg_ok(e, w, in, in->addr, 1))
		return;
	uint32_t sb = in->saddr != 0x7f ? emu_sreg_read(e, w, in->saddr) : 0;
	emu_note_access(e, EMU_SPACE_SCRATCH, es < 4 ? es : 4 * n, false);
	for (int l = 0; l < 64 && !e->failed; l++) {
		if (!((w->exec >> l) & 1))
			continue;
		uint32_t a = sb + (in->sve ? vreg(w, in->addr)[l] : 0) + (uint32_t)in->imm;
		emu_note_addr(e, l, emu_scratch_addr(w, a, l));
		uint8_t *base = priv_ptr(e, w, in, a, es < 4 ? es : 4 * n, l);
		if (!base)
			return;
		uint8_t *p[4] = {base, base + 4, base + 8, base + 12};
		lane_access(e, w, in, l, p, vdst, vdata);
	}
}

/* ---- MUBUF and FLAT/GLOBAL ---- */

/* policy.canary: a raw buffer store or atomic that the range check drops
 * less than the buffer's size (at least 4 KiB) past num_records, and below
 * 2 GiB (where wavecc sends masked lanes: isel/memory.c), landed in the
 * buffer's guard zone: an index out of bounds, which the hardware drops
 * silently. Stops the launch naming the buffer and the offset. */
static bool canary_hit(Emu *e, Wave *w, const Inst *in, uint64_t base, uint64_t off, uint32_t num, int lane)
{
	uint64_t zone = num > 4096 ? num : 4096;
	if (off < num || off - num >= zone || off >= UINT64_C(0x80000000))
		return false;
	const EmuRegion *r = emu_mem_find(e->mem, base, 1);
	emu_fail(e, w, in, "canary: a store to byte offset %llu of buffer '%s' (num_records %u), %llu bytes past its end, "
		 "lane %d: an out-of-bounds index in the buffer's guard zone (dropped by the range check)",
		 (unsigned long long)off, r ? r->name : "?", num, (unsigned long long)(off - num), lane);
	return true;
}

/* An LDS-DMA's LDS base: M0's low 16 bits, 18 on gfx950, whose 160 KiB of
 * LDS M0 reaches past 64 KiB (aiter's gfx950 kernels set M0 above 0xffff). */
static uint64_t lds_dma_base(const Emu *e, const Wave *w)
{
	return w->m0 & (e->arch == EMU_GFX950 ? 0x3ffffu : 0xffffu);
}

void emu_exec_vmem(Emu *e, Wave *w, const Inst *in)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned n = r->dst, es = elem_size(r);
	unsigned acc = in->acc ? w->accum_offset : 0;
	bool load = (r->flags & IF_LOAD) != 0, store = (r->flags & IF_STORE) != 0;
	bool atomic = (r->flags & IF_ATOMIC) != 0;
	unsigned vdst, vdata;
	if (isa_cache_op(in->id)) /* the emulator's memory has no caches to write back or drop */
		return;
	if (in->fmt == FMT_MUBUF)
		vdst = vdata = in->dst + acc;
	else
		vdst = in->dst + acc, vdata = in->data0 + acc;
	if ((load || (atomic && in->glc)) && !in->lds && !isa_lds_dma(in->id) && !emu_vreg_ok(e, w, in, vdst, n))
		return;
	if ((store || atomic) && !emu_vreg_ok(e, w, in, vdata, n * ((r->flags & IF_CMPSWAP) ? 2 : 1)))
		return;
	if (in->fmt == FMT_FLAT && in->seg == 1) {
		scratch_access(e, w, in, vdst, vdata);
		return;
	}
	if (in->fmt == FMT_MUBUF) {
		unsigned s = in->srsrc;
		if (s + 3 >= NUM_SGPRS) {
			emu_fail(e, w, in, "buffer descriptor s[%u:%u] out of range", s, s + 3);
			return;
		}
		uint64_t base = w->sgpr[s] | (uint64_t)(w->sgpr[s + 1] & 0xffff) << 32;
		uint32_t stride = (w->sgpr[s + 1] >> 16) & 0x3fff, num = w->sgpr[s + 2];
		bool add_tid = (w->sgpr[s + 3] >> 23) & 1;
		uint32_t soff = emu_scalar_src(e, w, in, in->soffset, T_U32);
		if ((in->offen || in->idxen) && !emu_vreg_ok(e, w, in, in->addr, in->offen && in->idxen ? 2 : 1))
			return;
		if ((w->sgpr[s + 1] & 0xffff) == EMU_PRIVATE_VSHARP_HI && !in->lds) { /* gfx90a private segment */
			for (int l = 0; l < 64 && !e->failed; l++) {
				if (!((w->exec >> l) & 1))
					continue;
				uint32_t voff = in->offen ? vreg(w, in->addr + (in->idxen ? 1 : 0))[l] : 0;
				/* the base and soffset carry the wave's offset once */
				uint32_t a = w->sgpr[s] + soff + (uint32_t)in->imm + voff - w->priv_offset;
				emu_note_access(e, EMU_SPACE_SCRATCH, es < 4 ? es : 4 * n, false);
				emu_note_addr(e, l, emu_scratch_addr(w, a, l));
				uint8_t *base = priv_ptr(e, w, in, a, es < 4 ? es : 4 * n, l);
				if (!base)
					return;
				uint8_t *p[4] = {base, base + 4, base + 8, base + 12};
				lane_access(e, w, in, l, p, vdst, vdata);
			}
			return;
		}
		/* LDS-DMA: dwords (gfx950 also 96 and 128 bits per lane) */
		if (in->lds && (!load || es != 4 || n == 2 || (n > 1 && e->arch != EMU_GFX950))) {
			emu_fail(e, w, in, "unimplemented instruction %s with lds%s", emu_inst_name(in),
				 n > 2 && e->arch != EMU_GFX950 ? " (96/128-bit LDS-DMA is gfx950's)" : "");
			return;
		}
		for (int l = 0; l < 64 && !e->failed; l++) {
			if (!((w->exec >> l) & 1))
				continue;
			uint32_t index = in->idxen ? vreg(w, in->addr)[l] : 0;
			uint32_t voff = in->offen ? vreg(w, in->addr + (in->idxen ? 1 : 0))[l] : 0;
			if (add_tid)
				index += (uint32_t)l;
			uint64_t off = (uint64_t)soff + (uint32_t)in->imm + voff;
			bool structured = in->idxen && stride != 0;
			uint64_t a = base + off + (uint64_t)stride * index;
			emu_note_access(e, EMU_SPACE_GLOBAL, es < 4 ? es : 4 * n, false);
			emu_note_addr(e, l, a);
			uint8_t *p[4] = {0};
			unsigned bytes = es < 4 ? es : 4;
			for (unsigned k = 0; k < (es < 4 ? 1 : n); k++) {
				bool in_range = structured ? index < num : off + 4 * k + bytes <= num;
				if (add_tid && structured)
					in_range = true;
				if (in_range && !(p[k] = dev_ptr(e, w, in, a + 4 * k, bytes, store || atomic, l)))
					return;
				if (!in_range && e->canary && (store || atomic) && !structured &&
				    canary_hit(e, w, in, base, off + 4 * k, num, l))
					return;
			}
			if (in->lds) { /* LDS-DMA: LDS[M0 + inst_offset + 4n*lane + 4k] = dword k, 0 out of range */
				uint8_t *d = lds_ptr(e, w, in, lds_dma_base(e, w) + (uint32_t)in->imm + 4u * n * (unsigned)l, 4 * n, l);
				if (!d)
					return;
				for (unsigned k = 0; k < n; k++)
					st32(d + 4 * k, p[k] ? ld32(p[k]) : 0);
				continue;
			}
			lane_access(e, w, in, l, p, vdst, vdata);
		}
		return;
	}
	/* FLAT / GLOBAL */
	bool sbase = in->seg == 2 && in->saddr != 0x7f;
	if (!emu_vreg_ok(e, w, in, in->addr, sbase ? 1 : 2))
		return;
	uint64_t sb = sbase ? emu_sreg_read64(e, w, in->saddr) : 0;
	for (int l = 0; l < 64 && !e->failed; l++) {
		if (!((w->exec >> l) & 1))
			continue;
		uint64_t a = sbase ? sb + vreg(w, in->addr)[l] : (vreg(w, in->addr)[l] | (uint64_t)vreg(w, in->addr + 1)[l] << 32);
		a += (uint64_t)(int64_t)in->imm;
		if (isa_lds_dma(in->id)) { /* LDS[M0 + inst_offset + 4n*lane] = the lane's n dwords */
			emu_note_access(e, EMU_SPACE_GLOBAL, 4 * n, false);
			emu_note_addr(e, l, a);
			uint8_t *src = dev_ptr(e, w, in, a, 4 * n, false, l);
			uint8_t *d = src ? lds_ptr(e, w, in, lds_dma_base(e, w) + (uint32_t)in->imm + 4u * n * (unsigned)l, 4 * n, l) : NULL;
			if (!d)
				return;
			for (unsigned k = 0; k < n; k++)
				st32(d + 4 * k, ld32(src + 4 * k));
			continue;
		}
		unsigned bytes = es < 4 ? es : 4 * n;
		emu_note_access(e, (a >> 32) == EMU_SHARED_HI && in->seg == 0 ? EMU_SPACE_LDS : EMU_SPACE_GLOBAL, bytes, false);
		emu_note_addr(e, l, (a >> 32) == EMU_SHARED_HI && in->seg == 0 ? (uint32_t)a : a);
		uint8_t *base;
		if (in->seg == 0 && (a >> 32) == EMU_SHARED_HI) /* generic pointer into LDS */
			base = lds_ptr(e, w, in, (uint32_t)a, bytes, l);
		else if (in->seg == 0 && (a >> 32) == EMU_PRIVATE_HI) /* generic pointer into this lane's scratch */
			base = priv_ptr(e, w, in, (uint32_t)a, bytes, l);
		else
			base = dev_ptr(e, w, in, a, bytes, store || atomic, l);
		if (!base)
			return;
		uint8_t *p[4] = {base, base + 4, base + 8, base + 12};
		lane_access(e, w, in, l, p, vdst, vdata);
	}
}
