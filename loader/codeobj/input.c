/* input.c — the loader's guard before it reads a whole file into memory
 * (contract in codeobj.h): the path must name a regular file (after
 * symbolic links) of at most a given size. A character device such as
 * /dev/zero, a FIFO or a directory would otherwise be read without end or
 * fail obscurely; a size limit keeps a huge file from exhausting memory. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "codeobj.h"

const char *input_file_problem(const char *path, uint64_t max_bytes, char *why, size_t len)
{
	struct stat st;
	if (stat(path, &st) != 0)
		snprintf(why, len, "cannot read: %s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(why, len, "cannot read: not a regular file (%s)",
			 S_ISDIR(st.st_mode)    ? "a directory"
			 : S_ISCHR(st.st_mode)  ? "a character device"
			 : S_ISFIFO(st.st_mode) ? "a FIFO"
						: "a special file");
	else if ((uint64_t)st.st_size > max_bytes)
		snprintf(why, len, "cannot read: %llu bytes; at most %llu MiB", (unsigned long long)st.st_size,
			 (unsigned long long)(max_bytes >> 20));
	else
		return NULL;
	return why;
}
