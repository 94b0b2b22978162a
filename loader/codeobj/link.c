/* link.c — turn one relocatable AMDGPU object (from llvm-mc) into a loadable
 * ET_DYN code object, laid out the way `ld.lld -shared` lays it out
 * (checked against ld.lld-19 in tests/loader/codeobj/link_test.c), read and written with libelf.
 *
 * Layout (page size 0x1000; every segment's vaddr ≡ file offset mod page):
 *   ELF header, 8 program headers (PHDR, LOAD R, LOAD R+E, LOAD RW, DYNAMIC,
 *   GNU_RELRO, GNU_STACK, NOTE), then
 *   LOAD R   : input SHT_NOTE alloc sections, .dynsym, .hash, .dynstr, input
 *              read-only alloc sections (.rodata: the kernel descriptors)
 *   LOAD R+E : input executable sections (.text)
 *   LOAD RW  : .dynamic, then input writable sections (PROGBITS, then NOBITS)
 *   non-alloc: .symtab (locals, a local hidden _DYNAMIC, globals), .shstrtab,
 *              .strtab, section headers.
 * A new segment starts at the next page boundary above the previous one's end
 * plus the file offset's page remainder, as lld does, so a single-kernel
 * object gets the same addresses as lld's (.text at 0x1500 for the skeleton).
 * Differences from lld, on purpose: no .gnu.hash (ROCr and HIP read .hash or
 * .symtab), no .comment, no .relro_padding (the RW segment's memsz is not
 * rounded to a page), input non-alloc sections (debug info) are dropped, and
 * each input alloc section stays its own output section (lld would merge
 * .text.* into .text).
 *
 * Relocations: static RELA sections against alloc sections are resolved and
 * dropped. PC-relative types (REL32, REL64, REL32_LO/HI, REL16) are computed
 * here; R_AMDGPU_REL64 at KD+16 is how the kernel descriptor learns its
 * entry offset (S + A − P = kernel − KD). Absolute types would need dynamic
 * relocations in a shared object: rejected with a message, like undefined
 * symbols (lld --no-undefined). After linking, every `X.kd` descriptor is
 * checked: its entry must land on symbol X, 256-byte aligned.
 *
 * link_object runs in phases over the Link (the input and the output
 * sections) and an Image (what the phases hand on): read the input; lay out
 * (place_sections in the order above, size_dynamic: the synthetic loaded
 * sections' sizes from a count of the dynamic symbols, assign_addresses);
 * relocate (apply_relocs, build_symbols, check_kds); write (fill_synthetic,
 * program_headers, write_linked_elf through libelf). */
#include <pthread.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kd.h"
#include "codeobj.h"

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif

enum { PAGE = 0x1000, NPHDR = 8, EHDR_SIZE = 64, PHDR_SIZE = 56 };

/* R_AMDGPU_* relocation types (AMDGPUUsage "Relocation Records"). */
enum {
	R_AMDGPU_NONE = 0,
	R_AMDGPU_ABS32_LO = 1,
	R_AMDGPU_ABS32_HI = 2,
	R_AMDGPU_ABS64 = 3,
	R_AMDGPU_REL32 = 4,
	R_AMDGPU_REL64 = 5,
	R_AMDGPU_ABS32 = 6,
	R_AMDGPU_REL32_LO = 10,
	R_AMDGPU_REL32_HI = 11,
	R_AMDGPU_REL16 = 14,
};

/* One output section. For input-derived ones `in` is the input index. */
typedef struct OutSec {
	const char *name;
	uint32_t type;
	uint64_t flags, align, entsize;
	uint32_t link_to, info; /* output indices, filled late */
	size_t in;              /* input section index, 0 if synthetic */
	unsigned char *data;    /* heap copy (NULL for NOBITS) */
	uint64_t size;
	uint64_t off, vaddr;
	int seg;                /* 0 R, 1 RX, 2 RW, -1 non-alloc */
	size_t name_off;        /* in .shstrtab */
	size_t index;           /* output section index */
} OutSec;

typedef struct {
	Elf *in;
	const char *name;
	Buf *msg;
	Vec(OutSec) secs;
	size_t *in_to_out; /* input section index -> output index (0: dropped) */
	size_t n_in;
	GElf_Ehdr ehdr;
	Elf_Data *symdata; /* input symbol table */
	size_t nsyms, sym_strndx;
	Buf strtab, dynstr, shstr;
	Vec(char *) own_names; /* output section names made here */
	/* codeobj_link_variant: the variant's tag, its note's index, and the
	 * input symbols' names with "__TAG" removed (NULL: plain link) */
	const char *tag;
	size_t note_index;
	char **names;
} Link;

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

static int fail(Link *l, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int fail(Link *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_printf(l->msg, "%s: link error: ", l->name);
	buf_vprintf(l->msg, fmt, ap);
	buf_putc(l->msg, '\n');
	va_end(ap);
	return -1;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static size_t str_add(Buf *b, const char *s)
{
	if (b->len == 0)
		buf_putc(b, 0); /* index 0 is the empty name */
	if (!*s)
		return 0;
	size_t at = b->len;
	buf_putn(b, s, strlen(s) + 1);
	return at;
}

static OutSec *add_sec(Link *l, const char *name, uint32_t type, uint64_t flags, uint64_t align, int seg)
{
	OutSec s = {0};
	s.name = name;
	s.type = type;
	s.flags = flags;
	s.align = align ? align : 1;
	s.seg = seg;
	vec_push(&l->secs, s);
	return &vec_last(&l->secs);
}

/* A variant's symbol name: every "__TAG" removed. */
static char *strip_tag(const char *name, const char *tag)
{
	size_t tl = strlen(tag);
	Buf b = {0};
	for (const char *p = name; *p;) {
		if (p[0] == '_' && p[1] == '_' && strncmp(p + 2, tag, tl) == 0) {
			p += 2 + tl;
			continue;
		}
		buf_putc(&b, *p++);
	}
	char *r = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return r;
}

/* A variant's section: "NAME.TAG" (the name without the tag in *out_name),
 * or false for another variant's. */
static bool variant_section(const Link *l, const char *nm, char **out_name)
{
	size_t n = strlen(nm), tl = strlen(l->tag);
	if (n <= tl + 1 || nm[n - tl - 1] != '.' || strcmp(nm + n - tl, l->tag) != 0)
		return false;
	*out_name = xmalloc(n - tl);
	memcpy(*out_name, nm, n - tl - 1);
	(*out_name)[n - tl - 1] = 0;
	return true;
}

/* The note_index-th note of a SHT_NOTE section's data (4-byte aligned
 * name and descriptor, gABI), copied to *out; false if there are fewer. */
static bool nth_note(const unsigned char *d, uint64_t size, size_t index, unsigned char **out, uint64_t *out_size)
{
	uint64_t at = 0;
	for (size_t k = 0; at + 12 <= size; k++) {
		uint32_t namesz, descsz;
		memcpy(&namesz, d + at, 4);
		memcpy(&descsz, d + at + 4, 4);
		uint64_t len = 12 + align_up(namesz, 4) + align_up(descsz, 4);
		if (at + len > size)
			return false;
		if (k == index) {
			*out = xmalloc(len);
			memcpy(*out, d + at, len);
			*out_size = len;
			return true;
		}
		at += len;
	}
	return false;
}

/* Input alloc sections of one class, in input order. */
static int take_inputs(Link *l, int seg, bool notes)
{
	size_t shstrndx;
	elf_getshdrstrndx(l->in, &shstrndx);
	for (size_t i = 1; i < l->n_in; i++) {
		Elf_Scn *scn = elf_getscn(l->in, i);
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return fail(l, "cannot read section header %zu", i);
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		int cls = (sh.sh_flags & SHF_EXECINSTR) ? 1 : (sh.sh_flags & SHF_WRITE) ? 2 : 0;
		if (cls != seg || (sh.sh_type == SHT_NOTE) != notes)
			continue;
		if (sh.sh_type != SHT_PROGBITS && sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NOTE)
			return fail(l, "alloc section %zu has unsupported type %u", i, sh.sh_type);
		if (sh.sh_addralign > PAGE)
			return fail(l, "section %zu alignment %llu exceeds the page size", i,
				    (unsigned long long)sh.sh_addralign);
		if (seg == 2 && sh.sh_type == SHT_NOBITS)
			continue; /* placed after the writable PROGBITS */
		const char *nm = elf_strptr(l->in, shstrndx, sh.sh_name);
		char *vname = NULL;
		if (l->tag && !notes && !variant_section(l, nm ? nm : "", &vname))
			continue; /* another variant's */
		if (vname)
			vec_push(&l->own_names, vname);
		OutSec *o = add_sec(l, vname ? vname : nm ? nm : "?", sh.sh_type,
				    sh.sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR), sh.sh_addralign, seg);
		o->in = i;
		o->entsize = sh.sh_entsize;
		o->size = sh.sh_size;
		if (sh.sh_type != SHT_NOBITS) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (!d || d->d_size != sh.sh_size)
				return fail(l, "cannot read section %s", o->name);
			o->data = xmalloc(sh.sh_size ? sh.sh_size : 1);
			if (sh.sh_size) /* an empty section may have no buffer at all */
				memcpy(o->data, d->d_buf, sh.sh_size);
			if (l->tag && notes) { /* the variant's own metadata note only */
				unsigned char *note;
				uint64_t nsize;
				if (!nth_note(o->data, o->size, l->note_index, &note, &nsize))
					return fail(l, "section %s has no note %zu", o->name, l->note_index);
				free(o->data);
				o->data = note;
				o->size = nsize;
			}
		}
	}
	if (seg == 2)
		for (size_t i = 1; i < l->n_in; i++) {
			GElf_Shdr sh;
			gelf_getshdr(elf_getscn(l->in, i), &sh);
			if ((sh.sh_flags & SHF_ALLOC) && (sh.sh_flags & SHF_WRITE) && !(sh.sh_flags & SHF_EXECINSTR) &&
			    sh.sh_type == SHT_NOBITS) {
				const char *nm = elf_strptr(l->in, shstrndx, sh.sh_name);
				OutSec *o = add_sec(l, nm ? nm : "?", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, sh.sh_addralign, 2);
				o->in = i;
				o->size = sh.sh_size;
			}
		}
	return 0;
}

static void sym_get(Link *l, size_t i, GElf_Sym *s)
{
	gelf_getsym(l->symdata, (int)i, s);
}

static const char *raw_sym_name(Link *l, const GElf_Sym *s)
{
	const char *n = elf_strptr(l->in, l->sym_strndx, s->st_name);
	return n ? n : "";
}

/* The name of input symbol i (s is its entry), a variant's without its tag. */
static const char *sym_name(Link *l, size_t i, const GElf_Sym *s)
{
	return l->names && i < l->nsyms ? l->names[i] : raw_sym_name(l, s);
}


/* Resolved address of input symbol i, or -1 with a message. */
static int sym_addr(Link *l, size_t i, uint64_t *addr)
{
	GElf_Sym s;
	if (i >= l->nsyms)
		return fail(l, "relocation names symbol %zu, past the symbol table", i);
	sym_get(l, i, &s);
	if (s.st_shndx == SHN_ABS) {
		*addr = s.st_value;
		return 0;
	}
	if (s.st_shndx == SHN_UNDEF)
		return fail(l, "undefined symbol '%s'", sym_name(l, i, &s));
	if (s.st_shndx >= l->n_in || !l->in_to_out[s.st_shndx])
		return fail(l, "symbol '%s' is in a section that is not loaded", sym_name(l, i, &s));
	*addr = l->secs.data[l->in_to_out[s.st_shndx]].vaddr + s.st_value;
	return 0;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static int apply_relocs(Link *l)
{
	for (size_t i = 1; i < l->n_in; i++) {
		Elf_Scn *scn = elf_getscn(l->in, i);
		GElf_Shdr sh;
		gelf_getshdr(scn, &sh);
		if (sh.sh_type == SHT_REL)
			return fail(l, "SHT_REL sections are not supported (AMDGPU uses RELA)");
		if (sh.sh_type != SHT_RELA)
			continue;
		if (sh.sh_info >= l->n_in || !l->in_to_out[sh.sh_info])
			continue; /* relocations of a dropped (non-alloc) section */
		OutSec *t = &l->secs.data[l->in_to_out[sh.sh_info]];
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t k = 0; k < n; k++) {
			GElf_Rela r;
			if (!gelf_getrela(d, (int)k, &r))
				return fail(l, "bad relocation %zu in section %zu", k, i);
			uint32_t type = (uint32_t)GELF_R_TYPE(r.r_info);
			if (type == R_AMDGPU_NONE)
				continue;
			uint64_t S = 0, P = t->vaddr + r.r_offset;
			if (sym_addr(l, GELF_R_SYM(r.r_info), &S) != 0)
				return -1;
			GElf_Sym rs;
			sym_get(l, GELF_R_SYM(r.r_info), &rs);
			const char *rname =
				GELF_ST_TYPE(rs.st_info) == STT_SECTION ? "a section" : sym_name(l, GELF_R_SYM(r.r_info), &rs);
			/* As lld: a default-visibility global may be interposed at
			 * run time, so a link-time PC-relative value to it is wrong. */
			if (GELF_ST_BIND(rs.st_info) != STB_LOCAL && GELF_ST_VISIBILITY(rs.st_other) == STV_DEFAULT)
				return fail(l, "relocation type %u against preemptible symbol '%s' in %s; declare it "
					       ".protected or .hidden",
					    type, rname, t->name);
			uint64_t v = S + (uint64_t)r.r_addend - P;
			int width;
			switch (type) {
			case R_AMDGPU_REL64: width = 8; break;
			case R_AMDGPU_REL32: case R_AMDGPU_REL32_LO: width = 4; break;
			case R_AMDGPU_REL32_HI: width = 4; v >>= 32; break;
			case R_AMDGPU_REL16: width = 2; v = (uint64_t)(((int64_t)v - 4) / 4); break;
			default:
				return fail(l, "relocation type %u against '%s' in %s would need a dynamic relocation; "
					       "only PC-relative relocations are supported",
					    type, rname, t->name);
			}
			if (t->type == SHT_NOBITS || r.r_offset + (uint64_t)width > t->size)
				return fail(l, "relocation at %s+0x%llx is outside the section", t->name,
					    (unsigned long long)r.r_offset);
			put_le(t->data + r.r_offset, v, width);
		}
	}
	return 0;
}

/* SysV ELF hash (gABI). */
static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0, g;
	for (; *s; s++) {
		h = (h << 4) + (unsigned char)*s;
		g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/* Output symbol: a GElf_Sym whose st_name indexes the output string table. */
typedef Vec(GElf_Sym) SymVec;
typedef Vec(const char *) NameVec;

/* The output as the phases build it (link_object): the layout's synthetic
 * sections (output indices) and segments, then relocation's symbol tables. */
typedef struct {
	size_t i_dynsym, i_hash, i_dynstr, i_dynamic, i_symtab, i_shstrtab, i_strtab;
	size_t ndyn;  /* dynamic symbols, the null one included */
	uint64_t off; /* the file offset past the loaded sections */
	uint64_t seg_off[3], seg_vaddr[3], seg_fend[3], seg_mend[3]; /* R, RX, RW: file and memory extents */
	SymVec symtab, dynsym;
	NameVec dyn_names; /* the dynamic symbols' names, for .hash */
	size_t first_global;
} Image;

/* .symtab (locals, _DYNAMIC, globals) and .dynsym (the globals) with their
 * string tables, the input symbols at their output addresses. */
static int build_symbols(Link *l, Image *im)
{
	SymVec *symtab = &im->symtab, *dynsym = &im->dynsym;
	NameVec *dyn_names = &im->dyn_names;
	GElf_Sym z = {0};
	vec_push(symtab, z);
	vec_push(dynsym, z);
	str_add(&l->strtab, "");
	str_add(&l->dynstr, "");
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			GElf_Sym d = {0};
			d.st_name = (Elf64_Word)str_add(&l->strtab, "_DYNAMIC");
			d.st_info = GELF_ST_INFO(STB_LOCAL, STT_NOTYPE);
			d.st_other = STV_HIDDEN;
			d.st_shndx = (Elf64_Section)im->i_dynamic;
			d.st_value = l->secs.data[im->i_dynamic].vaddr;
			vec_push(symtab, d);
			im->first_global = symtab->len;
		}
		for (size_t i = 1; i < l->nsyms; i++) {
			GElf_Sym s;
			sym_get(l, i, &s);
			int bind = GELF_ST_BIND(s.st_info), type = GELF_ST_TYPE(s.st_info);
			int vis = GELF_ST_VISIBILITY(s.st_other);
			/* gABI: a hidden or internal symbol becomes STB_LOCAL in the
			 * output (lld does the same), so it goes with the locals. */
			bool local = bind == STB_LOCAL || vis == STV_HIDDEN || vis == STV_INTERNAL;
			if (local != (pass == 0))
				continue;
			if (type == STT_SECTION || type == STT_FILE)
				continue;
			const char *nm = sym_name(l, i, &s);
			if (s.st_shndx == SHN_UNDEF)
				return fail(l, "undefined symbol '%s'", nm);
			if (s.st_shndx == SHN_COMMON)
				return fail(l, "common symbol '%s' is not supported", nm);
			GElf_Sym o = s;
			if (s.st_shndx != SHN_ABS) {
				if (s.st_shndx >= l->n_in || !l->in_to_out[s.st_shndx])
					continue; /* in a dropped non-alloc section */
				OutSec *os = &l->secs.data[l->in_to_out[s.st_shndx]];
				o.st_shndx = (Elf64_Section)os->index;
				o.st_value = os->vaddr + s.st_value;
			}
			o.st_name = (Elf64_Word)str_add(&l->strtab, nm);
			if (local)
				o.st_info = GELF_ST_INFO(STB_LOCAL, type);
			vec_push(symtab, o);
			if (pass == 1) {
				o.st_name = (Elf64_Word)str_add(&l->dynstr, nm);
				vec_push(dynsym, o);
				vec_push(dyn_names, nm);
			}
		}
	}
	return 0;
}

/* Check each X.kd against symbol X after relocation. */
static int check_kds(Link *l, const SymVec *symtab)
{
	for (size_t i = 1; i < symtab->len; i++) {
		const GElf_Sym *s = &symtab->data[i];
		const char *nm = l->strtab.data + s->st_name;
		size_t n = strlen(nm);
		if (n < 4 || strcmp(nm + n - 3, ".kd") != 0 || GELF_ST_BIND(s->st_info) == STB_LOCAL)
			continue;
		OutSec *os = NULL;
		for (size_t k = 0; k < l->secs.len; k++)
			if (l->secs.data[k].index == s->st_shndx)
				os = &l->secs.data[k];
		if (!os || !os->data || s->st_value < os->vaddr || s->st_value - os->vaddr + KD_SIZE > os->size)
			return fail(l, "kernel descriptor '%s' does not lie inside a loaded section", nm);
		const unsigned char *kd = os->data + (s->st_value - os->vaddr);
		int64_t entry = 0;
		for (int b = 7; b >= 0; b--)
			entry = (int64_t)((uint64_t)entry << 8 | kd[16 + b]);
		uint64_t target = s->st_value + (uint64_t)entry;
		if (target % 256 != 0)
			return fail(l, "kernel '%s': entry 0x%llx is not 256-byte aligned", nm, (unsigned long long)target);
		for (size_t k = 1; k < symtab->len; k++) {
			const char *kn = l->strtab.data + symtab->data[k].st_name;
			if (strlen(kn) == n - 3 && strncmp(kn, nm, n - 3) == 0 && symtab->data[k].st_value != target)
				return fail(l, "kernel '%s': descriptor entry 0x%llx is not the address of '%s' (0x%llx)", nm,
					    (unsigned long long)target, kn, (unsigned long long)symtab->data[k].st_value);
		}
	}
	return 0;
}

static int write_linked_elf(Link *l, const GElf_Phdr *ph, uint64_t shoff, Buf *out)
{
	FILE *tf = tmpfile(); /* already unlinked: nothing is left behind */
	if (!tf)
		return fail(l, "cannot create a scratch file: %s", strerror(errno));
	int fd = fileno(tf), r = -1;
	Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e) {
		fail(l, "libelf: %s", elf_errmsg(-1));
		goto done;
	}
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	if (!gelf_newehdr(e, ELFCLASS64) || !gelf_newphdr(e, NPHDR)) {
		fail(l, "libelf: %s", elf_errmsg(-1));
		goto done_e;
	}
	GElf_Ehdr eh;
	gelf_getehdr(e, &eh);
	memcpy(eh.e_ident, l->ehdr.e_ident, EI_NIDENT);
	eh.e_type = ET_DYN;
	eh.e_machine = EM_AMDGPU;
	eh.e_version = EV_CURRENT;
	eh.e_entry = 0;
	eh.e_phoff = EHDR_SIZE;
	eh.e_shoff = shoff;
	eh.e_flags = l->ehdr.e_flags;
	size_t shstrndx = 0;
	for (size_t k = 1; k < l->secs.len; k++) { /* libelf made index 0 */
		OutSec *o = &l->secs.data[k];
		Elf_Scn *scn = elf_newscn(e);
		Elf_Data *d = elf_newdata(scn);
		d->d_buf = o->data;
		d->d_size = o->size;
		d->d_off = 0;
		d->d_align = o->align;
		d->d_version = EV_CURRENT;
		d->d_type = o->type == SHT_SYMTAB || o->type == SHT_DYNSYM ? ELF_T_SYM
			    : o->type == SHT_DYNAMIC			   ? ELF_T_DYN
			    : o->type == SHT_HASH			   ? ELF_T_WORD
									   : ELF_T_BYTE;
		GElf_Shdr sh;
		gelf_getshdr(scn, &sh);
		sh.sh_name = (Elf64_Word)o->name_off;
		sh.sh_type = o->type;
		sh.sh_flags = o->flags;
		sh.sh_addr = o->seg >= 0 ? o->vaddr : 0;
		sh.sh_offset = o->off;
		sh.sh_size = o->size;
		sh.sh_link = o->link_to;
		sh.sh_info = o->info;
		sh.sh_addralign = o->align;
		sh.sh_entsize = o->entsize;
		gelf_update_shdr(scn, &sh);
		if (strcmp(o->name, ".shstrtab") == 0)
			shstrndx = o->index;
	}
	eh.e_shstrndx = (Elf64_Half)shstrndx;
	gelf_update_ehdr(e, &eh);
	for (int i = 0; i < NPHDR; i++)
		gelf_update_phdr(e, i, (GElf_Phdr *)&ph[i]);
	if (elf_update(e, ELF_C_WRITE) < 0) {
		fail(l, "libelf: %s", elf_errmsg(-1));
		goto done_e;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		fail(l, "cannot read back the scratch file");
		goto done_e;
	}
	size_t at = out->len;
	vec_grow(out, (size_t)st.st_size + 1);
	if (pread(fd, out->data + at, (size_t)st.st_size, 0) != st.st_size) {
		fail(l, "cannot read back the scratch file");
		goto done_e;
	}
	out->len += (size_t)st.st_size;
	out->data[out->len] = 0;
	r = 0;
done_e:
	elf_end(e);
done:
	fclose(tf);
	return r;
}

static int link_object(Link *l, const void *obj, size_t len, Buf *out);

int codeobj_link(const void *obj, size_t len, const char *name, Buf *out, Buf *msg)
{
	Link L = {.name = name, .msg = msg};
	return link_object(&L, obj, len, out);
}

int codeobj_link_variant(const void *obj, size_t len, const char *tag, size_t index, const char *name, Buf *out,
	Buf *msg)
{
	Link L = {.name = name, .msg = msg, .tag = tag, .note_index = index};
	return link_object(&L, obj, len, out);
}

/* ---- the phases of link_object ---- */

/* The input: the object (a private copy) opened as l->in, checked to be a
 * 64-bit relocatable AMDGPU object with a symbol table; a variant's symbol
 * names without the tag. */
static int read_input(Link *l, char *copy, size_t len)
{
	l->in = elf_memory(copy, len);
	if (!l->in || elf_kind(l->in) != ELF_K_ELF || !gelf_getehdr(l->in, &l->ehdr))
		return fail(l, "not an ELF file");
	if (l->ehdr.e_ident[EI_CLASS] != ELFCLASS64 || l->ehdr.e_machine != EM_AMDGPU || l->ehdr.e_type != ET_REL)
		return fail(l, "not a 64-bit relocatable AMDGPU object (class %d, machine %d, type %d)",
			    l->ehdr.e_ident[EI_CLASS], l->ehdr.e_machine, l->ehdr.e_type);
	if (elf_getshdrnum(l->in, &l->n_in) != 0)
		return fail(l, "cannot count sections");
	for (size_t i = 1; i < l->n_in; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(l->in, i);
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			l->symdata = elf_getdata(scn, NULL);
			l->nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			l->sym_strndx = sh.sh_link;
		}
	}
	if (!l->symdata)
		return fail(l, "the object has no symbol table");
	if (l->tag) {
		l->names = xcalloc(l->nsyms + 1, sizeof *l->names);
		for (size_t i = 1; i < l->nsyms; i++) {
			GElf_Sym s;
			sym_get(l, i, &s);
			l->names[i] = strip_tag(raw_sym_name(l, &s), l->tag);
		}
	}
	return 0;
}

/* Layout, 1: the output sections in output order (the synthetic ones still
 * empty), each input section's output index, the section names. */
static int place_sections(Link *l, Image *im)
{
	add_sec(l, "", SHT_NULL, 0, 0, -1);
	if (take_inputs(l, 0, true) != 0)
		return -1;
	im->i_dynsym = l->secs.len;
	add_sec(l, ".dynsym", SHT_DYNSYM, SHF_ALLOC, 8, 0)->entsize = 24;
	im->i_hash = l->secs.len;
	add_sec(l, ".hash", SHT_HASH, SHF_ALLOC, 4, 0)->entsize = 4;
	im->i_dynstr = l->secs.len;
	add_sec(l, ".dynstr", SHT_STRTAB, SHF_ALLOC, 1, 0);
	if (take_inputs(l, 0, false) != 0 || take_inputs(l, 1, false) != 0)
		return -1;
	im->i_dynamic = l->secs.len;
	add_sec(l, ".dynamic", SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, 8, 2)->entsize = 16;
	if (take_inputs(l, 2, false) != 0)
		return -1;
	im->i_symtab = l->secs.len;
	add_sec(l, ".symtab", SHT_SYMTAB, 0, 8, -1)->entsize = 24;
	im->i_shstrtab = l->secs.len;
	add_sec(l, ".shstrtab", SHT_STRTAB, 0, 1, -1);
	im->i_strtab = l->secs.len;
	add_sec(l, ".strtab", SHT_STRTAB, 0, 1, -1);
	l->in_to_out = xcalloc(l->n_in, sizeof(size_t));
	for (size_t k = 0; k < l->secs.len; k++) {
		l->secs.data[k].index = k;
		if (l->secs.data[k].in)
			l->in_to_out[l->secs.data[k].in] = k;
		l->secs.data[k].name_off = str_add(&l->shstr, l->secs.data[k].name);
	}
	return 0;
}

/* Layout, 2: the sizes of the synthetic loaded sections, which the
 * addresses depend on before the symbols are built: the dynamic symbols
 * are counted first. */
static void size_dynamic(Link *l, Image *im)
{
	OutSec *S = l->secs.data;
	size_t ndyn = 1;
	Buf dynstr_probe = {0};
	str_add(&dynstr_probe, "");
	for (size_t i = 1; i < l->nsyms; i++) {
		GElf_Sym s;
		sym_get(l, i, &s);
		int bind = GELF_ST_BIND(s.st_info), vis = GELF_ST_VISIBILITY(s.st_other);
		int type = GELF_ST_TYPE(s.st_info);
		if (bind == STB_LOCAL || type == STT_SECTION || type == STT_FILE || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx == SHN_COMMON || (vis != STV_DEFAULT && vis != STV_PROTECTED))
			continue;
		if (s.st_shndx != SHN_ABS && (s.st_shndx >= l->n_in || !l->in_to_out[s.st_shndx]))
			continue;
		ndyn++;
		str_add(&dynstr_probe, sym_name(l, i, &s));
	}
	im->ndyn = ndyn;
	S[im->i_dynsym].size = ndyn * 24;
	S[im->i_hash].size = (2 + 2 * ndyn) * 4;
	S[im->i_dynstr].size = dynstr_probe.len;
	buf_free(&dynstr_probe);
	S[im->i_dynamic].size = 6 * 16;
}

/* Layout, 3: file offsets and addresses of the loaded sections, segment by
 * segment (the rule in the comment at the top). */
static int assign_addresses(Link *l, Image *im)
{
	uint64_t off = EHDR_SIZE + NPHDR * PHDR_SIZE, seg_end_vaddr = 0;
	uint64_t *seg_off = im->seg_off, *seg_vaddr = im->seg_vaddr, *seg_fend = im->seg_fend, *seg_mend = im->seg_mend;
	bool seg_used[3] = {true, false, false};
	int cur = 0;
	for (size_t k = 1; k < l->secs.len; k++) {
		OutSec *o = &l->secs.data[k];
		if (o->seg < 0)
			continue;
		if (o->seg != cur) {
			seg_end_vaddr = seg_mend[cur];
			cur = o->seg;
		}
		if (o->type != SHT_NOBITS)
			off = align_up(off, o->align);
		if (!seg_used[cur]) {
			seg_used[cur] = true;
			seg_off[cur] = off;
			seg_vaddr[cur] = align_up(seg_end_vaddr, PAGE) + off % PAGE;
			seg_fend[cur] = off;
			seg_mend[cur] = seg_vaddr[cur];
		}
		o->off = off;
		o->vaddr = seg_vaddr[cur] + (off - seg_off[cur]);
		if (o->type == SHT_NOBITS) {
			o->vaddr = align_up(seg_mend[cur], o->align);
			seg_mend[cur] = o->vaddr + o->size;
		} else {
			off += o->size;
			seg_fend[cur] = off;
			seg_mend[cur] = o->vaddr + o->size;
		}
	}
	im->off = off;
	if (!seg_used[1])
		return fail(l, "the object has no code (no executable section)");
	return 0;
}

/* Relocation: the code's relocations resolved at the layout's addresses,
 * the symbol tables built, the kernel descriptors' entries checked. */
static int relocate(Link *l, Image *im)
{
	if (apply_relocs(l) != 0 || build_symbols(l, im) != 0)
		return -1;
	check_that(im->dynsym.len == im->ndyn && l->dynstr.len == l->secs.data[im->i_dynstr].size);
	return check_kds(l, &im->symtab);
}

/* Write, 1: the synthetic sections' contents (.dynsym, .hash, .dynstr,
 * .dynamic, .symtab, .shstrtab, .strtab) and the non-alloc sections' file
 * offsets. Returns the section headers' offset. */
static uint64_t fill_synthetic(Link *l, Image *im)
{
	OutSec *S = l->secs.data;
	size_t ndyn = im->ndyn;
	/* SysV hash: nbucket = nchain = number of dynamic symbols */
	Vec(uint32_t) hash = {0};
	vec_push(&hash, (uint32_t)ndyn);
	vec_push(&hash, (uint32_t)ndyn);
	for (size_t b = 0; b < 2 * ndyn; b++)
		vec_push(&hash, 0u);
	for (size_t k = 1; k < ndyn; k++) {
		uint32_t b = sysv_hash(im->dyn_names.data[k - 1]) % (uint32_t)ndyn;
		hash.data[2 + ndyn + k] = hash.data[2 + b];
		hash.data[2 + b] = (uint32_t)k;
	}
	GElf_Dyn *dyn = xcalloc(6, sizeof *dyn);
	GElf_Dyn dv[6] = {{DT_SYMTAB, {S[im->i_dynsym].vaddr}}, {DT_SYMENT, {24}},
			  {DT_STRTAB, {S[im->i_dynstr].vaddr}}, {DT_STRSZ, {S[im->i_dynstr].size}},
			  {DT_HASH, {S[im->i_hash].vaddr}},	    {DT_NULL, {0}}};
	memcpy(dyn, dv, sizeof dv);
	S[im->i_dynsym].data = (unsigned char *)im->dynsym.data;
	im->dynsym.data = NULL;
	S[im->i_hash].data = (unsigned char *)hash.data;
	S[im->i_dynstr].data = (unsigned char *)xmalloc(l->dynstr.len + 1);
	if (l->dynstr.len)
		memcpy(S[im->i_dynstr].data, l->dynstr.data, l->dynstr.len);
	S[im->i_dynamic].data = (unsigned char *)dyn;
	S[im->i_dynsym].link_to = (uint32_t)im->i_dynstr;
	S[im->i_dynsym].info = 1;
	S[im->i_hash].link_to = (uint32_t)im->i_dynsym;
	S[im->i_dynamic].link_to = (uint32_t)im->i_dynstr;
	S[im->i_symtab].size = im->symtab.len * 24;
	S[im->i_symtab].data = (unsigned char *)im->symtab.data;
	im->symtab.data = NULL;
	S[im->i_symtab].link_to = (uint32_t)im->i_strtab;
	S[im->i_symtab].info = (uint32_t)im->first_global;
	S[im->i_shstrtab].size = l->shstr.len;
	S[im->i_shstrtab].data = xmalloc(l->shstr.len + 1);
	if (l->shstr.len)
		memcpy(S[im->i_shstrtab].data, l->shstr.data, l->shstr.len);
	S[im->i_strtab].size = l->strtab.len;
	S[im->i_strtab].data = xmalloc(l->strtab.len + 1);
	if (l->strtab.len)
		memcpy(S[im->i_strtab].data, l->strtab.data, l->strtab.len);
	/* the GElf_Sym (64-bit) arrays are exactly Elf64_Sym: 24 bytes */
	_Static_assert(sizeof(GElf_Sym) == 24, "GElf_Sym must be Elf64_Sym");
	uint64_t off = im->off;
	for (size_t k = 1; k < l->secs.len; k++)
		if (S[k].seg < 0) {
			off = align_up(off, S[k].align);
			S[k].off = off;
			off += S[k].size;
		}
	return align_up(off, 8);
}

/* Write, 2: the program headers: PHDR, LOAD R, R+E and RW, DYNAMIC and
 * GNU_RELRO (over .dynamic), GNU_STACK, NOTE (PT_NULL without notes). */
static void program_headers(const Link *l, const Image *im, GElf_Phdr ph[NPHDR])
{
	const OutSec *S = l->secs.data;
	size_t i_note = 0;
	uint64_t note_end = 0;
	for (size_t k = 1; k < l->secs.len; k++)
		if (S[k].type == SHT_NOTE) {
			if (!i_note)
				i_note = k;
			note_end = S[k].off + S[k].size;
		}
	memset(ph, 0, NPHDR * sizeof *ph);
	ph[0] = (GElf_Phdr){PT_PHDR, PF_R, EHDR_SIZE, EHDR_SIZE, EHDR_SIZE, NPHDR * PHDR_SIZE, NPHDR * PHDR_SIZE, 8};
	uint32_t pf[3] = {PF_R, PF_R | PF_X, PF_R | PF_W};
	for (int g = 0; g < 3; g++) {
		uint64_t fsz = im->seg_fend[g] - im->seg_off[g], msz = im->seg_mend[g] - im->seg_vaddr[g];
		ph[1 + g] = (GElf_Phdr){PT_LOAD, pf[g], im->seg_off[g], im->seg_vaddr[g], im->seg_vaddr[g], fsz, msz, PAGE};
	}
	const OutSec *dy = &S[im->i_dynamic];
	ph[4] = (GElf_Phdr){PT_DYNAMIC, PF_R | PF_W, dy->off, dy->vaddr, dy->vaddr, dy->size, dy->size, 8};
	ph[5] = (GElf_Phdr){PT_GNU_RELRO, PF_R, dy->off, dy->vaddr, dy->vaddr, dy->size, dy->size, 1};
	ph[6] = (GElf_Phdr){PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 0};
	if (i_note)
		ph[7] = (GElf_Phdr){PT_NOTE, PF_R, S[i_note].off, S[i_note].vaddr, S[i_note].vaddr,
				    note_end - S[i_note].off, note_end - S[i_note].off, 4};
	else
		ph[7] = (GElf_Phdr){PT_NULL, 0, 0, 0, 0, 0, 0, 0};
}

static void link_free(Link *l, Image *im)
{
	for (size_t k = 0; k < l->secs.len; k++)
		free(l->secs.data[k].data);
	vec_free(&l->secs);
	vec_free(&im->symtab);
	vec_free(&im->dynsym);
	vec_free(&im->dyn_names);
	free(l->in_to_out);
	for (size_t i = 0; l->names && i < l->nsyms; i++)
		free(l->names[i]);
	free(l->names);
	for (size_t i = 0; i < l->own_names.len; i++)
		free(l->own_names.data[i]);
	vec_free(&l->own_names);
	buf_free(&l->strtab);
	buf_free(&l->dynstr);
	buf_free(&l->shstr);
	if (l->in)
		elf_end(l->in);
}

/* Layout: the sections in output order, the synthetic ones' sizes, then
 * every loaded section's file offset and address. */
static int lay_out(Link *l, Image *im)
{
	if (place_sections(l, im) != 0)
		return -1;
	size_dynamic(l, im);
	return assign_addresses(l, im);
}

/* Write: the synthetic sections' contents, the program headers, the ELF. */
static int write_output(Link *l, Image *im, Buf *out)
{
	GElf_Phdr ph[NPHDR];
	uint64_t shoff = fill_synthetic(l, im);
	program_headers(l, im, ph);
	return write_linked_elf(l, ph, shoff, out);
}

static int link_object(Link *l, const void *obj, size_t len, Buf *out)
{
	if (!elf_ready())
		return fail(l, "libelf: %s", elf_errmsg(-1));
	char *copy = xmalloc(len ? len : 1);
	if (len)
		memcpy(copy, obj, len);
	Image im = {0};
	int r = -1;
	if (read_input(l, copy, len) == 0 && lay_out(l, &im) == 0 && relocate(l, &im) == 0)
		r = write_output(l, &im, out);
	link_free(l, &im);
	free(copy);
	return r;
}
