/* load.c — the frontend's top level: parse with jansson, build the position
 * tree (json_pos.c), then load and validate the document in dependency
 * order:
 *   1. names of every symbol: "symbols", "dynamic_symbols",
 *      "address_spaces", alias sources and tiling induction variables (so
 *      expressions anywhere can be checked for unknown symbols);
 *   2. symbol values, then constraints, then symbol resolution (values and
 *      aliases substituted into each other, cycles reported);
 *   3. arguments; 4. the graph (load_graph.c).
 * Each problem is reported once, located at the offending value, and loading
 * goes on so independent problems are all reported; the kernel is returned
 * only if there were none.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "frontend.h"
#include "load.h"

/* ---- top level ---- */

static const char *const TOP_FIELDS =
	"format name symbols dynamic_symbols address_spaces constraints arguments graph options";

/* Step 1: every symbol name, before any expression is read. */
static void declare_symbols(Ld *L, JV root)
{
	Kernel *k = L->k;
	JV syms = jv_get(L, root, "symbols");
	if (syms.v && !json_is_object(syms.v))
		wrong_type(L, syms, "an object");
	else if (syms.v) {
		const char *key;
		json_t *val;
		json_object_foreach(syms.v, key, val)
		{
			(void)val;
			if (!ld_is_identifier(key) || ld_is_builtin_symbol(key)) {
				ld_err_key(L, syms, key, "'%s' is not a valid symbol name", key);
				continue;
			}
			kernel_add_symbol(k, key, SYMK_VALUE);
		}
	}
	JV dyn = jv_get(L, root, "dynamic_symbols");
	if (dyn.v && !json_is_array(dyn.v))
		wrong_type(L, dyn, "a list of symbol names");
	else if (dyn.v) {
		for (size_t i = 0; i < json_array_size(dyn.v); i++) {
			JV e = jv_at(L, dyn, i);
			const char *n;
			if (!ld_get_ident(L, e, &n))
				continue;
			if (kernel_symbol(k, n))
				ld_err(L, e, "dynamic symbol '%s' is already defined", n);
			else
				kernel_add_symbol(k, n, SYMK_DYNAMIC);
		}
	}
	JV as = jv_get(L, root, "address_spaces");
	if (as.v && !json_is_object(as.v))
		wrong_type(L, as, "an object");
	else if (as.v) {
		const char *key;
		json_t *val;
		json_object_foreach(as.v, key, val)
		{
			(void)val;
			JV e = jv_get(L, as, key);
			const char *sp;
			if (!ld_is_identifier(key)) {
				ld_err_key(L, as, key, "'%s' is not a valid symbol name", key);
				continue;
			}
			if (kernel_symbol(k, key)) {
				ld_err_key(L, as, key, "symbol '%s' is already defined", key);
				continue;
			}
			if (!get_string(L, e, &sp))
				continue;
			AddrSpace a = addr_space_from_name(sp);
			if (a == AS_COUNT) {
				ld_err(L, e, "unknown address space '%s' (expected \"global\" or \"shared\")", sp);
				continue;
			}
			kernel_add_symbol(k, key, SYMK_ADDRESS_SPACE)->space = a;
		}
	}
	/* Alias sources and induction variables, from the constraints. */
	JV cons = jv_get(L, root, "constraints");
	for (size_t i = 0; json_is_array(cons.v) && i < json_array_size(cons.v); i++) {
		JV c = jv_at(L, cons, i);
		const char *kind = json_string_value(json_object_get(c.v, "kind"));
		if (!kind)
			continue;
		if (strcmp(kind, "symbolic_alias") == 0) {
			const char *src = json_string_value(json_object_get(c.v, "source"));
			if (src && ld_is_identifier(src) && !kernel_symbol(k, src))
				kernel_add_symbol(k, src, SYMK_ALIAS);
		} else if (strcmp(kind, "tiling") == 0) {
			const char *iv = json_string_value(json_object_get(c.v, "induction_var"));
			const char *dim = json_string_value(json_object_get(c.v, "dim"));
			if (iv && ld_is_identifier(iv))
				vec_push(&L->ivars, sym_symbol(k->sc, iv));
			else if (!iv && dim && ld_is_identifier(dim))
				vec_push(&L->ivars, sym_symbol(k->sc, arena_printf(&L->tmp, "$ARG%s", dim)));
		}
	}
}

static void load_symbol_values(Ld *L, JV root)
{
	JV syms = jv_get(L, root, "symbols");
	if (!json_is_object(syms.v))
		return;
	const char *key;
	json_t *val;
	json_object_foreach(syms.v, key, val)
	{
		(void)val;
		KSymbol *s = kernel_symbol(L->k, key);
		if (!s || s->kind != SYMK_VALUE)
			continue;
		JV e = jv_get(L, syms, key);
		Sym *x = ld_get_expr(L, e, NULL);
		s = kernel_symbol(L->k, key); /* ld_get_expr may not add, but be safe */
		s->value = x;
		s->loc = loc_of(L, e.pos);
	}
}

/* A resolved value that is invalid is reported and replaced by the value as
 * written. */
static Sym *check_resolved(void *ctx, KSymbol *s, Sym *r)
{
	Ld *L = ctx;
	if (!sym_is_error(r))
		return r;
	diag_error(L->d, s->loc, "symbols.%s: value is invalid: %s", s->name, sym_error_msg(r));
	return s->value;
}

/* Resolve symbol values and aliases in dependency order
 * (kernel_resolve_symbols, linear in the definitions). A symbol left
 * unresolved lies on or behind a cycle; report one cycle. */
static void resolve_symbols(Ld *L, JV root)
{
	Kernel *k = L->k;
	size_t n = k->syms.len;
	kernel_resolve_symbols(k, check_resolved, L);
	for (size_t i = 0; i < n; i++) {
		KSymbol *s = &k->syms.data[i];
		if (s->resolved || !s->value || (s->kind != SYMK_VALUE && s->kind != SYMK_ALIAS))
			continue;
		/* Walk unresolved dependencies until a symbol repeats. */
		Vec(KSymbol *) chain = {0};
		KSymbol *cur = s;
		for (;;) {
			bool seen = false;
			for (size_t j = 0; j < chain.len; j++)
				if (chain.data[j] == cur)
					seen = true;
			if (seen || chain.len > n)
				break;
			vec_push(&chain, cur);
			Sym *fs[64];
			size_t nf = ld_free_syms(cur->value, fs, ARRAY_LEN(fs));
			KSymbol *next = NULL;
			for (size_t j = 0; j < nf && j < ARRAY_LEN(fs) && !next; j++) {
				KSymbol *d = kernel_symbol(k, sym_name(fs[j]));
				if (d && d->value && !d->resolved &&
					(d->kind == SYMK_VALUE || d->kind == SYMK_ALIAS))
					next = d;
			}
			if (!next)
				break;
			cur = next;
		}
		Buf b = {0};
		size_t start = 0;
		while (start < chain.len && chain.data[start] != cur)
			start++;
		for (size_t j = start; j < chain.len; j++)
			buf_printf(&b, "%s -> ", chain.data[j]->name);
		buf_puts(&b, cur->name);
		diag_error(L->d, cur->loc, "%s: cycle in symbol definitions: %s",
			cur->kind == SYMK_ALIAS ? "constraints" : arena_printf(&L->tmp, "symbols.%s", cur->name),
			buf_cstr(&b));
		buf_free(&b);
		vec_free(&chain);
		/* Mark everything unresolved as resolved to itself: one report. */
		for (size_t j = 0; j < n; j++) {
			KSymbol *t = &k->syms.data[j];
			if (!t->resolved && t->value && (t->kind == SYMK_VALUE || t->kind == SYMK_ALIAS))
				t->resolved = t->value;
		}
		break;
	}
	(void)root;
}

static void load_hardware(Ld *L, JV c, Constraint *hw)
{
	long long x;
	JV f = jv_get(L, c, "threads_per_wave");
	if (need(L, c, f, "threads_per_wave") && get_int(L, f, 1, 1024, &x)) {
		if (x != 32 && x != 64)
			ld_err(L, f, "threads_per_wave must be 32 or 64, got %lld", x);
		hw->threads_per_wave = (int)x;
	}
	f = jv_get(L, c, "waves_per_block");
	if (f.v && !json_is_array(f.v))
		wrong_type(L, f, "a list of 3 integers");
	else if (f.v && json_array_size(f.v) != 3)
		ld_err(L, f, "expected 3 integers, got %zu", json_array_size(f.v));
	else if (f.v) {
		for (int i = 0; i < 3; i++)
			if (get_int(L, jv_at(L, f, (size_t)i), 1, 1024, &x))
				hw->waves_per_block[i] = (int)x;
	}
	f = jv_get(L, c, "mma_type");
	hw->gdot = GENERIC_DOT_DEFAULT;
	if (f.v && !ld_get_mma_type(L, f, &hw->mma_type, &hw->gdot))
		hw->mma_type = MMA_F32_16x16x16_F16;
	f = jv_get(L, c, "vector_shapes");
	if (f.v && !json_is_object(f.v))
		wrong_type(L, f, "an object (dim: size)");
	else if (f.v) {
		size_t n = json_object_size(f.v);
		hw->vs_dims = ARENA_NEWN(&L->k->arena, Sym *, n + 1);
		hw->vs_sizes = ARENA_NEWN(&L->k->arena, Sym *, n + 1);
		const char *key;
		json_t *val;
		json_object_foreach(f.v, key, val)
		{
			(void)val;
			KSymbol *d = kernel_symbol(L->k, key);
			if (!d || d->kind == SYMK_ADDRESS_SPACE) {
				ld_err_key(L, f, key,
					"symbol '%s' has neither a value nor a constraint defining it", key);
				continue;
			}
			Sym *e = ld_get_expr(L, jv_get(L, f, key), NULL);
			if (!e)
				continue;
			hw->vs_dims[hw->nvector_shapes] = d->sym;
			hw->vs_sizes[hw->nvector_shapes++] = e;
		}
	}
	f = jv_get(L, c, "max_bits_per_load");
	if (f.v && get_int(L, f, 8, 1024, &x))
		hw->max_bits_per_load = (int)x;
}

static void load_constraints(Ld *L, JV root)
{
	Kernel *k = L->k;
	JV cons = jv_get(L, root, "constraints");
	if (!need(L, root, cons, "constraints"))
		return;
	if (!json_is_array(cons.v)) {
		wrong_type(L, cons, "a list of constraints");
		return;
	}
	JV first_hw = {0};
	for (size_t i = 0; i < json_array_size(cons.v); i++) {
		JV c = jv_at(L, cons, i);
		if (!json_is_object(c.v)) {
			wrong_type(L, c, "a constraint object");
			continue;
		}
		JV kf = jv_get(L, c, "kind");
		const char *kind;
		if (!need(L, c, kf, "kind") || !get_string(L, kf, &kind))
			continue;
		ConKind ck = con_from_name(kind);
		if (ck == CON_COUNT) {
			const char *kinds[CON_COUNT];
			for (int i = 0; i < CON_COUNT; i++)
				kinds[i] = con_info[i].name;
			ld_hint_name(L, kind, kinds, CON_COUNT);
			ld_err(L, kf, "unknown constraint kind '%s'", kind);
			continue;
		}
		check_fields(L, c, "kind", con_info[ck].fields);
		if (ck == CON_HARDWARE && first_hw.v) {
			ld_err(L, c, "a second hardware constraint (the first is %s)", first_hw.path);
			continue;
		}
		Constraint *con = kernel_add_constraint(k, ck);
		con->loc = loc_of(L, c.pos);
		con->path = arena_strdup(&k->arena, c.path);
		JV f;
		switch (ck) {
		case CON_WORKGROUP:
		case CON_WAVE:
		case CON_TILING:
		case CON_DEVICE:
			f = jv_get(L, c, "dim");
			if (need(L, c, f, "dim"))
				con->dim = ld_get_dim(L, f);
			f = jv_get(L, c, "tile");
			if (ck != CON_TILING ? need(L, c, f, "tile") : f.v != NULL)
				con->tile = ld_get_expr(L, f, NULL);
			else if (ck == CON_TILING)
				con->tile = sym_int(k->sc, 1);
			break;
		default:
			break;
		}
		long long x;
		bool bv;
		const char *s;
		switch (ck) {
		case CON_WORKGROUP:
			f = jv_get(L, c, "workgroup_dim");
			if (need(L, c, f, "workgroup_dim") && get_int(L, f, 0, 15, &x))
				con->wg_dim = (int)x;
			f = jv_get(L, c, "primary");
			if (f.v && get_bool(L, f, &bv))
				con->primary = bv;
			f = jv_get(L, c, "iters");
			if (f.v)
				con->iters = ld_get_expr(L, f, NULL);
			f = jv_get(L, c, "apply_fn"); /* Wave's apply_fn, printed on WORKGROUP_<d> */
			if (f.v && (con->expr = ld_get_expr(L, f, NULL)) && sym_is_bool(con->expr)) {
				ld_err(L, f, "apply_fn gives a workgroup's first coordinate, got the relation '%s'",
					sym_str(k->sc, con->expr));
				con->expr = NULL;
			}
			break;
		case CON_WAVE:
			f = jv_get(L, c, "wave_id");
			if (f.v)
				con->wave_id = ld_get_expr(L, f, NULL);
			break;
		case CON_TILING:
			if (con->dim) {
				for (size_t j = 0; j + 1 < k->cons.len; j++)
					if (k->cons.data[j].kind == CON_TILING && k->cons.data[j].dim == con->dim)
						ld_err(L, c, "a second tiling constraint on '%s'",
							sym_name(con->dim));
			}
			f = jv_get(L, c, "induction_var");
			if (f.v && ld_get_ident(L, f, &s))
				con->induction_var = sym_symbol(k->sc, s);
			else if (!f.v && con->dim)
				con->induction_var = sym_symbol(k->sc,
					arena_printf(&L->tmp, "$ARG%s", sym_name(con->dim)));
			f = jv_get(L, c, "iters");
			if (f.v)
				con->iters = ld_get_expr(L, f, NULL);
			f = jv_get(L, c, "start");
			if (f.v)
				con->start = ld_get_expr(L, f, NULL);
			break;
		case CON_HARDWARE:
			first_hw = c;
			load_hardware(L, c, con);
			break;
		case CON_ASSUMPTION:
			f = jv_get(L, c, "expr");
			if (need(L, c, f, "expr") && (con->expr = ld_get_expr(L, f, NULL)) &&
				!sym_is_bool(con->expr)) {
				ld_err(L, f, "an assumption must be a relation, got '%s'",
					sym_str(k->sc, con->expr));
				con->expr = NULL;
			}
			break;
		case CON_SYMBOLIC_ALIAS: {
			f = jv_get(L, c, "source");
			KSymbol *src = NULL;
			if (need(L, c, f, "source") && ld_get_ident(L, f, &s)) {
				src = kernel_symbol(k, s);
				if (!src || src->kind != SYMK_ALIAS || src->value) {
					ld_err(L, f, "alias source '%s' is already defined", s);
					src = NULL;
				} else {
					con->source = src->sym;
				}
			}
			f = jv_get(L, c, "target");
			if (need(L, c, f, "target"))
				con->target = ld_get_dim(L, f);
			f = jv_get(L, c, "expr");
			if (need(L, c, f, "expr"))
				con->expr = ld_get_expr(L, f, NULL);
			if (src && con->expr) {
				src = kernel_symbol(k, sym_name(con->source));
				src->value = con->expr;
				src->loc = loc_of(L, f.pos);
			}
			break;
		}
		case CON_DEVICE:
			/* Wave's DeviceConstraint: each device computes its tile of
			 * the dim; wavecc runs the whole problem on one device, every
			 * device's workgroups in one grid, which computes what all the
			 * devices together do (docs/kernel-format.md) */
			f = jv_get(L, c, "device_dim");
			if (f.v && get_int(L, f, 0, 2, &x))
				con->wg_dim = (int)x;
			break;
		case CON_REORDERING:
			f = jv_get(L, c, "workgroup_dim");
			if (need(L, c, f, "workgroup_dim") && get_int(L, f, 0, 2, &x)) {
				con->wg_dim = (int)x;
				for (size_t j = 0; j + 1 < k->cons.len; j++)
					if (k->cons.data[j].kind == CON_REORDERING && k->cons.data[j].wg_dim == con->wg_dim)
						ld_err(L, c, "a second reordering constraint on workgroup_dim %d (the first "
							     "is %s)",
							con->wg_dim, k->cons.data[j].path);
			}
			f = jv_get(L, c, "expr");
			if (need(L, c, f, "expr") && (con->expr = ld_get_expr(L, f, NULL)) && sym_is_bool(con->expr)) {
				ld_err(L, f, "a reordering is a workgroup id, got the relation '%s'",
					sym_str(k->sc, con->expr));
				con->expr = NULL;
			}
			break;
		case CON_GRID: /* Wave's GridConstraint(grid_size): one count, or a list of one */
			f = jv_get(L, c, "grid_size");
			if (need(L, c, f, "grid_size")) {
				if (json_is_array(f.v) && json_array_size(f.v) != 1)
					ld_err(L, f, "a grid is one workgroup count (Wave's grids are 1-D), got %zu",
						json_array_size(f.v));
				else
					con->expr = ld_get_expr(L, json_is_array(f.v) ? jv_at(L, f, 0) : f, NULL);
			}
			for (size_t j = 0; j + 1 < k->cons.len; j++)
				if (k->cons.data[j].kind == CON_GRID)
					ld_err(L, c, "a second grid constraint (the first is %s)", k->cons.data[j].path);
			break;
		case CON_COUNT:
			break;
		}
	}
	if (!first_hw.v)
		ld_err(L, cons, "missing hardware constraint (kind \"hardware\")");
}

/* A scalar argument (Wave's `c: tkl.f16` kernel parameter): a rank-0
 * OP_SCALAR at the top of the body whose value the launch gives (sarg),
 * so operands name it like any node. */
static void load_scalar_argument(Ld *L, JV a, size_t i)
{
	Kernel *k = L->k;
	check_fields(L, a, "name type dtype", NULL);
	const char *name = NULL;
	bool ok = true;
	JV f = jv_get(L, a, "name");
	ok &= need(L, a, f, "name") && ld_get_ident(L, f, &name);
	if (name && kernel_value(k, name)) {
		ld_err(L, f, "duplicate name '%s'", name);
		ok = false;
	} else if (name && kernel_symbol(k, name) && !ld_is_start_arg(L, name)) { /* -D NAME=V must say one thing */
		ld_err(L, f, "scalar argument '%s' has the name of a symbol", name);
		ok = false;
	}
	DType dt = DT_NONE;
	f = jv_get(L, a, "dtype");
	ok &= need(L, a, f, "dtype") && ld_get_dtype(L, f, &dt);
	if (ok && dtype_is_mx_narrow(dt)) {
		ld_err(L, f, "scalar argument of %s: scalar arguments are of whole-byte integer and float types",
			dtype_name(dt));
		ok = false;
	}
	if (!ok || !name || ld_is_start_arg(L, name))
		return; /* a loop's start: a runtime value (ld_declare_loop_symbols) */
	Op *op = op_new(k, k->body, OP_SCALAR, name, 0, 1);
	op->dtype = dt;
	op->sarg = (int)k->scalar_args.len + 1;
	op->loc = loc_of(L, a.pos);
	op->path = arena_printf(&k->arena, "arguments[%zu]", i);
	Value *v = op_result(op);
	v->dtype = dt;
	v->shape = (Shape){0, NULL};
	v->loc = op->loc;
	vec_push(&k->scalar_args, op);
}

static void load_arguments(Ld *L, JV root)
{
	Kernel *k = L->k;
	JV args = jv_get(L, root, "arguments");
	if (!need(L, root, args, "arguments"))
		return;
	if (!json_is_array(args.v)) {
		wrong_type(L, args, "a list of arguments");
		return;
	}
	for (size_t i = 0; i < json_array_size(args.v); i++) {
		JV a = jv_at(L, args, i);
		if (!json_is_object(a.v)) {
			wrong_type(L, a, "an argument object");
			continue;
		}
		const char *name = NULL, *type = NULL, *space;
		bool ok = true;
		JV f = jv_get(L, a, "type");
		if (need(L, a, f, "type") && get_string(L, f, &type) && strcmp(type, "memory") != 0 &&
			strcmp(type, "scalar") != 0) {
			ld_err(L, f, "unknown argument type '%s' (expected \"memory\" or \"scalar\")", type);
			ok = false;
		}
		if (!ok) /* the type decides which fields belong: nothing more to say */
			continue;
		if (type && strcmp(type, "scalar") == 0) {
			load_scalar_argument(L, a, i);
			continue;
		}
		check_fields(L, a, "name type shape address_space dtype", NULL);
		f = jv_get(L, a, "name");
		ok &= need(L, a, f, "name") && ld_get_ident(L, f, &name);
		if (name && kernel_value(k, name)) {
			ld_err(L, f, "duplicate name '%s'", name);
			ok = false;
		}
		Shape shape = {0};
		f = jv_get(L, a, "shape");
		ok &= need(L, a, f, "shape") && ld_get_shape(L, f, &shape);
		DType dt = DT_NONE;
		f = jv_get(L, a, "dtype");
		ok &= need(L, a, f, "dtype") && ld_get_dtype(L, f, &dt);
		if (ok && (dt == DT_F4E2M1FN || dt == DT_F6E2M3FN || dt == DT_F6E3M2FN)) {
			/* buffers are whole bytes per element (.npy, launches): MX
			 * data comes as i8 and is bitcast, as in Wave's tests */
			ld_err(L, f, "memory '%s' of %s: declare packed MX data as i8 (f4e2m1fn: [..., K/2]) and bitcast "
				     "what is read",
				name ? name : "?", dtype_name(dt));
			ok = false;
		}
		AddrSpace as = AS_GLOBAL;
		const char *space_sym = NULL;
		f = jv_get(L, a, "address_space");
		if (need(L, a, f, "address_space") && get_string(L, f, &space)) {
			as = addr_space_from_name(space);
			if (as == AS_COUNT) {
				KSymbol *s = kernel_symbol(k, space);
				if (s && s->kind == SYMK_ADDRESS_SPACE) {
					as = s->space;
					space_sym = s->name;
				} else {
					ld_err(L, f,
						"unknown address space '%s' (expected \"global\", \"shared\" or "
						"a symbol from address_spaces)",
						space);
					ok = false;
					as = AS_GLOBAL;
				}
			}
		} else {
			ok = false;
		}
		if (!ok || !name) {
			if (name)
				vec_push(&L->bad_args, intern(name));
			continue;
		}
		Value *v = kernel_add_memory(k, name, shape, dt, as);
		v->space_sym = space_sym;
		v->loc = loc_of(L, a.pos);
	}
}

/* Wave compile options (WaveCompileOptions) that change only how Wave
 * itself generates code, booleans all: wavecc accepts and ignores them
 * (docs/kernel-format.md), but use_global_to_shared, which asks for
 * gfx950's direct-to-LDS loads (KernelOptions.global_to_shared). */
#define WAVE_ONLY_OPTIONS \
	"canonicalize use_buffer_ops use_scheduling_barriers use_global_to_shared minimize_shared_allocs " \
	"reorder_allocs linearize_reads linearize_shared_access scalarize_packed_math use_fast_math"

/* The optional "options" object: schedule, lds_stages (or Wave's
 * multi_buffer_count), waves_per_eu, interleave, denorm_fp_math_f32. Names
 * are checked here (and wavecc's qk_ahead); whether a schedule is compiled is the driver's call. */
static void load_options(Ld *L, JV root)
{
	JV o = jv_get(L, root, "options");
	if (!o.v)
		return;
	if (!json_is_object(o.v)) {
		wrong_type(L, o, "an object of compile options");
		return;
	}
	KernelOptions *ko = &L->k->opts;
	ko->loc = loc_of(L, o.pos);
	check_fields(L, o, "schedule lds_stages multi_buffer_count waves_per_eu interleave denorm_fp_math_f32 qk_ahead",
		WAVE_ONLY_OPTIONS);
	/* Wave's options that steer only Wave's own code generation: accepted
	 * (a kernel transcribed with them compiles), type-checked, no effect */
	for (const char *n = WAVE_ONLY_OPTIONS; *n;) {
		size_t len = strcspn(n, " ");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)len, n);
		JV f = jv_get(L, o, name);
		bool b = false;
		if (f.v && get_bool(L, f, &b) && b && strcmp(name, "use_global_to_shared") == 0)
			ko->global_to_shared = true; /* gfx950's direct-to-LDS loads (isel/lds_stage.c) */
		n += len + (n[len] == ' ');
	}
	const char *s;
	long long x;
	JV f = jv_get(L, o, "schedule");
	if (f.v && get_string(L, f, &s)) {
		ko->schedule = kernel_schedule_from_name(s);
		if (!ko->schedule)
			ld_err(L, f, "unknown schedule '%s' (" SCHEDULE_NAMES ")", s);
	}
	/* multi_buffer_count is Wave's name for the LDS stages */
	f = jv_get(L, o, "lds_stages");
	if (f.v && get_int(L, f, 1, 2, &x))
		ko->lds_stages = (int)x;
	f = jv_get(L, o, "multi_buffer_count");
	if (f.v && get_int(L, f, 1, 2, &x)) {
		if (ko->lds_stages && ko->lds_stages != x)
			ld_err(L, f, "%lld disagrees with lds_stages %d (Wave's name for the same count)", x,
				ko->lds_stages);
		ko->lds_stages = (int)x;
	}
	/* wavecc's own: the first MMA of a loop's chained pair a trip ahead
	 * (passes/plan/qk_ahead.c) */
	bool qa = false;
	f = jv_get(L, o, "qk_ahead");
	if (f.v && get_bool(L, f, &qa)) {
		ko->qk_ahead = qa;
		ko->qk_ahead_set = true;
	}
	f = jv_get(L, o, "waves_per_eu");
	if (f.v && get_int(L, f, 1, 8, &x))
		ko->waves_per_eu = (int)x;
	/* its syntax is the scheduler's to check (driver/options.c) */
	f = jv_get(L, o, "interleave");
	if (f.v && get_string(L, f, &s))
		ko->interleave = intern(s);
	/* Wave's (LLVM's denormal-fp-math for f32): whether f32 denormals may
	 * be flushed; "dynamic" promises nothing, so it is taken as "ieee" */
	f = jv_get(L, o, "denorm_fp_math_f32");
	if (f.v && get_string(L, f, &s)) {
		if (strcmp(s, "preserve-sign") == 0 || strcmp(s, "positive-zero") == 0)
			ko->f32_denorm_flush = true;
		else if (strcmp(s, "ieee") != 0 && strcmp(s, "dynamic") != 0)
			ld_err(L, f, "unknown denormal mode '%s' (ieee, preserve-sign, positive-zero or dynamic)", s);
	}
}

Kernel *load_kernel_text(const char *text, size_t len, const char *file, Diag *d)
{
	int nerr0 = d->nerrors;
	Ld L = {0};
	L.d = d;
	L.file = file;
	arena_init(&L.tmp);
	L.r = (JReader){d, file, &L.tmp, 0};
	JV r = jr_parse(&L.r, text, len, true);
	if (!r.v) {
		arena_free(&L.tmp);
		return NULL;
	}
	json_t *root = r.v;
	L.k = kernel_new("");
	L.k->file = file ? intern(file) : NULL;
	if (!json_is_object(r.v)) {
		wrong_type(&L, r, "a kernel object");
		goto out;
	}
	check_fields(&L, r, TOP_FIELDS, NULL);
	JV f = jv_get(&L, r, "format");
	const char *s;
	if (need(&L, r, f, "format") && get_string(&L, f, &s) && strcmp(s, GRAPH_FORMAT) != 0) {
		ld_err(&L, f, "unsupported format '%s' (this is wavecc %s, reading \"%s\")", s,
			"0.1", GRAPH_FORMAT);
		goto out; /* another version: nothing else can be trusted */
	}
	f = jv_get(&L, r, "name");
	if (need(&L, r, f, "name") && ld_get_ident(&L, f, &s)) {
		if (strchr(s, '.') || strchr(s, '$'))
			ld_err(&L, f, "'%s' is not a valid kernel name", s);
		L.k->name = s;
	}
	declare_symbols(&L, r);
	ld_rewrite_spin_waits(&L, r);
	ld_declare_loop_symbols(&L, r);
	load_symbol_values(&L, r);
	load_constraints(&L, r);
	resolve_symbols(&L, r);
	load_arguments(&L, r);
	load_options(&L, r);
	f = jv_get(&L, r, "graph");
	if (need(&L, r, f, "graph"))
		ld_load_graph(&L, f);
out:
	json_decref(root);
	vec_free(&L.ivars);
	vec_free(&L.bad_args);
	vec_free(&L.loop_syms);
	vec_free(&L.spins);
	vec_free(&L.start_args);
	arena_free(&L.tmp);
	if (d->nerrors != nerr0) {
		kernel_free(L.k);
		return NULL;
	}
	return L.k;
}

Kernel *load_kernel_file(const char *path, Diag *d)
{
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		Loc loc = {path, 0, 0};
		diag_error(d, loc, "cannot read: %s", strerror(errno));
		return NULL;
	}
	Kernel *k = load_kernel_text(text, len, path, d);
	free(text);
	return k;
}
