/* emu_timing.c — record a harness run and replay it on the cycle model
 * (emu_timing.h). */
#include "emu_timing.h"

void h_simulate(Harness *h, EmuArch arch, uint32_t nwg, const TmCuConfig *c, TmCuResult *res)
{
	uint32_t items = h->l.wg_size[0] * h->l.wg_size[1] * h->l.wg_size[2];
	TmRecorder *r = tm_recorder_new(arch, 0, nwg, (items + 63) / 64);
	h->l.arch = arch;
	h->l.hook = tm_recorder_hook(r);
	h->l.grid[0] = nwg;
	ck_assert_msg(h_run(h) == 0, "%s", h->err);
	char err[256];
	ck_assert_msg(tm_simulate(r, c, res, err, sizeof err) == 0, "%s", err);
	tm_recorder_free(r);
}
