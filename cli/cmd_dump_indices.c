/* cmd_dump_indices.c — `wavecc dump-indices K.json [-D SYM=VAL]...`: run the
 * compiler's graph passes up to index analysis and print each op's
 * per-thread index, one line per expansion copy, as Wave prints an
 * IndexSequence: `DIM: start : size : stride` in SymPy syntax (the forms
 * Wave's index_sequence_analysis gives after expansion). Copies are named like
 * Wave's expanded nodes (`a_reg[M:1,K:0]`). Bad input: located messages,
 * exit 1, nothing on stdout. */
#include <string.h>

#include "../frontend/frontend.h"
#include "../driver/driver.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc dump-indices K.json [-D SYM=VAL]... [-v] [--version] [-h]\n\n"
		     "Runs symbol substitution, constraint and index analysis on the kernel graph and\n"
		     "prints the launch geometry, the loops and, for every op, each thread's index\n"
		     "per expansion copy as `DIM: start : size : stride` (SymPy syntax; $T0..2 are\n"
		     "work-item ids, $WG0..2 workgroup ids, $ARG<dim> loop variables).\n"
		     "  -D SYM=VAL   bind a dynamic symbol or override a symbol's value\n");
}

static const char *const mode_name[] = {"read/write", "reduction", "MMA"};

static void print_copy_name(Buf *b, const Op *op, const NodeIndex *x, int64_t cn)
{
	buf_puts(b, op->name);
	if (x->ncopies == 1)
		return;
	buf_putc(b, '[');
	int64_t rest = cn;
	int64_t pos[MAX_DIMS];
	for (int i = x->ndims - 1; i >= 0; i--) {
		pos[i] = rest % x->d[i].copies;
		rest /= x->d[i].copies;
	}
	bool first = true;
	for (int i = 0; i < x->ndims; i++) {
		if (x->d[i].copies == 1)
			continue;
		buf_printf(b, "%s%s:%lld", first ? "" : ",", sym_name(x->d[i].dim), (long long)pos[i]);
		first = false;
	}
	buf_putc(b, ']');
}

static void print_region(Buf *b, Analysis *c, const Region *r, int depth)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		const NodeIndex *x = c->index[op->id];
		if (op->kind == OP_ITERATE) {
			TileLoop *t = analysis_tile(c, op->dim);
			buf_printf(b, "%*siterate %s over %s: ", 2 * depth, "", op->name, sym_name(op->dim));
			if (t && t->trips < 0 && t->count) /* known at run time: the count the kernel computes */
				buf_printf(b, "%s", sym_str(c->k->sc, t->count));
			else
				buf_printf(b, "%lld", t ? (long long)t->trips : 0LL);
			buf_printf(b, " trips, %s\n", t ? sym_name(t->iv) : "?");
			print_region(b, c, op->body, depth + 1);
			continue;
		}
		if (op->body) { /* a conditional: its body, then its results' index */
			buf_printf(b, "%*s%s %s\n", 2 * depth, "", op_name(op->kind), op->name);
			print_region(b, c, op->body, depth + 1);
		}
		if (!x)
			continue;
		for (int64_t cn = 0; cn < x->ncopies; cn++) {
			buf_printf(b, "%*s%s ", 2 * depth, "", op_name(op->kind));
			print_copy_name(b, op, x, cn);
			buf_putc(b, ' ');
			index_print(b, c, x, cn);
			buf_putc(b, '\n');
		}
	}
}

int cmd_dump_indices(int argc, char **argv)
{
	const char *path = NULL;
	bool verbose = false;
	int rc;
	CompileOptions o = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opt_common(a, "dump-indices", usage, &rc))
			return rc;
		if (strcmp(a, "-v") == 0) {
			verbose = true;
			continue;
		}
		if (opt_define(argc, argv, &i, &o))
			continue;
		if (a[0] == '-' && a[1])
			usage_err("dump-indices: unknown option '%s'", a);
		if (path)
			usage_err("dump-indices: one input file expected");
		path = a;
	}
	if (opt_version_only(verbose, path))
		return 0;
	if (!path)
		usage_err("dump-indices: no kernel file");
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	if (!k)
		return 1;
	for (int i = 0; i < o.ndefs; i++)
		if (!kernel_symbol(k, o.def_name[i])) { /* as in compile, interp and run: bad usage */
			char msg[512];
			snprintf(msg, sizeof msg, "dump-indices: -D %s: kernel %s has no symbol of that name", o.def_name[i],
				k->name);
			kernel_free(k);
			usage_err("%s", msg);
		}
	o.stop_after = "bound_masked_loops";
	Compile c;
	compile_init(&c, k, &o, &d);
	rc = 1;
	if (compile_run(&c) == 0) {
		Buf b = {0};
		buf_printf(&b, "kernel %s: grid %lld x %lld x %lld, workgroup %d x %d x %d, %s indices\n", k->name,
			(long long)c.an.grid[0], (long long)c.an.grid[1], (long long)c.an.grid[2], c.an.wg_size[0],
			c.an.wg_size[1], c.an.wg_size[2], mode_name[c.an.mode]);
		print_region(&b, &c.an, k->body, 0);
		fputs(buf_cstr(&b), stdout);
		buf_free(&b);
		rc = 0;
	}
	compile_free(&c);
	kernel_free(k);
	return rc;
}
