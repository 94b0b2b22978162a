/* file.c — bounded whole-file reads and safe output writes.
 *
 * Reads: read_file stops at READ_FILE_MAX bytes and fails with EFBIG, so an
 * endless input (/dev/zero, a FIFO that never closes) or a huge one is a
 * clear error, never an out-of-memory abort.
 *
 * Writes: every output goes through an OutputSet, which decides per path
 * (see util.h for the contract):
 *   "-", /dev/stdout, /dev/stderr  the process's own descriptor 1 or 2;
 *   an existing non-regular file   (a character device such as /dev/null, a
 *                                  FIFO, a socket) opened and written into,
 *                                  never replaced;
 *   an existing file under /dev/   written in place too (even a regular
 *                                  file there is no place for renames);
 *   a symbolic link                followed to its final target, which is
 *                                  then treated like any path (the link
 *                                  itself stays); a chain through /proc (the
 *                                  kernel's magic fd links) is written in
 *                                  place, since its target is no real path;
 *   anything else                  a temporary file in the target's folder,
 *                                  renamed over it at commit (atomic).
 * Staging first writes every regular output to its temporary file; commit
 * then writes the in-place outputs and renames the temporaries, so a failure
 * anywhere before commit leaves no output behind ("all or nothing" for the
 * regular files; what went into a device or pipe cannot be taken back, and
 * is written last for that reason). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

char *read_file_max(const char *path, size_t max, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *r = file_read_stream_max(f, "", 0, max, lenp);
	int e = errno;
	fclose(f);
	errno = e;
	return r;
}

char *file_read_stream_max(FILE *f, const void *prefix, size_t prefix_len, size_t max, size_t *lenp)
{
	Buf b = {0};
	if (prefix_len > max) {
		errno = EFBIG;
		return NULL;
	}
	buf_putn(&b, prefix, prefix_len);
	char tmp[65536];
	size_t n;
	bool too_big = false;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) {
		if (n > max - b.len) {
			too_big = true;
			break;
		}
		buf_putn(&b, tmp, n);
	}
	int bad = ferror(f);
	if (bad || too_big) {
		buf_free(&b);
		errno = too_big ? EFBIG : EIO;
		return NULL;
	}
	buf_cstr(&b);
	if (!b.data) /* an empty file: still a valid, NUL-terminated string */
		b.data = xcalloc(1, 1);
	if (lenp)
		*lenp = b.len;
	return b.data;
}

char *read_file(const char *path, size_t *lenp)
{
	return read_file_max(path, READ_FILE_MAX, lenp);
}

const char *file_strerror(int e)
{
	if (e == EFBIG)
		return "larger than the input limit of " READ_FILE_MAX_TEXT " (or endless)";
	return strerror(e);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The final target of a chain of symbolic links starting at path (path
 * itself if it is no link), heap-allocated; NULL with errno on a loop.
 * *magic is set when a hop went through /proc (the kernel's fd links,
 * whose "targets" such as pipe:[123] are no paths). */
static char *follow_links(const char *path, bool *magic)
{
	char *p = xstrdup(path);
	*magic = strncmp(p, "/proc/", 6) == 0;
	for (int hop = 0;; hop++) {
		struct stat st;
		if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
			return p;
		if (hop == 40) {
			free(p);
			errno = ELOOP;
			return NULL;
		}
		char target[PATH_MAX];
		ssize_t n = readlink(p, target, sizeof target - 1);
		if (n < 0) {
			int e = errno;
			free(p);
			errno = e;
			return NULL;
		}
		target[n] = 0;
		char *next;
		const char *slash = strrchr(p, '/');
		if (target[0] == '/' || !slash) {
			next = xstrdup(target);
		} else {
			size_t dl = (size_t)(slash - p) + 1;
			next = xmalloc(dl + (size_t)n + 1);
			memcpy(next, p, dl);
			memcpy(next + dl, target, (size_t)n + 1);
		}
		free(p);
		p = next;
		*magic |= strncmp(p, "/proc/", 6) == 0;
	}
}

struct Output {
	char *path;    /* the final target (links followed) */
	char *tmp;     /* regular files: the staged temporary, else NULL */
	int fd;        /* standard descriptor to write into, or -1 */
	bool in_place; /* open path and write into it at commit */
	char *data;    /* in-place outputs: the bytes to write at commit */
	size_t len;
};

void outputs_init(OutputSet *s)
{
	memset(s, 0, sizeof *s);
}

static int stage_regular(Output *o, const void *data, size_t len, int mode)
{
	size_t n = strlen(o->path);
	o->tmp = xmalloc(n + 16);
	memcpy(o->tmp, o->path, n);
	memcpy(o->tmp + n, ".tmpXXXXXX", 11);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	if (write_all(fd, data, len) != 0 || fchmod(fd, (mode_t)mode) != 0) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		errno = e;
		return -1;
	}
	if (close(fd) != 0) {
		int e = errno;
		unlink(o->tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int outputs_add(OutputSet *s, const char *path, const void *data, size_t len, int mode)
{
	Output o = {.fd = -1};
	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
		o.fd = 1;
	else if (strcmp(path, "/dev/stderr") == 0)
		o.fd = 2;
	bool magic = false;
	o.path = o.fd >= 0 ? xstrdup(path) : follow_links(path, &magic);
	if (!o.path)
		return -1;
	struct stat st;
	int have = o.fd >= 0 ? -1 : stat(o.path, &st);
	/* Anything that exists under /dev/ is written in place even if it is a
	 * regular file: a /dev/null that some earlier tool replaced is still
	 * not ours to replace again. */
	bool dev = have == 0 && strncmp(o.path, "/dev/", 5) == 0;
	if (o.fd >= 0 || magic || dev || (have == 0 && !S_ISREG(st.st_mode))) {
		o.in_place = o.fd < 0;
		o.data = xmalloc(len ? len : 1);
		memcpy(o.data, data, len);
		o.len = len;
	} else if (stage_regular(&o, data, len, mode) != 0) {
		int e = errno;
		free(o.path);
		errno = e;
		return -1;
	}
	vec_push(&s->outs, o);
	return 0;
}

static void output_free(Output *o)
{
	free(o->path);
	free(o->tmp);
	free(o->data);
}

void outputs_abort(OutputSet *s)
{
	for (size_t i = 0; i < s->outs.len; i++) {
		if (s->outs.data[i].tmp)
			unlink(s->outs.data[i].tmp);
		output_free(&s->outs.data[i]);
	}
	vec_free(&s->outs);
}

int outputs_commit(OutputSet *s, const char **failed)
{
	int rc = 0, e = 0;
	fflush(stdout); /* what was printed comes before what goes to fd 1 */
	/* In-place outputs first: they may fail (a closed pipe, a full disk
	 * behind a device); the regular files are still only staged then. */
	for (size_t i = 0; i < s->outs.len && rc == 0; i++) {
		Output *o = &s->outs.data[i];
		if (o->tmp)
			continue;
		int fd = o->fd >= 0 ? o->fd : open(o->path, O_WRONLY | (o->in_place ? O_TRUNC : 0) | O_CLOEXEC);
		if (fd < 0 && o->in_place && errno == EINVAL) /* devices that refuse O_TRUNC */
			fd = open(o->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write_all(fd, o->data, o->len) != 0) {
			e = errno;
			rc = -1;
			if (failed)
				*failed = intern(o->path);
		}
		if (fd >= 0 && o->fd < 0 && close(fd) != 0 && rc == 0) {
			e = errno;
			rc = -1;
			if (failed)
				*failed = intern(o->path);
		}
	}
	for (size_t i = 0; i < s->outs.len && rc == 0; i++) {
		Output *o = &s->outs.data[i];
		if (o->tmp && rename(o->tmp, o->path) != 0) {
			e = errno;
			rc = -1;
			if (failed)
				*failed = intern(o->path);
		} else if (o->tmp) {
			free(o->tmp);
			o->tmp = NULL;
		}
	}
	if (rc == 0 && s->outs.len) /* the standard descriptors may be buffered by stdio too */
		fflush(stdout);
	outputs_abort(s); /* removes temporaries left by a failure, frees */
	errno = e;
	return rc;
}

int file_write_output(const char *path, const void *data, size_t len, int mode)
{
	OutputSet s;
	outputs_init(&s);
	fflush(stdout); /* keep order with anything printed before */
	if (outputs_add(&s, path, data, len, mode) != 0) {
		int e = errno;
		outputs_abort(&s);
		errno = e;
		return -1;
	}
	return outputs_commit(&s, NULL);
}

int write_file_atomic(const char *path, const void *data, size_t len, int mode)
{
	return file_write_output(path, data, len, mode);
}
