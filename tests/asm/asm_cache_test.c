/* asm_cache_test.c — asm/asm_cache.c: the assembler's object cache. A hit
 * is proved by planting an entry whose object llvm-mc would never write
 * and getting it back; a damaged entry, another target or another text is
 * a miss that assembles; a path that is not a regular file is neither read
 * nor replaced; an unwritable folder is no cache. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../asm/asm.h"
#include "../test.h"

static const char TEXT[] = ".text\nv_add_u32 v1, v2, v3\ns_endpgm\n";

static bool have_mc(void) { return test_need("asm_cache", "llvm-mc-19"); }

/* assemble TEXT (or text) for mcpu with the cache in dir; the object */
static Buf assemble(const char *dir, const char *mcpu, const char *text)
{
	setenv("WAVECC_ASM_CACHE", dir, 1);
	AsmOptions o = {.mcpu = mcpu, .source_name = "t"};
	Buf obj = {0}, msg = {0};
	int rc = asm_assemble(&o, text, strlen(text), &obj, &msg);
	ck_assert_msg(rc == 0, "%s", buf_cstr(&msg));
	buf_free(&msg);
	unsetenv("WAVECC_ASM_CACHE");
	return obj;
}

/* the one entry in dir (the test's folders hold one at a time) */
static void entry_of(const char *dir, char *path, size_t n)
{
	Buf cmd = {0};
	buf_printf(&cmd, "ls '%s'/*.o", dir);
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	buf_free(&cmd);
	ck_assert_msg(r.status == 0, "no cache entry in %s", dir);
	r.out[strcspn(r.out, "\n")] = 0;
	snprintf(path, n, "%s", r.out);
	cmd_result_free(&r);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert(f);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

START_TEST(hit_returns_the_kept_object)
{
	if (!have_mc())
		return;
	const char *dir = test_tmpdir("asm-cache-hit");
	Buf a = assemble(dir, "gfx942", TEXT);
	ck_assert_uint_gt(a.len, 0);
	char path[2048];
	entry_of(dir, path, sizeof path);
	/* the entry holds the object after its header line */
	FILE *f = fopen(path, "rb");
	ck_assert(f);
	char head[128];
	ck_assert(fgets(head, sizeof head, f));
	struct stat st;
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	fclose(f);
	ck_assert_uint_eq((size_t)st.st_size, strlen(head) + a.len);
	/* plant a different object under the same key: a hit returns it */
	const char *key = strrchr(path, '/') + 1;
	char fake[256], entry[512];
	snprintf(fake, sizeof fake, "not an object from llvm-mc");
	int hn = snprintf(entry, sizeof entry, "wavecc-asm-cache 1 %.32s %zu\n%s", key, strlen(fake), fake);
	write_file(path, entry, (size_t)hn);
	Buf b = assemble(dir, "gfx942", TEXT);
	ck_assert_uint_eq(b.len, strlen(fake));
	ck_assert(memcmp(b.data, fake, b.len) == 0);
	buf_free(&a);
	buf_free(&b);
}
END_TEST

START_TEST(damaged_entry_is_a_miss)
{
	if (!have_mc())
		return;
	const char *dir = test_tmpdir("asm-cache-damaged");
	Buf a = assemble(dir, "gfx942", TEXT);
	char path[2048];
	entry_of(dir, path, sizeof path);
	/* cut short: the length in the header no longer matches */
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(truncate(path, st.st_size - 7), 0);
	Buf b = assemble(dir, "gfx942", TEXT);
	ck_assert_uint_eq(b.len, a.len);
	ck_assert(memcmp(a.data, b.data, a.len) == 0);
	/* and the miss wrote the entry whole again */
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_gt(st.st_size, (off_t)a.len);
	buf_free(&a);
	buf_free(&b);
}
END_TEST

START_TEST(target_and_text_are_in_the_key)
{
	if (!have_mc())
		return;
	const char *dir = test_tmpdir("asm-cache-key");
	Buf a = assemble(dir, "gfx942", TEXT);
	Buf b = assemble(dir, "gfx90a", TEXT);
	Buf c = assemble(dir, "gfx942", ".text\nv_add_u32 v1, v2, v4\ns_endpgm\n");
	Buf cmd = {0};
	buf_printf(&cmd, "ls '%s' | grep -c '\\.o$'", dir);
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	ck_assert_str_eq(r.out, "3\n");
	cmd_result_free(&r);
	buf_free(&cmd);
	/* the gfx942 objects differ in their code: the third is not the first */
	ck_assert(a.len != c.len || memcmp(a.data, c.data, a.len) != 0);
	char k1[33], k2[33], k3[33];
	char *argv1[] = {"x", "-mcpu=gfx942", NULL}, *argv2[] = {"x", "-mcpu=gfx90a", NULL};
	ck_assert(asm_cache_key("/bin/sh", argv1, "ab", 2, k1));
	ck_assert(asm_cache_key("/bin/sh", argv2, "ab", 2, k2));
	ck_assert(asm_cache_key("/bin/sh", argv1, "abc", 3, k3));
	ck_assert_str_ne(k1, k2);
	ck_assert_str_ne(k1, k3);
	ck_assert(!asm_cache_key("/no/such/tool", argv1, "ab", 2, k1));
	buf_free(&a);
	buf_free(&b);
	buf_free(&c);
}
END_TEST

START_TEST(non_regular_entry_is_left_alone)
{
	if (!have_mc())
		return;
	const char *dir = test_tmpdir("asm-cache-nonreg");
	Buf a = assemble(dir, "gfx942", TEXT);
	char path[2048];
	entry_of(dir, path, sizeof path);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0755), 0); /* a folder where the entry was */
	Buf b = assemble(dir, "gfx942", TEXT);
	ck_assert_uint_eq(b.len, a.len);
	ck_assert(memcmp(a.data, b.data, a.len) == 0);
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	test_rmdir(path);
	buf_free(&a);
	buf_free(&b);
}
END_TEST

START_TEST(unwritable_folder_still_assembles)
{
	if (!have_mc())
		return;
	Buf a = assemble("/proc/no-such-folder/cache", "gfx942", TEXT);
	ck_assert_uint_gt(a.len, 0);
	buf_free(&a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("asm_cache");
	TCase *tc = tcase_create("cache");
	tcase_add_test(tc, hit_returns_the_kept_object);
	tcase_add_test(tc, damaged_entry_is_a_miss);
	tcase_add_test(tc, target_and_text_are_in_the_key);
	tcase_add_test(tc, non_regular_entry_is_left_alone);
	tcase_add_test(tc, unwritable_folder_still_assembles);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
