/* order_test.c — the emulator's wave order `model` (loader/timing/order.c,
 * EMU_WAVES_MODEL): the emulator issues each instruction of a workgroup's
 * waves when the cycle model issues it. The interleaving the functional run
 * executed is the one the cycle model's own simulation of the recorded
 * streams gives (same configuration, tm_order_config): the same issue
 * order, instruction for instruction, and the same clocks, over waves that
 * drift apart (loads, MFMAs, LDS, barriers, two waves per SIMD). An LDS race
 * whose outcome depends on timing (a writer that waits for a global load,
 * no barrier before the reader) reads the written values under the
 * round-robin and run-to-barrier orders and the stale ones under the model
 * order; the race detector reports it in every order. */
#include <stdlib.h>
#include <string.h>

#include "emu_timing.h"

/* s6 = the wave's index in the workgroup, v0 = the work-item id x. */
#define WAVE_INDEX "v_and_b32 v0, 0x3ff, v0\n" \
		   "v_readfirstlane_b32 s6, v0\n" \
		   "s_lshr_b32 s6, s6, 6\n"

/* Waves that drift: wave 0 loads from global memory and waits, the odd
 * waves run MFMAs, all exchange through LDS across barriers, twice. */
static const char *DRIFT =
	"s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
	"s_load_dwordx2 s[8:9], s[0:1], 0x8\n" WAVE_INDEX
	"v_and_b32 v1, 63, v0\n"
	"v_lshlrev_b32 v1, 2, v1\n"
	"v_lshlrev_b32 v5, 2, v0\n"
	"s_waitcnt lgkmcnt(0)\n"
	"s_mov_b32 s10, 2\n"
	"again:\n"
	"s_cmp_eq_u32 s6, 0\n"
	"s_cbranch_scc0 not_loader\n"
	"global_load_dword v2, v1, s[8:9]\n"
	"global_load_dword v3, v1, s[8:9] offset:256\n"
	"s_waitcnt vmcnt(0)\n"
	"v_add_u32 v2, v2, v3\n"
	"not_loader:\n"
	"s_and_b32 s11, s6, 1\n"
	"s_cmp_eq_u32 s11, 1\n"
	"s_cbranch_scc0 no_mfma\n"
	"v_mfma_f32_16x16x16_f16 v[8:11], v[20:21], v[22:23], v[8:11]\n"
	"v_mfma_f32_16x16x16_f16 v[8:11], v[20:21], v[22:23], v[8:11]\n"
	"v_mfma_f32_16x16x16_f16 v[12:15], v[8:9], v[22:23], v[12:15]\n"
	"no_mfma:\n"
	"ds_write_b32 v5, v2\n"
	"s_waitcnt lgkmcnt(0)\n"
	"s_barrier\n"
	"ds_read_b32 v6, v5 offset:4\n"
	"s_waitcnt lgkmcnt(0)\n"
	"v_add_u32 v2, v2, v6\n"
	"s_barrier\n"
	"s_sub_u32 s10, s10, 1\n"
	"s_cmp_lg_u32 s10, 0\n"
	"s_cbranch_scc1 again\n"
	"global_store_dword v5, v2, s[4:5]\n"
	"s_endpgm\n";

/* The launch's order under the model, logged. */
static void run_model(Harness *h, EmuArch arch, TmOrder *o)
{
	h->l.arch = arch;
	h->l.policy = (EmuPolicy){.waves = EMU_WAVES_MODEL};
	h->l.hook = tm_order_hook(o);
	ck_assert_msg(h_run(h) == 0, "%s", h->err);
	h->l.hook = NULL;
}

/* Every wave instruction's wave, in the order the emulator ran them. */
typedef struct {
	uint32_t nwaves, *seq;
	size_t n, cap;
} Seq;

static void seq_inst(void *ctx, const EmuEvent *ev)
{
	Seq *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->seq = realloc(s->seq, s->cap * sizeof *s->seq);
		ck_assert_ptr_nonnull(s->seq);
	}
	s->seq[s->n++] = ev->wg * s->nwaves + ev->wave;
}

START_TEST(model_order_is_the_models)
{
	static const uint32_t ITEMS[2] = {256, 512}; /* one wave a SIMD; two, oldest first */
	static const EmuArch ARCH[2] = {EMU_GFX942, EMU_GFX90A};
	for (int k = 0; k < 4; k++) {
		uint32_t items = ITEMS[k % 2], nwaves = items / 64, nwg = 3;
		EmuArch arch = ARCH[k / 2];
		Harness h;
		h_init(&h, DRIFT);
		uint32_t out[512 * 3], in[128];
		for (int i = 0; i < 128; i++)
			in[i] = (uint32_t)(7 * i + 1);
		h_buffer(&h, out, sizeof out, 0, true);
		h_buffer(&h, in, sizeof in, 8, false);
		h.l.wg_size[0] = items;
		h.l.kd.group_segment_fixed_size = 4 * 512 + 4;
		h.l.grid[0] = nwg;
		/* the emulator under the model's order */
		TmOrder *o = tm_order_new(arch, true);
		run_model(&h, arch, o);
		const TmCuResult *got = tm_order_result(o);
		uint32_t model_out[512 * 3];
		memcpy(model_out, out, sizeof out);
		/* the streams recorded (run to barriers) and simulated with the
		 * model order's configuration */
		TmCuConfig c;
		tm_order_config(arch, &c);
		c.log_order = true;
		h.l.policy = (EmuPolicy){.waves = EMU_WAVES_BARRIER};
		TmCuResult want;
		h_simulate(&h, arch, nwg, &c, &want);
		ck_assert_mem_eq(out, model_out, sizeof out); /* race-free: one result */
		ck_assert_uint_eq(got->workgroups, nwg);
		ck_assert_uint_eq(got->norder, want.norder);
		ck_assert_uint_gt(got->norder, 60 * nwaves * nwg / 2);
		for (size_t i = 0; i < want.norder; i++)
			ck_assert_msg(got->order[i] == want.order[i], "items %u: issue %zu: wave %u in the emulator, %u in the model",
				      items, i, got->order[i], want.order[i]);
		ck_assert_uint_eq(got->cycles, want.cycles);
		/* and it is not the round-robin: somewhere a wave issues ahead of
		 * the others by more than one instruction */
		Seq s = {.nwaves = nwaves};
		EmuHook hk = {.on_inst = seq_inst, .ctx = &s};
		h.l.policy = (EmuPolicy){.waves = EMU_WAVES_INTERLEAVE};
		h.l.hook = &hk;
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		h.l.hook = NULL;
		ck_assert_uint_eq(s.n, want.norder);
		ck_assert_msg(memcmp(s.seq, want.order, s.n * sizeof *s.seq) != 0, "the model issued round-robin");
		free(s.seq);
		tm_cu_result_free(&want);
		tm_order_free(o);
		h_free(&h);
	}
}
END_TEST

/* Wave 0 writes LDS the value it loads from global memory, wave 1 reads
 * the same dwords with no barrier between, after more instructions than
 * wave 0 takes to its write. */
static const char *TIMED_RACE =
	"s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
	"s_load_dwordx2 s[8:9], s[0:1], 0x8\n" WAVE_INDEX
	"v_and_b32 v1, 63, v0\n"
	"v_lshlrev_b32 v1, 2, v1\n"
	"s_waitcnt lgkmcnt(0)\n"
	"s_cmp_eq_u32 s6, 0\n"
	"s_cbranch_scc1 writer\n"
	"v_add_u32 v3, 1, v1\n"
	"v_add_u32 v3, 1, v3\n"
	"v_add_u32 v3, 1, v3\n"
	"v_add_u32 v3, 1, v3\n"
	"v_add_u32 v3, 1, v3\n"
	"v_add_u32 v3, 1, v3\n"
	"ds_read_b32 v2, v1\n"
	"s_waitcnt lgkmcnt(0)\n"
	"global_store_dword v1, v2, s[4:5]\n"
	"s_endpgm\n"
	"writer:\n"
	"global_load_dword v2, v1, s[8:9]\n"
	"s_waitcnt vmcnt(0)\n"
	"ds_write_b32 v1, v2\n"
	"s_endpgm\n";

/* The round-robin and run-to-barrier orders let wave 0 write first (it
 * needs three instructions, wave 1 eight); the cycle model holds wave 0 at
 * its s_waitcnt for the load's hundreds of clocks, and wave 1 reads the
 * zeros LDS starts with. Under late memory too; the race detector
 * reports the pair in every order. */
START_TEST(model_order_catches_a_timed_race)
{
	for (int late = 0; late < 2; late++)
		for (int mode = 0; mode < 3; mode++) {
			static const EmuWaveOrder ORDERS[3] = {EMU_WAVES_INTERLEAVE, EMU_WAVES_BARRIER, EMU_WAVES_MODEL};
			Harness h;
			h_init(&h, TIMED_RACE);
			uint32_t out[64], in[64];
			for (int i = 0; i < 64; i++)
				in[i] = (uint32_t)(1000 + i);
			memset(out, 0xff, sizeof out);
			h_buffer(&h, out, sizeof out, 0, true);
			h_buffer(&h, in, sizeof in, 8, false);
			h.l.wg_size[0] = 128;
			h.l.kd.group_segment_fixed_size = 256;
			h.l.policy = (EmuPolicy){.waves = ORDERS[mode], .races = true,
						 .memory = late ? EMU_MEMORY_LATE : EMU_MEMORY_NOW};
			TmOrder *o = tm_order_new(EMU_GFX942, false);
			if (ORDERS[mode] == EMU_WAVES_MODEL)
				h.l.hook = tm_order_hook(o);
			char report[EMU_RACE_REPORTS * 640];
			h.l.report = report;
			h.l.report_len = sizeof report;
			int rc = h_run(&h);
			ck_assert_msg(rc == 0, "%s", h.err);
			ck_assert_uint_eq(h.stats.races, 1);
			ck_assert_ptr_nonnull(strstr(report, "race on LDS offset"));
			ck_assert_ptr_nonnull(strstr(report, "ds_write_b32"));
			ck_assert_ptr_nonnull(strstr(report, "ds_read_b32"));
			for (int l = 0; l < 64; l++)
				ck_assert_msg(out[l] == (ORDERS[mode] == EMU_WAVES_MODEL ? 0 : in[l]),
					      "order %s, lane %d: %u", emu_policy_name(EMU_POLICY_WAVES, (int)ORDERS[mode]), l, out[l]);
			tm_order_free(o);
			h_free(&h);
		}
}
END_TEST

/* The model order needs the model: without its hook, or with a hook
 * that samples workgroups, the launch is refused. */
START_TEST(model_order_needs_the_scheduler)
{
	Harness h;
	h_init(&h, "s_endpgm\n");
	h.l.policy = (EmuPolicy){.waves = EMU_WAVES_MODEL};
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_ptr_nonnull(strstr(h.err, "the model wave order needs the cycle model's scheduler"));
	TmOrder *o = tm_order_new(EMU_GFX942, false);
	EmuHook sampled = *tm_order_hook(o);
	sampled.wg_count = 1;
	h.l.hook = &sampled;
	ck_assert_int_eq(h_run(&h), -1);
	h.l.hook = tm_order_hook(o);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	ck_assert_int_eq(emu_policy_parse(EMU_POLICY_WAVES, "model"), EMU_WAVES_MODEL);
	ck_assert_str_eq(emu_policy_name(EMU_POLICY_WAVES, EMU_WAVES_MODEL), "model");
	tm_order_free(o);
	h_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("timing_order");
	TCase *tc = tcase_create("order");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, model_order_is_the_models);
	tcase_add_test(tc, model_order_catches_a_timed_race);
	tcase_add_test(tc, model_order_needs_the_scheduler);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
