/* harness.h — helpers shared by the interpreter suites (tests/interp/):
 * load an example kernel, run it on chosen inputs, compare an output with a
 * naive reference computed by the test itself in plain loops. */
#ifndef WAVECC_TESTS_INTERP_HARNESS_H
#define WAVECC_TESTS_INTERP_HARNESS_H

#include "../../frontend/frontend.h"
#include "../../interp/interp.h"
#include "../../ir/graph.h"
#include "../test.h"

/* A loaded example (examples/<name>.json) with its argument buffers
 * allocated; fails the test if loading or allocation fails. dyn may be
 * NULL when the kernel has no dynamic symbols. */
typedef struct Example {
	Kernel *k;
	Interp in;
	Diag d;
} Example;
void ex_open(Example *ex, const char *name, const int64_t *dyn);
void ex_close(Example *ex);
InterpArg *ex_arg(Example *ex, const char *name); /* fails the test if absent */
/* Run; fails the test (printing the diagnostics) on error. */
void ex_run(Example *ex);

/* Fill with values drawn uniformly from the multiples of `step` in
 * [lo, hi), rounded to the argument's dtype (exact for the defaults used);
 * the test's own generator, independent of interp_fill_random. */
void fill(InterpArg *a, unsigned seed, double lo, double hi, double step);
/* Element i as a double. */
double el(const InterpArg *a, uint64_t i);

/* Assert |got - ref| <= atol + rtol*|ref| for every element; on failure,
 * report the first bad index and the worst error. Returns the worst
 * absolute error (for messages). */
double expect_close(const char *what, const InterpArg *got, const double *ref, double atol, double rtol);

#endif
