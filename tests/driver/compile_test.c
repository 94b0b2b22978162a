/* compile_test.c — `wavecc compile` end to end, and the machine passes'
 * checkers on hand-built machine functions.
 *
 * End to end: each example is compiled (gfx942 and gfx90a: llvm-mc-19
 * accepts the assembly, our linker makes the code object), the reference
 * interpreter runs the graph on seeded random inputs and writes them and
 * its outputs as .npy, the emulator runs the code object on the same inputs
 * through the generated launch descriptor, and the outputs must be equal
 * element for element (copies and f16 adds/casts are exact operations, so
 * equality is the right test). Bad input and usage leave no file behind. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../driver/driver.h"
#include "../../passes/machine/machine.h"
#include "../../util/npy.h"
#include "../test.h"

static const char *dir;

static int sh(const char *cmd, char **out, char **err)
{
	CmdResult r = run_cmd(cmd, NULL);
	int st = r.status;
	if (st != 0 && !err)
		fprintf(stderr, "command failed (%d): %s\n%s%s", st, cmd, r.out ? r.out : "", r.err ? r.err : "");
	if (out)
		*out = xstrdup(r.out ? r.out : "");
	if (err)
		*err = xstrdup(r.err ? r.err : "");
	cmd_result_free(&r);
	return st;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Compile example `name` for mcpu, run interpreter and emulator on the same
 * random inputs (`ins`: the read arguments, `outs`: written ones), compare.
 * `defs` are -D options for both. */
static void e2e(const char *name, const char *mcpu, const char *const *ins, const char *const *outs,
	const char *defs)
{
	char cmd[8192], tag[256];
	snprintf(tag, sizeof tag, "%s_%s", name, mcpu);
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/%s.json' --mcpu %s %s -o '%s/%s.hsaco'", test_bin(),
		test_root(), name, mcpu, defs, dir, tag);
	ck_assert_int_eq(sh(cmd, NULL, NULL), 0);
	char launch[2048];
	snprintf(launch, sizeof launch, "%s/%s.launch.json", dir, tag);
	ck_assert(exists(launch));

	Buf ic = {0}, rc = {0};
	buf_printf(&ic, "'%s' interp '%s/examples/%s.json' --random 7 %s", test_bin(), test_root(), name, defs);
	buf_printf(&rc, "'%s' run '%s' %s", test_bin(), launch, defs);
	for (int i = 0; ins[i]; i++) {
		buf_printf(&ic, " --out %s='%s/%s_%s.in.npy'", ins[i], dir, tag, ins[i]);
		buf_printf(&rc, " --in %s='%s/%s_%s.in.npy'", ins[i], dir, tag, ins[i]);
	}
	for (int i = 0; outs[i]; i++) {
		buf_printf(&ic, " --out %s='%s/%s_%s.ref.npy'", outs[i], dir, tag, outs[i]);
		buf_printf(&rc, " --out %s='%s/%s_%s.emu.npy'", outs[i], dir, tag, outs[i]);
	}
	ck_assert_int_eq(sh(buf_cstr(&ic), NULL, NULL), 0);
	ck_assert_int_eq(sh(buf_cstr(&rc), NULL, NULL), 0);
	for (int i = 0; outs[i]; i++) {
		char p[2048], q[2048], err[256];
		snprintf(p, sizeof p, "%s/%s_%s.ref.npy", dir, tag, outs[i]);
		snprintf(q, sizeof q, "%s/%s_%s.emu.npy", dir, tag, outs[i]);
		NpyArray ref, emu;
		ck_assert_msg(npy_read(p, &ref, err, sizeof err) == 0, "%s", err);
		ck_assert_msg(npy_read(q, &emu, err, sizeof err) == 0, "%s", err);
		ck_assert_int_eq(ref.count, emu.count);
		size_t bytes = (size_t)ref.count * (size_t)ref.itemsize;
		size_t bad = 0, nonzero = 0, first = 0;
		for (size_t b = 0; b < bytes; b++) {
			nonzero += ((unsigned char *)ref.data)[b] != 0;
			if (((unsigned char *)ref.data)[b] != ((unsigned char *)emu.data)[b] && !bad++)
				first = b / (size_t)ref.itemsize;
		}
		ck_assert_msg(bad == 0, "%s %s: %zu bytes differ, first at element %zu", tag, outs[i], bad, first);
		ck_assert_msg(nonzero > bytes / 4, "%s: reference output is mostly zero: the test proves nothing", tag);
		npy_free(&ref);
		npy_free(&emu);
	}
	buf_free(&ic);
	buf_free(&rc);
}

static const char *const A[] = {"a", NULL}, *const B[] = {"b", NULL}, *const AB[] = {"a", "b", NULL},
			 *const C[] = {"c", NULL};

START_TEST(copy_unaligned) { e2e("copy", "gfx942", A, B, ""); }
END_TEST
START_TEST(copy_aligned) { e2e("copy_aligned", "gfx942", A, B, ""); }
END_TEST
START_TEST(copy_gfx90a)
{
	e2e("copy", "gfx90a", A, B, "");
	e2e("copy_aligned", "gfx90a", A, B, "");
}
END_TEST
START_TEST(copy_dynamic_specialised) { e2e("copy_dynamic", "gfx942", A, B, "-D M=37 -D N=300"); }
END_TEST
START_TEST(elementwise)
{
	e2e("add", "gfx942", AB, C, "");
	e2e("cast", "gfx942", A, B, "");
	e2e("add", "gfx90a", AB, C, "");
	e2e("cast", "gfx90a", A, B, "");
}
END_TEST

/* The assembly (-S) of the aligned copy uses 8-byte accesses; the unaligned
 * one masks per element; both groups are annotated with the graph op. */
START_TEST(assembly_text)
{
	char cmd[4096], *out;
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy_aligned.json' -S -o '%s/ca.s' && cat '%s/ca.s'",
		test_bin(), test_root(), dir, dir);
	ck_assert_int_eq(sh(cmd, &out, NULL), 0);
	ck_assert(strstr(out, "buffer_load_dwordx2") && strstr(out, "buffer_store_dwordx2"));
	ck_assert(strstr(out, "\t// read\n") && strstr(out, "\t// write\n"));
	ck_assert(strstr(out, ".amdhsa_kernel copy_aligned"));
	ck_assert(!exists(strcat(strcpy(cmd, dir), "/ca.launch.json"))); /* -S writes only the assembly */
	free(out);
	/* 16-bit elements pair in a dword through two ushort loads and
	 * v_perm_b32, never a d16 load: with SRAM ECC on (the default on
	 * gfx942 and gfx90a) a d16 load zeroes the half it does not write. */
	const char *ex[] = {"copy.json", "gemm_global_unaligned.json", "add.json", "cast.json"};
	const char *cpu[] = {"gfx942", "gfx90a"};
	for (int i = 0; i < 4; i++)
		for (int t = 0; t < 2; t++) {
			snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/%s' --mcpu %s -S -o '%s/cu.s' && cat '%s/cu.s'",
				test_bin(), test_root(), ex[i], cpu[t], dir, dir);
			ck_assert_int_eq(sh(cmd, &out, NULL), 0);
			ck_assert_msg(!strstr(out, "_d16 ") && !strstr(out, "load_short_d16") &&
					      !strstr(out, "load_ubyte_d16") && !strstr(out, "load_sbyte_d16"),
				"%s %s: a d16 load", ex[i], cpu[t]);
			if (i < 2)
				ck_assert_msg(strstr(out, "buffer_load_ushort") && strstr(out, "v_perm_b32"), "%s %s",
					ex[i], cpu[t]);
			if (i == 0)
				ck_assert(strstr(out, "v_cndmask_b32_e32"));
			free(out);
		}
}
END_TEST

/* The kernel arguments are loaded together at the top (isel/kernarg_load.c):
 * no s_load follows the first wait on lgkmcnt, so one wait covers them all.
 * decode_attention_phase0 and reduce_block first use their buffers on either
 * side of a barrier, gemm_dynamic also loads runtime sizes, softmax has code
 * between its first uses. */
START_TEST(kernarg_loads_batched)
{
	const char *ex[] = {"decode_attention_phase0", "reduce_block", "gemm_dynamic", "softmax"};
	const char *cpu[] = {"gfx942", "gfx90a"};
	char cmd[4096], *out;
	for (int i = 0; i < 4; i++)
		for (int t = 0; t < 2; t++) {
			snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/%s.json' --mcpu %s -S -o '%s/ka.s' && cat '%s/ka.s'",
				test_bin(), test_root(), ex[i], cpu[t], dir, dir);
			ck_assert_int_eq(sh(cmd, &out, NULL), 0);
			const char *load = strstr(out, "\ts_load_"), *wait = strstr(out, "lgkmcnt(");
			ck_assert_msg(load && wait && load < wait, "%s %s: no kernarg load before the first wait", ex[i],
				cpu[t]);
			ck_assert_msg(!strstr(wait, "\ts_load_"), "%s %s: a kernarg load after the first lgkmcnt wait",
				ex[i], cpu[t]);
			free(out);
		}
}
END_TEST

/* --mcpu takes target IDs: the assembly's .amdgcn_target and the
 * metadata's amdhsa.target declare exactly the ID given (a bare processor:
 * both features "any"), the code object runs (the emulator keeps or zeroes
 * d16 halves by its sramecc, and no compiled load depends on it), and a
 * malformed ID is bad usage. */
START_TEST(target_ids)
{
	const char *ids[] = {"gfx942", "gfx942:sramecc-", "gfx942:sramecc+:xnack-", "gfx90a:xnack+", "gfx90a:sramecc-:xnack-"};
	char cmd[4096], want[128], *out;
	for (int i = 0; i < 5; i++) {
		snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy.json' --mcpu %s -S -o -", test_bin(), test_root(),
			ids[i]);
		ck_assert_int_eq(sh(cmd, &out, NULL), 0);
		snprintf(want, sizeof want, ".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", ids[i]);
		ck_assert_msg(strstr(out, want), "%s: no %s", ids[i], want);
		snprintf(want, sizeof want, "amdhsa.target: amdgcn-amd-amdhsa--%s\n", ids[i]);
		ck_assert_msg(strstr(out, want), "%s: no %s", ids[i], want);
		free(out);
		snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run examples/copy.json --mcpu %s --seed 3", test_root(), test_bin(),
			ids[i]);
		ck_assert_msg(sh(cmd, &out, NULL) == 0 && strstr(out, "\nPASS\n"), "%s: %s", ids[i], out);
		free(out);
	}
	const char *bad[] = {"gfx942:xnack+:sramecc-", "gfx942:sramecc", "gfx942:", "gfx942:xnack-:xnack-", "gfx1100"};
	for (int i = 0; i < 5; i++) {
		char *err;
		snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy.json' --mcpu '%s' -S -o -", test_bin(), test_root(),
			bad[i]);
		ck_assert_int_eq(sh(cmd, &out, &err), 2);
		ck_assert_msg(strstr(err, "optionally followed by :sramecc+ or :sramecc-"), "%s: %s", bad[i], err);
		free(out);
		free(err);
	}
}
END_TEST

START_TEST(bad_input_writes_nothing)
{
	char cmd[4096], *err;
	/* A kernel the compiler rejects: error, exit 1, no files. */
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/tests/driver/data/softmax_big_workgroup.json' -o '%s/g.hsaco'",
		test_bin(), test_root(), dir);
	ck_assert_int_eq(sh(cmd, NULL, &err), 1);
	ck_assert_msg(strstr(err, "at most 1024 are supported"), "%s", err);
	free(err);
	ck_assert(!exists(strcat(strcpy(cmd, dir), "/g.hsaco")));
	ck_assert(!exists(strcat(strcpy(cmd, dir), "/g.launch.json")));
	/* An unknown -D symbol: bad usage, as in interp and run (issue 9). */
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy.json' -D NOPE=3 -o '%s/n.hsaco'", test_bin(),
		test_root(), dir);
	ck_assert_int_eq(sh(cmd, NULL, &err), 2);
	ck_assert_msg(strstr(err, "NOPE"), "%s", err);
	free(err);
	ck_assert(!exists(strcat(strcpy(cmd, dir), "/n.hsaco")));
	/* A dynamic symbol used where a compile-time integer is needed (a
	 * tile): located, names -D. */
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy_dynamic.json' -D BLOCK_N=0 -o '%s/d.hsaco'",
		test_bin(), test_root(), dir);
	ck_assert_int_eq(sh(cmd, NULL, &err), 1);
	free(err);
	ck_assert(!exists(strcat(strcpy(cmd, dir), "/d.hsaco")));
	/* A missing file, and bad usage. */
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/none.json'", test_bin(), dir);
	ck_assert_int_eq(sh(cmd, NULL, &err), 1);
	free(err);
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy.json' --mcpu gfx1100", test_bin(), test_root());
	ck_assert_int_eq(sh(cmd, NULL, &err), 2);
	free(err);
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/copy.json' -D N", test_bin(), test_root());
	ck_assert_int_eq(sh(cmd, NULL, &err), 2);
	free(err);
}
END_TEST

/* ---- machine passes on hand-built functions ---- */

static MFunc *load_then_use(void)
{
	MFunc *f = mfunc_new("t", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	MOpnd data = mo_preg(2, RC_V1), u[3] = {mo_preg(0, RC_V1), mo_preg(4, RC_S4), mo_imm(0)};
	MInst *in = mblock_add(b, I_BUFFER_LOAD_DWORD, 1, &data, 3, u);
	in->flags |= MIF_OFFEN;
	MOpnd d2 = mo_preg(3, RC_V1);
	mblock_add(b, I_BUFFER_LOAD_DWORD, 1, &d2, 3, u);
	MOpnd r = mo_preg(1, RC_V1), a[2] = {mo_preg(2, RC_V1), mo_preg(1, RC_V1)};
	mblock_add(b, I_V_ADD_F32, 1, &r, 2, a);
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	f->allocated = true;
	return f;
}

START_TEST(waitcnt_insert_and_check)
{
	MFunc *f = load_then_use();
	Buf msg = {0};
	ck_assert_int_eq(check_waitcnt(f, &msg), 1); /* the add reads v2 too early */
	buf_clear(&msg);
	insert_waitcnt(f);
	ck_assert_int_eq(check_waitcnt(f, &msg), 0);
	/* Exactly one wait, and it lets the second load stay in flight. */
	const MInst *w = &f->blocks.data[0]->insts.data[2];
	ck_assert_int_eq(w->op, I_S_WAITCNT);
	ck_assert_int_eq(w->vmcnt, 1);
	ck_assert_int_eq(f->blocks.data[0]->insts.len, 5);
	/* A wait that is too weak is caught. */
	f->blocks.data[0]->insts.data[2].vmcnt = 2;
	ck_assert_int_eq(check_waitcnt(f, &msg), 1);
	buf_free(&msg);
	mfunc_free(f);
}
END_TEST

START_TEST(mir_verify_catches)
{
	MFunc *f = mfunc_new("t", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t v = mfunc_vreg(f, RC_V2), w = mfunc_vreg(f, RC_V1);
	MOpnd d = mo_vreg(w, RC_V1), u = mo_vreg(v, RC_V2);
	mblock_add(b, I_V_MOV_B32, 1, &d, 1, &u); /* reads v before any def, and 2 dwords for a 1-dword source */
	Buf msg = {0};
	ck_assert_int_eq(mir_verify(f, &msg), 2);
	ck_assert(strstr(buf_cstr(&msg), "before any definition"));
	buf_free(&msg);
	/* After allocation: a misaligned pair. */
	f->blocks.data[0]->insts.len = 0;
	MOpnd pd = mo_preg(3, RC_V2), pu[3] = {mo_preg(0, RC_V1), mo_preg(4, RC_S4), mo_imm(0)};
	mblock_add(b, I_BUFFER_LOAD_DWORDX2, 1, &pd, 3, pu);
	f->allocated = true;
	ck_assert_int_eq(mir_verify(f, &msg), 1);
	ck_assert(strstr(buf_cstr(&msg), "misaligned"));
	buf_free(&msg);
	mfunc_free(f);
}
END_TEST

/* v_cmp writes vcc, v_cndmask reads it: gfx942 needs 2 wait states
 * (no interlock), gfx90a none. */
START_TEST(hazard_vcc)
{
	for (int t = 0; t < 2; t++) {
		MFunc *f = mfunc_new("t", t ? &target_gfx90a : &target_gfx942);
		MBlock *b = mfunc_block(f, NULL);
		MOpnd vcc = mo_special(MO_VCC), c[2] = {mo_preg(4, RC_S1), mo_preg(0, RC_V1)};
		mblock_add(b, I_V_CMP_GT_I32, 1, &vcc, 2, c)->flags |= MIF_E32;
		MOpnd d = mo_preg(1, RC_V1), u[3] = {mo_preg(2, RC_V1), mo_preg(3, RC_V1), vcc};
		mblock_add(b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
		f->allocated = true;
		Buf msg = {0};
		ck_assert_int_eq(check_hazards(f, &msg), t ? 0 : 1);
		resolve_hazards(f);
		ck_assert_int_eq(check_hazards(f, &msg), 0);
		ck_assert_int_eq(b->insts.len, t ? 2 : 3);
		if (!t) {
			ck_assert_int_eq(b->insts.data[1].op, I_S_NOP);
			ck_assert_int_eq(b->insts.data[1].use[0].imm, 1); /* s_nop 1 = 2 wait states */
			b->insts.data[1].use[0].imm = 0;                  /* one short: caught */
			ck_assert_int_eq(check_hazards(f, &msg), 1);
		}
		buf_free(&msg);
		mfunc_free(f);
	}
}
END_TEST

/* The assembly of tests/driver/data/NAME.json compiled for mcpu (freed by
 * the caller). */
static char *compile_s(const char *name, const char *mcpu)
{
	char cmd[4096], *out;
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/tests/driver/data/%s.json' --mcpu %s -S -o -", test_bin(),
		test_root(), name, mcpu);
	ck_assert_int_eq(sh(cmd, &out, NULL), 0);
	return out;
}

/* Volatile reads and writes (tests/driver/data/volatile_copy.json: a, b and
 * x volatile, y not) as LLVM compiles a volatile access: gfx942 sc0 sc1 on
 * the load and the store, gfx90a glc on the load; each followed by
 * s_waitcnt vmcnt(0). The plain store has neither. In a K loop
 * (volatile_gemm.json) a volatile read is not prefetched a trip ahead. */
START_TEST(volatile_accesses)
{
	const char *cpus[] = {"gfx942", "gfx90a", "gfx950"};
	for (int i = 0; i < 3; i++) {
		bool g90a = i == 1;
		char *out = compile_s("volatile_copy", cpus[i]);
		int loads = 0, stores = 0, plain = 0;
		for (char *l = strstr(out, "\tbuffer_"); l; l = strstr(l + 1, "\tbuffer_")) {
			char *eol = strchr(l, '\n');
			ck_assert_ptr_nonnull(eol);
			*eol = 0;
			bool load = strncmp(l, "\tbuffer_load", 12) == 0, flagged = strstr(l, g90a ? " glc" : " sc0 sc1") != NULL;
			bool waited = strncmp(eol + 1, "\ts_waitcnt vmcnt(0)\n", 20) == 0;
			if (load) {
				ck_assert_msg(flagged && waited, "%s: a volatile load: %s", cpus[i], l + 1);
				loads++;
			} else if (strstr(l, "dwordx4")) { /* y, plain */
				ck_assert_msg(!strstr(l, "sc0") && !strstr(l, "sc1") && !strstr(l, "glc"), "%s: %s", cpus[i], l + 1);
				plain++;
			} else {
				ck_assert_msg((g90a ? !strstr(l, "glc") : flagged) && waited, "%s: a volatile store: %s", cpus[i],
					l + 1);
				stores++;
			}
			*eol = '\n';
		}
		ck_assert_msg(loads == 2 && stores == 1 && plain == 1, "%s: %d %d %d", cpus[i], loads, stores, plain);
		free(out);
	}
	char cmd[4096], *out;
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/tests/driver/data/volatile_gemm.json' --dump-plan -o '%s/vg.hsaco' 2>&1",
		test_bin(), test_root(), dir);
	ck_assert_int_eq(sh(cmd, &out, NULL), 0);
	ck_assert_msg(strstr(out, "loop repeat over K: none\n") && !strstr(out, "prefetched"), "%s", out);
	free(out);
	/* the same kernel without the flags prefetches both */
	snprintf(cmd, sizeof cmd, "'%s' compile '%s/examples/gemm_global.json' --dump-plan -o '%s/g.hsaco' 2>&1", test_bin(),
		test_root(), dir);
	ck_assert_int_eq(sh(cmd, &out, NULL), 0);
	ck_assert_msg(strstr(out, "loop repeat over K: prefetch\n") && strstr(out, "read a_reg: prefetched"), "%s", out);
	free(out);
}
END_TEST

/* The assembly's memory instructions (buffer_*, the waits for vmcnt,
 * s_endpgm), one a line: the mnemonic and its cache and wait fields (sc0,
 * sc1, glc, vmcnt(0), lgkmcnt(0)), operands dropped. */
static char *instruction_shapes(const char *text)
{
	static const char *const keep[] = {" sc0", " sc1", " glc", " vmcnt(0)", " lgkmcnt(0)"};
	Buf b = {0};
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\n");
		if (l[0] != '\t' || l[1] == '.' || l[1] == '/')
			continue;
		size_t m = strcspn(l + 1, " \n");
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), l);
		bool wait = strncmp(l + 1, "s_waitcnt", 9) == 0 && strstr(line, "vmcnt");
		if (strncmp(l + 1, "buffer_", 7) != 0 && !wait && strncmp(l + 1, "s_endpgm", 8) != 0)
			continue;
		buf_printf(&b, "%.*s", (int)m, l + 1);
		for (size_t k = 0; k < ARRAY_LEN(keep); k++) {
			size_t kl = strlen(keep[k]);
			for (size_t i = 0; i + kl <= n; i++)
				if (strncmp(l + i, keep[k], kl) == 0 && (i + kl == n || l[i + kl] == ' ' || l[i + kl] == '\n')) {
					buf_puts(&b, keep[k]);
					break;
				}
		}
		buf_putc(&b, '\n');
	}
	char *r = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return r;
}

/* An acquire read and a release write at agent scope
 * (tests/driver/data/release_acquire.json: x acquire, y plain, b plain, flag
 * release, then a volatile acquire read and a volatile release write) as
 * LLVM compiles `load atomic acquire` / `store atomic release` at
 * syncscope("agent"): gfx942/gfx950 load sc1, wait, buffer_inv sc1;
 * buffer_wbl2 sc1, wait, store sc1. gfx90a load glc, wait,
 * buffer_wbinvl1_vol; wait, plain store. The next plain load stays after
 * the invalidate, the plain store before the release. */
START_TEST(acquire_release)
{
	const char *cpus[] = {"gfx942", "gfx90a", "gfx950"};
	for (int i = 0; i < 3; i++) {
		bool g90a = i == 1;
		char *out = compile_s("release_acquire", cpus[i]);
		char *sh_ = instruction_shapes(out);
		const char *want942[] = {
			"buffer_load_dwordx2 sc1\ns_waitcnt vmcnt(0)\nbuffer_inv sc1\ns_waitcnt vmcnt(0)\nbuffer_load_dwordx2\n",
			("\nbuffer_store_dwordx2\ns_waitcnt vmcnt(0) lgkmcnt(0)\nbuffer_wbl2 sc1\ns_waitcnt vmcnt(0) lgkmcnt(0)\n"
			 "buffer_store_dwordx2 sc1\n"),
			"buffer_load_dwordx2 sc0 sc1\ns_waitcnt vmcnt(0)\nbuffer_inv sc1\n",
			"buffer_wbl2 sc1\ns_waitcnt vmcnt(0) lgkmcnt(0)\nbuffer_store_dwordx2 sc0 sc1\ns_waitcnt vmcnt(0)\n"};
		const char *want90a[] = {
			"buffer_load_dwordx2 glc\ns_waitcnt vmcnt(0)\nbuffer_wbinvl1_vol\ns_waitcnt vmcnt(0)\nbuffer_load_dwordx2\n",
			"\nbuffer_store_dwordx2\ns_waitcnt vmcnt(0) lgkmcnt(0)\nbuffer_store_dwordx2\n",
			("buffer_load_dwordx2 glc\ns_waitcnt vmcnt(0)\nbuffer_wbinvl1_vol\ns_waitcnt vmcnt(0) lgkmcnt(0)\n"
			 "buffer_store_dwordx2\ns_waitcnt vmcnt(0)\n"),
			"buffer_store_dwordx2\ns_waitcnt vmcnt(0)\ns_endpgm\n"};
		for (int k = 0; k < 4; k++)
			ck_assert_msg(strstr(sh_, g90a ? want90a[k] : want942[k]), "%s: no\n%s\nin\n%s", cpus[i],
				g90a ? want90a[k] : want942[k], sh_);
		ck_assert_msg(g90a ? !strstr(sh_, "buffer_wbl2") && !strstr(sh_, "buffer_inv")
				   : !strstr(sh_, "buffer_wbinvl1_vol"), "%s: %s", cpus[i], sh_);
		free(sh_);
		free(out);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compile");
	TCase *t = tcase_create("e2e");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, copy_unaligned);
	tcase_add_test(t, copy_aligned);
	tcase_add_test(t, copy_gfx90a);
	tcase_add_test(t, copy_dynamic_specialised);
	tcase_add_test(t, elementwise);
	tcase_add_test(t, assembly_text);
	tcase_add_test(t, kernarg_loads_batched);
	tcase_add_test(t, target_ids);
	tcase_add_test(t, bad_input_writes_nothing);
	tcase_add_test(t, volatile_accesses);
	tcase_add_test(t, acquire_release);
	suite_add_tcase(s, t);
	TCase *m = tcase_create("mir");
	tcase_add_test(m, waitcnt_insert_and_check);
	tcase_add_test(m, mir_verify_catches);
	tcase_add_test(m, hazard_vcc);
	suite_add_tcase(s, m);
	return s;
}

int main(void)
{
	dir = test_tmpdir("compile");
	return run_suite(suite());
}
