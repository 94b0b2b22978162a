/* calibrate.c — the cycle model against AMD's measured GEMM times
 * (`make bench-calibrate`; docs/cycle-model.md, "Calibration against
 * measured kernels").
 *
 * bench/calibration/aiter_gemms.csv lists AMD-measured times of ROCm/aiter's
 * hand-written assembly GEMMs at published shapes on MI300X, MI308X and
 * MI355X. For each row the program writes the launch aiter makes (its
 * kernel-argument structs of asm_gemm_a16w16 / asm_gemm_a8w8, grid and
 * 256-thread workgroups) as a launch descriptor, runs the code object's
 * sample on the emulator exactly as `wavecc profile` does (the first CU's
 * workgroups, zero buffers, probes of the neighbours for the L2 model), and
 * prints the modelled time beside the measured one. The code objects are
 * AMD's and not part of wavecc: they are read from the hsa/ folder of
 * aiter's repository (--aiter DIR or $WAVECC_AITER, as tools/aiter.py).
 * A row whose code object is missing or that the emulator cannot run is
 * listed as not run and left out of the errors.
 *
 * Errors are modelled / measured - 1. The summary gives the median and
 * worst absolute error over the rows of the fit set and of the held-out
 * check set (the data file's set column), and over both.
 *
 * --fit: each row is also simulated with every candidate value of the
 * parameters the fit may set (FIT_PARAMS: ones marked guessed or fitted,
 * never a published one), and the launch overhead per arch (launch_us,
 * additive, so it needs no simulation, from 0 to its published bound
 * launch_max_us) is chosen with them to minimise the
 * fit set's median absolute log error, worst as the tie-break; the check
 * set is then scored at the chosen values. The program prints them; the
 * parameter table (loader/timing/timing.h) is edited by hand to match, so
 * `make bench-calibrate` without --fit shows what the model now does.
 *
 * Usage: calibrate [--aiter DIR] [--csv FILE] [--fit] [--only SUBSTRING] */
#include <math.h>
#include <string.h>

#include "../loader/codeobj/codeobj.h"
#include "../loader/runtime/launch.h"
#include "../loader/timing/timing.h"
#include "bench.h"

typedef struct Row {
	char set[8], gpu[16], family[8], kernel[96], co[160], out[16], source[256];
	int tm, tn;
	long m, n, k;
	double us;
	/* results */
	bool ran;
	char why[160];      /* why it did not run */
	double model_us;    /* at the table's parameters */
	double *cand_us;    /* --fit: per candidate, without launch_us */
	char bound[48];
	const TmGpu *g;
} Row;

/* The parameters the fit varies (scale factors of their table values),
 * each over FIT_STEPS candidates; launch_us is fitted separately. */
#define FIT_PARAMS(X) X(clock_duty_exponent)
static const double FIT_SCALES[] = {0.25, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0, 4.0};
enum { FIT_STEPS = sizeof FIT_SCALES / sizeof FIT_SCALES[0] };
static const int fit_param[] = {
#define X(n) TM_PARAM_##n,
	FIT_PARAMS(X)
#undef X
};
enum { NFIT = sizeof fit_param / sizeof fit_param[0] };

static int ncand(void)
{
	int n = 1;
	for (int i = 0; i < NFIT; i++)
		n *= FIT_STEPS;
	return n;
}

/* Candidate `c`'s scale of every TM_PARAMS row. */
static void cand_scale(int c, double *scale)
{
	for (int j = 0; j < TM_NPARAMS; j++)
		scale[j] = 1;
	for (int i = 0; i < NFIT; i++, c /= FIT_STEPS)
		scale[fit_param[i]] = FIT_SCALES[c % FIT_STEPS];
}

/* ---- the data file ---- */

static char *field(char **p)
{
	char *s = *p, *e = strchr(s, ',');
	if (e) {
		*e = 0;
		*p = e + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

static int read_rows(const char *path, Row **out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		bench_fail(2, "calibrate: cannot open %s", path);
	Vec(Row) rows = {0};
	char line[2048];
	bool header = true;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (header) { /* the column names */
			header = false;
			continue;
		}
		Row r = {0};
		char *p = line;
		snprintf(r.set, sizeof r.set, "%s", field(&p));
		snprintf(r.gpu, sizeof r.gpu, "%s", field(&p));
		snprintf(r.family, sizeof r.family, "%s", field(&p));
		snprintf(r.kernel, sizeof r.kernel, "%s", field(&p));
		snprintf(r.co, sizeof r.co, "%s", field(&p));
		r.tm = atoi(field(&p));
		r.tn = atoi(field(&p));
		r.m = atol(field(&p));
		r.n = atol(field(&p));
		r.k = atol(field(&p));
		snprintf(r.out, sizeof r.out, "%s", field(&p));
		r.us = atof(field(&p));
		snprintf(r.source, sizeof r.source, "%s", field(&p));
		r.g = tm_gpu(r.gpu);
		if (!r.g || r.tm <= 0 || r.tn <= 0 || r.m <= 0 || r.n <= 0 || r.k <= 0 || !(r.us > 0) ||
			(strcmp(r.family, "a16w16") && strcmp(r.family, "a8w8")))
			bench_fail(2, "calibrate: %s: bad row for %s", path, r.kernel);
		vec_push(&rows, r);
	}
	fclose(f);
	*out = rows.data;
	return (int)rows.len;
}

/* ---- the launch aiter makes ---- */

static void arg_buf(Buf *b, const char *name, const char *dt, long d0, long d1, int off, const char *access)
{
	buf_printf(b, "%s{\"name\": \"%s\", \"kind\": \"buffer\", \"dtype\": \"%s\", \"shape\": [%ld, %ld], \"offset\": %d, "
		      "\"access\": \"%s\"}", b->len && b->data[b->len - 1] != '[' ? ", " : "", name, dt, d0, d1, off, access);
}

static void arg_val(Buf *b, const char *name, const char *dt, int off, double v)
{
	buf_printf(b, ", {\"name\": \"%s\", \"kind\": \"scalar\", \"dtype\": \"%s\", \"offset\": %d, \"value\": %.17g}", name, dt,
		off, v);
}

/* The descriptor of row r's launch (arch from its GPU). a16w16: aiter's
 * KernelArgs of csrc/py_itfs_cu/asm_gemm_a16w16.cu (every field in a
 * 16-byte slot), grid (ceil(N/tileN), ceil(M/tileM), splitK 1); a8w8:
 * asm_gemm_a8w8.cu's (grid (N/tileN, ceil(M/tileM), 1), kernarg 256). */
static void descriptor(const Row *r, const char *hsa, Buf *b)
{
	const char *arch = r->g->arch == EMU_GFX950 ? "gfx950" : r->g->arch == EMU_GFX90A ? "gfx90a" : "gfx942";
	bool a8 = strcmp(r->family, "a8w8") == 0, f32 = strcmp(r->out, "float32") == 0;
	buf_printf(b, "{\"format\": \"wavecc-launch/1\", \"code_object\": \"%s/%s\", \"kernel\": \"%s\", \"arch\": \"%s\", "
		      "\"workgroup_size\": [256, 1, 1], \"grid\": [%ld, %ld, 1], \"dynamic_lds_bytes\": 0, "
		      "\"kernarg_size\": %d, \"args\": [",
		hsa, r->co, r->kernel, arch, a8 ? r->n / r->tn : (r->n + r->tn - 1) / r->tn, (r->m + r->tm - 1) / r->tm,
		a8 ? 256 : 352);
	if (a8) {
		arg_buf(b, "C", "bf16", r->m, r->n, 0, "write");
		arg_buf(b, "A", "i8", r->m, r->k, 16, "read");
		arg_buf(b, "B", "i8", r->n, r->k, 32, "read");
		arg_buf(b, "A_scale", "f32", r->m, 1, 48, "read");
		arg_buf(b, "B_scale", "f32", 1, r->n, 64, "read");
		arg_buf(b, "bias", "f32", 1, r->n, 80, "read");
		const char *n[] = {"m", "n", "k", "lda", "ldb", "ldc", "ks"};
		double v[] = {(double)r->m, (double)r->n, (double)r->k, (double)r->k, (double)r->k, 2.0 * (double)r->n, 1};
		for (int i = 0; i < 7; i++)
			arg_val(b, n[i], "u32", 96 + 16 * i, v[i]);
	} else {
		int osz = f32 ? 4 : 2;
		const char *odt = f32 ? "f32" : "bf16";
		arg_buf(b, "D", odt, r->m, r->n, 0, "readwrite");
		arg_buf(b, "C", odt, 1, 1, 16, "read");
		arg_buf(b, "A", "bf16", r->m, r->k, 32, "read");
		arg_buf(b, "B", "bf16", r->n, r->k, 48, "read");
		arg_val(b, "alpha", "f32", 64, 1);
		arg_val(b, "beta", "f32", 80, 0);
		const char *n[] = {"stride_D0", "stride_D1", "stride_C0", "stride_C1", "stride_A0", "stride_A1", "stride_B0",
				   "stride_B1", "M", "N", "K", "splitk", "is_out_b16"};
		double v[] = {(double)(r->n * osz), 0, (double)(r->n * osz), 0, 2.0 * (double)r->k, 0, 2.0 * (double)r->k, 0,
			      (double)r->m, (double)r->n, (double)r->k, 1, f32 ? 0 : 1};
		for (int i = 0; i < 13; i++)
			arg_val(b, n[i], "u32", 96 + 16 * i, v[i]);
		arg_buf(b, "Bias", "f32", 1, r->n, 304, "read");
		arg_val(b, "add_bias", "u32", 320, 0);
		arg_buf(b, "semaphore", "u32", 16, 64, 336, "readwrite");
	}
	buf_printf(b, "]}");
}

/* ---- one row through the model ---- */

static int run_zeroed(const LaunchDesc *d, const void *code, size_t len, const RunOptions *o, Buf *msg)
{
	Vec(HostBuffer) hb = {0};
	for (size_t i = 0; i < d->nargs; i++)
		if (d->args[i].kind == LARG_BUFFER)
			vec_push(&hb, ((HostBuffer){d->args[i].name, xcalloc(d->args[i].nbytes + 1, 1), d->args[i].nbytes}));
	int rc = launch_run_memory(d, code, len, o, hb.data, hb.len, msg);
	for (size_t i = 0; i < hb.len; i++)
		free(hb.data[i].data);
	vec_free(&hb);
	return rc;
}

/* The bytes of the buffers the kernel may read (cli/cmd_profile.c's
 * read_footprint): no set of workgroups loads more distinct lines. */
static double row_footprint(const LaunchDesc *d)
{
	double f = 0;
	for (size_t i = 0; i < d->nargs; i++)
		if (d->args[i].kind == LARG_BUFFER && (d->args[i].access & ACC_READ))
			f += (double)d->args[i].nbytes;
	return f;
}

/* Profile at the scale `scale` (NULL: the table), microseconds without the
 * launch overhead; -1 on failure. */
static double model_us(const Row *r, const TmRecorder *rec, uint64_t nwg, const KernelDescriptor *kd, uint32_t lds,
	double footprint, const double *scale, char *bound, size_t blen)
{
	TmGpu g = *r->g;
	g.param_scale = scale;
	TmOccupancy occ;
	tm_occupancy(&g, kd, lds, 4, &occ);
	TmCuConfig cfg;
	TmCuResult cu;
	TmClock clk;
	TmEstimate e;
	char err[256];
	if (tm_profile(&g, rec, nwg, &occ, footprint, 0, &cfg, &cu, &clk, &e, err, sizeof err) != 0)
		return -1;
	if (bound) {
		double cyc = cu.cycles ? (double)cu.cycles : 1;
		snprintf(bound, blen, "%.0f MHz, matrix %.0f%%, L2 %.0f/%.0f B/clk", clk.mhz, 100 * e.matrix_util,
			(double)cu.bytes_l2 / cyc, cfg.l2_bytes_per_clk);
	}
	tm_cu_result_free(&cu);
	return (e.seconds - e.launch_seconds) * 1e6;
}

static void run_row(Row *r, const char *hsa, bool fit)
{
	Buf text = {0}, msg = {0};
	descriptor(r, hsa, &text);
	const char *keep = getenv("CALIBRATE_DESC"); /* write the row's launch descriptor there (for wavecc profile) */
	if (keep && *keep) {
		FILE *f = fopen(keep, "w");
		if (f) {
			fwrite(text.data, 1, text.len, f);
			fclose(f);
		}
	}
	LaunchDesc d;
	Diag diag;
	diag_init(&diag);
	if (launch_parse(text.data, text.len, "calibrate.launch.json", &d, &diag) != 0 ||
		launch_resolve(&d, 0, NULL, &diag) != 0) {
		snprintf(r->why, sizeof r->why, "bad descriptor");
		buf_free(&text);
		return;
	}
	size_t len;
	char *code = read_file_max(d.code_object_path, LAUNCH_MAX_CODE_OBJECT_BYTES, &len);
	CodeObject co;
	const CodeKernel *k = NULL;
	if (!code) {
		snprintf(r->why, sizeof r->why, "no code object %.140s", r->co);
	} else if (codeobj_read(code, len, r->co, &co, &msg) != 0) {
		snprintf(r->why, sizeof r->why, "unreadable code object");
		code = (free(code), NULL);
	} else if (!(k = codeobj_kernel(&co, r->kernel))) {
		snprintf(r->why, sizeof r->why, "no kernel %s", r->kernel);
		codeobj_free(&co);
		code = (free(code), NULL);
	}
	if (!code) {
		launch_free(&d);
		buf_free(&text);
		buf_free(&msg);
		return;
	}
	KernelDescriptor kd = k->kd;
	uint32_t lds = kd.group_segment_fixed_size;
	codeobj_free(&co);
	uint32_t grid[3] = {(uint32_t)d.grid[0].value, (uint32_t)d.grid[1].value, (uint32_t)d.grid[2].value};
	uint64_t nwg = (uint64_t)grid[0] * grid[1] * grid[2];
	TmOccupancy occ;
	tm_occupancy(r->g, &kd, lds, 4, &occ);
	uint64_t sample = tm_sample_size(r->g, nwg, occ.wgs_per_cu);
	uint64_t *ids = xcalloc(sample + 1, sizeof *ids);
	sample = tm_sample_ids(grid, sample, ids);
	TmRecorder *rec = tm_recorder_new_ids(r->g->arch, ids, sample, 4);
	free(ids);
	tm_recorder_grid(rec, grid[0], grid[1], grid[2]);
	RunOptions ro = {.backend = BACKEND_EMU, .emu_hook = tm_recorder_hook(rec), .policy = {.waves = EMU_WAVES_BARRIER}};
	if (run_zeroed(&d, code, len, &ro, &msg) != 0) {
		const char *m = buf_cstr(&msg), *e = strstr(m, "error: ");
		snprintf(r->why, sizeof r->why, "%.*s", (int)strcspn(e ? e + 7 : m, "\n[("), e ? e + 7 : m);
	} else {
		for (int dim = 0; dim < 3; dim++) { /* as cli/cmd_profile.c's probe_neighbours */
			uint64_t wg;
			if (!tm_recorder_probe_wanted(rec, dim, &wg))
				continue;
			TmRecorder *p = tm_probe_new(r->g->arch, wg, 4);
			RunOptions po = ro;
			po.emu_hook = tm_recorder_hook(p);
			po.max_instructions = 200000;
			Buf pm = {0};
			(void)run_zeroed(&d, code, len, &po, &pm);
			buf_free(&pm);
			tm_recorder_attach_probe(rec, dim, p);
		}
		/* XCD 0's first round, as cli/cmd_profile.c's probe_round */
		uint64_t rid[TM_ROUND_PROBES];
		uint64_t nr = tm_round_ids(r->g, nwg, occ.wgs_per_cu, rid);
		for (uint64_t i = 0; i < nr; i++) {
			TmRecorder *p = tm_probe_new(r->g->arch, rid[i], 4);
			RunOptions po = ro;
			po.emu_hook = tm_recorder_hook(p);
			po.max_instructions = TM_ROUND_PROBE_INSTS;
			Buf pm = {0};
			(void)run_zeroed(&d, code, len, &po, &pm);
			buf_free(&pm);
			tm_recorder_attach_round(rec, p);
		}
		double fp = row_footprint(&d);
		TmParams p;
		tm_gpu_params(r->g, &p);
		r->model_us = model_us(r, rec, nwg, &kd, lds, fp, NULL, r->bound, sizeof r->bound);
		if (r->model_us >= 0) {
			r->model_us += p.launch_us;
			r->ran = true;
		} else {
			snprintf(r->why, sizeof r->why, "the model failed");
		}
		if (fit && r->ran) {
			int nc = ncand();
			r->cand_us = xcalloc((size_t)nc, sizeof *r->cand_us);
			double scale[TM_NPARAMS];
			for (int c = 0; c < nc; c++) {
				cand_scale(c, scale);
				r->cand_us[c] = model_us(r, rec, nwg, &kd, lds, fp, scale, NULL, 0);
			}
		}
	}
	tm_recorder_free(rec);
	free(code);
	launch_free(&d);
	buf_free(&text);
	buf_free(&msg);
}

/* ---- errors ---- */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef struct Score {
	int n;
	double median, worst; /* of |modelled / measured - 1| */
} Score;

/* The score of the rows of `set` (NULL: all) and of GPU `gpu` (NULL: any)
 * whose times are t[i] (< 0: not run). */
static Score score_of(const Row *rows, int n, const char *set, const char *gpu, const double *t)
{
	double *e = xcalloc((size_t)n + 1, sizeof *e);
	Score s = {0};
	for (int i = 0; i < n; i++)
		if (t[i] >= 0 && (!set || strcmp(rows[i].set, set) == 0) && (!gpu || strcmp(rows[i].gpu, gpu) == 0))
			e[s.n++] = fabs(t[i] / rows[i].us - 1);
	qsort(e, (size_t)s.n, sizeof *e, cmp_dbl);
	if (s.n) {
		s.median = s.n % 2 ? e[s.n / 2] : (e[s.n / 2 - 1] + e[s.n / 2]) / 2;
		s.worst = e[s.n - 1];
	}
	free(e);
	return s;
}

static Score score(const Row *rows, int n, const char *set, const double *t)
{
	return score_of(rows, n, set, NULL, t);
}

static void print_score(const char *what, Score s)
{
	printf("  %-28s %3d GEMMs: median error %5.1f%%, worst %5.1f%%\n", what, s.n, 100 * s.median, 100 * s.worst);
}

/* --fit: the candidate and the launch overheads (gfx942, gfx950) that
 * minimise the fit set's median |log(model / measured)|, worst as the
 * tie-break. */
static void fit_rows(Row *rows, int n)
{
	int nc = ncand(), best = -1;
	double best_l[2] = {0}, best_med = INFINITY, best_worst = INFINITY;
	double *t = xcalloc((size_t)n + 1, sizeof *t);
	for (int c = 0; c < nc; c++) {
		/* each arch's overhead separately: its rows' errors depend only on it */
		double lsel[2] = {0};
		for (int a = 0; a < 2; a++) {
			double bm = INFINITY, bw = INFINITY;
			TmParams ap;
			tm_params(a ? EMU_GFX950 : EMU_GFX942, &ap);
			double lmax = ap.launch_max_us > 0 ? ap.launch_max_us : 8.0; /* the published bound */
			for (double l = 0; l <= lmax + 1e-4; l += 0.1) {
				double *e = xcalloc((size_t)n + 1, sizeof *e);
				int m = 0;
				for (int i = 0; i < n; i++)
					if (rows[i].ran && rows[i].cand_us[c] >= 0 && strcmp(rows[i].set, "fit") == 0 &&
						(rows[i].g->arch == EMU_GFX950) == (a == 1))
						e[m++] = fabs(log((rows[i].cand_us[c] + l) / rows[i].us));
				qsort(e, (size_t)m, sizeof *e, cmp_dbl);
				double med = 0, worst = m ? e[m - 1] : 0;
				for (int k = 0; k < m; k++)
					med += e[k] * e[k] / m; /* mean square: a median alone lets a few rows go far off */
				if (med < bm - 1e-9 || (fabs(med - bm) <= 1e-9 && worst < bw))
					bm = med, bw = worst, lsel[a] = l;
				free(e);
			}
		}
		for (int i = 0; i < n; i++)
			t[i] = rows[i].ran && rows[i].cand_us[c] >= 0 ?
				rows[i].cand_us[c] + lsel[rows[i].g->arch == EMU_GFX950] : -1;
		if (getenv("CALIBRATE_TRACE")) {
			double sc[TM_NPARAMS];
			cand_scale(c, sc);
			Score f = score(rows, n, "fit", t), k = score(rows, n, "check", t);
			printf("  candidate x%-5g launch %.1f/%.1f us: fit %.1f%%/%.1f%%, check %.1f%%/%.1f%%\n",
				sc[fit_param[0]], lsel[0], lsel[1], 100 * f.median, 100 * f.worst, 100 * k.median, 100 * k.worst);
		}
		double mean = 0;
		int m = 0;
		for (int i = 0; i < n; i++)
			if (t[i] >= 0 && strcmp(rows[i].set, "fit") == 0)
				mean += log(t[i] / rows[i].us) * log(t[i] / rows[i].us), m++;
		mean = m ? mean / m : 0;
		Score s = score(rows, n, "fit", t);
		if (mean < best_med - 1e-9 || (fabs(mean - best_med) <= 1e-9 && s.worst < best_worst))
			best = c, best_med = mean, best_worst = s.worst, best_l[0] = lsel[0], best_l[1] = lsel[1];
	}
	if (best < 0) {
		printf("fit: no row ran\n");
		free(t);
		return;
	}
	double scale[TM_NPARAMS];
	cand_scale(best, scale);
	printf("fit (the fit set only; scales of the parameter table's values):\n");
	for (int i = 0; i < NFIT; i++)
		printf("  %-24s x%g\n", tm_param_name[fit_param[i]], scale[fit_param[i]]);
	printf("  %-24s %.1f us on gfx942, %.1f us on gfx950\n", "launch_us", best_l[0], best_l[1]);
	for (int i = 0; i < n; i++)
		t[i] = rows[i].ran ? rows[i].cand_us[best] + best_l[rows[i].g->arch == EMU_GFX950] : -1;
	print_score("fit set, fitted", score(rows, n, "fit", t));
	print_score("held-out check set, fitted", score(rows, n, "check", t));
	print_score("all, fitted", score(rows, n, NULL, t));
	free(t);
}

int main(int argc, char **argv)
{
	const char *root = getenv("WAVECC_AITER"), *csv = "bench/calibration/aiter_gemms.csv", *only = NULL;
	bool fit = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--aiter") == 0 && i + 1 < argc)
			root = argv[++i];
		else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
			csv = argv[++i];
		else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--fit") == 0)
			fit = true;
		else
			bench_fail(2, "usage: calibrate [--aiter DIR] [--csv FILE] [--fit] [--only SUBSTRING]");
	}
	if (!root || !*root) {
		printf("SKIP: the model against AMD-measured GEMMs: set WAVECC_AITER to aiter's repository folder "
		       "(github.com/ROCm/aiter; its hsa/ holds the code objects)\n");
		return 0;
	}
	char hsa[4096];
	snprintf(hsa, sizeof hsa, "%s/hsa", root);
	Row *rows;
	int n = read_rows(csv, &rows);
	printf("the cycle model against AMD-measured GEMM times (%s; a model, not a measurement)\n", csv);
	printf("%-5s %-6s %-44s %6s %6s %6s %9s %9s %7s  %s\n", "set", "gpu", "kernel", "M", "N", "K", "measured", "model",
		"error", "model's clock, matrix core, L2 bytes per clock used/share");
	for (int i = 0; i < n; i++) {
		Row *r = &rows[i];
		if (only && !strstr(r->kernel, only) && !strstr(r->gpu, only))
			continue;
		run_row(r, hsa, fit);
		/* the symbol _ZN5aiterNNname E without the mangling */
		const char *name = r->kernel;
		if (strncmp(name, "_ZN5aiter", 9) == 0)
			for (name += 9; *name >= '0' && *name <= '9'; name++)
				;
		char shortname[45];
		snprintf(shortname, sizeof shortname, "%.*s", (int)strcspn(name, "E"), name);
		if (r->ran)
			printf("%-5s %-6s %-44s %6ld %6ld %6ld %7.1fus %7.1fus %+6.1f%%  %s\n", r->set, r->gpu, shortname, r->m,
				r->n, r->k, r->us, r->model_us, 100 * (r->model_us / r->us - 1), r->bound);
		else
			printf("%-5s %-6s %-44s %6ld %6ld %6ld %7.1fus %9s %7s  not run: %s\n", r->set, r->gpu, shortname, r->m,
				r->n, r->k, r->us, "-", "", r->why);
		fflush(stdout);
	}
	double *t = xcalloc((size_t)n + 1, sizeof *t);
	int skipped = 0;
	for (int i = 0; i < n; i++) {
		t[i] = rows[i].ran ? rows[i].model_us : -1;
		skipped += !rows[i].ran;
	}
	printf("errors (modelled / measured - 1), at the parameter table's values; %d rows not run:\n", skipped);
	print_score("fit set", score(rows, n, "fit", t));
	print_score("held-out check set", score(rows, n, "check", t));
	print_score("all", score(rows, n, NULL, t));
	const char *gpus[] = {"MI300X", "MI308X", "MI355X"};
	for (int i = 0; i < 3; i++) {
		char what[64];
		snprintf(what, sizeof what, "held-out check set, %s", gpus[i]);
		print_score(what, score_of(rows, n, "check", gpus[i], t));
		snprintf(what, sizeof what, "all, %s", gpus[i]);
		print_score(what, score_of(rows, n, NULL, gpus[i], t));
	}
	free(t);
	if (fit)
		fit_rows(rows, n);
	for (int i = 0; i < n; i++)
		free(rows[i].cand_us);
	free(rows);
	return 0;
}
