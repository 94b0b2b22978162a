/* isel_file_test.c — instruction selection tests as files: every
 * tests/isel/data/NAME.json is a kernel graph and NAME.checks its
 * expectations on the machine IR right after select_instructions (virtual
 * registers, printed by mir_print), in the annotation form of
 * tests/passes/machine/data (test_match_checks: `; CHECK:`, `; CHECK-NEXT:`,
 * `; CHECK-NOT:`), plus `; TARGET: gfx90a` and `; DEFINE: SYM=VAL` lines.
 * The output must also parse back (mir_parse) to the same text.
 * A case's compile options beyond those (the schedule, use_global_to_shared)
 * are the kernel's own "options". One case per selection feature, its
 * .checks opening with what the case is and why selection does what the
 * CHECK lines pin. WAVECC_MIR_PRINT=1 prints each output;
 * WAVECC_ISEL_CASE=NAME runs tests/isel/data/NAME.json alone. */
#include <stdlib.h>
#include <string.h>

#include "../../driver/driver.h"
#include "../../frontend/frontend.h"
#include "../test.h"

static int nrun; /* the cases run */

static void run_case(const char *dir, const char *json)
{
	const char *only = getenv("WAVECC_ISEL_CASE");
	if (only && *only && !(strncmp(json, only, strlen(only)) == 0 && strcmp(json + strlen(only), ".json") == 0))
		return;
	nrun++;
	char path[8192], checks[8192];
	snprintf(path, sizeof path, "%s/%s", dir, json);
	snprintf(checks, sizeof checks, "%s/%.*s.checks", dir, (int)(strlen(json) - 5), json);
	size_t len;
	char *spec = read_file(checks, &len);
	ck_assert_msg(spec, "%s: no %s", json, checks);
	CompileOptions o = {.mcpu = "gfx942", .stop_after = "select_instructions"};
	char target[32] = "gfx942";
	for (const char *p = spec; p && *p;) {
		const char *nl = strchr(p, '\n');
		char name[128];
		long long v;
		if (sscanf(p, "; TARGET: %31s", target) == 1) {
			o.mcpu = target;
		} else if (sscanf(p, "; DEFINE: %127[A-Za-z0-9_]=%lld", name, &v) == 2) {
			ck_assert(o.ndefs < MAX_DEFS);
			o.def_name[o.ndefs] = intern(name);
			o.def_val[o.ndefs++] = v;
		}
		p = nl ? nl + 1 : NULL;
	}
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	ck_assert_msg(k, "%s does not load", json);
	Compile c;
	compile_init(&c, k, &o, &d);
	ck_assert_msg(compile_run(&c) == 0, "%s does not select", json);
	Buf out = {0}, again = {0}, err = {0};
	mir_print(&out, c.mf);
	if (getenv("WAVECC_MIR_PRINT"))
		printf("== %s\n%s", json, buf_cstr(&out));
	test_match_checks(json, spec, buf_cstr(&out));
	MFunc *g = mir_parse(out.data, out.len, json, c.t, &err);
	ck_assert_msg(g, "%s: %s", json, buf_cstr(&err));
	mir_print(&again, g);
	ck_assert_msg(strcmp(buf_cstr(&out), buf_cstr(&again)) == 0, "%s: the printed MIR does not parse back", json);
	mfunc_free(g);
	buf_free(&out);
	buf_free(&again);
	buf_free(&err);
	compile_free(&c);
	kernel_free(k);
	free(spec);
}

START_TEST(every_file)
{
	int n = test_each_file("tests/isel/data", ".json", run_case);
	const char *only = getenv("WAVECC_ISEL_CASE");
	if (only && *only)
		ck_assert_msg(nrun == 1, "WAVECC_ISEL_CASE=%s: no tests/isel/data/%s.json", only, only);
	else
		ck_assert_int_ge(n, 5);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("isel/file");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, every_file);
	suite_add_tcase(s, t);
	return run_suite(s);
}
