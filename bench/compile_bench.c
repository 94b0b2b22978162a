/* compile_bench.c — compile time of every example the compiler accepts, per
 * stage, next to clang-19 -O3 compiling the LLVM anchor kernel in the same
 * run (issue 5, item 8).
 *
 *   compile_bench [-n N] [--examples DIR] [--anchor FILE.cl] [--mcpu CPU]
 *
 * For each DIR/NAME.json (sorted by name; the list is read at run time, so it
 * grows with the compiler) the steps of `wavecc compile K.json -o K.hsaco`
 * run in this process N times: load (frontend), every pass of the pipeline
 * (Compile.pass_us) and the checks between them, llvm-mc, our linker, and
 * writing the code object and launch descriptor (atomically, into a
 * temporary folder removed at the end). A kernel the compiler does not take
 * is listed as "not compiled yet: <first error line>". Machines are noisy,
 * so each figure is the best of N and the median is shown beside it; the
 * targets of the issue (total under 30 ms, the compiler's own share —
 * load, passes and checks, without llvm-mc, link and write — under 5 ms)
 * are judged on the best. The reference is the command the anchors README
 * gives, `clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942
 * -nogpulib -O3 FILE.cl -o ref.hsaco` (the driver runs ld.lld-19 to make the
 * code object), timed as a child process like llvm-mc is. Since llvm-mc is
 * a process start per compilation, it also times llvm-mc on empty input to
 * show how much of its share is start-up.
 *
 * Run by `make bench-compile`. */
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../asm/asm.h"
#include "../driver/stats.h"
#include "../frontend/frontend.h"

extern char **environ;

enum { MAX_RUNS = 200 };
/* Samples per stage: the passes by index, then these. */
enum { ST_LOAD = MAX_PASSES, ST_CHECKS, ST_MC, ST_LINK, ST_WRITE, ST_OWN, ST_TOTAL, NSTAGES };

typedef struct Samples {
	double v[MAX_RUNS];
	int n;
} Samples;

static double best(const Samples *s)
{
	double b = s->v[0];
	for (int i = 1; i < s->n; i++)
		b = MIN(b, s->v[i]);
	return b;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(const Samples *s)
{
	double t[MAX_RUNS];
	memcpy(t, s->v, sizeof(double) * (size_t)s->n);
	qsort(t, (size_t)s->n, sizeof(double), cmp_double);
	return s->n % 2 ? t[s->n / 2] : 0.5 * (t[s->n / 2 - 1] + t[s->n / 2]);
}

static void add(Samples *s, double us)
{
	if (s->n < MAX_RUNS)
		s->v[s->n++] = us / 1000.0; /* ms */
}

/* One example's results. */
typedef struct Result {
	char name[128];
	bool ok;
	char why[512]; /* first error line when !ok */
	Samples st[NSTAGES];
} Result;

/* One compilation of `path`, timed stage by stage into r (ok) or the first
 * error line into r->why. */
static bool compile_once(const char *path, const char *mcpu, const char *outdir, Result *r)
{
	char *errs = NULL;
	size_t errs_len = 0;
	FILE *mem = open_memstream(&errs, &errs_len);
	if (!mem)
		die("open_memstream failed");
	Diag d;
	diag_init(&d);
	d.out = mem;
	bool ok = false;
	Compile c;
	bool have_c = false;

	double t0 = compile_now_us();
	Kernel *k = load_kernel_file(path, &d);
	double t1 = compile_now_us();
	if (!k)
		goto done;
	CompileOptions o = {.mcpu = mcpu, .code_object = "k.hsaco"};
	compile_init(&c, k, &o, &d);
	have_c = true;
	if (compile_run(&c) != 0)
		goto done;
	double t4 = compile_now_us();
	char out[1024], launch[1024];
	snprintf(out, sizeof out, "%s/k.hsaco", outdir);
	snprintf(launch, sizeof launch, "%s/k.launch.json", outdir);
	if (write_file_atomic(out, c.code_object.data, c.code_object.len, 0644) != 0 ||
		write_file_atomic(launch, c.launch_json.data, c.launch_json.len, 0644) != 0)
		die("cannot write into %s", outdir);
	double t5 = compile_now_us();

	StageTimes st = {.load_us = t1 - t0};
	for (int i = 0; i < compile_npasses; i++)
		add(&r->st[i], c.pass_us[i]);
	add(&r->st[ST_LOAD], t1 - t0);
	add(&r->st[ST_CHECKS], c.check_us);
	add(&r->st[ST_MC], c.pass_us[compile_pass_index("assemble")]);
	add(&r->st[ST_LINK], c.pass_us[compile_pass_index("link")]);
	add(&r->st[ST_WRITE], t5 - t4);
	add(&r->st[ST_OWN], compile_own_us(&c, &st));
	add(&r->st[ST_TOTAL], t5 - t0);
	ok = true;
done:
	if (have_c)
		compile_free(&c);
	if (k)
		kernel_free(k);
	fclose(mem);
	if (!ok) {
		const char *e = errs && *errs ? errs : "(no message)";
		snprintf(r->why, sizeof r->why, "%.*s", (int)strcspn(e, "\n"), e);
	}
	free(errs);
	return ok;
}

/* Run argv as a child with its output discarded; the wall time in us, or
 * -1 if it could not start or failed. */
static double time_child(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	double t0 = compile_now_us();
	int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e != 0)
		return -1;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	double t = compile_now_us() - t0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void usage(void)
{
	fprintf(stderr, "usage: compile_bench [-n N] [--examples DIR] [--anchor FILE.cl] [--mcpu gfx942|gfx90a]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int n = 20;
	const char *exdir = "examples", *anchor = "tests/validate/kernels/gemm_lds.cl", *mcpu = "gfx942";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "--examples") == 0 && i + 1 < argc)
			exdir = argv[++i];
		else if (strcmp(argv[i], "--anchor") == 0 && i + 1 < argc)
			anchor = argv[++i];
		else if (strcmp(argv[i], "--mcpu") == 0 && i + 1 < argc)
			mcpu = argv[++i];
		else
			usage();
	}
	if (n < 1 || n > MAX_RUNS || !target_from_name(mcpu))
		usage();

	/* The examples, sorted. */
	DIR *dp = opendir(exdir);
	if (!dp) {
		fprintf(stderr, "compile_bench: cannot open %s\n", exdir);
		return 1;
	}
	Vec(char *) files = {0};
	for (struct dirent *e; (e = readdir(dp));) {
		size_t l = strlen(e->d_name);
		if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0)
			vec_push(&files, xstrdup(e->d_name));
	}
	closedir(dp);
	qsort(files.data, files.len, sizeof(char *), cmp_str);

	char tmp[] = "/tmp/compile-bench-XXXXXX";
	if (!mkdtemp(tmp))
		die("mkdtemp failed");

	printf("compile-time benchmark for %s: best and median of %d runs in process, in ms\n\n", mcpu, n);

	/* The reference, measured in this run. */
	char ref_out[1024];
	snprintf(ref_out, sizeof ref_out, "%s/ref.hsaco", tmp);
	char mcpu_flag[64];
	snprintf(mcpu_flag, sizeof mcpu_flag, "-mcpu=%s", mcpu);
	char *clang_argv[] = {"clang-19", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", mcpu_flag, "-nogpulib",
		"-O3", (char *)anchor, "-o", ref_out, NULL};
	int nref = MIN(n, 5); /* clang takes a few hundred ms a run */
	Samples ref = {0};
	for (int i = 0; i < nref; i++) {
		double t = time_child(clang_argv);
		if (t < 0) {
			ref.n = 0;
			break;
		}
		add(&ref, t);
	}
	if (ref.n)
		printf("reference: clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa %s -nogpulib -O3 %s -o ref.hsaco\n"
		       "           (the driver also runs ld.lld-19): best %.1f, median %.1f (%d runs)\n",
			mcpu_flag, anchor, best(&ref), median(&ref), ref.n);
	else
		printf("reference: clang-19 on %s did not run or failed; no ratios\n", anchor);

	/* llvm-mc's start-up: the same call on input with no instructions. */
	Samples empty = {0};
	AsmOptions ao = {.mcpu = mcpu};
	for (int i = 0; i < n; i++) {
		Buf o = {0}, m = {0};
		double t0 = compile_now_us();
		int rc = asm_assemble(&ao, "", 0, &o, &m);
		double t = compile_now_us() - t0;
		buf_free(&o);
		buf_free(&m);
		if (rc != 0)
			break;
		add(&empty, t);
	}
	if (empty.n)
		printf("llvm-mc on empty input (process start-up): best %.2f, median %.2f\n", best(&empty),
			median(&empty));
	printf("\n");

	Result *res = xcalloc(files.len ? files.len : 1, sizeof *res);
	int nok = 0;
	printf("%-26s %7s %7s %7s %8s %7s %7s %8s %8s %8s  %-10s %-8s\n", "kernel", "load", "passes", "checks",
		"llvm-mc", "link", "write", "total", "(median)", "own", "total<30ms", "own<5ms");
	for (size_t f = 0; f < files.len; f++) {
		Result *r = &res[f];
		snprintf(r->name, sizeof r->name, "%.*s", (int)(strlen(files.data[f]) - 5), files.data[f]);
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", exdir, files.data[f]);
		r->ok = true;
		for (int i = 0; i < n && r->ok; i++)
			r->ok = compile_once(path, mcpu, tmp, r);
		if (!r->ok) {
			printf("%-26s not compiled yet: %s\n", r->name, r->why);
			continue;
		}
		nok++;
		double passes = 0;
		for (int i = 0; i < compile_npasses; i++)
			if (compile_pass_own[i])
				passes += best(&r->st[i]);
		double tot = best(&r->st[ST_TOTAL]), own = best(&r->st[ST_OWN]);
		printf("%-26s %7.3f %7.3f %7.3f %8.2f %7.3f %7.3f %8.2f %8.2f %8.3f  %-10s %-8s\n", r->name,
			best(&r->st[ST_LOAD]), passes, best(&r->st[ST_CHECKS]), best(&r->st[ST_MC]),
			best(&r->st[ST_LINK]), best(&r->st[ST_WRITE]), tot, median(&r->st[ST_TOTAL]), own,
			tot < 30 ? "PASS" : "MISS", own < 5 ? "PASS" : "MISS");
	}
	printf("(passes: the sum of the best time of each pass; own: load + passes + checks, best of the sums)\n");
	if (ref.n)
		printf("(the reference is an LDS GEMM; until wavecc compiles the matching GEMM the ratios compare\n"
		       " different kernels)\n");

	if (nok) {
		printf("\nbest time per pass, us\n%-22s", "pass");
		for (size_t f = 0; f < files.len; f++)
			if (res[f].ok)
				printf(" %12.12s", res[f].name);
		printf("\n");
		for (int i = 0; i < compile_npasses; i++) {
			if (!compile_pass_own[i])
				continue;
			printf("%-22s", compile_pass_name[i]);
			for (size_t f = 0; f < files.len; f++)
				if (res[f].ok)
					printf(" %12.1f", 1000 * best(&res[f].st[i]));
			printf("\n");
		}

		printf("\n%-26s %10s %10s %12s %10s\n", "ratios (best)", "total", "own", "llvm-mc", "llvm-mc");
		printf("%-26s %10s %10s %12s %10s\n", "", "/ clang", "/ clang", "/ total", "start-up");
		double mc_share = 0, startup_share = 0;
		for (size_t f = 0; f < files.len; f++) {
			Result *r = &res[f];
			if (!r->ok)
				continue;
			double tot = best(&r->st[ST_TOTAL]), mc = best(&r->st[ST_MC]);
			mc_share += mc / tot;
			char a[32] = "-", b[32] = "-", e[32] = "-";
			if (ref.n) {
				snprintf(a, sizeof a, "%.4f", tot / best(&ref));
				snprintf(b, sizeof b, "%.5f", best(&r->st[ST_OWN]) / best(&ref));
			}
			if (empty.n) {
				snprintf(e, sizeof e, "%.0f%%", 100 * best(&empty) / mc);
				startup_share += best(&empty) / mc;
			}
			printf("%-26s %10s %10s %11.0f%% %10s\n", r->name, a, b, 100 * mc / tot, e);
		}
		printf("\nllvm-mc takes %.0f%% of the total on average over %d kernels", 100 * mc_share / nok, nok);
		if (empty.n)
			printf("; llvm-mc on empty input (%.2f ms best) is %.0f%% of llvm-mc's time", best(&empty),
				100 * startup_share / nok);
		printf(".\n");
	}

	/* Clean up the temporary folder (only files this program wrote). */
	const char *names[] = {"k.hsaco", "k.launch.json", "ref.hsaco"};
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		char p[1024];
		snprintf(p, sizeof p, "%s/%s", tmp, names[i]);
		unlink(p);
	}
	if (rmdir(tmp) != 0)
		fprintf(stderr, "compile_bench: cannot remove %s\n", tmp);
	for (size_t f = 0; f < files.len; f++)
		free(files.data[f]);
	vec_free(&files);
	free(res);
	return 0;
}
