/* file.c — whole-file reads and atomic writes (temp file + rename), so a
 * failed run never leaves a partial output behind. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

char *read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	char tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_putn(&b, tmp, n);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		buf_free(&b);
		errno = EIO;
		return NULL;
	}
	buf_cstr(&b);
	if (lenp)
		*lenp = b.len;
	return b.data;
}

int write_file_atomic(const char *path, const void *data, size_t len, int mode)
{
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmpXXXXXX", 11);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	const char *p = data;
	size_t left = len;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fchmod(fd, (mode_t)mode) != 0 || close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path) != 0) {
		fd = -1;
		goto fail;
	}
	free(tmp);
	return 0;
fail:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}
