/* api.h — the library's private half: the handles of include/wavecc.h and
 * the helpers its files share (driver/wavecc.c is the public surface; the
 * api_*.c files below it). Nothing here is exported from libwavecc.so (the
 * version script exports wavecc_* only). */
#ifndef WAVECC_API_H
#define WAVECC_API_H

#include "../include/wavecc.h"
#include "driver.h"

struct wavecc_kernel {
	Kernel *k;
	int ndefs;
	const char *def_name[MAX_DEFS];
	int64_t def_val[MAX_DEFS];
	char *def_text[MAX_DEFS]; /* "NAME=VALUE" for launch_resolve */
	/* the parameters under the current bindings (api_params), rebuilt
	 * after a binding changes; their text in params_arena */
	bool params_valid;
	Arena params_arena;
	wavecc_param_info *params;
	size_t nparams;
};

struct wavecc_compiled {
	Buf asm_text, code_object, launch_json;
	char *stats;
	char *dump; /* compile_options.dump_mir, dump_plan ("" when not asked) */
	int nbind;
	char *bind[MAX_DEFS];
	/* the parameters when it was compiled (their text in arena) */
	Arena arena;
	wavecc_param_info *params;
	size_t nparams;
};

/* ---- api_params.c ---- */
/* The parameters of g under the bindings (n of them), in kernarg order,
 * into *out (an array in a, text in a too): 0, or -1 after reporting a
 * bad binding through d. */
int api_params(const Kernel *g, int ndefs, const char *const *def_name, const int64_t *def_val, Arena *a,
	wavecc_param_info **out, size_t *n, Diag *d);
/* Copy p into the caller's info, as much as info->struct_size holds;
 * WAVECC_EARG (with *error) when it is smaller than the first version. */
wavecc_status api_param_out(const wavecc_param_info *p, wavecc_param_info *info, char **error);
/* The parameter called name among ps, or NULL. */
const wavecc_param_info *api_param_find(const wavecc_param_info *ps, size_t n, const char *name);
/* A scalar's or size's value held in a wavecc_buffer entry (the dtype's
 * bytes, little endian) as "NAME=VALUE" text a launch descriptor's -D
 * reads back exactly, into out; false when e's size is not the dtype's. */
bool api_value_text(const wavecc_buffer *e, DType t, char *out, size_t len);

#endif
