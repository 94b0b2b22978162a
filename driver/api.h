/* api.h — the library's private half: the handles of include/wavecc.h and
 * the helpers its files share (driver/wavecc.c is the public surface; the
 * api_*.c files below it). Nothing here is exported from libwavecc.so (the
 * version script exports wavecc_* only). */
#ifndef WAVECC_API_H
#define WAVECC_API_H

#include <pthread.h>

#include "../include/wavecc.h"
#include "driver.h"

/* Diagnostics as data: the entries and their text (in the arena). */
typedef struct ApiDiags {
	Arena arena;
	Vec(wavecc_diagnostic) v;
} ApiDiags;

struct wavecc_kernel {
	Kernel *k;
	char *source; /* the JSON as given (the compile cache's key) */
	size_t source_len;
	pthread_mutex_t lock; /* held by the call using the handle (api_lock_all) */
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
	ApiDiags diags; /* the compile's warnings */
};

/* ---- api_call.c: one public call ----
 * Each public function that can fail runs as one ApiCall: its messages
 * are printed into a memory stream (the `error` text) and collected as
 * data (the thread's diagnostics), and a die() inside returns to it
 * (DieCatch) instead of aborting. The call lives on the heap so that it
 * is well defined after the longjmp. Pattern:
 *
 *	ApiCall *call = api_begin("wavecc_compile", error);
 *	if (setjmp(call->dc.jb) != 0)
 *		return api_internal(call), NULL;
 *	... work through call: call->d, api_error, api_defer ...
 *	api_end(call, status);
 *
 * Whatever the work must release even if it dies is given to api_defer
 * (heap objects only: the work's stack frames are gone after a die), and
 * released at the end either way, last deferred first. */
enum { API_MAX_DEFER = 16 };
/* Where a Diag's messages go as data: a list, with the kernel that paths
 * and ops are recognised in (may be NULL). */
typedef struct ApiSink {
	ApiDiags *list;
	const Kernel *k;
} ApiSink;
typedef struct ApiCall {
	DieCatch dc;
	const char *fn;   /* the public function, for messages */
	char **error;
	Diag d;           /* prints into text, collects into diags */
	FILE *f;
	char *text;
	size_t len;
	ApiDiags diags;
	ApiSink sink;     /* into diags; sink.k: the kernel of the call (set by the work) */
	bool quiet;       /* leave the thread's list as it is (a call without `error`) */
	struct {
		void (*fn)(void *);
		void *p;
	} defer[API_MAX_DEFER];
	int ndefer;
	int nlocks, caplocks; /* kernel handles locked (api_lock), as many as a call names */
	wavecc_kernel **locks;
} ApiCall;

ApiCall *api_begin(const char *fn, char **error);
/* End the call with status st: run the deferred, unlock, give the text to
 * *error unless st is WAVECC_OK, the diagnostics to the thread; st. */
wavecc_status api_end(ApiCall *c, wavecc_status st);
/* The end after a die() (c->dc holds it): the same, with the internal
 * error reported; WAVECC_EINTERNAL. */
wavecc_status api_internal(ApiCall *c);
/* A message about the call itself (a bad argument): no location. */
void api_error(ApiCall *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Messages from the runtime as text lines "[FILE:LINE:COL: ][PATH: ]msg",
 * reported as errors of that form. */
void api_text(ApiCall *c, const char *text);
/* fn(p) at the end of the call, whatever happens. */
void api_defer(ApiCall *c, void (*fn)(void *), void *p);
/* Send d's messages to s (and s's list) as data; d prints nowhere that
 * matters (a memory stream the call releases). */
void api_diag_to(ApiCall *c, Diag *d, ApiSink *s);
/* The text of a list, one message a line, malloc'd. */
char *api_diags_text(const ApiDiags *list);
/* Append every entry of from to c's list. */
void api_diags_append(ApiCall *c, const ApiDiags *from);
/* Lock handle k until the end of the call (once per call however often
 * asked); handles are locked in address order by api_lock_all. */
void api_lock_all(ApiCall *c, wavecc_kernel *const *ks, size_t n);
/* d's copy (text and all) into to (emptied first). */
void api_diags_copy(ApiDiags *to, const ApiDiags *from);
void api_diags_free(ApiDiags *d);
/* Diagnostic i of list (n of them) into the caller's out, as much as its
 * struct_size holds. */
wavecc_status api_diag_out(const ApiDiags *list, size_t i, wavecc_diagnostic *out);
/* The calling thread's list. */
const ApiDiags *api_last(void);

/* ---- api_launch.c ---- */
/* wavecc_launch_evaluate's work: bindings ("NAME=VALUE", first) and values
 * bind the descriptor's symbols; code may be NULL. */
wavecc_status api_launch_evaluate(ApiCall *call, const void *code, size_t code_len, const char *launch,
	size_t launch_len, const char *const *bindings, size_t nbindings, const wavecc_define *values, size_t n,
	wavecc_launch_info *info);

/* ---- api_cache.c: the compile cache ---- */
/* The cache folder o asks for (or $WAVECC_CACHE_DIR), NULL for none. */
const char *api_cache_dir(const wavecc_compile_options *o);
/* Everything a compile of k under co depends on, appended to key. */
void api_cache_key(Buf *key, const wavecc_kernel *k, const CompileOptions *co);
/* The stored result for key (its params not yet set), or NULL. */
wavecc_compiled *api_cache_load(const char *dir, const Buf *key);
/* Store c under key; false when the folder cannot be written (the
 * compile stands; the cache only missed a store). */
bool api_cache_store(const char *dir, const Buf *key, const wavecc_compiled *c);

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
