/* defines.c — `-D SYM=VAL` on a loaded kernel graph, the same for every
 * command that runs one (interp, run K.json) as for compile.
 *
 * The bindings go through the compiler's own substitution pass
 * (passes/graph/subst.c, the pipeline stopped after it), so a -D may bind a
 * dynamic symbol or override any symbol's value, and everything derived
 * from it (BLOCK_N = Max(Min(N, 256), 64)) follows. A name the kernel does
 * not have and a dynamic symbol left without a value are usage errors
 * (exit 2), whichever command finds them. */
#include <string.h>

#include "../frontend/frontend.h"
#include "../passes/passes.h"
#include "cli.h"

int apply_defines(Kernel *k, const CompileOptions *defs, int64_t *dyn, Diag *d, Buf *usage_msg)
{
	for (int i = 0; i < defs->ndefs; i++)
		if (!kernel_symbol(k, defs->def_name[i])) {
			buf_printf(usage_msg, "-D %s: kernel %s has no symbol of that name", defs->def_name[i], k->name);
			return 2;
		}
	for (size_t j = 0; j < k->dyn_syms.len; j++) {
		const char *name = sym_name(k->dyn_syms.data[j]);
		bool given = false;
		for (int i = 0; i < defs->ndefs; i++)
			if (strcmp(defs->def_name[i], name) == 0) {
				dyn[j] = defs->def_val[i]; /* the last -D wins, as in subst */
				given = true;
			}
		if (!given) {
			buf_printf(usage_msg, "dynamic symbol %s of kernel %s needs a value: -D %s=VAL", name, k->name, name);
			return 2;
		}
	}
	if (defs->ndefs == 0)
		return 0;
	CompileOptions o = *defs;
	o.mcpu = "gfx942"; /* substitution does not depend on the target */
	o.stop_after = "subst_symbols";
	o.dump = 0;
	Compile c;
	compile_init(&c, k, &o, d);
	int r = compile_run(&c);
	compile_free(&c);
	return r == 0 ? 0 : 1;
}
