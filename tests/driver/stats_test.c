/* stats_test.c — `wavecc compile --stats` (driver/stats.c).
 *
 * occupancy: stats_occupancy on hand-computed cases (the arithmetic is in
 *   each row's comment) and LLVM's own figures for two gfx90a kernels.
 * counts: every example the compiler accepts is compiled with -S --stats;
 *   the test classifies the instruction lines of the written assembly itself
 *   (by mnemonic, not through isa_class) and the counts must agree class by
 *   class. The same kernel compiled to a code object must report the same
 *   counts, and its code size must equal the function symbol's size that
 *   llvm-readelf-19 reads from the written .hsaco; the descriptor figures
 *   must follow from the allocated ones by AMDGPUUsage's compute_pgm_rsrc1 formulas.
 * times: every stage is reported, and the stages add up to no more than the
 *   total (they are disjoint intervals of it).
 * bad input: --stats on a kernel that does not compile or a missing file
 *   prints no report and writes nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../driver/stats.h"
#include "../test.h"

/* ---- occupancy ---- */

typedef struct {
	int v, a, s, lds, threads;
	int waves;         /* expected waves per SIMD */
	const char *limit; /* expected limiting resource */
} OccCase;

static const OccCase OCC_CASES[] = {
	/* align(10,4)=12 -> 16 regs: 512/16=32; 20+6=26: 800/26=30; slots 8 */
	{10, 0, 20, 0, 256, 8, "wave slots"},
	/* 100 -> 104: 512/104 = 4 (4.9) */
	{100, 0, 20, 0, 64, 4, "VGPRs"},
	/* 128+128 = 256: 2 */
	{128, 128, 20, 0, 256, 2, "VGPRs"},
	/* align(9,4)=12, +64 = 76 -> 80: 512/80 = 6 (6.4) */
	{9, 64, 20, 0, 64, 6, "VGPRs"},
	/* 96+6 = 102: 800/102 = 7 (7.8) */
	{8, 0, 96, 0, 64, 7, "SGPRs"},
	/* 94+6 = 100: 800/100 = 8, LLVM's "<= 100 SGPRs: 8 waves" */
	{8, 0, 94, 0, 64, 8, "wave slots"},
	/* 83+6 = 89: LLVM's table gives 8 (> 88); 800/89 = 8 */
	{8, 0, 83, 0, 64, 8, "wave slots"},
	/* LDS 40000 -> 40448 (79 granules of 512): one workgroup per CU; 4 waves
	 * over 4 SIMDs: 1 */
	{8, 0, 16, 40000, 256, 1, "LDS"},
	/* LDS 16384: 4 one-wave workgroups per CU over 4 SIMDs: 1 */
	{8, 0, 16, 16384, 64, 1, "LDS"},
	/* LDS 100 -> 512: 128 workgroups; waves allow 4*8/1 = 32: 8 */
	{8, 0, 16, 100, 64, 8, "wave slots"},
	/* LDS 8192 with 256-thread groups: 8 groups x 4 waves / 4 SIMDs = 8 */
	{8, 0, 16, 8192, 256, 8, "wave slots"},
	/* LDS 65536: 1 group of 8 waves: 2 per SIMD */
	{8, 0, 16, 65536, 512, 2, "LDS"},
	/* more LDS than a CU has: nothing fits */
	{8, 0, 16, 65537, 64, 0, "LDS"},
	/* 1024 threads = 16 waves need 4 per SIMD; 200 regs allow 2: none fit */
	{200, 0, 16, 0, 1024, 0, "workgroup size"},
	/* 5 waves per SIMD by VGPRs (512/96 = 5), 8-wave groups: 4*5/8 = 2
	 * groups = 16 waves = 4 per SIMD */
	{96, 0, 16, 0, 512, 4, "workgroup size"},
	/* 3-wave groups, 8 per SIMD: 32/3 = 10 groups = 30 waves -> 8 (7.5 up) */
	{8, 0, 16, 0, 192, 8, "wave slots"},
	/* a full unified file: 256+256 = 512: 1 */
	{256, 256, 16, 0, 64, 1, "VGPRs"},
};

START_TEST(occupancy_cases)
{
	const OccCase *k = &OCC_CASES[_i];
	Occupancy o;
	stats_occupancy(&target_gfx942, k->v, k->a, k->s, k->lds, k->threads, &o);
	ck_assert_msg(o.waves_per_simd == k->waves, "case %d: %d waves per SIMD, expected %d", _i, o.waves_per_simd,
		k->waves);
	ck_assert_msg(strcmp(o.limit, k->limit) == 0, "case %d: limited by %s, expected %s", _i, o.limit, k->limit);
	Occupancy p;
	stats_occupancy(&target_gfx90a, k->v, k->a, k->s, k->lds, k->threads, &p);
	ck_assert_int_eq(p.waves_per_simd, o.waves_per_simd);
}
END_TEST

/* LLVM's test agpr-register-count.ll (gfx90a): 9 VGPRs + 32 AGPRs give a
 * total of 44 and occupancy 8; 40 VGPRs + 16 AGPRs give 56 and 8. */
START_TEST(occupancy_matches_llvm_agpr_totals)
{
	Occupancy o;
	stats_occupancy(&target_gfx90a, 9, 32, 10, 0, 64, &o);
	ck_assert_int_eq(o.vgpr_alloc, 48); /* 44 rounded to the granule */
	ck_assert_int_eq(o.waves_per_simd, 8);
	stats_occupancy(&target_gfx90a, 40, 16, 10, 0, 64, &o);
	ck_assert_int_eq(o.vgpr_alloc, 56);
	ck_assert_int_eq(o.waves_per_simd, 8);
	ck_assert_int_eq(o.by_vgprs, 9);
}
END_TEST

/* ---- the report ---- */

static const char *dir;

/* The integer after `key` at the start of a line of the report, or -1. */
static long stat_int(const char *out, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == ' ') {
			char *end;
			long v = strtol(p + n, &end, 10);
			return end == p + n ? -1 : v;
		}
	return -1;
}

/* The milliseconds of a "time NAME" line, or -1. */
static double stat_ms(const char *out, const char *name)
{
	char key[64];
	snprintf(key, sizeof key, "\ntime %s ", name);
	const char *p = strstr(out, key);
	return p ? strtod(p + strlen(key), NULL) : -1;
}

/* The class of one assembly mnemonic, decided here from its spelling. */
static const char *classify(const char *m)
{
	static const char *const control[] = {"s_waitcnt", "s_endpgm", "s_nop", "s_barrier", "s_sleep", "s_setprio",
		"s_sendmsg", "s_trap", "s_icache_inv", "s_set_gpr_idx_off"};
	static const char *const trans[] = {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"};
	if (strncmp(m, "s_load_", 7) == 0 || strncmp(m, "s_buffer_load_", 14) == 0 || strncmp(m, "s_store_", 8) == 0 ||
		strncmp(m, "s_memtime", 9) == 0 || strncmp(m, "s_dcache", 8) == 0)
		return "smem";
	if (strcmp(m, "s_branch") == 0 || strncmp(m, "s_cbranch", 9) == 0 || strncmp(m, "s_setpc", 7) == 0 ||
		strncmp(m, "s_swappc", 8) == 0)
		return "branch";
	for (size_t i = 0; i < ARRAY_LEN(control); i++)
		if (strcmp(m, control[i]) == 0)
			return "control";
	if (strncmp(m, "s_", 2) == 0)
		return "salu";
	if (strncmp(m, "ds_", 3) == 0)
		return "lds";
	if (strncmp(m, "buffer_", 7) == 0 || strncmp(m, "global_", 7) == 0 || strncmp(m, "flat_", 5) == 0 ||
		strncmp(m, "scratch_", 8) == 0)
		return strstr(m, "_store") ? "vmem-store" : "vmem-load";
	if (strncmp(m, "v_mfma", 6) == 0 || strncmp(m, "v_smfmac", 8) == 0)
		return "mfma";
	for (size_t i = 0; i < ARRAY_LEN(trans); i++)
		if (strncmp(m, trans[i], strlen(trans[i])) == 0)
			return "trans";
	if (strncmp(m, "v_", 2) == 0)
		return "valu";
	return NULL;
}

/* Count the instruction lines of the kernel's code in assembly text `s`
 * (between the kernel's label and its .L..._end label) per class name. */
static int count_asm(const char *s, const char *const names[], int counts[])
{
	memset(counts, 0, sizeof(int) * MC_COUNT);
	int total = 0;
	bool in_code = false;
	char line[512];
	for (const char *p = s; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		p += n + (e ? 1 : 0);
		if (!in_code) {
			/* the kernel label: "name:" at column 0 after the .type line */
			in_code = n > 1 && line[n - 1] == ':' && line[0] != '.' && line[0] != '\t';
			continue;
		}
		if (strncmp(line, ".L", 2) == 0 && strstr(line, "_end:"))
			break;
		if (line[0] != '\t' || line[1] == '/' || line[1] == '.')
			continue; /* labels, comments, directives */
		char m[64];
		if (sscanf(line + 1, "%63s", m) != 1)
			continue;
		const char *cls = classify(m);
		ck_assert_msg(cls, "unclassified instruction line: %s", line);
		for (int k = 0; k < MC_COUNT; k++)
			if (strcmp(names[k], cls) == 0)
				counts[k]++;
		total++;
	}
	return total;
}

static CmdResult compile(const char *args)
{
	Buf cmd = {0};
	buf_printf(&cmd, "cd '%s' && '%s' compile %s", test_root(), test_bin(), args);
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	buf_free(&cmd);
	return r;
}

static void check_times(const char *out)
{
	double parts = stat_ms(out, "load") + stat_ms(out, "checks") + stat_ms(out, "llvm-mc") +
		       stat_ms(out, "link") + stat_ms(out, "write");
	double own = stat_ms(out, "load") + stat_ms(out, "checks");
	for (int i = 0; i < compile_npasses; i++) {
		if (!compile_pass_own[i]) /* llvm-mc and the linker: their own rows below */
			continue;
		double t = stat_ms(out, compile_pass_name[i]);
		ck_assert_msg(t >= 0, "no time for %s", compile_pass_name[i]);
		parts += t;
		own += t;
	}
	ck_assert(stat_ms(out, "llvm-mc") > 0);
	ck_assert(stat_ms(out, "link") > 0);
	ck_assert(stat_ms(out, "write") >= 0);
	/* printed to 0.001 ms: allow the rounding of each row */
	ck_assert_msg(fabs(own - stat_ms(out, "compiler")) < 0.001 * (compile_npasses + 3), "compiler %.3f, sum %.3f",
		stat_ms(out, "compiler"), own);
	ck_assert_msg(parts <= stat_ms(out, "total") + 0.001 * (compile_npasses + 6), "stages %.3f > total %.3f", parts,
		stat_ms(out, "total"));
}

/* Compile one example both ways and check the report against the files.
 * Returns false if the compiler does not accept the example (yet). */
static bool check_example(const char *name, const char *mcpu)
{
	char args[2048], path[2048];
	snprintf(args, sizeof args, "examples/%s.json --mcpu %s -S --stats -o '%s/%s_%s.s'", name, mcpu, dir, name,
		mcpu);
	CmdResult r = compile(args);
	if (r.status != 0) {
		ck_assert_msg(r.status == 1, "%s: status %d\n%s", name, r.status, r.err);
		ck_assert_msg(!strstr(r.out, "inst total"), "%s: a report for a failed compilation", name);
		cmd_result_free(&r);
		return false;
	}
	snprintf(path, sizeof path, "%s/%s_%s.s", dir, name, mcpu);
	char *text = read_file(path, NULL);
	ck_assert_ptr_nonnull(text);
	int counts[MC_COUNT];
	int total = count_asm(text, isa_class_name, counts);
	for (int k = 0; k < MC_COUNT; k++) {
		char key[64];
		snprintf(key, sizeof key, "inst %s", isa_class_name[k]);
		ck_assert_msg(stat_int(r.out, key) == counts[k], "%s: %s reported %ld, the assembly has %d", name,
			key, stat_int(r.out, key), counts[k]);
	}
	ck_assert_int_eq(stat_int(r.out, "inst total"), total);
	ck_assert_int_gt(total, 0);

	/* Descriptor figures from the allocated ones (AMDGPUUsage, compute_pgm_rsrc1). */
	long v = stat_int(r.out, "vgpr"), a = stat_int(r.out, "agpr"), s = stat_int(r.out, "sgpr");
	ck_assert(v > 0 && a >= 0 && s > 0);
	ck_assert_int_eq(stat_int(r.out, "descriptor vgpr"), ((v + 3) / 4 * 4 + a + 7) / 8 * 8);
	ck_assert_int_eq(stat_int(r.out, "descriptor sgpr"), (s + 6 + 7) / 8 * 8);
	ck_assert(stat_int(r.out, "waves per SIMD") >= 1 && stat_int(r.out, "waves per SIMD") <= 8);
	check_times(r.out);

	/* The same through a code object. */
	snprintf(args, sizeof args, "examples/%s.json --mcpu %s --stats -o '%s/%s_%s.hsaco'", name, mcpu, dir, name,
		mcpu);
	CmdResult h = compile(args);
	ck_assert_msg(h.status == 0, "%s", h.err);
	for (int k = 0; k < MC_COUNT; k++) {
		char key[64];
		snprintf(key, sizeof key, "inst %s", isa_class_name[k]);
		ck_assert_int_eq(stat_int(h.out, key), counts[k]);
	}
	ck_assert_int_eq(stat_int(h.out, "code bytes"), stat_int(r.out, "code bytes"));
	check_times(h.out);

	/* The code size as llvm-readelf-19 reads the function symbol. */
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "llvm-readelf-19 -s '%s/%s_%s.hsaco' | awk '$4 == \"FUNC\" { print $3 }'", dir, name,
		mcpu);
	CmdResult re = run_cmd(cmd, NULL);
	ck_assert_int_eq(re.status, 0);
	ck_assert_msg(atol(re.out) == stat_int(h.out, "code bytes") && atol(re.out) > 0,
		"%s: llvm-readelf says %s bytes, --stats %ld", name, re.out, stat_int(h.out, "code bytes"));
	cmd_result_free(&re);
	free(text);
	cmd_result_free(&h);
	cmd_result_free(&r);
	return true;
}

/* Every example; the set that compiles grows, but these must be in it. */
START_TEST(counts_match_the_assembly)
{
	static const char *const must[] = {"copy", "copy_aligned", "add", "cast"};
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s/examples' && ls *.json", test_root());
	CmdResult ls = run_cmd(cmd, NULL);
	ck_assert_int_eq(ls.status, 0);
	int compiled = 0, required = 0;
	for (char *save = NULL, *f = strtok_r(ls.out, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) {
		f[strlen(f) - 5] = 0; /* .json */
		bool ok = check_example(f, "gfx942");
		compiled += ok;
		for (size_t i = 0; i < ARRAY_LEN(must); i++)
			if (strcmp(f, must[i]) == 0) {
				ck_assert_msg(ok, "%s no longer compiles", f);
				required++;
			}
	}
	ck_assert_int_eq(required, (int)ARRAY_LEN(must));
	ck_assert_int_ge(compiled, required);
	cmd_result_free(&ls);
}
END_TEST

static bool exists(const char *p);

START_TEST(gfx90a_report)
{
	ck_assert(check_example("add", "gfx90a"));
	/* The assembly goes to a scratch file: make check must never write to
	 * (or, as once happened, replace) /dev/null. */
	char args[4096], out[2048];
	snprintf(out, sizeof out, "%s/gfx90a_report.s", dir);
	snprintf(args, sizeof args, "examples/add.json --mcpu gfx90a --stats -S -o '%s'", out);
	CmdResult r = compile(args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "(gfx90a)"));
	cmd_result_free(&r);
	ck_assert(exists(out));
}
END_TEST

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

START_TEST(bad_input_prints_no_report)
{
	char args[4096], out[1024];
	snprintf(out, sizeof out, "%s/reduce.hsaco", dir);
	snprintf(args, sizeof args, "examples/reduce_sum.json --stats -o '%s'", out);
	CmdResult r = compile(args);
	/* reduce_sum may compile once reductions land; then this case is moot */
	if (r.status != 0) {
		ck_assert_int_eq(r.status, 1);
		ck_assert_str_eq(r.out, "");
		ck_assert(!exists(out));
	}
	cmd_result_free(&r);

	snprintf(args, sizeof args, "'%s/missing.json' --stats -S -o '%s/missing.s'", dir, dir);
	r = compile(args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	cmd_result_free(&r);

	/* a bad llvm-mc: no report, nothing written, even with -S */
	snprintf(out, sizeof out, "%s/nomc.s", dir);
	snprintf(args, sizeof args, "examples/copy.json --stats -S --llvm-mc /nonexistent/llvm-mc -o '%s'", out);
	r = compile(args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert(!exists(out));
	cmd_result_free(&r);

	r = compile("--stats");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	dir = test_tmpdir("stats");
	Suite *s = suite_create("compile/stats");
	TCase *t = tcase_create("occupancy");
	tcase_add_loop_test(t, occupancy_cases, 0, (int)ARRAY_LEN(OCC_CASES));
	tcase_add_test(t, occupancy_matches_llvm_agpr_totals);
	suite_add_tcase(s, t);
	t = tcase_create("report");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, counts_match_the_assembly);
	tcase_add_test(t, gfx90a_report);
	tcase_add_test(t, bad_input_prints_no_report);
	suite_add_tcase(s, t);
	return run_suite(s);
}
