/* isa.c — the instruction table's rows (insts.h), defined once, and the
 * facts the compiler derives from a row (contract in isa.h). */
#include <string.h>

#include "../../util/util.h"
#include "isa.h"

/* A row's scheduling class, at compile time from its format and flags:
 * scalar formats are SALU (BRANCH when flagged: s_setpc, s_swappc), SOPP is
 * BRANCH when flagged and CONTROL otherwise (s_waitcnt, s_endpgm, s_nop,
 * s_barrier), SMEM, DS is LDS, MUBUF/FLAT split into stores and loads
 * (atomics return data: loads), vector ALU rows are MFMA, TRANS or VALU. */
#define ISA_CLASS_OF(f, fl) \
	((f) == FMT_SOP1 || (f) == FMT_SOP2 || (f) == FMT_SOPK || (f) == FMT_SOPC || (f) == FMT_SOPP \
			? ((fl) & IF_BRANCH ? MC_BRANCH : (f) == FMT_SOPP ? MC_CONTROL : MC_SALU) \
		: (f) == FMT_SMEM ? MC_SMEM \
		: (f) == FMT_DS ? MC_LDS \
		: (f) == FMT_MUBUF || (f) == FMT_FLAT ? ((fl) & IF_STORE ? MC_VMEM_STORE : MC_VMEM_LOAD) \
		: (fl) & IF_MFMA ? MC_MFMA \
		: (fl) & IF_TRANS ? MC_TRANS \
		: MC_VALU)

const IsaInfo isa_info[I_COUNT] = {
	[I_UNKNOWN] = {"<unknown>", FMT_COUNT, T_NONE, 0, {0, 0, 0}, NA, NA, 0, MC_CONTROL},
#define X(id, nm, f, op, op90, ty, d, s0, s1, s2, fl) \
	[I_##id] = {nm, f, ty, d, {s0, s1, s2}, op, op90, fl, ISA_CLASS_OF(f, fl)},
	ISA_INSTS(X)
#undef X
};

const char *const isa_class_name[MC_COUNT] = {
#define X(e, name, lat) [e] = name,
	ISA_CLASSES(X)
#undef X
};

const uint16_t isa_class_latency[MC_COUNT] = {
#define X(e, name, lat) [e] = lat,
	ISA_CLASSES(X)
#undef X
};

int isa_mfma_passes(int op, bool gfx90a)
{
	const IsaInfo *r = &isa_info[op];
	if (!(r->flags & IF_MFMA))
		return 0;
	return gfx90a ? IF_PASSES_90A(r->flags) : IF_PASSES_942(r->flags);
}

bool isa_mfma_xdl(int op, bool gfx90a)
{
	const IsaInfo *r = &isa_info[op];
	if (!(r->flags & IF_MFMA) || r->type == T_F64)
		return false;
	return gfx90a || (r->flags & IF_XDL);
}

int isa_mfma_passes_fmt(int op, bool gfx90a, unsigned fa, unsigned fb)
{
	int p = isa_mfma_passes(op, gfx90a);
	if (isa_info[op].flags & IF_F8F6F4)
		return fa <= 1 || fb <= 1 ? 2 * p : p;
	return p;
}
