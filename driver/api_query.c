/* api_query.c — what the compiler knows, for frontends: the targets
 * (ir/mir.c's table), the MMA types (MMA_TYPES, with the targets isel
 * compiles each for: isel_mma_supported, the rule isel itself applies),
 * the graph ops (GRAPH_OPS) and the dtypes (DTYPES). The answers are
 * built once per process (pthread_once) and never change. */
#include <pthread.h>
#include <string.h>

#include "../isel/isel.h"
#include "api.h"

static const char *processors[8];
static size_t nprocessors;
static const char *mma_targets[MMA_COUNT][3]; /* in_dtype operands, f16 ones, bf16 ones */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* "gfx942 gfx90a": the processors isel compiles type mt for with t. */
static const char *targets_for(MmaType mt, DType t)
{
	Buf b = {0};
	for (size_t p = 0; p < nprocessors; p++) /* a GenericDot (isel/dot.c): f16, bf16 on every target */
		if (mt == MMA_GENERIC_DOT ? t == DT_F16 || t == DT_BF16 : isel_mma_supported(mt, t, processors[p]))
			buf_printf(&b, "%s%s", b.len ? " " : "", processors[p]);
	const char *r = intern(buf_cstr(&b));
	buf_free(&b);
	return r;
}

static void build(void)
{
	for (size_t i = 0; target_at(i); i++) {
		const char *name = target_at(i)->name;
		bool seen = false;
		for (size_t p = 0; p < nprocessors; p++)
			seen |= strcmp(processors[p], name) == 0;
		if (!seen && nprocessors < ARRAY_LEN(processors))
			processors[nprocessors++] = name;
	}
	for (int m = 0; m < MMA_COUNT; m++) {
		mma_targets[m][0] = targets_for((MmaType)m, mma_info[m].in);
		mma_targets[m][1] = mma_info[m].in == DT_F16 ? mma_targets[m][0] : targets_for((MmaType)m, DT_F16);
		mma_targets[m][2] = mma_info[m].in == DT_BF16 ? mma_targets[m][0] : targets_for((MmaType)m, DT_BF16);
	}
}

static void ready(void)
{
	pthread_once(&once, build);
}

size_t wavecc_num_targets(void)
{
	ready();
	return nprocessors;
}

const char *wavecc_target(size_t i)
{
	ready();
	return i < nprocessors ? processors[i] : NULL;
}

/* Copy what fits the caller's struct_size (at least `first`, the first
 * version's size) from src to dst; both start with size_t struct_size. */
static wavecc_status copy_out(void *dst, const void *src, size_t size, size_t first)
{
	size_t have = *(const size_t *)dst;
	if (have < first)
		return WAVECC_EARG;
	size_t n = MIN(have, size);
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t), n - sizeof(size_t));
	return WAVECC_OK;
}

size_t wavecc_num_mma_types(void)
{
	return MMA_COUNT;
}

wavecc_status wavecc_mma_type(size_t i, wavecc_mma_type_info *info)
{
	if (!info || i >= MMA_COUNT)
		return WAVECC_EARG;
	ready();
	const MmaInfo *m = &mma_info[i];
	int sm, sn, sk; /* a GenericDot's shape: its default parameters' on 64 lanes */
	mma_shape((MmaType)i, GENERIC_DOT_DEFAULT, 64, &sm, &sn, &sk);
	wavecc_mma_type_info r = {sizeof r, m->name, sm, sn, sk, dtype_name(m->in), dtype_name(m->acc), m->native,
		mma_targets[i][0], mma_targets[i][1], mma_targets[i][2]};
	return copy_out(info, &r, sizeof r, sizeof r);
}

size_t wavecc_num_ops(void)
{
	return OP_COUNT;
}

wavecc_status wavecc_op(size_t i, wavecc_op_info *info)
{
	if (!info || i >= OP_COUNT)
		return WAVECC_EARG;
	const OpInfo *o = &op_info[i];
	wavecc_op_info r = {sizeof r, o->name, op_class_name[o->cls], o->operands, o->attrs};
	return copy_out(info, &r, sizeof r, sizeof r);
}

size_t wavecc_num_dtypes(void)
{
	return DT_COUNT;
}

wavecc_status wavecc_dtype(size_t i, wavecc_dtype_info *info)
{
	if (!info || i >= DT_COUNT)
		return WAVECC_EARG;
	static const char *const kinds[] = {[DTC_FLOAT] = "float", [DTC_INT] = "int", [DTC_UINT] = "uint"};
	const DTypeInfo *t = &dtype_info[i];
	wavecc_dtype_info r = {sizeof r, t->name, (size_t)t->size, kinds[t->cls]};
	return copy_out(info, &r, sizeof r, sizeof r);
}
