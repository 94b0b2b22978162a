/* plan_file_test.c — the loop plan as files: every tests/passes/plan/data/
 * NAME.json is a kernel graph and NAME.plan the plan wavecc makes of it
 * (plan_print, `wavecc compile --dump-plan`), exactly. Lines of NAME.plan
 * starting with '#' are comments or directives:
 *   # TARGET: gfx90a          the target (default gfx942)
 *   # DEFINE: SYM=VAL         a -D binding
 *   # SCHEDULE: four_stage    the --schedule option
 *   # LDS-STAGES: 2           the --lds-stages option
 *   # AFTER: allocate_registers
 *       the plan the kernel was compiled from (after the lighter-form
 *       search); by default the plan right after plan_loops.
 * WAVECC_PLAN_PRINT=1 prints each plan; WAVECC_PLAN_UPDATE=1 writes each
 * NAME.plan again, its '#' lines first and then the plan made now (to be
 * read in the diff before it is committed). */
#include <stdlib.h>
#include <string.h>

#include "../../../driver/driver.h"
#include "../../../frontend/frontend.h"
#include "../../test.h"

static void run_case(const char *dir, const char *json)
{
	char path[8192], spec_path[8192];
	snprintf(path, sizeof path, "%s/%s", dir, json);
	snprintf(spec_path, sizeof spec_path, "%s/%.*s.plan", dir, (int)(strlen(json) - 5), json);
	size_t len;
	char *spec = read_file(spec_path, &len);
	ck_assert_msg(spec, "%s: no %s", json, spec_path);
	CompileOptions o = {.mcpu = "gfx942", .stop_after = "plan_loops"};
	char target[32], after[64], sched[32];
	Buf want = {0}, notes = {0};
	for (const char *p = spec; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		char name[128];
		long long v;
		buf_putn(p[0] == '#' ? &notes : &want, p, n);
		if (p[0] != '#') {
			/* a line of the plan */
		} else if (sscanf(p, "# TARGET: %31s", target) == 1) {
			o.mcpu = target;
		} else if (sscanf(p, "# DEFINE: %127[A-Za-z0-9_]=%lld", name, &v) == 2) {
			ck_assert(o.ndefs < MAX_DEFS);
			o.def_name[o.ndefs] = intern(name);
			o.def_val[o.ndefs++] = v;
		} else if (sscanf(p, "# AFTER: %63s", after) == 1) {
			o.stop_after = after;
		} else if (sscanf(p, "# SCHEDULE: %31s", sched) == 1) {
			o.schedule = kernel_schedule_from_name(sched);
			ck_assert_msg(o.schedule != SCHED_UNSET, "%s: unknown schedule %s", json, sched);
		} else if (sscanf(p, "# LDS-STAGES: %lld", &v) == 1) {
			o.lds_stages = (int)v;
		}
		p = nl ? nl + 1 : NULL;
	}
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	ck_assert_msg(k, "%s does not load", json);
	Compile c;
	compile_init(&c, k, &o, &d);
	ck_assert_msg(compile_run(&c) == 0, "%s does not compile", json);
	Buf out = {0};
	plan_print(&out, &c.an, &c.plan);
	if (getenv("WAVECC_PLAN_PRINT"))
		printf("== %s\n%s", json, buf_cstr(&out));
	if (getenv("WAVECC_PLAN_UPDATE")) {
		FILE *f = fopen(spec_path, "w");
		ck_assert_msg(f && fprintf(f, "%s%s", buf_cstr(&notes), buf_cstr(&out)) >= 0 && fclose(f) == 0,
			"%s: cannot write", spec_path);
		buf_clear(&want);
		buf_puts(&want, buf_cstr(&out));
	}
	ck_assert_msg(strcmp(buf_cstr(&out), buf_cstr(&want)) == 0, "%s: the plan is\n%s\nexpected\n%s", json,
		buf_cstr(&out), buf_cstr(&want));
	buf_free(&out);
	buf_free(&want);
	buf_free(&notes);
	compile_free(&c);
	kernel_free(k);
	free(spec);
}

START_TEST(every_file)
{
	ck_assert_int_ge(test_each_file("tests/passes/plan/data", ".json", run_case), 8);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/plan/file");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, every_file);
	suite_add_tcase(s, t);
	return run_suite(s);
}
