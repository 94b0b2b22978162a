/* d16_test.c — d16 loads under both SRAM ECC modes (loader/emu/emu.h
 * EmuD16), on every path that has them: GLOBAL, FLAT, MUBUF, SCRATCH and DS,
 * the short, ubyte and sbyte forms into the low and the high half.
 *
 * Each load goes into a register first set to 0xa5a5a5a5 (so a kept half is
 * visible) and is then stored whole. The expected words are computed here
 * from the memory bytes: the loaded half is the 16-bit value (bytes zero- or
 * sign-extended to 16 bits), the other half 0xa5a5 when the launch
 * preserves it and 0 when it clobbers it (SRAM ECC on, the default). The
 * plain ushort/sbyte loads, which always write 32 bits, are the control. */
#include <stdlib.h>
#include <string.h>

#include "emu_harness.h"

/* The loads: mnemonic and what it puts where. */
typedef struct {
	const char *op; /* suffix after "global_load_" etc. */
	int bytes;      /* 1 or 2 */
	bool sign, hi, d16;
} D16Form;

static const D16Form FORMS[] = {
	{"short_d16", 2, false, false, true},  {"short_d16_hi", 2, false, true, true},
	{"ubyte_d16", 1, false, false, true},  {"ubyte_d16_hi", 1, false, true, true},
	{"sbyte_d16", 1, true, false, true},   {"sbyte_d16_hi", 1, true, true, true},
	{"ushort", 2, false, false, false},    {"sbyte", 1, true, false, false},
};
enum { NF = sizeof FORMS / sizeof FORMS[0], OLD = 0xa5a5a5a5u };

/* DS names the same loads differently. */
static const char *const DS_OPS[NF] = {"ds_read_u16_d16", "ds_read_u16_d16_hi", "ds_read_u8_d16", "ds_read_u8_d16_hi",
				       "ds_read_i8_d16",  "ds_read_i8_d16_hi",  "ds_read_u16",    "ds_read_i8"};

static uint32_t expect(const D16Form *f, const uint8_t *mem, bool preserve)
{
	uint32_t v = f->bytes == 2 ? (uint32_t)mem[0] | (uint32_t)mem[1] << 8 : mem[0];
	if (f->sign)
		v = (uint32_t)(int32_t)(int8_t)v;
	if (!f->d16)
		return v;
	uint32_t keep = preserve ? OLD : 0;
	return f->hi ? (keep & 0xffff) | (v & 0xffff) << 16 : (keep & 0xffff0000u) | (v & 0xffff);
}

/* Source bytes: lane l reads the 2 bytes at 2*l; values cover the sign bit
 * of both bytes. */
static void fill(uint8_t *src)
{
	for (int i = 0; i < 128; i++)
		src[i] = (uint8_t)(0x37 * i + 0x81);
}

/* Build the kernel: one load of each form through PATH ("global", "flat",
 * "buffer", "scratch", "ds"), result i stored at out + 256*i. */
static char *kernel(const char *path)
{
	Buf b = {0};
	buf_puts(&b, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n" /* s[4:5] src, s[6:7] out */
		     "v_and_b32 v0, 0x3ff, v0\n"
		     "v_lshlrev_b32 v1, 1, v0\n" /* 2*lane: the source offset */
		     "v_lshlrev_b32 v2, 2, v0\n" /* 4*lane: the output offset */
		     "s_waitcnt lgkmcnt(0)\n"
		     "v_mov_b32 v3, s5\n"
		     "v_add_co_u32 v10, vcc, s4, v1\n"
		     "v_addc_co_u32 v11, vcc, 0, v3, vcc\n" /* v[10:11]: flat address */
		     "s_mov_b32 s16, s4\n"
		     "s_and_b32 s17, s5, 0xffff\n"
		     "s_mov_b32 s18, -1\n"
		     "s_mov_b32 s19, 0x27000\n"); /* s[16:19]: raw buffer V# over src */
	if (strcmp(path, "ds") == 0 || strcmp(path, "scratch") == 0) {
		/* stage the lane's 2 bytes into LDS (at 2*lane) or its scratch (at 0) */
		buf_puts(&b, "global_load_ushort v4, v1, s[4:5]\ns_waitcnt vmcnt(0)\n");
		buf_puts(&b, path[0] == 'd' ? "ds_write_b16 v1, v4\n" : "scratch_store_short off, v4, off\n");
		buf_puts(&b, "s_waitcnt vmcnt(0) lgkmcnt(0)\n");
	}
	for (int i = 0; i < NF; i++) {
		buf_printf(&b, "v_mov_b32 v%d, 0x%x\n", 20 + i, OLD);
		if (strcmp(path, "global") == 0)
			buf_printf(&b, "global_load_%s v%d, v1, s[4:5]\n", FORMS[i].op, 20 + i);
		else if (strcmp(path, "flat") == 0)
			buf_printf(&b, "flat_load_%s v%d, v[10:11]\n", FORMS[i].op, 20 + i);
		else if (strcmp(path, "buffer") == 0)
			buf_printf(&b, "buffer_load_%s v%d, v1, s[16:19], 0 offen\n", FORMS[i].op, 20 + i);
		else if (strcmp(path, "scratch") == 0)
			buf_printf(&b, "scratch_load_%s v%d, off, off\n", FORMS[i].op, 20 + i);
		else
			buf_printf(&b, "%s v%d, v1\n", DS_OPS[i], 20 + i);
	}
	buf_puts(&b, "s_waitcnt vmcnt(0) lgkmcnt(0)\n");
	for (int i = 0; i < NF; i++)
		buf_printf(&b, "global_store_dword v2, v%d, s[6:7] offset:%d\n", 20 + i, 256 * i);
	buf_cstr(&b);
	return b.data; /* the caller frees it */
}

static void run_path(const char *path, EmuArch arch, EmuD16 mode)
{
	static uint8_t src[128];
	static uint32_t out[NF][64];
	fill(src);
	memset(out, 0, sizeof out);
	char *body = kernel(path);
	Harness h;
	h_init(&h, body);
	free(body);
	h.l.arch = arch;
	h.l.d16 = mode;
	h.l.kd.group_segment_fixed_size = 256;
	h.l.kd.private_segment_fixed_size = 16;
	h_buffer(&h, src, sizeof src, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	ck_assert_msg(h_run(&h) == 0, "%s: %s", path, h.err);
	for (int i = 0; i < NF; i++)
		for (int l = 0; l < 64; l++) {
			uint32_t want = expect(&FORMS[i], src + 2 * l, mode == EMU_D16_PRESERVE);
			ck_assert_msg(out[i][l] == want, "%s %s (%s, %s) lane %d: got 0x%08x, want 0x%08x", path,
				      strcmp(path, "ds") == 0 ? DS_OPS[i] : FORMS[i].op,
				      arch == EMU_GFX90A ? "gfx90a" : "gfx942",
				      mode == EMU_D16_PRESERVE ? "preserve" : "clobber", l, out[i][l], want);
		}
	h_free(&h);
}

static const char *const PATHS[] = {"global", "flat", "buffer", "scratch", "ds"};

START_TEST(d16_clobber)
{
	/* the zero value of EmuLaunch.d16 is the hardware default (SRAM ECC on) */
	ck_assert_int_eq(EMU_D16_CLOBBER, 0);
	run_path(PATHS[_i], EMU_GFX942, EMU_D16_CLOBBER);
}
END_TEST

START_TEST(d16_preserve)
{
	run_path(PATHS[_i], EMU_GFX942, EMU_D16_PRESERVE);
}
END_TEST

START_TEST(d16_gfx90a)
{
	/* gfx90a has architected scratch only through a V#; leave that path to gfx942 */
	if (strcmp(PATHS[_i], "scratch") == 0)
		return;
	run_path(PATHS[_i], EMU_GFX90A, EMU_D16_CLOBBER);
	run_path(PATHS[_i], EMU_GFX90A, EMU_D16_PRESERVE);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_d16");
	TCase *tc = tcase_create("d16");
	tcase_set_timeout(tc, 60);
	int np = (int)(sizeof PATHS / sizeof PATHS[0]);
	tcase_add_loop_test(tc, d16_clobber, 0, np);
	tcase_add_loop_test(tc, d16_preserve, 0, np);
	tcase_add_loop_test(tc, d16_gfx90a, 0, np);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
