/* dtype.h — element types shared by the frontend, interpreter, launcher and
 * emulator, as one X-macro table: name (as written in JSON and launch
 * descriptors), size in bytes, NumPy .npy descr, class. bf16 is stored as
 * uint16 bits (NumPy has no bf16): its descr is "<u2". i1 is stored as a byte;
 * f8 variants as a byte.
 *
 * Conversions round to nearest even, keep NaN a NaN, and handle subnormals. */
#ifndef WAVECC_DTYPE_H
#define WAVECC_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

/*  X(enum,     name,          size, npy,   class) */
#define DTYPES(X) \
	X(DT_F16, "f16", 2, "<f2", DTC_FLOAT) \
	X(DT_BF16, "bf16", 2, "<u2", DTC_FLOAT) \
	X(DT_F32, "f32", 4, "<f4", DTC_FLOAT) \
	X(DT_F64, "f64", 8, "<f8", DTC_FLOAT) \
	X(DT_I1, "i1", 1, "|b1", DTC_INT) \
	X(DT_I8, "i8", 1, "|i1", DTC_INT) \
	X(DT_I16, "i16", 2, "<i2", DTC_INT) \
	X(DT_I32, "i32", 4, "<i4", DTC_INT) \
	X(DT_I64, "i64", 8, "<i8", DTC_INT) \
	X(DT_U8, "u8", 1, "|u1", DTC_UINT) \
	X(DT_U16, "u16", 2, "<u2", DTC_UINT) \
	X(DT_U32, "u32", 4, "<u4", DTC_UINT) \
	X(DT_U64, "u64", 8, "<u8", DTC_UINT) \
	X(DT_F8E4M3FNUZ, "f8e4m3fnuz", 1, "|u1", DTC_FLOAT) \
	X(DT_F8E5M2FNUZ, "f8e5m2fnuz", 1, "|u1", DTC_FLOAT) \
	X(DT_F8E4M3FN, "f8e4m3fn", 1, "|u1", DTC_FLOAT) \
	X(DT_F8E5M2, "f8e5m2", 1, "|u1", DTC_FLOAT)

typedef enum {
#define X(e, name, size, npy, cls) e,
	DTYPES(X)
#undef X
	DT_COUNT,
	DT_NONE = -1
} DType;

typedef enum { DTC_FLOAT, DTC_INT, DTC_UINT } DTypeClass;

typedef struct {
	const char *name;
	int size;
	const char *npy;
	DTypeClass cls;
} DTypeInfo;

extern const DTypeInfo dtype_info[DT_COUNT];

/* Look up by name ("f16"); DT_NONE if unknown. */
DType dtype_from_name(const char *name);
static inline int dtype_size(DType t) { return dtype_info[t].size; }
static inline const char *dtype_name(DType t) { return dtype_info[t].name; }
static inline bool dtype_is_float(DType t) { return dtype_info[t].cls == DTC_FLOAT; }

/* IEEE half and bfloat16 <-> float, round to nearest even. */
float dtype_f16_to_f32(uint16_t h);
uint16_t dtype_f32_to_f16(float f);
float dtype_bf16_to_f32(uint16_t h);
uint16_t dtype_f32_to_bf16(float f);

/* Load element `i` of a buffer of type t as double / store a double with the
 * type's conversion (float: rounded; int: truncated toward zero and wrapped).
 * f8 types are not supported here yet: die(). */
double dtype_load(DType t, const void *buf, uint64_t i);
void dtype_store(DType t, void *buf, uint64_t i, double v);

#endif
