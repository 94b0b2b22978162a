/* codeobj.c — read a code object with libelf (contract in codeobj.h).
 *
 * Order: check the ELF header (64-bit, little endian, EM_AMDGPU, OSABI HSA,
 * ET_DYN); build the load image from the PT_LOAD segments (each must lie in
 * the file and the span must be sane: at most MAX_IMAGE, 256 MiB — real code
 * objects are a few MiB; a corrupted p_memsz must not make the reader or the
 * emulator allocate gigabytes); decode the metadata
 * note; then walk .symtab for "*.kd" symbols, read each 64-byte descriptor
 * out of the image, decode it and tie it to its metadata entry and to the
 * function symbol at its entry. Every offset taken from the file is bounds
 * checked before use. */
#include <pthread.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj.h"

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif
enum { ELFOSABI_AMDGPU_HSA_ = 64, NT_AMDGPU_METADATA_ = 32, MAX_IMAGE = 256 << 20, MAX_FILE = 1 << 30 };

/* FMT_AMDGPU_MACH values we name (LLVM AMDGPUUsage, "ELF Header"). */
/* libelf's version handshake, once per process (it sets libelf's global
 * state; library calls may run on several threads at once). */
static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static bool elf_ok;
static void elf_init(void)
{
	elf_ok = elf_version(EV_CURRENT) != EV_NONE;
}
static bool elf_ready(void)
{
	pthread_once(&elf_once, elf_init);
	return elf_ok;
}

static const struct {
	uint32_t mach;
	const char *name;
} MACHS[] = {{0x30, "gfx908"}, {0x3f, "gfx90a"}, {0x40, "gfx940"}, {0x4b, "gfx941"}, {0x4c, "gfx942"},
	     {0x4f, "gfx950"}};

static const char *const FEATURE_STATE[] = {"unsupported", "any", "off", "on"};

static int fail(const char *name, Buf *msg, const char *fmt, ...) PRINTF_LIKE(3, 4);
static int fail(const char *name, Buf *msg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_printf(msg, "%s: ", name);
	buf_vprintf(msg, fmt, ap);
	va_end(ap);
	return -1;
}

static int read_notes(CodeObject *co, Elf *e, Buf *msg)
{
	size_t nsec;
	elf_getshdrnum(e, &nsec);
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *s = elf_getscn(e, i);
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		if (!d)
			return fail(co->name, msg, "cannot read note section %zu", i);
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			const char *nm = (const char *)d->d_buf + name_off;
			if (nh.n_type == NT_AMDGPU_METADATA_ && nh.n_namesz == 7 && memcmp(nm, "AMDGPU", 7) == 0) {
				Buf m = {0};
				if (metadata_decode((const char *)d->d_buf + desc_off, nh.n_descsz, &co->arena, &co->meta,
						    &m) != 0) {
					fail(co->name, msg, "%s", buf_cstr(&m));
					buf_free(&m);
					return -1;
				}
				buf_free(&m);
				return 0;
			}
		}
	}
	return 0; /* no metadata: kernels are still listed from the symbols */
}

static int build_image(CodeObject *co, Elf *e, const uint8_t *bytes, size_t len, Buf *msg)
{
	size_t nph;
	if (elf_getphdrnum(e, &nph) != 0)
		return fail(co->name, msg, "cannot read the program headers");
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			return fail(co->name, msg, "cannot read program header %zu", i);
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_offset > len || ph.p_filesz > len - ph.p_offset ||
		    ph.p_vaddr > UINT64_MAX - ph.p_memsz)
			return fail(co->name, msg, "program header %zu: the PT_LOAD segment lies outside the file", i);
		if (ph.p_memsz > MAX_IMAGE)
			return fail(co->name, msg,
				    "program header %zu: PT_LOAD segment of %llu bytes in memory; at most %d MiB "
				    "(corrupted p_memsz?)",
				    i, (unsigned long long)ph.p_memsz, MAX_IMAGE >> 20);
		lo = MIN(lo, ph.p_vaddr);
		hi = MAX(hi, ph.p_vaddr + ph.p_memsz);
		if (ph.p_flags & PF_X) {
			co->exec_lo = co->exec_hi > co->exec_lo ? MIN(co->exec_lo, ph.p_vaddr) : ph.p_vaddr;
			co->exec_hi = MAX(co->exec_hi, ph.p_vaddr + ph.p_filesz);
		}
		co->nload++;
	}
	if (!co->nload)
		return fail(co->name, msg, "no PT_LOAD segment: not a loadable code object");
	if (hi - lo > MAX_IMAGE)
		return fail(co->name, msg, "the loaded image would span %llu bytes; at most %d MiB", (unsigned long long)(hi - lo),
			    MAX_IMAGE >> 20);
	co->base = lo;
	co->image_size = hi - lo;
	co->image = calloc(co->image_size ? co->image_size : 1, 1); /* zero pages stay untouched */
	if (!co->image)
		return fail(co->name, msg, "cannot allocate the %llu-byte load image", (unsigned long long)co->image_size);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		gelf_getphdr(e, (int)i, &ph);
		if (ph.p_type == PT_LOAD && ph.p_filesz)
			memcpy(co->image + (ph.p_vaddr - lo), bytes + ph.p_offset, ph.p_filesz);
	}
	return 0;
}

static int find_kernels(CodeObject *co, Elf *e, Buf *msg)
{
	size_t nsec;
	elf_getshdrnum(e, &nsec);
	Elf_Scn *symscn = NULL;
	GElf_Shdr ssh;
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *s = elf_getscn(e, i);
		if (gelf_getshdr(s, &ssh) && ssh.sh_type == SHT_SYMTAB) {
			symscn = s;
			break;
		}
	}
	if (!symscn)
		return fail(co->name, msg, "no .symtab: cannot find kernels");
	Elf_Data *d = elf_getdata(symscn, NULL);
	size_t n = ssh.sh_entsize ? ssh.sh_size / ssh.sh_entsize : 0;
	if (!d)
		return fail(co->name, msg, "cannot read .symtab");
	co->kernels = ARENA_NEWN(&co->arena, CodeKernel, n ? n : 1);
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			return fail(co->name, msg, "bad symbol %zu", i);
		const char *nm = elf_strptr(e, ssh.sh_link, s.st_name);
		size_t l = nm ? strlen(nm) : 0;
		if (l < 4 || strcmp(nm + l - 3, ".kd") != 0 || GELF_ST_BIND(s.st_info) == STB_LOCAL)
			continue;
		CodeKernel *k = &co->kernels[co->nkernels++];
		k->kd_symbol = arena_strdup(&co->arena, nm);
		k->name = arena_strndup(&co->arena, nm, l - 3);
		k->kd_vaddr = s.st_value;
		if (s.st_value < co->base || s.st_value - co->base > co->image_size ||
		    co->image_size - (s.st_value - co->base) < KD_SIZE)
			return fail(co->name, msg, "kernel descriptor %s at 0x%llx is outside the loaded image", nm,
				    (unsigned long long)s.st_value);
		memcpy(k->kd_bytes, co->image + (s.st_value - co->base), KD_SIZE);
		char why[128];
		if (kd_decode(k->kd_bytes, &k->kd, why, sizeof why) != 0)
			return fail(co->name, msg, "kernel descriptor %s: %s", nm, why);
		k->entry_vaddr = k->kd_vaddr + (uint64_t)k->kd.kernel_code_entry_byte_offset;
		if (k->entry_vaddr < co->base || k->entry_vaddr >= co->base + co->image_size)
			return fail(co->name, msg, "kernel %s: entry 0x%llx is outside the loaded image", k->name,
				    (unsigned long long)k->entry_vaddr);
		for (size_t m = 0; m < co->meta.nkernels; m++)
			if (strcmp(co->meta.kernels[m].symbol, nm) == 0)
				k->meta = &co->meta.kernels[m];
	}
	/* code sizes: the FUNC symbol at each entry */
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		gelf_getsym(d, (int)i, &s);
		if (GELF_ST_TYPE(s.st_info) != STT_FUNC)
			continue;
		for (size_t k = 0; k < co->nkernels; k++)
			if (co->kernels[k].entry_vaddr == s.st_value)
				co->kernels[k].code_size = s.st_size;
	}
	return 0;
}

int codeobj_read(const void *bytes, size_t len, const char *name, CodeObject *co, Buf *msg)
{
	memset(co, 0, sizeof *co);
	arena_init(&co->arena);
	co->name = arena_strdup(&co->arena, name);
	if (!elf_ready())
		return fail(name, msg, "libelf: %s", elf_errmsg(-1));
	/* libelf wants a mutable buffer; the copy also outlives the caller's */
	char *copy = arena_alloc(&co->arena, len ? len : 1);
	memcpy(copy, bytes, len);
	Elf *e = elf_memory(copy, len);
	GElf_Ehdr eh;
	int r = -1;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		fail(name, msg, "not an ELF file");
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_AMDGPU) {
		fail(name, msg, "not a 64-bit little-endian AMDGPU ELF (machine %d)", eh.e_machine);
		goto out;
	}
	if (eh.e_ident[EI_OSABI] != ELFOSABI_AMDGPU_HSA_) {
		fail(name, msg, "OS ABI %d is not AMDGPU HSA (64)", eh.e_ident[EI_OSABI]);
		goto out;
	}
	if (eh.e_type != ET_DYN) {
		fail(name, msg, "ELF type %d is not ET_DYN%s", eh.e_type,
		     eh.e_type == ET_REL ? " (a relocatable object: link it first, e.g. with wavecc as)" : "");
		goto out;
	}
	co->e_flags = eh.e_flags;
	co->abi_version = eh.e_ident[EI_ABIVERSION];
	co->code_object_version = co->abi_version >= 2 && co->abi_version <= 4 ? co->abi_version + 2 : 0;
	co->mcpu = "unknown";
	for (size_t i = 0; i < ARRAY_LEN(MACHS); i++)
		if ((eh.e_flags & 0xff) == MACHS[i].mach)
			co->mcpu = MACHS[i].name;
	co->xnack = FEATURE_STATE[(eh.e_flags >> 8) & 3];
	co->sramecc = FEATURE_STATE[(eh.e_flags >> 10) & 3];
	if (build_image(co, e, (const uint8_t *)copy, len, msg) || read_notes(co, e, msg) ||
	    find_kernels(co, e, msg))
		goto out;
	r = 0;
out:
	if (e)
		elf_end(e);
	return r;
}

int codeobj_read_file(const char *path, CodeObject *co, Buf *msg)
{
	size_t len;
	char why[128];
	if (input_file_problem(path, MAX_FILE, why, sizeof why)) {
		memset(co, 0, sizeof *co);
		arena_init(&co->arena);
		return fail(path, msg, "%s", why);
	}
	char *bytes = read_file(path, &len);
	if (!bytes) {
		memset(co, 0, sizeof *co);
		arena_init(&co->arena);
		return fail(path, msg, "cannot read: %s", strerror(errno));
	}
	int r = codeobj_read(bytes, len, path, co, msg);
	free(bytes);
	return r;
}

void codeobj_free(CodeObject *co)
{
	free(co->image);
	arena_free(&co->arena);
	memset(co, 0, sizeof *co);
}

const CodeKernel *codeobj_kernel(const CodeObject *co, const char *name)
{
	for (size_t i = 0; i < co->nkernels; i++)
		if (strcmp(co->kernels[i].name, name) == 0 || strcmp(co->kernels[i].kd_symbol, name) == 0)
			return &co->kernels[i];
	return NULL;
}

static void print_kd(const KernelDescriptor *kd, bool arch_scratch, FILE *out)
{
	static const char *const round[] = {"near-even", "+inf", "-inf", "zero"};
	static const char *const denorm[] = {"flush in+out", "flush out", "flush in", "keep"};
	fprintf(out, "  registers: %u VGPRs+AGPRs allocated (granule %u), accum_offset %u; %u SGPRs allocated "
		     "(granule %u, incl. VCC/FLAT_SCRATCH/XNACK)\n",
		kd->vgpr_alloc, kd->vgpr_granules, kd->accum_offset, kd->sgpr_alloc, kd->sgpr_granules);
	fprintf(out, "  LDS %u bytes, scratch %u bytes/work-item, kernarg %u bytes\n", kd->group_segment_fixed_size,
		kd->private_segment_fixed_size, kd->kernarg_size);
	fprintf(out, "  user SGPRs (%u):", kd->user_sgpr_count);
	struct {
		int at, n;
		const char *what;
	} u[] = {{kd->sgpr_private_segment_buffer, 4, "private_segment_buffer"},
		 {kd->sgpr_dispatch_ptr, 2, "dispatch_ptr"},
		 {kd->sgpr_queue_ptr, 2, "queue_ptr"},
		 {kd->sgpr_kernarg_ptr, 2, "kernarg_segment_ptr"},
		 {kd->sgpr_dispatch_id, 2, "dispatch_id"},
		 {kd->sgpr_flat_scratch_init, 2, "flat_scratch_init"},
		 {kd->sgpr_private_segment_size, 1, "private_segment_size"},
		 {kd->sgpr_wgid[0], 1, "workgroup_id_x"},
		 {kd->sgpr_wgid[1], 1, "workgroup_id_y"},
		 {kd->sgpr_wgid[2], 1, "workgroup_id_z"},
		 {kd->sgpr_wg_info, 1, "workgroup_info"}};
	/* rows 0..6 are user SGPRs, 7.. system SGPRs */
	for (int sys = 0; sys < 2; sys++) {
		int any = 0;
		if (sys)
			fprintf(out, "\n  system SGPRs:");
		for (size_t i = sys ? 7 : 0; i < (sys ? ARRAY_LEN(u) : 7); i++) {
			if (u[i].at < 0)
				continue;
			if (u[i].n == 1)
				fprintf(out, " %s=s%d", u[i].what, u[i].at);
			else
				fprintf(out, " %s=s[%d:%d]", u[i].what, u[i].at, u[i].at + u[i].n - 1);
			any = 1;
		}
		/* the private segment's wave offset comes last, where the
		 * processor has no architected flat scratch (gfx90a) */
		if (sys && kd->enable_private_segment && !arch_scratch) {
			int at = (int)kd->user_sgpr_count + kd->enable_wgid[0] + kd->enable_wgid[1] + kd->enable_wgid[2] +
				 kd->enable_wg_info;
			fprintf(out, " private_segment_wave_offset=s%d", at);
			any = 1;
		}
		if (!any)
			fprintf(out, " none");
	}
	fprintf(out, "\n  work-item ids in v0 (packed): %s\n",
		kd->vgpr_workitem_id == 0 ? "x" : kd->vgpr_workitem_id == 1 ? "x, y" : "x, y, z");
	fprintf(out, "  rsrc1 0x%08x: float round %s/%s, denormals %s (f32) / %s (f16/f64)%s%s%s\n", kd->rsrc1,
		round[kd->float_round_mode_32], round[kd->float_round_mode_16_64], denorm[kd->float_denorm_mode_32],
		denorm[kd->float_denorm_mode_16_64], kd->dx10_clamp ? ", dx10_clamp" : "",
		kd->ieee_mode ? ", ieee" : "", kd->fp16_overflow ? ", fp16_overflow" : "");
	fprintf(out, "  rsrc2 0x%08x: private segment %s\n", kd->rsrc2, kd->enable_private_segment ? "on" : "off");
	fprintf(out, "  rsrc3 0x%08x: tg_split %s\n", kd->rsrc3, kd->tg_split ? "on" : "off");
	fprintf(out, "  kernel_code_properties 0x%04x%s\n", kd->kernel_code_properties,
		kd->uses_dynamic_stack ? " (uses dynamic stack)" : "");
}

void codeobj_print(const CodeObject *co, FILE *out)
{
	fprintf(out, "%s: code object v%d for %s (e_flags 0x%x: xnack %s, sramecc %s)\n", co->name,
		co->code_object_version, co->mcpu, co->e_flags, co->xnack, co->sramecc);
	if (co->meta.present)
		fprintf(out, "metadata: amdhsa.version %d.%d, target %s\n", co->meta.version[0], co->meta.version[1],
			co->meta.target ? co->meta.target : "(none)");
	else
		fprintf(out, "metadata: none\n");
	fprintf(out, "image: 0x%llx..0x%llx (%llu bytes, %d load segments)\n", (unsigned long long)co->base,
		(unsigned long long)(co->base + co->image_size), (unsigned long long)co->image_size, co->nload);
	fprintf(out, "kernels: %zu\n", co->nkernels);
	for (size_t i = 0; i < co->nkernels; i++) {
		const CodeKernel *k = &co->kernels[i];
		fprintf(out, "\nkernel %s\n", k->name);
		int64_t eo = k->kd.kernel_code_entry_byte_offset;
		fprintf(out, "  descriptor %s at 0x%llx, entry 0x%llx (offset %s0x%llx), code %llu bytes\n",
			k->kd_symbol, (unsigned long long)k->kd_vaddr, (unsigned long long)k->entry_vaddr,
			eo < 0 ? "-" : "+", (unsigned long long)(eo < 0 ? -(uint64_t)eo : (uint64_t)eo),
			(unsigned long long)k->code_size);
		/* gfx940 on: architected flat scratch, no wave offset SGPR */
		print_kd(&k->kd, strncmp(co->mcpu, "gfx94", 5) == 0 || strncmp(co->mcpu, "gfx95", 5) == 0, out);
		const KernelMeta *m = k->meta;
		if (!m) {
			fprintf(out, "  metadata: none for this kernel\n");
			continue;
		}
		fprintf(out, "  metadata: kernarg %lld bytes (align %lld), LDS %lld, scratch %lld, wavefront %lld, "
			     "max workgroup %lld\n",
			(long long)m->kernarg_segment_size, (long long)m->kernarg_segment_align,
			(long long)m->group_segment_fixed_size, (long long)m->private_segment_fixed_size,
			(long long)m->wavefront_size, (long long)m->max_flat_workgroup_size);
		fprintf(out, "  metadata registers: sgpr %lld, vgpr %lld, agpr %lld", (long long)m->sgpr_count,
			(long long)m->vgpr_count, (long long)m->agpr_count);
		if (m->sgpr_spill_count >= 0 || m->vgpr_spill_count >= 0)
			fprintf(out, ", spills sgpr %lld vgpr %lld", (long long)m->sgpr_spill_count,
				(long long)m->vgpr_spill_count);
		fprintf(out, "\n");
		if (m->reqd_workgroup_size[0] >= 0)
			fprintf(out, "  required workgroup size: %lld x %lld x %lld\n",
				(long long)m->reqd_workgroup_size[0], (long long)m->reqd_workgroup_size[1],
				(long long)m->reqd_workgroup_size[2]);
		fprintf(out, "  args: %zu\n", m->nargs);
		if (m->nargs)
			fprintf(out, "    %6s %5s  %-28s %-12s %s\n", "offset", "size", "kind", "name", "address space");
		for (size_t a = 0; a < m->nargs; a++) {
			const KernelArgMeta *g = &m->args[a];
			fprintf(out, "    %6llu %5llu  %-28s %-12s %s%s%s\n", (unsigned long long)g->offset,
				(unsigned long long)g->size, g->value_kind, g->name ? g->name : "-",
				g->address_space ? g->address_space : "-", g->access ? " " : "",
				g->access ? g->access : "");
		}
	}
}
