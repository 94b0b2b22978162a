/* bench.h — what every benchmark program shares. A benchmark is a program:
 * bad usage or a failed step ends it with a message and a status. */
#ifndef WAVECC_BENCH_H
#define WAVECC_BENCH_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The reference compiler for a target: clang-19, or clang-22 for gfx950,
 * which LLVM 19 does not know. */
static inline const char *bench_clang(const char *mcpu)
{
	return strcmp(mcpu, "gfx950") == 0 ? "clang-22" : "clang-19";
}

#endif
