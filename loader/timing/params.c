/* params.c — the timing model's parameters for gfx942 and gfx90a: one row of
 * TM_PARAMS (timing.h) each, with its source; the table is printed by
 * `wavecc profile --params` and in docs/cycle-model.md. */
#include "timing.h"

void tm_params(EmuArch arch, TmParams *p)
{
	bool g90a = arch == EMU_GFX90A;
#define X(name, a, b, unit, src) p->name = g90a ? (double)(b) : (double)(a);
	TM_PARAMS(X)
#undef X
}

void tm_params_print(FILE *f)
{
	fprintf(f, "%-26s %10s %10s  %-14s %s\n", "parameter", "gfx942", "gfx90a", "unit", "source");
#define X(name, a, b, unit, src) fprintf(f, "%-26s %10g %10g  %-14s %s\n", #name, (double)(a), (double)(b), unit, src);
	TM_PARAMS(X)
#undef X
}
