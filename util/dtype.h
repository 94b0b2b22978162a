/* dtype.h — element types shared by the frontend, interpreter, launcher and
 * emulator, as one X-macro table: name (as written in JSON and launch
 * descriptors), size in bytes, NumPy .npy descr, class. bf16 is stored as
 * uint16 bits (NumPy has no bf16): its descr is "<u2". i1 is stored as a byte;
 * f8 variants as a byte.
 *
 * The OCP Microscaling (MX) element and scale types: f4e2m1fn is packed two
 * per byte, element 2j in the low nibble of byte j and 2j+1 in the high one
 * (as Wave's mxfp_utils.py and PyTorch pack them); its size column says 1
 * (the storage granule) and dtype_bits() says 4. f6e2m3fn and f6e3m2fn are
 * stored one per byte in its low 6 bits (Wave's tests hold no f6 data and
 * wavecc gives f6 no packed form: no bitcast reaches it). f8e8m0fnu is the
 * MX scale, 2^(code - 127), 0xff its NaN, no zero and no sign.
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
	X(DT_F8E5M2, "f8e5m2", 1, "|u1", DTC_FLOAT) \
	X(DT_F4E2M1FN, "f4e2m1fn", 1, "|u1", DTC_FLOAT) \
	X(DT_F6E2M3FN, "f6e2m3fn", 1, "|u1", DTC_FLOAT) \
	X(DT_F6E3M2FN, "f6e3m2fn", 1, "|u1", DTC_FLOAT) \
	X(DT_F8E8M0FNU, "f8e8m0fnu", 1, "|u1", DTC_FLOAT)

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
/* Bits of storage per element: 4 for the packed f4e2m1fn, else 8 * size
 * (an f6 element takes a whole byte). */
static inline int dtype_bits(DType t) { return t == DT_F4E2M1FN ? 4 : 8 * dtype_info[t].size; }
/* The 8-bit float element types, gfx942's FNUZ ones and OCP's (not the
 * e8m0 scale). */
static inline bool dtype_is_f8(DType t)
{
	return t == DT_F8E4M3FNUZ || t == DT_F8E5M2FNUZ || t == DT_F8E4M3FN || t == DT_F8E5M2;
}
/* The element types of an OCP MX block (scaled_mma's operands): OCP f8,
 * f6 and f4. */
static inline bool dtype_is_mx_element(DType t)
{
	return t == DT_F8E4M3FN || t == DT_F8E5M2 || t == DT_F6E2M3FN || t == DT_F6E3M2FN || t == DT_F4E2M1FN;
}
/* The MX types besides OCP f8: f4, f6 and the e8m0 scale. */
static inline bool dtype_is_mx_narrow(DType t)
{
	return t == DT_F4E2M1FN || t == DT_F6E2M3FN || t == DT_F6E3M2FN || t == DT_F8E8M0FNU;
}

/* IEEE half and bfloat16 <-> float, round to nearest even. */
float dtype_f16_to_f32(uint16_t h);
uint16_t dtype_f32_to_f16(float f);
float dtype_bf16_to_f32(uint16_t h);
uint16_t dtype_f32_to_bf16(float f);

/* Load element `i` of a buffer of type t as double / store a double with the
 * type's conversion (float: rounded; int: truncated toward zero and wrapped).
 * Element i of f4e2m1fn is nibble i % 2 of byte i / 2 (a store keeps the
 * other nibble). Conversions to the OCP types (docs/kernel-format.md,
 * "Element types"): f8e4m3fn and f8e5m2 round to nearest even and overflow
 * to NaN / infinity; f6 and f4, which have neither, saturate to their
 * largest magnitude (NaN gives +0); f8e8m0fnu takes the nearest power of
 * two (a tie to the even code), clamped to [2^-127, 2^127], NaN 0xff. */
double dtype_load(DType t, const void *buf, uint64_t i);
void dtype_store(DType t, void *buf, uint64_t i, double v);

#endif
