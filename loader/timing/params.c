/* params.c — the timing model's parameters: the compute unit's for gfx942
 * and gfx90a (one row of TM_PARAMS each, timing.h) and the GPU
 * configurations (TM_GPUS: CUs, clocks, HBM, LDS, L2), each with its
 * source; `wavecc profile --params` prints them, as does
 * docs/cycle-model.md. */
#include <string.h>
#include <strings.h>

#include "timing.h"

const char *const tm_dtype_name[TM_NDTYPES] = {
#define X(e, s) s,
	TM_DTYPES(X)
#undef X
};

/* i8 and fp6/fp4 MFMAs take fp8's full-duty clock, f32, f64 and xf32
 * ones f16's (guessed). */
static const TmGpu gpus[] = {
#define X(name, arch, cus, per_l2, boost, hbm, lds, l2, f16, bf16, fp8, note, src) \
	{name, arch, cus, per_l2, boost, hbm, lds, l2, {f16, bf16, fp8, fp8, f16, f16, f16, fp8}, note, src, NULL},
	TM_GPUS(X)
#undef X
};
enum { NGPUS = sizeof gpus / sizeof gpus[0] };

const TmGpu *tm_gpu(const char *name)
{
	for (int i = 0; i < NGPUS; i++)
		if (strcasecmp(gpus[i].name, name) == 0)
			return &gpus[i];
	return NULL;
}

const TmGpu *tm_gpu_default(EmuArch arch)
{
	for (int i = 0; i < NGPUS; i++)
		if (gpus[i].arch == arch)
			return &gpus[i];
	return &gpus[0];
}

const char *tm_gpu_names(void) { return "MI300X, MI308X, MI325X, MI355X or MI250X"; }

const char *const tm_param_name[TM_NPARAMS] = {
#define X(name, a, b, c, unit, src) #name,
	TM_PARAMS(X)
#undef X
};

static const char *const param_src[TM_NPARAMS] = {
#define X(name, a, b, c, unit, src) src,
	TM_PARAMS(X)
#undef X
};

bool tm_param_guessed(int i)
{
	return i >= 0 && i < TM_NPARAMS && (strstr(param_src[i], "guessed") || strncmp(param_src[i], "fitted", 6) == 0);
}

void tm_gpu_params(const TmGpu *g, TmParams *p)
{
#define X(name, a, b, c, unit, src) \
	p->name = (g->arch == EMU_GFX90A ? (double)(b) : g->arch == EMU_GFX950 ? (double)(c) : (double)(a)) * \
		  (g->param_scale ? g->param_scale[TM_PARAM_##name] : 1);
	TM_PARAMS(X)
#undef X
	p->cus = g->cus;
	p->cus_per_l2 = g->cus_per_l2;
	p->clock_mhz = g->boost_mhz;
	p->hbm_gbps = g->hbm_gbps;
	p->lds_bytes = g->lds_kib * 1024;
}

void tm_params(EmuArch arch, TmParams *p) { tm_gpu_params(tm_gpu_default(arch), p); }

void tm_params_print(FILE *f)
{
	fprintf(f, "%-26s %10s %10s %10s  %-14s %s\n", "parameter", "gfx942", "gfx90a", "gfx950", "unit", "source");
#define X(name, a, b, c, unit, src) \
	fprintf(f, "%-26s %10g %10g %10g  %-14s %s\n", #name, (double)(a), (double)(b), (double)(c), unit, src);
	TM_PARAMS(X)
#undef X
	fprintf(f, "\nGPU configurations (--gpu; the first of an arch is its default):\n");
	fprintf(f, "%-7s %-7s %5s %7s %6s %6s %4s %5s  %-22s %s\n", "gpu", "arch", "CUs", "CUs/L2", "boost", "HBM",
		"LDS", "L2", "full-duty MHz", "source");
	fprintf(f, "%-7s %-7s %5s %7s %6s %6s %4s %5s  %-22s\n", "", "", "", "", "MHz", "GB/s", "KiB", "MiB",
		"f16 bf16 fp8");
	for (int i = 0; i < NGPUS; i++) {
		const TmGpu *g = &gpus[i];
		fprintf(f, "%-7s %-7s %5g %7g %6g %6g %4g %5g  %4g %4g %4g%8s %s\n", g->name,
			g->arch == EMU_GFX90A ? "gfx90a" : g->arch == EMU_GFX950 ? "gfx950" : "gfx942", g->cus, g->cus_per_l2, g->boost_mhz, g->hbm_gbps,
			g->lds_kib, g->l2_mib, g->full_duty_mhz[TM_DT_F16], g->full_duty_mhz[TM_DT_BF16],
			g->full_duty_mhz[TM_DT_FP8], "", g->source);
	}
	fprintf(f, "\nclock model: clock = boost - (boost - full) x duty^clock_duty_exponent, full the full-duty clocks of "
		   "the kernel's MFMA data types weighted by their busy cycles (i8 as fp8, f32/xf32/f64 as f16: guessed); "
		   "the full-duty clocks are AMD's median clocks under its max-achievable GEMMs (ROCm blog, Measuring "
		   "Max-Achievable FLOPs - Part 2, Table 1), the shape between boost and them is guessed\n");
}

bool tm_band(EmuArch arch, double *median, double *worst)
{
	*median = TM_BAND_MEDIAN;
	*worst = TM_BAND_WORST;
	return arch != EMU_GFX90A;
}
