/* compile_many.c — `wavecc compile` with several kernel files or --sweep:
 * every variant compiled in one process, with one llvm-mc run per target
 * (driver/batch.c).
 *
 * Variants: each input file, times the cartesian product of the --sweep
 * lists (the first --sweep varies slowest), each with the -D bindings and
 * then its sweep values. Each variant that compiles writes into the output
 * folder (-o DIR, default the current one; created if missing) its code
 * object (or with -S its assembly) and its launch descriptor, named after
 * the input's base name and the sweep values: gemm.BLOCK_M=64.BLOCK_K=32
 * .hsaco and .launch.json. One line per variant goes to stdout: the file
 * name and the statistics line (driver/stats.c), or "FAILED" (the
 * diagnostics are on stderr). Files are written all or nothing per run.
 * Exit: 0 when every variant compiled, 1 otherwise. launch_with_ops, the
 * descriptor with its op table, is here for cmd_compile.c too. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../driver/stats.h"
#include "../frontend/frontend.h"
#include "../loader/codeobj/codeobj.h"
#include "../loader/timing/timing.h"
#include "cli.h"

_Static_assert(sizeof ((ManyOptions *)0)->sweep / sizeof(Sweep) == MAX_DEFS, "ManyOptions.sweep holds MAX_DEFS");

static char *stem_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	char *r = xmalloc(n + 1);
	memcpy(r, base, n);
	r[n] = 0;
	return r;
}

/* The launch descriptor with its op table (`ops`, docs/launch-format.md):
 * the offsets where each graph op's run of instructions starts, with the
 * op and the iterate owning it, so `wavecc profile` of the descriptor names
 * hot spots and loops as it does for the graph; `code_bytes` and
 * `code_fnv1a` tie the table to this code. The descriptor as it is when
 * there is no code object or the assembly and code do not line up. */
int compile_source_map(const Compile *c, CodeObject *co, TmSourceMap *map, const uint8_t **code, uint64_t *avail)
{
	Buf msg = {0};
	int ok = c->code_object.len ? codeobj_read(c->code_object.data, c->code_object.len, "kernel.hsaco", co, &msg) : -1;
	buf_free(&msg);
	if (ok != 0)
		return -1;
	const CodeKernel *ck = co->nkernels == 1 ? &co->kernels[0] : NULL;
	EmuArch arch = strcmp(co->mcpu, "gfx90a") == 0 ? EMU_GFX90A : strcmp(co->mcpu, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942;
	if (ck && ck->entry_vaddr >= co->base && ck->entry_vaddr - co->base < co->image_size) {
		*code = co->image + (ck->entry_vaddr - co->base);
		*avail = co->image_size - (ck->entry_vaddr - co->base);
		if (tm_source_map(arch, *code, *avail, c->asm_text.data, c->asm_text.len, ck->name, map) == 0)
			return 0;
	}
	codeobj_free(co);
	return -1;
}

char *launch_with_ops(const Compile *c, size_t *len)
{
	const Kernel *k = c->k;
	const Buf *l = &c->launch_json;
	size_t cut = l->len;
	while (cut > 0 && (l->data[cut - 1] == '\n' || l->data[cut - 1] == ' '))
		cut--;
	char *r = NULL;
	if (cut > 0 && l->data[cut - 1] == '}') {
		CodeObject co;
		TmSourceMap map;
		const uint8_t *code;
		uint64_t avail;
		if (compile_source_map(c, &co, &map, &code, &avail) == 0) {
			uint64_t bytes = map.n ? map.offset[map.n - 1] + 4 : 0;
			if (bytes > avail)
				bytes = avail;
			json_t *runs = json_array();
			for (size_t j = 0; j < map.n; j++) {
				if (j > 0 && map.op[j] == map.op[j - 1])
					continue;
				const char *loop = NULL;
				for (size_t o = 0; o < k->op_list.len && map.op[j] && !loop; o++) {
					const Op *op = k->op_list.data[o];
					if (op && op->name && strcmp(op->name, map.op[j]) == 0) {
						const Op *owner = op->parent ? op->parent->owner : NULL;
						loop = owner && owner->name ? owner->name : "";
					}
				}
				json_t *e = json_array();
				json_array_append_new(e, json_integer((json_int_t)map.offset[j]));
				json_array_append_new(e, map.op[j] ? json_string(map.op[j]) : json_null());
				json_array_append_new(e, loop && loop[0] ? json_string(loop) : json_null());
				json_array_append_new(runs, e);
			}
			char hash[17];
			snprintf(hash, sizeof hash, "%016llx", (unsigned long long)code_fnv1a(code, (size_t)bytes));
			json_t *ops = json_object();
			json_object_set_new(ops, "code_bytes", json_integer((json_int_t)bytes));
			json_object_set_new(ops, "code_fnv1a", json_string(hash));
			json_object_set_new(ops, "runs", runs);
			char *t = json_dumps(ops, JSON_COMPACT);
			json_decref(ops);
			tm_source_map_free(&map);
			codeobj_free(&co);
			if (t) {
				Buf b = {0};
				buf_printf(&b, "%.*s,\n \"ops\": %s}\n", (int)(cut - 1), l->data, t);
				free(t);
				*len = b.len;
				r = xstrdup(buf_cstr(&b));
				buf_free(&b);
			}
		}
	}
	if (!r) {
		r = xmalloc(l->len + 1);
		memcpy(r, l->data, l->len);
		r[l->len] = 0;
		*len = l->len;
	}
	return r;
}

int compile_many(const ManyOptions *m, const CompileOptions *base)
{
	/* the number of sweep combinations, bounded */
	size_t ncomb = 1;
	for (int s = 0; s < m->nsweeps; s++) {
		ncomb *= (size_t)m->sweep[s].nvals;
		if (ncomb > 100000)
			usage_err("compile: --sweep gives more than 100000 variants");
	}
	Diag d;
	diag_init(&d);
	Kernel **ks = xcalloc((size_t)m->ninputs + 1, sizeof *ks);
	int rc = 0;
	for (int i = 0; i < m->ninputs; i++) {
		ks[i] = load_kernel_file(m->inputs[i], &d);
		if (!ks[i])
			rc = 1;
	}
	size_t nvar = (size_t)m->ninputs * ncomb;
	Compile *cs = xcalloc(nvar + 1, sizeof *cs);
	Compile **ps = xcalloc(nvar + 1, sizeof *ps);
	char **names = xcalloc(nvar + 1, sizeof *names);
	size_t n = 0;
	for (int i = 0; i < m->ninputs; i++) {
		if (!ks[i])
			continue;
		char *stem = stem_of(m->inputs[i]);
		for (size_t comb = 0; comb < ncomb; comb++) {
			CompileOptions o = *base;
			Buf name = {0};
			buf_puts(&name, stem);
			size_t rest = comb;
			int64_t val[MAX_DEFS];
			for (int s = m->nsweeps - 1; s >= 0; s--) { /* the last sweep varies fastest */
				val[s] = m->sweep[s].vals[rest % (size_t)m->sweep[s].nvals];
				rest /= (size_t)m->sweep[s].nvals;
			}
			for (int s = 0; s < m->nsweeps; s++) {
				if (o.ndefs == MAX_DEFS)
					usage_err("compile: at most %d -D and --sweep symbols", MAX_DEFS);
				o.def_name[o.ndefs] = m->sweep[s].name;
				o.def_val[o.ndefs++] = val[s];
				buf_printf(&name, ".%s=%lld", m->sweep[s].name, (long long)val[s]);
			}
			o.code_object = arena_printf(&ks[i]->arena, "%s.hsaco", buf_cstr(&name));
			names[n] = xstrdup(buf_cstr(&name));
			buf_free(&name);
			for (int k = 0; k < o.ndefs; k++)
				if (!kernel_symbol(ks[i], o.def_name[k]))
					usage_err("compile: %s: kernel %s has no symbol %s", m->inputs[i], ks[i]->name,
						o.def_name[k]);
			compile_init(&cs[n], ks[i], &o, &d);
			ps[n] = &cs[n];
			n++;
		}
		free(stem);
	}
	compile_batch(ps, n);
	size_t made = n;
	if (mkdir(m->dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "wavecc: error: cannot create %s: %s\n", m->dir, strerror(errno));
		rc = 1;
		n = 0;
	}
	OutputSet set;
	outputs_init(&set);
	Buf lines = {0};
	int w = 0;
	const char *failed = NULL;
	for (size_t j = 0; j < n && w == 0; j++) {
		Compile *c = &cs[j];
		if (compile_failed(c)) {
			buf_printf(&lines, "%s FAILED\n", names[j]);
			rc = 1;
			continue;
		}
		char *obj = xmalloc(strlen(m->dir) + strlen(names[j]) + 16);
		char *launch = xmalloc(strlen(m->dir) + strlen(names[j]) + 16);
		sprintf(obj, "%s/%s%s", m->dir, names[j], m->asm_only ? ".s" : ".hsaco");
		sprintf(launch, "%s/%s.launch.json", m->dir, names[j]);
		const Buf *main_out = m->asm_only ? &c->asm_text : &c->code_object;
		failed = obj;
		w = outputs_add(&set, obj, main_out->data, main_out->len, 0644);
		if (w == 0) {
			failed = launch;
			size_t llen;
			char *ltext = launch_with_ops(c, &llen);
			w = outputs_add(&set, launch, ltext, llen, 0644);
			free(ltext);
		}
		Buf st = {0}, msg = {0};
		if (compile_stats_line(&st, c, &msg) != 0)
			die("statistics: %s", buf_cstr(&msg)); /* our own linker's output */
		buf_printf(&lines, "%s%s %s\n", names[j], m->asm_only ? ".s" : ".hsaco", buf_cstr(&st));
		buf_free(&st);
		buf_free(&msg);
		if (w != 0)
			fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
		free(obj);
		free(launch);
	}
	if (w != 0) {
		outputs_abort(&set);
		rc = 1;
	} else if (outputs_commit(&set, &failed) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
		rc = 1;
	} else {
		fputs(buf_cstr(&lines), stdout);
	}
	buf_free(&lines);
	for (size_t j = 0; j < made; j++) {
		compile_free(&cs[j]);
		free(names[j]);
	}
	for (int i = 0; i < m->ninputs; i++)
		kernel_free(ks[i]);
	free(ks);
	free(cs);
	free(ps);
	free(names);
	return rc;
}
