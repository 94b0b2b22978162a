/* timing.h — a cycle-level timing model of one CDNA compute unit (gfx942 and,
 * by its parameters, gfx90a), driven by the emulator's instruction events,
 * and a whole-GPU estimate built on it (docs/cycle-model.md).
 *
 * Use: tm_recorder_new for a launch's sample of workgroups, pass its hook
 * (tm_recorder_hook) in EmuLaunch.hook, run the emulator; then tm_simulate
 * replays the recorded per-wave streams on one modeled CU (race-free kernels'
 * results do not depend on timing, so functional execution and timing are
 * separate), and tm_estimate scales the CU's result to the grid. Every
 * parameter lives in one table (params.c, TM_PARAMS) with its source. */
#ifndef WAVECC_TIMING_H
#define WAVECC_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../codeobj/kd.h"
#include "../emu/emu.h"

/* ---- params.c: the parameter table ----
 * X(name, gfx942, gfx90a, unit, source). "guessed" in the source column
 * marks a value no document gave us. */
#define TM_PARAMS(X) \
	X(clock_mhz, 2100, 1700, "MHz", "AMD MI300X / MI250X data sheets (peak engine clock)") \
	X(cus, 304, 110, "CUs", "MI300X: 8 XCDs x 38 CUs; MI250X: 220 CUs, one GCD of two") \
	X(cus_per_l2, 38, 110, "CUs", "MI300X: one 4 MB L2 per XCD of 38 CUs (Chips and Cheese, Testing AMD's Giant MI300X); MI250X: one L2 per GCD") \
	X(simds, 4, 4, "SIMDs/CU", "CDNA3 white paper / ISA guide: 4 SIMD units per CU") \
	X(wave_slots, 8, 8, "waves/SIMD", "LLVM AMDGPU getMaxWavesPerEU for gfx90a and gfx942") \
	X(max_wgs_per_cu, 32, 32, "workgroups", "guessed: workgroups (barrier resources) one CU holds") \
	X(vgprs, 512, 512, "regs/lane/SIMD", "unified VGPR+AGPR file, LLVM AMDGPU (gfx90a/gfx940 getTotalNumVGPRs)") \
	X(vgpr_granule, 8, 8, "regs", "LLVM AMDGPU VGPR allocation granule for gfx90a/gfx940") \
	X(sgprs, 800, 800, "regs/SIMD", "LLVM AMDGPU getTotalNumSGPRs for GFX9") \
	X(sgpr_granule, 16, 16, "regs", "LLVM AMDGPU SGPR allocation granule for GFX9") \
	X(lds_bytes, 65536, 65536, "bytes/CU", "CDNA3 ISA guide: 64 KiB LDS per CU") \
	X(issue_period, 4, 4, "clk", "each SIMD gets an issue turn every 4 clocks (GCN/CDNA sequencer); one wait state = one turn (assumption)") \
	X(valu_cycles, 4, 4, "clk", "wave64 on a 16-lane SIMD: 4 clocks per VALU op (CDNA3 ISA guide)") \
	X(trans_cycles, 16, 16, "clk", "guessed: transcendentals at quarter rate") \
	X(valu_latency, 4, 4, "clk", "dependent VALU ops issue back to back (one turn); the tree's isa.h VALU class latency 4") \
	X(trans_latency, 16, 16, "clk", "guessed (isa.h's TRANS class says 8; the quarter-rate pipe keeps it busy 16)") \
	X(mfma_pass_cycles, 4, 4, "clk", "one MFMA pass is 4 clocks; passes per row from ir/isa/insts.h (CDNA3 ISA guide 7.1)") \
	X(mfma_dep_passes, 3, 3, "passes", "XDL result read as SrcA/B or by VALU/VMEM: NP+3 wait states (CDNA3 ISA guide 7.6; passes/machine/hazard_rules.c)") \
	X(mfma_srcc_overlap_passes, 1, 0, "passes", "SrcC overlapping (not equal to) a previous D: NP+1 on gfx942, NP on gfx90a (hazard_rules.c)") \
	X(salu_latency, 4, 4, "clk", "one turn (guessed)") \
	X(branch_taken_cycles, 16, 16, "clk", "guessed: refetch after a taken branch") \
	X(barrier_cycles, 16, 16, "clk", "guessed: release of s_barrier after the last arrival") \
	X(sleep_unit, 64, 64, "clk", "CDNA3 ISA guide: s_sleep N waits about 64*N clocks") \
	X(lds_banks, 32, 32, "banks", "CDNA3 ISA guide / white paper: 32 banks of 4 bytes") \
	X(lds_bytes_per_clk, 128, 128, "B/clk/CU", "CDNA3 white paper: LDS bandwidth 128 bytes per clock per CU") \
	X(lds_latency, 44, 40, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results, MI300X VF / MI210 as CDNA2), p50 LDS 52 / 48 clk load-to-use, less the 8 the model's chase adds (pipe pass, s_waitcnt turn)") \
	X(vmem_lanes_per_clk, 16, 16, "lanes/clk", "guessed: the texture addresser takes 16 lanes per clock") \
	X(line_bytes, 128, 64, "bytes", "CDNA3 white paper: 128-byte cache lines; CDNA2: 64-byte L1 lines") \
	X(l1_bytes, 32768, 16384, "bytes", "CDNA3 white paper: 32 KiB vector L1 per CU; CDNA2: 16 KiB") \
	X(cache_ways, 4, 4, "ways", "guessed: associativity of the modelled vector L1 and scalar cache (LRU, set = line mod sets); no document found") \
	X(l1_bytes_per_clk, 128, 64, "B/clk/CU", "CDNA3 white paper: L1 128 B/clk per CU (doubled from CDNA2's 64)") \
	X(l1_latency, 112, 120, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results, MI300X VF / MI210 as CDNA2), p50 L1 116 / 124 clk load-to-use, less the 4 the model's chase adds") \
	X(l2_bytes_per_clk, 2048, 4096, "B/clk/L2", "CDNA3 white paper: 16 channels x 128 B/clk per XCD L2; CDNA2: 32 channels (ROCm Compute Profiler docs, L2 cache) x 128 B/clk (per-channel rate assumed as on CDNA3)") \
	X(l2_latency, 280, 284, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results, MI300X VF / MI210 as CDNA2), p50 L2 288 / 292 clk load-to-use, less the 8 the model's chase adds") \
	X(l2_cu_bytes_per_clk, 24, 24, "B/clk/CU", "MT4G L2 read bandwidth with every CU reading: MI300X 14364.7 GiB/s over 304 CUs at 2.1 GHz = 24.2, MI210 4014.1 GiB/s over 104 CUs at 1.7 GHz = 24.4 B/clk/CU") \
	X(hbm_gbps, 5300, 1600, "GB/s", "MI300X data sheet 5.3 TB/s; MI250X 3.2 TB/s over two GCDs") \
	X(hbm_efficiency, 0.775, 0.711, "fraction", "achievable share of hbm_gbps: MI300X copy 4.11 TB/s of 5.3 (Azure ND MI300X v5, AI-benchmarking-guide); CDNA2: MI210 read 1165 GB/s of 1638 (MT4G)") \
	X(hbm_latency, 868, 676, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results, MI300X VF / MI210 as CDNA2), p50 HBM (main) 876 / 684 clk load-to-use incl. Infinity Cache miss, less the 8 the model's chase adds") \
	X(scache_lines, 256, 256, "lines", "guessed: 16 KiB scalar cache of 64-byte lines") \
	X(scache_latency, 44, 44, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results, MI300X VF / MI210 as CDNA2), p50 scalar L1 48 / 48 clk load-to-use, less the 4 the model's chase adds") \
	X(store_ack_latency, 280, 284, "clk", "guessed: a store's vmcnt returns when L2 acknowledges it (= l2_latency)")

typedef struct TmParams {
#define X(name, a, b, unit, src) double name;
	TM_PARAMS(X)
#undef X
} TmParams;

void tm_params(EmuArch arch, TmParams *p);
/* Print the table (name, both columns, unit, source). */
void tm_params_print(FILE *f);

/* ---- trace.c: recording the emulator's events ---- */
typedef struct TmRecorder TmRecorder;
/* Record the workgroups [wg_first, wg_first + wg_count) of a launch whose
 * workgroups have `nwaves` waves. */
TmRecorder *tm_recorder_new(EmuArch arch, uint64_t wg_first, uint64_t wg_count, uint32_t nwaves);
const EmuHook *tm_recorder_hook(TmRecorder *r);
void tm_recorder_free(TmRecorder *r);

/* ---- cu.c: one compute unit ---- */
typedef enum {
	TM_VALU, TM_MFMA, TM_SALU, TM_VMEM, TM_LDS, TM_SMEM, TM_BRANCH, TM_INTERNAL, TM_NCAT
} TmCat;
extern const char *const tm_cat_name[TM_NCAT];

#define TM_REASONS(X) \
	X(R_VMCNT, "s_waitcnt vmcnt") \
	X(R_LGKMCNT, "s_waitcnt lgkmcnt") \
	X(R_BARRIER, "s_barrier") \
	X(R_MFMA_DEP, "dependency on an MFMA result") \
	X(R_VALU_DEP, "dependency on a VALU result") \
	X(R_MATRIX_BUSY, "matrix core busy") \
	X(R_PORT, "issue port or unit busy") \
	X(R_NOP, "s_nop / s_sleep") \
	X(R_BRANCH, "taken branch refetch")
typedef enum {
#define X(e, s) TM_##e,
	TM_REASONS(X)
#undef X
	TM_NREASONS
} TmReason;
extern const char *const tm_reason_name[TM_NREASONS];

/* Per static instruction (pc) results. */
typedef struct TmPc {
	uint64_t pc;
	char text[96];
	uint64_t issued;                 /* wave instructions issued */
	uint64_t stall[TM_NREASONS];     /* cycles a wave waited with this as its next instruction */
	uint64_t lds_conflict_cycles;    /* LDS cycles above the conflict-free count */
	uint64_t backward_taken;         /* a loop's back edge: times taken */
	uint64_t loop_cycles;            /* summed cycles between consecutive back-edge issues of one wave */
	uint64_t loop_intervals;
	uint64_t loop_target;
	uint32_t waited_on;              /* s_waitcnt: index + 1 of the memory instruction it last waited for */
} TmPc;

typedef struct TmCuResult {
	uint64_t cycles;                 /* from the first dispatch to the last wave's end */
	uint32_t workgroups, resident;   /* simulated, resident at once */
	uint32_t waves;                  /* simulated waves */
	uint64_t *wg_start, *wg_done;    /* dispatch and completion cycle of each workgroup */
	uint64_t issued[TM_NCAT];
	uint64_t mfma_busy;              /* matrix-core busy cycles, summed over the SIMDs */
	double mfma_flops;
	uint64_t bytes_l1, bytes_l2, bytes_hbm, bytes_lds; /* served by each level */
	uint64_t lds_conflict_cycles;
	TmPc *pcs;
	size_t npcs;
} TmCuResult;

typedef struct TmCuConfig {
	EmuArch arch;
	uint32_t resident;      /* workgroups resident at once (occupancy) */
	double hbm_bytes_per_clk; /* this CU's share of HBM bandwidth */
	double l2_bytes_per_clk;  /* this CU's share of L2 bandwidth */
	double l2_miss_fraction;  /* of first touches of a line: the fraction that go to HBM */
	uint32_t waves_per_simd_cap; /* by registers, 0: wave_slots */
} TmCuConfig;

/* Replay the recorded workgroups on one CU. Returns 0, -1 with a message
 * (a wave's stream that cannot complete: a barrier nobody reaches). */
int tm_simulate(const TmRecorder *r, const TmCuConfig *c, TmCuResult *out, char *err, size_t err_len);
void tm_cu_result_free(TmCuResult *res);
/* Bytes of distinct cache lines the recorded workgroups touch (first
 * touches) and request in all, averaged per workgroup. */
void tm_recorder_traffic(const TmRecorder *r, double *unique_bytes_per_wg, double *requested_bytes_per_wg);
/* The MFMA FLOPs of one MFMA row (2*M*N*K*blocks), 0 for other rows. */
double tm_mfma_flops(int op);

/* ---- gpu.c: occupancy and the whole GPU ---- */
typedef struct TmOccupancy {
	uint32_t waves_per_wg, by_waves, by_vgprs, by_sgprs, by_lds, wgs_per_cu;
	uint32_t waves_per_simd; /* by slots, VGPRs and SGPRs */
	const char *limit; /* what bounds it */
} TmOccupancy;
void tm_occupancy(EmuArch arch, const KernelDescriptor *kd, uint32_t lds_bytes, uint32_t waves_per_wg, TmOccupancy *o);

typedef struct TmEstimate {
	uint64_t grid_wgs, wgs_per_cu, active_cus;
	double cu_cycles;     /* per CU, extrapolated to its share of the grid */
	double seconds, tflops, gbps_hbm;
	double matrix_util;   /* MFMA busy / (SIMDs * cycles) */
} TmEstimate;
/* How many workgroups to simulate for a grid of `nwg` with occupancy occ. */
uint64_t tm_sample_size(EmuArch arch, uint64_t nwg, uint32_t occ);
/* Scale a CU simulation of `sample` workgroups to the grid. */
void tm_estimate(EmuArch arch, const TmCuResult *cu, uint64_t nwg, const TmOccupancy *o, TmEstimate *e);
/* The CU configuration for a grid of nwg workgroups: bandwidth shares and
 * the L2 miss fraction from the recorded traffic and the kernel's buffer
 * footprint (0: estimate it from the sample). */
void tm_cu_config(EmuArch arch, const TmRecorder *r, uint64_t nwg, const TmOccupancy *o, double footprint_bytes,
	TmCuConfig *c);

#endif
