/* mir_parse_test.c — mir_parse is mir_print's inverse: every example the
 * compiler takes, on both targets, after every machine row (relax_branches
 * with every branch made long), prints, parses and prints again to the
 * same text and the same function; bad text is a located message;
 * truncated and mutated texts never abort. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../../driver/driver.h"
#include "../../frontend/frontend.h"
#include "../test.h"

static bool same_opnd(MOpnd a, MOpnd b)
{
	if (a.kind != b.kind)
		return false;
	if (a.kind == MO_IMM) /* literals print as 32-bit hex: compare their low 32 bits beyond 64 */
		return a.imm == b.imm || (uint32_t)a.imm == (uint32_t)b.imm;
	return a.rc == b.rc && a.sub == b.sub && a.reg == b.reg;
}

/* The same function: blocks, labels, instructions field by field. */
static void same_func(const MFunc *a, const MFunc *b, const char *what)
{
	ck_assert_msg(a->allocated == b->allocated, "%s: allocated", what);
	/* after allocation the virtual registers are history: not printed */
	ck_assert_msg(a->allocated || a->vregs.len == b->vregs.len, "%s: %zu vregs, parsed %zu", what, a->vregs.len,
		b->vregs.len);
	for (size_t v = 0; !a->allocated && v < a->vregs.len; v++)
		ck_assert_msg(a->vregs.data[v] == b->vregs.data[v], "%s: class of %%%zu", what, v);
	ck_assert_msg(a->blocks.len == b->blocks.len, "%s: %zu blocks, parsed %zu", what, a->blocks.len, b->blocks.len);
	for (size_t bi = 0; bi < a->blocks.len; bi++) {
		const MBlock *x = a->blocks.data[bi], *y = b->blocks.data[bi];
		ck_assert_msg((!x->label && !y->label) || (x->label && y->label && strcmp(x->label, y->label) == 0),
			"%s: label of block %zu", what, bi);
		ck_assert_msg(x->insts.len == y->insts.len, "%s: block %zu has %zu instructions, parsed %zu", what, bi,
			x->insts.len, y->insts.len);
		for (size_t i = 0; i < x->insts.len; i++) {
			const MInst *p = &x->insts.data[i], *q = &y->insts.data[i];
			bool ok = p->op == q->op && p->ndef == q->ndef && p->nuse == q->nuse &&
				  (p->flags & ~(uint32_t)MIF_TIED) == q->flags && p->offset == q->offset &&
				  p->vmcnt == q->vmcnt && p->lgkmcnt == q->lgkmcnt && p->dpp == q->dpp &&
				  (!(mop_is_branch(p->op) || (p->flags & (MIF_PCREL_LO | MIF_PCREL_HI))) ||
					  p->target == q->target);
			for (int k = 0; ok && k < p->ndef; k++)
				ok = same_opnd(p->def[k], q->def[k]);
			for (int k = 0; ok && k < p->nuse; k++)
				ok = same_opnd(p->use[k], q->use[k]);
			Buf t = {0};
			mir_print_inst(&t, p);
			ck_assert_msg(ok, "%s: block %zu instruction %zu (%s) differs after parsing", what, bi, i, buf_cstr(&t));
			buf_free(&t);
		}
	}
}

static int round_trips;

static void round_trip(const MFunc *f, const char *what)
{
	Buf a = {0}, b = {0}, err = {0};
	mir_print(&a, f);
	MFunc *g = mir_parse(a.data, a.len, what, f->target, &err);
	ck_assert_msg(g, "%s: %s\n%s", what, buf_cstr(&err), buf_cstr(&a));
	mir_print(&b, g);
	ck_assert_msg(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "%s: printed differently after parsing", what);
	same_func(f, g, what);
	mfunc_free(g);
	buf_free(&a);
	buf_free(&b);
	buf_free(&err);
	round_trips++;
}

START_TEST(every_example_round_trips)
{
	/* relax_branches with every branch made long (a reach of 8 dwords) */
	static const char *const rows[] = {"select_instructions", "order_instructions", "allocate_registers", "insert_waitcnt",
		"resolve_hazards", "relax_branches"};
	static const char *const targets[] = {"gfx942", "gfx90a"};
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/examples", test_root());
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	int kernels = 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		for (size_t t = 0; t < 2; t++)
			for (size_t r = 0; r < ARRAY_LEN(rows); r++) {
				Diag dg;
				diag_init(&dg);
				dg.out = fopen("/dev/null", "w");
				Kernel *k = load_kernel_file(path, &dg);
				ck_assert_ptr_nonnull(k);
				CompileOptions o = {.mcpu = targets[t], .stop_after = rows[r], .branch_reach = 8};
				Compile c;
				compile_init(&c, k, &o, &dg);
				if (compile_run(&c) == 0) {
					char what[512];
					snprintf(what, sizeof what, "%s/%s/%s", e->d_name, targets[t], rows[r]);
					round_trip(c.mf, what);
					kernels += t == 0 && r == 0;
				}
				compile_free(&c);
				kernel_free(k);
				fclose(dg.out);
			}
	}
	closedir(d);
	ck_assert_int_ge(kernels, 12); /* the examples that compile today */
	ck_assert_int_eq(round_trips, kernels * 2 * (int)ARRAY_LEN(rows));
}
END_TEST

/* gfx950's forms read back: the transposing read, the bf16 pack, the
 * lane swap (its uses are its defs), the LDS DMAs (no def, M0 their last
 * use, `lds` on the MUBUF form), and print again to the same text. */
START_TEST(gfx950_forms_round_trip)
{
	static const char text[] = "\tds_read_b64_tr_b16 v[2:3], v1 offset:16\n"
				   "\tv_cvt_pk_bf16_f32 v4, v5, 0\n"
				   "\tv_permlane16_swap_b32 v6, v7\n"
				   "\tbuffer_load_dwordx4 v1, s[4:7], 0 offen offset:64 lds\n"
				   "\tglobal_load_lds_dwordx4 v[2:3], off\n";
	Buf err = {0}, out = {0};
	MFunc *f = mir_parse(text, strlen(text), "950.mir", &target_gfx950, &err);
	ck_assert_msg(f, "%s", buf_cstr(&err));
	const MBlock *b = f->blocks.data[0];
	ck_assert_int_eq(b->insts.len, 5);
	const MInst *sw = &b->insts.data[2], *dma = &b->insts.data[3], *g = &b->insts.data[4];
	ck_assert(sw->ndef == 2 && sw->nuse == 2 && sw->use[0].reg == 6 && sw->use[1].reg == 7);
	ck_assert(dma->ndef == 0 && (dma->flags & MIF_LDS) && (dma->flags & MIF_OFFEN) && dma->offset == 64);
	ck_assert(dma->nuse == 4 && dma->use[3].kind == MO_M0);
	ck_assert(g->ndef == 0 && g->nuse == 3 && g->use[2].kind == MO_M0);
	ck_assert_int_eq(mir_verify(f, &err), 0);
	mir_print(&out, f);
	ck_assert_str_eq(buf_cstr(&out), text);
	round_trip(f, "950.mir");
	mfunc_free(f);
	buf_free(&err);
	buf_free(&out);
}
END_TEST

/* Volatile, acquire and release accesses (isel/memory.c) read back: sc0 sc1
 * is MIF_VOL, sc1 alone MIF_AGENT, the cache-control rows take no operand
 * and keep their sc1 (gfx942), and print again to the same text. */
START_TEST(memory_order_forms_round_trip)
{
	static const char text[] = "\tbuffer_load_dword v1, v2, s[4:7], 0 offen sc0 sc1\n"
				   "\tbuffer_load_dwordx2 v[4:5], v2, s[4:7], s3 offen offset:8 sc1\n"
				   "\tbuffer_inv sc1\n"
				   "\tbuffer_wbl2 sc1\n"
				   "\tbuffer_store_dword v1, v2, s[4:7], 0 offen sc1\n"
				   "\tbuffer_store_dword v1, v2, s[4:7], 0 offen sc0 sc1\n";
	Buf err = {0}, out = {0};
	MFunc *f = mir_parse(text, strlen(text), "order.mir", &target_gfx942, &err);
	ck_assert_msg(f, "%s", buf_cstr(&err));
	const MBlock *b = f->blocks.data[0];
	ck_assert_int_eq(b->insts.len, 6);
	const MInst *in = b->insts.data;
	ck_assert(in[0].flags & MIF_VOL && !(in[0].flags & MIF_AGENT) && in[0].ndef == 1);
	ck_assert(in[1].flags & MIF_AGENT && !(in[1].flags & MIF_VOL) && in[1].offset == 8);
	ck_assert(in[2].op == I_BUFFER_INV && in[2].ndef == 0 && in[2].nuse == 0);
	ck_assert(in[3].op == I_BUFFER_WBL2 && in[3].ndef == 0 && in[3].nuse == 0);
	ck_assert(in[4].flags & MIF_AGENT && in[4].ndef == 0 && in[5].flags & MIF_VOL);
	ck_assert_int_eq(mir_verify(f, &err), 0);
	mir_print(&out, f);
	ck_assert_str_eq(buf_cstr(&out), text);
	round_trip(f, "order.mir");
	mfunc_free(f);
	buf_free(&err);
	buf_free(&out);
}
END_TEST

/* The AGPR moves' register files, which llvm-mc checks (an AGPR to AGPR
 * copy written as v_accvgpr_write_b32 assembles nowhere): the verifier
 * rejects each wrong one and accepts the right ones. */
START_TEST(accvgpr_files_verified)
{
	static const struct {
		const char *text;
		bool ok;
	} cases[] = {
		{"\tv_accvgpr_write_b32 a1, v2\n", true},
		{"\tv_accvgpr_write_b32 a1, 0\n", true},
		{"\tv_accvgpr_read_b32 v1, a2\n", true},
		{"\tv_accvgpr_mov_b32 a1, a2\n", true},
		{"\tv_accvgpr_write_b32 a1, a2\n", false},
		{"\tv_accvgpr_write_b32 v1, v2\n", false},
		{"\tv_accvgpr_read_b32 v1, v2\n", false},
		{"\tv_accvgpr_read_b32 a1, a2\n", false},
		{"\tv_accvgpr_mov_b32 a1, v2\n", false},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		Buf err = {0};
		MFunc *f = mir_parse(cases[i].text, strlen(cases[i].text), "t.mir", &target_gfx942, &err);
		if (!f) { /* the parser may refuse a file the row cannot take */
			ck_assert_msg(!cases[i].ok, "%s: %s", cases[i].text, buf_cstr(&err));
			buf_free(&err);
			continue;
		}
		f->allocated = true;
		int n = mir_verify(f, &err);
		ck_assert_msg((n == 0) == cases[i].ok, "%s: %d problems: %s", cases[i].text, n, buf_cstr(&err));
		if (!cases[i].ok)
			ck_assert_msg(strstr(buf_cstr(&err), "wrong register file"), "%s", buf_cstr(&err));
		mfunc_free(f);
		buf_free(&err);
	}
}
END_TEST

static char *parse_err(const char *text)
{
	Buf err = {0};
	MFunc *f = mir_parse(text, strlen(text), "t.mir", &target_gfx942, &err);
	if (f) {
		mfunc_free(f);
		buf_free(&err);
		return NULL;
	}
	return err.data ? err.data : strdup("");
}

START_TEST(bad_text_is_located)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"\tv_frobnicate v1, v2\n", "t.mir:1:2: unknown instruction 'v_frobnicate'"},
		{"\tv_mov_b32 v1, \n", "t.mir:1:16: expected an operand"},
		{"\tv_mov_b32\n", "t.mir:1:2: v_mov_b32 has 1 def, got 0 operands"},
		{"\ts_branch .Lnowhere\n", "t.mir:1:11: undefined label .Lnowhere"},
		{"\tv_mov_b32 v[4:2], v1\n", "t.mir:1:12: expected a register range like v[4:7]"},
		{"// vregs: %0:v1\n\tv_mov_b32 %1:v1, %0:v1\n", "t.mir:2:12: virtual register out of the `// vregs:` list"},
		{"// vregs: %0:v1\n\tv_mov_b32 %0.1:v1, 0\n", "t.mir:2:12: %0 is v1: this access lies outside it"},
		{"// vregs: %1:v1\n", "t.mir:1:11: expected %0:CLASS"},
		{"\ts_endpgm\n// vregs: %0:v1\n", "t.mir:2:1: `// vregs:` must be the first line"},
		{".La:\n\ts_endpgm\n.La:\n", "t.mir:3:1: label .La defined twice"},
		{"\tv_add_f32_dpp v1, v2, v3 quad_perm:[1,0,3,4] row_mask:0xf bank_mask:0xf\n", "bad quad_perm"},
		{"\ts_waitcnt vmcnt(99)\n", "t.mir:1:12: bad vmcnt"},
		{"\tv_mov_b32 v1, 0x1ffffffff\n", "t.mir:1:16: a literal is at most 32 bits"},
		{"\tv_mov_b32 v1, v2 junk\n", "t.mir:1:19: unexpected text after the instruction"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *m = parse_err(cases[i].text);
		ck_assert_msg(m && strstr(m, cases[i].want), "case %zu: got '%s', want '%s'", i, m ? m : "(parsed)",
			cases[i].want);
		free(m);
	}
	/* annotations, blank lines and notes are fine; gfx90a's MFMA spelling too */
	const char *ok = "; a test annotation\n\n\t// read\n\tv_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]\n"
			 "\ts_endpgm\n";
	char *m = parse_err(ok);
	ck_assert_msg(!m, "%s", m);
}
END_TEST

/* Truncations and byte flips of a real function never abort. */
START_TEST(mutated_text_never_aborts)
{
	Diag dg;
	diag_init(&dg);
	char path[4096];
	snprintf(path, sizeof path, "%s/examples/gemm_global.json", test_root());
	Kernel *k = load_kernel_file(path, &dg);
	ck_assert_ptr_nonnull(k);
	CompileOptions o = {.mcpu = "gfx942", .stop_after = "select_instructions"};
	Compile c;
	compile_init(&c, k, &o, &dg);
	ck_assert_int_eq(compile_run(&c), 0);
	Buf t = {0};
	mir_print(&t, c.mf);
	uint64_t s = 12345;
	int parsed = 0, rejected = 0;
	for (int i = 0; i < 3000; i++) {
		char *m = malloc(t.len + 1);
		memcpy(m, t.data, t.len);
		size_t len = t.len;
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		if (i % 3 == 0)
			len = (size_t)(s >> 33) % (t.len + 1);
		else
			for (int j = 0; j < 1 + i % 4; j++) {
				s = s * 6364136223846793005ull + 1442695040888963407ull;
				m[(s >> 33) % t.len] = (char)(s >> 17);
			}
		Buf err = {0};
		MFunc *f = mir_parse(m, len, "m", &target_gfx942, &err);
		if (f) {
			parsed++;
			Buf again = {0};
			mir_print(&again, f); /* whatever parsed also prints */
			buf_free(&again);
			mfunc_free(f);
		} else {
			ck_assert_ptr_nonnull(strstr(buf_cstr(&err), "m:"));
			rejected++;
		}
		buf_free(&err);
		free(m);
	}
	ck_assert(parsed > 0 && rejected > 0);
	buf_free(&t);
	compile_free(&c);
	kernel_free(k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ir/mir_parse");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, every_example_round_trips);
	tcase_add_test(t, gfx950_forms_round_trip);
	tcase_add_test(t, memory_order_forms_round_trip);
	tcase_add_test(t, bad_text_is_located);
	tcase_add_test(t, accvgpr_files_verified);
	tcase_add_test(t, mutated_text_never_aborts);
	suite_add_tcase(s, t);
	return run_suite(s);
}
