/* graph_print.c — the readable text form of a kernel graph (wavecc
 * dump-graph). Layout:
 *
 *   kernel NAME
 *   symbols
 *     NAME = VALUE [= RESOLVED]   | NAME dynamic (argument i) | NAME = alias ... | NAME = address space
 *   constraints
 *     KIND field value ...
 *   arguments
 *     %a : memory f16[M, K] global
 *   graph
 *     %r = op %x, %y {attr value, ...} : f32[M, N]  index {M: s : n : t}
 *     %loop = iterate %init {axis K} (%acc : f32[M, N]) : f32[M, N] {
 *       ...
 *       output %v
 *     }
 *
 * Expressions print through sym_print, so they are SymPy syntax and parse
 * back. Output depends only on the kernel (no addresses, no hash order).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

static void print_num(Buf *b, double v)
{
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%.17g", v);
	/* Shortest form that reads back to the same double. */
	for (int prec = 1; prec <= 17; prec++) {
		char t[64];
		snprintf(t, sizeof t, "%.*g", prec, v);
		if (strtod(t, NULL) == v) {
			memcpy(tmp, t, sizeof t);
			break;
		}
	}
	buf_puts(b, tmp);
	if (isfinite(v) && !strpbrk(tmp, ".eEn"))
		buf_puts(b, ".0");
}

void shape_print(Buf *b, Shape s)
{
	buf_putc(b, '[');
	for (int i = 0; i < s.rank; i++) {
		if (i)
			buf_puts(b, ", ");
		sym_print(b, s.dims[i]);
	}
	buf_putc(b, ']');
}

void value_type_print(Buf *b, const Value *v)
{
	buf_puts(b, v->dtype == DT_NONE ? "?" : dtype_name(v->dtype));
	shape_print(b, v->shape);
}

static void print_syms(Buf *b, const char *sep, int n, Sym *const *v)
{
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(b, sep);
		sym_print(b, v[i]);
	}
}

static void print_dim_map(Buf *b, int n, Sym *const *dims, Sym *const *exprs)
{
	buf_putc(b, '{');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(b, ", ");
		sym_print(b, dims[i]);
		buf_puts(b, ": ");
		sym_print(b, exprs[i]);
	}
	buf_putc(b, '}');
}

static void print_symbols(Buf *b, const Kernel *k)
{
	buf_puts(b, "symbols\n");
	for (size_t i = 0; i < k->syms.len; i++) {
		const KSymbol *s = &k->syms.data[i];
		buf_printf(b, "  %s", s->name);
		switch (s->kind) {
		case SYMK_VALUE:
			buf_puts(b, " = ");
			sym_print(b, s->value);
			if (s->resolved && s->resolved != s->value) {
				buf_puts(b, " = ");
				sym_print(b, s->resolved);
			}
			break;
		case SYMK_DYNAMIC:
			buf_printf(b, " dynamic (argument %d)", s->dyn_idx);
			break;
		case SYMK_ALIAS:
			buf_puts(b, " = alias ");
			sym_print(b, s->value);
			if (s->resolved && s->resolved != s->value) {
				buf_puts(b, " = ");
				sym_print(b, s->resolved);
			}
			break;
		case SYMK_ADDRESS_SPACE:
			buf_printf(b, " = address space %s", addr_space_name[s->space]);
			break;
		}
		buf_putc(b, '\n');
	}
}

/* A GenericDot's parameters, after its name. */
static void print_gdot(Buf *b, GenericDot g)
{
	buf_printf(b, "(out_vec_size=%d, k_vec_size=%d, k_mult=%d, along_dim=%s)", g.out_vec, g.k_vec, g.k_mult,
		g.along_m ? "M" : "N");
}

static void print_constraint(Buf *b, const Constraint *c)
{
	buf_printf(b, "  %s", con_info[c->kind].name);
	if (c->dim) {
		buf_puts(b, " ");
		sym_print(b, c->dim);
	}
	if (c->tile) {
		buf_puts(b, " tile ");
		sym_print(b, c->tile);
	}
	switch (c->kind) {
	case CON_WORKGROUP:
		buf_printf(b, " workgroup_dim %d", c->wg_dim);
		if (!c->primary)
			buf_puts(b, " primary false");
		break;
	case CON_WAVE:
		if (c->wave_id) {
			buf_puts(b, " wave_id ");
			sym_print(b, c->wave_id);
		}
		break;
	case CON_TILING:
		buf_puts(b, " induction_var ");
		sym_print(b, c->induction_var);
		if (c->start) {
			buf_puts(b, " start ");
			sym_print(b, c->start);
		}
		break;
	case CON_HARDWARE:
		buf_printf(b, " threads_per_wave %d", c->threads_per_wave);
		if (c->waves_per_block[0])
			buf_printf(b, " waves_per_block [%d, %d, %d]", c->waves_per_block[0],
				c->waves_per_block[1], c->waves_per_block[2]);
		buf_printf(b, " mma_type %s", mma_info[c->mma_type].name);
		if (c->mma_type == MMA_GENERIC_DOT)
			print_gdot(b, c->gdot);
		if (c->nvector_shapes) {
			buf_puts(b, " vector_shapes ");
			print_dim_map(b, c->nvector_shapes, c->vs_dims, c->vs_sizes);
		}
		buf_printf(b, " max_bits_per_load %d", c->max_bits_per_load);
		break;
	case CON_ASSUMPTION:
		buf_puts(b, " ");
		sym_print(b, c->expr);
		break;
	case CON_SYMBOLIC_ALIAS:
		buf_puts(b, " ");
		sym_print(b, c->source);
		buf_puts(b, " = ");
		sym_print(b, c->expr);
		buf_puts(b, " (target ");
		sym_print(b, c->target);
		buf_puts(b, ")");
		break;
	case CON_DEVICE:
		buf_printf(b, " device_dim %d", c->wg_dim);
		break;
	case CON_REORDERING:
		buf_printf(b, " workgroup_dim %d ", c->wg_dim);
		sym_print(b, c->expr);
		break;
	case CON_GRID:
		buf_puts(b, " grid_size ");
		sym_print(b, c->expr);
		break;
	case CON_COUNT:
		die("bad constraint kind");
	}
	if (c->iters) {
		buf_puts(b, " iters ");
		sym_print(b, c->iters);
	}
	buf_putc(b, '\n');
}

/* Attributes in braces, "name value" pairs; nothing if the op has none. */
static void print_attrs(Buf *b, const Op *op)
{
	Buf a = {0};
#define SEP() (a.len ? buf_puts(&a, ", ") : (void)0)
	switch (op->kind) {
	case OP_REGISTER:
		SEP(), buf_puts(&a, "value "), print_num(&a, op->value);
		break;
	case OP_SCALAR:
		if (op->sarg) {
			SEP(), buf_puts(&a, "argument");
			break;
		}
		SEP(), buf_puts(&a, "value ");
		if (op->expr)
			sym_print(&a, op->expr);
		else
			print_num(&a, op->value);
		break;
	case OP_SELF_INDEX:
		SEP(), buf_puts(&a, "dim "), sym_print(&a, op->dim);
		break;
	case OP_ITERATE:
		SEP(), buf_puts(&a, "axis "), sym_print(&a, op->dim);
		break;
	case OP_GET_RESULT:
		SEP(), buf_printf(&a, "res_idx %d", op->res_idx);
		break;
	case OP_SET_SYMBOL: /* and the per-lane symbol mappings after it use */
		SEP(), buf_printf(&a, "symbol %s as ", sym_name(op->dim)), sym_print(&a, op->expr);
		break;
	case OP_CONDITIONAL:
		if (op->expr)
			SEP(), buf_puts(&a, "condition "), sym_print(&a, op->expr);
		break;
	case OP_CAST:
		SEP(), buf_printf(&a, "dtype %s", dtype_name(op->dtype));
		break;
	case OP_BROADCAST:
	case OP_PERMUTE:
		SEP(), buf_puts(&a, "target_shape "), shape_print(&a, op->shape);
		break;
	case OP_SUM:
	case OP_MAX:
	case OP_MIN:
		SEP(), buf_puts(&a, "dim "), sym_print(&a, op->dim);
		if (op->has_init)
			SEP(), buf_printf(&a, "init %%%s", op_reduce_init(op)->name);
		if (op->block)
			SEP(), buf_puts(&a, "block true");
		break;
	case OP_CUMSUM:
		SEP(), buf_puts(&a, "dim "), sym_print(&a, op->dim);
		if (op->block)
			SEP(), buf_puts(&a, "block true");
		break;
	case OP_APPLY_EXPR:
		SEP(), buf_puts(&a, "params ("), print_syms(&a, ", ", op->nparams, op->params);
		buf_puts(&a, ") expr "), sym_print(&a, op->expr);
		break;
	case OP_EXTRACT:
	case OP_EXTRACT_SLICE:
		SEP(), buf_puts(&a, "offset ["), print_syms(&a, ", ", op->nslice, op->offset);
		buf_puts(&a, "]");
		if (op->kind == OP_EXTRACT_SLICE) {
			buf_puts(&a, ", size ["), print_syms(&a, ", ", op->nslice, op->size);
			buf_puts(&a, "], stride ["), print_syms(&a, ", ", op->nslice, op->stride);
			buf_puts(&a, "]");
		}
		break;
	case OP_ALLOCATE:
		SEP(), buf_puts(&a, "distributed_shape ["), print_syms(&a, ", ", op->shape.rank, op->alloc_ext);
		buf_puts(&a, "] shared");
		if (op->padding)
			buf_printf(&a, ", padding %d", op->padding);
		break;
	case OP_TOPK:
		SEP(), buf_puts(&a, "k_dim "), sym_print(&a, op->kdim);
		SEP(), buf_puts(&a, "dim "), sym_print(&a, op->dim);
		break;
	case OP_SCATTER_ADD:
		SEP(), buf_printf(&a, "dim %s", sym_name(op->args[2]->shape.dims[op->sdim]));
		break;
	case OP_MMA: case OP_SCALED_MMA:
		if (op->mma_type != MMA_NONE)
			SEP(), buf_printf(&a, "mma_type %s", mma_info[op->mma_type].name);
		if (op->mma_type == MMA_GENERIC_DOT)
			print_gdot(&a, op->gdot);
		break;
	default:
		break;
	}
	if (op->ept)
		SEP(), buf_printf(&a, "elements_per_thread %d", op->ept);
	if (op->is_volatile)
		SEP(), buf_puts(&a, "volatile");
	if (op->acquire || op->release)
		SEP(), buf_puts(&a, op->acquire ? "memory_order acquire" : "memory_order release");
	if (op->mapping) {
		const Mapping *m = op->mapping;
		SEP(), buf_puts(&a, "mapping (");
		print_syms(&a, ", ", m->niters, m->iters);
		buf_puts(&a, ") inputs ");
		print_dim_map(&a, m->nin, m->in_dims, m->in_exprs);
		buf_puts(&a, " outputs ");
		print_dim_map(&a, m->nout, m->out_dims, m->out_exprs);
		if (m->ndyn) {
			buf_puts(&a, " dynamic (");
			print_syms(&a, ", ", m->ndyn, m->dyn);
			buf_puts(&a, ")");
		}
	}
#undef SEP
	if (a.len)
		buf_printf(b, " {%s}", buf_cstr(&a));
	buf_free(&a);
}

static void print_region(Buf *b, const Region *r, int depth);

static void print_op(Buf *b, const Op *op, int depth)
{
	buf_printf(b, "%*s", 2 * depth, "");
	if (op->nresults && op->kind != OP_OUTPUT)
		buf_printf(b, "%%%s = ", op->name);
	buf_puts(b, op_name(op->kind));
	/* Operands: for reductions the init is printed as an attribute. */
	int nshow = op_is_reduce(op->kind) ? op_reduce_nsrc(op) : op->nargs;
	for (int i = 0; i < nshow; i++)
		buf_printf(b, "%s%%%s", i ? ", " : " ", op->args[i]->name);
	print_attrs(b, op);
	if (op->body) {
		buf_puts(b, " (");
		for (int i = 0; i < op->body->nparams; i++) {
			const Value *p = op->body->params[i];
			buf_printf(b, "%s%%%s : ", i ? ", " : "", p->name);
			value_type_print(b, p);
		}
		buf_puts(b, ")");
	}
	if (op->nresults) {
		buf_puts(b, " : ");
		if (op->nresults > 1)
			buf_putc(b, '(');
		for (int i = 0; i < op->nresults; i++) {
			if (i)
				buf_puts(b, ", ");
			value_type_print(b, op->results[i]);
		}
		if (op->nresults > 1)
			buf_putc(b, ')');
	}
	if (op->nindex) {
		buf_puts(b, "  index {");
		for (int i = 0; i < op->nindex; i++) {
			const IndexSeq *s = &op->index[i];
			if (i)
				buf_puts(b, ", ");
			sym_print(b, s->dim);
			buf_puts(b, ": ");
			sym_print(b, s->start);
			buf_puts(b, " : ");
			sym_print(b, s->size);
			buf_puts(b, " : ");
			sym_print(b, s->stride);
		}
		buf_puts(b, "}");
	}
	if (op->body) {
		buf_puts(b, " {\n");
		print_region(b, op->body, depth + 1);
		buf_printf(b, "%*s}", 2 * depth, "");
	}
	buf_putc(b, '\n');
}

static void print_region(Buf *b, const Region *r, int depth)
{
	for (size_t i = 0; i < r->ops.len; i++)
		print_op(b, r->ops.data[i], depth);
}

void graph_print(Buf *b, const Kernel *k)
{
	buf_printf(b, "kernel %s\n", k->name);
	print_symbols(b, k);
	buf_puts(b, "constraints\n");
	for (size_t i = 0; i < k->cons.len; i++)
		print_constraint(b, &k->cons.data[i]);
	buf_puts(b, "arguments\n");
	for (size_t i = 0; i < k->args.len; i++) {
		const Value *v = k->args.data[i];
		buf_printf(b, "  %%%s : memory ", v->name);
		value_type_print(b, v);
		buf_printf(b, " %s", addr_space_name[v->space]);
		if (v->space_sym)
			buf_printf(b, " (%s)", v->space_sym);
		buf_putc(b, '\n');
	}
	for (size_t i = 0; i < k->scalar_args.len; i++) {
		const Value *v = op_result(k->scalar_args.data[i]);
		buf_printf(b, "  %%%s : scalar %s\n", v->name, dtype_name(v->dtype));
	}
	for (size_t i = 0; i < k->dyn_syms.len; i++)
		buf_printf(b, "  %s : i32 dynamic symbol\n", sym_name(k->dyn_syms.data[i]));
	buf_puts(b, "graph\n");
	print_region(b, k->body, 1);
}
