/* graph_fuzz.c — libFuzzer harness for the JSON frontend: any byte string
 * goes through load_kernel_text; a kernel that loads is printed too. The
 * properties checked are the sanitizers' (no crash, no UB, no leak) and that
 * the frontend returns a kernel exactly when it reported no error.
 * Build and run: make -f tests/fuzz/graph.mk && build-fuzz/graph_fuzz
 * tests/frontend/data (seeds) -max_total_time=120. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	Diag d;
	diag_init(&d);
	d.out = devnull;
	Kernel *k = load_kernel_text((const char *)data, size, "fuzz.json", &d);
	if ((k != NULL) != (d.nerrors == 0))
		abort();
	if (k) {
		Buf b = {0};
		graph_print(&b, k);
		buf_free(&b);
		kernel_free(k);
	}
	return 0;
}
