/* harness.c — compiling the validation kernels, running them through
 * `wavecc run` on the emulator, and comparing results (contract in
 * validate.h).
 *
 * Files a run writes are named STEM.<pid>.<arg>.{in,out}.npy in the suite
 * folder: Check runs each test in its own forked child, so the pid keeps
 * two runs of one descriptor apart, and an output file is deleted before the
 * run so a stale result can never pass. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../asm/asm.h"
#include "../../util/npy.h"
#include "validate.h"

#define CLANG_FLAGS "-cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib -O3"

static const char *suite_dir;
static const char *suite_target = "gfx942"; /* clang's -mcpu: a target ID such as "gfx942:sramecc-" */
static char suite_arch[32] = "gfx942";      /* its processor */
static char *compile_error;

const char *vk_dir(void) { return suite_dir; }
const char *vk_compile_error(void) { return compile_error; }
const char *vk_arch(void) { return suite_arch; }
const char *vk_target(void) { return suite_target; }

static void set_error(const char *what, const CmdResult *r)
{
	Buf b = {0};
	buf_printf(&b, "%s failed (status %d):\n%s%s", what, r->status, r->out, r->err);
	free(compile_error);
	compile_error = xstrdup(buf_cstr(&b));
	buf_free(&b);
}

/* The full path of program on $PATH, written into out, or NULL. */
static const char *on_path(const char *program, char *out, size_t n)
{
	const char *path = getenv("PATH");
	for (const char *p = path; p && *p;) {
		size_t len = strcspn(p, ":");
		snprintf(out, n, "%.*s/%s", (int)len, p, program);
		if (len && access(out, X_OK) == 0)
			return out;
		p += len + (p[len] == ':');
	}
	return NULL;
}

/* Copy the descriptors kernels/ *.launch.json into the suite folder, their
 * "arch" rewritten for another target. */
static bool copy_descriptors(const char *arch)
{
	char dir[2048];
	snprintf(dir, sizeof dir, "%s/tests/validate/kernels", test_root());
	DIR *d = opendir(dir);
	if (!d)
		return false;
	char from[64], to[64];
	snprintf(from, sizeof from, "\"arch\": \"gfx942\"");
	snprintf(to, sizeof to, "\"arch\": \"%s\"", arch);
	bool ok = true;
	for (struct dirent *e; ok && (e = readdir(d));) {
		size_t len = strlen(e->d_name), sl = strlen(".launch.json");
		if (len <= sl || strcmp(e->d_name + len - sl, ".launch.json"))
			continue;
		char src[4096], dst[4096];
		snprintf(src, sizeof src, "%s/%s", dir, e->d_name);
		snprintf(dst, sizeof dst, "%s/%s", suite_dir, e->d_name);
		size_t n;
		char *text = read_file(src, &n);
		FILE *f = text ? fopen(dst, "wb") : NULL;
		ok = f != NULL;
		for (char *p = text; ok && p && *p;) {
			char *hit = strstr(p, from);
			size_t k = hit ? (size_t)(hit - p) : strlen(p);
			ok = fwrite(p, 1, k, f) == k && (!hit || fputs(to, f) >= 0);
			p = hit ? hit + strlen(from) : p + k;
		}
		if (f)
			ok &= fclose(f) == 0;
		free(text);
	}
	closedir(d);
	return ok;
}

/* The validation kernels built before by the same tools for the same
 * target from the same source come from the object cache
 * ($WAVECC_ASM_CACHE, asm/asm_cache.c; make check sets it): building them
 * is most of a validation suite's time. The key is the source's text, the
 * target and the flags, and the identity (path, size, time) of clang-19,
 * llvm-mc-19 and ld.lld-19. Returns whether NAME.hsaco is in the suite
 * folder now; key gets the name's key ("" without a cache). */
static bool from_cache(const char *root, const char *name, const char *arch, char key[33])
{
	key[0] = 0;
	const char *cache = getenv("WAVECC_ASM_CACHE");
	if (!cache || !*cache)
		return false;
	static const char *const kinds[] = {".cl", ".ll", ".s"};
	char src[4096], tools[3][1024];
	char *text = NULL;
	size_t n = 0;
	for (size_t k = 0; k < 3 && !text; k++) {
		snprintf(src, sizeof src, "%s/tests/validate/kernels/%s%s", root, name, kinds[k]);
		text = read_file(src, &n);
	}
	if (!text || !on_path("clang-19", tools[0], sizeof tools[0]) ||
	    !on_path("llvm-mc-19", tools[1], sizeof tools[1]) || !on_path("ld.lld-19", tools[2], sizeof tools[2])) {
		free(text);
		return false;
	}
	/* the tools' identities enter as arguments */
	char ids[3][1200];
	for (int t = 0; t < 3; t++) {
		struct stat st;
		if (stat(tools[t], &st) != 0) {
			free(text);
			return false;
		}
		snprintf(ids[t], sizeof ids[t], "%.1000s %lld %lld.%ld", tools[t], (long long)st.st_size,
			 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	}
	char *argv[] = {"validation-kernel", (char *)name, (char *)arch, CLANG_FLAGS, ids[0], ids[1], ids[2], NULL};
	bool keyed = asm_cache_key(tools[0], argv, text, n, key);
	free(text);
	if (!keyed) {
		key[0] = 0;
		return false;
	}
	char ck[40];
	snprintf(ck, sizeof ck, "vk%.30s", key); /* a name of its own beside llvm-mc's objects */
	memcpy(key, ck, 33);
	Buf obj = {0};
	if (!asm_cache_get(cache, key, &obj))
		return false;
	char dst[4096];
	snprintf(dst, sizeof dst, "%s/%s.hsaco", suite_dir, name);
	FILE *f = fopen(dst, "wb");
	bool ok = f && fwrite(obj.data, 1, obj.len, f) == obj.len;
	if (f)
		ok &= fclose(f) == 0;
	buf_free(&obj);
	return ok;
}

void vk_compile_arch(const char *suite, const char *const *names, const char *arch)
{
	suite_dir = test_tmpdir(suite);
	suite_target = arch;
	snprintf(suite_arch, sizeof suite_arch, "%.*s", (int)strcspn(arch, ":"), arch);
	free(compile_error);
	compile_error = NULL;
	if (!have_program("clang-19") || !have_program("llvm-mc-19") || !have_program("ld.lld-19")) {
		compile_error = xstrdup("clang-19, llvm-mc-19 and ld.lld-19 must be on PATH to build the validation kernels");
		return;
	}
	/* Descriptors are written for gfx942; for another arch their "arch" is
	 * rewritten as they are copied. */
	if (!copy_descriptors(suite_arch)) {
		compile_error = xstrdup("cannot copy tests/validate/kernels/*.launch.json into the suite folder");
		return;
	}
	/* The builds run inside the suite folder, so the sources need an absolute path. */
	char *root = realpath(test_root(), NULL);
	const char *r0 = root ? root : test_root();
	size_t count = 0;
	while (names[count])
		count++;
	char(*keys)[33] = xmalloc((count + 1) * sizeof *keys);
	Buf list = {0};
	for (size_t i = 0; i < count; i++)
		if (!from_cache(r0, names[i], arch, keys[i]))
			buf_printf(&list, " %s", names[i]);
	if (list.len) {
		Buf cmd = {0};
		buf_printf(&cmd, "cd '%s' && printf '%%s\\n'%s", suite_dir, buf_cstr(&list));
		/* NAME.cl goes through clang-19 (plus the flags of a "// clang-extra-flags: ..." line in the source);
		 * NAME.ll (LLVM IR, for intrinsics OpenCL has no builtin for) through clang-19 as well;
		 * hand-written NAME.s through llvm-mc-19 and ld.lld-19 (LLVM's own linker, so these tests do not
		 * depend on ours). */
		buf_printf(&cmd,
			   " | xargs -P 2 -I{} sh -c 'k=\"%s/tests/validate/kernels/{}\"; if [ -f \"$k.cl\" ]; then "
			   "clang-19 " CLANG_FLAGS " -mcpu=%s $(sed -n \"s|^// clang-extra-flags: ||p\" \"$k.cl\") \"$k.cl\" "
			   "-o {}.hsaco; elif [ -f \"$k.ll\" ]; then "
			   "clang-19 -target amdgcn-amd-amdhsa -nogpulib -O3 -mcpu=%s \"$k.ll\" -o {}.hsaco; else "
			   "llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj \"$k.s\" -o {}.o && "
			   "ld.lld-19 -shared --no-undefined {}.o -o {}.hsaco; fi'",
			   r0, arch, arch, suite_arch);
		CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
		if (r.status != 0)
			set_error("building the validation kernels", &r);
		cmd_result_free(&r);
		buf_free(&cmd);
		const char *cache = getenv("WAVECC_ASM_CACHE");
		for (size_t i = 0; i < count && r.status == 0 && cache && *cache; i++) {
			if (!keys[i][0])
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s.hsaco", suite_dir, names[i]);
			size_t n;
			char *bytes = read_file(path, &n);
			if (bytes && n)
				asm_cache_put(cache, keys[i], bytes, n);
			free(bytes);
		}
	}
	buf_free(&list);
	free(keys);
	free(root);
}

void vk_compile(const char *suite, const char *const *names) { vk_compile_arch(suite, names, "gfx942"); }

const char *vk_disasm(const char *name)
{
	static const char *names[64];
	static char *texts[64];
	static int n;
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return texts[i];
	Buf cmd = {0};
	buf_printf(&cmd, "llvm-objdump-19 -d '%s/%s.hsaco'", suite_dir, name);
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	buf_free(&cmd);
	ck_assert_msg(r.status == 0, "llvm-objdump-19 failed on %s.hsaco: %s", name, r.err);
	free(r.err);
	if (n == (int)ARRAY_LEN(names))
		return r.out; /* cache full: the caller's copy leaks until exit, acceptable in a test */
	names[n] = intern(name);
	texts[n] = r.out;
	return texts[n++];
}

/* the usual lists name gfx942 mnemonics as clang emits them for plain gfx942 (sramecc any); the
 * gfx942 run of a case proves its coverage */
void vk_expect_insns(const char *name, const char *const *mnemonics) { vk_expect_insns_on("gfx942", name, mnemonics); }

void vk_expect_insns_on(const char *target, const char *name, const char *const *mnemonics)
{
	if (strcmp(suite_target, target) != 0)
		return;
	const char *text = vk_disasm(name);
	for (const char *const *m = mnemonics; *m; m++) {
		/* a mnemonic starts after a tab and ends at a space or '_e32'/'_e64'/'_dpp' suffix */
		char pat[128];
		snprintf(pat, sizeof pat, "\t%s", *m);
		const char *p = text;
		bool found = false;
		while (!found && (p = strstr(p, pat)) != NULL) {
			char c = p[strlen(pat)];
			found = c == ' ' || c == '\n' || c == '_';
			p += strlen(pat);
		}
		ck_assert_msg(found, "%s.hsaco: clang-19 no longer emits %s; the test does not cover it", name, *m);
	}
}

const char *const vk_spill_insns[] = {"scratch_load_dword", "v_writelane_b32",     "v_readlane_b32",
				       "s_or_saveexec_b64",  "v_accvgpr_write_b32", "v_accvgpr_read_b32", NULL};

static void arg_path(char *out, size_t len, const char *desc, const VkArg *a, const char *kind)
{
	size_t stem = strcspn(desc, "."); /* "elementwise.launch.json" -> "elementwise" */
	snprintf(out, len, "%s/%.*s.%d.%s.%s.npy", suite_dir, (int)stem, desc, (int)getpid(), a->name, kind);
}

static uint64_t arg_count(const VkArg *a)
{
	uint64_t c = 1;
	for (int i = 0; i < a->ndim; i++)
		c *= (uint64_t)a->shape[i];
	return c;
}

CmdResult vk_run_raw(const char *desc, const char *defs, VkArg *args, int nargs)
{
	ck_assert_msg(compile_error == NULL, "%s", compile_error);
	char err[512], path[2048];
	Buf cmd = {0};
	buf_printf(&cmd, "'%s' run '%s/%s' --backend emu", test_bin(), suite_dir, desc);
	/* WAVECC_VALIDATE_RUN_OPTIONS: emulator options added to every run
	 * (e.g. "--memory late" or "--races": clang's code under the strict
	 * modes) */
	const char *extra = getenv("WAVECC_VALIDATE_RUN_OPTIONS");
	if (extra && *extra)
		buf_printf(&cmd, " %s", extra);
	if (defs) {
		char *copy = xstrdup(defs), *save = NULL;
		for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
			buf_printf(&cmd, t[0] == '-' ? " %s" : " -D %s", t);
		free(copy);
	}
	for (int i = 0; i < nargs; i++) {
		VkArg *a = &args[i];
		if (a->dir != VK_OUT) {
			arg_path(path, sizeof path, desc, a, "in");
			int rc = npy_write(path, a->dt, a->ndim, a->shape, a->data, err, sizeof err);
			ck_assert_msg(rc == 0, "%s", err);
			buf_printf(&cmd, " --in %s='%s'", a->name, path);
		}
		if (a->dir != VK_IN) {
			arg_path(path, sizeof path, desc, a, "out");
			unlink(path);
			buf_printf(&cmd, " --out %s='%s'", a->name, path);
		}
	}
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	if (r.status != 0) {
		/* keep the command line with the messages for the failure report */
		Buf e = {0};
		buf_printf(&e, "%s\n%s", buf_cstr(&cmd), r.err);
		free(r.err);
		r.err = xstrdup(buf_cstr(&e));
		buf_free(&e);
	}
	buf_free(&cmd);
	return r;
}

void vk_run(const char *desc, const char *defs, VkArg *args, int nargs)
{
	char err[512], path[2048];
	CmdResult r = vk_run_raw(desc, defs, args, nargs);
	ck_assert_msg(r.status == 0, "exit %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
	for (int i = 0; i < nargs; i++) {
		VkArg *a = &args[i];
		if (a->dir == VK_IN)
			continue;
		arg_path(path, sizeof path, desc, a, "out");
		NpyArray arr;
		int rc = npy_read(path, &arr, err, sizeof err);
		ck_assert_msg(rc == 0, "%s", err);
		rc = npy_check(&arr, a->name, a->dt, a->ndim, a->shape, err, sizeof err);
		if (rc != 0)
			npy_free(&arr);
		ck_assert_msg(rc == 0, "%s", err);
		memcpy(a->data, arr.data, arg_count(a) * (uint64_t)dtype_size(a->dt));
		npy_free(&arr);
	}
}

uint64_t vk_next(VkRng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int32_t vk_int(VkRng *r, int32_t lo, int32_t hi)
{
	uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
	return (int32_t)((int64_t)lo + (int64_t)(vk_next(r) % span));
}

float vk_float(VkRng *r, float lo, float hi)
{
	double u = (double)(vk_next(r) >> 11) * 0x1p-53;
	return (float)(lo + (hi - lo) * u);
}

uint32_t vk_fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

float vk_bitsf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

float vk_h2f(uint32_t bits16)
{
	_Float16 h;
	uint16_t u = (uint16_t)bits16;
	memcpy(&h, &u, 2);
	return (float)h;
}

uint32_t vk_f2h(double d)
{
	_Float16 h = (_Float16)d;
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}

uint16_t vk_bf16(float f)
{
	uint32_t u = vk_fbits(f);
	if (isnan(f))
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

float vk_bf16_f32(uint16_t b) { return vk_bitsf((uint32_t)b << 16); }

double vk_fnuz_decode(uint8_t b, int mbits, int bias)
{
	if (b == 0x80)
		return NAN;
	int e = (b & 0x7f) >> mbits, m = b & ((1 << mbits) - 1);
	double v = e ? ldexp(1.0 + ldexp(m, -mbits), e - bias) : ldexp(m, 1 - bias - mbits);
	return b & 0x80 ? -v : v;
}

uint8_t vk_fnuz_encode(double x, int mbits, int bias)
{
	if (!isfinite(x))
		return 0x80;
	double a = fabs(x);
	if (a == 0)
		return 0;
	int e = ilogb(a);
	/* quantum of the binade (or of the subnormals); a / q is exact, rint rounds half to even */
	double q = ldexp(1.0, MAX(e, 1 - bias) - mbits), r = rint(a / q) * q;
	if (r == 0)
		return 0;
	/* every exponent field is finite: the largest is (2 - 2^-mbits) * 2^(2^(7 - mbits) - 1 - bias) */
	if (r > ldexp(2.0 - ldexp(1.0, -mbits), (1 << (7 - mbits)) - 1 - bias))
		return 0x80;
	int er = ilogb(r);
	uint8_t code = er >= 1 - bias ? (uint8_t)((er + bias) << mbits | (int)(ldexp(r, -er) * (1 << mbits) - (1 << mbits)))
				      : (uint8_t)(r / ldexp(1.0, 1 - bias - mbits));
	return (uint8_t)(code | (x < 0 ? 0x80 : 0));
}

void vk_check_u32(const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
	size_t bad = 0, first = 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && bad++ == 0)
			first = i;
	ck_assert_msg(bad == 0, "%s: %zu of %zu differ; first at [%zu]: got %d (0x%08x), want %d (0x%08x)", what,
		      bad, n, first, (int32_t)got[first], got[first], (int32_t)want[first], want[first]);
}

void vk_check_u16(const char *what, const uint16_t *got, const uint16_t *want, size_t n)
{
	size_t bad = 0, first = 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && bad++ == 0)
			first = i;
	ck_assert_msg(bad == 0, "%s: %zu of %zu differ; first at [%zu]: got 0x%04x, want 0x%04x", what, bad, n, first,
		      got[first], want[first]);
}

/* Spacing of f32 values around w (the ulp of w rounded to f32). */
static double ulp_f32(double w)
{
	float f = fabsf((float)w);
	if (isinf(f) || isnan(f))
		return 0;
	return (double)nextafterf(f, INFINITY) - (double)f;
}

void vk_check_f32(const char *what, const float *got, const double *want, size_t n, double ulps, double abs_tol)
{
	size_t bad = 0, worst = 0;
	double worst_err = -1;
	for (size_t i = 0; i < n; i++) {
		double g = got[i], w = want[i];
		if (isnan(w) ? isnan(g) : g == w)
			continue;
		double e = isnan(g) || isinf(g) || isinf(w) ? INFINITY : fabs(g - w);
		if (e <= abs_tol + ulps * ulp_f32(w))
			continue;
		bad++;
		if (e > worst_err || worst_err < 0) {
			worst_err = e;
			worst = i;
		}
	}
	ck_assert_msg(bad == 0, "%s: %zu of %zu outside %.3g ulp + %.3g; worst at [%zu]: got %.9g (%a), want %.9g (%a)",
		      what, bad, n, ulps, abs_tol, worst, (double)got[worst], (double)got[worst], want[worst],
		      want[worst]);
}
