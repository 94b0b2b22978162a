/* api_launch.c — a launch's geometry for given symbol values
 * (wavecc_launch_evaluate): the descriptor parsed, its grid evaluated with
 * the values (launch_resolve_grid: the buffers' shapes and the scalars'
 * values are not needed), the LDS split between the code object's static
 * part and the dynamic part the launch passes (launch_dynamic_lds, the
 * rule `wavecc run` follows), and the kernarg segment as run.c sizes it
 * (the descriptor's, grown to what the code object declares). */
#include <string.h>

#include "../loader/codeobj/codeobj.h"
#include "../loader/runtime/launch.h"
#include "api.h"

/* What an evaluation holds until the call ends. */
typedef struct Eval {
	LaunchDesc ld;
	CodeObject co;
	bool have_co;
	const char **defs;
	char **texts;
	size_t ntexts;
	Buf msg;
} Eval;

static void eval_free(void *p)
{
	Eval *e = p;
	launch_free(&e->ld);
	if (e->have_co)
		codeobj_free(&e->co);
	for (size_t i = 0; i < e->ntexts; i++)
		free(e->texts[i]);
	free(e->texts);
	free(e->defs);
	buf_free(&e->msg);
	free(e);
}

/* The first version's size: the struct as 0.3 declared it. */
#define LAUNCH_INFO_SIZE_0_3 (offsetof(wavecc_launch_info, kernarg_size) + sizeof(uint32_t))

wavecc_status api_launch_evaluate(ApiCall *call, const void *code, size_t code_len, const char *launch,
	size_t launch_len, const char *const *bindings, size_t nbindings, const wavecc_define *values, size_t n,
	wavecc_launch_info *info)
{
	if (!launch || (n && !values) || !info || (code_len && !code)) {
		api_error(call, "wavecc_launch_evaluate: a launch descriptor and an info are needed");
		return WAVECC_EARG;
	}
	if (info->struct_size < LAUNCH_INFO_SIZE_0_3) {
		api_error(call, "wavecc_launch_info.struct_size is %zu: set it to sizeof(wavecc_launch_info)",
			info->struct_size);
		return WAVECC_EARG;
	}
	Eval *e = xcalloc(1, sizeof *e);
	api_defer(call, eval_free, e);
	e->defs = xcalloc(nbindings + n + 1, sizeof *e->defs);
	e->texts = xcalloc(n + 1, sizeof *e->texts);
	size_t ndefs = 0;
	for (size_t i = 0; i < nbindings; i++)
		e->defs[ndefs++] = bindings[i];
	for (size_t i = 0; i < n; i++) {
		if (!values[i].name) {
			api_error(call, "wavecc_launch_evaluate: value %zu has no name", i);
			return WAVECC_EARG;
		}
		Buf b = {0};
		buf_printf(&b, "%s=%lld", values[i].name, (long long)values[i].value);
		e->defs[ndefs++] = e->texts[e->ntexts++] = xstrdup(buf_cstr(&b));
		buf_free(&b);
	}
	if (launch_parse(launch, launch_len, "<launch descriptor>", &e->ld, &call->d) != 0 ||
		launch_resolve_grid(&e->ld, (int)ndefs, e->defs, &call->d) != 0)
		return WAVECC_EINPUT;
	const LaunchDesc *d = &e->ld;
	wavecc_launch_info r = {.struct_size = sizeof r, .kernarg_size = d->kernarg_size};
	for (int g = 0; g < 3; g++) {
		r.grid[g] = (uint32_t)d->grid[g].value;
		r.workgroup_size[g] = d->workgroup_size[g];
	}
	if (code) {
		e->have_co = true;
		if (codeobj_read(code, code_len, "<code object>", &e->co, &e->msg) != 0) {
			launch_msg(&e->msg, d->code_object_loc, "code_object", "the code object does not read");
			api_text(call, buf_cstr(&e->msg));
			return WAVECC_EINPUT;
		}
		const CodeKernel *k = codeobj_kernel(&e->co, d->kernel);
		if (!k) {
			launch_msg(&e->msg, d->kernel_loc, "kernel", "no kernel '%s' in the code object", d->kernel);
			api_text(call, buf_cstr(&e->msg));
			return WAVECC_EINPUT;
		}
		int64_t dyn = launch_dynamic_lds(d, k->kd.group_segment_fixed_size, &e->msg);
		if (dyn < 0) {
			api_text(call, buf_cstr(&e->msg));
			return WAVECC_EINPUT;
		}
		r.static_lds_bytes = k->kd.group_segment_fixed_size;
		r.dynamic_lds_bytes = (uint32_t)dyn;
		r.kernarg_size = MAX(r.kernarg_size, k->kd.kernarg_size);
		if (k->meta && k->meta->kernarg_segment_size > 0)
			r.kernarg_size = MAX(r.kernarg_size, (uint32_t)k->meta->kernarg_segment_size);
	} else if (d->static_lds >= 0) {
		r.static_lds_bytes = (uint32_t)d->static_lds;
		r.dynamic_lds_bytes = d->dynamic_lds >= 0 ? (uint32_t)d->dynamic_lds : d->lds_bytes - (uint32_t)d->static_lds;
	} else if (d->dynamic_lds >= 0) {
		api_error(call, "wavecc_launch_evaluate: the descriptor gives dynamic_lds_bytes but not the static LDS: "
				"give the code object");
		return WAVECC_EINPUT;
	} else {
		r.static_lds_bytes = d->lds_bytes;
	}
	size_t size = MIN(info->struct_size, sizeof r);
	memcpy((char *)info + sizeof info->struct_size, (const char *)&r + sizeof r.struct_size,
		size - sizeof r.struct_size);
	return WAVECC_OK;
}
