/* harness.c — see harness.h. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

void ex_open(Example *ex, const char *name, const int64_t *dyn)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/examples/%s.json", test_root(), name);
	diag_init(&ex->d);
	ex->k = load_kernel_file(path, &ex->d);
	ck_assert_msg(ex->k != NULL, "%s does not load", path);
	ck_assert_msg(interp_init(&ex->in, ex->k, dyn, &ex->d) == 0, "%s: interp_init failed", path);
}

void ex_close(Example *ex)
{
	interp_free(&ex->in);
	kernel_free(ex->k);
}

InterpArg *ex_arg(Example *ex, const char *name)
{
	InterpArg *a = interp_arg(&ex->in, name);
	ck_assert_msg(a != NULL, "no argument %s", name);
	return a;
}

void ex_run(Example *ex)
{
	ck_assert_msg(interp_run(&ex->in) == 0, "interp_run failed (see the diagnostics above)");
}

void fill(InterpArg *a, unsigned seed, double lo, double hi, double step)
{
	uint64_t n = (uint64_t)((hi - lo) / step);
	uint64_t s = seed * 2654435761u + 1;
	for (uint64_t i = 0; i < a->count; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		double v = lo + (double)((s >> 33) % n) * step;
		dtype_store(a->dtype, a->data, i, v);
	}
}

double el(const InterpArg *a, uint64_t i)
{
	return dtype_load(a->dtype, a->data, i);
}

double expect_close(const char *what, const InterpArg *got, const double *ref, double atol, double rtol)
{
	double worst = 0;
	uint64_t bad = got->count, worst_i = 0;
	for (uint64_t i = 0; i < got->count; i++) {
		double g = el(got, i), e = fabs(g - ref[i]);
		if (!(e <= atol + rtol * fabs(ref[i])) && bad == got->count)
			bad = i;
		if (e > worst || isnan(e)) {
			worst = isnan(e) ? INFINITY : e;
			worst_i = i;
		}
	}
	ck_assert_msg(bad == got->count, "%s: element %llu is %.9g, expected %.9g (worst error %.3g at %llu)", what,
		(unsigned long long)bad, el(got, bad), ref[bad], worst, (unsigned long long)worst_i);
	return worst;
}
