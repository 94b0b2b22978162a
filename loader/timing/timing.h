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
 * X(name, gfx942, gfx90a, gfx950, unit, source): the compute unit's and
 * the memory system's, by target. "guessed" in the source column marks a
 * value no document gave us, "fitted" one set by the calibration fit (make
 * bench-calibrate, docs/cycle-model.md); profile --sensitivity varies
 * both. The chip's figures (CUs, clocks, HBM, LDS) are the GPU
 * configuration's (TM_GPUS). */
#define TM_PARAMS(X) \
	X(latency_clock_mhz, 2100, 1700, 2200, "MHz", "the engine clock of the published pointer chases and bandwidth runs the latencies and bandwidths per clock come from (MT4G: MI300X VF at 2.1 GHz, MI210 at 1.7 GHz, MI350P at 2.2 GHz)") \
	X(clock_duty_exponent, 1.05, 1.05, 1.05, "", "fitted (make bench-calibrate --fit over the fit set of bench/calibration/aiter_gemms.csv, with launch_us): the shape of the clock's fall with the matrix-core duty d, clock = boost - (boost - full-duty clock) x d^exponent (the ROCm blog's median clocks give only the full-duty end; 1 would be linear)") \
	X(simds, 4, 4, 4, "SIMDs/CU", "CDNA3 white paper / ISA guide: 4 SIMD units per CU") \
	X(wave_slots, 8, 8, 8, "waves/SIMD", "LLVM AMDGPU getMaxWavesPerEU for gfx90a and gfx942") \
	X(max_wgs_per_cu, 32, 32, 32, "workgroups", "guessed: workgroups (barrier resources) one CU holds") \
	X(vgprs, 512, 512, 512, "regs/lane/SIMD", "unified VGPR+AGPR file, LLVM AMDGPU (gfx90a/gfx940 getTotalNumVGPRs)") \
	X(vgpr_granule, 8, 8, 8, "regs", "LLVM AMDGPU VGPR allocation granule for gfx90a/gfx940") \
	X(sgprs, 800, 800, 800, "regs/SIMD", "LLVM AMDGPU getTotalNumSGPRs for GFX9") \
	X(sgpr_granule, 16, 16, 16, "regs", "LLVM AMDGPU SGPR allocation granule for GFX9") \
	X(issue_period, 4, 4, 4, "clk", "each SIMD gets an issue turn every 4 clocks (GCN/CDNA sequencer); one wait state = one turn (assumption)") \
	X(valu_cycles, 4, 4, 4, "clk", "wave64 on a 16-lane SIMD: 4 clocks per VALU op (CDNA3 ISA guide)") \
	X(trans_cycles, 16, 16, 16, "clk", "guessed: transcendentals at quarter rate") \
	X(valu_latency, 4, 4, 4, "clk", "dependent VALU ops issue back to back (one turn); the tree's isa.h VALU class latency 4") \
	X(trans_latency, 16, 16, 16, "clk", "guessed (isa.h's TRANS class says 8; the quarter-rate pipe keeps it busy 16)") \
	X(mfma_pass_cycles, 4, 4, 4, "clk", "one MFMA pass is 4 clocks; passes per row from ir/isa/insts.h (CDNA3 ISA guide 7.1)") \
	X(mfma_dep_passes, 3, 3, 3, "passes", "XDL result read as SrcA/B or by VALU/VMEM: NP+3 wait states (CDNA3 ISA guide 7.6; passes/machine/hazard_rules.c)") \
	X(mfma_srcc_overlap_passes, 1, 0, 1, "passes", "SrcC overlapping (not equal to) a previous D: NP+1 on gfx942, NP on gfx90a (hazard_rules.c)") \
	X(salu_latency, 4, 4, 4, "clk", "one turn (guessed)") \
	X(branch_taken_cycles, 16, 16, 16, "clk", "guessed: refetch after a taken branch") \
	X(barrier_cycles, 16, 16, 16, "clk", "guessed: release of s_barrier after the last arrival") \
	X(sleep_unit, 64, 64, 64, "clk", "CDNA3 ISA guide: s_sleep N waits about 64*N clocks") \
	X(lds_banks, 32, 32, 64, "banks", "CDNA3 ISA guide / white paper: 32 banks of 4 bytes; CDNA4 (gfx950): 64, as AMD's Composable Kernel docs (LDS and bank conflicts: 32 or 64 banks depending on the architecture) allow and aiter's gfx950 GEMMs imply (their ds_read_b128 tile reads are conflict-free with 64 banks, 4-way conflicted with 32)") \
	X(lds_bytes_per_clk, 128, 128, 256, "B/clk/CU", "CDNA3 white paper: LDS bandwidth 128 bytes per clock per CU; gfx950: one 4-byte word per bank per clock over its 64 banks") \
	X(lds_latency, 44, 40, 40, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results: MI300X VF / MI210 as CDNA2 / MI350P as CDNA4), p50 LDS 52 / 48 / 48 clk load-to-use, less the 8 the model's chase adds (pipe pass, s_waitcnt turn)") \
	X(vmem_lanes_per_clk, 16, 16, 16, "lanes/clk", "guessed: the texture addresser takes 16 lanes per clock") \
	X(line_bytes, 128, 64, 128, "bytes", "CDNA3 white paper: 128-byte cache lines; CDNA2: 64-byte L1 lines") \
	X(l1_bytes, 32768, 16384, 32768, "bytes", "CDNA3 white paper: 32 KiB vector L1 per CU; CDNA2: 16 KiB") \
	X(cache_ways, 4, 4, 4, "ways", "guessed: associativity of the modelled vector L1 and scalar cache (LRU, set = line mod sets); no document found") \
	X(l1_bytes_per_clk, 128, 64, 128, "B/clk/CU", "CDNA3 white paper: L1 128 B/clk per CU (doubled from CDNA2's 64)") \
	X(l1_latency, 112, 120, 108, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results: MI300X VF / MI210 as CDNA2 / MI350P as CDNA4), p50 L1 116 / 124 / 112 clk load-to-use, less the 4 the model's chase adds") \
	X(l2_bytes_per_clk, 2048, 4096, 2048, "B/clk/L2", "CDNA3 white paper: 16 channels x 128 B/clk per XCD L2; CDNA2: 32 channels (ROCm Compute Profiler docs, L2 cache) x 128 B/clk (per-channel rate assumed as on CDNA3)") \
	X(l2_latency, 280, 284, 248, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results: MI300X VF / MI210 as CDNA2 / MI350P as CDNA4), p50 L2 288 / 292 / 256 clk load-to-use, less the 8 the model's chase adds") \
	X(l2_cu_bytes_per_clk, 24, 24, 48, "B/clk/CU", "MT4G L2 read bandwidth with every CU reading: MI300X 14364.7 GiB/s over 304 CUs at 2.1 GHz = 24.2, MI210 4014.1 GiB/s over 104 CUs at 1.7 GHz = 24.4, MI350P 12494.5 GiB/s over 128 CUs at 2.2 GHz = 47.6 B/clk/CU") \
	X(hbm_efficiency, 0.775, 0.711, 0.642, "fraction", "achievable share of hbm_gbps with reads and writes mixed (a write share of HBM traffic of 1/3 or more): MI300X copy 4.11 TB/s of 5.3 (Azure ND MI300X v5, AI-benchmarking-guide: BabelStream copy 4.11, mul 4.26, add 4.14, triad 4.09 TB/s); CDNA2: MI210 read 1165 GB/s of 1638 (MT4G); CDNA4: MI350P read 2448.9 GiB/s of 4.1 TB/s (MT4G: 4096-bit bus at 2 GHz, 8 Gb/s per pin); no mixed figure is published for CDNA2 and CDNA4: their read figure stands for both") \
	X(hbm_read_efficiency, 0.730, 0.711, 0.642, "fraction", "achievable share of hbm_gbps when a kernel only reads HBM: MI300X BabelStream dot 3.87 TB/s of 5.3 (Azure ND MI300X v5, AI-benchmarking-guide); CDNA2 and CDNA4: hbm_efficiency's, itself a read measurement (MT4G). Between no writes and a write share of 1/3 the achievable share is interpolated linearly to hbm_efficiency (tm_hbm_efficiency)") \
	X(hbm_latency, 868, 676, 732, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results: MI300X VF / MI210 as CDNA2 / MI350P as CDNA4), p50 HBM (main) 876 / 684 / 740 clk load-to-use incl. Infinity Cache miss, less the 8 the model's chase adds") \
	X(mall_latency, 450, 0, 436, "clk", "load-to-use latency of an L2 miss that hits the Infinity Cache (MALL), less the 8 the model's chase adds: MI300X about 218 ns (Chips and Cheese, Testing AMD's Giant MI300X, chipsandcheese.com/p/testing-amds-giant-mi300x) = 458 clk at 2.1 GHz; MI350P p50 L3 444 clk (MT4G); CDNA2 has no MALL") \
	X(mall_mib, 256, 0, 256, "MiB", "Infinity Cache (MALL) capacity, memory-side, shared by every XCD: 256 MB on MI300X, MI325X and MI355X (ROCm GPU specifications, rocm.docs.amd.com reference/gpu-specs; AMD CDNA 3 white paper); CDNA2 has none") \
	X(mall_gbps, 11900, 0, 13085, "GB/s", "Infinity Cache read bandwidth of the whole chip: MI300X 11.9 TB/s measured (Chips and Cheese, Testing AMD's Giant MI300X; the CDNA 3 white paper's peak is 17.2 TB/s); CDNA4: MT4G's MI350P L3 read 12186.5 GiB/s, guessed for MI355X (whose 8 XCDs may draw more); CDNA2 has none") \
	X(launch_us, 1.6, 1.6, 2.4, "us", "fitted (make bench-calibrate --fit over the fit set of bench/calibration/aiter_gemms.csv, within launch_max_us): what a dispatch adds to the kernel's measured duration beyond its workgroups' work (command processor, workgroup launch, end-of-kernel write-back); gfx942 1.6 (inside its bound), gfx950 held at its bound 2.4 (the unbounded fit chose 6.1, above the 2.4 us aiter measured for a whole kernel on MI355X); gfx90a takes gfx942's (guessed: no measured gfx90a kernel)") \
	X(launch_max_us, 3.0, 0, 2.4, "us", "measured upper bound on launch_us: the shortest kernel duration in aiter's tuned-GEMM tables (torch.profiler device time, as the calibration rows), which includes a dispatch and some work: MI300X 3.0108 us (aiter/configs/model_configs/a8w8_blockscale_tuned_gemm_glm5_1.csv, gfx942 cu_num 304, M=2 N=6144 K=256, ck), MI355X 2.4076 us (a8w8_blockscale_bpreshuffle_tuned_gemm_qwen3.5_397b.csv, gfx950 cu_num 256, M=4 N=256 K=512, ck); gfx90a 0: no bound (no gfx90a row)") \
	X(scache_lines, 256, 256, 256, "lines", "guessed: 16 KiB scalar cache of 64-byte lines") \
	X(scache_latency, 44, 44, 44, "clk", "MT4G pointer chase (github.com/caps-tum/mt4g sample_results: MI300X VF / MI210 as CDNA2 / MI350P as CDNA4), p50 scalar L1 48 / 48 / 48 clk load-to-use, less the 4 the model's chase adds") \
	X(store_ack_latency, 280, 284, 280, "clk", "guessed: a store's vmcnt returns when L2 acknowledges it (= l2_latency)")

/* The data types of MFMA instructions, for the clock model and each
 * type's own matrix peak (xf32 and gfx950's fp6/fp4 formats run faster
 * than f32 and fp8). */
#define TM_DTYPES(X) X(TM_DT_F16, "f16") X(TM_DT_BF16, "bf16") X(TM_DT_FP8, "fp8") X(TM_DT_I8, "i8") \
	X(TM_DT_F32, "f32") X(TM_DT_F64, "f64") X(TM_DT_XF32, "xf32") X(TM_DT_FP4, "fp6/fp4")
typedef enum {
#define X(e, s) e,
	TM_DTYPES(X)
#undef X
	TM_NDTYPES
} TmDtype;
extern const char *const tm_dtype_name[TM_NDTYPES];

/* GPU configurations: X(name, arch, CUs, CUs per L2 (an XCD, or a GCD),
 * peak engine (boost) clock in MHz, HBM peak GB/s, LDS KiB per CU, L2 MiB
 * per XCD/GCD, the clock at full matrix-core duty under dense f16, bf16
 * and fp8 GEMM in MHz, where those come from when AMD did not publish them
 * for this GPU (NULL: published), source). The first GPU of an arch is its
 * default. The published full-duty clocks are AMD's median clocks under
 * hipBLASLt's max-achievable GEMMs (ROCm blog, "Measuring Max-Achievable
 * FLOPs - Part 2", Table 1); i8 MFMAs take fp8's and f32/xf32/f64 MFMAs
 * f16's (guessed: no published figure). */
#define TM_GPUS(X) \
	X("MI300X", EMU_GFX942, 304, 38, 2100, 5300, 64, 4, 1115, 1207, 1230, NULL, \
		"CUs, CUs per XCD, LDS, L2 per XCD: ROCm GPU specifications (rocm.docs.amd.com, reference/gpu-specs); boost clock: the ROCm blog Measuring Max-Achievable FLOPs Part 2 (footnote 3, default max frequency 2100 MHz) and rocminfo's Max Clock Freq; HBM 5.3 TB/s: AMD's MI300X data sheet (as Vultr's ROCm docs, Hardware Requirements, quote it); full-duty clocks: that blog's Table 1 (median clocks at 654, 708 and 1273 TFLOP/s)") \
	X("MI308X", EMU_GFX942, 80, 20, 2100, 5300, 64, 4, 1115, 1207, 1230, "MI300X's, guessed: none published for MI308X", \
		"80 CUs: ROCm/mori pull request 514 (an AMD reviewer: MI308X is 80 CU) and aiter's gfx942 tuned-GEMM tables with cu_num 80; 4 XCDs in SPX mode: rocprofiler-compute src/utils/mi_gpu_spec.yaml (mi308x num_xcds spx 4), so 20 CUs per L2; guessed (no MI308X data sheet found): boost clock, HBM, LDS, L2 and full-duty clocks as MI300X's") \
	X("MI325X", EMU_GFX942, 304, 38, 2100, 6000, 64, 4, 1354, 1447, 1464, NULL, \
		"CUs, CUs per XCD, LDS, L2 per XCD: ROCm GPU specifications; HBM 6 TB/s: AMD's MI325X product page (as Vultr's ROCm docs, Hardware Requirements, quote it); boost clock: its 1307.4 TFLOP/s dense f16 peak = 304 CUs x 2048 FLOP/clk x 2.1 GHz; full-duty clocks: the ROCm blog Measuring Max-Achievable FLOPs Part 2, Table 1 (median clocks at 794, 843 and 1519 TFLOP/s)") \
	X("MI355X", EMU_GFX950, 256, 32, 2400, 8000, 160, 4, 1570, 1570, 1570, \
		"fitted: none published for MI355X; make bench-calibrate --fit's MI355X bf16 rows chose 1570 MHz (with launch_us), fp8 taken the same (guessed)", \
		"CUs (256 in 8 XCDs), LDS 160 KiB per CU, L2 4 MiB per XCD: ROCm GPU specifications (rocm.docs.amd.com, reference/gpu-specs); 2400 MHz peak engine clock and 8 TB/s HBM3E: AMD's MI355X product page; full-duty clocks: no published median clock under GEMM was found, so fitted to aiter's measured MI355X GEMMs (the fit set of bench/calibration/aiter_gemms.csv)") \
	X("MI250X", EMU_GFX90A, 110, 110, 1700, 1600, 64, 8, 1700, 1700, 1700, \
		"none published for MI250X, so the boost clock", \
		"one GCD of two: 110 CUs, one 8 MiB L2 per GCD, LDS 64 KiB: ROCm GPU specifications; 1700 MHz peak engine clock and 3.2 TB/s over two GCDs: MI250X data sheet (siliconcat.net's spec page: boost 1700 MHz, 3277 GB/s); full-duty clocks: no published median clock under GEMM was found, so the boost clock (the clock model changes nothing on MI250X)")

typedef struct TmGpu {
	const char *name;
	EmuArch arch;
	double cus, cus_per_l2, boost_mhz, hbm_gbps, lds_kib, l2_mib;
	double full_duty_mhz[TM_NDTYPES]; /* by TmDtype */
	const char *clock_note; /* where the full-duty clocks come from if not AMD's published medians */
	const char *source;
	const double *param_scale; /* NULL, or a factor per TM_PARAMS row (profile --sensitivity's copies) */
} TmGpu;

/* The TM_PARAMS rows: how many, each one's name, and whether its source
 * says it is guessed or fitted. */
enum {
#define X(name, a, b, c, unit, src) TM_PARAM_##name,
	TM_PARAMS(X)
#undef X
	TM_NPARAMS
};
extern const char *const tm_param_name[TM_NPARAMS];
bool tm_param_guessed(int i);

/* The configuration called `name` (any case), or NULL. */
const TmGpu *tm_gpu(const char *name);
/* The arch's default configuration (MI300X for gfx942, MI250X for gfx90a). */
const TmGpu *tm_gpu_default(EmuArch arch);
/* "MI300X, MI308X, MI325X or MI250X", for messages. */
const char *tm_gpu_names(void);

typedef struct TmParams {
#define X(name, a, b, c, unit, src) double name;
	TM_PARAMS(X)
#undef X
	/* the GPU configuration's */
	double cus, cus_per_l2, clock_mhz /* boost */, hbm_gbps, lds_bytes;
} TmParams;

/* The model's error band: the median and worst |modelled / measured - 1|
 * over the held-out check set of bench/calibration/aiter_gemms.csv at
 * this parameter table (make bench-calibrate; docs/cycle-model.md,
 * "Calibration against measured kernels"). Measured on GEMMs of gfx942
 * (MI300X, MI308X) and gfx950 (MI355X); update with the table. */
#define TM_BAND_MEDIAN 0.094
#define TM_BAND_WORST 0.260
/* The band for arch into *median, *worst; false when no measured kernel
 * of that arch checks the model (gfx90a). */
bool tm_band(EmuArch arch, double *median, double *worst);

/* The parameters of g's arch with g's chip figures. */
void tm_gpu_params(const TmGpu *g, TmParams *p);
/* The same for the arch's default GPU. */
void tm_params(EmuArch arch, TmParams *p);
/* Print the tables (name, both columns, unit, source; the GPUs). */
void tm_params_print(FILE *f);

/* ---- trace.c: recording the emulator's events ---- */
typedef struct TmRecorder TmRecorder;
/* Record the workgroups [wg_first, wg_first + wg_count) of a launch whose
 * workgroups have `nwaves` waves. */
TmRecorder *tm_recorder_new(EmuArch arch, uint64_t wg_first, uint64_t wg_count, uint32_t nwaves);
/* Record the workgroups whose linear ids are ids[0..n), ascending (a
 * sample spread over the grid: tm_sample_ids). */
TmRecorder *tm_recorder_new_ids(EmuArch arch, const uint64_t *ids, uint64_t n, uint32_t nwaves);
const EmuHook *tm_recorder_hook(TmRecorder *r);
void tm_recorder_free(TmRecorder *r);
/* The launch's grid in workgroups (x, y, z): what the L2 and Infinity
 * Cache model needs to place workgroups on XCDs (without it the grid is
 * taken as one row). */
void tm_recorder_grid(TmRecorder *r, uint32_t gx, uint32_t gy, uint32_t gz);
/* A probe: records only the global cache lines workgroup `wg` touches (run
 * it with a cap on instructions: a prefix is enough). Attached to a sample
 * as its first workgroup's neighbour along `dim` (0 x, 1 y, 2 z), it tells
 * which of that workgroup's lines its neighbours share (the sample itself
 * serves when it holds the neighbour); the sample takes ownership. */
TmRecorder *tm_probe_new(EmuArch arch, uint64_t wg, uint32_t nwaves);
void tm_recorder_attach_probe(TmRecorder *r, int dim, TmRecorder *probe);
/* Whether the classes need a probe along dim: the sample's first
 * workgroup's neighbour along it (the next one, the previous one at the
 * grid's edge) is *wg and the sample does not hold it. Set the grid
 * first. */
bool tm_recorder_probe_wanted(const TmRecorder *r, int dim, uint64_t *wg);
/* The global lines the sample's first workgroup loads, by the grid dims they depend
 * on: frac[c] for c a bit set of dims (1 x, 2 y, 4 z) is the share of its
 * lines its neighbours along exactly those dims do not touch; known[d]
 * false when nothing told (a dim without a neighbour counts as depended
 * on). Returns the workgroup's distinct global bytes. */
double tm_recorder_classes(const TmRecorder *r, double frac[8], bool known[3]);
/* The round probes: the workgroups that run at once on XCD 0 first (ids
 * 0, X, 2X, ... for X XCDs, as many as its CUs hold at occupancy `occ`,
 * at most TM_ROUND_PROBES) into ids; returns how many (0 when the round
 * is one workgroup: nothing to share). Each runs as a probe capped at
 * TM_ROUND_PROBE_INSTS instructions (the same prefix for each) and is
 * attached with tm_recorder_attach_round (the sample takes ownership):
 * the share of their prefixes' lines that are distinct is what the XCD's
 * L2 misses per round are measured by, whatever order the kernel maps its
 * workgroup ids to tiles in (cache_model, gpu.c). */
enum { TM_ROUND_PROBES = 64, TM_ROUND_PROBE_INSTS = 4000 };
uint64_t tm_round_ids(const TmGpu *g, uint64_t nwg, uint32_t occ, uint64_t *ids);
void tm_recorder_attach_round(TmRecorder *r, TmRecorder *probe);
/* Of the attached round probes' lines, distinct lines over the sum of each
 * probe's (1: nothing shared); -1 without two probes that loaded a line. */
double tm_recorder_round_sharing(const TmRecorder *r, uint32_t *nprobes);

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
	uint64_t mfma_busy_dt[TM_NDTYPES]; /* the same by the MFMAs' data type */
	double mfma_flops;
	uint64_t bytes_l1, bytes_l2, bytes_mall, bytes_hbm, bytes_lds; /* served by each level */
	uint64_t bytes_hbm_write; /* of bytes_hbm, written back (stores' first writes of a line) */
	uint64_t bytes_scratch; /* of those, scratch (private segment) bytes the lanes moved: spills */
	uint64_t lds_conflict_cycles;
	TmPc *pcs;
	size_t npcs;
	/* TmCuConfig.log_order: the issue order, one entry per wave
	 * instruction, workgroup (its place in the sample or stream) x waves
	 * per workgroup + wave */
	uint32_t *order;
	size_t norder;
} TmCuResult;

typedef struct TmCuConfig {
	EmuArch arch;
	double clock_mhz;       /* the engine clock assumed; 0: latency_clock_mhz. The HBM latency
				   beyond L2 is fixed in time, so it takes fewer clocks at a lower clock */
	uint32_t resident;      /* workgroups resident at once (occupancy) */
	double hbm_bytes_per_clk; /* this CU's share of HBM bandwidth */
	double hbm_write_share;   /* the share of HBM bytes written that hbm_bytes_per_clk assumed (-1: not known) */
	double l2_bytes_per_clk;  /* this CU's share of L2 bandwidth */
	double mall_bytes_per_clk; /* this CU's share of the Infinity Cache's bandwidth (0: none) */
	double l2_miss_fraction;  /* of the sample's first touches of a line: the fraction that miss the XCD's L2 */
	double mall_miss_fraction; /* of those: the fraction that miss the Infinity Cache too (HBM) */
	/* the grid's traffic as the L2/MALL model sees it (bytes; for the report) */
	double first_touch_bytes, l2_miss_bytes, hbm_read_bytes;
	uint32_t waves_per_simd_cap; /* by registers, 0: wave_slots */
	const TmGpu *gpu;       /* whose parameters the CU runs with (NULL: the arch's default) */
	bool log_order;         /* keep the issue order (TmCuResult.order) */
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
/* The data type of an MFMA row's sources; an f8f6f4 row's from its
 * operand formats (EmuEvent.mfma_fmt: fp6/fp4 when either is). */
TmDtype tm_mfma_dtype(int op);
TmDtype tm_mfma_dtype_fmt(int op, unsigned mfma_fmt);
/* The matrix peak of a data type on arch, dense FLOP per clock per CU:
 * its fastest MFMA row's FLOPs over its busy clocks (passes x
 * mfma_pass_cycles) on each SIMD; 0 when the arch has no MFMA of it. */
double tm_dtype_peak(EmuArch arch, TmDtype dt);
/* The peak FLOP per clock per CU of the MFMA types the CU ran, weighted
 * by their busy cycles (each type against its own peak); 0 without
 * MFMAs. */
double tm_cu_mfma_peak(EmuArch arch, const TmCuResult *cu);

/* ---- order.c: the emulator's wave order `model` ----
 * A scheduler for EmuPolicy.waves = EMU_WAVES_MODEL: pass tm_order_hook
 * as EmuLaunch.hook and the emulator issues each workgroup's waves in the
 * order this CU model issues them (docs/emulator.md, "The model order").
 * The CU runs the workgroups one after another as the emulator does, with
 * tm_order_config's configuration. After the launch, tm_order_result
 * gives the modeled run (cycles of all workgroups in turn; with log_order
 * the issue order, TmCuResult.order) and tm_order_error the model's
 * message when it stopped the launch. */
typedef struct TmOrder TmOrder;
TmOrder *tm_order_new(EmuArch arch, bool log_order);
const EmuHook *tm_order_hook(TmOrder *o);
/* The model order's CU: the arch's default GPU at its boost clock, one
 * workgroup resident, the HBM, L2 and Infinity Cache bandwidth of one CU
 * when every CU is busy, every first touch of a line missing L2 and the
 * Infinity Cache (the longest waits a load can have). */
void tm_order_config(EmuArch arch, TmCuConfig *c);
const TmCuResult *tm_order_result(TmOrder *o);
const char *tm_order_error(const TmOrder *o);
void tm_order_free(TmOrder *o);

/* ---- source.c: the graph op of each instruction ---- */
typedef struct TmSourceMap {
	size_t n;
	uint64_t *offset;  /* byte offset from the kernel's entry, ascending */
	size_t *line_end;  /* where the instruction's line ends in the text (its '\n' or the end) */
	const char **op;   /* the graph op (interned), or NULL before the first op comment */
} TmSourceMap;
/* Pair the instructions of `kernel` in the compiler's assembly text with
 * the code at its entry (code_len bytes): each instruction's offset and the
 * op its `// NAME` comment names. Returns 0, or -1 when the two do not
 * line up (then nothing is attributed). */
int tm_source_map(EmuArch arch, const uint8_t *code, size_t code_len, const char *text, size_t text_len,
	const char *kernel, TmSourceMap *m);
/* The text with "  // +0xOFFS" after each instruction m pairs (a new
 * string of *len bytes, NUL-terminated; the caller frees it). */
char *tm_source_offsets(const char *text, size_t text_len, const TmSourceMap *m, size_t *len);
/* The op of the instruction at `offset`, or NULL. */
const char *tm_source_op(const TmSourceMap *m, uint64_t offset);
void tm_source_map_free(TmSourceMap *m);

/* ---- gpu.c: occupancy, the clock and the whole GPU ---- */
typedef struct TmOccupancy {
	uint32_t waves_per_wg, by_waves, by_vgprs, by_sgprs, by_lds, wgs_per_cu;
	uint32_t waves_per_simd; /* by slots, VGPRs and SGPRs */
	const char *limit; /* what bounds it */
} TmOccupancy;
void tm_occupancy(const TmGpu *g, const KernelDescriptor *kd, uint32_t lds_bytes, uint32_t waves_per_wg,
	TmOccupancy *o);

/* The clock model (docs/cycle-model.md, "The clock"): a GPU runs at its
 * boost clock while the matrix cores idle and slows toward the median
 * clock AMD measured under dense GEMM of the MFMAs' data type as their
 * duty d (busy clocks over SIMD clocks) reaches 1:
 *   clock = boost - (boost - full) x d^clock_duty_exponent,
 * full the full-duty clocks of the kernel's MFMA types weighted by their
 * busy cycles. */
typedef struct TmClock {
	double mhz;       /* the clock the estimate assumes */
	double boost_mhz; /* the GPU's peak engine clock */
	double full_mhz;  /* at full duty, for this kernel's MFMA mix (boost without MFMAs) */
	double duty;      /* matrix-core busy clocks over SIMDs x clocks, of the simulated CU */
	int dtype;        /* the TmDtype with the most MFMA busy cycles, -1: no MFMA */
	bool mixed;       /* MFMAs of more than one type */
	bool forced;      /* mhz was given (--clock), not modelled */
} TmClock;
/* The clock the model gives a CU that did `cu`. */
void tm_clock(const TmGpu *g, const TmCuResult *cu, TmClock *c);

/* The achievable share of HBM's peak for a kernel whose HBM traffic is
 * `write_share` writes (docs/cycle-model.md, "HBM by access pattern"):
 * hbm_read_efficiency without writes, rising linearly to hbm_efficiency
 * at a third of writes and above (BabelStream's dot, triad and copy on
 * MI300X); a negative share (not known) gives hbm_efficiency. */
double tm_hbm_efficiency(const TmParams *p, double write_share);

/* The tail: a grid's last round when it leaves CUs idle. The busiest CU
 * runs `wgs` workgroups in its last round while `cus` CUs have work, so
 * HBM and the Infinity Cache are shared by fewer CUs (the XCD's L2 share,
 * a measured per-CU figure, does not grow); cycles_saved is what running
 * them at those shares saved against the full rounds' steady interval. */
typedef struct TmTail {
	uint64_t wgs, cus;
	double hbm_bytes_per_clk, mall_bytes_per_clk; /* the CU's shares in the last round */
	double cycles_saved;
} TmTail;
/* The tail of a grid of nwg at occupancy occ (wgs 0: none, every CU busy
 * in every round). */
void tm_tail(const TmGpu *g, uint64_t nwg, uint32_t occ, TmTail *t);

typedef struct TmEstimate {
	uint64_t grid_wgs, wgs_per_cu, active_cus;
	double clock_mhz;     /* the clock of cu_cycles */
	double cu_cycles;     /* per CU, extrapolated to its share of the grid */
	double seconds, tflops, gbps_hbm; /* tflops: the MFMAs' work (2*M*N*K*blocks per instruction) */
	double launch_seconds; /* of seconds: the dispatch's overhead (launch_us) */
	double matrix_util;   /* MFMA busy / (SIMDs * cycles) */
	TmTail tail;          /* the last round's (tm_profile; zero from tm_estimate) */
} TmEstimate;
/* How many workgroups to simulate for a grid of `nwg` with occupancy occ. */
uint64_t tm_sample_size(const TmGpu *g, uint64_t nwg, uint32_t occ);
/* Which n workgroups of the grid (x, y, z) to simulate, spread over each
 * dim (stratified; all of them when n covers the grid) into ids,
 * ascending; returns how many (min(n, grid)). */
uint64_t tm_sample_ids(const uint32_t grid[3], uint64_t n, uint64_t *ids);
/* Scale a CU simulation of `sample` workgroups, run with configuration c,
 * to the grid. */
void tm_estimate(const TmGpu *g, const TmCuConfig *c, const TmCuResult *cu, uint64_t nwg, const TmOccupancy *o,
	TmEstimate *e);
/* The CU configuration for a grid of nwg workgroups at `clock_mhz` (0: the
 * boost clock): bandwidth shares and the L2 miss fraction from the
 * recorded traffic and the bytes of the buffers the kernel may read (its
 * footprint, which bounds the grid's distinct lines; 0: estimate it from
 * the sample). */
void tm_cu_config(const TmGpu *g, const TmRecorder *r, uint64_t nwg, const TmOccupancy *o, double footprint_bytes,
	double clock_mhz, TmCuConfig *c);
/* Set c's bandwidth shares again (after changing its clock or
 * hbm_write_share) for a grid of nwg. */
void tm_cu_config_shares(const TmGpu *g, uint64_t nwg, TmCuConfig *c);
/* Simulate the recorded sample of a grid of nwg workgroups and scale it:
 * at `clock_mhz` when it is positive, else at the clock model's clock for
 * what the CU does, found by simulating again at the clock the previous
 * run implies (the HBM share per clock depends on the clock) until it
 * moves less than 0.5% (at most 4 runs). Returns 0, or -1 with a message
 * (tm_simulate's). */
int tm_profile(const TmGpu *g, const TmRecorder *r, uint64_t nwg, const TmOccupancy *o, double footprint_bytes,
	double clock_mhz, TmCuConfig *c, TmCuResult *cu, TmClock *clk, TmEstimate *e, char *err, size_t err_len);

#endif
