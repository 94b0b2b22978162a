/* ref_inputs.h — the inputs of the end-to-end tests that check a kernel
 * against a reference of their own (plain C in double precision): seeded
 * f16 values kept beside their exact doubles, and .npy files for
 * `wavecc run --input`. Header-only; include after ../test.h. */
#ifndef WAVECC_TESTS_REF_INPUTS_H
#define WAVECC_TESTS_REF_INPUTS_H

#include <stdio.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"

/* A 24-bit pseudo-random value (a linear congruential step of *s). */
static inline uint32_t ref_lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* n f16 values uniform in [-scale, scale), into h and (as doubles) d. */
static inline void ref_fill_f16(uint16_t *h, double *d, size_t n, uint32_t seed, double scale)
{
	for (size_t i = 0; i < n; i++) {
		double u = (double)ref_lcg(&seed) / (double)(1u << 24) * 2 - 1;
		h[i] = dtype_f32_to_f16((float)(u * scale));
		d[i] = dtype_f16_to_f32(h[i]);
	}
}

/* dir/name.npy holding data of dtype t and the given shape. */
static inline void ref_write_npy(const char *dir, const char *name, DType t, int ndim, const int64_t *shape,
	const void *data)
{
	char path[1024], err[256];
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	ck_assert_msg(npy_write(path, t, ndim, shape, data, err, sizeof err) == 0, "%s", err);
}

#endif
