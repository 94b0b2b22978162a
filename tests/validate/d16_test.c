/* d16_test.c — SRAM ECC and d16 loads, end to end: kernels/d16.cl built by
 * clang-19 for each target ID (gfx942, gfx942:sramecc+, gfx942:sramecc-,
 * gfx90a, gfx90a:sramecc-) and run through `wavecc run` on the emulator,
 * which reads the target ID from the code object's e_flags (sramecc off:
 * d16 loads keep the other half; on or any: they zero it).
 *
 * Every build must match the C reference. The disassembly proves what each
 * build exercises: d16 loads into the high half (global short/ubyte/sbyte
 * and ds u16) only where SRAM ECC is off, none elsewhere. Forcing the wrong
 * mode on the sramecc- build (`--d16=clobber`, what an MI300 with SRAM ECC
 * on would do to that code) must give wrong results — the halves the d16
 * loads were meant to keep come out 0 — so the model is what makes the
 * sramecc- build pass. Forcing preservation on the other builds changes
 * nothing: code made for SRAM ECC on is right either way. */
#include <stdlib.h>
#include <string.h>

#include "validate.h"

enum { N = 200, WG = 64, NO = 8 };
static const char *const kernels[] = {"d16", NULL};

static void setup_942(void) { vk_compile_arch("validate_d16", kernels, "gfx942"); }
static void setup_942_on(void) { vk_compile_arch("validate_d16_on", kernels, "gfx942:sramecc+"); }
static void setup_942_off(void) { vk_compile_arch("validate_d16_off", kernels, "gfx942:sramecc-"); }
static void setup_90a(void) { vk_compile_arch("validate_d16_90a", kernels, "gfx90a"); }
static void setup_90a_off(void) { vk_compile_arch("validate_d16_90a_off", kernels, "gfx90a:sramecc-"); }

static bool ecc_off(void) { return strstr(vk_target(), ":sramecc-") != NULL; }

typedef struct {
	int16_t s[4 * N];
	uint16_t h[3 * N];
	uint8_t u[3 * N];
	int8_t c[3 * N];
	uint32_t want[N * NO];
} D16Data;

static uint32_t pack(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | (hi & 0xffff) << 16; }
static int jof(int i) { return (i * 7 + 3) % N; }

static void make_data(D16Data *d)
{
	VkRng r = {916};
	for (int k = 0; k < 4 * N; k++)
		d->s[k] = (int16_t)vk_int(&r, -32768, 32767);
	/* f16 values in [-4, 4] on a 2^-8 grid: sums with 1 and 0.5 are exact before rounding */
	for (int k = 0; k < 3 * N; k++)
		d->h[k] = (uint16_t)vk_f2h(vk_int(&r, -1024, 1024) / 256.0);
	for (int k = 0; k < 3 * N; k++) {
		d->u[k] = (uint8_t)vk_int(&r, 0, 255);
		d->c[k] = (int8_t)vk_int(&r, -128, 127);
	}
	for (int i = 0; i < N; i++) {
		int j = jof(i), lid = i % WG, base = i - lid;
		/* the LDS slots: lane l of the workgroup stored s[3N + j(i_l)], i_l clamped to N - 1 */
		int i1 = base + (lid + 1) % WG, i5 = base + (lid + 5) % WG;
		i1 = i1 < N ? i1 : N - 1, i5 = i5 < N ? i5 : N - 1;
		uint32_t *w = &d->want[i * NO];
		w[0] = pack((uint16_t)d->s[i], (uint16_t)d->s[N + j]);
		w[1] = pack(vk_f2h(2.0 * vk_h2f(d->h[j])), d->h[N + i] ^ 0x8000u);
		w[2] = pack(d->u[i], d->u[N + j]);
		w[3] = pack((uint16_t)(int16_t)d->c[j], (uint16_t)(int16_t)d->c[N + i]);
		w[4] = pack((uint16_t)d->s[2 * N + j], (uint16_t)(int16_t)(i * 3 - 100));
		w[5] = pack((uint16_t)d->s[3 * N + jof(i1)], (uint16_t)d->s[3 * N + i]);
		w[6] = pack(vk_f2h((double)vk_h2f(d->h[2 * N + i]) + 1.0),
			    vk_f2h((double)vk_h2f(d->h[2 * N + jof(i5)]) + 0.5));
		w[7] = pack((uint16_t)(int16_t)d->c[2 * N + i], d->u[2 * N + j]);
	}
}

/* Run with extra wavecc options OPTS; returns the number of wrong words. */
static int run_count(D16Data *d, const char *opts, uint32_t *out)
{
	char defs[128];
	snprintf(defs, sizeof defs, "n=%d %s", N, opts);
	VkArg args[] = {{"s", DT_I16, 1, {4 * N}, d->s, VK_IN},	 {"h", DT_F16, 1, {3 * N}, d->h, VK_IN},
			{"u", DT_U8, 1, {3 * N}, d->u, VK_IN},	 {"c", DT_I8, 1, {3 * N}, d->c, VK_IN},
			{"out", DT_U32, 2, {N, NO}, out, VK_OUT}};
	vk_run("d16.launch.json", defs, args, ARRAY_LEN(args));
	int bad = 0;
	for (int k = 0; k < N * NO; k++)
		bad += out[k] != d->want[k];
	return bad;
}

START_TEST(d16_loads)
{
	static D16Data d;
	static uint32_t out[N * NO];
	make_data(&d);
	/* following the code object: right on every target ID */
	run_count(&d, "", out);
	vk_check_u32("d16 out", out, d.want, N * NO);
	const char *text = vk_disasm("d16");
	static const char *const hi_loads[] = {"global_load_short_d16_hi", "global_load_ubyte_d16_hi",
					       "global_load_sbyte_d16_hi", "ds_read_u16_d16_hi", NULL};
	if (ecc_off()) {
		for (const char *const *m = hi_loads; *m; m++)
			ck_assert_msg(strstr(text, *m) != NULL, "%s build: clang-19 no longer emits %s", vk_target(), *m);
		/* the wrong mode: what SRAM ECC on would do to this code */
		int bad = run_count(&d, "--d16=clobber", out);
		ck_assert_msg(bad >= N, "%s build run with --d16=clobber: only %d of %d words wrong", vk_target(), bad,
			      N * NO);
		for (int i = 0; i < N; i++) /* o[0]: ushort low half, then short_d16_hi zeroed it */
			ck_assert_msg(out[i * NO] == (d.want[i * NO] & 0xffff0000u), "clobbered o[0] of %d: 0x%08x", i,
				      out[i * NO]);
	} else {
		ck_assert_msg(strstr(text, "_d16_hi ") == NULL && strstr(text, "_d16 ") == NULL, "%s build uses d16 loads, which SRAM ECC on does not allow",
			      vk_target());
		ck_assert_msg(strstr(text, "v_perm_b32") != NULL, "%s build: no v_perm_b32", vk_target());
		ck_assert_int_eq(run_count(&d, "--d16=preserve", out), 0);
	}
}
END_TEST

/* `wavecc run -v` says which mode it took from the code object. */
START_TEST(d16_mode_reported)
{
	static D16Data d;
	static uint32_t out[N * NO];
	make_data(&d);
	VkArg args[] = {{"s", DT_I16, 1, {4 * N}, d.s, VK_IN},	{"h", DT_F16, 1, {3 * N}, d.h, VK_IN},
			{"u", DT_U8, 1, {3 * N}, d.u, VK_IN},	{"c", DT_I8, 1, {3 * N}, d.c, VK_IN},
			{"out", DT_U32, 2, {N, NO}, out, VK_OUT}};
	CmdResult r = vk_run_raw("d16.launch.json", "n=200 -v", args, ARRAY_LEN(args));
	ck_assert_msg(r.status == 0, "%s", r.err);
	const char *want = ecc_off() ? "(sramecc off): d16 loads preserve the other half"
			   : strchr(vk_target(), ':') ? "(sramecc on): d16 loads zero the other half"
						      : "(sramecc any): d16 loads zero the other half";
	ck_assert_msg(strstr(r.err, want) != NULL, "%s: -v does not say '%s':\n%s", vk_target(), want, r.err);
	cmd_result_free(&r);
	r = vk_run_raw("d16.launch.json", "n=200 --d16=sometimes", args, ARRAY_LEN(args));
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--d16 sometimes: expected clobber, preserve or auto") != NULL, "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

static TCase *cases(const char *target, void (*setup)(void))
{
	TCase *tc = tcase_create(target);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, d16_loads);
	tcase_add_test(tc, d16_mode_reported);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_d16");
	suite_add_tcase(s, cases("gfx942", setup_942));
	suite_add_tcase(s, cases("gfx942:sramecc+", setup_942_on));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_942_off));
	suite_add_tcase(s, cases("gfx90a", setup_90a));
	suite_add_tcase(s, cases("gfx90a:sramecc-", setup_90a_off));
	return run_suite(s);
}
