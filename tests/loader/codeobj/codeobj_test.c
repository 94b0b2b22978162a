/* codeobj_test.c — loader/codeobj/kd.c and loader/codeobj/codeobj.c, metadata.c:
 * a minimal gfx942 kernel's KD bytes (as clang-19/llvm-mc-19 emit them) decode to the documented
 * fields; code objects built by `wavecc as` and by ld.lld-19 read the same;
 * malformed descriptors, notes and files are rejected with messages;
 * `wavecc info` prints the kernels. */
#include <elf.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "../../../loader/codeobj/codeobj.h"
#include "../../test.h"

/* A minimal gfx942 kernel's KD as llvm-objdump -s prints it. */
static const char SKEL_KD_DUMP[] = "00000000 00000000 18000000 00000000 40100000 00000000 00000000 00000000 "
				   "00000000 00000000 00000000 00000000 4000af00 84000000 08000000 00000000";

static void parse_dump(const char *d, uint8_t out[64])
{
	int n = 0;
	for (const char *p = d; *p && n < 64; p++) {
		if (*p == ' ')
			continue;
		unsigned v;
		ck_assert_int_eq(sscanf(p, "%2x", &v), 1);
		out[n++] = (uint8_t)v;
		p++;
	}
	ck_assert_int_eq(n, 64);
}

START_TEST(kd_skeleton_fields)
{
	uint8_t b[64];
	parse_dump(SKEL_KD_DUMP, b);
	KernelDescriptor kd;
	char why[128];
	ck_assert_int_eq(kd_decode(b, &kd, why, sizeof why), 0);
	ck_assert_uint_eq(kd.kernarg_size, 24);
	ck_assert_int_eq(kd.kernel_code_entry_byte_offset, 0x1040);
	ck_assert_uint_eq(kd.rsrc1, 0x00af0040);
	ck_assert_uint_eq(kd.vgpr_granules, 0);
	ck_assert_uint_eq(kd.sgpr_granules, 1);
	ck_assert_uint_eq(kd.float_denorm_mode_32, 3);
	ck_assert_uint_eq(kd.float_denorm_mode_16_64, 3);
	ck_assert(kd.dx10_clamp && kd.ieee_mode && !kd.fp16_overflow);
	ck_assert_uint_eq(kd.user_sgpr_count, 2);
	ck_assert(kd.enable_wgid[0] && !kd.enable_wgid[1] && !kd.enable_wgid[2]);
	ck_assert_uint_eq(kd.accum_offset, 4);
	ck_assert(kd.user_kernarg_segment_ptr && !kd.user_dispatch_ptr);
	ck_assert_int_eq(kd.sgpr_kernarg_ptr, 0);
	ck_assert_int_eq(kd.sgpr_wgid[0], 2);
	ck_assert_int_eq(kd.sgpr_wgid[1], -1);
	ck_assert_uint_eq(kd.vgpr_alloc, 8);
	ck_assert_uint_eq(kd.sgpr_alloc, 16);
}
END_TEST

START_TEST(kd_rejects_bad_descriptors)
{
	uint8_t b[64] = {0};
	b[52] = 0x84;
	b[56] = 0x08;
	KernelDescriptor kd;
	char why[128];
	ck_assert_int_eq(kd_decode(b, &kd, why, sizeof why), 0);
	uint8_t r[64];
	memcpy(r, b, 64);
	r[30] = 1; /* reserved */
	ck_assert_int_eq(kd_decode(r, &kd, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "reserved"));
	memcpy(r, b, 64);
	r[52] = 0x80 | (1 << 1); /* user_sgpr_count 1 but kernarg ptr needs 2 */
	ck_assert_int_eq(kd_decode(r, &kd, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "user_sgpr_count 1"));
	memcpy(r, b, 64);
	r[57] = 0x04; /* wavefront_size32 */
	ck_assert_int_eq(kd_decode(r, &kd, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "wave64"));
	/* dispatch ptr + kernarg ptr: kernarg moves to s[2:3], wgid x to s4 */
	memcpy(r, b, 64);
	r[56] = 0x0a;
	r[52] = 0x80 | (4 << 1);
	ck_assert_int_eq(kd_decode(r, &kd, why, sizeof why), 0);
	ck_assert_int_eq(kd.sgpr_dispatch_ptr, 0);
	ck_assert_int_eq(kd.sgpr_kernarg_ptr, 2);
	ck_assert_int_eq(kd.sgpr_wgid[0], 4);
}
END_TEST

static const char *build(const char *src, const char *mcpu, const char *dir, const char *out)
{
	char cmd[4096], path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, out);
	snprintf(cmd, sizeof cmd, "%s as --mcpu %s '%s/tests/asm/data/%s' -o '%s'", test_bin(), mcpu, test_root(), src,
		 path);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	return intern(path);
}

START_TEST(read_two_kernels)
{
	const char *dir = test_tmpdir("co_two");
	const char *p = build("two_kernels_gfx942.s", "gfx942", dir, "two.hsaco");
	CodeObject co;
	Buf msg = {0};
	ck_assert_msg(codeobj_read_file(p, &co, &msg) == 0, "%s", buf_cstr(&msg));
	ck_assert_str_eq(co.mcpu, "gfx942");
	ck_assert_int_eq(co.code_object_version, 5);
	ck_assert_str_eq(co.xnack, "any");
	ck_assert_int_eq(co.nload, 3);
	ck_assert_uint_eq(co.nkernels, 2);
	ck_assert(co.meta.present);
	ck_assert_int_eq(co.meta.version[0], 1);
	ck_assert_int_eq(co.meta.version[1], 2);
	ck_assert_str_eq(co.meta.target, "amdgcn-amd-amdhsa--gfx942");
	const CodeKernel *f = codeobj_kernel(&co, "fill"), *s = codeobj_kernel(&co, "scale.kd");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_null(codeobj_kernel(&co, "nope"));
	ck_assert_uint_eq(f->kd.kernarg_size, 12);
	ck_assert_uint_eq(f->entry_vaddr % 256, 0);
	ck_assert_uint_eq(f->code_size, 56);
	/* the entry really is fill's code: first word s_load_dwordx2 s[4:5], s[0:1], 0 */
	const uint8_t *code = co.image + (f->entry_vaddr - co.base);
	ck_assert_uint_eq(code[0] | code[1] << 8 | code[2] << 16 | (uint32_t)code[3] << 24, 0xC0060100);
	ck_assert_uint_eq(s->kd.group_segment_fixed_size, 1024);
	ck_assert(s->kd.enable_wgid[1]);
	ck_assert_uint_eq(s->kd.vgpr_workitem_id, 1);
	ck_assert_uint_eq(s->kd.accum_offset, 32);
	ck_assert_uint_eq(s->kd.vgpr_alloc, 40);
	ck_assert_ptr_nonnull(f->meta);
	ck_assert_uint_eq(f->meta->nargs, 2);
	ck_assert_str_eq(f->meta->args[1].name, "value");
	ck_assert_str_eq(f->meta->args[1].value_kind, "by_value");
	ck_assert_uint_eq(f->meta->args[1].offset, 8);
	ck_assert_uint_eq(f->meta->args[1].size, 4);
	ck_assert_str_eq(f->meta->args[0].address_space, "global");
	ck_assert_int_eq(s->meta->agpr_count, 8);
	ck_assert_int_eq(s->meta->max_flat_workgroup_size, 256);
	ck_assert_int_eq(s->meta->sgpr_spill_count, -1);
	codeobj_free(&co);
	buf_free(&msg);
}
END_TEST

/* ld.lld-19's output reads to the same kernels and descriptors. */
START_TEST(read_lld_output)
{
	if (!test_need("codeobj: lld", "ld.lld-19"))
		return;
	const char *dir = test_tmpdir("co_lld");
	char cmd[4096], p[1024];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj "
		 "'%s/tests/asm/data/two_kernels_gfx942.s' -o k.o && ld.lld-19 -shared k.o -o lld.hsaco",
		 dir, test_root());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	const char *ours = build("two_kernels_gfx942.s", "gfx942", dir, "ours.hsaco");
	snprintf(p, sizeof p, "%s/lld.hsaco", dir);
	CodeObject a, b;
	Buf msg = {0};
	ck_assert_int_eq(codeobj_read_file(ours, &a, &msg), 0);
	ck_assert_int_eq(codeobj_read_file(p, &b, &msg), 0);
	ck_assert_uint_eq(a.nkernels, b.nkernels);
	for (size_t i = 0; i < a.nkernels; i++) {
		const CodeKernel *ka = &a.kernels[i], *kb = codeobj_kernel(&b, a.kernels[i].name);
		ck_assert_ptr_nonnull(kb);
		ck_assert_int_eq(memcmp(ka->kd_bytes + 24, kb->kd_bytes + 24, 40), 0);
		ck_assert_int_eq(memcmp(ka->kd_bytes, kb->kd_bytes, 16), 0);
		ck_assert_uint_eq(ka->code_size, kb->code_size);
		ck_assert_int_eq(memcmp(a.image + (ka->entry_vaddr - a.base), b.image + (kb->entry_vaddr - b.base),
					ka->code_size),
				 0);
	}
	codeobj_free(&a);
	codeobj_free(&b);
	buf_free(&msg);
}
END_TEST

static int decode_packed(msgpack_sbuffer *sb, Buf *msg)
{
	Arena a;
	arena_init(&a);
	CodeMetadata md;
	int r = metadata_decode(sb->data, sb->size, &a, &md, msg);
	arena_free(&a);
	return r;
}

static void pack_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

START_TEST(metadata_bad_inputs)
{
	Buf msg = {0};
	msgpack_sbuffer sb;
	msgpack_packer pk;
	/* not a map */
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_int(&pk, 3);
	ck_assert_int_eq(decode_packed(&sb, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "top level should be a map"));
	msgpack_sbuffer_destroy(&sb);
	/* kernel .kernarg_segment_size as a string */
	buf_clear(&msg);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 1);
	pack_str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, 1);
	msgpack_pack_map(&pk, 3);
	pack_str(&pk, ".name");
	pack_str(&pk, "k");
	pack_str(&pk, ".symbol");
	pack_str(&pk, "k.kd");
	pack_str(&pk, ".kernarg_segment_size");
	pack_str(&pk, "24");
	ck_assert_int_eq(decode_packed(&sb, &msg), -1);
	ck_assert_str_eq(buf_cstr(&msg), "metadata note: amdhsa.kernels[0] .kernarg_segment_size should be an integer");
	/* truncated: drop the last bytes */
	buf_clear(&msg);
	sb.size -= 3;
	ck_assert_int_eq(decode_packed(&sb, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "not valid MessagePack"));
	msgpack_sbuffer_destroy(&sb);
	/* an argument without .offset */
	buf_clear(&msg);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 1);
	pack_str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, 1);
	msgpack_pack_map(&pk, 3);
	pack_str(&pk, ".name");
	pack_str(&pk, "k");
	pack_str(&pk, ".symbol");
	pack_str(&pk, "k.kd");
	pack_str(&pk, ".args");
	msgpack_pack_array(&pk, 1);
	msgpack_pack_map(&pk, 2);
	pack_str(&pk, ".size");
	msgpack_pack_uint32(&pk, 8);
	pack_str(&pk, ".value_kind");
	pack_str(&pk, "by_value");
	ck_assert_int_eq(decode_packed(&sb, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "amdhsa.kernels[0].args[0] argument should be a map with .offset"));
	msgpack_sbuffer_destroy(&sb);
	buf_free(&msg);
}
END_TEST

START_TEST(bad_files_rejected)
{
	const char *dir = test_tmpdir("co_bad");
	const char *good = build("vadd_gfx942.s", "gfx942", dir, "v.hsaco");
	size_t len;
	char *bytes = read_file(good, &len);
	CodeObject co;
	Buf msg = {0};
	/* every truncation fails cleanly (or, never, crashes) */
	for (size_t cut = 0; cut < len; cut += 61) {
		buf_clear(&msg);
		int r = codeobj_read(bytes, cut, "cut.hsaco", &co, &msg);
		ck_assert_msg(r == -1, "truncated at %zu accepted", cut);
		ck_assert_msg(strncmp(buf_cstr(&msg), "cut.hsaco: ", 11) == 0, "%s", msg.data);
		codeobj_free(&co);
	}
	/* single-bit corruptions: an error or a readable object, never a crash */
	uint64_t seed = 99;
	char *copy = xmalloc(len);
	for (int round = 0; round < 400; round++) {
		memcpy(copy, bytes, len);
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		copy[(seed >> 33) % len] ^= (char)(1u << ((seed >> 20) & 7));
		buf_clear(&msg);
		if (codeobj_read(copy, len, "flip.hsaco", &co, &msg) != 0)
			ck_assert_msg(strncmp(buf_cstr(&msg), "flip.hsaco: ", 12) == 0, "%s", msg.data);
		codeobj_free(&co);
	}
	free(copy);
	/* a relocatable object is named as such */
	char cmd[2048], obj[1024];
	snprintf(obj, sizeof obj, "%s/v.o", dir);
	snprintf(cmd, sizeof cmd, "llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj "
				  "'%s/tests/asm/data/vadd_gfx942.s' -o '%s'",
		 test_root(), obj);
	if (system(cmd) == 0) {
		buf_clear(&msg);
		ck_assert_int_eq(codeobj_read_file(obj, &co, &msg), -1);
		ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "relocatable object"));
		codeobj_free(&co);
	}
	/* a corrupted KD (reserved byte set) is reported with the kernel name */
	CodeObject ok;
	ck_assert_int_eq(codeobj_read(bytes, len, "v.hsaco", &ok, &msg), 0);
	uint64_t kd_off = ok.kernels[0].kd_vaddr; /* vaddr == file offset in the first segment */
	codeobj_free(&ok);
	bytes[kd_off + 30] = 1;
	buf_clear(&msg);
	ck_assert_int_eq(codeobj_read(bytes, len, "v.hsaco", &co, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "kernel descriptor vadd.kd: reserved"));
	codeobj_free(&co);
	bytes[kd_off + 30] = 0;
	/* wrong OS ABI */
	bytes[7] = 0;
	buf_clear(&msg);
	ck_assert_int_eq(codeobj_read(bytes, len, "v.hsaco", &co, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "not AMDGPU HSA"));
	codeobj_free(&co);
	buf_clear(&msg);
	ck_assert_int_eq(codeobj_read_file("/nonexistent.hsaco", &co, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "/nonexistent.hsaco: cannot read"));
	codeobj_free(&co);
	/* a device is never read (it would be read without end) */
	buf_clear(&msg);
	ck_assert_int_eq(codeobj_read_file("/dev/zero", &co, &msg), -1);
	ck_assert_ptr_nonnull(strstr(buf_cstr(&msg), "/dev/zero: cannot read: not a regular file (a character device)"));
	codeobj_free(&co);
	free(bytes);
	buf_free(&msg);
}
END_TEST

/* Set the p_memsz of the last PT_LOAD of an ELF64 image; returns its index. */
static int set_last_memsz(char *bytes, size_t len, uint64_t memsz)
{
	Elf64_Ehdr eh;
	memcpy(&eh, bytes, sizeof eh);
	int last = -1;
	for (int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		size_t off = eh.e_phoff + (size_t)i * eh.e_phentsize;
		ck_assert(off + sizeof ph <= len);
		memcpy(&ph, bytes + off, sizeof ph);
		if (ph.p_type == PT_LOAD)
			last = i;
	}
	ck_assert_int_ge(last, 0);
	Elf64_Phdr ph;
	size_t off = eh.e_phoff + (size_t)last * eh.e_phentsize;
	memcpy(&ph, bytes + off, sizeof ph);
	ph.p_memsz = memsz;
	memcpy(bytes + off, &ph, sizeof ph);
	return last;
}

/* A corrupted program header (a segment of 700 MB in memory) is a located
 * error from the reader and from `wavecc run`, never an out-of-memory abort;
 * a large but allowed one (200 MB) still runs — the emulator's decode cache
 * is paged, not sized from the image. */
START_TEST(corrupt_program_header)
{
	const char *dir = test_tmpdir("co_phdr");
	const char *good = build("vadd_gfx942.s", "gfx942", dir, "vadd.hsaco");
	size_t len;
	char *bytes = read_file(good, &len);
	int seg = set_last_memsz(bytes, len, (uint64_t)700 << 20);
	CodeObject co;
	Buf msg = {0};
	ck_assert_int_eq(codeobj_read(bytes, len, "big.hsaco", &co, &msg), -1);
	char want[256];
	snprintf(want, sizeof want,
		 "big.hsaco: program header %d: PT_LOAD segment of 734003200 bytes in memory; at most 256 MiB", seg);
	ck_assert_msg(strstr(buf_cstr(&msg), want), "'%s' lacks '%s'", buf_cstr(&msg), want);
	codeobj_free(&co);
	char path[1024], cmd[4096];
	snprintf(path, sizeof path, "%s/vadd.hsaco", dir);
	ck_assert_int_eq(write_file_atomic(path, bytes, len, 0644), 0);
	snprintf(cmd, sizeof cmd, "cd '%s' && cp '%s/tests/loader/data/vadd.json' . && %s run vadd.json -D N=128", dir,
		 test_root(), test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 1, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "vadd.json:1:46: error: code_object: vadd.hsaco: program header"), "%s", r.err);
	cmd_result_free(&r);
	/* 200 MB: allowed, and the launch runs */
	set_last_memsz(bytes, len, (uint64_t)200 << 20);
	ck_assert_int_eq(write_file_atomic(path, bytes, len, 0644), 0);
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	cmd_result_free(&r);
	free(bytes);
	buf_free(&msg);
}
END_TEST

START_TEST(info_command)
{
	const char *dir = test_tmpdir("co_info");
	const char *p = build("two_kernels_gfx942.s", "gfx942", dir, "two.hsaco");
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s info '%s'", test_bin(), p);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	const char *want[] = {"code object v5 for gfx942 (e_flags 0x54c: xnack any, sramecc any)",
			      "target amdgcn-amd-amdhsa--gfx942",
			      "kernels: 2",
			      "\nkernel fill\n",
			      "\nkernel scale\n",
			      "LDS 1024 bytes, scratch 0 bytes/work-item, kernarg 8 bytes",
			      "system SGPRs: workgroup_id_x=s2 workgroup_id_y=s3",
			      "user SGPRs (2): kernarg_segment_ptr=s[0:1]",
			      "work-item ids in v0 (packed): x, y\n",
			      "40 VGPRs+AGPRs allocated (granule 4), accum_offset 32",
			      "metadata registers: sgpr 13, vgpr 40, agpr 8",
			      "         8     4  by_value                     value        -"};
	for (size_t i = 0; i < ARRAY_LEN(want); i++)
		ck_assert_msg(strstr(r.out, want[i]), "missing '%s' in:\n%s", want[i], r.out);
	cmd_result_free(&r);
	/* gfx90a */
	p = build("vadd_gfx90a.s", "gfx90a", dir, "v90a.hsaco");
	snprintf(cmd, sizeof cmd, "%s info '%s'", test_bin(), p);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "for gfx90a (e_flags 0x53f"));
	cmd_result_free(&r);
	/* errors */
	snprintf(cmd, sizeof cmd, "%s info '%s/tests/asm/data/vadd_gfx942.s'", test_bin(), test_root());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	/* the compiler's form: FILE: error: message, the name once */
	ck_assert_msg(strstr(r.err, "vadd_gfx942.s: error: not an ELF file") && !strstr(r.err, "wavecc: error:"), "%s",
		r.err);
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "%s info", test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("codeobj");
	TCase *tc = tcase_create("codeobj");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, kd_skeleton_fields);
	tcase_add_test(tc, kd_rejects_bad_descriptors);
	tcase_add_test(tc, read_two_kernels);
	tcase_add_test(tc, read_lld_output);
	tcase_add_test(tc, metadata_bad_inputs);
	tcase_add_test(tc, bad_files_rejected);
	tcase_add_test(tc, info_command);
	tcase_add_test(tc, corrupt_program_header);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
