/* bench.h — what every benchmark program shares. A benchmark is a program:
 * bad usage or a failed step ends it with a message and a status. */
#ifndef WAVECC_BENCH_H
#define WAVECC_BENCH_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../util/util.h"

static inline void bench_fail(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
static inline void bench_fail(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

#endif
