/* spec_decode_test.c — Wave's speculative decoding (speculative_decode_test.py::
 * testReferenceSpeculativeDecoding, tests/driver/wave/speculative_sampling_t{1,0}.json)
 * and the loops it needs: loops whose axis is a carried value read from
 * memory (`max_trips`), inside a loop whose body is a conditional on read
 * values (a scalar branch by the uniformity analysis).
 *
 * Each run is `wavecc run` (the emulator against the interpreter: PASS), and
 * the outputs are then checked against an independent reference written
 * here (Wave's torch reference_sampling_kernel, rewritten in C, with the
 * kernel's final sampling rule: the first token whose cumulative relu(q - p)
 * is positive, else VOCAB - 1) and, for Wave's own inputs, against the
 * values Wave's test expects. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/npy.h"
#include "../test.h"

enum { BS = 2, ND = 6, NS = 4, VOC = 64, SEQ = 12 };

static const char *const dyn_syms = "-D CUR_INDEX=0 -D DRAFT_TOKEN_ID=0 -D CUR_PROB_OFFSET=0 "
				    "-D LAST_ACCEPTED_RETRIEVE_IDX=0 -D NUM_ACCEPTED_TOKENS=0 -D LAST_OFFSET=0 -D LAST_IDX=0";

static const char *const adverse = "--wave-order random --wg-order reverse --fill garbage --memory late --races "
				   "--canary --order-seed 5";

typedef struct Spec {
	int32_t cand[BS][ND], ridx[BS][ND], rnt[BS][ND], rns[BS][ND];
	float us[BS][ND], usf[BS], tp[BS][ND][VOC], dp[BS][ND][VOC];
	int32_t predicts[SEQ], accept_index[BS][NS], accept_num[BS];
} Spec;

/* The algorithm (Wave's reference_sampling_kernel), thresholds ts, ta. */
static void reference(Spec *x, float ts, float ta)
{
	for (int b = 0; b < BS; b++) {
		float prob_acc = 0, coin = x->us[b][0];
		int cur_prob_offset = 0, cur = 0, num_acc = 0;
		int last = x->ridx[b][0];
		x->accept_index[b][0] = last;
		for (int j = 1; j < NS; j++) {
			cur = x->rnt[b][cur];
			while (cur >= 0) {
				int draft_index = x->ridx[b][cur], tok = x->cand[b][cur];
				float single = x->tp[b][cur_prob_offset][tok];
				prob_acc += single;
				if (coin <= prob_acc / ta || single >= ts) {
					prob_acc = 0;
					cur_prob_offset = cur;
					coin = x->us[b][cur];
					x->predicts[last] = tok;
					num_acc++;
					x->accept_index[b][num_acc] = draft_index;
					last = draft_index;
					break;
				}
				x->dp[b][cur][tok] = x->tp[b][cur][tok];
				cur = x->rns[b][cur];
			}
			if (cur < 0)
				break;
		}
		x->accept_num[b] = num_acc;
		/* the second kernel: the first token where relu(q - p) has summed
		 * to more than 0 (the kernel's `cdf > 0`), else the last one */
		int sampled = VOC - 1;
		for (int v = 0; v < VOC; v++) {
			float p = num_acc != NS - 1 ? x->dp[b][cur_prob_offset][v] : 0.0f;
			float d = x->tp[b][cur_prob_offset][v] - p;
			if (d > 0) {
				sampled = v;
				break;
			}
		}
		x->predicts[last] = sampled;
	}
}

/* Wave's test's inputs; the coins from seed (torch.rand in Wave). */
static void wave_inputs(Spec *x, unsigned seed)
{
	static const int32_t cand[BS][ND] = {{0, 1, 2, 3, 4, 5}, {7, 8, 9, 10, 11, 12}};
	static const int32_t ridx[BS][ND] = {{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}};
	static const int32_t rnt[BS][ND] = {{1, 2, -1, 4, 5, -1}, {4, 2, 3, -1, 5, -1}};
	static const int32_t rns[BS][ND] = {{-1, 3, -1, -1, -1, -1}, {-1, -1, -1, -1, 1, -1}};
	memset(x, 0, sizeof *x);
	memcpy(x->cand, cand, sizeof cand);
	memcpy(x->ridx, ridx, sizeof ridx);
	memcpy(x->rnt, rnt, sizeof rnt);
	memcpy(x->rns, rns, sizeof rns);
	for (int b = 0; b < BS; b++)
		for (int n = 0; n < ND; n++) {
			double lg[VOC], mx = -1e30, sum = 0;
			for (int v = 0; v < VOC; v++)
				lg[v] = 1;
			if (b == 0 && n == 0) lg[3] = 10;
			if (b == 0 && n == 3) lg[4] = 10;
			if (b == 0 && n == 4) lg[5] = 10;
			if (b == 1 && n == 0) lg[11] = 10;
			if (b == 1 && n == 4) lg[12] = 10;
			bool ten = false;
			for (int v = 0; v < VOC; v++)
				ten |= lg[v] >= 10;
			if (!ten)
				lg[18] = 10;
			for (int v = 0; v < VOC; v++)
				mx = fmax(mx, lg[v] / 0.01);
			for (int v = 0; v < VOC; v++)
				sum += exp(lg[v] / 0.01 - mx);
			for (int v = 0; v < VOC; v++)
				x->tp[b][n][v] = (float)(exp(lg[v] / 0.01 - mx) / sum);
		}
	srand(seed);
	for (int b = 0; b < BS; b++) {
		for (int n = 0; n < ND; n++)
			x->us[b][n] = (float)rand() / ((float)RAND_MAX + 1.0f);
		x->usf[b] = (float)rand() / ((float)RAND_MAX + 1.0f);
	}
	for (int i = 0; i < SEQ; i++)
		x->predicts[i] = -1;
	for (int b = 0; b < BS; b++)
		for (int s = 0; s < NS; s++)
			x->accept_index[b][s] = -1;
}

/* A random draft tree per row (node 0 the root, each other node a child of
 * an earlier one: first-child and next-sibling links), random token ids and
 * probability rows, random coins. */
static void random_inputs(Spec *x, unsigned seed)
{
	wave_inputs(x, seed);
	for (int b = 0; b < BS; b++) {
		int last_child[ND];
		for (int n = 0; n < ND; n++) {
			x->rnt[b][n] = x->rns[b][n] = -1;
			last_child[n] = -1;
			x->cand[b][n] = rand() % VOC;
			x->ridx[b][n] = b * ND + n;
		}
		for (int n = 1; n < ND; n++) {
			int p = rand() % n;
			if (last_child[p] < 0)
				x->rnt[b][p] = n;
			else
				x->rns[b][last_child[p]] = n;
			last_child[p] = n;
		}
		for (int n = 0; n < ND; n++) {
			float sum = 0;
			for (int v = 0; v < VOC; v++)
				sum += x->tp[b][n][v] = (float)(rand() % 1000) * (rand() % 3 ? 1.0f : 0.05f);
			for (int v = 0; v < VOC; v++)
				x->tp[b][n][v] /= sum;
		}
	}
}

typedef struct Buf1 {
	const char *name;
	DType dt;
	int rank;
	int64_t shape[3];
	void *data;
	bool out;
} Buf1;

/* Run kernel `file` (thresholds ts, ta) on x on mcpu, check PASS, and
 * check its outputs against the reference. */
static void run_and_check(const char *file, const Spec *in, float ts, float ta, const char *mcpu, bool adv,
	const char *tag)
{
	Spec x = *in, want = *in;
	reference(&want, ts, ta);
	Buf1 bufs[] = {
		{"uniform_samples", DT_F32, 2, {BS, ND}, x.us, false},
		{"uniform_samples_for_final_sampling", DT_F32, 1, {BS}, x.usf, false},
		{"target_probs", DT_F32, 3, {BS, ND, VOC}, x.tp, false},
		{"draft_probs", DT_F32, 3, {BS, ND, VOC}, x.dp, true},
		{"candidates", DT_I32, 2, {BS, ND}, x.cand, false},
		{"retrieve_index", DT_I32, 2, {BS, ND}, x.ridx, false},
		{"retrieve_next_token", DT_I32, 2, {BS, ND}, x.rnt, false},
		{"retrieve_next_sibling", DT_I32, 2, {BS, ND}, x.rns, false},
		{"predicts", DT_I32, 1, {SEQ}, x.predicts, true},
		{"accept_token_num", DT_I32, 1, {BS}, x.accept_num, true},
		{"accept_index", DT_I32, 2, {BS, NS}, x.accept_index, true},
	};
	const char *dir = test_tmpdir(tag);
	char args[8192], err[256];
	int at = snprintf(args, sizeof args, "cd '%s' && '%s' run tests/driver/wave/%s --mcpu %s -D num_spec_tokens=%d %s %s",
		test_root(), test_bin(), file, mcpu, NS, dyn_syms, adv ? adverse : "");
	for (size_t i = 0; i < ARRAY_LEN(bufs); i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s.npy", dir, bufs[i].name);
		ck_assert_msg(npy_write(p, bufs[i].dt, bufs[i].rank, bufs[i].shape, bufs[i].data, err, sizeof err) == 0,
			"%s", err);
		at += snprintf(args + at, sizeof args - (size_t)at, " --in %s=%s", bufs[i].name, p);
		if (bufs[i].out)
			at += snprintf(args + at, sizeof args - (size_t)at, " --out %s=%s/%s_out.npy", bufs[i].name, dir,
				bufs[i].name);
	}
	CmdResult r = run_cmd(args, NULL);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
	const void *wants[] = {want.dp, want.predicts, want.accept_num, want.accept_index};
	int w = 0;
	for (size_t i = 0; i < ARRAY_LEN(bufs); i++) {
		if (!bufs[i].out)
			continue;
		char p[512];
		snprintf(p, sizeof p, "%s/%s_out.npy", dir, bufs[i].name);
		NpyArray a;
		ck_assert_msg(npy_read(p, &a, err, sizeof err) == 0, "%s", err);
		size_t n = 1;
		for (int d = 0; d < bufs[i].rank; d++)
			n *= (size_t)bufs[i].shape[d];
		ck_assert_msg(memcmp(a.data, wants[w], n * 4) == 0, "%s %s: %s differs from the reference", file, mcpu,
			bufs[i].name);
		npy_free(&a);
		w++;
	}
}

/* Wave's two parametrisations, with the values its test expects; each on
 * gfx942 and on gfx90a adversarially and strictly. */
START_TEST(wave_cases_pass)
{
	static const int32_t pred[2][SEQ] = {{3, -1, -1, 4, 5, 18, 11, -1, -1, -1, 12, 18},
					     {1, 2, 18, -1, -1, -1, 11, -1, -1, -1, 12, 18}};
	static const int32_t acc[2][BS][NS] = {{{0, 3, 4, 5}, {6, 10, 11, -1}}, {{0, 1, 2, -1}, {6, 10, 11, -1}}};
	static const int32_t num[2][BS] = {{3, 2}, {2, 2}};
	int t = _i / 2;
	Spec x;
	wave_inputs(&x, 1);
	Spec r = x;
	float ts = t ? 0.0f : 1.0f, ta = t ? 1e-9f : 1.0f;
	reference(&r, ts, ta);
	/* the reference itself gives what Wave's test expects */
	ck_assert(memcmp(r.predicts, pred[t], sizeof r.predicts) == 0);
	ck_assert(memcmp(r.accept_index, acc[t], sizeof r.accept_index) == 0);
	ck_assert(memcmp(r.accept_num, num[t], sizeof r.accept_num) == 0);
	char tag[64];
	snprintf(tag, sizeof tag, "spec_wave_%d", _i);
	run_and_check(t ? "speculative_sampling_t0.json" : "speculative_sampling_t1.json", &x, ts, ta,
		_i % 2 ? "gfx90a" : "gfx942", _i % 2, tag);
}
END_TEST

/* Random draft trees, probabilities and coins. */
START_TEST(random_trees_pass)
{
	Spec x;
	random_inputs(&x, 100 + (unsigned)_i);
	int t = _i % 3 == 2;
	char tag[64];
	snprintf(tag, sizeof tag, "spec_random_%d", _i);
	run_and_check(t ? "speculative_sampling_t0.json" : "speculative_sampling_t1.json", &x, t ? 0.0f : 1.0f,
		t ? 1e-9f : 1.0f, _i % 2 ? "gfx90a" : "gfx942", _i % 2, tag);
}
END_TEST

/* tests/driver/data/while_carried_walk.json: per row (a workgroup) a walk
 * along nxt from nxt[b][0] while the index is >= 0, at most MAX_WALK (8)
 * trips; row 1's chain is a cycle, so its walk stops at MAX_WALK. The
 * condition is the same in every lane: a scalar branch, no exec mask. */
START_TEST(carried_walk_passes)
{
	enum { B = 3, N = 8, MAX_WALK = 8 };
	int32_t nxt[B][N] = {{3, -1, 1, 5, -1, 2, -1, -1}, {1, 2, 3, 1, 0, 0, 0, 0}, {-1, 0, 0, 0, 0, 0, 0, 0}};
	float val[B][N];
	for (int b = 0; b < B; b++)
		for (int n = 0; n < N; n++)
			val[b][n] = (float)(b * N + n) * 0.5f;
	int32_t cnt[B];
	float sum[B];
	for (int b = 0; b < B; b++) {
		int idx = nxt[b][0], c = 0;
		float acc = 0;
		while (c < MAX_WALK && idx >= 0) {
			acc += val[b][idx];
			idx = nxt[b][idx];
			c++;
		}
		cnt[b] = c;
		sum[b] = acc;
	}
	ck_assert_int_eq(cnt[0], 4);
	ck_assert_int_eq(cnt[1], MAX_WALK);
	ck_assert_int_eq(cnt[2], 0);
	const char *mcpu = _i ? "gfx90a" : "gfx942";
	const char *dir = test_tmpdir(_i ? "carried_walk_90a" : "carried_walk_942");
	char p[4][512], err[256], cmd[4096];
	const char *names[4] = {"nxt", "val", "cnt", "sum"};
	for (int k = 0; k < 4; k++)
		snprintf(p[k], sizeof p[k], "%s/%s.npy", dir, names[k]);
	int64_t shape[2] = {B, N};
	ck_assert_msg(npy_write(p[0], DT_I32, 2, shape, nxt, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(p[1], DT_F32, 2, shape, val, err, sizeof err) == 0, "%s", err);
	snprintf(cmd, sizeof cmd,
		"cd '%s' && '%s' run tests/driver/data/while_carried_walk.json -D CUR=0 --mcpu %s %s --in nxt=%s --in "
		"val=%s --out cnt=%s --out sum=%s",
		test_root(), test_bin(), mcpu, _i ? adverse : "", p[0], p[1], p[2], p[3]);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", cmd, r.status, r.out, r.err);
	cmd_result_free(&r);
	NpyArray c, s;
	ck_assert_msg(npy_read(p[2], &c, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_read(p[3], &s, err, sizeof err) == 0, "%s", err);
	for (int b = 0; b < B; b++) {
		ck_assert_int_eq(((int32_t *)c.data)[b], cnt[b]);
		ck_assert_msg(((float *)s.data)[b] == sum[b], "sum[%d] %g, want %g", b, (double)((float *)s.data)[b],
			(double)sum[b]);
	}
	npy_free(&c);
	npy_free(&s);
	/* the uniformity analysis made the loop's condition a scalar branch */
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compile -S tests/driver/data/while_carried_walk.json --mcpu %s -o -",
		test_root(), test_bin(), mcpu);
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "s_cbranch_scc0"));
	ck_assert_ptr_null(strstr(r.out, "s_and_saveexec_b64"));
	cmd_result_free(&r);
}
END_TEST

/* tests/driver/data/while_carried_lanes.json: the carried axis differs
 * lane to lane (each lane follows its own chain, at most 30 hops): an
 * exec-masked loop that runs while any lane's condition holds. */
START_TEST(carried_lanes_pass)
{
	enum { N = 200, MAX_HOPS = 30 };
	int32_t nxt[N], hops[N];
	float val[N], sum[N];
	for (int i = 0; i < N; i++) {
		nxt[i] = i % 11 ? (i * 41 + 7) % N : -1;
		val[i] = (float)(i % 7) * 0.5f;
	}
	int at_max = 0;
	for (int i = 0; i < N; i++) {
		int idx = nxt[i], c = 0;
		float acc = 0;
		while (c < MAX_HOPS && idx >= 0) {
			acc += val[idx];
			idx = nxt[idx];
			c++;
		}
		hops[i] = c;
		sum[i] = acc;
		at_max += c == MAX_HOPS;
	}
	ck_assert_int_gt(at_max, 0);
	const char *dir = test_tmpdir(_i ? "carried_lanes_90a" : "carried_lanes_942");
	char p[4][512], err[256], cmd[4096];
	const char *names[4] = {"nxt", "val", "hops", "sum"};
	for (int k = 0; k < 4; k++)
		snprintf(p[k], sizeof p[k], "%s/%s.npy", dir, names[k]);
	int64_t shape[1] = {N};
	ck_assert_msg(npy_write(p[0], DT_I32, 1, shape, nxt, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(p[1], DT_F32, 1, shape, val, err, sizeof err) == 0, "%s", err);
	snprintf(cmd, sizeof cmd,
		"cd '%s' && '%s' run tests/driver/data/while_carried_lanes.json -D IDX=0 --mcpu %s %s --in nxt=%s --in "
		"val=%s --out hops=%s --out sum=%s",
		test_root(), test_bin(), _i ? "gfx90a" : "gfx942", _i ? adverse : "", p[0], p[1], p[2], p[3]);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", cmd, r.status, r.out, r.err);
	cmd_result_free(&r);
	NpyArray h, s;
	ck_assert_msg(npy_read(p[2], &h, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_read(p[3], &s, err, sizeof err) == 0, "%s", err);
	for (int i = 0; i < N; i++) {
		ck_assert_msg(((int32_t *)h.data)[i] == hops[i], "hops[%d] %d, want %d", i, ((int32_t *)h.data)[i], hops[i]);
		ck_assert_msg(((float *)s.data)[i] == sum[i], "sum[%d]", i);
	}
	npy_free(&h);
	npy_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("spec_decode");
	TCase *tc = tcase_create("spec_decode");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, wave_cases_pass, 0, 4);
	tcase_add_loop_test(tc, random_trees_pass, 0, 6);
	tcase_add_loop_test(tc, carried_walk_passes, 0, 2);
	tcase_add_loop_test(tc, carried_lanes_pass, 0, 2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
