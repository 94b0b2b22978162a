/* run.c — run one kernel from a resolved launch descriptor (launch.h).
 *
 * Steps: read the code object and find the kernel; check the descriptor
 * against it (arch, workgroup size, LDS; each message located at the
 * descriptor's key, FILE:LINE:COL and JSON path); allocate each buffer and fill it from
 * --in (dtype and shape checked), else with seeded random values (--random)
 * for buffers the kernel reads, else zeros; build the kernarg segment
 * (scalars, then buffer pointers once the backend has placed the buffers,
 * then the code object v5 hidden arguments the metadata asks for); launch on
 * the emulator or through HIP; write the --out buffers as .npy.
 *
 * Random values are reproducible from the seed (splitmix64): floats are
 * uniform in [-1, 1) then rounded to the dtype; signed integers in [-8, 8),
 * unsigned in [0, 16) — small, so sums and products in test kernels stay
 * exact in every dtype. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../codeobj/codeobj.h"
#include "../emu/emu.h"
#include "../timing/timing.h"
#include "launch.h"

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill_random(RunBuffer *b, uint64_t seed, size_t index)
{
	uint64_t s = seed ^ (0x5851f42d4c957f2dull * (index + 1));
	DType t = b->arg->dtype;
	for (uint64_t i = 0; i < b->arg->count; i++) {
		uint64_t r = splitmix64(&s);
		double v;
		if (dtype_is_float(t))
			v = (double)(r >> 11) / 4503599627370496.0 - 1.0; /* 2^52: [-1, 1) */
		else if (dtype_info[t].cls == DTC_INT)
			v = (double)(int)(r % 16) - 8;
		else
			v = (double)(r % 16);
		dtype_store(t, b->host, i, v);
	}
}

/* Split "NAME=FILE"; NULL name on error. */
static const char *split_pair(const char *s, char *name, size_t n)
{
	const char *eq = strchr(s, '=');
	if (!eq || eq == s || !eq[1] || (size_t)(eq - s) >= n)
		return NULL;
	memcpy(name, s, (size_t)(eq - s));
	name[eq - s] = 0;
	return eq + 1;
}

static void put_le(uint8_t *k, uint32_t len, uint64_t off, uint64_t v, int n)
{
	if (off + (uint64_t)n <= len)
		for (int i = 0; i < n; i++)
			k[off + i] = (uint8_t)(v >> (8 * i));
}

/* Code object v5 hidden arguments (AMDGPUUsage, "Code Object V5 Metadata") from the metadata: the
 * ones a kernel can read without a runtime behind it; all others stay 0. */
static void fill_hidden(RunPlan *p, const KernelMeta *m)
{
	const LaunchDesc *d = p->d;
	uint64_t dims = (p->grid[2] > 1 || d->workgroup_size[2] > 1) ? 3
			: (p->grid[1] > 1 || d->workgroup_size[1] > 1) ? 2
									 : 1;
	for (size_t i = 0; m && i < m->nargs; i++) {
		const KernelArgMeta *a = &m->args[i];
		const char *k = a->value_kind;
		if (strncmp(k, "hidden_", 7) != 0)
			continue;
		k += 7;
		int axis = -1;
		size_t kl = strlen(k);
		if (kl > 2 && k[kl - 2] == '_' && k[kl - 1] >= 'x' && k[kl - 1] <= 'z')
			axis = k[kl - 1] - 'x';
		uint64_t v = 0;
		if (axis >= 0 && strncmp(k, "block_count_", 12) == 0)
			v = p->grid[axis];
		else if (axis >= 0 && strncmp(k, "group_size_", 11) == 0)
			v = d->workgroup_size[axis];
		else if (strcmp(k, "grid_dims") == 0)
			v = dims;
		/* remainder_*, global_offset_*: 0 (the grid is whole workgroups) */
		put_le(p->kernarg, p->kernarg_len, a->offset, v, (int)MIN(a->size, 8));
	}
}

int launch_d16_parse(const char *s)
{
	static const char *const NAMES[] = {[RUN_D16_AUTO] = "auto", [RUN_D16_CLOBBER] = "clobber",
					    [RUN_D16_PRESERVE] = "preserve"};
	for (int i = 0; i < (int)ARRAY_LEN(NAMES); i++)
		if (strcmp(s, NAMES[i]) == 0)
			return i;
	return -1;
}

/* The d16 mode of a launch: forced, or from the code object's sramecc
 * setting. Only an explicit "off" (`:sramecc-`) promises preserving
 * hardware; "on" and "any" (the default of gfx90a/gfx942 code objects) must
 * run correctly with SRAM ECC on, and "unsupported" on a processor that has
 * SRAM ECC is treated the same way (the conservative reading). */
static EmuD16 d16_mode(const CodeObject *co, RunD16 forced)
{
	if (forced != RUN_D16_AUTO)
		return forced == RUN_D16_PRESERVE ? EMU_D16_PRESERVE : EMU_D16_CLOBBER;
	return strcmp(co->sramecc, "off") == 0 ? EMU_D16_PRESERVE : EMU_D16_CLOBBER;
}

/* policy.races found some: the lines of the report, as errors (the run
 * fails) or as warnings on stderr. */
static int report_races(const EmuStats *st, const char *lines, bool fail, Buf *msg)
{
	unsigned long long n = (unsigned long long)st->races;
	const char *more = st->races > EMU_RACE_REPORTS ? " (the first ones)" : "";
	if (fail) {
		buf_error(msg, "emulator: %llu race%s between pairs of instructions%s:", n, n == 1 ? "" : "s", more);
		for (const char *p = lines; *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			buf_error(msg, "emulator: %.*s", (int)len, p);
			p += len + (nl != NULL);
		}
		return -1;
	}
	fprintf(stderr, "wavecc: warning: emulator: %llu race%s between pairs of instructions%s:\n", n, n == 1 ? "" : "s",
		more);
	for (const char *p = lines; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		fprintf(stderr, "wavecc: warning: %.*s\n", (int)len, p);
		p += len + (nl != NULL);
	}
	return 0;
}

static int emu_backend(RunPlan *p, const RunOptions *o, Buf *msg)
{
	const CodeObject *co = p->co;
	const CodeKernel *k = p->kernel;
	const LaunchDesc *d = p->d;
	EmuMemory *m = emu_mem_new();
	/* The image goes anywhere: code objects are position independent (our
	 * linker resolves PC-relative relocations only), so only the KD's
	 * address relative to the image matters. */
	uint64_t img = emu_mem_map(m, co->image, co->image_size, 4096, false, "code object");
	for (size_t i = 0; i < p->nbufs; i++) {
		RunBuffer *b = &p->bufs[i];
		b->device = emu_mem_map(m, b->host, b->arg->nbytes ? b->arg->nbytes : 1, 256,
					(b->arg->access & ACC_WRITE) != 0, b->arg->name);
	}
	run_patch_pointers(p);
	uint64_t ka = emu_mem_map(m, p->kernarg, p->kernarg_len ? p->kernarg_len : 4, 64, false, "kernarg segment");
	EmuLaunch l = {0};
	l.arch = strcmp(d->arch, "gfx90a") == 0 ? EMU_GFX90A : strcmp(d->arch, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942;
	l.kd = k->kd;
	l.kd_addr = img + (k->kd_vaddr - co->base);
	l.kernarg_addr = ka;
	for (int i = 0; i < 3; i++) {
		l.grid[i] = p->grid[i];
		l.wg_size[i] = d->workgroup_size[i];
	}
	l.dynamic_lds = p->dynamic_lds;
	l.max_instructions = o->max_instructions;
	l.trace = o->trace;
	l.hook = o->emu_hook;
	l.d16 = d16_mode(co, o->d16);
	l.policy = o->policy;
	/* a co-resident kernel's workgroups wait for each other: all of them
	 * run at once, round-robin (launch_check_co_resident: the grid fits) */
	if (d->co_resident && l.hook) {
		buf_error(msg, "kernel '%s' is co-resident (its workgroups wait for each other): the cycle model and the "
			  "instruction recording run workgroups one after another, where it would never end; it runs "
			  "(wavecc run) but is not profiled", d->kernel);
		emu_mem_free(m);
		return -1;
	}
	if (d->co_resident)
		l.policy.wgs = EMU_WGS_CONCURRENT;
	/* the model wave order: the cycle model picks each instruction's wave */
	TmOrder *order = NULL;
	if (l.policy.waves == EMU_WAVES_MODEL && !l.hook) {
		order = tm_order_new(l.arch, false);
		l.hook = tm_order_hook(order);
	}
	if (o->verbose) {
		fprintf(stderr, "wavecc: %s (sramecc %s): d16 loads %s the other half%s\n", d->code_object_path,
			co->sramecc, l.d16 == EMU_D16_PRESERVE ? "preserve" : "zero", o->d16 != RUN_D16_AUTO ? " (forced)" : "");
		fprintf(stderr, "wavecc: emulator: wave order %s, workgroup order %s, fill %s, order seed %llu, memory %s%s%s\n",
			emu_policy_name(EMU_POLICY_WAVES, (int)l.policy.waves), emu_policy_name(EMU_POLICY_WGS, (int)l.policy.wgs),
			emu_policy_name(EMU_POLICY_FILL, (int)l.policy.fill), (unsigned long long)l.policy.seed,
			emu_policy_name(EMU_POLICY_MEMORY, (int)l.policy.memory), l.policy.races ? ", races" : "",
			l.policy.canary ? ", canary" : "");
	}
	EmuStats st = {0};
	char err[1024] = "", races[EMU_RACE_REPORTS * 640] = "";
	l.report = races;
	l.report_len = sizeof races;
	int r = emu_launch(m, &l, &st, err, sizeof err);
	const char *model_err = order ? tm_order_error(order) : NULL;
	if (r != 0)
		buf_error(msg, "emulator: %s%s%s", err[0] ? err : "launch failed", model_err ? "; cycle model: " : "",
			  model_err ? model_err : "");
	else if (st.races)
		r = report_races(&st, races, o->races_fail, msg);
	else if (o->verbose)
		fprintf(stderr, "wavecc: emulator ran %llu wave instructions in %llu waves (%.3f s)\n",
			(unsigned long long)st.instructions, (unsigned long long)st.waves, st.seconds);
	if (order && r == 0 && o->verbose)
		fprintf(stderr, "wavecc: model order: the cycle model issued them in %llu clocks (its workgroups one after "
			"another on one CU)\n", (unsigned long long)tm_order_result(order)->cycles);
	tm_order_free(order);
	emu_mem_free(m);
	return r;
}

void launch_msg(Buf *msg, Loc at, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Buf text = {0};
	buf_vprintf(&text, fmt, ap);
	va_end(ap);
	buf_diag(msg, at, "%s: %s", path, buf_cstr(&text));
	buf_free(&text);
}

/* The descriptor's workgroup_size against what the code object promises:
 * its metadata's .reqd_workgroup_size (clang's reqd_work_group_size) must be
 * met exactly, and .max_flat_workgroup_size bounds the work-items (the
 * register allocation was made for that many). */
static int check_workgroup(const LaunchDesc *d, const CodeKernel *k, Buf *msg)
{
	const KernelMeta *m = k->meta;
	if (!m)
		return 0;
	const uint32_t *w = d->workgroup_size;
	const int64_t *r = m->reqd_workgroup_size;
	if (r[0] > 0 && (r[0] != w[0] || r[1] != w[1] || r[2] != w[2])) {
		launch_msg(msg, d->workgroup_size_loc, "workgroup_size",
			   "[%u, %u, %u] but kernel '%s' in %s requires [%lld, %lld, %lld] (.reqd_workgroup_size)", w[0],
			   w[1], w[2], d->kernel, d->code_object_path, (long long)r[0], (long long)r[1], (long long)r[2]);
		return -1;
	}
	uint64_t items = (uint64_t)w[0] * w[1] * w[2];
	if (m->max_flat_workgroup_size > 0 && items > (uint64_t)m->max_flat_workgroup_size) {
		launch_msg(msg, d->workgroup_size_loc, "workgroup_size",
			   "%llu work-items but kernel '%s' in %s allows at most %lld (.max_flat_workgroup_size)",
			   (unsigned long long)items, d->kernel, d->code_object_path, (long long)m->max_flat_workgroup_size);
		return -1;
	}
	return 0;
}

/* Map each buffer argument to the caller's memory: bufs[] by name, each
 * exactly the argument's size. */
static int bind_buffers(RunPlan *p, const LaunchDesc *d, HostBuffer *bufs, size_t nbufs, Buf *msg)
{
	for (size_t i = 0; i < d->nargs; i++) {
		const LaunchArg *a = &d->args[i];
		if (a->kind != LARG_BUFFER)
			continue;
		HostBuffer *h = NULL;
		for (size_t j = 0; j < nbufs && !h; j++)
			if (strcmp(bufs[j].name, a->name) == 0)
				h = &bufs[j];
		char path[32];
		snprintf(path, sizeof path, "args[%zu]", i);
		if (!h) {
			launch_msg(msg, a->loc, path, "no buffer was given for argument '%s'", a->name);
			return -1;
		}
		if (h->bytes != a->nbytes || (!h->data && a->nbytes)) {
			launch_msg(msg, a->loc, path, "buffer '%s' has %llu bytes, the argument needs %llu", a->name,
				   (unsigned long long)h->bytes, (unsigned long long)a->nbytes);
			return -1;
		}
		RunBuffer *b = &p->bufs[p->nbufs++];
		b->arg = a;
		b->host = h->data;
	}
	for (size_t j = 0; j < nbufs; j++)
		if (!launch_arg(d, bufs[j].name) || launch_arg(d, bufs[j].name)->kind != LARG_BUFFER) {
			buf_diag(msg, (Loc){d->path, 0, 0}, "kernel '%s' has no buffer argument '%s'", d->kernel, bufs[j].name);
			return -1;
		}
	return 0;
}

int64_t launch_dynamic_lds(const LaunchDesc *d, uint32_t kd_static, Buf *msg)
{
	if (d->static_lds >= 0 && d->static_lds != kd_static) {
		launch_msg(msg, d->static_lds_loc, "static_lds_bytes", "%lld is not the static LDS of kernel '%s' (%u bytes)",
			   (long long)d->static_lds, d->kernel, kd_static);
		return -1;
	}
	if (d->dynamic_lds >= 0) {
		if (d->dynamic_lds + kd_static > LAUNCH_MAX_LDS_BYTES) {
			launch_msg(msg, d->lds_bytes_loc, "dynamic_lds_bytes",
				   "%lld with the static LDS of kernel '%s' (%u bytes) is more than %d",
				   (long long)d->dynamic_lds, d->kernel, kd_static, LAUNCH_MAX_LDS_BYTES);
			return -1;
		}
		return d->dynamic_lds;
	}
	if (d->lds_bytes < kd_static) {
		launch_msg(msg, d->lds_bytes_loc, "lds_bytes", "%u is less than the static LDS of kernel '%s' (%u bytes)",
			   d->lds_bytes, d->kernel, kd_static);
		return -1;
	}
	return d->lds_bytes - kd_static;
}

/* The workgroups of kd one CU holds at once, from its descriptor alone: the
 * occupancy model of driver/occupancy.c (8 wave slots per SIMD, 4 SIMDs,
 * 512 VGPRs+AGPRs and 800 SGPRs per SIMD, LDS per CU in granules) applied
 * to the descriptor's allocations, which are what the hardware reserves. */
static uint64_t kd_workgroups_per_cu(const KernelDescriptor *kd, EmuArch arch, uint32_t items, uint32_t dynamic_lds)
{
	uint64_t waves = (items + 63) / 64, lim = 8;
	if (kd->vgpr_alloc)
		lim = MIN(lim, 512u / kd->vgpr_alloc);
	if (kd->sgpr_alloc)
		lim = MIN(lim, 800u / kd->sgpr_alloc);
	uint64_t wgs = 4 * lim / (waves ? waves : 1);
	uint64_t lds_cu = arch == EMU_GFX950 ? 163840 : 65536, granule = arch == EMU_GFX950 ? 1280 : 512;
	uint64_t lds = (uint64_t)kd->group_segment_fixed_size + dynamic_lds;
	if (lds)
		wgs = MIN(wgs, lds_cu / ((lds + granule - 1) / granule * granule));
	return wgs;
}

int launch_check_co_resident(const LaunchDesc *d, const KernelDescriptor *kd, uint64_t *capacity, Buf *msg)
{
	if (!d->co_resident)
		return 0;
	EmuArch arch = strcmp(d->arch, "gfx90a") == 0 ? EMU_GFX90A : strcmp(d->arch, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942;
	const TmGpu *g = tm_gpu_default(arch);
	uint32_t items = d->workgroup_size[0] * d->workgroup_size[1] * d->workgroup_size[2];
	int64_t dyn = d->dynamic_lds >= 0 ? d->dynamic_lds
		    : d->lds_bytes > kd->group_segment_fixed_size ? (int64_t)(d->lds_bytes - kd->group_segment_fixed_size) : 0;
	uint64_t by_kd = kd_workgroups_per_cu(kd, arch, items, (uint32_t)dyn);
	/* the smaller: the descriptor's allocations are granulated, so they
	 * may allow fewer than the compiler's count */
	uint64_t per = MIN((uint64_t)d->workgroups_per_cu, by_kd);
	if (per == 0) {
		launch_msg(msg, d->workgroup_size_loc, "workgroup_size",
			   "one workgroup of kernel '%s' does not fit on a CU (registers, LDS and workgroup size)", d->kernel);
		return -1;
	}
	uint64_t cus = (uint64_t)g->cus, cap = cus * per;
	uint64_t n = (uint64_t)d->grid[0].value * (uint64_t)d->grid[1].value * (uint64_t)d->grid[2].value;
	if (capacity)
		*capacity = cap;
	if (n > cap) {
		launch_msg(msg, d->grid[0].loc, "grid",
			   "%llu workgroups, but kernel '%s' is co-resident (its workgroups wait for each other) and %s "
			   "(%s) holds at most %llu of them at once (%llu CUs x %llu workgroups per CU): a larger grid "
			   "could wait forever", (unsigned long long)n, d->kernel, g->name, d->arch,
			   (unsigned long long)cap, (unsigned long long)cus, (unsigned long long)per);
		return -1;
	}
	return 0;
}

int launch_run_memory(const LaunchDesc *d, const void *code, size_t code_len, const RunOptions *o, HostBuffer *bufs,
	size_t nbufs, Buf *msg)
{
	die_test_point("run");
	CodeObject co;
	RunPlan p = {0};
	int r = -1;
	p.d = d;
	Buf why = {0};
	if (codeobj_read(code, code_len, d->code_object_path, &co, &why) != 0) {
		launch_msg(msg, d->code_object_loc, "code_object", "%s", buf_cstr(&why));
		buf_free(&why);
		codeobj_free(&co);
		return -1;
	}
	const CodeKernel *k = codeobj_kernel(&co, d->kernel);
	if (!k) {
		Buf names = {0};
		for (size_t i = 0; i < co.nkernels; i++)
			buf_printf(&names, " %s", co.kernels[i].name);
		launch_msg(msg, d->kernel_loc, "kernel", "no kernel '%s' in %s (it has:%s)", d->kernel, d->code_object_path,
			   co.nkernels ? buf_cstr(&names) : " none");
		buf_free(&names);
		goto out;
	}
	if (strcmp(co.mcpu, d->arch) != 0) {
		launch_msg(msg, d->arch_loc, "arch", "%s but %s is built for %s", d->arch, d->code_object_path, co.mcpu);
		goto out;
	}
	if (check_workgroup(d, k, msg) != 0 || launch_check_co_resident(d, &k->kd, NULL, msg) != 0)
		goto out;
	p.co = &co;
	p.kernel = k;
	for (int i = 0; i < 3; i++)
		p.grid[i] = (uint32_t)d->grid[i].value;
	int64_t dyn_lds = launch_dynamic_lds(d, k->kd.group_segment_fixed_size, msg);
	if (dyn_lds < 0)
		goto out;
	p.dynamic_lds = (uint32_t)dyn_lds;
	/* kernarg: what the descriptor says, grown to what the kernel declares
	 * (hidden arguments of clang-built kernels live past the explicit ones) */
	p.kernarg_len = MAX(d->kernarg_size, k->kd.kernarg_size);
	if (k->meta && k->meta->kernarg_segment_size > 0)
		p.kernarg_len = MAX(p.kernarg_len, (uint32_t)k->meta->kernarg_segment_size);
	p.kernarg = xcalloc(p.kernarg_len + 16, 1);
	fill_hidden(&p, k->meta);
	for (size_t i = 0; i < d->nargs; i++) {
		const LaunchArg *a = &d->args[i];
		if (a->kind != LARG_SCALAR)
			continue;
		if (dtype_is_float(a->dtype)) {
			dtype_store(a->dtype, p.kernarg + a->offset, 0, a->value);
		} else { /* exact: the low bytes of the integer (little endian) */
			uint64_t u = (uint64_t)a->ivalue;
			put_le(p.kernarg, p.kernarg_len, a->offset, u, dtype_size(a->dtype));
		}
	}
	p.bufs = xcalloc(d->nargs + 1, sizeof *p.bufs);
	if (bind_buffers(&p, d, bufs, nbufs, msg) != 0)
		goto out;
	/* a zero-byte buffer still needs an address (one per run: runs may go
	 * on on several threads) */
	uint8_t empty[16] = {0};
	for (size_t i = 0; i < p.nbufs; i++)
		if (!p.bufs[i].host)
			p.bufs[i].host = empty;
	if (o->backend == BACKEND_HIP) {
		p.code_object = code;
		p.code_object_len = code_len;
		r = hip_run(&p, o->verbose, msg);
	} else {
		r = emu_backend(&p, o, msg);
	}
	if (r != 0)
		r = -2; /* the inputs were fine: the run itself failed */
out:
	free(p.bufs);
	free(p.kernarg);
	codeobj_free(&co);
	return r;
}

/* The host buffers of launch_run: one per buffer argument, filled from the
 * seeded generator and the --in files. */
typedef Vec(HostBuffer) HostBuffers;

static int make_buffers(const LaunchDesc *d, const RunOptions *o, HostBuffers *hb, Buf *msg)
{
	for (size_t i = 0; i < d->nargs; i++) {
		const LaunchArg *a = &d->args[i];
		if (a->kind != LARG_BUFFER)
			continue;
		/* sizes are bounded by launch_resolve; the host may still refuse */
		void *host = calloc(a->nbytes ? a->nbytes : 1, 1);
		if (!host) {
			char path[32];
			snprintf(path, sizeof path, "args[%zu]", i);
			launch_msg(msg, a->loc, path, "cannot allocate %llu bytes of host memory for buffer '%s'",
				   (unsigned long long)a->nbytes, a->name);
			return -1;
		}
		vec_push(hb, ((HostBuffer){a->name, host, a->nbytes}));
		if (o->random && (a->access & ACC_READ)) {
			RunBuffer b = {.arg = a, .host = host};
			fill_random(&b, o->seed, i);
		}
	}
	for (int i = 0; i < o->nin; i++) {
		char name[256];
		const char *file = split_pair(o->in[i], name, sizeof name);
		const LaunchArg *a = file ? launch_arg(d, name) : NULL;
		HostBuffer *h = NULL;
		for (size_t j = 0; a && j < hb->len && !h; j++)
			if (strcmp(hb->data[j].name, name) == 0)
				h = &hb->data[j];
		if (!h) {
			buf_error(msg, "--in %s: %s", o->in[i],
				   !file ? "expected NAME=FILE.npy" : "no buffer argument of that name");
			return -1;
		}
		NpyArray arr;
		char err[512];
		int64_t shape[NPY_MAX_DIMS];
		for (int dd = 0; dd < a->ndim; dd++)
			shape[dd] = a->shape[dd].value;
		const char *problem = input_file_problem(file, LAUNCH_MAX_BUFFER_BYTES + (1 << 20), err, sizeof err);
		if (problem) {
			buf_error(msg, "--in %s: %s: %s", name, file, problem);
			return -1;
		}
		if (npy_read(file, &arr, err, sizeof err) != 0 ||
		    npy_check(&arr, file, a->dtype, a->ndim, shape, err, sizeof err) != 0) {
			buf_error(msg, "--in %s: %s", name, err);
			npy_free(&arr);
			return -1;
		}
		memcpy(h->data, arr.data, arr.nbytes);
		npy_free(&arr);
	}
	for (int i = 0; i < o->nout; i++) { /* check names before running */
		char name[256];
		const char *file = split_pair(o->out[i], name, sizeof name);
		const LaunchArg *a = file ? launch_arg(d, name) : NULL;
		if (!a || a->kind != LARG_BUFFER) {
			buf_error(msg, "--out %s: %s", o->out[i],
				   !file ? "expected NAME=FILE.npy" : "no buffer argument of that name");
			return -1;
		}
	}
	return 0;
}

int launch_run(LaunchDesc *d, const RunOptions *o, Buf *msg)
{
	HostBuffers hb = {0};
	int r = -1;
	size_t len = 0;
	char *bytes = NULL;
	char why[128];
	if (input_file_problem(d->code_object_path, LAUNCH_MAX_CODE_OBJECT_BYTES, why, sizeof why)) {
		launch_msg(msg, d->code_object_loc, "code_object", "%s: %s", d->code_object_path, why);
		goto out;
	}
	bytes = read_file(d->code_object_path, &len);
	if (!bytes) {
		launch_msg(msg, d->code_object_loc, "code_object", "%s: cannot read: %s", d->code_object_path,
			   strerror(errno));
		goto out;
	}
	if (make_buffers(d, o, &hb, msg) != 0)
		goto out;
	r = launch_run_memory(d, bytes, len, o, hb.data, hb.len, msg) ? -1 : 0;
	if (r != 0)
		goto out;
	for (int i = 0; i < o->nout; i++) {
		char name[256], err[512];
		const char *file = split_pair(o->out[i], name, sizeof name);
		const LaunchArg *a = launch_arg(d, name);
		const HostBuffer *h = NULL;
		for (size_t j = 0; j < hb.len && !h; j++)
			if (strcmp(hb.data[j].name, name) == 0)
				h = &hb.data[j];
		int64_t shape[NPY_MAX_DIMS];
		for (int dd = 0; dd < a->ndim; dd++)
			shape[dd] = a->shape[dd].value;
		if (npy_write(file, a->dtype, a->ndim, shape, h->data, err, sizeof err) != 0) {
			buf_error(msg, "--out %s: %s", name, err);
			r = -1;
			goto out;
		}
	}
out:
	for (size_t i = 0; i < hb.len; i++)
		free(hb.data[i].data);
	vec_free(&hb);
	free(bytes);
	return r;
}
