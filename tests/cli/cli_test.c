/* cli_test.c — the wavecc command line as a user meets it (issue 9).
 *
 * outputs:  -o onto a character device (a private one made with mknod), a
 *           FIFO (with a reader), a symbolic link, '-' and /dev/stdout is
 *           written into, never replaced; the launch descriptor follows the
 *           documented rules; compile -S --launch, then `wavecc as`, then
 *           `wavecc run` works; the same with one s_waitcnt or s_barrier
 *           removed passes by default and fails under --memory late (exit
 *           1, the wait named) or warns under --races.
 * names:    arguments called y, n, yes, no, on, off, true, false, null
 *           survive the code-object metadata and run.
 * options:  every command takes --version, -v and -h, lists its options in
 *           its usage line, rejects what it does not take (exit 2, pointing
 *           at `wavecc help CMD`); the clang/llvm-mc spellings; one seed
 *           option; -D on any symbol in interp; --out in run K.json; the
 *           same exit status for the same mistake everywhere.
 * messages: an assembler error names the generated line and its graph op;
 *           PASS lines say how atol and rtol combine; an error about a place
 *           in an input file has one form, the compiler's FILE:LINE:COL:
 *           error: (kernel graphs, launch descriptors at run and profile,
 *           assembly, code objects, --assume files).
 * bad input: `as` on an empty file or one without a kernel; endless inputs
 *           (/dev/zero); --out sets all or nothing; run's temporary folder
 *           gone after an error and after a fatal signal. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../util/npy.h"
#include "../test.h"

static const char *dir;

static const char *path(const char *name)
{
	char p[2048];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return intern(p);
}

/* `wavecc ARGS` run from the source tree (examples/ resolve). */

static int status_of(CmdResult r)
{
	int s = r.status;
	cmd_result_free(&r);
	return s;
}

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

static char *slurp(const char *p)
{
	size_t len;
	char *t = read_file(p, &len);
	ck_assert_msg(t != NULL, "%s: %s", p, strerror(errno));
	return t;
}

/* ---- outputs ---- */

START_TEST(output_to_a_character_device)
{
	const char *dev = path("nul");
	unlink(dev);
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) != 0) {
		fprintf(stderr, "output_to_a_character_device: mknod not permitted (%s); skipped\n", strerror(errno));
		return;
	}
	struct stat a, b;
	ck_assert_int_eq(stat(dev, &a), 0);
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -S -o '%s'", dev)), 0);
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -o '%s'", dev)), 0);
	ck_assert_int_eq(status_of(test_wavecc("interp examples/add.json --seed 1 --out c='%s'", dev)), 0);
	ck_assert_int_eq(stat(dev, &b), 0);
	ck_assert(S_ISCHR(b.st_mode));
	ck_assert_uint_eq(a.st_ino, b.st_ino);
	ck_assert_uint_eq(a.st_rdev, b.st_rdev);
	/* no descriptor beside a device unless asked for */
	ck_assert(!exists(path("nul.launch.json")));
}
END_TEST

START_TEST(output_to_a_fifo_with_a_reader)
{
	const char *fifo = path("fifo"), *got = path("fifo.got"), *ref = path("ref.s");
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -S -o '%s'", ref)), 0);
	CmdResult r = test_wavecc("compile examples/add.json -S -o '%s' & cat '%s' > '%s'; wait $!", fifo, fifo, got);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	struct stat st;
	ck_assert_int_eq(stat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	char *x = slurp(got), *y = slurp(ref);
	ck_assert_str_eq(x, y);
	free(x);
	free(y);
}
END_TEST

START_TEST(output_through_a_symlink)
{
	const char *real = path("real.hsaco"), *link = path("link.hsaco");
	unlink(real);
	unlink(link);
	ck_assert_int_eq(symlink("real.hsaco", link), 0);
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -o '%s'", link)), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(lstat(real, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	char *t = slurp(real);
	ck_assert_int_eq(memcmp(t, "\x7f" "ELF", 4), 0);
	free(t);
	/* the descriptor beside the name given, naming it; it runs */
	t = slurp(path("link.launch.json"));
	ck_assert_ptr_nonnull(strstr(t, "\"code_object\": \"link.hsaco\""));
	free(t);
	ck_assert_int_eq(status_of(test_wavecc("run '%s' --seed 3", path("link.launch.json"))), 0);
}
END_TEST

START_TEST(output_to_stdout)
{
	CmdResult r = test_wavecc("compile examples/add.json -S -o -");
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, ".amdgcn_target"));
	cmd_result_free(&r);
	r = test_wavecc("compile examples/add.json -S -o /dev/stdout");
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, ".amdgcn_target"));
	cmd_result_free(&r);
	/* a code object on stdout, and no descriptor anywhere */
	char cmd[8192], root[4096];
	ck_assert_ptr_nonnull(realpath(test_root(), root));
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compile '%s/examples/add.json' -o - | head -c 4", dir, test_bin(), root);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(memcmp(r.out, "\x7f" "ELF", 4), 0);
	cmd_result_free(&r);
	ck_assert(!exists(path("add.launch.json")));
	ck_assert(!exists(path("-.launch.json")));
	/* --stats and the object cannot share stdout */
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -o - --stats")), 2);
}
END_TEST

START_TEST(assembly_with_descriptor_reassembles_and_runs)
{
	const char *s = path("k.s"), *l = path("k.launch.json");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -S -o '%s' --launch '%s'", s, l)), 0);
	char *t = slurp(l);
	ck_assert_ptr_nonnull(strstr(t, "\"code_object\": \"k.hsaco\""));
	free(t);
	ck_assert(!exists(path("k.hsaco")));
	CmdResult r = test_wavecc("as '%s'", s);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	ck_assert(exists(path("k.hsaco")));
	r = test_wavecc("run '%s' --seed 2 --out c='%s'", l, path("k_c.npy"));
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	ck_assert(exists(path("k_c.npy")));
}
END_TEST

/* Our GEMM's assembly with its first `s_waitcnt vmcnt(1)` (before the LDS
 * write of a loaded tile) or its second s_barrier (between the LDS writes
 * and reads) deleted: the default run cannot tell (same output), late
 * memory fails naming the wait, the race detector warns naming both
 * instructions, and the cycle model's order (--wave-order model: a wave
 * whose tile arrives later writes it later) gives other outputs. */
START_TEST(strict_modes_find_a_removed_wait_and_barrier)
{
	const char *s = path("g.s"), *l = path("g.launch.json"), *ref = path("g_ref.npy"), *got = path("g_got.npy");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/gemm_16x16x16.json -S -o '%s' --launch '%s'", s, l)), 0);
	ck_assert_int_eq(status_of(test_wavecc("as '%s'", s)), 0);
	ck_assert_int_eq(status_of(test_wavecc("run '%s' --seed 3 --out c='%s'", l, ref)), 0);
	char *text = slurp(s);
	for (int drop = 0; drop < 2; drop++) {
		const char *what = drop == 0 ? "\ts_waitcnt vmcnt(1)\n" : "\ts_barrier\n";
		char *at = strstr(text, what);
		ck_assert_ptr_nonnull(at);
		if (drop == 1)
			at = strstr(at + 1, what);
		ck_assert_ptr_nonnull(at);
		FILE *f = fopen(s, "w");
		ck_assert_ptr_nonnull(f);
		fwrite(text, 1, (size_t)(at - text), f);
		fputs(at + strlen(what), f);
		fclose(f);
		ck_assert_int_eq(status_of(test_wavecc("as '%s'", s)), 0);
		CmdResult r = test_wavecc("run '%s' --seed 3 --out c='%s'", l, got);
		ck_assert_msg(r.status == 0, "%s", r.err);
		cmd_result_free(&r);
		size_t na = 0, nb = 0;
		char *a = read_file(ref, &na), *b = read_file(got, &nb);
		ck_assert_msg(a && b && na == nb && memcmp(a, b, na) == 0, "the default mode gives the reference's bytes");
		free(a);
		free(b);
		if (drop == 0) {
			r = test_wavecc("run '%s' --seed 3 --memory late", l);
			ck_assert_msg(r.status == 1 && strstr(r.err, "late memory: reads v") &&
				      strstr(r.err, "before the buffer_load_dwordx4") &&
				      strstr(r.err, "it needs s_waitcnt vmcnt(1) before this instruction") &&
				      strstr(r.err, "(ds_write_b64"), "%d %s", r.status, r.err);
		} else {
			r = test_wavecc("run '%s' --seed 3 --races", l);
			ck_assert_msg(r.status == 0 && strstr(r.err, "warning: emulator:") && strstr(r.err, "race on LDS offset") &&
				      strstr(r.err, "ds_write_b64") && strstr(r.err, "ds_read_b64") &&
				      strstr(r.err, "no s_barrier between them"), "%d %s", r.status, r.err);
			cmd_result_free(&r);
			r = test_wavecc("run '%s' --seed 3 --wave-order model --out c='%s'", l, got);
			ck_assert_msg(r.status == 0, "%s", r.err);
			a = read_file(ref, &na), b = read_file(got, &nb);
			ck_assert_msg(a && b && na == nb && memcmp(a, b, na) != 0, "the model order gives other bytes");
			free(a);
			free(b);
		}
		cmd_result_free(&r);
	}
	free(text);
	/* the untouched kernel is clean under every strict mode */
	ck_assert_int_eq(status_of(test_wavecc("compile examples/gemm_16x16x16.json -S -o '%s' --launch '%s'", s, l)), 0);
	ck_assert_int_eq(status_of(test_wavecc("as '%s'", s)), 0);
	CmdResult r = test_wavecc("run '%s' --seed 3 --memory late --races --canary", l);
	ck_assert_msg(r.status == 0 && !strstr(r.err, "race"), "%d %s", r.status, r.err);
	cmd_result_free(&r);
	r = test_wavecc("run '%s' --seed 3 --wave-order model --memory late --races --canary --out c='%s'", l, got);
	ck_assert_msg(r.status == 0 && !strstr(r.err, "race"), "%d %s", r.status, r.err);
	cmd_result_free(&r);
	size_t na = 0, nb = 0;
	char *a = read_file(ref, &na), *b = read_file(got, &nb);
	ck_assert_msg(a && b && na == nb && memcmp(a, b, na) == 0, "the model order gives the reference's bytes");
	free(a);
	free(b);
}
END_TEST

/* ---- metadata names ---- */

START_TEST(yaml_look_alike_names)
{
	const char *hsaco = path("yn.hsaco");
	CmdResult r = test_wavecc("compile tests/asm/data/yaml_names.json -o '%s'", hsaco);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("info '%s'", hsaco);
	ck_assert_int_eq(r.status, 0);
	static const char *const names[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "$x", "null"};
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		char want[64];
		snprintf(want, sizeof want, "global_buffer                %-12s ", names[i]);
		ck_assert_msg(strstr(r.out, want), "'%s' not shown back:\n%s", names[i], r.out);
	}
	ck_assert_ptr_nonnull(strstr(r.out, "kernel y\n"));
	cmd_result_free(&r);
	r = test_wavecc("run tests/asm/data/yaml_names.json");
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS null:"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* ---- one command line ---- */

typedef struct {
	const char *cmd;
	const char *opts[20]; /* each must appear in the usage lines */
} CmdOpts;

static const CmdOpts COMMANDS[] = {
	{"compile", {"-o OUT", "-S", "--launch", "--mcpu", "-D SYM=VAL", "--llvm-mc", "--dump-mir", "--stats", "-v",
			    "--version", "-h"}},
	{"as", {"-o OUT", "--mcpu", "--llvm-mc", "-v", "--version", "-h"}},
	{"run", {"--backend", "-D NAME=VALUE", "--in", "--out", "--seed", "--max-instructions", "--trace", "-v",
			"--mcpu", "--atol", "--rtol", "--memory", "--races", "--canary", "--version", "-h"}},
	{"interp", {"-D SYM=VAL", "--in", "--out", "--seed", "-v", "--version", "-h"}},
	{"info", {"-v", "--version", "-h", "--disasm"}},
	{"sym", {"--assume", "--bench", "-v", "--version", "-h"}},
	{"dump-graph", {"-v", "--version", "-h"}},
	{"dump-indices", {"-D SYM=VAL", "-v", "--version", "-h"}},
};

START_TEST(every_command_takes_the_common_options)
{
	for (size_t i = 0; i < ARRAY_LEN(COMMANDS); i++) {
		const char *c = COMMANDS[i].cmd;
		CmdResult r = test_wavecc("%s --version", c);
		ck_assert_msg(r.status == 0 && strstr(r.out, "wavecc 0."), "%s --version", c);
		cmd_result_free(&r);
		r = test_wavecc("%s -v", c);
		ck_assert_msg(r.status == 0 && strstr(r.err, "wavecc 0."), "%s -v: %d %s", c, r.status, r.err);
		cmd_result_free(&r);
		/* the usage lines (up to the first line that does not continue them) */
		r = test_wavecc("help %s", c);
		ck_assert_int_eq(r.status, 0);
		char *end = strstr(r.out, "\n  ");
		while (end && end[3] == ' ')
			end = strstr(end + 1, "\n  ");
		size_t n = end ? (size_t)(end - r.out) : strlen(r.out);
		char *head = xmalloc(n + 1);
		memcpy(head, r.out, n);
		head[n] = 0;
		for (int k = 0; COMMANDS[i].opts[k]; k++)
			ck_assert_msg(strstr(head, COMMANDS[i].opts[k]), "%s: usage line lacks %s:\n%s", c,
				COMMANDS[i].opts[k], head);
		free(head);
		cmd_result_free(&r);
		r = test_wavecc("%s --no-such-option examples/add.json", c);
		ck_assert_msg(r.status == 2, "%s: %d", c, r.status);
		char want[64];
		snprintf(want, sizeof want, "wavecc help %s", c);
		ck_assert_msg(strstr(r.err, want), "%s: %s", c, r.err);
		cmd_result_free(&r);
	}
	ck_assert_int_eq(status_of(test_wavecc("-v")), 0);
	ck_assert_int_eq(status_of(test_wavecc("--version")), 0);
}
END_TEST

START_TEST(clang_and_llvm_mc_spellings)
{
	const char *spellings[] = {"-mcpu=gfx90a -o'%s'", "--mcpu=gfx90a -o '%s'", "-mcpu gfx90a -o=%s",
		"--mcpu gfx90a -o%s"};
	for (size_t i = 0; i < ARRAY_LEN(spellings); i++) {
		char opts[4096], out[2048];
		snprintf(out, sizeof out, "%s/sp%zu.hsaco", dir, i);
		snprintf(opts, sizeof opts, spellings[i], out);
		CmdResult r = test_wavecc("compile examples/add.json %s", opts);
		ck_assert_msg(r.status == 0, "%s: %s", opts, r.err);
		cmd_result_free(&r);
		r = test_wavecc("info '%s'", out);
		ck_assert_msg(strstr(r.out, "for gfx90a"), "%s: %s", opts, r.out);
		cmd_result_free(&r);
	}
}
END_TEST

START_TEST(as_takes_the_target_from_the_file)
{
	const char *s = path("t90.s"), *o = path("t90.hsaco");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json --mcpu gfx90a -S -o '%s'", s)), 0);
	CmdResult r = test_wavecc("as '%s'", s);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("info '%s'", o);
	ck_assert_ptr_nonnull(strstr(r.out, "for gfx90a"));
	cmd_result_free(&r);
	/* an explicit --mcpu that disagrees is llvm-mc's error, exit 1 */
	ck_assert_int_eq(status_of(test_wavecc("as '%s' --mcpu gfx942 -o '%s'", s, path("t942.hsaco"))), 1);
	ck_assert(!exists(path("t942.hsaco")));
	/* target-ID features in the directive reach llvm-mc as -mattr */
	const char *se = path("se.s"), *seo = path("se.hsaco");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -S -o - | sed 's/^\t.amdgcn_target .*/\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942:sramecc-\"/' > '%s'",
				  se)),
		0);
	r = test_wavecc("as '%s'", se);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("info '%s'", seo);
	ck_assert_msg(strstr(r.out, "sramecc off"), "%s", r.out);
	cmd_result_free(&r);
	ck_assert_int_eq(status_of(test_wavecc("as '%s' --mcpu gfx942:sramecc+ -o '%s'", se, path("se2.hsaco"))), 1);
	ck_assert_int_eq(status_of(test_wavecc("as '%s' --mcpu gfx942:sramecc- -o '%s'", se, path("se3.hsaco"))), 0);
	ck_assert_int_eq(status_of(test_wavecc("as '%s' --mcpu gfx942:bogus+", se)), 2);
}
END_TEST

/* info --disasm lists each kernel's code as the emulator decodes it and
 * fails on an encoding the emulator does not know (here an MTBUF load). */
START_TEST(info_lists_the_code)
{
	const char *o = path("dis.hsaco"), *s = path("mtbuf.s"), *so = path("mtbuf.hsaco");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/gemm_16x16x16.json -o '%s'", o)), 0);
	CmdResult r = test_wavecc("info --disasm '%s'", o);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "code of gemm") && strstr(r.out, "v_mfma_f32_16x16x16_f16") &&
			      strstr(r.out, "s_endpgm") && !strstr(r.out, "unknown"),
		"%s", r.out);
	cmd_result_free(&r);
	r = test_wavecc("compile examples/add.json -S -o - | sed 's/^\\ts_endpgm/\\ttbuffer_load_format_x v1, off, "
			"s[0:3], 0 format:116\\n\\ts_endpgm/' > '%s'",
		s);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	ck_assert_int_eq(status_of(test_wavecc("as '%s' -o '%s'", s, so)), 0);
	r = test_wavecc("info --disasm '%s'", so);
	ck_assert_msg(r.status == 1 && strstr(r.out, "<unknown encoding") &&
			      strstr(r.out, "1 encodings the emulator does not know"),
		"%d %s", r.status, r.out);
	cmd_result_free(&r);
}
END_TEST

START_TEST(one_seed_option_and_out_everywhere)
{
	/* interp: --seed and the older --random give the same inputs */
	const char *a1 = path("s1.npy"), *a2 = path("s2.npy"), *rc = path("run_c.npy"), *ic = path("interp_c.npy");
	ck_assert_int_eq(status_of(test_wavecc("interp examples/add.json --seed 5 --out a='%s'", a1)), 0);
	ck_assert_int_eq(status_of(test_wavecc("interp examples/add.json --random 5 --out a='%s'", a2)), 0);
	size_t l1, l2;
	char *x = read_file(a1, &l1), *y = read_file(a2, &l2);
	ck_assert(x && y && l1 == l2 && memcmp(x, y, l1) == 0);
	free(x);
	free(y);
	/* run K.json --seed N --out c=F writes the kernel's c, on the same
	 * inputs as interp --seed N */
	CmdResult r = test_wavecc("run examples/add.json --seed 5 --out c='%s'", rc);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "|got-want| <= atol + rtol*|want|"));
	cmd_result_free(&r);
	ck_assert_int_eq(status_of(test_wavecc("interp examples/add.json --seed 5 --out c='%s'", ic)), 0);
	NpyArray k, w;
	char err[256];
	ck_assert_int_eq(npy_read(rc, &k, err, sizeof err), 0);
	ck_assert_int_eq(npy_read(ic, &w, err, sizeof err), 0);
	ck_assert_uint_eq(k.count, w.count);
	int nonzero = 0;
	for (uint64_t i = 0; i < k.count; i++) {
		double g = dtype_load(DT_F16, k.data, i), v = dtype_load(DT_F16, w.data, i);
		ck_assert(g - v <= 1e-3 + 2e-3 * (v < 0 ? -v : v) && v - g <= 1e-3 + 2e-3 * (v < 0 ? -v : v));
		nonzero += v != 0;
	}
	ck_assert_int_gt(nonzero, (int)k.count / 2);
	npy_free(&k);
	npy_free(&w);
	/* -D on a symbol with a value, in interp as in compile and run */
	r = test_wavecc("interp examples/add.json -D N=100");
	ck_assert_ptr_nonnull(strstr(r.out, "a f16[64, 100]"));
	cmd_result_free(&r);
	r = test_wavecc("run examples/add.json -D N=100");
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS c: 6400 elements"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* A descriptor with expressions over M and N, for the compiled add kernel. */
static const char *dynamic_descriptor(void)
{
	const char *d = path("dyn.launch.json");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -o '%s'", path("dyn.hsaco"))), 0);
	const char *text =
		"{\"format\": \"wavecc-launch/1\", \"code_object\": \"dyn.hsaco\", \"kernel\": \"vector_add\", \"arch\": "
		"\"gfx942\", \"workgroup_size\": [64, 1, 1], \"grid\": [\"(N + 255) // 256\", \"M\", 1], \"lds_bytes\": 0, "
		"\"kernarg_size\": 24, \"args\": [\n"
		"{\"name\": \"a\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"M\", \"N\"], \"offset\": 0, \"access\": \"read\"},\n"
		"{\"name\": \"b\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"M\", \"N\"], \"offset\": 8, \"access\": \"read\"},\n"
		"{\"name\": \"c\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"M\", \"N\"], \"offset\": 16, \"access\": \"write\"}]}\n";
	ck_assert_int_eq(file_write_output(d, text, strlen(text), 0644), 0);
	return d;
}

START_TEST(usage_mistakes_exit_2_everywhere)
{
	const char *d = dynamic_descriptor();
	/* it runs when used right */
	ck_assert_int_eq(status_of(test_wavecc("run '%s' -D M=64 -D N=300 --seed 1", d)), 0);
	/* a -D the descriptor has no use for (a kernel specialised by it at
	 * compile time): a warning, and the run goes on */
	CmdResult w = test_wavecc("profile '%s' -D M=64 -D N=300 -D K=3", d);
	ck_assert_msg(w.status == 0 && strstr(w.err, "warning: -D K:"), "%d %s", w.status, w.err);
	cmd_result_free(&w);
	w = test_wavecc("run '%s' -D M=64 -D N=300 -D K=3", d);
	ck_assert_msg(w.status == 0 && strstr(w.err, "warning: -D K:"), "%d %s", w.status, w.err);
	cmd_result_free(&w);
	const char *const bad[] = {
		/* malformed -D */
		"interp examples/add.json -D N=x", "interp examples/add.json -D =3", "run examples/add.json -D N=x",
		"compile examples/add.json -D N=x", "run @D -D M=64 -D N=x", "run @D -D M=64 -D N",
		/* a -D the kernel has no symbol for */
		"interp examples/add.json -D Q=1", "run examples/add.json -D Q=1", "compile examples/add.json -D Q=1",
		"dump-indices examples/add.json -D Q=1",
		/* a missing -D: the same from run and interp */
		"interp examples/copy_dynamic.json", "run examples/copy_dynamic.json", "run @D -D M=64",
		/* --in / --out malformed or naming nothing */
		"run @D -D M=64 -D N=300 --in a", "run @D -D M=64 -D N=300 --out zz=x.npy", "run @D -D M=64 -D N=300 --out a",
		"interp examples/add.json --out zz=x.npy", "run examples/add.json --out zz=x.npy",
		/* the same argument twice (the second file silently won) */
		"interp examples/add.json --in a=x.npy --in a=y.npy", "interp examples/add.json --out c=x.npy --out c=y.npy",
		"run examples/add.json --in b=x.npy --in b=y.npy", "run @D -D M=64 -D N=300 --in a=x.npy --in a=y.npy",
		"run @D -D M=64 -D N=300 --out c=x.npy --out c=y.npy",
		/* options a mode does not take */
		"run @D -D M=64 -D N=300 --mcpu gfx942", "run @D -D M=64 -D N=300 --atol 1",
		"compile examples/add.json --seed 1", "interp examples/add.json --mcpu gfx942",
		/* a bad -D value on a name a descriptor does not use (it was a
		 * warning and then a contradicting error, exit 1), and in profile */
		"run @D -D M=64 -D N=300 -D K=abc", "run @D -D K=3 -D M=64 -D N=300 -D Q=1.5",
		"profile @D -D M=64 -D N=300 -D K=abc", "profile @D -D M=x -D N=300", "profile @D -D N=300",
		"profile examples/add.json -D N=x", "profile examples/add.json -D Q=1",
		"profile examples/copy_dynamic.json -D M=64 -D Q=abc",
		"profile tests/driver/data/conditional_scalar_arg.json -D threshold=0.5",
		"run tests/driver/data/conditional_scalar_arg.json -D threshold=abc",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		char args[4096];
		const char *at = strstr(bad[i], "@D");
		if (at)
			snprintf(args, sizeof args, "%.*s'%s'%s", (int)(at - bad[i]), bad[i], d, at + 2);
		else
			snprintf(args, sizeof args, "%s", bad[i]);
		CmdResult r = test_wavecc("%s", args);
		ck_assert_msg(r.status == 2, "'%s': status %d\n%s", args, r.status, r.err);
		ck_assert_msg(strstr(r.err, "wavecc help "), "'%s': %s", args, r.err);
		/* one message: no warning before it, no second error after it */
		const char *e = strstr(r.err, "error");
		ck_assert_msg(e && !strstr(e + 1, "error") && !strstr(r.err, "warning"), "'%s': %s", args, r.err);
		cmd_result_free(&r);
	}
}
END_TEST

/* ---- messages ---- */

START_TEST(assembler_errors_name_the_generated_line_and_op)
{
	/* A stand-in for llvm-mc that rejects the first instruction of the
	 * graph op 'add', reporting it the way llvm-mc does. */
	const char *fake = path("fake-llvm-mc");
	const char *script = "#!/bin/sh\n"
			     "n=$(awk '/^\\t\\/\\/ add$/ { print NR + 1; exit }')\n"
			     "echo \"<stdin>:$n:2: error: invented by the test\" >&2\n"
			     "exit 1\n";
	ck_assert_int_eq(file_write_output(fake, script, strlen(script), 0755), 0);
	CmdResult r = test_wavecc("compile examples/add.json -o '%s' --llvm-mc '%s'", path("bad.hsaco"), fake);
	ck_assert_int_eq(r.status, 1);
	/* the line number the fake printed, and the op it belongs to with its
	 * place in the kernel graph */
	CmdResult s = test_wavecc("compile examples/add.json -S -o - | awk '/^\\t\\/\\/ add$/ { print NR + 1; exit }'");
	int line = atoi(s.out);
	cmd_result_free(&s);
	ck_assert_int_gt(line, 10);
	char want[256], wrong[256];
	snprintf(want, sizeof want, "<generated assembly>:%d:2: error: invented by the test", line);
	snprintf(wrong, sizeof wrong, "examples/add.json:%d:2", line); /* the old, misleading attribution */
	ck_assert_msg(strstr(r.err, want), "%s", r.err);
	ck_assert_msg(!strstr(r.err, wrong), "%s", r.err);
	snprintf(want, sizeof want, "line %d of the generated assembly is code for graph op 'add' (examples/add.json:",
		line);
	ck_assert_msg(strstr(r.err, want), "%s", r.err);
	cmd_result_free(&r);
	ck_assert(!exists(path("bad.hsaco")));
	ck_assert(!exists(path("bad.launch.json")));
}
END_TEST


START_TEST(no_message_contradicts_itself)
{
	/* An iterate body whose output yields a value poisoned by an earlier
	 * error: once "must contain exactly one output node (found 1)"; now
	 * only the real error is reported. */
	char src[4096];
	snprintf(src, sizeof src, "%s/examples/gemm_global.json", test_root());
	json_error_t je;
	json_t *k = json_load_file(src, 0, &je);
	ck_assert_ptr_nonnull(k);
	json_t *g = json_object_get(k, "graph");
	json_array_insert_new(g, 1, json_pack("{s:s, s:s, s:s, s:s}", "name", "bad", "op", "cast", "arg", "c_reg", "dtype",
					  "f99"));
	size_t i;
	json_t *n;
	json_array_foreach(g, i, n)
	{
		if (strcmp(json_string_value(json_object_get(n, "op")), "iterate") == 0) {
			json_t *body = json_object_get(n, "body");
			json_object_set_new(json_array_get(body, json_array_size(body) - 1), "values", json_pack("[s]", "bad"));
		}
	}
	const char *f = path("poisoned.json");
	ck_assert_int_eq(json_dump_file(k, f, JSON_INDENT(1)), 0);
	json_decref(k);
	CmdResult r = test_wavecc("dump-graph '%s'", f);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "unknown dtype 'f99'"), "%s", r.err);
	ck_assert_msg(!strstr(r.err, "(found 1)") && !strstr(r.err, "output node"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* Errors about a place in an input file, whichever command and file kind:
 * "FILE[:LINE:COL]: error: ..." at the start of the line, never after
 * "wavecc: error:" (launch descriptors used to print that). */
START_TEST(located_errors_have_one_form)
{
	const char *d = path("lost.launch.json"), *bad_as = path("bad.assume"), *graph = path("bad.json");
	ck_assert_int_eq(status_of(test_wavecc("compile examples/add.json -o '%s' --launch '%s'", path("lost.hsaco"), d)),
		0);
	ck_assert_int_eq(unlink(path("lost.hsaco")), 0);
	ck_assert_int_eq(file_write_output(bad_as, "N > 0\nx y\n", 11, 0644), 0);
	ck_assert_int_eq(file_write_output(graph, "{\"format\": \"wavecc-kernel/1\"}", 29, 0644), 0);
	char nohsaco[2048], noasm[2048];
	snprintf(nohsaco, sizeof nohsaco, "%s", path("none.hsaco"));
	snprintf(noasm, sizeof noasm, "%s", path("none.s"));
	const struct {
		const char *args, *want;
	} cases[] = {
		{"run '%s'", ":1:46: error: code_object: "}, /* the descriptor's code_object key */
		{"profile '%s'", ":1:46: error: code_object: "},
		{"info '%s'", NULL},
		{"as '%s'", NULL},
		{"sym --assume '%s' < /dev/null", ":2:3: error: "},
		{"run '%s'", ":1:1: error: "},
	};
	const char *files[] = {d, d, nohsaco, noasm, bad_as, graph};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char args[4096];
		snprintf(args, sizeof args, cases[i].args, files[i]);
		CmdResult r = test_wavecc("%s", args);
		char start[2100];
		snprintf(start, sizeof start, "%s:", files[i]);
		ck_assert_msg(r.status == 1, "'%s': status %d: %s", args, r.status, r.err);
		ck_assert_msg(strncmp(r.err, start, strlen(start)) == 0 && strstr(r.err, ": error: ") &&
				      !strstr(r.err, "wavecc: error:"),
			"'%s': %s", args, r.err);
		ck_assert_msg(!cases[i].want || strstr(r.err, cases[i].want), "'%s': %s", args, r.err);
		cmd_result_free(&r);
	}
}
END_TEST

/* ---- bad input ---- */

START_TEST(as_without_a_kernel)
{
	const char *e = path("empty.s"), *n = path("nokd.s");
	ck_assert_int_eq(file_write_output(e, "", 0, 0644), 0);
	const char *nokd = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nf:\n\ts_endpgm\n";
	ck_assert_int_eq(file_write_output(n, nokd, strlen(nokd), 0644), 0);
	const char *in[] = {e, n};
	for (int i = 0; i < 2; i++) {
		CmdResult r = test_wavecc("as '%s' -o '%s'", in[i], path("nokd.hsaco"));
		ck_assert_int_eq(r.status, 1);
		ck_assert_msg(strstr(r.err, in[i]) && strstr(r.err, "no kernel"), "%s", r.err);
		cmd_result_free(&r);
		ck_assert(!exists(path("nokd.hsaco")));
	}
}
END_TEST

START_TEST(endless_inputs_are_refused)
{
	CmdResult r = test_wavecc("compile /dev/zero");
	ck_assert_int_eq(r.status, 1);
	cmd_result_free(&r);
	r = test_wavecc("interp examples/add.json --in a=/dev/zero");
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "/dev/zero"));
	cmd_result_free(&r);
	r = test_wavecc("sym --assume /dev/zero < /dev/null");
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "128 MiB"));
	cmd_result_free(&r);
	r = test_wavecc("as /dev/zero -o '%s'", path("zero.hsaco"));
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "128 MiB"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(out_files_all_or_nothing)
{
	const char *first = path("first.npy"), *late = path("no/such/folder/late.npy");
	unlink(first);
	ck_assert_int_eq(status_of(test_wavecc("interp examples/add.json --out c='%s' --out a='%s'", first, late)), 1);
	ck_assert(!exists(first));
	ck_assert_int_eq(status_of(test_wavecc("run examples/add.json --out c='%s' --out a='%s'", first, late)), 1);
	ck_assert(!exists(first));
	const char *d = dynamic_descriptor();
	ck_assert_int_eq(status_of(test_wavecc("run '%s' -D M=64 -D N=300 --out c='%s' --out a='%s'", d, first, late)), 1);
	ck_assert(!exists(first));
	ck_assert_int_eq(status_of(test_wavecc("run '%s' -D M=64 -D N=300 --out c='%s' --out a='%s'", d, first, path("a.npy"))),
		0);
	ck_assert(exists(first) && exists(path("a.npy")));
}
END_TEST

static int entries(const char *d)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", d);
	CmdResult r = run_cmd(cmd, NULL);
	int n = atoi(r.out);
	cmd_result_free(&r);
	return n;
}

START_TEST(run_leaves_no_temporary_folder)
{
	const char *t = path("tmp");
	mkdir(t, 0700);
	/* an error inside the run (the emulator's instruction cap) */
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && TMPDIR='%s' '%s' run examples/copy.json --max-instructions 3", test_root(), t,
		test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	cmd_result_free(&r);
	ck_assert_int_eq(entries(t), 0);
	/* killed while it waits to write into a FIFO nobody reads (after its
	 * PASS line: the run is over, the outputs are next) */
	const char *fifo = path("stuck");
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* died of the signal: 143, 139 (the sanitizer build is told not to
	 * handle SIGSEGV, so it dies of it too instead of writing a report that
	 * make check-asan would count) */
	const char *sigs[] = {"TERM", "SEGV"}, *want[] = {"status 143", "status 139"};
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd,
			"cd '%s' && (ASAN_OPTIONS=\"$ASAN_OPTIONS:handle_segv=0\" TMPDIR='%s' '%s' run examples/add.json --out c='%s' "
			"> '%s' & p=$!; for k in $(seq 600); do grep -qx PASS '%s' && { echo passed; break; }; sleep 0.1; done; "
			"sleep 0.2; kill -%s $p; wait $p; echo \"status $?\")",
			test_root(), t, test_bin(), fifo, path("stuck.out"), path("stuck.out"), sigs[i]);
		r = run_cmd(cmd, NULL);
		ck_assert_msg(strstr(r.out, "passed\n") && strstr(r.out, want[i]), "%s", r.out);
		cmd_result_free(&r);
		ck_assert_int_eq(entries(t), 0);
	}
	struct stat st;
	ck_assert_int_eq(stat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
}
END_TEST

int main(void)
{
	dir = test_tmpdir("cli");
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("cli");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, output_to_a_character_device);
	tcase_add_test(tc, output_to_a_fifo_with_a_reader);
	tcase_add_test(tc, output_through_a_symlink);
	tcase_add_test(tc, output_to_stdout);
	tcase_add_test(tc, assembly_with_descriptor_reassembles_and_runs);
	tcase_add_test(tc, strict_modes_find_a_removed_wait_and_barrier);
	tcase_add_test(tc, yaml_look_alike_names);
	tcase_add_test(tc, every_command_takes_the_common_options);
	tcase_add_test(tc, clang_and_llvm_mc_spellings);
	tcase_add_test(tc, as_takes_the_target_from_the_file);
	tcase_add_test(tc, info_lists_the_code);
	tcase_add_test(tc, one_seed_option_and_out_everywhere);
	tcase_add_test(tc, usage_mistakes_exit_2_everywhere);
	tcase_add_test(tc, assembler_errors_name_the_generated_line_and_op);
	tcase_add_test(tc, no_message_contradicts_itself);
	tcase_add_test(tc, located_errors_have_one_form);
	tcase_add_test(tc, as_without_a_kernel);
	tcase_add_test(tc, endless_inputs_are_refused);
	tcase_add_test(tc, out_files_all_or_nothing);
	tcase_add_test(tc, run_leaves_no_temporary_folder);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
