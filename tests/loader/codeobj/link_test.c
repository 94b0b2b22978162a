/* link_test.c — asm/: llvm-mc discovery and messages, our linker against
 * `ld.lld-19 -shared`, and `wavecc as` on good and bad input.
 *
 * The structural comparison reduces each code object to a text summary with
 * libelf (ELF header fields, load segments, section names/types/flags/
 * alignment, symbols with their offsets inside their sections, the note
 * bytes, the code bytes, the KD bytes with the entry field replaced by the
 * name of the symbol it resolves to) and requires the two summaries to be
 * equal. Addresses themselves may differ: lld adds a .gnu.hash we omit; so
 * for code with PC-relative references to data (clang's constant tables)
 * the code bytes differ and the test runs both files on the emulator
 * instead. */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../asm/asm.h"
#include "../../../driver/driver.h"
#include "../../../loader/codeobj/codeobj.h"
#include "../../../util/npy.h"
#include "../../test.h"

static const char *data_path(const char *name)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/tests/asm/data/%s", test_root(), name);
	return intern(p);
}

static void hex(Buf *b, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%02x", p[i]);
	buf_putc(b, '\n');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The summary described above; NULL if the file is not an ELF. */
static char *summarize(const char *path, bool with_text)
{
	size_t len;
	char *bytes = read_file(path, &len);
	if (!bytes)
		return NULL;
	elf_version(EV_CURRENT);
	Elf *e = elf_memory(bytes, len);
	GElf_Ehdr eh;
	if (!e || !gelf_getehdr(e, &eh)) {
		free(bytes);
		return NULL;
	}
	Buf b = {0};
	buf_printf(&b, "type %d machine %d flags 0x%x osabi %d abiversion %d entry %llu\n", eh.e_type, eh.e_machine,
		   eh.e_flags, eh.e_ident[EI_OSABI], eh.e_ident[EI_ABIVERSION], (unsigned long long)eh.e_entry);
	size_t nph;
	elf_getphdrnum(e, &nph);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		gelf_getphdr(e, (int)i, &ph);
		if (ph.p_type == PT_LOAD || ph.p_type == PT_NOTE || ph.p_type == PT_DYNAMIC)
			buf_printf(&b, "phdr %u flags %u congruent %d\n", ph.p_type, ph.p_flags,
				   ph.p_vaddr % 0x1000 == ph.p_offset % 0x1000);
	}
	size_t shstr, nsec;
	elf_getshdrstrndx(e, &shstr);
	elf_getshdrnum(e, &nsec);
	Elf_Scn *symscn = NULL;
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *s = elf_getscn(e, i);
		GElf_Shdr sh;
		gelf_getshdr(s, &sh);
		const char *nm = elf_strptr(e, shstr, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB)
			symscn = s;
		if (strcmp(nm, ".gnu.hash") == 0 || strcmp(nm, ".comment") == 0 || strcmp(nm, ".relro_padding") == 0 ||
		    (!(sh.sh_flags & SHF_ALLOC) && sh.sh_type == SHT_PROGBITS))
			continue; /* lld extras we do not emit; non-alloc input sections we drop */
		if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			buf_printf(&b, "RELOCATIONS LEFT in %s\n", nm);
		buf_printf(&b, "section %s type %u flags 0x%llx align %llu\n", nm, sh.sh_type,
			   (unsigned long long)sh.sh_flags, (unsigned long long)sh.sh_addralign);
		if (strcmp(nm, ".note") == 0 || (with_text && strcmp(nm, ".text") == 0)) {
			Elf_Data *d = elf_getdata(s, NULL);
			buf_printf(&b, "%s bytes ", nm);
			hex(&b, d->d_buf, d->d_size);
		}
	}
	/* symbols (and the KD bytes through the .kd symbols) */
	GElf_Shdr ssh;
	gelf_getshdr(symscn, &ssh);
	Elf_Data *sd = elf_getdata(symscn, NULL);
	size_t nsym = ssh.sh_size / 24;
	Vec(char *) lines = {0};
	Buf *main_b = &b, sb = {0};
	for (size_t i = 1; i < nsym; i++) {
		Buf *bb = &sb;
		buf_clear(bb);
		GElf_Sym s;
		gelf_getsym(sd, (int)i, &s);
		const char *nm = elf_strptr(e, ssh.sh_link, s.st_name);
		GElf_Shdr sh;
		Elf_Scn *sec = elf_getscn(e, s.st_shndx);
		gelf_getshdr(sec, &sh);
		buf_printf(bb, "sym %s type %d bind %d vis %d size %llu in %s+0x%llx\n", nm, GELF_ST_TYPE(s.st_info),
			   GELF_ST_BIND(s.st_info), GELF_ST_VISIBILITY(s.st_other), (unsigned long long)s.st_size,
			   elf_strptr(e, shstr, sh.sh_name), (unsigned long long)(s.st_value - sh.sh_addr));
		size_t n = strlen(nm);
		if (n > 3 && strcmp(nm + n - 3, ".kd") == 0) {
			Elf_Data *d = elf_getdata(sec, NULL);
			unsigned char kd[64];
			memcpy(kd, (unsigned char *)d->d_buf + (s.st_value - sh.sh_addr), 64);
			int64_t entry;
			memcpy(&entry, kd + 16, 8);
			memset(kd + 16, 0, 8);
			uint64_t target = s.st_value + (uint64_t)entry;
			const char *tn = "?";
			for (size_t k = 1; k < nsym; k++) {
				GElf_Sym t;
				gelf_getsym(sd, (int)k, &t);
				if (t.st_value == target && GELF_ST_TYPE(t.st_info) == STT_FUNC)
					tn = elf_strptr(e, ssh.sh_link, t.st_name);
			}
			buf_printf(bb, "kd %s entry -> %s bytes ", nm, tn);
			hex(bb, kd, 64);
		}
		vec_push(&lines, xstrdup(buf_cstr(bb)));
	}
	/* symbol order is the linkers' choice: compare as a sorted set */
	qsort(lines.data, lines.len, sizeof(char *), cmp_str);
	for (size_t i = 0; i < lines.len; i++) {
		buf_puts(main_b, lines.data[i]);
		free(lines.data[i]);
	}
	vec_free(&lines);
	buf_free(&sb);
	elf_end(e);
	free(bytes);
	return (char *)buf_cstr(&b);
}

/* Assemble `src` for mcpu, link with ours (wavecc as) and with ld.lld-19,
 * and compare the summaries. */
static void compare_with_lld(const char *src, const char *mcpu, const char *tag, bool with_text)
{
	if (!test_need(tag, "ld.lld-19") || !test_need(tag, "llvm-mc-19"))
		return;
	const char *dir = test_tmpdir(tag);
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "%s as --mcpu %s '%s' -o '%s/ours.hsaco' && "
		 "llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj '%s' -o '%s/k.o' && "
		 "ld.lld-19 -shared --no-undefined '%s/k.o' -o '%s/lld.hsaco'",
		 test_bin(), mcpu, src, dir, mcpu, src, dir, dir, dir);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "build failed: %s", r.err);
	ck_assert_str_eq(r.err, ""); /* no warnings from either */
	cmd_result_free(&r);
	char p1[1024], p2[1024];
	snprintf(p1, sizeof p1, "%s/ours.hsaco", dir);
	snprintf(p2, sizeof p2, "%s/lld.hsaco", dir);
	char *a = summarize(p1, with_text), *b = summarize(p2, with_text);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(a, b);
	/* and the summary is not vacuous */
	ck_assert_ptr_nonnull(strstr(a, "kd "));
	ck_assert_ptr_null(strstr(a, "entry -> ?"));
	ck_assert_ptr_null(strstr(a, "RELOCATIONS LEFT"));
	free(a);
	free(b);
	/* llvm-objdump disassembles ours */
	snprintf(cmd, sizeof cmd, "llvm-objdump-19 -d '%s'", p1);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "s_endpgm"));
	ck_assert_ptr_nonnull(strstr(r.out, "file format elf64-amdgpu"));
	cmd_result_free(&r);
	/* llvm-readelf accepts ours without warnings */
	snprintf(cmd, sizeof cmd, "llvm-readelf-19 -a '%s'", p1);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.err, "");
	cmd_result_free(&r);
}

START_TEST(skeleton_matches_lld)
{
	compare_with_lld(data_path("vadd_gfx942.s"), "gfx942", "asm_skel", true);
	/* for the skeleton the addresses are identical to lld's, too:
	 * .rodata at 0x4c0, .text at 0x1500, entry offset 0x1040 (what ld.lld-19 -shared produces) */
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/tmp/asm_skel/ours.hsaco", test_build());
	char *s = summarize(path, true);
	ck_assert_ptr_nonnull(strstr(s, "flags 0x54c osabi 64 abiversion 3"));
	free(s);
	CmdResult r = run_cmd(
		intern(strcat(strcpy((char[1200]){0}, "llvm-objdump-19 -s -j .rodata -j .text --section-headers "), path)),
		NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, " 04d0 40100000 00000000"));
	ck_assert_ptr_nonnull(strstr(r.out, ".text         0000004c 0000000000001500"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(two_kernels_match_lld)
{
	compare_with_lld(data_path("two_kernels_gfx942.s"), "gfx942", "asm_two", true);
}
END_TEST

START_TEST(gfx90a_matches_lld)
{
	compare_with_lld(data_path("vadd_gfx90a.s"), "gfx90a", "asm_90a", true);
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/tmp/asm_90a/ours.hsaco", test_build());
	char *s = summarize(path, true);
	ck_assert_ptr_nonnull(strstr(s, "flags 0x53f"));
	free(s);
}
END_TEST

/* clang-19 assembly (a __constant table reached through rel32 lo/hi, LDS,
 * a barrier, two kernels, hidden symbols) links like lld's and both links
 * compute the same, correct result on the emulator. */
START_TEST(clang_kernel_matches_lld)
{
	if (!test_need("link: asm_clang_src", "clang-19") || !test_need("link: asm_clang_src", "ld.lld-19"))
		return;
	const char *dir = test_tmpdir("asm_clang_src");
	char cmd[8192], src[1024];
	snprintf(src, sizeof src, "%s/mix.s", dir);
	snprintf(cmd, sizeof cmd,
		 "clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3 -S '%s' -o '%s'",
		 data_path("clang_mix.cl"), src);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	compare_with_lld(src, "gfx942", "asm_clang", false); /* writes asm_clang/{ours,lld}.hsaco */
	snprintf(cmd, sizeof cmd, "%s/tests/tmp/asm_clang", test_build());
	dir = intern(cmd);
	const char *desc = "{\"format\": \"wavecc-launch/1\", \"code_object\": \"CO\", \"kernel\": \"mix\", "
			   "\"arch\": \"gfx942\", \"workgroup_size\": [64, 1, 1], \"grid\": [\"ceiling(n / 64)\", 1, 1], "
			   "\"lds_bytes\": 256, \"kernarg_size\": 20, \"args\": ["
			   "{\"name\": \"x\", \"kind\": \"buffer\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"offset\": 0, "
			   "\"access\": \"read\"}, {\"name\": \"y\", \"kind\": \"buffer\", \"dtype\": \"f32\", "
			   "\"shape\": [\"n\"], \"offset\": 8, \"access\": \"write\"}, {\"name\": \"n\", \"kind\": "
			   "\"scalar\", \"dtype\": \"i32\", \"offset\": 16}]}";
	enum { N = 150 };
	float x[N];
	for (int i = 0; i < N; i++)
		x[i] = (float)(i % 13 - 6); /* small integers: every sum below is exact */
	char path[1024], err[256];
	int64_t shape[1] = {N};
	snprintf(path, sizeof path, "%s/x.npy", dir);
	ck_assert_int_eq(npy_write(path, DT_F32, 1, shape, x, err, sizeof err), 0);
	const char *which[] = {"ours.hsaco", "lld.hsaco"};
	for (int w = 0; w < 2; w++) {
		Buf d = {0};
		for (const char *p = desc; *p; p++)
			if (strncmp(p, "CO", 2) == 0) {
				buf_puts(&d, which[w]);
				p++;
			} else {
				buf_putc(&d, *p);
			}
		snprintf(path, sizeof path, "%s/mix%d.json", dir, w);
		ck_assert_int_eq(write_file_atomic(path, d.data, d.len, 0644), 0);
		buf_free(&d);
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run mix%d.json -D n=%d --in x=x.npy --out y=y%d.npy", dir,
			 test_bin(), w, N, w);
		r = run_cmd(cmd, NULL);
		ck_assert_msg(r.status == 0, "%s: %s", which[w], r.err);
		cmd_result_free(&r);
		snprintf(path, sizeof path, "%s/y%d.npy", dir, w);
		NpyArray y;
		ck_assert_int_eq(npy_read(path, &y, err, sizeof err), 0);
		static const float coeff[8] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, 4.0f, 8.0f, 16.0f};
		for (int g = 0; g < N; g++) {
			int l = g % 64, base = g - l;
			float acc = 0;
			for (int k = 0; k < 8; k++) {
				int t = base + ((l + k) & 63);
				acc += coeff[(g + k) & 7] * (t < N ? x[t] : 0.0f);
			}
			ck_assert_msg(((float *)y.data)[g] == acc, "%s: y[%d] = %g, want %g", which[w], g,
				      ((float *)y.data)[g], acc);
		}
		npy_free(&y);
	}
}
END_TEST

/* The library path the compiler will use: text in memory, bytes back. */
START_TEST(build_from_memory)
{
	size_t len;
	char *text = read_file(data_path("vadd_gfx942.s"), &len);
	ck_assert_ptr_nonnull(text);
	AsmOptions o = {NULL, "gfx942", "mem.s", false};
	Buf out = {0}, msg = {0};
	ck_assert_int_eq(compile_build(&o, text, len, &out, &msg), 0);
	ck_assert_uint_eq(msg.len, 0);
	ck_assert_uint_gt(out.len, 1024);
	ck_assert_int_eq(memcmp(out.data, "\177ELF", 4), 0);
	ck_assert_int_eq(out.data[16], 3); /* ET_DYN */
	/* the same again gives the same bytes (deterministic output) */
	Buf again = {0};
	ck_assert_int_eq(compile_build(&o, text, len, &again, &msg), 0);
	ck_assert_uint_eq(again.len, out.len);
	ck_assert_int_eq(memcmp(again.data, out.data, out.len), 0);
	buf_free(&again);
	buf_free(&out);
	buf_free(&msg);
	free(text);
}
END_TEST

START_TEST(bad_assembly_shows_llvm_mc_message_and_writes_nothing)
{
	const char *dir = test_tmpdir("asm_bad");
	char src[1024], out[1024], cmd[4096];
	snprintf(src, sizeof src, "%s/bad.s", dir);
	snprintf(out, sizeof out, "%s/bad.hsaco", dir);
	const char *text = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\tv_frobnicate v0, v1\n";
	ck_assert_int_eq(write_file_atomic(src, text, strlen(text), 0644), 0);
	snprintf(cmd, sizeof cmd, "%s as '%s' -o '%s'", test_bin(), src, out);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "rejected the input"));
	ck_assert_ptr_nonnull(strstr(r.err, "bad.s:3:2: error: invalid instruction"));
	ck_assert_ptr_nonnull(strstr(r.err, "v_frobnicate v0, v1"));
	ck_assert_ptr_null(strstr(r.err, "<stdin>"));
	cmd_result_free(&r);
	struct stat st;
	ck_assert_int_ne(stat(out, &st), 0);
	/* and the directory holds nothing but the source: no temp files */
	snprintf(cmd, sizeof cmd, "ls -A '%s'", dir);
	r = run_cmd(cmd, NULL);
	ck_assert_str_eq(r.out, "bad.s\n");
	cmd_result_free(&r);
	/* gfx942 code for gfx90a: llvm-mc says the target does not match */
	snprintf(cmd, sizeof cmd, "%s as --mcpu gfx90a '%s' -o '%s'", test_bin(), data_path("vadd_gfx942.s"), out);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "does not match the specified target id"));
	cmd_result_free(&r);
	ck_assert_int_ne(stat(out, &st), 0);
}
END_TEST

START_TEST(llvm_mc_selection)
{
	char cmd[4096];
	const char *src = data_path("vadd_gfx942.s");
	const char *dir = test_tmpdir("asm_sel");
	/* -v names the one that ran */
	snprintf(cmd, sizeof cmd, "%s as -v '%s' -o '%s/a.hsaco'", test_bin(), src, dir);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "wavecc: assembling with /"));
	cmd_result_free(&r);
	if (access("/usr/lib/llvm-19/bin/llvm-mc", X_OK) == 0) {
		snprintf(cmd, sizeof cmd, "WAVECC_LLVM_MC=/usr/lib/llvm-19/bin/llvm-mc %s as -v '%s' -o '%s/b.hsaco'",
			 test_bin(), src, dir);
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 0);
		ck_assert_ptr_nonnull(
			strstr(r.err, "assembling with /usr/lib/llvm-19/bin/llvm-mc (found via $WAVECC_LLVM_MC)"));
		cmd_result_free(&r);
		/* --llvm-mc wins over the environment */
		snprintf(cmd, sizeof cmd,
			 "WAVECC_LLVM_MC=/nonexistent %s as -v --llvm-mc /usr/lib/llvm-19/bin/llvm-mc '%s' -o '%s/c.hsaco'",
			 test_bin(), src, dir);
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 0);
		ck_assert_ptr_nonnull(strstr(r.err, "(found via --llvm-mc)"));
		cmd_result_free(&r);
	}
	snprintf(cmd, sizeof cmd, "WAVECC_LLVM_MC=/nonexistent/llvm-mc %s as '%s' -o '%s/d.hsaco'", test_bin(), src,
		 dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "$WAVECC_LLVM_MC=/nonexistent/llvm-mc: not an executable file"));
	cmd_result_free(&r);
	/* an "assembler" that fails: its stderr is shown */
	snprintf(cmd, sizeof cmd, "%s as --llvm-mc /bin/false '%s' -o '%s/e.hsaco'", test_bin(), src, dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "/bin/false (found via --llvm-mc) rejected the input (exit status 1)"));
	cmd_result_free(&r);
	/* usage errors exit 2 */
	snprintf(cmd, sizeof cmd, "%s as --mcpu gfx1100 '%s'", test_bin(), src);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "%s as", test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

static int link_text(const char *text, Buf *msg)
{
	AsmOptions o = {NULL, "gfx942", "t.s", false};
	Buf obj = {0}, out = {0};
	int r = asm_assemble(&o, text, strlen(text), &obj, msg);
	ck_assert_msg(r == 0, "assembly failed: %s", buf_cstr(msg));
	r = codeobj_link(obj.data, obj.len, "t.o", &out, msg);
	buf_free(&obj);
	buf_free(&out);
	return r;
}

START_TEST(link_rejects_what_it_cannot_do)
{
	Buf msg = {0};
	/* an undefined symbol (lld --no-undefined would refuse too) */
	ck_assert_int_eq(link_text("\t.text\nk:\n\ts_getpc_b64 s[0:1]\n"
				   "\ts_add_u32 s0, s0, ext@rel32@lo+4\n\ts_endpgm\n",
				   &msg),
			 -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "t.o: link error: undefined symbol 'ext'"));
	buf_clear(&msg);
	/* an absolute address would need a dynamic relocation */
	ck_assert_int_eq(link_text("\t.text\nk:\n\ts_endpgm\n\t.rodata\n\t.quad k\n", &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "relocation type 3 against "));
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "would need a dynamic relocation"));
	buf_clear(&msg);
	/* PC-relative to an interposable global: refused, as lld does */
	ck_assert_int_eq(link_text("\t.text\nk:\n\ts_getpc_b64 s[0:1]\n"
				   "\ts_add_u32 s0, s0, g@rel32@lo+4\n\ts_endpgm\n\t.rodata\n\t.globl g\ng:\n\t.long 1\n",
				   &msg),
			 -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "preemptible symbol 'g'"));
	buf_clear(&msg);
	/* PC-relative lo/hi pairs are resolved */
	ck_assert_int_eq(link_text("\t.text\nk:\n\ts_getpc_b64 s[0:1]\n"
				   "\ts_add_u32 s0, s0, tab@rel32@lo+4\n\ts_addc_u32 s1, s1, tab@rel32@hi+12\n"
				   "\ts_endpgm\n\t.rodata\ntab:\n\t.long 1\n",
				   &msg),
			 0);
	buf_clear(&msg);
	/* not an object */
	Buf out = {0};
	ck_assert_int_eq(codeobj_link("garbage", 7, "g.o", &out, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "g.o: link error: not an ELF file"));
	ck_assert_uint_eq(out.len, 0);
	buf_free(&msg);
}
END_TEST

/* Hand-check the PC-relative lo/hi result against lld's. */
START_TEST(rel32_pair_matches_lld)
{
	if (!test_need("link: asm_rel32", "ld.lld-19"))
		return;
	const char *dir = test_tmpdir("asm_rel32");
	char src[1024], cmd[4096];
	snprintf(src, sizeof src, "%s/r.s", dir);
	const char *text = "\t.text\n\t.globl k\n\t.p2align 8\nk:\n\ts_getpc_b64 s[0:1]\n"
			   "\ts_add_u32 s0, s0, tab@rel32@lo+4\n\ts_addc_u32 s1, s1, tab@rel32@hi+12\n"
			   "\ts_endpgm\n\t.rodata\n\t.globl tab\n\t.protected tab\ntab:\n\t.long 1\n"
			   /* a kernel descriptor: `wavecc as` refuses a file without a kernel */
			   "\t.p2align 6\n\t.amdhsa_kernel k\n\t.amdhsa_next_free_vgpr 1\n\t.amdhsa_next_free_sgpr 1\n"
			   "\t.amdhsa_accum_offset 4\n\t.end_amdhsa_kernel\n";
	ck_assert_int_eq(write_file_atomic(src, text, strlen(text), 0644), 0);
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && %s as r.s -o ours.hsaco && llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 "
		 "-filetype=obj r.s -o r.o && ld.lld-19 -shared r.o -o lld.hsaco && "
		 "llvm-objdump-19 -d ours.hsaco | grep -E 's_(getpc|add)' && llvm-nm-19 ours.hsaco | grep ' tab$' && "
		 "llvm-objdump-19 -d lld.hsaco | grep -E 's_(getpc|add)' && llvm-nm-19 lld.hsaco | grep ' tab$'",
		 dir, test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s %s", r.out, r.err);
	/* For each file: s_getpc at P gives P+4; P+4 + (hi:lo) must be tab. */
	const char *p = r.out;
	for (int f = 0; f < 2; f++) {
		unsigned long long pc, lo, hi, tab;
		const char *q = strstr(p, "// ");
		ck_assert_ptr_nonnull(q);
		ck_assert_int_eq(sscanf(q, "// %llx", &pc), 1);
		q = strstr(q, "s_add_u32 s0, s0, ");
		ck_assert_ptr_nonnull(q);
		ck_assert_int_eq(sscanf(q, "s_add_u32 s0, s0, %lli", &lo), 1);
		q = strstr(q, "s_addc_u32 s1, s1, ");
		ck_assert_ptr_nonnull(q);
		long long hs;
		ck_assert_int_eq(sscanf(q, "s_addc_u32 s1, s1, %lli", &hs), 1);
		hi = (unsigned long long)hs & 0xffffffffu;
		q = strchr(q, '\n') + 1;
		ck_assert_int_eq(sscanf(q, "%llx", &tab), 1);
		ck_assert_uint_eq(pc + 4 + ((hi << 32) | (lo & 0xffffffffu)), tab);
		p = strchr(q, '\n') + 1;
	}
	cmd_result_free(&r);
}
END_TEST

/* Damaged objects: every truncation and many single-byte corruptions of a
 * real object must give an error or a linked file, never a crash (run
 * under ASan in CI). */
START_TEST(link_survives_damaged_objects)
{
	size_t len;
	char *text = read_file(data_path("two_kernels_gfx942.s"), &len);
	AsmOptions o = {NULL, "gfx942", "t.s", false};
	Buf obj = {0}, msg = {0};
	ck_assert_int_eq(asm_assemble(&o, text, len, &obj, &msg), 0);
	int failed = 0, ok = 0;
	for (size_t cut = 0; cut < obj.len; cut += 97) {
		Buf out = {0};
		buf_clear(&msg);
		if (codeobj_link(obj.data, cut, "cut.o", &out, &msg) == 0)
			ok++;
		else
			failed++;
		buf_free(&out);
	}
	ck_assert_int_gt(failed, 0);
	uint64_t s = 12345;
	unsigned char *copy = xmalloc(obj.len);
	for (int round = 0; round < 400; round++) {
		memcpy(copy, obj.data, obj.len);
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		size_t at = (size_t)(s >> 33) % obj.len;
		copy[at] ^= (unsigned char)(1u << ((s >> 20) & 7));
		Buf out = {0};
		buf_clear(&msg);
		if (codeobj_link(copy, obj.len, "flip.o", &out, &msg) == 0)
			ok++;
		else
			ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "flip.o: link error: "));
		buf_free(&out);
	}
	ck_assert_int_gt(ok, 0);
	free(copy);
	free(text);
	buf_free(&obj);
	buf_free(&msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loader/codeobj/link");
	TCase *tc = tcase_create("link");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, skeleton_matches_lld);
	tcase_add_test(tc, two_kernels_match_lld);
	tcase_add_test(tc, gfx90a_matches_lld);
	tcase_add_test(tc, clang_kernel_matches_lld);
	tcase_add_test(tc, build_from_memory);
	tcase_add_test(tc, bad_assembly_shows_llvm_mc_message_and_writes_nothing);
	tcase_add_test(tc, llvm_mc_selection);
	tcase_add_test(tc, link_rejects_what_it_cannot_do);
	tcase_add_test(tc, rel32_pair_matches_lld);
	tcase_add_test(tc, link_survives_damaged_objects);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
