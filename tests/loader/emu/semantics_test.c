/* semantics_test.c — emulator instruction semantics that the compiled
 * kernels and the clang-built snippets of the other emulator suites happen
 * not to pin down, each found by an outside mutation test (issue 27,
 * tests/mutants/mutants.sh): a deliberate bug in loader/emu that every
 * other suite passed. Each case is an assembly snippet computing v4 from
 * the per-lane inputs (v2, v3: integers; v8: a float that is often an exact
 * half, v9: another float) and a C reference written from the CDNA3 ISA
 * guide's description of the instruction (plain C, double where it
 * matters). All cases run in one kernel (one llvm-mc call); case i stores
 * its row at out + 256*i, with EXEC restored to all lanes first. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu_harness.h"

typedef struct {
	uint32_t a, b; /* integer inputs */
	float fa, fb;  /* float inputs; fa a multiple of 0.5 */
	int lane;
} In;

/* EXEC for the cases that compare under a partial EXEC */
#define EXEC_LO 0x5555aaaau
#define EXEC_HI 0xf0f00f0fu
static bool active(int lane) { return (((uint64_t)EXEC_HI << 32 | EXEC_LO) >> lane) & 1; }

/* v_mad_i64_i32: D = S0.i * S1.i + S2 with both factors sign-extended to
 * 64 bits; the high dword shows the sign */
static uint32_t r_mad_i64_hi(In x) { return (uint32_t)((uint64_t)((int64_t)(int32_t)x.a * (int32_t)x.b) >> 32); }
static uint32_t r_mad_i64_lo_add(In x)
{
	return (uint32_t)((uint64_t)((int64_t)(int32_t)x.a * (int32_t)x.b) + ((uint64_t)x.b << 32 | x.a));
}
/* v_cvt_rpi_i32_f32: D = (int)floor(S0 + 0.5): halves round up (2.5 -> 3,
 * -2.5 -> -2), not to even */
static uint32_t r_rpi(In x) { return (uint32_t)(int32_t)floor((double)x.fa + 0.5); }
/* VOPC: the lanes EXEC disables get 0 in the result mask (v_cmp) and in
 * EXEC itself (v_cmpx), whatever their compare would give (LLVM relies on
 * it: a v_cmp result needs no s_and with EXEC before s_cbranch_vccnz,
 * reviews.llvm.org/D105709) */
static uint32_t r_cmp_partial(In x) { return active(x.lane) && x.fa > x.fb; }
static uint32_t r_cmp_i32_partial(In x) { return active(x.lane) && (int32_t)x.a < (int32_t)x.b; }
/* s_and_saveexec_b64: D = EXEC, EXEC = S0 & EXEC (a nested if narrows) */
static uint32_t r_and_saveexec(In x) { return active(x.lane) && ((0x0f0f0f0f0f0f0f0full >> x.lane) & 1); }
static uint32_t r_active(In x) { return active(x.lane); }
static uint32_t U(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* ds_write2_b64 / ds_read2_b64: offset0 and offset1 count 8-byte units
 * (the element's size), ds_*2st64_b64 512-byte ones; the other side of
 * each case is a plain ds_read_b32 / ds_write_b32 at the byte offset */
static uint32_t r_fa(In x) { return U(x.fa); }
static uint32_t r_b(In x) { return x.b; }
static uint32_t r_a(In x) { return x.a; }
/* ds_min_i32 / ds_max_i32 compare as signed, ds_min_u32 as unsigned */
static uint32_t r_min_i32(In x) { return (int32_t)x.a < (int32_t)x.b ? x.a : x.b; }
static uint32_t r_max_i32(In x) { return (int32_t)x.a > (int32_t)x.b ? x.a : x.b; }
static uint32_t r_min_u32(In x) { return x.a < x.b ? x.a : x.b; }

typedef struct {
	const char *name, *code;
	uint32_t (*ref)(In);
} Case;

#define PARTIAL "s_mov_b32 exec_lo, 0x5555aaaa\ns_mov_b32 exec_hi, 0xf0f00f0f\n"

static const Case cases[] = {
	{"mad_i64_i32_hi", "v_mad_i64_i32 v[10:11], s[12:13], v2, v3, 0\nv_mov_b32 v4, v11", r_mad_i64_hi},
	{"mad_i64_i32_add", "v_mov_b32 v14, v2\nv_mov_b32 v15, v3\nv_mad_i64_i32 v[10:11], s[12:13], v2, v3, v[14:15]\n"
			    "v_mov_b32 v4, v10",
		r_mad_i64_lo_add},
	{"cvt_rpi_i32_f32", "v_cvt_rpi_i32_f32 v4, v8", r_rpi},
	/* vcc first all ones, so a compare that leaves inactive lanes alone shows */
	{"cmp_partial_exec", "s_mov_b64 vcc, -1\n" PARTIAL "v_cmp_gt_f32 vcc, v8, v9\ns_mov_b64 exec, -1\n"
			     "v_cndmask_b32 v4, 0, 1, vcc",
		r_cmp_partial},
	{"cmp_e64_partial_exec", "s_mov_b64 s[20:21], -1\n" PARTIAL "v_cmp_lt_i32_e64 s[20:21], v2, v3\n"
				 "s_mov_b64 exec, -1\nv_cndmask_b32_e64 v4, 0, 1, s[20:21]",
		r_cmp_i32_partial},
	{"cmpx_partial_exec", PARTIAL "v_cmpx_gt_f32 vcc, v8, v9\ns_mov_b64 s[20:21], exec\ns_mov_b64 exec, -1\n"
			      "v_cndmask_b32_e64 v4, 0, 1, s[20:21]",
		r_cmp_partial},
	{"and_saveexec_exec", "s_mov_b32 s22, 0x0f0f0f0f\ns_mov_b32 s23, s22\n" PARTIAL "s_and_saveexec_b64 s[20:21], s[22:23]\n"
			      "s_mov_b64 s[24:25], exec\ns_mov_b64 exec, -1\nv_cndmask_b32_e64 v4, 0, 1, s[24:25]",
		r_and_saveexec},
	{"and_saveexec_saved", "s_mov_b32 s22, 0x0f0f0f0f\ns_mov_b32 s23, s22\n" PARTIAL "s_and_saveexec_b64 s[20:21], s[22:23]\n"
			       "s_mov_b64 exec, -1\nv_cndmask_b32_e64 v4, 0, 1, s[20:21]",
		r_active},
	/* v20: this lane's 32 bytes of LDS (st64: 1024 bytes) */
	{"ds_write2_b64", "v_lshlrev_b32 v20, 5, v0\nds_write2_b64 v20, v[2:3], v[8:9] offset1:2\ns_waitcnt lgkmcnt(0)\n"
			  "ds_read_b32 v4, v20 offset:16\ns_waitcnt lgkmcnt(0)",
		r_fa},
	{"ds_read2_b64", "v_lshlrev_b32 v20, 5, v0\nds_write_b32 v20, v3 offset:24\ns_waitcnt lgkmcnt(0)\n"
			 "ds_read2_b64 v[10:13], v20 offset1:3\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v4, v12",
		r_b},
	{"ds_read2st64_b64", "v_lshlrev_b32 v20, 3, v0\nds_write_b32 v20, v2 offset:1024\ns_waitcnt lgkmcnt(0)\n"
			     "ds_read2st64_b64 v[10:13], v20 offset1:2\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v4, v12",
		r_a},
	{"ds_min_i32", "v_lshlrev_b32 v20, 2, v0\nds_write_b32 v20, v2\ns_waitcnt lgkmcnt(0)\nds_min_i32 v20, v3\n"
		       "s_waitcnt lgkmcnt(0)\nds_read_b32 v4, v20\ns_waitcnt lgkmcnt(0)",
		r_min_i32},
	{"ds_max_i32", "v_lshlrev_b32 v20, 2, v0\nds_write_b32 v20, v2\ns_waitcnt lgkmcnt(0)\nds_max_i32 v20, v3\n"
		       "s_waitcnt lgkmcnt(0)\nds_read_b32 v4, v20\ns_waitcnt lgkmcnt(0)",
		r_max_i32},
	{"ds_min_u32", "v_lshlrev_b32 v20, 2, v0\nds_write_b32 v20, v2\ns_waitcnt lgkmcnt(0)\nds_min_u32 v20, v3\n"
		       "s_waitcnt lgkmcnt(0)\nds_read_b32 v4, v20\ns_waitcnt lgkmcnt(0)",
		r_min_u32},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

START_TEST(semantics_cases)
{
	Buf b = {0};
	buf_puts(&b, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		     "s_load_dwordx2 s[8:9], s[0:1], 0x10\n"
		     "v_and_b32 v0, 0x3ff, v0\n"
		     "v_lshlrev_b32 v1, 2, v0\n"
		     "s_waitcnt lgkmcnt(0)\n"
		     "global_load_dword v2, v1, s[4:5]\n"
		     "global_load_dword v3, v1, s[6:7]\n"
		     "v_lshlrev_b32 v12, 3, v0\n"
		     "global_load_dwordx2 v[8:9], v12, s[8:9]\n"
		     "s_load_dwordx2 s[6:7], s[0:1], 0x18\n"
		     "s_waitcnt vmcnt(0) lgkmcnt(0)\n");
	for (int i = 0; i < NCASES; i++)
		buf_printf(&b, "%s\nglobal_store_dword v1, v4, s[6:7]\ns_add_u32 s6, s6, 256\ns_addc_u32 s7, s7, 0\n",
			cases[i].code);
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	h.l.kd.group_segment_fixed_size = 4096;
	uint32_t ia[64], ib[64], out[NCASES][64];
	float fab[64][2];
	uint32_t seed = 2718281u;
	for (int l = 0; l < 64; l++) {
		seed = seed * 1664525u + 1013904223u;
		ia[l] = seed;
		seed = seed * 1664525u + 1013904223u;
		ib[l] = seed;
		fab[l][0] = (float)((int)(ia[l] % 41) - 20) * 0.5f; /* -10 .. 10 by halves */
		fab[l][1] = (float)((int)(ib[l] % 1001) - 500) / 53.0f;
	}
	/* the halves that tell rounding modes apart, both signs */
	const float halves[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 3.5f, -3.5f};
	for (int i = 0; i < 8; i++)
		fab[i][0] = halves[i];
	h_buffer(&h, ia, sizeof ia, 0, false);
	h_buffer(&h, ib, sizeof ib, 8, false);
	h_buffer(&h, fab, sizeof fab, 16, false);
	h_buffer(&h, out, sizeof out, 24, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	int bad = 0;
	for (int i = 0; i < NCASES; i++)
		for (int l = 0; l < 64; l++) {
			In x = {ia[l], ib[l], fab[l][0], fab[l][1], l};
			uint32_t want = cases[i].ref(x);
			if (out[i][l] != want && bad++ < 10)
				fprintf(stderr, "case %s lane %d: got 0x%08x want 0x%08x\n", cases[i].name, l, out[i][l], want);
		}
	ck_assert_int_eq(bad, 0);
	h_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_semantics");
	TCase *tc = tcase_create("semantics");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, semantics_cases);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
