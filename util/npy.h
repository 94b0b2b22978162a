/* npy.h — NumPy .npy files (format versions 1.0, 2.0 and 3.0), C order only.
 *
 * A .npy file is the magic "\x93NUMPY", a version, a header length (2 bytes
 * in v1, 4 in v2/v3), a Python dict literal
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces to a 64-byte boundary and ending in '\n', then the raw
 * little-endian elements.
 *
 * The element type is named by its descr; several of our dtypes share one
 * descr (bf16 and u16 are both "<u2", see dtype.h), so a read array carries
 * the descr and is matched against the dtype the caller expects with
 * npy_check. One-byte descrs compare equal whatever their byte-order mark
 * ('|', '<', '='); '=' counts as '<' (every host we support is little
 * endian); big-endian data is rejected.
 *
 * Errors: every function returns 0, or -1 with a message in `err` that names
 * the file (or the caller's `name`) — never a crash on a malformed file.
 * Reads are bounded (NPY_READ_MAX; a file without the magic is refused
 * before more is read); writes follow file_write_output (a
 * regular file replaced atomically, a device or FIFO written into, '-' is
 * standard output): a failed write leaves nothing. */
#ifndef WAVECC_NPY_H
#define WAVECC_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "util.h"

enum { NPY_MAX_DIMS = 16 };
/* The largest .npy file read (larger than read_file's limit: arrays). */
#define NPY_READ_MAX ((size_t)1 << 30)
#define NPY_READ_MAX_TEXT "1 GiB"

typedef struct NpyArray {
	char descr[8];  /* normalised: '<' or '|' prefix, e.g. "<f4", "|u1" */
	int itemsize;
	int ndim;
	int64_t shape[NPY_MAX_DIMS];
	uint64_t count; /* product of shape (1 for a 0-d array) */
	void *data;     /* heap, count*itemsize bytes; free with npy_free */
	size_t nbytes;
} NpyArray;

/* Parse a whole .npy image held in memory. `name` is used in messages. The
 * element bytes are copied. */
int npy_parse(const void *bytes, size_t len, const char *name, NpyArray *a, char *err, size_t err_len);
/* Read a .npy file. */
int npy_read(const char *path, NpyArray *a, char *err, size_t err_len);
void npy_free(NpyArray *a);

/* Check that `a` holds dtype `t` with exactly this shape; the message says
 * what was expected and what the file has. `name` names the array. */
int npy_check(const NpyArray *a, const char *name, DType t, int ndim, const int64_t *shape, char *err,
	      size_t err_len);

/* Append the .npy image of `data` (count = product of shape elements of type
 * t, C order) to `out`. Uses version 1.0 unless the header needs 2.0. */
void npy_encode(Buf *out, DType t, int ndim, const int64_t *shape, const void *data);
/* Write a .npy file atomically. */
int npy_write(const char *path, DType t, int ndim, const int64_t *shape, const void *data, char *err,
	      size_t err_len);

/* Format a shape as "(3, 4)" into buf (for messages). */
const char *npy_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);

#endif
