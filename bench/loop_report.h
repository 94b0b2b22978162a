/* loop_report.h — the main loop of a compiled kernel's assembly, as the
 * static reports (gemm_report.c, attention_report.c) measure it: its
 * instructions by class, its MFMAs, and llvm-mca-22's cycles and matrix-core
 * (XDL) busy cycles per trip (bench/loop_report.c). */
#ifndef WAVECC_BENCH_LOOP_REPORT_H
#define WAVECC_BENCH_LOOP_REPORT_H

#include <stdbool.h>

#include "../ir/isa/isa.h"

typedef struct LoopStats {
	int insts, mfmas;        /* instructions and MFMAs in the main loop */
	int by_class[MC_COUNT];  /* the loop's instructions per scheduling class (ir/isa/isa.h) */
	int unknown;             /* mnemonics not in the instruction table */
	double cycles, xdl;      /* llvm-mca per trip: cycles, XDL pipe busy cycles */
	bool found, mca;         /* a loop with MFMAs; llvm-mca's figures read */
} LoopStats;

/* The standard output of the shell command cmd; NULL if it cannot run or
 * exits with a failure. The caller frees it. */
char *bench_run_out(const char *cmd);

/* The main loop of the assembly text s (changed in place): the innermost
 * backward branch whose body holds the most MFMAs, measured into *q;
 * llvm-mca-22 runs on it for mcpu, its input written under the folder tmp. */
void loop_report(char *s, const char *mcpu, const char *tmp, LoopStats *q);
/* The same over the whole kernel (its first instruction to s_endpgm), for
 * a kernel without a loop (decode attention's phase 0 at Wave's shapes:
 * one K2 tile per workgroup). */
void body_report(char *s, const char *mcpu, const char *tmp, LoopStats *q);

#endif
