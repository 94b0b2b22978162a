/* pipeline.c — the compiler's pass pipeline, listed once.
 *
 * Data flows one way (docs/compiler.md): graph passes fill analyses on the kernel
 * graph; instruction selection builds the machine function; machine passes
 * rewrite it; the emitter prints assembly and the launch descriptor. The
 * pipeline stops after the first pass that reported an error. The MIR
 * verifier (mir_verify) runs after every pass that has a machine function;
 * its failures are compiler bugs (die), not input errors. After waitcnt
 * insertion the independent wait checker (check_waitcnt) runs too, and after
 * hazard resolution the hazard checker (check_hazards); right after
 * allocation, the allocation checker (check_allocation). Every pass and the
 * checks after it are timed (Compile.pass_us, check_us) for --stats.
 *
 * Stages of the design not built yet (shared-memory promotion, expansion of
 * MMA tiles, barriers, scheduling) get their rows here
 * when they exist; the order below is the order they will run in. */
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <time.h>

#include "../passes/passes.h"
#include "../regalloc/regalloc.h"

/* X(name, the call that runs it on the compile state c, what is checked
 *   after it: 0 nothing, 1 the MIR verifier, 2 + the wait checker, 3 + the
 *   hazard checker). Each stage takes only its own IR. */
#define PIPELINE(X) \
	X(subst_symbols, subst_symbols(c), 0) \
	X(analyze_constraints, analyze_constraints(c), 0) \
	X(analyze_indices, analyze_indices(c), 0) \
	X(select_instructions, select_instructions(c), 1) \
	X(allocate_registers, allocate_registers(c), 1) \
	X(insert_waitcnt, insert_waitcnt(c->mf), 2) \
	X(resolve_hazards, resolve_hazards(c->mf), 3) \
	X(emit_assembly, emit_assembly(c), 3)

/* Pass names for the stage timings (--stats, bench/compile_bench.c). */
const char *const compile_pass_name[] = {
#define NAME(fn, call, level) #fn,
	PIPELINE(NAME)
#undef NAME
};
const int compile_npasses = (int)ARRAY_LEN(compile_pass_name);
_Static_assert(ARRAY_LEN(compile_pass_name) <= MAX_PASSES, "Compile.pass_us needs room for every pass");

double compile_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

void compile_init(Compile *c, Kernel *k, const CompileOptions *o, Diag *d)
{
	*c = (Compile){.k = k, .opt = *o, .diag = d};
	arena_init(&c->arena);
	c->t = target_from_name(o->mcpu);
	if (!c->t)
		die("unknown target %s (the CLI checks --mcpu)", o->mcpu);
}

void compile_free(Compile *c)
{
	mfunc_free(c->mf);
	c->mf = NULL;
	buf_free(&c->asm_text);
	buf_free(&c->launch_json);
	arena_free(&c->arena);
}

void compile_error(Compile *c, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(c->diag, loc, fmt, ap);
	va_end(ap);
	c->failed = true;
}

int64_t compile_int(Compile *c, Sym *e, Loc loc, const char *what)
{
	Sym *v = kernel_subs(c->k, e);
	int64_t x;
	if (sym_is_int(v, &x))
		return x;
	if (sym_is_error(v)) { /* an overflow, a division by zero: not a missing -D */
		compile_error(c, loc, "%s (%s) cannot be evaluated: %s", what, sym_str(c->k->sc, e), sym_error_msg(v));
		return -1;
	}
	compile_error(c, loc, "%s is %s, not a compile-time integer (dynamic shapes are not compiled yet; "
			      "bind the symbol with -D)", what, sym_str(c->k->sc, v));
	return -1;
}

/* Register allocation, located at the graph op where a file ran out
 * (regalloc/linear.c names the op in its notes). The assignment is kept in
 * c->ra for the allocation checker, which runs once right after. */
void allocate_registers(Compile *c)
{
	Buf err = {0};
	RegAssign *ra = xcalloc(1, sizeof *ra);
	if (regalloc_mfunc(c->mf, ra, &err) != 0) {
		/* located at the graph op where the file ran out */
		const Op *at = NULL;
		for (size_t i = 0; ra->fail_op && !at && i < c->k->op_list.len; i++)
			if (c->k->op_list.data[i]->name == ra->fail_op)
				at = c->k->op_list.data[i];
		if (at)
			compile_error(c, at->loc, "%s: %s", at->path, buf_cstr(&err));
		else
			compile_error(c, (Loc){c->k->file, 0, 0}, "%s", buf_cstr(&err));
		free(ra);
	} else {
		c->ra = ra;
	}
	buf_free(&err);
}

/* If allocate_registers kept its assignment (c->ra): check it against the
 * allocated function independently, then release it. Returns the problems
 * found (appended to msg); 0 when there is nothing to check. */
int check_allocation(Compile *c, Buf *msg)
{
	if (!c->ra)
		return 0;
	int n = regalloc_check(c->ra->pre, c->ra->phys, c->mf, msg);
	regassign_free(c->ra);
	free(c->ra);
	c->ra = NULL;
	return n;
}

static void verify(Compile *c, const char *after, int level)
{
	Buf msg = {0};
	int n = mir_verify(c->mf, &msg);
	if (level >= 2)
		n += check_waitcnt(c->mf, &msg);
	if (level >= 3)
		n += check_hazards(c->mf, &msg);
	/* Once, right after allocation: the allocation checker compares the
	 * function with the pre-allocation copy allocate_registers kept in c->ra
	 * (regalloc/check.c), then drops the copy. */
	n += check_allocation(c, &msg);
	if (n)
		die("after %s:\n%s", after, buf_cstr(&msg));
	buf_free(&msg);
}

/* Each pass is timed on its own (pass_us); the verifier and checkers after
 * it add to check_us, so the two together are the compiler's own time. */
int compile_run(Compile *c)
{
	int i = 0;
#define RUN(fn, call, level) \
	if (!c->failed) { \
		double t0_ = compile_now_us(); \
		call; \
		double t1_ = compile_now_us(); \
		c->pass_us[i] = t1_ - t0_; \
		if (!c->failed && (level) && c->mf) { \
			if (c->opt.dump & (1u << i)) { \
				Buf d = {0}; \
				mir_print(&d, c->mf); \
				fprintf(stderr, "## after %s\n%s", #fn, buf_cstr(&d)); \
				buf_free(&d); \
			} \
			double t2_ = compile_now_us(); \
			verify(c, #fn, level); \
			c->check_us += compile_now_us() - t2_; \
		} \
	} \
	i++; \
	if (c->opt.stop_after && strcmp(c->opt.stop_after, #fn) == 0) \
		return c->failed ? -1 : 0;
	PIPELINE(RUN)
#undef RUN
	(void)i;
	return c->failed ? -1 : 0;
}
