/* mir_file_test.c — machine-pass and register-allocation tests as single
 * files, input and expectations together (as QBE's and ACO's tests are):
 * every tests/passes/machine/data/NAME.mir is one case.
 *
 * A file is the machine IR in mir_print's form (read by mir_parse) with
 * annotation lines `; KEYWORD: TEXT` (other lines starting with ';' are
 * comments; an unknown upper-case keyword is an error):
 *   ; RUN: PASS         insert_waitcnt, resolve_hazards, relax_branches, regalloc, verify,
 *                       schedule (the list scheduler; its output is then
 *                       also allocated, waited and hazard-resolved, and
 *                       every checker must pass on that) or
 *                       eliminate_redundant (value numbering; its output
 *                       goes through the back end the same way)
 *   ; REMOVED: N        eliminate_redundant removed exactly N instructions
 *   ; TARGET: gfx90a    the target (default gfx942)
 *   ; LIMIT: N          schedule: the pressure limit (VGPR + AGPR dwords)
 *   ; CAP: N            schedule: the hard cap (SchedOptions.cap): kept to
 *                       even where the model finds the order slower
 *   ; REGS: v8 a4 s16   regalloc: the register files capped (RaLimits), so a
 *                       small case spills to AGPRs, lanes and scratch
 *   ; SPILL: 5 0        regalloc: these vregs go to scratch memory first,
 *                       whatever the pressure (tests of the spill code)
 *   ; REACH: N          relax_branches: the dwords a short branch reaches
 *   ; LONG: N           relax_branches made exactly N branches long
 *   ; INTERLEAVE: P     schedule: the asked order in loops ("mfma:1,lds:1")
 *   ; BEFORE: TEXT      the pass's independent checker, run on the input,
 *                       reports a problem containing TEXT (the input really
 *                       needs the pass)
 *   ; CHECK: TEXT       a later line of the output contains TEXT
 *   ; CHECK-NEXT: TEXT  the line right after the previous match does
 *   ; CHECK-NOT: TEXT   no line between the previous match and the next
 *                       CHECK's match (or the end) contains TEXT
 *   ; ERROR: TEXT       the pass (regalloc) or the verifier and checkers
 *                       (verify) report a problem containing TEXT
 * The output is the function printed after the pass. Every case also runs
 * the independent checkers after the pass (waits, hazards, the allocation
 * checker, the MIR verifier): they must be clean unless ERROR says
 * otherwise. WAVECC_MIR_PRINT=1 prints each output (for writing a case). */
#include <stdlib.h>
#include <string.h>

#include "../../../passes/machine/machine.h"
#include "../../../regalloc/regalloc.h"
#include "../../test.h"

typedef struct Ann {
	char kind[16];
	char text[512];
} Ann;

static bool has(const Ann *a, size_t na, const char *kind)
{
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].kind, kind) == 0)
			return true;
	return false;
}

/* Each ERROR annotation appears in msg. */
static void errors_in(const char *file, const Ann *a, size_t na, const char *msg)
{
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].kind, "ERROR") == 0)
			ck_assert_msg(strstr(msg, a[i].text), "%s: ERROR '%s' not reported; got:\n%s", file, a[i].text, msg);
}

static int checkers(const MFunc *f, Buf *msg)
{
	return mir_verify(f, msg) + check_waitcnt(f, msg) + check_hazards(f, msg);
}

static int ncases;

/* A scheduled (or value-numbered) function through the rest of the back
 * end (on a copy, via its printed form): allocation, waits, hazards, with every checker clean. */
static void scheduled_then_checked(const char *name, const MFunc *f)
{
	Buf text = {0}, err = {0}, msg = {0};
	mir_print(&text, f);
	MFunc *g = mir_parse(text.data, text.len, name, f->target, &err);
	ck_assert_msg(g, "%s: the scheduled function does not parse back: %s", name, buf_cstr(&err));
	RegAssign ra = {0};
	ck_assert_msg(regalloc_mfunc(g, &ra, &msg) == 0, "%s: scheduled function: allocation failed: %s", name,
		buf_cstr(&msg));
	ck_assert_msg(regalloc_check(ra.pre, ra.phys, g, &msg) == 0, "%s: allocation checker: %s", name, buf_cstr(&msg));
	regassign_free(&ra);
	insert_waitcnt(g);
	resolve_hazards(g);
	ck_assert_msg(checkers(g, &msg) == 0, "%s: checkers after the back end: %s", name, buf_cstr(&msg));
	mfunc_free(g);
	buf_free(&text);
	buf_free(&err);
	buf_free(&msg);
}

static void run_case(const char *dir, const char *name)
{
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	size_t len;
	char *text = read_file(path, &len);
	ck_assert_msg(text, "cannot read %s", path);
	Ann a[64];
	size_t na = 0;
	char run[32] = "", target[32] = "gfx942";
	int limit = 0, cap = 0, removed = -1, reach = 0, nlong = -1;
	RaLimits regs = {.nscratch = 0};
	char interleave[128] = "";
	for (char *p = text; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (p[0] == ';') {
			char line[600];
			snprintf(line, sizeof line, "%.*s", (int)n - 1, p + 1);
			/* `; KEYWORD: text` (an upper-case keyword); any other `;` line is a comment */
			char *kind = line + strspn(line, " ");
			size_t kl = strspn(kind, "ABCDEFGHIJKLMNOPQRSTUVWXYZ-");
			if (kl == 0 || kind[kl] != ':') {
				p = nl ? nl + 1 : NULL;
				continue;
			}
			kind[kl] = 0;
			char *val = kind + kl + 1 + strspn(kind + kl + 1, " ");
			if (strcmp(kind, "RUN") == 0)
				snprintf(run, sizeof run, "%s", val);
			else if (strcmp(kind, "TARGET") == 0)
				snprintf(target, sizeof target, "%s", val);
			else if (strcmp(kind, "LIMIT") == 0)
				limit = atoi(val);
			else if (strcmp(kind, "CAP") == 0)
				cap = atoi(val);
			else if (strcmp(kind, "REGS") == 0) {
				for (char *w = strtok(val, " "); w; w = strtok(NULL, " ")) {
					int file = w[0] == 's' ? RF_SGPR : w[0] == 'v' ? RF_VGPR : w[0] == 'a' ? RF_AGPR : -1;
					ck_assert_msg(file >= 0 && atoi(w + 1) > 0, "%s: REGS takes v8 a4 s16 ...", name);
					regs.regs[file] = atoi(w + 1);
				}
			} else if (strcmp(kind, "SPILL") == 0) {
				for (char *w = strtok(val, " "); w; w = strtok(NULL, " ")) {
					ck_assert_msg(regs.nscratch < 8, "%s: at most 8 SPILL vregs", name);
					regs.scratch[regs.nscratch++] = (uint32_t)atoi(w);
				}
			} else if (strcmp(kind, "REMOVED") == 0)
				removed = atoi(val);
			else if (strcmp(kind, "REACH") == 0)
				reach = atoi(val);
			else if (strcmp(kind, "LONG") == 0)
				nlong = atoi(val);
			else if (strcmp(kind, "INTERLEAVE") == 0)
				snprintf(interleave, sizeof interleave, "%s", val);
			else {
				ck_assert_msg(na < 64, "%s: too many annotations", name);
				ck_assert_msg(!strcmp(kind, "CHECK") || !strcmp(kind, "CHECK-NEXT") || !strcmp(kind, "CHECK-NOT") ||
						      !strcmp(kind, "ERROR") || !strcmp(kind, "BEFORE"),
					"%s: unknown annotation '%s'", name, kind);
				snprintf(a[na].kind, sizeof a[na].kind, "%s", kind);
				snprintf(a[na].text, sizeof a[na].text, "%s", val);
				na++;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	const Target *t = target_from_name(target);
	ck_assert_msg(t, "%s: unknown target %s", name, target);
	Buf err = {0}, msg = {0}, out = {0};
	MFunc *f = mir_parse(text, len, name, t, &err);
	ck_assert_msg(f, "%s", buf_cstr(&err));
	bool want_error = has(a, na, "ERROR");
	/* BEFORE: the checker of the pass fails on the input */
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].kind, "BEFORE") == 0) {
			Buf m = {0};
			if (strcmp(run, "insert_waitcnt") == 0)
				check_waitcnt(f, &m);
			else if (strcmp(run, "resolve_hazards") == 0)
				check_hazards(f, &m);
			else
				ck_abort_msg("%s: BEFORE needs RUN insert_waitcnt or resolve_hazards", name);
			ck_assert_msg(strstr(buf_cstr(&m), a[i].text), "%s: BEFORE '%s' not reported on the input:\n%s", name,
				a[i].text, buf_cstr(&m));
			buf_free(&m);
		}
	if (strcmp(run, "insert_waitcnt") == 0) {
		insert_waitcnt(f);
	} else if (strcmp(run, "resolve_hazards") == 0) {
		resolve_hazards(f);
	} else if (strcmp(run, "relax_branches") == 0) {
		int n = relax_branches(f, reach, NULL);
		ck_assert_msg(nlong < 0 || n == nlong, "%s: %d branches made long, expected %d", name, n, nlong);
	} else if (strcmp(run, "regalloc") == 0) {
		RegAssign ra = {0};
		if (regalloc_mfunc_limits(f, &regs, &ra, &msg) != 0) {
			ck_assert_msg(want_error, "%s: allocation failed: %s", name, buf_cstr(&msg));
			errors_in(name, a, na, buf_cstr(&msg));
			regassign_free(&ra);
			goto done;
		}
		ck_assert_msg(regalloc_check(ra.pre, ra.phys, f, &msg) == 0, "%s: allocation checker: %s", name,
			buf_cstr(&msg));
		ck_assert_msg(!ra.orig || regalloc_check_spills(ra.orig, f, &msg) == 0, "%s: spill checker: %s", name,
			buf_cstr(&msg));
		regassign_free(&ra);
	} else if (strcmp(run, "schedule") == 0) {
		SchedOptions o = {.limit = limit, .cap = cap};
		if (interleave[0])
			ck_assert_msg(sched_groups_parse(interleave, &o, &msg) == 0, "%s: %s", name, buf_cstr(&msg));
		o.limit = limit;
		ck_assert_msg(sched_mfunc(f, &o) > 0, "%s: the scheduler moved nothing", name);
		scheduled_then_checked(name, f);
	} else if (strcmp(run, "eliminate_redundant") == 0) {
		int n = eliminate_redundant(f);
		ck_assert_msg(removed < 0 || n == removed, "%s: %d instructions removed, expected %d", name, n, removed);
		scheduled_then_checked(name, f);
	} else if (strcmp(run, "verify") == 0) {
		int n = checkers(f, &msg);
		ck_assert_msg(want_error ? n > 0 : n == 0, "%s: verify found %d problems: %s", name, n, buf_cstr(&msg));
		errors_in(name, a, na, buf_cstr(&msg));
		goto done;
	} else {
		ck_abort_msg("%s: RUN is '%s'; expected insert_waitcnt, resolve_hazards, relax_branches, regalloc, verify, "
			     "schedule or eliminate_redundant", name,
			run);
	}
	ck_assert_msg(!want_error, "%s: expected an error, the pass succeeded", name);
	/* after a machine pass, only that pass's own checker must be clean (a
	 * waitcnt case need not be hazard-free); after allocation the MIR
	 * verifier */
	int n = mir_verify(f, &msg);
	if (strcmp(run, "insert_waitcnt") == 0)
		n += check_waitcnt(f, &msg);
	if (strcmp(run, "resolve_hazards") == 0 || strcmp(run, "relax_branches") == 0)
		n += check_hazards(f, &msg);
	if (strcmp(run, "relax_branches") == 0)
		n += check_waitcnt(f, &msg);
	ck_assert_msg(n == 0, "%s: checkers after %s: %s", name, run, buf_cstr(&msg));
	mir_print(&out, f);
	if (getenv("WAVECC_MIR_PRINT"))
		printf("== %s\n%s", name, buf_cstr(&out));
	test_match_checks(name, text, buf_cstr(&out));
done:
	ncases++;
	mfunc_free(f);
	buf_free(&err);
	buf_free(&msg);
	buf_free(&out);
	free(text);
}

START_TEST(every_file)
{
	test_each_file("tests/passes/machine/data", ".mir", run_case);
	ck_assert_int_ge(ncases, 10);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/mir_file");
	TCase *t = tcase_create("core");
	tcase_add_test(t, every_file);
	suite_add_tcase(s, t);
	return run_suite(s);
}
