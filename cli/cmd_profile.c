/* cmd_profile.c — `wavecc profile FILE.json`: how fast a kernel runs on a
 * modelled GPU (--gpu: MI300X, the gfx942 default, MI308X, MI325X; an
 * MI250X GCD for gfx90a), by the cycle model of loader/timing
 * (docs/cycle-model.md).
 *
 * FILE.json is a launch descriptor (its code object runs) or a kernel graph
 * (compiled in memory as `wavecc run` does: dynamic symbols stay kernel
 * arguments and get their -D values at launch). The -D are checked before
 * anything runs, as run checks them (a bad one is a usage error, one
 * message: cli/defines.c for a descriptor, check_graph_defines for a graph).
 * The buffers are zeros, a scalar argument without a value is 1. Only a sample of workgroups runs on
 * the emulator (tm_sample_size: one CU's share of the grid, at most two
 * rounds of its occupancy), recorded; their streams are replayed on one
 * modelled CU and the result scaled to the grid (loader/timing/gpu.c), at
 * the clock model's clock for the kernel's MFMA data type and matrix-core
 * duty, or --clock's.
 * Output: a summary (cycles, loops named by their iterate op, utilisation
 * per unit, bytes per clock per memory level, the caches' traffic, the
 * clock and why, the whole-GPU estimate with the launch overhead, the
 * error band and the model's limits), the stall hot spots by instruction,
 * reason and graph op, and the totals by graph op; --asm
 * lists every instruction with its counts; --json the same as one JSON
 * document. TFLOP/s is the useful work of the graph's mma ops (2*M*N*K
 * for a GEMM; the pairs a mask select rejects left out: useful_flops) with the MFMAs' work, which counts padded
 * tiles, beside it when they differ; a launch descriptor has no graph, so
 * its TFLOP/s is the MFMAs' work and says so. GB/s is every buffer's bytes
 * once, the modelled HBM traffic beside it. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../driver/driver.h"
#include "../frontend/frontend.h"
#include "../driver/run_graph.h"
#include "../loader/codeobj/codeobj.h"
#include "../loader/runtime/launch.h"
#include "../loader/timing/timing.h"
#include "cli.h"

typedef struct {
	const char *path, *mcpu;
	const TmGpu *gpu; /* --gpu, or NULL: the arch's default */
	double clock;     /* --clock MHz, or 0: the clock model's */
	Vec(const char *) defs;
	bool json, asm_listing;
	long long sample, top;
	CompileOptions sched; /* kernel graphs: --schedule, --lds-stages, --waves-per-eu, --no-schedule */
	bool sched_given;
	bool sensitivity; /* --sensitivity: each guessed parameter at x0.5 and x1.5 */
	Vec(const char *) sweeps; /* --sweep SYM=V1,V2,... (kernel graphs) */
	Vec(const char *) paths;  /* every input file; more than one: ranked (profile_many) */
} ProfArgs;

/* One guessed parameter's effect on the headline figures (--sensitivity). */
typedef struct {
	int param;               /* TM_PARAMS row */
	double ms[2], util[2];   /* at x0.5 and x1.5 */
} SensRow;

/* What one profile produced, for the printers. */
typedef struct {
	char kernel[256]; /* a copy: the launch descriptor is freed before printing */
	EmuArch arch;
	const TmGpu *gpu;
	TmParams p;
	TmClock clk;
	double useful_flops; /* the graph's mma work (useful_mma_flops); -1: no graph or not known */
	/* the graph's masks the useful work counts: "causal: the mask (select
	 * NAME) keeps 50.0% of the (M, K2) pairs", or why useful_flops is -1
	 * for a graph; "" when none */
	char useful_note[192];
	uint32_t grid[3], wg_items;
	TmOccupancy occ;
	TmCuConfig cfg;
	TmCuResult cu;
	TmEstimate est;
	double footprint;      /* every buffer's bytes once (useful GB/s) */
	double read_footprint; /* the bytes of the buffers the kernel may read: bounds what the caches can hold */
	uint64_t base; /* the lowest pc executed: addresses print relative to it */
	SensRow sens[TM_NPARAMS];
	int nsens;
	/* kernel graphs: the graph op of each TmPc (cu.pcs order) and, for a
	 * loop's back edge, the iterate op of the loop (NULL: unknown) */
	const char **pc_op, **loop_op;
	json_t *ops_doc; /* a descriptor's op table (its strings back pc_op, loop_op) */
} Profile;

static void profile_free(Profile *pr)
{
	tm_cu_result_free(&pr->cu);
	free(pr->pc_op);
	free(pr->loop_op);
	pr->pc_op = pr->loop_op = NULL;
	json_decref(pr->ops_doc);
	pr->ops_doc = NULL;
}

/* --sensitivity: the recorded sample simulated again with each guessed
 * parameter halved and increased by half (the occupancy recomputed, as
 * max_wgs_per_cu is one of them), the time and matrix-core utilisation of
 * each run kept; rows by their spread of time, widest first. */
static const double SENS_SCALE[2] = {0.5, 1.5};

static int by_spread(const void *x, const void *y)
{
	const SensRow *a = x, *b = y;
	double sa = fabs(a->ms[1] - a->ms[0]), sb = fabs(b->ms[1] - b->ms[0]);
	return sa < sb ? 1 : sa > sb ? -1 : a->param - b->param;
}

static void sensitivity(const TmRecorder *rec, uint64_t nwg, const KernelDescriptor *kd, uint32_t lds, uint32_t nwaves,
	const ProfArgs *a, Profile *pr)
{
	double scale[TM_NPARAMS];
	for (int i = 0; i < TM_NPARAMS; i++) {
		if (!tm_param_guessed(i))
			continue;
		SensRow *row = &pr->sens[pr->nsens];
		row->param = i;
		bool ok = true;
		for (int s = 0; s < 2 && ok; s++) {
			for (int j = 0; j < TM_NPARAMS; j++)
				scale[j] = j == i ? SENS_SCALE[s] : 1;
			TmGpu g = *pr->gpu;
			g.param_scale = scale;
			TmOccupancy occ;
			tm_occupancy(&g, kd, lds, nwaves, &occ);
			TmCuConfig cfg;
			TmCuResult cu;
			TmClock clk;
			TmEstimate est;
			char err[256];
			ok = occ.wgs_per_cu > 0 &&
			     tm_profile(&g, rec, nwg, &occ, pr->read_footprint, a->clock, &cfg, &cu, &clk, &est, err, sizeof err) == 0;
			if (ok) {
				row->ms[s] = est.seconds * 1e3;
				row->util[s] = est.matrix_util;
				tm_cu_result_free(&cu);
			}
		}
		pr->nsens += ok;
	}
	qsort(pr->sens, (size_t)pr->nsens, sizeof *pr->sens, by_spread);
}

static const char *arch_name(EmuArch a) { return a == EMU_GFX90A ? "gfx90a" : a == EMU_GFX950 ? "gfx950" : "gfx942"; }

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc profile FILE.json... [-D NAME=VALUE]... [--mcpu CPU] [--gpu NAME] [--clock MHZ]\n"
		   "                      [--sample N] [--top N] [--asm] [--json] [--params] [--sensitivity]\n"
		   "                      [--sweep SYM=V1,V2,...]...\n"
		   "                      [--version] [-h]\n"
		   "                      [compile's schedule options]\n"
		   "  Estimate the kernel's time on a modelled GPU: a sample of workgroups runs on the\n"
		   "  emulator, a cycle model of one compute unit replays them (docs/cycle-model.md), the\n"
		   "  result is scaled to the grid at the clock the GPU would run the kernel at. A model,\n"
		   "  not a measurement: its limits are printed with the figures.\n"
		   "  FILE.json is a launch descriptor or a kernel graph (compiled as `wavecc run` does);\n"
		   "  several files are each profiled alone and ranked, one line each, fastest first.\n"
		   "  -D NAME=VALUE   bind a symbol or a scalar argument (unbound scalars are 1)\n"
		   "  --mcpu CPU      kernel graphs: gfx942 (default), gfx950 or gfx90a\n"
		   "  --gpu NAME      MI300X (the gfx942 default), MI308X, MI325X (gfx942), MI355X (gfx950)\n"
		   "                  or MI250X (one GCD, gfx90a); a kernel graph is compiled for its target\n"
		   "  --clock MHZ     assume this engine clock instead of the clock model's (which falls\n"
		   "                  from the boost clock toward AMD's median clock under dense GEMM as\n"
		   "                  the matrix cores get busier)\n"
		   "  --sample N      simulate N workgroups (at most one CU's share of the grid; default:\n"
		   "                  that share, at most two rounds of its occupancy)\n"
		   "  --top N         hot spots to list (default 12)\n"
		   "  --asm           list every instruction with its issue count and stall cycles\n"
		   "  --json          print the result as JSON\n"
		   "  --params        print the model's parameter table with sources and exit\n"
		   "  --sensitivity   also simulate with each parameter marked guessed or fitted at x0.5 and\n"
		   "                  x1.5 and print how the time and matrix-core utilisation move\n"
		   "  --sweep SYM=V1,V2,...  kernel graphs: profile every combination of the values (several\n"
		   "                  --sweep), one line each, fastest first\n"
		   "  kernel graphs also take compile's --schedule, --lds-stages, --waves-per-eu and\n"
		   "  --no-schedule:\n" OPT_SCHEDULE_USAGE);
}

/* ---- running the sample ---- */

/* Run d on zero-filled buffers with options o; launch_run_memory's result
 * (its messages appended to msg). */
static int run_zeroed(const LaunchDesc *d, const void *code, size_t len, const RunOptions *o, Buf *msg)
{
	Vec(HostBuffer) hb = {0};
	for (size_t i = 0; i < d->nargs; i++) {
		if (d->args[i].kind != LARG_BUFFER)
			continue;
		void *host = calloc(d->args[i].nbytes ? d->args[i].nbytes : 1, 1);
		if (!host)
			die("cannot allocate %llu bytes for buffer '%s'", (unsigned long long)d->args[i].nbytes, d->args[i].name);
		vec_push(&hb, ((HostBuffer){d->args[i].name, host, d->args[i].nbytes}));
	}
	int lr = launch_run_memory(d, code, len, o, hb.data, hb.len, msg);
	for (size_t i = 0; i < hb.len; i++)
		free(hb.data[i].data);
	vec_free(&hb);
	return lr;
}

/* The L2 model needs to know which of the first workgroup's lines its
 * neighbours along x, y and z (the next, or the previous at the edge)
 * share: each neighbour the sample does not hold runs as a probe, its
 * first PROBE_INSTS wave instructions recorded (a prefix tells the
 * classes; a probe that fails or stops early still says what it saw). */
enum { PROBE_INSTS = 200000 };
static void probe_neighbours(const LaunchDesc *d, const void *code, size_t len, const Profile *pr, TmRecorder *rec,
	uint32_t nwaves)
{
	for (int dim = 0; dim < 3; dim++) {
		uint64_t wg;
		if (!tm_recorder_probe_wanted(rec, dim, &wg))
			continue;
		TmRecorder *probe = tm_probe_new(pr->arch, wg, nwaves);
		RunOptions ro = {.backend = BACKEND_EMU, .emu_hook = tm_recorder_hook(probe), .max_instructions = PROBE_INSTS,
				 .policy = {.waves = EMU_WAVES_BARRIER}};
		Buf msg = {0};
		(void)run_zeroed(d, code, len, &ro, &msg);
		buf_free(&msg);
		tm_recorder_attach_probe(rec, dim, probe);
	}
}

/* The L2 model measures how much the workgroups that run at once on one
 * XCD share (tm_round_ids): each runs as a probe of the same prefix. */
static void probe_round(const LaunchDesc *d, const void *code, size_t len, const Profile *pr, TmRecorder *rec,
	uint64_t nwg, uint32_t nwaves)
{
	uint64_t ids[TM_ROUND_PROBES];
	uint64_t n = tm_round_ids(pr->gpu, nwg, pr->occ.wgs_per_cu, ids);
	for (uint64_t i = 0; i < n; i++) {
		TmRecorder *probe = tm_probe_new(pr->arch, ids[i], nwaves);
		RunOptions ro = {.backend = BACKEND_EMU, .emu_hook = tm_recorder_hook(probe),
				 .max_instructions = TM_ROUND_PROBE_INSTS, .policy = {.waves = EMU_WAVES_BARRIER}};
		Buf msg = {0};
		(void)run_zeroed(d, code, len, &ro, &msg);
		buf_free(&msg);
		tm_recorder_attach_round(rec, probe);
	}
}

static int profile_run(const LaunchDesc *d, const void *code, size_t len, const ProfArgs *a, Profile *pr)
{
	CodeObject co;
	Buf msg = {0};
	if (codeobj_read(code, len, d->code_object_path ? d->code_object_path : "kernel.hsaco", &co, &msg) != 0) {
		fprintf(stderr, "wavecc: error: %s\n", buf_cstr(&msg));
		buf_free(&msg);
		return 1;
	}
	const CodeKernel *k = codeobj_kernel(&co, d->kernel);
	if (!k) {
		fprintf(stderr, "wavecc: error: the code object has no kernel '%s'\n", d->kernel);
		codeobj_free(&co);
		return 1;
	}
	snprintf(pr->kernel, sizeof pr->kernel, "%s", d->kernel);
	pr->arch = strcmp(d->arch, "gfx90a") == 0 ? EMU_GFX90A : strcmp(d->arch, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942;
	pr->gpu = a->gpu ? a->gpu : tm_gpu_default(pr->arch);
	if (pr->gpu->arch != pr->arch) {
		codeobj_free(&co);
		usage_err("profile: --gpu %s is a %s; the code object is for %s", pr->gpu->name,
			  arch_name(pr->gpu->arch), d->arch);
	}
	tm_gpu_params(pr->gpu, &pr->p);
	uint64_t nwg = 1;
	for (int i = 0; i < 3; i++) {
		pr->grid[i] = (uint32_t)d->grid[i].value;
		nwg *= pr->grid[i];
	}
	pr->wg_items = d->workgroup_size[0] * d->workgroup_size[1] * d->workgroup_size[2];
	uint32_t nwaves = (pr->wg_items + 63) / 64;
	uint32_t lds = d->lds_bytes > k->kd.group_segment_fixed_size ? d->lds_bytes : k->kd.group_segment_fixed_size;
	tm_occupancy(pr->gpu, &k->kd, lds, nwaves, &pr->occ);
	KernelDescriptor kd = k->kd;
	codeobj_free(&co);
	uint64_t sample = a->sample > 0 ? (uint64_t)a->sample : tm_sample_size(pr->gpu, nwg, pr->occ.wgs_per_cu);
	uint64_t share = tm_sample_size(pr->gpu, nwg, UINT32_MAX / 4); /* the CU's share of the grid */
	if (sample > share)
		sample = share; /* more would put other CUs' workgroups on this one */
	/* the sample spread over the grid (tm_sample_ids): work that varies
	 * across it is sampled over its range */
	uint64_t *ids = xcalloc(sample + 1, sizeof *ids);
	sample = tm_sample_ids(pr->grid, sample, ids);
	TmRecorder *rec = tm_recorder_new_ids(pr->arch, ids, sample, nwaves);
	free(ids);
	tm_recorder_grid(rec, pr->grid[0], pr->grid[1], pr->grid[2]);
	pr->footprint = pr->read_footprint = 0;
	for (size_t i = 0; i < d->nargs; i++)
		if (d->args[i].kind == LARG_BUFFER) {
			pr->footprint += (double)d->args[i].nbytes;
			if (d->args[i].access & ACC_READ)
				pr->read_footprint += (double)d->args[i].nbytes;
		}
	/* The recorder keeps one stream per wave, so the wave order does not
	 * change what a race-free kernel records; run-to-barrier pins the rest
	 * (the first-seen order of the pc table, racy kernels). */
	RunOptions ro = {.backend = BACKEND_EMU, .emu_hook = tm_recorder_hook(rec), .policy = {.waves = EMU_WAVES_BARRIER}};
	int lr = run_zeroed(d, code, len, &ro, &msg);
	if (lr == 0) {
		probe_neighbours(d, code, len, pr, rec, nwaves);
		probe_round(d, code, len, pr, rec, nwg, nwaves);
	}
	int rc = 0;
	if (lr != 0) {
		fputs(buf_cstr(&msg), stderr); /* complete lines (launch.h) */
		rc = 1;
	} else {
		char err[256];
		if (tm_profile(pr->gpu, rec, nwg, &pr->occ, pr->read_footprint, a->clock, &pr->cfg, &pr->cu, &pr->clk, &pr->est,
			    err, sizeof err) != 0) {
			fprintf(stderr, "wavecc: error: %s\n", err);
			rc = 1;
		} else {
			pr->base = UINT64_MAX;
			for (size_t i = 0; i < pr->cu.npcs; i++)
				if (pr->cu.pcs[i].pc < pr->base)
					pr->base = pr->cu.pcs[i].pc;
			if (a->sensitivity)
				sensitivity(rec, nwg, &kd, lds, nwaves, a, pr);
		}
	}
	buf_free(&msg);
	tm_recorder_free(rec);
	return rc;
}

/* Resolve a parsed descriptor with the -D values, unbound scalars as 1. */
static int resolve(LaunchDesc *d, const ProfArgs *a, Diag *diag)
{
	Vec(const char *) defs = {0};
	Vec(char *) owned = {0};
	for (size_t i = 0; i < a->defs.len; i++)
		vec_push(&defs, a->defs.data[i]);
	for (size_t i = 0; i < d->nargs; i++) {
		const LaunchArg *g = &d->args[i];
		if (g->kind != LARG_SCALAR || g->has_value)
			continue;
		bool bound = false;
		size_t n = strlen(g->name);
		for (size_t j = 0; j < a->defs.len; j++)
			bound |= strncmp(a->defs.data[j], g->name, n) == 0 && a->defs.data[j][n] == '=';
		if (!bound) {
			char *s = xmalloc(n + 3);
			snprintf(s, n + 3, "%s=1", g->name);
			vec_push(&owned, s);
			vec_push(&defs, (const char *)s);
		}
	}
	int r = launch_resolve(d, (int)defs.len, defs.data, diag);
	for (size_t i = 0; i < owned.len; i++)
		free(owned.data[i]);
	vec_free(&owned);
	vec_free(&defs);
	return r;
}

/* A descriptor's op table (`ops`, written by `wavecc compile`; docs/
 * launch-format.md): each run's op for the instructions from its offset to
 * the next run's, and a loop named by the iterate owning most of the
 * instructions between its head and back edge, as annotate() does for a
 * graph. Nothing when the table is missing, malformed or hashes other code
 * than the code object's (then a warning): no op is better than a wrong
 * one. */
static void descriptor_ops(const LaunchDesc *d, const char *code, size_t len, Profile *pr)
{
	json_error_t je;
	json_t *doc = json_load_file(d->path, 0, &je), *ops = json_object_get(doc, "ops");
	json_t *runs = json_object_get(ops, "runs"), *jb = json_object_get(ops, "code_bytes");
	const char *hash = json_string_value(json_object_get(ops, "code_fnv1a"));
	CodeObject co;
	Buf msg = {0};
	bool ok = json_is_array(runs) && json_array_size(runs) > 0 && json_is_integer(jb) && hash &&
		  codeobj_read((const uint8_t *)code, len, d->code_object_path, &co, &msg) == 0;
	buf_free(&msg);
	if (!ops || !ok) {
		if (ops)
			fprintf(stderr, "wavecc: warning: %s: ops: not a table of this code object; no ops named\n", d->path);
		json_decref(doc);
		return;
	}
	const CodeKernel *ck = codeobj_kernel(&co, d->kernel);
	json_int_t bytes = json_integer_value(jb);
	char want[17] = "";
	if (ck && ck->entry_vaddr >= co.base && bytes >= 0 && ck->entry_vaddr - co.base <= co.image_size &&
		(uint64_t)bytes <= co.image_size - (ck->entry_vaddr - co.base))
		snprintf(want, sizeof want, "%016llx",
			(unsigned long long)code_fnv1a(co.image + (ck->entry_vaddr - co.base), (size_t)bytes));
	codeobj_free(&co);
	size_t n = json_array_size(runs);
	uint64_t prev = 0;
	for (size_t j = 0; j < n && want[0]; j++) { /* [offset, op or null, iterate or null], offsets ascending */
		json_t *e = json_array_get(runs, j), *o = json_array_get(e, 0);
		json_t *op = json_array_get(e, 1), *it = json_array_get(e, 2);
		if (!json_is_array(e) || !json_is_integer(o) || json_integer_value(o) < 0 ||
			(j && (uint64_t)json_integer_value(o) <= prev) || !(json_is_string(op) || json_is_null(op)) ||
			!(json_is_string(it) || json_is_null(it)))
			want[0] = 0;
		else
			prev = (uint64_t)json_integer_value(o);
	}
	if (!want[0] || strcmp(want, hash) != 0) {
		fprintf(stderr, "wavecc: warning: %s: ops: not a table of this code object; no ops named\n", d->path);
		json_decref(doc);
		return;
	}
	size_t np = pr->cu.npcs;
	pr->ops_doc = doc;
	pr->pc_op = xcalloc(np + 1, sizeof *pr->pc_op);
	pr->loop_op = xcalloc(np + 1, sizeof *pr->loop_op);
	const char **pc_it = xcalloc(np + 1, sizeof *pc_it);
	for (size_t i = 0; i < np; i++) {
		uint64_t off = pr->cu.pcs[i].pc - pr->base;
		for (size_t j = n; j-- > 0;) {
			json_t *e = json_array_get(runs, j);
			if ((uint64_t)json_integer_value(json_array_get(e, 0)) <= off) {
				pr->pc_op[i] = json_string_value(json_array_get(e, 1));
				pc_it[i] = json_string_value(json_array_get(e, 2));
				break;
			}
		}
	}
	for (size_t i = 0; i < np; i++) { /* a back edge: the iterate most instructions of its loop belong to */
		const TmPc *p = &pr->cu.pcs[i];
		if (!p->loop_intervals || p->loop_target > p->pc)
			continue;
		const char *best = NULL;
		int best_n = 0;
		for (size_t j = 0; j < np; j++) {
			int votes = 0;
			if (!pc_it[j] || pr->cu.pcs[j].pc < p->loop_target || pr->cu.pcs[j].pc > p->pc)
				continue;
			for (size_t m = 0; m < np; m++)
				votes += pc_it[m] && strcmp(pc_it[m], pc_it[j]) == 0 && pr->cu.pcs[m].pc >= p->loop_target &&
					 pr->cu.pcs[m].pc <= p->pc;
			if (votes > best_n)
				best_n = votes, best = pc_it[j];
		}
		pr->loop_op[i] = best;
	}
	free(pc_it);
}

static int profile_descriptor(const ProfArgs *a, Profile *pr)
{
	LaunchDesc d;
	Diag diag;
	diag_init(&diag);
	int rc = 1;
	if (launch_parse_file(a->path, &d, &diag) != 0) {
		launch_free(&d);
		return 1;
	}
	Buf um = {0}, warn = {0};
	if (!launch_check_defines(&d, a->path, (int)a->defs.len, a->defs.data, false, &um, &warn)) {
		char m[1024];
		snprintf(m, sizeof m, "%s", buf_cstr(&um));
		buf_free(&um);
		buf_free(&warn);
		launch_free(&d);
		usage_err("profile: %s", m);
	}
	for (const char *w = buf_cstr(&warn), *nl; *w; w = nl + 1) {
		nl = strchr(w, '\n');
		fprintf(stderr, "wavecc: warning: %.*s\n", (int)(nl - w), w);
	}
	buf_free(&um);
	buf_free(&warn);
	if (resolve(&d, a, &diag) != 0) {
		launch_free(&d);
		return 1;
	}
	size_t len;
	char *code = read_file_max(d.code_object_path, LAUNCH_MAX_CODE_OBJECT_BYTES, &len);
	if (code) {
		rc = profile_run(&d, code, len, a, pr);
		if (rc == 0)
			descriptor_ops(&d, code, len, pr);
	} else {
		Buf m = {0};
		launch_msg(&m, d.code_object_loc, "code_object", "%s: cannot read: %s", d.code_object_path,
			file_strerror(errno));
		fputs(buf_cstr(&m), stderr);
		buf_free(&m);
	}
	free(code);
	launch_free(&d);
	return rc;
}

/* ---- useful work: the graph's mma ops, masked pairs left out ----
 * An mma op counts 2 x its accumulator's elements x the extent of the dims
 * its lhs reduces (kernel_mma_flops), at the bound symbol values. Inside
 * an iterate over K, a `select` whose if_false is a large negative constant
 * (at most MASK_NEG: Wave's -1e6 bias, -inf) masks the scores of the pairs
 * (d, k) its condition rejects: their exp is 0, they add nothing (causal
 * attention's pairs above the diagonal). Its condition is evaluated on the
 * pairs of a lattice of at most MASK_LATTICE^2 points of (D, K) (every
 * pair when both sizes are within it), as a tree of compares, and_/or_,
 * add/sub/mul, casts and shape ops over self_index of K and of one other
 * dim D, constants and apply_expr; the share it keeps scales each mma of
 * the loop whose operands hold both D and K. A mask whose condition is
 * anything else (a runtime scalar, a third dim, a loaded value) cannot be
 * counted: the useful work is then not known, and the profile prints the
 * MFMAs' work labelled as the padded figure. */
enum { MASK_LATTICE = 512, MASK_DEPTH = 64 };
#define MASK_NEG (-1e4)

typedef struct MaskEval {
	Kernel *k;
	const Sym *kdim, *ddim; /* the loop's axis; the other dim the condition reads (NULL: none yet) */
	int64_t m, kk;          /* the pair being evaluated */
} MaskEval;

static bool mask_int(Kernel *k, Sym *e, int64_t *v) { return e && sym_is_int(kernel_subs(k, e), v); }

/* v's value at the pair (x->m, x->kk); false when it cannot be known. */
static bool mask_value(MaskEval *x, const Value *v, double *out, int depth)
{
	if (!v || v->kind != VAL_RESULT || depth > MASK_DEPTH)
		return false;
	const Op *op = v->def;
	double a, b;
	switch (op->kind) {
	case OP_SELF_INDEX:
		if (op->dim == x->kdim)
			return *out = (double)x->kk, true;
		if (!x->ddim)
			x->ddim = op->dim;
		if (op->dim != x->ddim)
			return false; /* a third dim */
		return *out = (double)x->m, true;
	case OP_REGISTER:
		return *out = op->value, true;
	case OP_SCALAR: {
		int64_t i;
		if (op->sarg)
			return false; /* given at launch */
		if (!op->expr)
			return *out = op->value, true;
		return mask_int(x->k, op->expr, &i) && (*out = (double)i, true);
	}
	case OP_CAST:
	case OP_BROADCAST:
	case OP_PERMUTE:
		return op->nargs >= 1 && mask_value(x, op->args[0], out, depth + 1);
	case OP_NEG:
		return op->nargs >= 1 && mask_value(x, op->args[0], &a, depth + 1) && (*out = -a, true);
	case OP_APPLY_EXPR: {
		enum { MAXP = 4 };
		if (op->nparams < 1 || op->nparams > MAXP || op->nargs != op->nparams || !op->expr)
			return false;
		int64_t val[MAXP];
		for (int i = 0; i < op->nparams; i++) {
			if (!mask_value(x, op->args[i], &a, depth + 1) || a != floor(a) || fabs(a) > 9e15)
				return false;
			val[i] = (int64_t)a;
		}
		SymRat r;
		const char *why;
		if (sym_eval(x->k->sc, kernel_subs(x->k, op->expr), op->nparams, op->params, val, &r, &why) != 0 || !r.q)
			return false;
		return *out = (double)r.p / (double)r.q, true;
	}
	default:
		break;
	}
	if (op->nargs != 2 || !mask_value(x, op->args[0], &a, depth + 1) || !mask_value(x, op->args[1], &b, depth + 1))
		return false;
	switch (op->kind) {
	case OP_ADD: *out = a + b; return true;
	case OP_SUB: *out = a - b; return true;
	case OP_MUL: *out = a * b; return true;
	case OP_MINIMUM: *out = fmin(a, b); return true;
	case OP_MAXIMUM: *out = fmax(a, b); return true;
	case OP_LT: *out = a < b; return true;
	case OP_LE: *out = a <= b; return true;
	case OP_GT: *out = a > b; return true;
	case OP_GE: *out = a >= b; return true;
	case OP_EQ: *out = a == b; return true;
	case OP_NE: *out = a != b; return true;
	case OP_AND: *out = a != 0 && b != 0; return true;
	case OP_OR: *out = a != 0 || b != 0; return true;
	default: return false;
	}
}

/* The constant a register, through casts and shape ops, holds; false when
 * v is not one. */
static bool mask_const(const Value *v, double *out)
{
	for (int i = 0; v && v->kind == VAL_RESULT && i < MASK_DEPTH; i++) {
		const Op *op = v->def;
		if (op->kind == OP_REGISTER)
			return *out = op->value, true;
		if ((op->kind != OP_CAST && op->kind != OP_BROADCAST && op->kind != OP_PERMUTE) || op->nargs < 1)
			return false;
		v = op->args[0];
	}
	return false;
}

static int64_t dim_size(Kernel *k, const Sym *d)
{
	int64_t v;
	return mask_int(k, (Sym *)d, &v) && v > 0 ? v : -1;
}

/* The share of the (D, K) pairs select `sel`'s condition keeps in a loop
 * over `axis`, and D in *ddim; -1 when it cannot be known. */
static double mask_share(Kernel *k, const Op *sel, const Sym *axis, const Sym **ddim)
{
	MaskEval x = {.k = k, .kdim = axis};
	double c;
	if (!mask_value(&x, sel->args[0], &c, 0)) /* finds D (at the pair 0, 0) */
		return -1;
	int64_t nk = dim_size(k, axis), nd = x.ddim ? dim_size(k, x.ddim) : 1;
	if (nk <= 0 || nd <= 0)
		return -1;
	int64_t sd = nd < MASK_LATTICE ? nd : MASK_LATTICE, sk = nk < MASK_LATTICE ? nk : MASK_LATTICE;
	double kept = 0;
	for (int64_t i = 0; i < sd; i++)
		for (int64_t j = 0; j < sk; j++) {
			x.m = sd == nd ? i : (int64_t)(((double)i + 0.5) * (double)nd / (double)sd);
			x.kk = sk == nk ? j : (int64_t)(((double)j + 0.5) * (double)nk / (double)sk);
			if (!mask_value(&x, sel->args[0], &c, 0))
				return -1;
			kept += c != 0;
		}
	*ddim = x.ddim;
	return kept / ((double)sd * (double)sk);
}

static bool shape_has(Shape s, const Sym *d) { return d && shape_find(s, d) >= 0; }

/* The mma work of the ops of region r (and its loops), masks of the
 * enclosing loops applied: share[i] of the pairs (dd[i], kd[i]) for the
 * n masks around. -1 when a dim has no value or a mask cannot be counted
 * (its select named in note). */
enum { MASK_NEST = 8 };
static double region_flops(Kernel *k, const Region *r, int n, const double *share, const Sym *const *dd,
	const Sym *const *kd, char *note, size_t nlen)
{
	double flops = 0;
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->body && op->kind != OP_ITERATE) { /* a conditional's ops: the same masks */
			double f = region_flops(k, op->body, n, share, dd, kd, note, nlen);
			if (f < 0)
				return -1;
			flops += f;
			continue;
		}
		if (op->kind == OP_ITERATE && op->body) {
			double sh[MASK_NEST];
			const Sym *d2[MASK_NEST], *k2[MASK_NEST];
			int m = n;
			memcpy(sh, share, sizeof *sh * (size_t)n);
			memcpy(d2, dd, sizeof *d2 * (size_t)n);
			memcpy(k2, kd, sizeof *k2 * (size_t)n);
			for (size_t j = 0; j < op->body->ops.len && m < MASK_NEST; j++) {
				const Op *s = op->body->ops.data[j];
				double neg;
				if (s->kind != OP_SELECT || s->nargs < 3 || !mask_const(s->args[2], &neg) || !(neg <= MASK_NEG))
					continue;
				const Sym *ddim = NULL;
				double f = mask_share(k, s, op->dim, &ddim);
				if (f < 0) {
					snprintf(note, nlen, "the mask of select %s in iterate %s could not be counted", s->name,
						op->name);
					return -1;
				}
				if (!ddim || f >= 1)
					continue; /* keeps every pair of the loop's range (a bound check) */
				snprintf(note, nlen, "the mask of select %s keeps %.1f%% of the (%s, %s) pairs of iterate %s", s->name,
					100 * f, sym_name(ddim), sym_name(op->dim), op->name);
				sh[m] = f, d2[m] = ddim, k2[m++] = op->dim;
			}
			double f = region_flops(k, op->body, m, sh, d2, k2, note, nlen);
			if (f < 0)
				return -1;
			flops += f;
			continue;
		}
		bool scaled = op->kind == OP_SCALED_MMA;
		if ((op->kind != OP_MMA || op->nargs < 3) && (!scaled || op->nargs < 5))
			continue;
		Shape acc = op->args[scaled ? 4 : 2]->shape, lhs = op->args[0]->shape, rhs = op->args[scaled ? 2 : 1]->shape;
		double out = 1, red = 1;
		for (int j = 0; j < acc.rank; j++) {
			int64_t v = dim_size(k, acc.dims[j]);
			if (v < 0)
				return -1;
			out *= (double)v;
		}
		for (int j = 0; j < lhs.rank; j++) {
			if (shape_has(acc, lhs.dims[j]))
				continue;
			int64_t v = dim_size(k, lhs.dims[j]);
			if (v < 0)
				return -1;
			red *= (double)v;
		}
		double f = 2 * out * red;
		for (int j = 0; j < n; j++) {
			bool hd = shape_has(acc, dd[j]) || shape_has(lhs, dd[j]) || shape_has(rhs, dd[j]);
			bool hk = shape_has(acc, kd[j]) || shape_has(lhs, kd[j]) || shape_has(rhs, kd[j]);
			if (hd && hk)
				f *= share[j];
		}
		flops += f;
	}
	return flops;
}

/* The graph's useful mma work at the -D values (region_flops over the
 * kernel body), -1 when a dim has no value or a mask cannot be counted.
 * Bindings the compile rejects (unknown symbols, aliases) are left to it
 * to report. */
static double useful_flops(const Kernel *k, const ProfArgs *a, Diag *d, char *note, size_t nlen)
{
	const char *name[MAX_DEFS];
	int64_t val[MAX_DEFS];
	int n = 0;
	for (size_t i = 0; i < a->defs.len && n < MAX_DEFS; i++) {
		const char *def = a->defs.data[i], *eq = strchr(def, '=');
		const char *s = intern_n(def, (size_t)(eq - def));
		bool scalar = false;
		for (size_t j = 0; j < k->scalar_args.len; j++)
			scalar |= k->scalar_args.data[j]->name == s;
		const KSymbol *ks = kernel_symbol(k, s);
		if (scalar || !ks || (ks->kind != SYMK_VALUE && ks->kind != SYMK_DYNAMIC))
			continue;
		name[n] = s;
		val[n++] = opt_int("-D", eq + 1);
	}
	Kernel *v = subst_bound_view(k, n, name, val, d);
	note[0] = 0;
	double sh[MASK_NEST] = {0};
	const Sym *dd[MASK_NEST] = {0}, *kd[MASK_NEST] = {0};
	double f = v ? region_flops(v, v->body, 0, sh, dd, kd, note, nlen) : -1;
	if (v && f < 0 && !note[0])
		snprintf(note, nlen, "a dim of an mma has no value");
	kernel_view_free(v);
	return f;
}

/* The command line's -D against a kernel graph, before anything is
 * compiled, as run K.json checks them: a scalar argument's value must be
 * what its dtype holds, any other -D an integer naming a symbol of the
 * kernel, and every dynamic symbol needs one; else a usage error (exit 2,
 * one message). */
static void check_graph_defines(const ProfArgs *a, Kernel *k)
{
	char msg[512] = "";
	for (size_t i = 0; i < a->defs.len && !msg[0]; i++) {
		const char *def = a->defs.data[i], *eq = strchr(def, '=');
		const char *name = intern_n(def, (size_t)(eq - def));
		const Op *s = compile_scalar_def(k, def);
		char err[256];
		if (s) {
			uint64_t cell = 0;
			InterpArg ia = {.name = name, .dtype = op_result(s)->dtype, .data = &cell};
			if (interp_set_scalar(&ia, eq + 1, err, sizeof err) != 0)
				snprintf(msg, sizeof msg, "-D %s", err);
		} else if (!kernel_symbol(k, name)) {
			snprintf(msg, sizeof msg, "-D %s: kernel %s has no symbol of that name", name, k->name);
		} else {
			(void)opt_int("-D", eq + 1);
		}
	}
	for (size_t j = 0; j < k->dyn_syms.len && !msg[0]; j++) {
		const char *name = sym_name(k->dyn_syms.data[j]);
		bool bound = false;
		for (size_t i = 0; i < a->defs.len; i++)
			bound |= intern_n(a->defs.data[i], (size_t)(strchr(a->defs.data[i], '=') - a->defs.data[i])) == name;
		if (!bound)
			snprintf(msg, sizeof msg, "dynamic symbol %s of kernel %s needs a value: -D %s=VAL", name, k->name, name);
	}
	if (msg[0]) {
		kernel_free(k);
		usage_err("profile: %s", msg);
	}
}

/* The graph op of each executed instruction (the assembly's op comments
 * paired with the code, loader/timing/source.c) and the iterate op of each
 * loop: the innermost iterate owning most of the ops between the loop's
 * head and its back edge. Nothing when the two do not line up. */
static void annotate(Profile *pr, const Compile *c, const Kernel *k, const char *kernel)
{
	CodeObject co;
	Buf msg = {0};
	int ok = codeobj_read(c->code_object.data, c->code_object.len, "kernel.hsaco", &co, &msg);
	buf_free(&msg);
	if (ok != 0)
		return;
	const CodeKernel *ck = codeobj_kernel(&co, kernel);
	TmSourceMap map;
	if (!ck || ck->entry_vaddr < co.base || ck->entry_vaddr - co.base >= co.image_size ||
		tm_source_map(pr->arch, co.image + (ck->entry_vaddr - co.base), co.image_size - (ck->entry_vaddr - co.base),
			c->asm_text.data, c->asm_text.len, kernel, &map) != 0) {
		codeobj_free(&co);
		return;
	}
	codeobj_free(&co);
	size_t n = pr->cu.npcs;
	pr->pc_op = xcalloc(n + 1, sizeof *pr->pc_op);
	pr->loop_op = xcalloc(n + 1, sizeof *pr->loop_op);
	for (size_t i = 0; i < n; i++)
		pr->pc_op[i] = tm_source_op(&map, pr->cu.pcs[i].pc - pr->base);
	for (size_t i = 0; i < n; i++) {
		const TmPc *p = &pr->cu.pcs[i];
		if (!p->loop_intervals || p->loop_target > p->pc)
			continue;
		const char *best = NULL;
		int best_n = 0;
		Vec(const char *) names = {0};
		Vec(int) votes = {0};
		for (size_t j = 0; j < map.n; j++) {
			uint64_t at = map.offset[j] + pr->base;
			if (at < p->loop_target || at > p->pc || !map.op[j])
				continue;
			const Op *owner = NULL;
			for (size_t o = 0; o < k->op_list.len && !owner; o++) {
				const Op *op = k->op_list.data[o];
				if (op && op->name && strcmp(op->name, map.op[j]) == 0)
					owner = op->parent && op->parent->owner ? op->parent->owner : NULL;
			}
			if (!owner || !owner->name)
				continue;
			size_t v = 0;
			while (v < names.len && names.data[v] != owner->name)
				v++;
			if (v == names.len) {
				vec_push(&names, owner->name);
				vec_push(&votes, 0);
			}
			if (++votes.data[v] > best_n)
				best_n = votes.data[v], best = owner->name;
		}
		pr->loop_op[i] = best;
		vec_free(&names);
		vec_free(&votes);
	}
	tm_source_map_free(&map);
}

static int profile_graph(const ProfArgs *a, Profile *pr)
{
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(a->path, &d);
	if (!k)
		return 1;
	check_graph_defines(a, k);
	CompileOptions co = {0};
	co.mcpu = a->mcpu ? a->mcpu : a->gpu ? arch_name(a->gpu->arch) : "gfx942";
	co.code_object = "kernel.hsaco";
	co.schedule = a->sched.schedule;
	co.lds_stages = a->sched.lds_stages;
	co.waves_per_eu = a->sched.waves_per_eu;
	co.interleave = a->sched.interleave;
	co.no_schedule = a->sched.no_schedule;
	for (size_t i = 0; i < a->defs.len; i++) {
		const char *def = a->defs.data[i], *eq = strchr(def, '=');
		const char *name = intern_n(def, (size_t)(eq - def));
		bool skip = false; /* scalars and dynamic symbols are launch values */
		for (size_t j = 0; j < k->scalar_args.len; j++)
			skip |= k->scalar_args.data[j]->name == name;
		for (size_t j = 0; j < k->dyn_syms.len; j++)
			skip |= sym_name(k->dyn_syms.data[j]) == name;
		if (skip)
			continue;
		if (co.ndefs == MAX_DEFS)
			usage_err("profile: at most %d -D options", MAX_DEFS);
		co.def_name[co.ndefs] = name;
		co.def_val[co.ndefs++] = opt_int("-D", eq + 1);
	}
	pr->useful_flops = useful_flops(k, a, &d, pr->useful_note, sizeof pr->useful_note);
	Compile c;
	compile_init(&c, k, &co, &d);
	int rc = 1;
	if (compile_run(&c) == 0) {
		LaunchDesc ld;
		Diag ldd;
		diag_init(&ldd);
		if (launch_parse(c.launch_json.data, c.launch_json.len, "kernel.launch.json", &ld, &ldd) == 0 &&
			resolve(&ld, a, &ldd) == 0)
			rc = profile_run(&ld, c.code_object.data, c.code_object.len, a, pr);
		if (rc == 0)
			annotate(pr, &c, k, ld.kernel);
		launch_free(&ld);
	}
	compile_free(&c);
	kernel_free(k);
	return rc;
}

/* ---- printing ---- */

static uint64_t stall_total(const TmPc *p)
{
	uint64_t t = 0;
	for (int r = 0; r < TM_NREASONS; r++)
		t += p->stall[r];
	return t;
}

static int by_stall(const void *x, const void *y)
{
	uint64_t a = stall_total(*(TmPc *const *)x), b = stall_total(*(TmPc *const *)y);
	return a < b ? 1 : a > b ? -1 : 0;
}

static int by_pc(const void *x, const void *y)
{
	uint64_t a = ((const TmPc *)x)->pc, b = ((const TmPc *)y)->pc;
	return a < b ? -1 : a > b;
}

/* The matrix peak at the boost clock, FLOP/s, of the kernel's MFMA data
 * types, each against its own (tm_cu_mfma_peak: an int8 GEMM against the
 * i8 peak, twice the f16 one on CDNA3), weighted by their busy cycles;
 * without MFMAs the f16 peak. Per CU and clock these are AMD's data
 * sheets' dense peaks (f16 1024 on CDNA2, 2048 on CDNA3, 4096 on CDNA4). */
static double chip_peak(const Profile *pr)
{
	double per = tm_cu_mfma_peak(pr->arch, &pr->cu);
	if (per <= 0)
		per = tm_dtype_peak(pr->arch, TM_DT_F16);
	return per * pr->p.cus * pr->p.clock_mhz * 1e6;
}

/* The peak's name: the data type, "mixed" for several. */
static const char *peak_name(const Profile *pr)
{
	return pr->clk.dtype < 0 ? "f16" : pr->clk.mixed ? "mixed-type" : tm_dtype_name[pr->clk.dtype];
}

/* The useful FLOP/s (the graph's mma work; without a graph, the MFMAs'). */
static double useful_tflops(const Profile *pr)
{
	if (pr->useful_flops < 0 || pr->est.seconds <= 0)
		return pr->est.tflops;
	return pr->useful_flops / pr->est.seconds / 1e12;
}

/* Every buffer's bytes once over the time, GB/s. */
static double useful_gbps(const Profile *pr)
{
	return pr->est.seconds > 0 ? pr->footprint / pr->est.seconds / 1e9 : 0;
}

/* Do the useful and the MFMA work differ (by more than rounding)? */
static bool padded(const Profile *pr)
{
	double u = useful_tflops(pr), m = pr->est.tflops;
	return pr->useful_flops >= 0 && fabs(u - m) > 1e-6 * (m > u ? m : u);
}

/* Why the clock is what it is, one sentence. */
static void clock_why(const Profile *pr, char *buf, size_t len)
{
	const TmClock *c = &pr->clk;
	if (c->forced) {
		snprintf(buf, len, "given by --clock");
		return;
	}
	if (c->dtype < 0) {
		snprintf(buf, len, "model: no MFMA work, so the %s's %.0f MHz boost clock", pr->gpu->name, c->boost_mhz);
		return;
	}
	const char *dt = tm_dtype_name[c->dtype];
	char full[160];
	if (pr->gpu->clock_note)
		snprintf(full, sizeof full, "%s", pr->gpu->clock_note);
	else if (c->mixed)
		snprintf(full, sizeof full, "AMD's median clocks under dense GEMM on %s of the types, by their busy cycles",
			 pr->gpu->name);
	else if (c->dtype == TM_DT_F16 || c->dtype == TM_DT_BF16 || c->dtype == TM_DT_FP8)
		snprintf(full, sizeof full, "AMD's median clock under dense %s GEMM on %s", dt, pr->gpu->name);
	else
		snprintf(full, sizeof full, "guessed: the %s median clock, none published for %s",
			 c->dtype == TM_DT_I8 ? "fp8" : "f16", dt);
	snprintf(buf, len,
		 "model: %s%s MFMAs at %.1f%% matrix-core duty, between the %.0f MHz boost clock at duty 0 and %.0f MHz at "
		 "full duty (%s); --clock overrides",
		 c->mixed ? "mostly " : "", dt, 100 * c->duty, c->boost_mhz, c->full_mhz, full);
}

/* The grid against the GPU: rounds of the CUs' occupancy it fills, and
 * how full the last round leaves the machine. */
static void grid_fill(const Profile *pr, char *buf, size_t len)
{
	double cus = pr->p.cus, occ = pr->occ.wgs_per_cu ? pr->occ.wgs_per_cu : 1, slots = cus * occ;
	double wgs = (double)pr->est.grid_wgs, rounds = wgs / slots, whole = ceil(rounds);
	int n = snprintf(buf, len, "%llu workgroups on %.0f CUs at %.0f per CU: %.2f round%s, %.0f%% of the slots filled",
		(unsigned long long)pr->est.grid_wgs, cus, occ, rounds, rounds == 1 ? "" : "s",
		whole > 0 ? 100 * wgs / (whole * slots) : 0);
	if (wgs < cus && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %.0f of the %.0f CUs get no workgroup", cus - wgs, cus);
	const TmTail *t = &pr->est.tail;
	if (t->wgs && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			"; last round on %llu CUs (HBM share %.1f bytes a clock, the full rounds' %.1f): %.0f cycles less",
			(unsigned long long)t->cus, t->hbm_bytes_per_clk, pr->cfg.hbm_bytes_per_clk, t->cycles_saved);
}

/* What bounds the kernel, by the first test that holds: a grid that
 * leaves more than half of the CUs without a workgroup; the matrix core
 * busy at least 85% of the time; an issue class taking 80% of the SIMDs'
 * turns; HBM, the Infinity Cache, L2 or LDS moving at least 85% of the
 * bytes per clock the CU gets; a grid that fills half of the slots or less; else waiting, named
 * by the stall reason with the most cycles. */
static const char *verdict(const Profile *pr, char *buf, size_t len)
{
	const TmCuResult *cu = &pr->cu;
	double cyc = cu->cycles ? (double)cu->cycles : 1, turns = pr->p.simds * cyc / pr->p.issue_period;
	if ((double)pr->est.grid_wgs <= 0.5 * pr->p.cus) {
		snprintf(buf, len, "grid fill (%llu workgroups: %.0f of the %.0f CUs idle)",
			(unsigned long long)pr->est.grid_wgs, pr->p.cus - (double)pr->est.grid_wgs, pr->p.cus);
		return buf;
	}
	if (pr->est.matrix_util >= 0.85) {
		snprintf(buf, len, "matrix core (busy %.1f%%)", 100 * pr->est.matrix_util);
		return buf;
	}
	for (int c = 0; c < TM_NCAT; c++)
		if (c != TM_MFMA && (double)cu->issued[c] / turns >= 0.8) {
			snprintf(buf, len, "%s issue (%.1f%% of the SIMDs' turns)", tm_cat_name[c],
				100.0 * (double)cu->issued[c] / turns);
			return buf;
		}
	double hbm = (double)cu->bytes_hbm / cyc, l2 = (double)cu->bytes_l2 / cyc, lds = (double)cu->bytes_lds / cyc;
	if (pr->cfg.hbm_bytes_per_clk > 0 && hbm >= 0.85 * pr->cfg.hbm_bytes_per_clk) {
		snprintf(buf, len, "HBM bandwidth (%.2f of the CU's %.2f bytes per clock)", hbm, pr->cfg.hbm_bytes_per_clk);
		return buf;
	}
	double mall = (double)cu->bytes_mall / cyc;
	if (pr->cfg.mall_bytes_per_clk > 0 && mall >= 0.85 * pr->cfg.mall_bytes_per_clk) {
		snprintf(buf, len, "Infinity Cache bandwidth (%.2f of the CU's %.2f bytes per clock)", mall,
			pr->cfg.mall_bytes_per_clk);
		return buf;
	}
	if (pr->cfg.l2_bytes_per_clk > 0 && l2 >= 0.85 * pr->cfg.l2_bytes_per_clk) {
		snprintf(buf, len, "L2 bandwidth (%.1f of the CU's %.1f bytes per clock)", l2, pr->cfg.l2_bytes_per_clk);
		return buf;
	}
	if (lds >= 0.85 * pr->p.lds_bytes_per_clk) {
		snprintf(buf, len, "LDS bandwidth (%.1f of %.0f bytes per clock)", lds, pr->p.lds_bytes_per_clk);
		return buf;
	}
	double slots = pr->p.cus * (pr->occ.wgs_per_cu ? pr->occ.wgs_per_cu : 1);
	if ((double)pr->est.grid_wgs <= 0.5 * slots) {
		snprintf(buf, len, "grid fill (%llu workgroups for %.0f slots)", (unsigned long long)pr->est.grid_wgs,
			slots);
		return buf;
	}
	uint64_t by[TM_NREASONS] = {0}, total = 0;
	for (size_t i = 0; i < cu->npcs; i++)
		for (int r = 0; r < TM_NREASONS; r++) {
			by[r] += cu->pcs[i].stall[r];
			total += cu->pcs[i].stall[r];
		}
	int worst = 0;
	for (int r = 1; r < TM_NREASONS; r++)
		if (by[r] > by[worst])
			worst = r;
	snprintf(buf, len, "waits and latency (most stall cycles: %s, %.0f%% of them; occupancy %u workgroups per CU, "
			   "limit %s)",
		tm_reason_name[worst], total ? 100.0 * (double)by[worst] / (double)total : 0, pr->occ.wgs_per_cu,
		pr->occ.limit);
	return buf;
}

static const char *LIMITS =
	"model limits: one CU is simulated and all CUs assumed alike; HBM, Infinity Cache and L2 bandwidth split evenly; "
	"L2 and Infinity Cache hits from the workgroups' placement on the XCDs, the lines one XCD's first round of "
	"workgroups share (probed) and the grid dims each line depends on (one workgroup's neighbours), not simulated "
	"other CUs; no TLB, DRAM page or channel effects; instruction fetch "
	"not modelled; the launch overhead and the clock's fall with matrix-core duty are fitted to AMD-measured GEMMs, "
	"the full-duty clock is AMD's median under dense GEMM; latencies calibrated to published pointer chases, other "
	"figures marked guessed in the parameter table (wavecc profile --params)";

/* The wave order the figures rest on (docs/emulator.md, "The modes"):
 * the emulator runs the sample functionally in its `barrier` order (what
 * each wave executes: the same streams in every order for a race-free
 * kernel), and the CU model issues them by its own arbiter in time; it
 * does not replay the emulator's `interleave` round-robin, which has no
 * time in it; the emulator can take the model's (--wave-order model). */
static const char *WAVE_ORDER =
	"wave order: the sample ran on the emulator with each wave to its next s_barrier in turn (its barrier order: "
	"what each wave executes, the same in every order for a race-free kernel); the CU model issues those streams in "
	"its own order in time (each SIMD every 4th clock, highest s_setprio then oldest wave first, one instruction per "
	"wave and unit), not the emulator's round-robin interleave; wavecc run --wave-order model runs the emulator in "
	"this model's issue order";

/* " (±8.6%, worst ±18.8%)": the calibration's error band, or a note that
 * none was measured on this arch. */
static void band_str(const Profile *pr, char *buf, size_t len)
{
	double med, worst;
	if (tm_band(pr->arch, &med, &worst))
		snprintf(buf, len, " (±%.0f%%, worst ±%.0f%%)", 100 * med, 100 * worst);
	else
		snprintf(buf, len, " (error unknown)");
}

static void band_line(const Profile *pr)
{
	double med, worst;
	if (tm_band(pr->arch, &med, &worst))
		printf("error band: ±%.1f%% median, ±%.1f%% worst: the model against AMD-measured times of held-out GEMMs on "
		       "MI300X, MI308X and MI355X (make bench-calibrate; docs/cycle-model.md); other kernel classes are not "
		       "checked by it\n", 100 * med, 100 * worst);
	else
		printf("error band: unknown on %s: no measured kernel of this target checks the model\n", arch_name(pr->arch));
}

/* The L2 and Infinity Cache model's view of the grid's traffic. */
static void caches_line(const Profile *pr)
{
	const TmCuConfig *c = &pr->cfg;
	double xcds = round(pr->p.cus / pr->p.cus_per_l2);
	printf("caches (whole grid, workgroups round-robin over %.0f L2%s of %g MiB): %.1f MB first touches per CU's sample "
	       "scaled, %.0f%% of them miss L2 (%.1f MB)",
	       xcds, xcds == 1 ? "" : "s", pr->gpu->l2_mib, c->first_touch_bytes / 1e6, 100 * c->l2_miss_fraction,
	       c->l2_miss_bytes / 1e6);
	if (pr->p.mall_mib > 0)
		printf(", %.1f MB of those miss the %g MiB Infinity Cache and read HBM\n", c->hbm_read_bytes / 1e6,
		       pr->p.mall_mib);
	else
		printf(" and read HBM\n");
}

/* Stall cycles and issued instructions summed by graph op, most stalls
 * first; the count of ops (0 without an op map). The caller frees *t. */
typedef struct OpTotal {
	const char *op;
	uint64_t stalls, issued;
} OpTotal;

static int by_stalls(const void *x, const void *y)
{
	const OpTotal *a = x, *b = y;
	return a->stalls < b->stalls ? 1 : a->stalls > b->stalls ? -1 : strcmp(a->op, b->op);
}

static size_t op_totals(const Profile *pr, OpTotal **t)
{
	*t = NULL;
	if (!pr->pc_op)
		return 0;
	const TmCuResult *cu = &pr->cu;
	Vec(OpTotal) v = {0};
	for (size_t i = 0; i < cu->npcs; i++) {
		const char *op = pr->pc_op[i] ? pr->pc_op[i] : "(no op)";
		size_t k = 0;
		while (k < v.len && strcmp(v.data[k].op, op) != 0)
			k++;
		if (k == v.len)
			vec_push(&v, ((OpTotal){op, 0, 0}));
		v.data[k].stalls += stall_total(&cu->pcs[i]);
		v.data[k].issued += cu->pcs[i].issued;
	}
	qsort(v.data, v.len, sizeof *v.data, by_stalls);
	*t = v.data;
	return v.len;
}

static void by_op(const Profile *pr, long long top)
{
	OpTotal *t;
	size_t n = op_totals(pr, &t);
	if (!n)
		return;
	uint64_t all = 0;
	for (size_t i = 0; i < n; i++)
		all += t[i].stalls;
	printf("by graph op (stall cycles, share, wave instructions issued):\n");
	for (size_t i = 0; i < n && (long long)i < top; i++)
		printf("  %10llu  %5.1f%%  %10llu  %s\n", (unsigned long long)t[i].stalls,
		       all ? 100.0 * (double)t[i].stalls / (double)all : 0, (unsigned long long)t[i].issued, t[i].op);
	free(t);
}

static void print_text(const Profile *pr, const ProfArgs *a)
{
	const TmCuResult *cu = &pr->cu;
	const TmEstimate *e = &pr->est;
	double cyc = cu->cycles ? (double)cu->cycles : 1;
	double ws = cu->bytes_hbm ? (double)cu->bytes_hbm_write / (double)cu->bytes_hbm : -1;
	printf("kernel %s on %s, modelled %s%s: %g CUs, %g MHz boost clock, %g GB/s HBM peak (%.0f achievable at this "
	       "kernel's %.0f%% of writes)\n",
	       pr->kernel, arch_name(pr->arch), pr->gpu->name,
	       pr->arch == EMU_GFX90A ? " (one GCD)" : "", pr->p.cus, pr->p.clock_mhz, pr->p.hbm_gbps,
	       pr->p.hbm_gbps * tm_hbm_efficiency(&pr->p, ws), ws < 0 ? 0 : 100 * ws);
	printf("grid %ux%ux%u = %llu workgroups of %u work-items (%u waves); occupancy %u workgroups/CU (limit: %s)\n",
	       pr->grid[0], pr->grid[1], pr->grid[2], (unsigned long long)e->grid_wgs, pr->wg_items, pr->occ.waves_per_wg,
	       pr->occ.wgs_per_cu, pr->occ.limit);
	double life = 0;
	for (uint32_t i = 0; i < cu->workgroups; i++)
		life += (double)(cu->wg_done[i] - cu->wg_start[i]);
	printf("simulated %u workgroups on one CU (%llu per CU in the grid, up to %u at once): %llu cycles; "
	       "a workgroup lives %.0f cycles on average\n", cu->workgroups, (unsigned long long)e->wgs_per_cu, cu->resident,
	       (unsigned long long)cu->cycles, cu->workgroups ? life / cu->workgroups : 0);
	for (size_t i = 0; i < cu->npcs; i++)
		if (cu->pcs[i].loop_intervals) {
			printf("loop ");
			if (pr->loop_op && pr->loop_op[i])
				printf("%s (iterate) ", pr->loop_op[i]);
			printf("+0x%llx..+0x%llx: %.1f iterations per wave, %.1f cycles per iteration\n",
			       (unsigned long long)(cu->pcs[i].loop_target - pr->base), (unsigned long long)(cu->pcs[i].pc - pr->base),
			       (double)cu->pcs[i].backward_taken / (cu->waves ? cu->waves : 1),
			       (double)cu->pcs[i].loop_cycles / (double)cu->pcs[i].loop_intervals);
		}
	printf("matrix core utilisation %.1f%%; issue (share of SIMD turns):", 100 * e->matrix_util);
	double turns = pr->p.simds * cyc / pr->p.issue_period;
	for (int c = 0; c < TM_NCAT; c++)
		if (cu->issued[c])
			printf(" %s %.1f%%", tm_cat_name[c], 100.0 * (double)cu->issued[c] / turns);
	printf("\n");
	printf("bytes per clock: L1 %.1f, L2 %.1f (share %.1f), Infinity Cache %.2f (share %.2f), HBM %.2f (share %.2f), "
	       "LDS %.1f; LDS bank-conflict cycles %llu",
	       (double)cu->bytes_l1 / cyc, (double)cu->bytes_l2 / cyc, pr->cfg.l2_bytes_per_clk, (double)cu->bytes_mall / cyc,
	       pr->cfg.mall_bytes_per_clk, (double)cu->bytes_hbm / cyc, pr->cfg.hbm_bytes_per_clk, (double)cu->bytes_lds / cyc,
	       (unsigned long long)cu->lds_conflict_cycles);
	if (cu->bytes_scratch) /* register spills (regalloc/spill.c), through L1 and L2 */
		printf("; scratch accesses (spills) %.1f, %.0f bytes per workgroup", (double)cu->bytes_scratch / cyc,
			(double)cu->bytes_scratch / (double)(cu->workgroups ? cu->workgroups : 1));
	printf("\n");
	caches_line(pr);
	char why[512];
	clock_why(pr, why, sizeof why);
	printf("clock %.0f MHz (%s)\n", pr->clk.mhz, why);
	double tf = useful_tflops(pr);
	char band[64];
	band_str(pr, band, sizeof band);
	printf("estimate (model, not a measurement): %.0f cycles per CU at %.0f MHz + %.1f us launch = %.3f ms%s; ",
	       e->cu_cycles, e->clock_mhz, e->launch_seconds * 1e6, e->seconds * 1e3, band);
	if (pr->useful_flops < 0 && e->tflops > 0 && pr->useful_note[0])
		printf("%.1f TFLOP/s of MFMA work%s (the padded figure, masked pairs included: %s)", e->tflops, band,
		       pr->useful_note);
	else if (pr->useful_flops < 0 && e->tflops > 0)
		printf("%.1f TFLOP/s of MFMA work%s (a launch descriptor has no graph: the padded tiles' work, not the "
		       "useful one)", e->tflops, band);
	else if ((pr->useful_flops > 0 || e->tflops > 0) && pr->useful_note[0])
		printf("%.1f TFLOP/s useful%s (the graph's mma ops; %s)", tf, band, pr->useful_note);
	else if (pr->useful_flops > 0 || e->tflops > 0)
		printf("%.1f TFLOP/s useful%s (the graph's mma ops: 2*M*N*K for a GEMM)", tf, band);
	if (pr->useful_flops > 0 || e->tflops > 0)
		printf(", %.1f%% of the %.0f TFLOP/s %s matrix peak at the boost clock; ",
		       100 * tf * 1e12 / chip_peak(pr), chip_peak(pr) / 1e12, peak_name(pr));
	if (padded(pr))
		printf("%.1f TFLOP/s of MFMA work with the padded tiles%s; ", e->tflops, band);
	printf("%.0f GB/s useful%s (every buffer once), %.0f GB/s HBM traffic%s\n", useful_gbps(pr), band, e->gbps_hbm,
	       band);
	band_line(pr);
	char line[512];
	printf("grid: %s\n", (grid_fill(pr, line, sizeof line), line));
	printf("bound by: %s\n", verdict(pr, line, sizeof line));
	printf("%s\n%s\n", LIMITS, WAVE_ORDER);
	if (a->sensitivity) {
		printf("sensitivity (each parameter marked guessed or fitted at x0.5 and x1.5, the rest as is; widest first):\n");
		for (int i = 0; i < pr->nsens; i++) {
			const SensRow *s = &pr->sens[i];
			printf("  %-24s time %+6.1f%% / %+6.1f%%   matrix core %.1f%% / %.1f%%\n", tm_param_name[s->param],
			       100 * (s->ms[0] / (e->seconds * 1e3) - 1), 100 * (s->ms[1] / (e->seconds * 1e3) - 1),
			       100 * s->util[0], 100 * s->util[1]);
		}
	}
	size_t n = cu->npcs;
	TmPc **order = xcalloc(n + 1, sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = &cu->pcs[i];
	qsort(order, n, sizeof *order, by_stall);
	printf("hot spots (stall cycles summed over waves, charged to the instruction that waited; its graph op):\n");
	for (size_t i = 0; i < n && (long long)i < a->top; i++) {
		const TmPc *p = order[i];
		uint64_t t = stall_total(p);
		if (!t && !p->lds_conflict_cycles)
			break;
		int worst = 0;
		for (int r = 1; r < TM_NREASONS; r++)
			if (p->stall[r] > p->stall[worst])
				worst = r;
		const char *op = pr->pc_op ? pr->pc_op[p - cu->pcs] : NULL;
		printf("  %10llu  +0x%04llx  %-52s %-12s %s", (unsigned long long)t, (unsigned long long)(p->pc - pr->base),
		       p->text, op ? op : "-", t ? tm_reason_name[worst] : "");
		if (p->waited_on)
			printf(" for +0x%04llx %s", (unsigned long long)(cu->pcs[p->waited_on - 1].pc - pr->base),
			       cu->pcs[p->waited_on - 1].text);
		if (p->lds_conflict_cycles)
			printf("; LDS bank conflicts %llu cycles", (unsigned long long)p->lds_conflict_cycles);
		printf("\n");
	}
	free(order);
	by_op(pr, a->top);
	if (a->asm_listing) {
		TmPc *sorted = xcalloc(n + 1, sizeof *sorted);
		memcpy(sorted, cu->pcs, n * sizeof *sorted);
		qsort(sorted, n, sizeof *sorted, by_pc);
		printf("annotated assembly (issued, stall cycles, reasons):\n");
		for (size_t i = 0; i < n; i++) {
			printf("  +0x%04llx  %-52s %8llu %10llu", (unsigned long long)(sorted[i].pc - pr->base), sorted[i].text,
			       (unsigned long long)sorted[i].issued, (unsigned long long)stall_total(&sorted[i]));
			for (int r = 0; r < TM_NREASONS; r++)
				if (sorted[i].stall[r])
					printf("  %s %llu", tm_reason_name[r], (unsigned long long)sorted[i].stall[r]);
			printf("\n");
		}
		free(sorted);
	}
}

static void print_json(const Profile *pr)
{
	const TmCuResult *cu = &pr->cu;
	const TmEstimate *e = &pr->est;
	json_t *o = json_object();
	json_object_set_new(o, "kernel", json_string(pr->kernel));
	json_object_set_new(o, "arch", json_string(arch_name(pr->arch)));
	json_object_set_new(o, "gpu", json_string(pr->gpu->name));
	json_object_set_new(o, "cus", json_integer((json_int_t)pr->p.cus));
	json_object_set_new(o, "clock_mhz", json_real(pr->clk.mhz));
	char line[512];
	json_object_set_new(o, "bound_by", json_string(verdict(pr, line, sizeof line)));
	json_object_set_new(o, "grid_fill", json_string((grid_fill(pr, line, sizeof line), line)));
	if (pr->nsens) {
		json_t *arr = json_array();
		for (int i = 0; i < pr->nsens; i++) {
			json_t *r = json_object();
			json_object_set_new(r, "param", json_string(tm_param_name[pr->sens[i].param]));
			json_object_set_new(r, "ms_x0.5", json_real(pr->sens[i].ms[0]));
			json_object_set_new(r, "ms_x1.5", json_real(pr->sens[i].ms[1]));
			json_object_set_new(r, "matrix_util_x0.5", json_real(pr->sens[i].util[0]));
			json_object_set_new(r, "matrix_util_x1.5", json_real(pr->sens[i].util[1]));
			json_array_append_new(arr, r);
		}
		json_object_set_new(o, "sensitivity", arr);
	}
	json_t *clk = json_object();
	json_object_set_new(clk, "source", json_string(pr->clk.forced ? "--clock" : "model"));
	json_object_set_new(clk, "boost_mhz", json_real(pr->clk.boost_mhz));
	json_object_set_new(clk, "full_duty_mhz", json_real(pr->clk.full_mhz));
	json_object_set_new(clk, "matrix_duty", json_real(pr->clk.duty));
	json_object_set_new(clk, "dtype", pr->clk.dtype < 0 ? json_null() : json_string(tm_dtype_name[pr->clk.dtype]));
	char why[512];
	clock_why(pr, why, sizeof why);
	json_object_set_new(clk, "why", json_string(why));
	json_object_set_new(o, "clock", clk);
	json_object_set_new(o, "grid_workgroups", json_integer((json_int_t)e->grid_wgs));
	json_object_set_new(o, "occupancy_workgroups_per_cu", json_integer(pr->occ.wgs_per_cu));
	json_object_set_new(o, "occupancy_limit", json_string(pr->occ.limit));
	json_object_set_new(o, "simulated_workgroups", json_integer(cu->workgroups));
	json_object_set_new(o, "cycles", json_integer((json_int_t)cu->cycles));
	json_object_set_new(o, "cu_cycles_estimate", json_real(e->cu_cycles));
	json_object_set_new(o, "seconds", json_real(e->seconds));
	json_object_set_new(o, "launch_seconds", json_real(e->launch_seconds));
	if (e->tail.wgs) {
		json_t *tl = json_object();
		json_object_set_new(tl, "workgroups_per_cu", json_integer((json_int_t)e->tail.wgs));
		json_object_set_new(tl, "busy_cus", json_integer((json_int_t)e->tail.cus));
		json_object_set_new(tl, "hbm_bytes_per_clk", json_real(e->tail.hbm_bytes_per_clk));
		json_object_set_new(tl, "mall_bytes_per_clk", json_real(e->tail.mall_bytes_per_clk));
		json_object_set_new(tl, "cycles_saved", json_real(e->tail.cycles_saved));
		json_object_set_new(o, "tail", tl);
	}
	double med, worst;
	json_t *band = json_object();
	if (tm_band(pr->arch, &med, &worst)) {
		json_object_set_new(band, "median", json_real(med));
		json_object_set_new(band, "worst", json_real(worst));
		json_object_set_new(band, "basis", json_string("held-out AMD-measured GEMMs on MI300X, MI308X and MI355X "
							    "(make bench-calibrate); other kernel classes unchecked"));
	} else {
		json_object_set_new(band, "median", json_null());
		json_object_set_new(band, "worst", json_null());
		json_object_set_new(band, "basis", json_string("none: no measured kernel of this target"));
	}
	json_object_set_new(o, "error_band", band);
	json_t *ca = json_object();
	json_object_set_new(ca, "l2s", json_real(round(pr->p.cus / pr->p.cus_per_l2)));
	json_object_set_new(ca, "first_touch_bytes", json_real(pr->cfg.first_touch_bytes));
	json_object_set_new(ca, "l2_miss_bytes", json_real(pr->cfg.l2_miss_bytes));
	json_object_set_new(ca, "hbm_read_bytes", json_real(pr->cfg.hbm_read_bytes));
	json_object_set_new(ca, "l2_miss_fraction", json_real(pr->cfg.l2_miss_fraction));
	json_object_set_new(ca, "mall_miss_fraction", json_real(pr->cfg.mall_miss_fraction));
	json_object_set_new(o, "caches", ca);
	json_object_set_new(o, "tflops", json_real(useful_tflops(pr)));
	json_object_set_new(o, "tflops_padded", json_real(e->tflops));
	json_object_set_new(o, "peak_tflops", json_real(chip_peak(pr) / 1e12));
	json_object_set_new(o, "peak_dtype", json_string(peak_name(pr)));
	json_object_set_new(o, "useful_work", json_string(pr->useful_flops >= 0 ? "graph"
		: pr->useful_note[0] ? "not known: tflops is the MFMAs' work with padded tiles and masked pairs"
		: "none: a launch descriptor has no graph, tflops is the MFMAs' work with padded tiles"));
	if (pr->useful_note[0])
		json_object_set_new(o, "useful_note", json_string(pr->useful_note));
	if (pr->useful_flops >= 0)
		json_object_set_new(o, "useful_flops", json_real(pr->useful_flops));
	json_object_set_new(o, "gbps", json_real(useful_gbps(pr)));
	json_object_set_new(o, "hbm_gbps", json_real(e->gbps_hbm));
	json_object_set_new(o, "matrix_utilisation", json_real(e->matrix_util));
	json_t *iss = json_object();
	for (int c = 0; c < TM_NCAT; c++)
		json_object_set_new(iss, tm_cat_name[c], json_integer((json_int_t)cu->issued[c]));
	json_object_set_new(o, "issued", iss);
	json_t *by = json_object();
	json_object_set_new(by, "l1", json_integer((json_int_t)cu->bytes_l1));
	json_object_set_new(by, "l2", json_integer((json_int_t)cu->bytes_l2));
	json_object_set_new(by, "mall", json_integer((json_int_t)cu->bytes_mall));
	json_object_set_new(by, "hbm", json_integer((json_int_t)cu->bytes_hbm));
	json_object_set_new(by, "lds", json_integer((json_int_t)cu->bytes_lds));
	json_object_set_new(by, "scratch", json_integer((json_int_t)cu->bytes_scratch));
	json_object_set_new(o, "bytes", by);
	json_object_set_new(o, "lds_conflict_cycles", json_integer((json_int_t)cu->lds_conflict_cycles));
	json_t *insts = json_array();
	for (size_t i = 0; i < cu->npcs; i++) {
		const TmPc *p = &cu->pcs[i];
		json_t *x = json_object();
		json_object_set_new(x, "offset", json_integer((json_int_t)(p->pc - pr->base)));
		json_object_set_new(x, "text", json_string(p->text));
		json_object_set_new(x, "issued", json_integer((json_int_t)p->issued));
		json_t *st = json_object();
		for (int r = 0; r < TM_NREASONS; r++)
			if (p->stall[r])
				json_object_set_new(st, tm_reason_name[r], json_integer((json_int_t)p->stall[r]));
		json_object_set_new(x, "stall", st);
		if (p->waited_on)
			json_object_set_new(x, "waits_for_offset", json_integer((json_int_t)(cu->pcs[p->waited_on - 1].pc - pr->base)));
		if (p->lds_conflict_cycles)
			json_object_set_new(x, "lds_conflict_cycles", json_integer((json_int_t)p->lds_conflict_cycles));
		if (p->loop_intervals)
			json_object_set_new(x, "cycles_per_iteration", json_real((double)p->loop_cycles / (double)p->loop_intervals));
		if (pr->pc_op && pr->pc_op[i])
			json_object_set_new(x, "op", json_string(pr->pc_op[i]));
		json_array_append_new(insts, x);
	}
	json_object_set_new(o, "instructions", insts);
	json_t *loops = json_array();
	for (size_t i = 0; i < cu->npcs; i++) {
		const TmPc *p = &cu->pcs[i];
		if (!p->loop_intervals)
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "iterate", pr->loop_op && pr->loop_op[i] ? json_string(pr->loop_op[i]) : json_null());
		json_object_set_new(x, "head_offset", json_integer((json_int_t)(p->loop_target - pr->base)));
		json_object_set_new(x, "back_edge_offset", json_integer((json_int_t)(p->pc - pr->base)));
		json_object_set_new(x, "iterations_per_wave", json_real((double)p->backward_taken / (cu->waves ? cu->waves : 1)));
		json_object_set_new(x, "cycles_per_iteration", json_real((double)p->loop_cycles / (double)p->loop_intervals));
		json_array_append_new(loops, x);
	}
	json_object_set_new(o, "loops", loops);
	OpTotal *t;
	size_t nt = op_totals(pr, &t);
	json_t *ops = json_array();
	for (size_t i = 0; i < nt; i++) {
		json_t *x = json_object();
		json_object_set_new(x, "op", json_string(t[i].op));
		json_object_set_new(x, "stall_cycles", json_integer((json_int_t)t[i].stalls));
		json_object_set_new(x, "issued", json_integer((json_int_t)t[i].issued));
		json_array_append_new(ops, x);
	}
	free(t);
	json_object_set_new(o, "by_op", ops);
	json_object_set_new(o, "limits", json_string(LIMITS));
	json_object_set_new(o, "wave_order", json_string(WAVE_ORDER));
	char *s = json_dumps(o, JSON_INDENT(1));
	printf("%s\n", s);
	free(s);
	json_decref(o);
}

/* The target a kernel graph is compiled for: --gpu's, else --mcpu's, else
 * gfx942. */
static EmuArch graph_arch(const ProfArgs *a)
{
	if (a->gpu)
		return a->gpu->arch;
	const char *m = a->mcpu && target_from_name(a->mcpu) ? target_from_name(a->mcpu)->name : "gfx942";
	return strcmp(m, "gfx90a") == 0 ? EMU_GFX90A : strcmp(m, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942;
}

/* --sweep: every combination of the swept values (the first sweep varies
 * slowest), each compiled and profiled as `-D SYM=V` would, ranked by the
 * modelled time; a variant that does not compile or run is listed with
 * FAILED after the others (its errors on stderr). */
typedef struct {
	char defs[256];
	bool ok, banded; /* banded: the target has an error band (med, worst) */
	double ms, util, tflops, gbps, clock_mhz, med, worst;
	char bound[256];
} SweepRow;

/* Profile b (a kernel graph, or else a launch descriptor) into its ranked
 * row r: time, utilisation, useful rate and verdict; false if it failed. */
static bool rank_row(const ProfArgs *b, bool graph, SweepRow *r)
{
	Profile pr;
	memset(&pr, 0, sizeof pr);
	pr.useful_flops = -1;
	r->ok = (graph ? profile_graph(b, &pr) : profile_descriptor(b, &pr)) == 0;
	if (r->ok) {
		r->ms = pr.est.seconds * 1e3;
		r->util = pr.est.matrix_util;
		r->tflops = useful_tflops(&pr);
		r->gbps = useful_gbps(&pr);
		r->clock_mhz = pr.est.clock_mhz;
		r->banded = tm_band(pr.arch, &r->med, &r->worst);
		verdict(&pr, r->bound, sizeof r->bound);
	}
	profile_free(&pr);
	return r->ok;
}

static int by_time(const void *x, const void *y)
{
	const SweepRow *a = x, *b = y;
	if (a->ok != b->ok)
		return a->ok ? -1 : 1;
	return a->ms < b->ms ? -1 : a->ms > b->ms;
}

static void print_ranked(const ProfArgs *a, SweepRow *rows, size_t total, const char *what, const char *of,
	const char *col);

static int profile_sweep(const ProfArgs *a)
{
	int nsw = (int)a->sweeps.len, idx[16] = {0}, nval[16];
	const char *vals[16][64]; /* into the --sweep argument, each vlen[s][i] long */
	int vlen[16][64];
	char names[16][64];
	size_t total = 1;
	for (int s = 0; s < nsw; s++) {
		const char *spec = a->sweeps.data[s], *eq = strchr(spec, '=');
		snprintf(names[s], sizeof names[s], "%.*s", (int)(eq - spec), spec);
		nval[s] = 0;
		for (const char *p = eq + 1; *p;) {
			size_t n = strcspn(p, ",");
			if (n == 0 || nval[s] == 64)
				usage_err("profile: --sweep %s: bad value list '%s'", names[s], eq + 1);
			vals[s][nval[s]] = p;
			vlen[s][nval[s]++] = (int)n;
			p += n + (p[n] == ',');
		}
		total *= (size_t)nval[s];
	}
	if (total > 4096)
		usage_err("profile: --sweep gives %zu variants: at most 4096", total);
	SweepRow *rows = xcalloc(total, sizeof *rows);
	int failed = 0;
	for (size_t v = 0; v < total; v++) {
		ProfArgs b = *a;
		b.defs.data = NULL;
		b.defs.len = b.defs.cap = 0;
		for (size_t i = 0; i < a->defs.len; i++)
			vec_push(&b.defs, a->defs.data[i]);
		SweepRow *r = &rows[v];
		char def[16][160];
		size_t off = 0;
		for (int s = 0; s < nsw; s++) {
			snprintf(def[s], sizeof def[s], "%s=%.*s", names[s], vlen[s][idx[s]], vals[s][idx[s]]);
			vec_push(&b.defs, def[s]);
			off += (size_t)snprintf(r->defs + off, off < sizeof r->defs ? sizeof r->defs - off : 0, "%s%s",
				s ? " " : "", def[s]);
		}
		failed += !rank_row(&b, true, r);
		vec_free(&b.defs);
		for (int s = nsw - 1; s >= 0; s--) { /* the odometer: the last sweep varies fastest */
			if (++idx[s] < nval[s])
				break;
			idx[s] = 0;
		}
	}
	print_ranked(a, rows, total, "variants of", a->path, "defines");
	free(rows);
	return failed ? 1 : 0;
}

/* Ranked rows (--sweep's variants, several files), fastest first: a table,
 * or with --json an array. `what`/`of` head the table, `col` names the
 * rows' label column ("defines" or "file"). */
static void print_ranked(const ProfArgs *a, SweepRow *rows, size_t total, const char *what, const char *of,
	const char *col)
{
	qsort(rows, total, sizeof *rows, by_time);
	if (a->json) {
		json_t *arr = json_array();
		for (size_t v = 0; v < total; v++) {
			json_t *o = json_object();
			json_object_set_new(o, col, json_string(rows[v].defs));
			json_object_set_new(o, "ok", json_boolean(rows[v].ok));
			if (rows[v].ok) {
				json_object_set_new(o, "ms", json_real(rows[v].ms));
				json_object_set_new(o, "matrix_util", json_real(rows[v].util));
				json_object_set_new(o, "tflops", json_real(rows[v].tflops));
				json_object_set_new(o, "gbps", json_real(rows[v].gbps));
				json_object_set_new(o, "clock_mhz", json_real(rows[v].clock_mhz));
				json_t *band = json_object(); /* as the single profile's error_band */
				json_object_set_new(band, "median", rows[v].banded ? json_real(rows[v].med) : json_null());
				json_object_set_new(band, "worst", rows[v].banded ? json_real(rows[v].worst) : json_null());
				json_object_set_new(o, "error_band", band);
				json_object_set_new(o, "bound_by", json_string(rows[v].bound));
			}
			json_array_append_new(arr, o);
		}
		char *s = json_dumps(arr, JSON_INDENT(1));
		printf("%s\n", s);
		free(s);
		json_decref(arr);
	} else {
		/* one band in the header when every row's target has the same
		 * (files of several targets: each row its own) */
		double med, worst;
		bool banded = tm_band(graph_arch(a), &med, &worst), mixed = false;
		for (size_t v = 0, first = 1; v < total; v++)
			if (rows[v].ok) {
				if (first)
					banded = rows[v].banded, med = rows[v].med, worst = rows[v].worst, first = 0;
				else
					mixed |= rows[v].banded != banded || rows[v].med != med || rows[v].worst != worst;
			}
		if (mixed)
			printf("%zu %s %s, fastest first (model, not a measurement; each row's error band by its target):\n",
			       total, what, of);
		else if (banded)
			printf("%zu %s %s, fastest first (model, not a measurement; each time and rate ±%.0f%%, worst "
			       "±%.0f%%):\n", total, what, of, 100 * med, 100 * worst);
		else
			printf("%zu %s %s, fastest first (model, not a measurement; error band unknown on this "
			       "target):\n", total, what, of);
		printf("  %4s  %10s  %7s  %8s  %-40s %s\n", "rank", "ms", "matrix", "TFLOP/s", col, "bound by");
		for (size_t v = 0; v < total; v++) {
			char band[64] = "";
			if (mixed && rows[v].ok && rows[v].banded)
				snprintf(band, sizeof band, " (±%.0f%%, worst ±%.0f%%)", 100 * rows[v].med, 100 * rows[v].worst);
			else if (mixed && rows[v].ok)
				snprintf(band, sizeof band, " (error band unknown)");
			if (rows[v].ok)
				printf("  %4zu  %10.4f  %6.1f%%  %8.1f  %-40s %s%s\n", v + 1, rows[v].ms, 100 * rows[v].util,
				       rows[v].tflops, rows[v].defs, rows[v].bound, band);
			else
				printf("  %4s  %10s  %7s  %8s  %-40s\n", "-", "FAILED", "", "", rows[v].defs);
		}
	}
}

/* Several input files: each profiled as alone (a kernel graph compiled
 * with the -D and compile options, a launch descriptor run), one ranked
 * line each, fastest first; a file that fails is listed FAILED after the
 * others (its errors on stderr) and the command exits 1. */
static int profile_many(const ProfArgs *a)
{
	size_t total = a->paths.len;
	SweepRow *rows = xcalloc(total, sizeof *rows);
	int failed = 0;
	for (size_t v = 0; v < total; v++) {
		ProfArgs b = *a;
		b.path = a->paths.data[v];
		SweepRow *r = &rows[v];
		snprintf(r->defs, sizeof r->defs, "%s", b.path);
		char fmt[64];
		bool graph = strcmp(input_format(b.path, fmt, sizeof fmt), "wavecc-kernel/1") == 0;
		failed += !rank_row(&b, graph, r);
	}
	print_ranked(a, rows, total, "kernels", "(one file each)", "file");
	free(rows);
	return failed ? 1 : 0;
}

int cmd_profile(int argc, char **argv)
{
	ProfArgs a = {.top = 12};
	int rc = 1;
	bool verbose = false;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (opt_common(argv[i], "profile", usage, &rc)) {
			vec_free(&a.defs);
			return rc;
		} else if (strncmp(argv[i], "-D", 2) == 0) {
			const char *d = argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (!d || !strchr(d, '=') || d[0] == '=')
				usage_err("profile: -D needs NAME=VALUE");
			vec_push(&a.defs, d);
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			if (!target_from_name(v))
				usage_err("profile: --mcpu %s: expected gfx942, gfx950 or gfx90a", v);
			a.mcpu = v;
		} else if (opt_value(argc, argv, &i, "--gpu", &v)) {
			a.gpu = tm_gpu(v);
			if (!a.gpu)
				usage_err("profile: --gpu %s: expected %s", v, tm_gpu_names());
		} else if (opt_value(argc, argv, &i, "--clock", &v)) {
			char *end;
			a.clock = strtod(v, &end);
			if (end == v || *end || !(a.clock >= 100 && a.clock <= 5000))
				usage_err("profile: --clock %s: expected an engine clock in MHz from 100 to 5000", v);
		} else if (opt_value(argc, argv, &i, "--sample", &v)) {
			a.sample = opt_int("--sample", v);
			if (a.sample <= 0)
				usage_err("profile: --sample needs a positive count");
		} else if (opt_value(argc, argv, &i, "--top", &v)) {
			a.top = opt_int("--top", v);
		} else if (strcmp(argv[i], "--json") == 0) {
			a.json = true;
		} else if (strcmp(argv[i], "--asm") == 0) {
			a.asm_listing = true;
		} else if (strcmp(argv[i], "--sensitivity") == 0) {
			a.sensitivity = true;
		} else if (opt_value(argc, argv, &i, "--sweep", &v)) {
			const char *eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1])
				usage_err("profile: --sweep needs SYM=V1,V2,..., got '%s'", v);
			if (a.sweeps.len == 16)
				usage_err("profile: at most 16 --sweep options");
			vec_push(&a.sweeps, v);
		} else if (strcmp(argv[i], "--params") == 0) {
			tm_params_print(stdout);
			vec_free(&a.defs);
			vec_free(&a.paths);
			return 0;
		} else if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
		} else if (opt_schedule(argc, argv, &i, &a.sched) || opt_codegen(argv[i], &a.sched)) {
			a.sched_given = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage_err("profile: unknown option '%s'", argv[i]);
		} else {
			if (!a.path)
				a.path = argv[i];
			vec_push(&a.paths, argv[i]);
		}
	}
	if (opt_version_only(verbose, a.path)) {
		vec_free(&a.defs);
		vec_free(&a.paths);
		return 0;
	}
	if (!a.path)
		usage_err("profile: no input file");
	if (a.paths.len > 1) {
		if (a.sweeps.len || a.sensitivity || a.asm_listing)
			usage_err("profile: several files are ranked: --sweep, --sensitivity and --asm apply to one kernel");
		if (a.mcpu || a.sched_given)
			usage_err("profile: several files: --mcpu and compile options apply to one kernel graph");
		rc = profile_many(&a);
		vec_free(&a.paths);
		vec_free(&a.defs);
		return rc;
	}
	vec_free(&a.paths);
	char fmt[64];
	bool graph = strcmp(input_format(a.path, fmt, sizeof fmt), "wavecc-kernel/1") == 0;
	if (!graph && a.mcpu)
		usage_err("profile: --mcpu applies to kernel graphs; a launch descriptor names its arch");
	if (a.gpu && a.mcpu && target_from_name(a.mcpu) &&
		strcmp(target_from_name(a.mcpu)->name, arch_name(a.gpu->arch)) != 0)
		usage_err("profile: --gpu %s is a %s, not a %s", a.gpu->name, arch_name(a.gpu->arch), a.mcpu);
	if (!graph && a.sched_given)
		usage_err("profile: compile options apply to kernel graphs; a launch descriptor's code is compiled");
	if (a.sweeps.len) {
		if (!graph)
			usage_err("profile: --sweep applies to kernel graphs");
		if (a.sensitivity || a.asm_listing)
			usage_err("profile: --sweep ranks variants: --sensitivity and --asm apply to one kernel");
		rc = profile_sweep(&a);
		vec_free(&a.sweeps);
		vec_free(&a.defs);
		return rc;
	}
	Profile pr;
	memset(&pr, 0, sizeof pr);
	pr.useful_flops = -1;
	rc = graph ? profile_graph(&a, &pr) : profile_descriptor(&a, &pr);
	if (rc == 0) {
		if (a.json)
			print_json(&pr);
		else
			print_text(&pr, &a);
	}
	profile_free(&pr);
	vec_free(&a.defs);
	return rc;
}
