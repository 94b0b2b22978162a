/* kernel_resolve.c — resolve the kernel's value and alias symbols: every
 * KSymbol.resolved becomes its value with each value/alias symbol it names
 * replaced by that symbol's resolved value, simplified.
 *
 * Algorithm: a depth-first walk of the dependency graph in post-order, with
 * an explicit stack (a chain of 100,000 definitions cannot overflow the C
 * stack), so each symbol is substituted once, after the symbols it names:
 * O(symbols + total expression size), where repeated passes over the table
 * with linear name lookups were cubic in the length of a chain. Symbols are
 * found by their hash-consed SYM_SYMBOL node in a local open-addressing
 * table. A symbol on a cycle, or one that names a symbol on a cycle, keeps
 * resolved == NULL; the caller reports (frontend) or falls back (subst). */
#include <stdint.h>
#include <stdlib.h>

#include "graph.h"

static bool definable(const KSymbol *s) { return s->value && (s->kind == SYMK_VALUE || s->kind == SYMK_ALIAS); }

static size_t slot_of(const Sym *x, size_t mask) { return (size_t)(((uintptr_t)x >> 4) * 0x9E3779B97F4A7C15ull) & mask; }

/* The index of the definable symbol whose node is x, or -1. */
static long lookup(const Kernel *k, const long *tab, size_t mask, const Sym *x)
{
	for (size_t i = slot_of(x, mask); tab[i] >= 0; i = (i + 1) & mask)
		if (k->syms.data[tab[i]].sym == x)
			return tab[i];
	return -1;
}

enum { NEW, OPEN, DONE, CYCLE };

size_t kernel_resolve_symbols(Kernel *k, KernelResolveCheck check, void *ctx)
{
	size_t n = k->syms.len, cap = 16;
	while (cap < 2 * n + 2)
		cap *= 2;
	long *tab = xmalloc(cap * sizeof *tab);
	for (size_t i = 0; i < cap; i++)
		tab[i] = -1;
	for (size_t i = 0; i < n; i++) {
		KSymbol *s = &k->syms.data[i];
		if (!definable(s))
			continue;
		s->resolved = NULL;
		size_t j = slot_of(s->sym, cap - 1);
		while (tab[j] >= 0)
			j = (j + 1) & (cap - 1);
		tab[j] = (long)i;
	}
	/* dependencies in CSR form: symbol i names dep[dfirst[i] .. dfirst[i+1]) */
	size_t *dfirst = xmalloc((n + 1) * sizeof *dfirst);
	Vec(long) dep = {0};
	size_t fcap = 64, maxdeps = 0;
	Sym **fs = xmalloc(fcap * sizeof *fs);
	for (size_t i = 0; i < n; i++) {
		dfirst[i] = dep.len;
		KSymbol *s = &k->syms.data[i];
		if (!definable(s))
			continue;
		size_t nf = sym_free_symbols(k->sc, s->value, fs, fcap);
		if (nf > fcap) {
			fcap = nf;
			fs = xrealloc(fs, fcap * sizeof *fs);
			nf = sym_free_symbols(k->sc, s->value, fs, fcap);
		}
		for (size_t j = 0; j < nf; j++) {
			long d = lookup(k, tab, cap - 1, fs[j]);
			if (d >= 0)
				vec_push(&dep, d);
		}
		if (dep.len - dfirst[i] > maxdeps)
			maxdeps = dep.len - dfirst[i];
	}
	dfirst[n] = dep.len;
	free(fs);
	free(tab);

	unsigned char *state = xcalloc(n + 1, 1);
	size_t *stack = xmalloc((n + 1) * sizeof *stack), *pos = xmalloc((n + 1) * sizeof *pos);
	Sym **from = xmalloc((maxdeps + 1) * sizeof *from), **to = xmalloc((maxdeps + 1) * sizeof *to);
	size_t left = 0;
	for (size_t root = 0; root < n; root++) {
		if (!definable(&k->syms.data[root]) || state[root] != NEW)
			continue;
		size_t sp = 0;
		stack[sp] = root;
		pos[sp++] = dfirst[root];
		state[root] = OPEN;
		while (sp) {
			size_t i = stack[sp - 1];
			if (pos[sp - 1] < dfirst[i + 1]) {
				size_t d = (size_t)dep.data[pos[sp - 1]++];
				if (state[d] == NEW) {
					state[d] = OPEN;
					stack[sp] = d;
					pos[sp++] = dfirst[d];
				}
				continue;
			}
			/* every dependency is finished (or on a cycle): resolve i */
			sp--;
			KSymbol *s = &k->syms.data[i];
			int m = 0;
			bool ok = true;
			for (size_t j = dfirst[i]; j < dfirst[i + 1]; j++) {
				const KSymbol *d = &k->syms.data[dep.data[j]];
				if (state[dep.data[j]] != DONE) {
					ok = false;
					break;
				}
				from[m] = d->sym;
				to[m++] = d->resolved;
			}
			if (!ok) {
				state[i] = CYCLE;
				left++;
				continue;
			}
			Sym *r = m ? sym_subs(k->sc, s->value, m, from, to) : s->value;
			r = sym_simplify(k->sc, r, NULL);
			if (check)
				r = check(ctx, s, r);
			s->resolved = r;
			state[i] = DONE;
		}
	}
	free(from);
	free(to);
	free(stack);
	free(pos);
	free(state);
	free(dfirst);
	vec_free(&dep);
	return left;
}
