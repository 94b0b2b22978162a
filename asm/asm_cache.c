/* asm_cache.c — the assembler's object cache, a folder named by
 * $WAVECC_ASM_CACHE (off when unset).
 *
 * Starting llvm-mc costs tens of milliseconds before it reads a line (the
 * dynamic linker relocates all of libLLVM), more than most kernels take to
 * compile. A compile that hands llvm-mc the same text as an earlier one,
 * for the same target, with the same llvm-mc, gets the earlier object:
 * what ccache does for C compilers. Test suites and frontends that compile
 * the same kernels again (the sanitizer build's run of the suites, a
 * Python program run twice) skip the assembler.
 *
 * The key is a 128-bit hash (two FNV-1a lanes with different offsets, each
 * finished by a 64-bit avalanche mix) of llvm-mc's path, device, inode,
 * size and modification time (a reinstalled llvm-mc is another key),
 * every argument it is given, and the text. Only clean runs are kept (exit
 * status 0, an object, nothing on stderr), so a hit means llvm-mc would
 * say nothing and write those bytes. An entry is one file, KEY.o: a header
 * line naming the format, the key and the object's length, then the
 * object; it is written to a temporary file in the folder and renamed over
 * KEY.o, so readers never see a partial entry, and one that does not read
 * back exactly (wrong header, key or length) is a miss. A folder that
 * cannot be made or written is no cache: every failure here falls back to
 * running llvm-mc. A hit sets the entry's modification time, so pruning the
 * entries not touched for a while (`make check` drops those of more than a
 * day) keeps the ones in use. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asm.h"

#define CACHE_MAGIC "wavecc-asm-cache 1"
#define CACHE_MAX_OBJ (256u << 20)

static void mix_in(uint64_t h[2], const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h[0] = (h[0] ^ b[i]) * 0x100000001b3ull;
		h[1] = (h[1] ^ b[i]) * 0x100000001b3ull;
	}
	/* a separator, so ("ab", "c") and ("a", "bc") differ */
	uint64_t len = n;
	for (int i = 0; i < 8; i++) {
		h[0] = (h[0] ^ (len & 0xff)) * 0x100000001b3ull;
		h[1] = (h[1] ^ (len & 0xff) ^ 0x5a) * 0x100000001b3ull;
		len >>= 8;
	}
}

static uint64_t avalanche(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

bool asm_cache_key(const char *tool, char *const argv[], const char *text, size_t len, char key[33])
{
	struct stat st;
	if (stat(tool, &st) != 0)
		return false;
	uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
	mix_in(h, tool, strlen(tool));
	uint64_t id[5] = {(uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
			  (uint64_t)st.st_mtim.tv_nsec};
	mix_in(h, id, sizeof id);
	for (size_t i = 1; argv[i]; i++)
		mix_in(h, argv[i], strlen(argv[i]));
	mix_in(h, text, len);
	snprintf(key, 33, "%016llx%016llx", (unsigned long long)avalanche(h[0]),
		 (unsigned long long)avalanche(h[1] ^ h[0]));
	return true;
}

static void entry_path(char *out, size_t n, const char *dir, const char *key)
{
	snprintf(out, n, "%s/%s.o", dir, key);
}

bool asm_cache_get(const char *dir, const char *key, Buf *obj)
{
	char path[4096], head[128], want[128];
	entry_path(path, sizeof path, dir, key);
	struct stat ls;
	if (lstat(path, &ls) != 0 || !S_ISREG(ls.st_mode)) /* (a fifo would block fopen) */
		return false;
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	bool ok = false;
	unsigned long long n = 0;
	char *data = NULL;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && fgets(head, sizeof head, f) &&
	    sscanf(head, CACHE_MAGIC " %*32s %llu\n", &n) == 1 && n > 0 && n <= CACHE_MAX_OBJ) {
		snprintf(want, sizeof want, CACHE_MAGIC " %s %llu\n", key, n);
		if (strcmp(head, want) == 0 && (uint64_t)st.st_size == strlen(head) + n) {
			data = malloc(n);
			ok = data && fread(data, 1, n, f) == n;
			if (ok) /* used now: a pruner by age keeps it */
				futimens(fileno(f), NULL);
		}
	}
	fclose(f);
	if (ok)
		buf_putn(obj, data, n);
	free(data);
	return ok;
}

void asm_cache_put(const char *dir, const char *key, const void *obj, size_t len)
{
	if (len == 0 || len > CACHE_MAX_OBJ)
		return;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return;
	char tmp[4096], path[4096];
	struct stat ls;
	entry_path(path, sizeof path, dir, key);
	if (lstat(path, &ls) == 0 && !S_ISREG(ls.st_mode)) /* not ours to replace */
		return;
	snprintf(tmp, sizeof tmp, "%s/.tmp-%s-XXXXXX", dir, key);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	fprintf(f, CACHE_MAGIC " %s %zu\n", key, len);
	bool ok = fwrite(obj, 1, len, f) == len;
	ok &= fclose(f) == 0;
	if (!ok || chmod(tmp, 0644) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}
