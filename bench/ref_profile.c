/* ref_profile.c — clang -O3 (bench_clang) reference kernels through the cycle model
 * (bench/ref_profile.h): the build of an OpenCL kernel with its launch
 * descriptor, and the figures of `wavecc profile --json`. */
#include "ref_profile.h"

#include <jansson.h>

#include "bench.h"
#include "loop_report.h"

/* A number of the profile's JSON, or 0 when it has none. */
static double num(json_t *doc, const char *key)
{
	json_t *v = json_object_get(doc, key);
	return json_is_number(v) ? json_number_value(v) : 0;
}

ProfileFig ref_profile(const char *wavecc, const char *args)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "'%s' profile %s --json 2>/dev/null", wavecc, args);
	ProfileFig f = {0};
	char *s = bench_run_out(cmd);
	json_t *doc = s ? json_loads(s, 0, NULL) : NULL;
	if (doc) {
		f.ok = true;
		f.tflops = num(doc, "tflops");
		f.gbps = num(doc, "hbm_gbps");
		f.util = num(doc, "matrix_utilisation");
		json_decref(doc);
	}
	free(s);
	return f;
}

char *ref_build(const Ref *r, const char *mcpu, const char *tmp)
{
	char cmd[8192], *path = xmalloc(4200);
	snprintf(cmd, sizeof cmd,
		"%s -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 %s %s -o '%s/%s.hsaco' 2>/dev/null",
		bench_clang(mcpu), mcpu, r->flags, r->cl, tmp, r->kernel);
	if (system(cmd) != 0) {
		free(path);
		return NULL;
	}
	snprintf(path, 4200, "%s/%s.launch.json", tmp, r->kernel);
	FILE *f = fopen(path, "w");
	if (!f)
		bench_fail(1, "ref_build: cannot write %s", path);
	fprintf(f, "{\"format\": \"wavecc-launch/1\", \"code_object\": \"%s.hsaco\", \"kernel\": \"%s\", \"arch\": \"%s\", %s}\n",
		r->kernel, r->kernel, mcpu, r->launch);
	fclose(f);
	return path;
}
