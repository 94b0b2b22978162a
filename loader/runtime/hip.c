/* hip.c — the HIP backend: run a RunPlan on an AMD GPU through the ROCm HIP
 * runtime.
 *
 * The runtime is opened with dlopen at the first HIP launch, never linked:
 * wavecc builds and runs (assembler, emulator) on machines without ROCm. The
 * library is $WAVECC_HIP_LIB if set, else libamdhip64.so, libamdhip64.so.6,
 * libamdhip64.so.5, /opt/rocm/lib/libamdhip64.so. Function types come from
 * the installed HIP headers when the compiler finds them (libamdhip64-dev;
 * they compile as C11 with __HIP_PLATFORM_AMD__), so a prototype mismatch is
 * a compile error; without the headers the few declarations below are used.
 *
 * Sequence: hipInit, hipGetDeviceCount (0 devices: a clear "no AMD GPU"
 * message), hipModuleLoadData on the code object bytes,
 * hipModuleGetFunction, hipMalloc + hipMemcpy per buffer, the kernarg
 * segment passed whole with HIP_LAUNCH_PARAM_BUFFER_POINTER to
 * hipModuleLaunchKernel (grid in workgroups), hipDeviceSynchronize, copies
 * back, frees. A co-resident kernel (the descriptor's co_resident: its
 * workgroups wait for each other) goes through
 * hipModuleLaunchCooperativeKernel instead, which launches the grid only
 * if all of it can be resident at once and fails otherwise; it takes the
 * arguments as one pointer each (kernelParams, in the metadata's order,
 * which is the kernarg offsets' order), pointing into the same segment.
 * A kernel that spills to scratch asks nothing more of this
 * path: the runtime sizes the dispatch's scratch from the code object
 * (the descriptor's and the metadata's private_segment_fixed_size), and
 * the descriptor enables the private segment (docs/abi.md, "Scratch").
 * Nothing here has run on a GPU: on our machines the path ends at the
 * device check. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "../codeobj/codeobj.h"
#include "launch.h"

#if defined(__has_include)
#if __has_include(<hip/hip_runtime_api.h>)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#define WAVECC_HIP_HEADERS 1
#endif
#endif

#ifdef WAVECC_HIP_HEADERS
/* The real prototypes, without referencing the symbols. */
typedef __typeof__(&hipInit) hipInit_fn;
typedef __typeof__(&hipGetDeviceCount) hipGetDeviceCount_fn;
typedef __typeof__(&hipGetErrorString) hipGetErrorString_fn;
typedef __typeof__(&hipModuleLoadData) hipModuleLoadData_fn;
typedef __typeof__(&hipModuleUnload) hipModuleUnload_fn;
typedef __typeof__(&hipModuleGetFunction) hipModuleGetFunction_fn;
typedef __typeof__(&hipMalloc) hipMalloc_fn;
typedef __typeof__(&hipFree) hipFree_fn;
typedef __typeof__(&hipMemcpy) hipMemcpy_fn;
typedef __typeof__(&hipModuleLaunchKernel) hipModuleLaunchKernel_fn;
typedef __typeof__(&hipDeviceSynchronize) hipDeviceSynchronize_fn;
#define H2D hipMemcpyHostToDevice
#define D2H hipMemcpyDeviceToHost
#else
/* Declared by hand from HIP's hip_runtime_api.h (ROCm 5/6 ABI). */
typedef int hipError_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
enum { H2D = 1, D2H = 2 };
typedef hipError_t (*hipInit_fn)(unsigned int);
typedef hipError_t (*hipGetDeviceCount_fn)(int *);
typedef const char *(*hipGetErrorString_fn)(hipError_t);
typedef hipError_t (*hipModuleLoadData_fn)(hipModule_t *, const void *);
typedef hipError_t (*hipModuleUnload_fn)(hipModule_t);
typedef hipError_t (*hipModuleGetFunction_fn)(hipFunction_t *, hipModule_t, const char *);
typedef hipError_t (*hipMalloc_fn)(void **, size_t);
typedef hipError_t (*hipFree_fn)(void *);
typedef hipError_t (*hipMemcpy_fn)(void *, const void *, size_t, int);
typedef hipError_t (*hipModuleLaunchKernel_fn)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned,
					       unsigned, unsigned, hipStream_t, void **, void **);
typedef hipError_t (*hipDeviceSynchronize_fn)(void);
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)
#endif
/* hipModuleLaunchCooperativeKernel (HIP 6): looked up when a co-resident
 * kernel launches, so older runtimes still run the others. Declared by hand
 * in both cases (headers older than it lack it). */
typedef hipError_t (*hipModuleLaunchCooperativeKernel_fn)(hipFunction_t, unsigned, unsigned, unsigned, unsigned,
							  unsigned, unsigned, unsigned, hipStream_t, void **);

/* X-macro of the entry points: one row each, used for the table and dlsym. */
#define HIP_FUNCS(X) \
	X(hipInit) \
	X(hipGetDeviceCount) \
	X(hipGetErrorString) \
	X(hipModuleLoadData) \
	X(hipModuleUnload) \
	X(hipModuleGetFunction) \
	X(hipMalloc) \
	X(hipFree) \
	X(hipMemcpy) \
	X(hipModuleLaunchKernel) \
	X(hipDeviceSynchronize)

typedef struct {
#define X(f) f##_fn f;
	HIP_FUNCS(X)
#undef X
} HipApi;

static void *open_runtime(const char **which, Buf *msg)
{
	const char *env = getenv("WAVECC_HIP_LIB");
	static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5",
					    "/opt/rocm/lib/libamdhip64.so"};
	if (env && *env) {
		void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			buf_error(msg, "cannot load the HIP runtime %s ($WAVECC_HIP_LIB): %s", env, dlerror());
		*which = env;
		return h;
	}
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h) {
			*which = names[i];
			return h;
		}
	}
	buf_error(msg, "cannot load the HIP runtime: tried libamdhip64.so, libamdhip64.so.6, libamdhip64.so.5, "
			"/opt/rocm/lib/libamdhip64.so (install ROCm's HIP runtime, or use --backend emu)");
	return NULL;
}

#define HIP_CHECK(call, what) \
	do { \
		hipError_t e_ = (call); \
		if (e_ != 0) { \
			buf_error(msg, "HIP: %s failed: %s (error %d)", what, api.hipGetErrorString(e_), (int)e_); \
			goto out; \
		} \
	} while (0)

int hip_run(RunPlan *p, bool verbose, Buf *msg)
{
	const char *which = NULL;
	void *lib = open_runtime(&which, msg);
	if (!lib)
		return -1;
	HipApi api = {0};
	int r = -1;
	hipModule_t mod = NULL;
	void **dev = xcalloc(p->nbufs + 1, sizeof(void *)), **params = NULL;
#define X(f) \
	*(void **)&api.f = dlsym(lib, #f); \
	if (!api.f) { \
		buf_error(msg, "the HIP runtime %s has no %s", which, #f); \
		goto out; \
	}
	HIP_FUNCS(X)
#undef X
	if (verbose)
		fprintf(stderr, "wavecc: HIP runtime %s loaded\n", which);
	hipError_t e = api.hipInit(0);
	int ndev = 0;
	if (e == 0)
		e = api.hipGetDeviceCount(&ndev);
	if (e != 0 || ndev == 0) {
		buf_error(msg, "the HIP runtime (%s) sees no AMD GPU%s%s%s; use --backend emu to run on the emulator",
			   which, e ? " (" : "", e ? api.hipGetErrorString(e) : "", e ? ")" : "");
		goto out;
	}
	const CodeKernel *k = p->kernel;
	HIP_CHECK(api.hipModuleLoadData(&mod, p->code_object), "hipModuleLoadData");
	hipFunction_t fn;
	HIP_CHECK(api.hipModuleGetFunction(&fn, mod, k->name), "hipModuleGetFunction");
	for (size_t i = 0; i < p->nbufs; i++) {
		RunBuffer *b = &p->bufs[i];
		size_t n = b->arg->nbytes ? b->arg->nbytes : 1;
		HIP_CHECK(api.hipMalloc(&dev[i], n), "hipMalloc");
		HIP_CHECK(api.hipMemcpy(dev[i], b->host, n, H2D), "hipMemcpy to the device");
		b->device = (uint64_t)(uintptr_t)dev[i];
	}
	run_patch_pointers(p);
	size_t ksize = p->kernarg_len;
	void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, p->kernarg, HIP_LAUNCH_PARAM_BUFFER_SIZE, &ksize,
			 HIP_LAUNCH_PARAM_END};
	const LaunchDesc *d = p->d;
	/* an empty grid (a runtime size of 0) launches nothing; HIP would
	 * call it an invalid configuration */
	if (p->grid[0] && p->grid[1] && p->grid[2] && d->co_resident) {
		hipModuleLaunchCooperativeKernel_fn coop;
		*(void **)&coop = dlsym(lib, "hipModuleLaunchCooperativeKernel");
		if (!coop) {
			buf_error(msg, "the HIP runtime %s has no hipModuleLaunchCooperativeKernel, which a co-resident "
				  "kernel needs (its workgroups wait for each other)", which);
			goto out;
		}
		params = xcalloc(d->nargs + 1, sizeof *params);
		size_t np = 0;
		for (uint32_t off = 0; off < p->kernarg_len; off++) /* by offset: the metadata's order */
			for (size_t i = 0; i < d->nargs; i++)
				if (d->args[i].offset == off)
					params[np++] = p->kernarg + off;
		HIP_CHECK(coop(fn, p->grid[0], p->grid[1], p->grid[2], d->workgroup_size[0], d->workgroup_size[1],
			       d->workgroup_size[2], p->dynamic_lds, NULL, params),
			  "hipModuleLaunchCooperativeKernel (the grid must fit the GPU at once)");
	} else if (p->grid[0] && p->grid[1] && p->grid[2])
		HIP_CHECK(api.hipModuleLaunchKernel(fn, p->grid[0], p->grid[1], p->grid[2], d->workgroup_size[0],
					    d->workgroup_size[1], d->workgroup_size[2], p->dynamic_lds, NULL, NULL,
					    extra),
		  "hipModuleLaunchKernel");
	HIP_CHECK(api.hipDeviceSynchronize(), "the kernel (hipDeviceSynchronize)");
	for (size_t i = 0; i < p->nbufs; i++) {
		RunBuffer *b = &p->bufs[i];
		if (b->arg->access & 2 /* ACC_WRITE */)
			HIP_CHECK(api.hipMemcpy(b->host, dev[i], b->arg->nbytes, D2H), "hipMemcpy from the device");
	}
	r = 0;
out:
	for (size_t i = 0; i < p->nbufs; i++)
		if (dev[i])
			api.hipFree(dev[i]);
	if (mod)
		api.hipModuleUnload(mod);
	free(dev);
	free(params);
	/* The runtime is not dlclose'd: it keeps threads and atexit handlers. */
	return r;
}
