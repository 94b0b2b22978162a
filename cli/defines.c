/* defines.c — `-D NAME=VALUE`, the same for every command that takes it.
 *
 * On a loaded kernel graph (interp, run K.json, as in compile): the
 * bindings go through the compiler's own substitution (subst_bind in
 * passes/graph/subst.c) on a view of the kernel, so a -D may bind a
 * dynamic symbol or override any symbol's value, and everything derived
 * from it (BLOCK_N = Max(Min(N, 256), 64)) follows. A name the kernel does
 * not have and a dynamic symbol left without a value are usage errors
 * (exit 2), whichever command finds them.
 *
 * On a launch descriptor (run and profile of one): every -D is checked
 * against the descriptor before anything is resolved, so that a bad one is
 * one usage message and nothing else: its value must be what its name takes
 * (an integer; any number for a float scalar), also for a name the
 * descriptor does not use (that one is then a warning: the kernel may have
 * been specialised by the same -D when it was compiled, and compile's -D
 * values are integers); a buffer's name is an error, and so is a symbol the
 * descriptor's expressions use that nothing binds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/frontend.h"
#include "../driver/driver.h"
#include "../ir/sym/sym.h"
#include "../loader/runtime/launch.h"
#include "cli.h"

int apply_defines(const Kernel *k, const CompileOptions *defs, int64_t *dyn, Kernel **bound, Diag *d,
	Buf *usage_msg)
{
	*bound = NULL;
	for (int i = 0; i < defs->ndefs; i++)
		if (!kernel_symbol(k, defs->def_name[i])) {
			buf_printf(usage_msg, "-D %s: kernel %s has no symbol of that name", defs->def_name[i], k->name);
			return 2;
		}
	const char *missing = subst_dynamic_values(k, defs->ndefs, defs->def_name, defs->def_val, dyn);
	if (missing) {
		buf_printf(usage_msg, "dynamic symbol %s of kernel %s needs a value: -D %s=VAL", missing, k->name, missing);
		return 2;
	}
	*bound = subst_bound_view(k, defs->ndefs, defs->def_name, defs->def_val, d);
	return *bound ? 0 : 1;
}

static bool is_int(const char *s)
{
	char *end;
	errno = 0;
	(void)strtoll(s, &end, 0);
	return !errno && end != s && !*end;
}

static bool is_number(const char *s)
{
	char *end;
	(void)strtod(s, &end);
	return end != s && !*end;
}

/* The name of the -D string def, interned (its '=' is there: the commands
 * check the form as they parse). */
static const char *def_name(const char *def)
{
	return intern_n(def, (size_t)(strchr(def, '=') - def));
}

static bool bound_by(int n, const char *const *defs, const char *name)
{
	for (int i = 0; i < n; i++)
		if (def_name(defs[i]) == name)
			return true;
	return false;
}

/* The value of one -D against the descriptor: false with a usage message. */
static bool check_value(const LaunchDesc *d, const char *def, bool used, Buf *um)
{
	const char *name = def_name(def), *val = strchr(def, '=') + 1;
	const LaunchArg *la = launch_arg(d, name);
	if (la && la->kind == LARG_BUFFER) {
		buf_printf(um, "-D %s: %s is a buffer argument (use --in %s=FILE.npy)", name, name, name);
		return false;
	}
	if (used && la && dtype_is_float(la->dtype)) {
		if (!is_number(val)) {
			buf_printf(um, "-D %s=%s: the value is not a number", name, val);
			return false;
		}
	} else if (!is_int(val)) {
		buf_printf(um, "-D %s=%s: the value is not an integer", name, val);
		return false;
	}
	return true;
}

bool launch_check_defines(const LaunchDesc *d, const char *path, int n, const char *const *defs,
	bool scalars_need_values, Buf *um, Buf *warn)
{
	/* the symbols the descriptor's expressions use, and the first
	 * expression that uses each (for the message) */
	Vec(const char *) syms = {0};
	Vec(const LaunchDim *) first_use = {0};
	for (size_t i = 0; i < 3 + d->nargs; i++) {
		const LaunchDim *dims[3 + NPY_MAX_DIMS];
		size_t nd = 0;
		if (i < 3) {
			dims[nd++] = &d->grid[i];
		} else {
			const LaunchArg *la = &d->args[i - 3];
			for (int k = 0; la->kind == LARG_BUFFER && k < la->ndim; k++)
				dims[nd++] = &la->shape[k];
		}
		for (size_t k = 0; k < nd; k++) {
			if (!dims[k]->sym)
				continue;
			Sym *fs[32];
			size_t nf = sym_free_symbols(d->symctx, dims[k]->sym, fs, 32);
			for (size_t j = 0; j < nf && j < 32; j++) {
				vec_push(&syms, intern(sym_name(fs[j])));
				vec_push(&first_use, dims[k]);
			}
		}
	}
	bool ok = true;
	for (int i = 0; i < n && ok; i++) {
		const char *name = def_name(defs[i]);
		bool used = launch_arg(d, name) != NULL;
		for (size_t j = 0; j < syms.len; j++)
			used |= syms.data[j] == name;
		ok = check_value(d, defs[i], used, um);
		if (ok && !used)
			buf_printf(warn, "-D %s: %s has no scalar argument or symbol of that name; ignored\n", name, path);
	}
	for (size_t j = 0; j < syms.len && ok; j++) {
		const LaunchArg *la = launch_arg(d, syms.data[j]);
		if (!bound_by(n, defs, syms.data[j]) && !(la && la->kind == LARG_SCALAR && la->has_value)) {
			const LaunchDim *u = first_use.data[j];
			buf_printf(um, "%s:%d:%d: %s: unbound symbol '%s' in \"%s\" (bind it with -D %s=VALUE)",
				u->loc.file ? u->loc.file : path, u->loc.line, u->loc.col, u->path, syms.data[j], u->expr,
				syms.data[j]);
			ok = false;
		}
	}
	for (size_t i = 0; i < d->nargs && ok && scalars_need_values; i++)
		if (d->args[i].kind == LARG_SCALAR && !d->args[i].has_value && !bound_by(n, defs, intern(d->args[i].name))) {
			buf_printf(um, "%s: scalar argument %s needs a value: -D %s=VALUE", path, d->args[i].name,
				d->args[i].name);
			ok = false;
		}
	vec_free(&syms);
	vec_free(&first_use);
	return ok;
}
