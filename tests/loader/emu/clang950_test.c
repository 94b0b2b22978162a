/* clang950_test.c — gfx950's own instructions in kernels from an independent
 * code generator: OpenCL C compiled by clang-22 for gfx950 (LLVM 19 does not
 * know it), taken straight from the relocatable object as clang_test.c does,
 * run on the emulator and checked against C references written here from
 * the builtins' documented meaning:
 *   ds_read_b64_tr_b16/b8/b4, ds_read_b96_tr_b6   __builtin_amdgcn_ds_read_tr*
 *   v_permlane16_swap_b32, v_permlane32_swap_b32   __builtin_amdgcn_permlane16/32_swap
 *   v_cvt_pk_bf16_f32                              (__bf16) conversions
 *   global_load_lds_dword{,x3,x4}                  __builtin_amdgcn_global_load_lds, 4/12/16 bytes
 *   buffer_load_dword{,x3,x4} ... lds              __builtin_amdgcn_raw_ptr_buffer_load_lds
 * Each test also greps the disassembly the emulator prints for the
 * instructions it claims (a clang that emits something else fails), and the
 * direct-to-LDS kernels run once more with late memory (a missing vmcnt
 * wait before the LDS reads would fail). Where clang-22 is not installed
 * every test says so on stderr and passes (tools/setup.sh installs it). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../../loader/emu/emu_int.h"
#include "emu_harness.h"

static bool have_clang22(void)
{
	static int have = -1;
	if (have < 0) {
		have = test_need("clang950", "clang-22") && test_need("clang950", "llvm-objcopy-22");
	}
	return have;
}

/* Does the code hold instruction `name` (as emu_print spells it)? */
static bool has_inst(const Harness *h, const char *name)
{
	for (size_t off = 0; off + 4 <= h->code_size;) {
		Inst in;
		int n = emu_decode(EMU_GFX950, h->code + off, h->code_size - off, &in);
		if (n <= 0)
			break;
		char dis[200];
		emu_print(&in, off, dis, sizeof dis);
		size_t k = strlen(name);
		if (strncmp(dis, name, k) == 0 && (dis[k] == ' ' || dis[k] == '_' || dis[k] == 0))
			return true;
		off += 4 * (size_t)n;
	}
	return false;
}

#define EXPECT_INST(h, name) ck_assert_msg(has_inst(h, name), "clang-22's code has no %s", name)

/* ---- transposing LDS reads ----
 * 2 KiB of LDS filled with x; lane l reads at 8l (tr16), 512 + 8l (tr8),
 * 1024 + 8l (tr4) and 1536 + 12l (tr6). */
static const char *TR_CL =
	"typedef int v2i __attribute__((ext_vector_type(2)));\n"
	"typedef int v3i __attribute__((ext_vector_type(3)));\n"
	"typedef short v4s __attribute__((ext_vector_type(4)));\n"
	"__kernel void tr(__global const int *x, __global int *o) {\n"
	"  __local int lds[1024];\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  for (int i = 0; i < 16; i++) lds[l * 16 + i] = x[l * 16 + i];\n"
	"  __builtin_amdgcn_s_barrier();\n"
	"  __local char *b = (__local char *)lds;\n"
	"  v4s a = __builtin_amdgcn_ds_read_tr16_b64_v4i16((__local v4s *)(b + l * 8));\n"
	"  v2i c = __builtin_amdgcn_ds_read_tr8_b64_v2i32((__local v2i *)(b + 512 + l * 8));\n"
	"  v2i d = __builtin_amdgcn_ds_read_tr4_b64_v2i32((__local v2i *)(b + 1024 + l * 8));\n"
	"  v3i e = __builtin_amdgcn_ds_read_tr6_b96_v3i32((__local v3i *)(b + 1536 + l * 12));\n"
	"  o[l * 9 + 0] = (unsigned short)a.x | ((int)a.y << 16);\n"
	"  o[l * 9 + 1] = (unsigned short)a.z | ((int)a.w << 16);\n"
	"  o[l * 9 + 2] = c.x; o[l * 9 + 3] = c.y; o[l * 9 + 4] = d.x; o[l * 9 + 5] = d.y;\n"
	"  o[l * 9 + 6] = e.x; o[l * 9 + 7] = e.y; o[l * 9 + 8] = e.z;\n"
	"}\n";

static unsigned bits_at(const uint8_t *p, unsigned pos, unsigned n)
{
	unsigned v = 0;
	for (unsigned b = 0; b < n; b++)
		v |= ((p[(pos + b) / 8] >> ((pos + b) % 8)) & 1u) << b;
	return v;
}

/* The reference of one transposing read of `bits`-bit elements: each lane
 * reads `bytes` at lds + base + bytes * lane (n elements); in each row of 16
 * lanes, lane i's element j is element i % n of lane 16 * row + (16 / n) * j
 * + i / n. Out: the lane's bytes. */
static void tr_ref(const uint8_t *lds, unsigned base, unsigned bits, unsigned bytes, int lane, uint8_t *out)
{
	unsigned n = bytes * 8 / bits, R = 16 / n, i = (unsigned)lane % 16;
	memset(out, 0, bytes);
	for (unsigned j = 0; j < n; j++) {
		unsigned src = (unsigned)lane - i + R * j + i / n;
		unsigned v = bits_at(lds + base + bytes * src, (i % n) * bits, bits);
		for (unsigned b = 0; b < bits; b++)
			out[(j * bits + b) / 8] |= (uint8_t)(((v >> b) & 1u) << ((j * bits + b) % 8));
	}
}

START_TEST(clang22_ds_read_tr)
{
	if (!have_clang22())
		return;
	Harness h;
	ck_assert(h_init_cl(&h, TR_CL, "gfx950", NULL));
	EXPECT_INST(&h, "ds_read_b64_tr_b16");
	EXPECT_INST(&h, "ds_read_b64_tr_b8");
	EXPECT_INST(&h, "ds_read_b64_tr_b4");
	EXPECT_INST(&h, "ds_read_b96_tr_b6");
	static uint32_t x[1024], o[64][9];
	for (int i = 0; i < 1024; i++)
		x[i] = (uint32_t)i * 0x9e3779b9u ^ (uint32_t)(i >> 3) * 0x85ebca6bu;
	h_buffer(&h, x, sizeof x, 0, false);
	h_buffer(&h, o, sizeof o, 8, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	const uint8_t *lds = (const uint8_t *)x;
	static const struct {
		unsigned base, bits, bytes, word;
	} rd[] = {{0, 16, 8, 0}, {512, 8, 8, 2}, {1024, 4, 8, 4}, {1536, 6, 12, 6}};
	for (int l = 0; l < 64; l++)
		for (size_t k = 0; k < 4; k++) {
			uint8_t want[12];
			tr_ref(lds, rd[k].base, rd[k].bits, rd[k].bytes, l, want);
			ck_assert_msg(memcmp(want, &o[l][rd[k].word], rd[k].bytes) == 0, "lane %d, the %u-bit read", l,
				      rd[k].bits);
		}
	/* a concrete b16 case: lane 5's elements are column 5 of the four
	 * rows lanes {1, 5, 9, 13} read (element 1 of each) */
	uint16_t e16[4];
	memcpy(e16, &o[5][0], 8);
	for (int j = 0; j < 4; j++) {
		uint16_t src;
		memcpy(&src, lds + 8 * (4 * j + 1) + 2, 2);
		ck_assert_uint_eq(e16[j], src);
	}
	h_free(&h);
}
END_TEST

/* ---- lane swaps ---- */
static const char *SWAP_CL =
	"typedef unsigned u2 __attribute__((ext_vector_type(2)));\n"
	"__kernel void swap(__global const unsigned *x, __global unsigned *o) {\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  unsigned a = x[l] * 3u, b = x[l + 64] + 7u;\n"
	"  u2 r = __builtin_amdgcn_permlane16_swap(a, b, false, false);\n"
	"  u2 s = __builtin_amdgcn_permlane32_swap(a, b, false, false);\n"
	"  u2 t = __builtin_amdgcn_permlane16_swap(r.y, s.x, true, true);\n"
	"  o[l * 6 + 0] = r.x; o[l * 6 + 1] = r.y; o[l * 6 + 2] = s.x; o[l * 6 + 3] = s.y;\n"
	"  o[l * 6 + 4] = t.x; o[l * 6 + 5] = t.y;\n"
	"}\n";

/* permlane16_swap(old, src): the odd rows of old swapped with the even rows
 * of src (a row is 16 lanes); permlane32_swap: the upper half of old with
 * the lower half of src. Returns {new old, new src} of lane l. */
static void swap_ref(const uint32_t *old, const uint32_t *src, int row, int l, uint32_t *r0, uint32_t *r1)
{
	bool upper = (l / row) % 2;
	*r0 = upper ? src[l - row] : old[l];
	*r1 = upper ? src[l] : old[l + row];
}

START_TEST(clang22_permlane_swap)
{
	if (!have_clang22())
		return;
	Harness h;
	ck_assert(h_init_cl(&h, SWAP_CL, "gfx950", NULL));
	EXPECT_INST(&h, "v_permlane16_swap_b32");
	EXPECT_INST(&h, "v_permlane32_swap_b32");
	uint32_t x[128], o[64][6], a[64], b[64], r0[64], r1[64], s0[64], s1[64];
	for (int i = 0; i < 128; i++)
		x[i] = (uint32_t)i * 2654435761u + 12345u;
	h_buffer(&h, x, sizeof x, 0, false);
	h_buffer(&h, o, sizeof o, 8, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int l = 0; l < 64; l++)
		a[l] = x[l] * 3u, b[l] = x[l + 64] + 7u;
	for (int l = 0; l < 64; l++) {
		swap_ref(a, b, 16, l, &r0[l], &r1[l]);
		swap_ref(a, b, 32, l, &s0[l], &s1[l]);
	}
	for (int l = 0; l < 64; l++) {
		uint32_t t0, t1;
		swap_ref(r1, s0, 16, l, &t0, &t1);
		ck_assert_msg(o[l][0] == r0[l] && o[l][1] == r1[l], "lane %d: permlane16_swap", l);
		ck_assert_msg(o[l][2] == s0[l] && o[l][3] == s1[l], "lane %d: permlane32_swap", l);
		ck_assert_msg(o[l][4] == t0 && o[l][5] == t1, "lane %d: permlane16_swap fi bound_ctrl", l);
	}
	h_free(&h);
}
END_TEST

/* ---- f32 -> bf16 ---- */
static const char *CVT_CL =
	"__kernel void cvt(__global const float *x, __global ushort *o) {\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  __bf16 a = (__bf16)x[2 * l], b = (__bf16)x[2 * l + 1];\n"
	"  o[2 * l] = __builtin_bit_cast(ushort, a);\n"
	"  o[2 * l + 1] = __builtin_bit_cast(ushort, b);\n"
	"}\n";

/* f32 bits to bf16 bits, rounded to nearest even; 0 for a NaN (checked as
 * "a NaN of the same sign" instead). */
static uint16_t bf16_ref(uint32_t u)
{
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return 0;
	uint32_t lsb = (u >> 16) & 1;
	return (uint16_t)((u + 0x7fffu + lsb) >> 16);
}

START_TEST(clang22_cvt_pk_bf16)
{
	if (!have_clang22())
		return;
	Harness h;
	ck_assert(h_init_cl(&h, CVT_CL, "gfx950", NULL));
	EXPECT_INST(&h, "v_cvt_pk_bf16_f32");
	static const uint32_t special[] = {
		0x00000000, 0x80000000, 0x3f800000, 0x3f808000, /* 1 + half an ulp: a tie to even (down) */
		0x3f818000, /* a tie to even (up) */ 0x3f808001, 0x3f807fff, 0x7f7fffff, /* rounds to inf */
		0x7f7f7fff, 0x7f800000, 0xff800000, 0x00000001, /* denormals, kept */ 0x00008000, 0x00018000,
		0x807fffff, 0x7fc00000, 0xffc00001, 0x7f800001, /* signalling */ 0x7f7f8000, 0xc2f6e979,
	};
	uint32_t x[128];
	uint16_t o[128];
	for (int i = 0; i < 128; i++)
		x[i] = i < (int)ARRAY_LEN(special) ? special[i] : (uint32_t)i * 0x9e3779b9u;
	h_buffer(&h, x, sizeof x, 0, false);
	h_buffer(&h, o, sizeof o, 8, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int i = 0; i < 128; i++) {
		if ((x[i] & 0x7fffffffu) > 0x7f800000u)
			ck_assert_msg((o[i] & 0x7fffu) > 0x7f80u && (o[i] >> 15) == (x[i] >> 31), "element %d: %#x -> %#x, "
				      "not a NaN of that sign", i, x[i], o[i]);
		else
			ck_assert_msg(o[i] == bf16_ref(x[i]), "element %d: %#x -> %#x, want %#x", i, x[i], o[i], bf16_ref(x[i]));
	}
	h_free(&h);
}
END_TEST

/* ---- direct-to-LDS loads ----
 * global_load_lds of 16, 12 and 4 bytes per lane (the builtin's offset
 * applies to the global and the LDS address), each to its own LDS area,
 * then every lane copies the 2 KiB of LDS out. */
static const char *GDMA_CL =
	"__kernel void gdma(__global const int *x, __global int *o) {\n"
	"  __local int lds[512];\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  __builtin_amdgcn_global_load_lds((__global void *)(x + l * 4), (__local void *)lds, 16, 0, 0);\n"
	"  __builtin_amdgcn_global_load_lds((__global void *)(x + 256 + l * 3), (__local void *)(lds + 256), 12, 16, 0);\n"
	"  __builtin_amdgcn_global_load_lds((__global void *)(x + 512 + (63 - l)), (__local void *)(lds + 448), 4, 0, 0);\n"
	"  __builtin_amdgcn_s_waitcnt(0);\n"
	"  __builtin_amdgcn_s_barrier();\n"
	"  for (int i = 0; i < 8; i++) o[l * 8 + i] = lds[l * 8 + i];\n"
	"}\n";

/* The same through buffer loads with the lds bit: the range check (num
 * records n * 4 bytes) gives 0 to each dword past it. */
static const char *BDMA_CL =
	"__kernel void bdma(__global int *x, __global int *o, int n) {\n"
	"  __local int lds[768];\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(x, 0, n * 4, 0x20000);\n"
	"  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (__local void *)lds, 16, l * 16, 0, 0, 0);\n"
	"  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (__local void *)(lds + 256), 12, l * 12 + 4, 0, 0, 0);\n"
	"  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (__local void *)(lds + 512), 4, l * 4, 0, 16, 0);\n"
	"  __builtin_amdgcn_s_waitcnt(0);\n"
	"  __builtin_amdgcn_s_barrier();\n"
	"  for (int i = 0; i < 12; i++) o[l * 12 + i] = lds[l * 12 + i];\n"
	"}\n";

static void run_dma(Harness *h, bool late, void *x, size_t xs, void *o, size_t os, int n)
{
	h_buffer(h, x, xs, 0, false);
	h_buffer(h, o, os, 8, true);
	if (n >= 0)
		h_arg32(h, 16, (uint32_t)n);
	h->l.policy = (EmuPolicy){.memory = late ? EMU_MEMORY_LATE : EMU_MEMORY_NOW};
	ck_assert_msg(h_run(h) == 0, "%s", h->err);
}

START_TEST(clang22_global_load_lds)
{
	if (!have_clang22())
		return;
	for (int late = 0; late < 2; late++) {
		Harness h;
		ck_assert(h_init_cl(&h, GDMA_CL, "gfx950", NULL));
		EXPECT_INST(&h, "global_load_lds_dwordx4");
		EXPECT_INST(&h, "global_load_lds_dwordx3");
		EXPECT_INST(&h, "global_load_lds_dword");
		static int32_t x[1024], o[512];
		for (int i = 0; i < 1024; i++)
			x[i] = i * 7 - 3000;
		memset(o, 0xcc, sizeof o);
		run_dma(&h, late, x, sizeof x, o, sizeof o, -1);
		int32_t want[512];
		memset(want, 0, sizeof want);
		for (int l = 0; l < 64; l++) {
			for (int k = 0; k < 4; k++)
				want[4 * l + k] = x[4 * l + k];
			/* offset 16: global x + 256 + 3l + 4 ints, LDS 256 + 3l + 4 ints */
			for (int k = 0; k < 3; k++)
				want[256 + 4 + 3 * l + k] = x[256 + 3 * l + 4 + k];
		}
		for (int l = 0; l < 64; l++)
			want[448 + l] = x[512 + 63 - l];
		for (int i = 0; i < 512; i++) {
			if (i >= 256 && i < 260)
				continue; /* nothing writes them */
			ck_assert_msg(o[i] == want[i], "%s: LDS dword %d: %d, want %d", late ? "late" : "now", i, o[i], want[i]);
		}
		h_free(&h);
	}
}
END_TEST

START_TEST(clang22_buffer_load_lds)
{
	if (!have_clang22())
		return;
	for (int late = 0; late < 2; late++) {
		Harness h;
		ck_assert(h_init_cl(&h, BDMA_CL, "gfx950", NULL));
		EXPECT_INST(&h, "buffer_load_dwordx4");
		EXPECT_INST(&h, "buffer_load_dwordx3");
		static int32_t x[1024], o[768];
		for (int i = 0; i < 1024; i++)
			x[i] = i * 13 + 5;
		memset(o, 0xcc, sizeof o);
		int n = 190; /* dwords in range: the last lanes of each load read past it */
		run_dma(&h, late, x, sizeof x, o, sizeof o, n);
		int32_t want[768];
		memset(want, 0, sizeof want);
		for (int l = 0; l < 64; l++) {
			for (int k = 0; k < 4; k++)
				want[4 * l + k] = 4 * l + k < n ? x[4 * l + k] : 0;
			for (int k = 0; k < 3; k++) /* voffset 12l + 4 */
				want[256 + 3 * l + k] = 3 * l + 1 + k < n ? x[3 * l + 1 + k] : 0;
			/* offset 16: global 4 + l dwords, LDS 512 + 4 + l */
			want[512 + 4 + l] = l + 4 < n ? x[l + 4] : 0;
		}
		for (int i = 0; i < 768; i++) {
			if ((i >= 448 && i < 512) || (i >= 512 && i < 516) || i >= 580)
				continue; /* nothing writes them */
			ck_assert_msg(o[i] == want[i], "%s: LDS dword %d: %d, want %d", late ? "late" : "now", i, o[i], want[i]);
		}
		h_free(&h);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_clang950");
	TCase *tc = tcase_create("clang22");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clang22_ds_read_tr);
	tcase_add_test(tc, clang22_permlane_swap);
	tcase_add_test(tc, clang22_cvt_pk_bf16);
	tcase_add_test(tc, clang22_global_load_lds);
	tcase_add_test(tc, clang22_buffer_load_lds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
