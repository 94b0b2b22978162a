/* ref_profile.h — clang-19 -O3 reference kernels through the cycle model,
 * shared by the reports that set them beside wavecc's code
 * (profile_report.c, schedule_report.c): build an OpenCL kernel's code
 * object with a launch descriptor for it, and read `wavecc profile --json`'s
 * figures of a descriptor or a kernel graph (bench/ref_profile.c). */
#ifndef WAVECC_BENCH_REF_PROFILE_H
#define WAVECC_BENCH_REF_PROFILE_H

#include <stdbool.h>

/* An OpenCL reference kernel and how to launch it. */
typedef struct Ref {
	const char *cl, *flags, *kernel; /* source, extra clang flags, kernel name */
	const char *launch;              /* the descriptor after "arch": its sizes, grid and args */
} Ref;

/* `wavecc profile --json`'s figures; ok false when it did not run. */
typedef struct ProfileFig {
	bool ok;
	double tflops, gbps, util; /* modeled TFLOP/s, HBM GB/s, matrix-core utilisation (0..1) */
} ProfileFig;

/* The descriptor's args of the GEMM references: A[M][K] f16, B[N][K] f16,
 * C[M][N] f32, then M, N, K as i32 (kernarg_size 36). */
#define REF_GEMM_ARGS                                                                                                  \
	"\"kernarg_size\": 36, \"args\": ["                                                                            \
	"{\"name\": \"A\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"M\", \"K\"], \"offset\": 0, \"access\": \"read\"}," \
	"{\"name\": \"B\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"N\", \"K\"], \"offset\": 8, \"access\": \"read\"}," \
	"{\"name\": \"C\", \"kind\": \"buffer\", \"dtype\": \"f32\", \"shape\": [\"M\", \"N\"], \"offset\": 16, \"access\": \"write\"}," \
	"{\"name\": \"M\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 24},"                                 \
	"{\"name\": \"N\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 28},"                                 \
	"{\"name\": \"K\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 32}]"

/* `wavecc profile ARGS --json` (ARGS: a kernel graph or launch descriptor
 * and its options, already quoted as the shell needs). */
ProfileFig ref_profile(const char *wavecc, const char *args);

/* clang-19 -O3's code object of r for mcpu and its launch descriptor, both
 * in the folder tmp (named after r->kernel, so a later build of the same
 * kernel replaces them); the descriptor's path (the caller frees it), or
 * NULL when clang fails. */
char *ref_build(const Ref *r, const char *mcpu, const char *tmp);

#endif
