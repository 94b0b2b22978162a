/* api_params.c — a kernel's parameters as the library describes them
 * (wavecc_param_info): every kernel argument of the code object compile
 * makes under given bindings, in kernarg order, with its kernarg slot.
 *
 * The layout is the compiler's own (passes/graph/kernarg.c: buffers at 8
 * bytes each, then the runtime sizes as i32, then the scalars, each in a
 * slot of its size rounded up to 4 and aligned to it), asked on a view of
 * the kernel with the bindings applied, so the description cannot drift
 * from what the emitter writes into the metadata and the launch
 * descriptor. A buffer dim the bindings leave to run time has shape -1 and
 * its expression over the runtime sizes as text.
 *
 * Values in wavecc_buffer entries (scalars and sizes) go to a launch
 * descriptor as "NAME=VALUE" text: floats as %.17g of the value the dtype
 * holds (exact: every f16, bf16, f32, f8 and f64 value prints and parses
 * back to itself), integers as the exact integer. */
#include <inttypes.h>
#include <string.h>

#include "api.h"

/* e's text in a. */
static const char *sym_text(Arena *a, const Sym *e)
{
	Buf b = {0};
	sym_print(&b, e);
	const char *s = arena_strdup(a, buf_cstr(&b));
	buf_free(&b);
	return s;
}

static void describe_buffer(Kernel *v, const Value *m, size_t i, Arena *a, wavecc_param_info *p)
{
	*p = (wavecc_param_info){.struct_size = sizeof *p, .name = m->name, .kind = WAVECC_PARAM_BUFFER,
		.dtype = dtype_name(m->dtype), .element_size = (size_t)dtype_size(m->dtype),
		.kernarg_offset = (uint32_t)(8 * i), .kernarg_bytes = 8, .rank = MIN(m->shape.rank, 8)};
	uint64_t count = 1;
	bool known = true;
	for (int d = 0; d < p->rank; d++) {
		Sym *e = kernel_subs(v, m->shape.dims[d]);
		int64_t x;
		if (sym_is_int(e, &x) && x >= 0) {
			p->shape[d] = x;
			count = x && count > UINT64_MAX / (uint64_t)x ? UINT64_MAX : count * (uint64_t)x;
		} else {
			p->shape[d] = -1;
			known = false;
		}
		p->dims[d] = sym_text(a, e);
	}
	p->bytes = !known ? 0 : count > UINT64_MAX / p->element_size ? UINT64_MAX : count * p->element_size;
	for (size_t j = 0; j < v->op_list.len; j++) {
		const Op *op = v->op_list.data[j];
		/* the atomics and scatter_add read what they combine with */
		p->reads |= op_memory(op) == m && op->kind != OP_WRITE;
		p->writes |= op_memory(op) == m && op_stores(op->kind);
	}
}

static wavecc_param_info describe_value(const char *name, wavecc_param_kind kind, DType t, int offset)
{
	return (wavecc_param_info){.struct_size = sizeof(wavecc_param_info), .name = name, .kind = kind,
		.dtype = dtype_name(t), .element_size = (size_t)dtype_size(t), .kernarg_offset = (uint32_t)offset,
		.kernarg_bytes = (uint32_t)dtype_size(t), .bytes = (uint64_t)dtype_size(t)};
}

int api_params(const Kernel *g, int ndefs, const char *const *def_name, const int64_t *def_val, Arena *a,
	wavecc_param_info **out, size_t *n, Diag *d)
{
	Kernel *v = subst_bound_view(g, ndefs, def_name, def_val, d);
	if (!v)
		return -1;
	int nsizes;
	analysis_runtime_arg(v, NULL, &nsizes);
	size_t total = v->args.len + (size_t)nsizes + v->scalar_args.len;
	wavecc_param_info *ps = ARENA_NEWN(a, wavecc_param_info, total + 1);
	size_t at = 0;
	for (size_t i = 0; i < v->args.len; i++)
		describe_buffer(v, v->args.data[i], i, a, &ps[at++]);
	for (size_t j = 0; j < v->dyn_syms.len; j++) {
		int pos = analysis_runtime_arg(v, v->dyn_syms.data[j], NULL);
		if (pos >= 0)
			ps[at++] = describe_value(sym_name(v->dyn_syms.data[j]), WAVECC_PARAM_SIZE, DT_I32,
				(int)(8 * v->args.len) + 4 * pos);
	}
	for (size_t j = 0; j < v->scalar_args.len; j++) {
		const Value *s = op_result(v->scalar_args.data[j]);
		ps[at++] = describe_value(s->name, WAVECC_PARAM_SCALAR, s->dtype, analysis_scalar_arg_offset(v, (int)j));
	}
	check_that(at == total);
	kernel_view_free(v);
	*out = ps;
	*n = total;
	return 0;
}

/* The first version's size: the struct as 0.3 declared it. */
#define PARAM_INFO_SIZE_0_3 (offsetof(wavecc_param_info, writes) + sizeof(int))

wavecc_status api_param_out(const wavecc_param_info *p, wavecc_param_info *info, char **error)
{
	if (info->struct_size < PARAM_INFO_SIZE_0_3) {
		if (error) {
			Buf b = {0};
			buf_printf(&b, "wavecc_param_info.struct_size is %zu: set it to sizeof(wavecc_param_info)\n",
				info->struct_size);
			*error = xstrdup(buf_cstr(&b));
			buf_free(&b);
		}
		return WAVECC_EARG;
	}
	size_t size = MIN(info->struct_size, sizeof *p);
	memcpy((char *)info + sizeof info->struct_size, (const char *)p + sizeof p->struct_size,
		size - sizeof p->struct_size);
	return WAVECC_OK;
}

const wavecc_param_info *api_param_find(const wavecc_param_info *ps, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ps[i].name, name) == 0)
			return &ps[i];
	return NULL;
}

bool api_value_text(const wavecc_buffer *e, DType t, char *out, size_t len)
{
	size_t sz = (size_t)dtype_size(t);
	if (e->bytes != sz || !e->data)
		return false;
	if (dtype_is_float(t)) {
		snprintf(out, len, "%s=%.17g", e->name, dtype_load(t, e->data, 0));
		return true;
	}
	uint64_t u = 0;
	const unsigned char *p = e->data;
	for (size_t b = 0; b < sz; b++)
		u |= (uint64_t)p[b] << (8 * b);
	if (dtype_info[t].cls == DTC_INT && sz < 8 && (u >> (8 * sz - 1) & 1))
		u |= ~UINT64_C(0) << (8 * sz); /* sign-extend */
	if (dtype_info[t].cls == DTC_UINT)
		snprintf(out, len, "%s=%" PRIu64, e->name, u);
	else
		snprintf(out, len, "%s=%" PRId64, e->name, (int64_t)u);
	return true;
}
