/* defines.c — `-D SYM=VAL` on a loaded kernel graph, the same for every
 * command that runs one (interp, run K.json) as for compile.
 *
 * The bindings go through the compiler's own substitution (subst_bind in
 * passes/graph/subst.c) on a view of the kernel, so a -D may bind a
 * dynamic symbol or override any symbol's value, and everything derived
 * from it (BLOCK_N = Max(Min(N, 256), 64)) follows. A name the kernel does
 * not have and a dynamic symbol left without a value are usage errors
 * (exit 2), whichever command finds them. */
#include <string.h>

#include "../frontend/frontend.h"
#include "../driver/driver.h"
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
