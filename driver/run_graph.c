/* run_graph.c — compile a kernel graph, run the code object on a backend,
 * run the reference interpreter on the same inputs, and compare every
 * buffer the graph writes — all in memory (run_graph.h; the command
 * `wavecc run K.json`, cli/run_graph.c, parses and prints).
 *
 * The compiler's code object and launch descriptor stay in memory
 * (pipeline.c). Dynamic symbols are compiled as kernel arguments and their
 * -D values given at launch, so every size runs the one code object
 * `wavecc compile` would write without them (other -D values specialise, as
 * in compile). Inputs are the interpreter's seeded random values
 * (docs/interpreter.md) or the --in files; the kernel's buffers are copies
 * of the interpreter's inputs taken before it runs, so both sides see
 * identical bytes. The interpreter runs the kernel as written, with the same
 * -D bindings the compiler applies (the caller's bound view). A buffer the
 * graph writes but never reads (and no --in gives) starts as the canary on
 * both sides, so an element the kernel should have written and did not
 * shows; the interpreter records which elements it writes. Integer results
 * must match exactly; floats within |got - want| <= atol + rtol*|want|
 * (defaults derived from the graph: the narrowest precision a value passes
 * through on its way to the buffer, driver/tolerance.c); elements the graph
 * does not write, bit for bit (compile_check_compare). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/dtype.h"
#include "run_graph.h"

void compile_check_fill_canary(DType t, void *buf, uint64_t n)
{
	uint64_t bits;
	switch (t) {
	case DT_F16: bits = 0x7ea5; break;
	case DT_BF16: bits = 0x7fe5; break;
	case DT_F32: bits = 0x7fe5a5a5; break;
	case DT_F64: bits = UINT64_C(0x7ffda5a5a5a5a5a5); break;
	case DT_F8E4M3FN: bits = 0xff; break;
	case DT_F8E5M2: bits = 0xfd; break;
	case DT_F8E4M3FNUZ: case DT_F8E5M2FNUZ: bits = 0x80; break;
	default: bits = UINT64_C(0xa5a5a5a5a5a5a5a5); break;
	}
	size_t sz = (size_t)dtype_size(t);
	unsigned char one[8];
	for (size_t b = 0; b < sz; b++)
		one[b] = (unsigned char)(bits >> (8 * b)); /* little endian, as the GPU's memory */
	for (uint64_t i = 0; i < n; i++)
		memcpy((unsigned char *)buf + i * sz, one, sz);
}

/* Element i of a (size sz) bit for bit the same as the element at b? */
static bool same_bits(const void *a, uint64_t i, const void *b, size_t sz)
{
	return memcmp((const unsigned char *)a + i * sz, b, sz) == 0;
}

/* One element the reference wrote, got g against want w: its absolute
 * and relative errors in *ab and *rel; passes? */
static bool within(const CheckCompare *c, double g, double w, double *ab, double *rel)
{
	bool ok;
	*ab = fabs(g - w);
	if (isnan(w) || isnan(g)) {
		ok = isnan(w) && isnan(g);
		*ab = ok ? 0 : INFINITY;
	} else if (isinf(w) || isinf(g)) {
		ok = g == w;
		*ab = ok ? 0 : INFINITY;
	} else {
		ok = *ab <= c->atol + c->rtol * fabs(w);
	}
	*rel = w != 0 ? *ab / fabs(w) : (*ab != 0 ? INFINITY : 0);
	return ok;
}

void compile_check_compare(CheckCompare *c, const void *got, const void *want, const uint8_t *written, bool canary)
{
	DType t = c->dtype;
	size_t sz = (size_t)dtype_size(t);
	unsigned char pre[8];
	compile_check_fill_canary(t, pre, 1);
	uint64_t nan = 0;
	for (uint64_t i = 0; i < c->count; i++) {
		double g = dtype_load(t, got, i), w = dtype_load(t, want, i);
		const void *wi = (const unsigned char *)want + i * sz;
		bool ok;
		if (!written || !written[i]) {
			/* the reference left it as it was: so must the kernel */
			ok = same_bits(got, i, wi, sz);
			if (!ok && c->stray++ == 0)
				c->first_stray = i;
		} else if (canary && same_bits(got, i, pre, sz) && !same_bits(want, i, pre, sz)) {
			/* still the pre-fill where the reference wrote */
			ok = false;
			if (c->prefill++ == 0)
				c->first_prefill = i;
		} else {
			double ab, rel;
			ok = within(c, g, w, &ab, &rel);
			if (ab > c->max_abs)
				c->max_abs = ab;
			if (rel > c->max_rel)
				c->max_rel = rel;
		}
		if (written && written[i]) {
			c->written++;
			nan += isnan(w);
		}
		if (!ok && c->bad++ == 0)
			c->first_bad = i;
	}
	if (c->bad) {
		c->got = dtype_load(t, got, c->first_bad);
		c->want = dtype_load(t, want, c->first_bad);
	}
	c->all_nan = c->written > 0 && nan == c->written;
	c->pass = c->bad == 0 && !c->all_nan;
}

static const char *find_pair(int n, const char *const *pairs, const char *name)
{
	const char *file = NULL;
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(pairs[i], '=');
		if (eq && intern_n(pairs[i], (size_t)(eq - pairs[i])) == name)
			file = eq + 1; /* the last one wins */
	}
	return file;
}

const Op *compile_scalar_def(const Kernel *k, const char *def)
{
	const char *eq = strchr(def, '=');
	const char *name = intern_n(def, (size_t)(eq - def));
	for (size_t j = 0; j < k->scalar_args.len; j++)
		if (k->scalar_args.data[j]->name == name)
			return k->scalar_args.data[j];
	return NULL;
}

/* A scalar argument's value: the -D that names it, else the seeded random
 * value already in it; recorded, and pushed as the launch's NAME=VALUE
 * (exact: %.17g of the value the dtype holds). 2 with a usage message. */
static int set_scalar(CompileCheck *ck, InterpArg *ia, Buf *msg)
{
	char err[256];
	for (int i = 0; i < ck->ndefs; i++) {
		const Op *s = compile_scalar_def(ck->k, ck->defs[i]);
		if (s && op_result(s) == ia->mem &&
			interp_set_scalar(ia, strchr(ck->defs[i], '=') + 1, err, sizeof err) != 0) {
			buf_printf(msg, "-D %s", err);
			return 2;
		}
	}
	double v = dtype_load(ia->dtype, ia->data, 0);
	vec_push(&ck->scalars, ((CheckScalar){ia->name, ia->dtype, v}));
	char buf[256];
	snprintf(buf, sizeof buf, "%s=%.17g", ia->name, v);
	char *def = xstrdup(buf);
	vec_push(&ck->sdefs, def);
	vec_push(&ck->ldefs, (const char *)def);
	return 0;
}

int compile_check_prepare(CompileCheck *ck, Diag *d, Buf *msg)
{
	const Kernel *k = ck->k;
	/* compile, in memory: the dynamic symbols stay kernel arguments */
	CompileOptions generic = ck->co;
	generic.ndefs = 0;
	for (int i = 0; i < ck->co.ndefs; i++) {
		bool dynamic = false;
		for (size_t j = 0; j < k->dyn_syms.len; j++)
			dynamic |= sym_name(k->dyn_syms.data[j]) == ck->co.def_name[i];
		if (!dynamic) {
			generic.def_name[generic.ndefs] = ck->co.def_name[i];
			generic.def_val[generic.ndefs++] = ck->co.def_val[i];
		}
	}
	compile_init(&ck->c, k, &generic, d);
	ck->have_compile = true;
	if (compile_run(&ck->c) != 0)
		return 1;

	/* the interpreter, on seeded random inputs (or --in files), its
	 * outputs on the canary; the kernel's buffers start as copies of them */
	ck->have_interp = true;
	if (interp_init(&ck->interp, ck->bound, ck->dyn, d) != 0)
		return 1;
	char err[512];
	for (int i = 0; i < ck->ndefs; i++)
		if (!compile_scalar_def(k, ck->defs[i]))
			vec_push(&ck->ldefs, ck->defs[i]);
	for (int i = 0; i < ck->interp.nargs; i++) {
		InterpArg *ia = &ck->interp.args[i];
		interp_fill_random(ia, ck->ro->seed, i);
		if (ia->scalar) {
			int r = set_scalar(ck, ia, msg);
			if (r != 0)
				return r;
			continue;
		}
		const char *given = find_pair(ck->nin, ck->in, ia->name);
		if (given && interp_load_npy(ia, given, err, sizeof err) != 0) {
			buf_error(msg, "--in %s=%s: %s", ia->name, given, err);
			return 1;
		}
		/* a buffer the graph reads (an atomic_add does) keeps its input */
		const Region *body = ck->interp.k->body;
		bool canary = !given && region_writes_mem(body, ia->mem) && !region_reads_mem(body, ia->mem);
		if (canary)
			compile_check_fill_canary(ia->dtype, ia->data, ia->count);
		vec_push(&ck->canaried, canary);
		uint64_t bytes = ia->count * (uint64_t)dtype_size(ia->dtype);
		void *copy = xmalloc(bytes ? bytes : 1);
		memcpy(copy, ia->data, bytes);
		vec_push(&ck->hb, ((HostBuffer){ia->name, copy, bytes}));
	}
	return 0;
}

int compile_check_run(CompileCheck *ck, Diag *d, Buf *msg)
{
	if (interp_run(&ck->interp) != 0)
		return 1;

	/* the code object on the backend */
	ck->have_ld = true;
	Compile *c = &ck->c;
	if (launch_parse(c->launch_json.data, c->launch_json.len, "kernel.launch.json", &ck->ld, d) != 0 ||
		launch_resolve(&ck->ld, (int)ck->ldefs.len, ck->ldefs.data, d) != 0) {
		buf_diag(msg, (Loc){ck->path, 0, 0}, "the compiler wrote a launch descriptor that does not load");
		return 1;
	}
	RunOptions ro = *ck->ro;
	ro.races_fail = true; /* our own code must be race-free */
	ro.policy.barriers = true; /* and its waves meet at the same barriers */
	if (launch_run_memory(&ck->ld, c->code_object.data, c->code_object.len, &ro, ck->hb.data, ck->hb.len, msg) != 0)
		return 1;

	/* every buffer the graph writes, against the reference; any other
	 * must be as it was */
	const Kernel *gk = ck->interp.k;
	ck->pass = true;
	bool writes_one = false;
	CheckTolerance *tols = xcalloc(gk->args.len + 1, sizeof *tols);
	compile_check_tolerances(gk, tols);
	for (size_t i = 0; i < gk->args.len && i < ck->hb.len; i++) {
		InterpArg *ia = &ck->interp.args[i];
		const HostBuffer *got = &ck->hb.data[i];
		if (got->bytes != ia->count * (uint64_t)dtype_size(ia->dtype))
			die("buffer %s has %llu bytes, the interpreter's %llu elements", ia->name,
			    (unsigned long long)got->bytes, (unsigned long long)ia->count);
		CheckCompare cm = {.name = ia->name, .dtype = ia->dtype, .count = ia->count,
			.graph_writes = region_writes_mem(gk->body, ia->mem), .tol = tols[i],
			.atol = tols[i].atol, .rtol = tols[i].rtol, .atol_given = ck->atol >= 0, .rtol_given = ck->rtol >= 0};
		if (cm.atol_given)
			cm.atol = ck->atol;
		if (cm.rtol_given)
			cm.rtol = ck->rtol;
		compile_check_compare(&cm, got->data, ia->data, ia->written, ck->canaried.data[i]);
		writes_one |= cm.graph_writes;
		if (cm.graph_writes || !cm.pass)
			vec_push(&ck->compared, cm);
		ck->pass &= cm.pass;
	}
	free(tols);
	/* what the graph writes was compared, and the backend wrote it back */
	for (size_t i = 0; i < gk->args.len; i++) {
		const Value *mem = gk->args.data[i];
		if (!region_writes_mem(gk->body, mem))
			continue;
		bool compared = false;
		for (size_t j = 0; j < ck->compared.len; j++)
			compared |= ck->compared.data[j].name == mem->name;
		const LaunchArg *la = launch_arg(&ck->ld, mem->name);
		if (!compared) {
			buf_diag(msg, (Loc){ck->path, 0, 0}, "the graph writes %s, which the run did not compare", mem->name);
			ck->pass = false;
		} else if (!la || la->kind != LARG_BUFFER || !(la->access & ACC_WRITE)) {
			buf_diag(msg, (Loc){ck->path, 0, 0},
				 "the graph writes %s, which the launch descriptor does not mark written", mem->name);
			ck->pass = false;
		}
	}
	if (!writes_one) {
		buf_diag(msg, (Loc){ck->path, 0, 0}, "the graph writes no buffer; nothing to compare");
		ck->pass = false;
	}
	return 0;
}

const void *compile_check_buffer(const CompileCheck *ck, const char *name, const InterpArg **arg)
{
	for (int i = 0; i < ck->interp.nargs && (size_t)i < ck->hb.len; i++)
		if (ck->interp.args[i].name == name) {
			*arg = &ck->interp.args[i];
			return ck->hb.data[i].data;
		}
	return NULL;
}

void compile_check_free(CompileCheck *ck)
{
	if (ck->have_ld)
		launch_free(&ck->ld);
	if (ck->have_interp)
		interp_free(&ck->interp);
	if (ck->have_compile)
		compile_free(&ck->c);
	for (size_t i = 0; i < ck->hb.len; i++)
		free(ck->hb.data[i].data);
	for (size_t i = 0; i < ck->sdefs.len; i++)
		free(ck->sdefs.data[i]);
	vec_free(&ck->sdefs);
	vec_free(&ck->ldefs);
	vec_free(&ck->hb);
	vec_free(&ck->canaried);
	vec_free(&ck->scalars);
	vec_free(&ck->compared);
}
