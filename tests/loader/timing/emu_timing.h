/* emu_timing.h — the timing tests' common step (calib_test.c,
 * timing_test.c): run a harness's kernel recording every wave, then replay
 * the record on the cycle model of one CU (loader/timing/). */
#ifndef WAVECC_TESTS_TIMING_EMU_TIMING_H
#define WAVECC_TESTS_TIMING_EMU_TIMING_H

#include "../../../loader/timing/timing.h"
#include "../emu/emu_harness.h"

/* Run h's kernel over `nwg` workgroups on `arch`, recording all, and
 * simulate them with `c` into res (the test fails on an error). */
void h_simulate(Harness *h, EmuArch arch, uint32_t nwg, const TmCuConfig *c, TmCuResult *res);

#endif
