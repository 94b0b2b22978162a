/* elt_ops_test.c — the elementwise op families of isel/ (compare.c,
 * math.c, index.c, elementwise.c) through `wavecc run` on gfx942 and gfx90a:
 * each case is a small 2-D kernel (M x N = 3 x 300 read in tiles of 256,
 * so the last workgroup is partial and 16-bit values are packed) written
 * from a template around the case's graph nodes. The nodes see the reads
 * `a` of A and `b` of B and define `out`, written to C. `wavecc run`
 * compares with the interpreter on seeded random inputs (floats k/64 - 2,
 * integers -8..7, u32 0..15); the tolerances are the defaults unless the
 * case tightens them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"
#include "../../util/npy.h"

typedef struct {
	const char *name;
	const char *ta, *tc; /* dtypes of A and B, of C */
	const char *nodes;   /* graph nodes (JSON objects, comma-separated) */
	const char *flags;   /* extra `wavecc run` flags */
} EltCase;

#define CMP6(T)                                                                                                    \
	"{\"name\":\"k2\",\"op\":\"scalar\",\"value\":2,\"dtype\":\"i32\"},"                                   \
	"{\"name\":\"eq\",\"op\":\"eq\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                            \
	"{\"name\":\"ne\",\"op\":\"ne\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                            \
	"{\"name\":\"lt\",\"op\":\"lt\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                            \
	"{\"name\":\"le\",\"op\":\"le\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                            \
	"{\"name\":\"gt\",\"op\":\"gt\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                            \
	"{\"name\":\"ge\",\"op\":\"ge\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                            \
	"{\"name\":\"c0\",\"op\":\"cast\",\"arg\":\"eq\",\"dtype\":\"i32\"},"                                    \
	"{\"name\":\"c1\",\"op\":\"cast\",\"arg\":\"ne\",\"dtype\":\"i32\"},"                                    \
	"{\"name\":\"c2\",\"op\":\"cast\",\"arg\":\"lt\",\"dtype\":\"i32\"},"                                    \
	"{\"name\":\"c3\",\"op\":\"cast\",\"arg\":\"le\",\"dtype\":\"i32\"},"                                    \
	"{\"name\":\"c4\",\"op\":\"cast\",\"arg\":\"gt\",\"dtype\":\"i32\"},"                                    \
	"{\"name\":\"c5\",\"op\":\"cast\",\"arg\":\"ge\",\"dtype\":\"i32\"},"                                    \
	"{\"name\":\"s1\",\"op\":\"mul\",\"lhs\":\"c5\",\"rhs\":\"k2\"},{\"name\":\"t1\",\"op\":\"add\",\"lhs\":\"s1\",\"rhs\":\"c4\"}," \
	"{\"name\":\"s2\",\"op\":\"mul\",\"lhs\":\"t1\",\"rhs\":\"k2\"},{\"name\":\"t2\",\"op\":\"add\",\"lhs\":\"s2\",\"rhs\":\"c3\"}," \
	"{\"name\":\"s3\",\"op\":\"mul\",\"lhs\":\"t2\",\"rhs\":\"k2\"},{\"name\":\"t3\",\"op\":\"add\",\"lhs\":\"s3\",\"rhs\":\"c2\"}," \
	"{\"name\":\"s4\",\"op\":\"mul\",\"lhs\":\"t3\",\"rhs\":\"k2\"},{\"name\":\"t4\",\"op\":\"add\",\"lhs\":\"s4\",\"rhs\":\"c1\"}," \
	"{\"name\":\"s5\",\"op\":\"mul\",\"lhs\":\"t4\",\"rhs\":\"k2\"},{\"name\":\"out\",\"op\":\"add\",\"lhs\":\"s5\",\"rhs\":\"c0\"}"

/* relu against a broadcast scalar zero, and min through select */
#define SELECT(T)                                                                                                  \
	"{\"name\":\"z\",\"op\":\"scalar\",\"value\":0,\"dtype\":\"" T "\"},"                                      \
	"{\"name\":\"p\",\"op\":\"gt\",\"lhs\":\"a\",\"rhs\":\"z\"},"                                             \
	"{\"name\":\"r\",\"op\":\"select\",\"cond\":\"p\",\"if_true\":\"a\",\"if_false\":\"z\"},"                \
	"{\"name\":\"q\",\"op\":\"lt\",\"lhs\":\"a\",\"rhs\":\"b\"},"                                             \
	"{\"name\":\"m\",\"op\":\"select\",\"cond\":\"q\",\"if_true\":\"a\",\"if_false\":\"b\"},"                \
	"{\"name\":\"out\",\"op\":\"sub\",\"lhs\":\"r\",\"rhs\":\"m\"}"

/* x = a OP2 scale (mul or truediv by a scalar of a's dtype), out = OP(x) */
#define UNARY(OP, T, OP2, SCALE)                                                                                   \
	"{\"name\":\"k\",\"op\":\"scalar\",\"value\":" SCALE ",\"dtype\":\"" T "\"},"                            \
	"{\"name\":\"x\",\"op\":\"" OP2 "\",\"lhs\":\"a\",\"rhs\":\"k\"},"                                         \
	"{\"name\":\"out\",\"op\":\"" OP "\",\"arg\":\"x\"}"

/* out = OP(a * K, b) in integers */
#define INTBIN(OP, T, K)                                                                                           \
	"{\"name\":\"k\",\"op\":\"scalar\",\"value\":" K ",\"dtype\":\"" T "\"},"                                \
	"{\"name\":\"x\",\"op\":\"mul\",\"lhs\":\"a\",\"rhs\":\"k\"},"                                             \
	"{\"name\":\"out\",\"op\":\"" OP "\",\"lhs\":\"x\",\"rhs\":\"b\"}"

#define NAN_MAXMIN(OP)                                                                                             \
	"{\"name\":\"l\",\"op\":\"log\",\"arg\":\"a\"},{\"name\":\"m\",\"op\":\"" OP "\",\"lhs\":\"l\",\"rhs\":\"b\"}," \
	"{\"name\":\"out\",\"op\":\"" OP "\",\"lhs\":\"b\",\"rhs\":\"m\"}"

/* out = cast(a * k, TO): Wave's casts to and from integers (isel/cast_int.c) */
#define CAST(T, K, TO)                                                                                             \
	"{\"name\":\"k\",\"op\":\"scalar\",\"value\":" K ",\"dtype\":\"" T "\"},"                                \
	"{\"name\":\"x\",\"op\":\"mul\",\"lhs\":\"a\",\"rhs\":\"k\"},"                                             \
	"{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"x\",\"dtype\":\"" TO "\"}"
#define CAST1(TO) "{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"a\",\"dtype\":\"" TO "\"}"

#define APPLY(EXPR)                                                                                                \
	"{\"name\":\"e\",\"op\":\"apply_expr\",\"register\":[\"a\",\"b\"],\"params\":[\"x\",\"y\"],"              \
	"\"expr\":\"" EXPR "\"},{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"e\",\"dtype\":\"i32\"}"

/* i64 index values held as proven 32-bit words (isel/index64.c): an i64
 * self_index, an i64 apply_expr result, a comparison and a select of i64
 * values, an i64 -> f32 cast, and an apply_expr mask */
#define I64_INDEX                                                                                                  \
	"{\"name\":\"col\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"i64\"},"                            \
	"{\"name\":\"sh\",\"op\":\"apply_expr\",\"register\":\"col\",\"params\":[\"c\"],\"expr\":\"3*c - 400\"}," \
	"{\"name\":\"q\",\"op\":\"lt\",\"lhs\":\"sh\",\"rhs\":\"col\"},"                                       \
	"{\"name\":\"s64\",\"op\":\"select\",\"cond\":\"q\",\"if_true\":\"sh\",\"if_false\":\"col\"},"           \
	"{\"name\":\"f\",\"op\":\"cast\",\"arg\":\"s64\",\"dtype\":\"f32\"},"                                  \
	"{\"name\":\"keep\",\"op\":\"apply_expr\",\"register\":\"col\",\"params\":[\"c\"],\"expr\":\"c < N - 7\"}," \
	"{\"name\":\"m\",\"op\":\"select\",\"cond\":\"keep\",\"if_true\":\"a\",\"if_false\":\"b\"},"            \
	"{\"name\":\"out\",\"op\":\"add\",\"lhs\":\"m\",\"rhs\":\"f\"}"

/* i64 constants (a register, a scalar of an expression) and arithmetic
 * on i64 values, their ranges proven to fit 32 bits: d = col - 40 in
 * [-40, 259] (Wave's sliding-window `m - k2 <= window`), e = d * (N - 100),
 * then neg, maximum, minimum, add; the mask keeps a where d <= 40 */
#define I64_CONST                                                                                                  \
	"{\"name\":\"col\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"i64\"},"                            \
	"{\"name\":\"colb\",\"op\":\"broadcast\",\"arg\":\"col\",\"target_shape\":[\"M\",\"N\"]},"              \
	"{\"name\":\"win\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"i64\",\"value\":40},"       \
	"{\"name\":\"k\",\"op\":\"scalar\",\"value\":\"N - 100\",\"dtype\":\"i64\"},"                          \
	"{\"name\":\"d\",\"op\":\"sub\",\"lhs\":\"colb\",\"rhs\":\"win\"},"                                        \
	"{\"name\":\"e\",\"op\":\"mul\",\"lhs\":\"d\",\"rhs\":\"k\"},"                                           \
	"{\"name\":\"f\",\"op\":\"neg\",\"arg\":\"e\"},"                                                             \
	"{\"name\":\"g\",\"op\":\"maximum\",\"lhs\":\"f\",\"rhs\":\"d\"},"                                       \
	"{\"name\":\"h\",\"op\":\"minimum\",\"lhs\":\"g\",\"rhs\":\"e\"},"                                       \
	"{\"name\":\"s\",\"op\":\"add\",\"lhs\":\"h\",\"rhs\":\"colb\"},"                                        \
	"{\"name\":\"sf\",\"op\":\"cast\",\"arg\":\"s\",\"dtype\":\"f32\"},"                                     \
	"{\"name\":\"in\",\"op\":\"le\",\"lhs\":\"d\",\"rhs\":\"win\"},"                                           \
	"{\"name\":\"m\",\"op\":\"select\",\"cond\":\"in\",\"if_true\":\"a\",\"if_false\":\"b\"},"                \
	"{\"name\":\"out\",\"op\":\"add\",\"lhs\":\"m\",\"rhs\":\"sf\"}"

static const EltCase cases[] = {
	{"index_i64", "f32", "f32", I64_INDEX, "--atol 0 --rtol 0"},
	{"const_i64", "f32", "f32", I64_CONST, "--atol 0 --rtol 0"},
	/* comparisons to i1, i1 -> i32 casts: out = sum of cmp_k << k */
	{"cmp_f32", "f32", "i32", CMP6("f32"), ""},
	{"cmp_f16", "f16", "i32", CMP6("f16"), ""},
	{"cmp_bf16", "bf16", "i32", CMP6("bf16"), ""},
	{"cmp_i32", "i32", "i32", CMP6("i32"), ""},
	{"cmp_u32", "u32", "i32", CMP6("u32"), ""},
	/* select with broadcast scalars and packed halves of different conditions */
	{"select_f32", "f32", "f32", SELECT("f32"), "--atol 0 --rtol 0"},
	{"select_f16", "f16", "f16", SELECT("f16"), "--atol 0 --rtol 0"},
	{"select_bf16", "bf16", "bf16", SELECT("bf16"), "--atol 0 --rtol 0"},
	{"select_i32", "i32", "i32", SELECT("i32"), ""},
	/* casts to i1 (x != 0) and back */
	{"cast_i1_f32", "f32", "f32",
		"{\"name\":\"t\",\"op\":\"cast\",\"arg\":\"a\",\"dtype\":\"i1\"},"
		"{\"name\":\"u\",\"op\":\"cast\",\"arg\":\"t\",\"dtype\":\"f32\"},"
		"{\"name\":\"out\",\"op\":\"add\",\"lhs\":\"u\",\"rhs\":\"b\"}", "--atol 0 --rtol 0"},
	{"cast_i1_f16", "f16", "f16",
		"{\"name\":\"t\",\"op\":\"cast\",\"arg\":\"a\",\"dtype\":\"i1\"},"
		"{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"t\",\"dtype\":\"f16\"}", "--atol 0 --rtol 0"},
	{"cast_i1_i32", "i32", "bf16",
		"{\"name\":\"t\",\"op\":\"cast\",\"arg\":\"a\",\"dtype\":\"i1\"},"
		"{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"t\",\"dtype\":\"bf16\"}", ""},
	/* float to integer (arith.fptosi: toward zero, NaN 0, saturated to
	 * i32, then wrapped to narrower widths): a * 1.5e9 reaches +-3e9 and
	 * saturates, f16 a * 40000 overflows to +-inf, log(a) gives NaN and
	 * -inf; integers to floats and between widths (sign or zero
	 * extension, wrapping), packed 8- and 16-bit results */
	{"cast_f32_i32", "f32", "i32", CAST("f32", "3.7", "i32"), ""},
	{"cast_f32_i32_sat", "f32", "i32", CAST("f32", "1.5e9", "i32"), ""},
	{"cast_f32_u32_sat", "f32", "u32", CAST("f32", "1.5e9", "u32"), ""},
	{"cast_f16_i32_inf", "f16", "i32", CAST("f16", "40000.0", "i32"), ""},
	{"cast_bf16_i32_sat", "bf16", "i32", CAST("bf16", "1.5e9", "i32"), ""},
	{"cast_f32_i32_nan", "f32", "i32",
		"{\"name\":\"l\",\"op\":\"log\",\"arg\":\"a\"},{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"l\",\"dtype\":\"i32\"}", ""},
	{"cast_f32_i8", "f32", "i8", CAST("f32", "100.0", "i8"), ""},
	{"cast_f32_u8", "f32", "u8", CAST("f32", "200.0", "u8"), ""},
	{"cast_f16_i16", "f16", "i16", CAST("f16", "30000.0", "i16"), ""},
	{"cast_i32_i8", "i32", "i8", CAST("i32", "1000003", "i8"), ""},
	{"cast_i32_u16", "i32", "u16", CAST("i32", "1000003", "u16"), ""},
	{"cast_i32_u32", "i32", "u32", CAST("i32", "1000003", "u32"), ""},
	{"cast_u32_f32", "u32", "f32", CAST("u32", "300000007", "f32"), "--atol 0 --rtol 0"},
	{"cast_i8_f16", "i8", "f16", CAST1("f16"), "--atol 0 --rtol 0"},
	{"cast_u8_f32", "u8", "f32", CAST1("f32"), "--atol 0 --rtol 0"},
	{"cast_i16_i32", "i16", "i32", CAST1("i32"), ""},
	{"cast_i8_bf16", "i8", "bf16", CAST1("bf16"), "--atol 0 --rtol 0"},
	/* f32 math over wide ranges, with tolerances tighter than the default */
	{"sin_f32", "f32", "f32", UNARY("sin", "f32", "mul", "5000.0"), "--atol 1e-6 --rtol 0"},
	{"cos_f32", "f32", "f32", UNARY("cos", "f32", "mul", "5000.0"), "--atol 1e-6 --rtol 0"},
	{"sin_f32_small", "f32", "f32", UNARY("sin", "f32", "mul", "1.0"), "--atol 1e-7 --rtol 2e-7"},
	{"cos_f32_large", "f32", "f32", UNARY("cos", "f32", "mul", "3000000.0"), "--atol 2e-6 --rtol 0"},
	{"tanh_f32", "f32", "f32", UNARY("tanh", "f32", "mul", "1.0"), "--atol 0 --rtol 1e-6"},
	{"tanh_f32_wide", "f32", "f32", UNARY("tanh", "f32", "mul", "30.0"), "--atol 0 --rtol 1e-6"},
	{"tanh_f32_tiny", "f32", "f32", UNARY("tanh", "f32", "truediv", "1000.0"), "--atol 0 --rtol 1e-6"},
	{"tanh_approx_f32", "f32", "f32", UNARY("tanh_approx", "f32", "truediv", "10.0"), "--atol 0 --rtol 1e-6"},
	{"log_f32", "f32", "f32", UNARY("log", "f32", "mul", "1000.0"), "--atol 1e-6 --rtol 1e-6"},
	{"log_f32_denormal", "f32", "f32", UNARY("log", "f32", "mul", "1e-39"), "--atol 0 --rtol 1e-6"},
	{"rsqrt_f32", "f32", "f32", UNARY("rsqrt", "f32", "mul", "1000.0"), "--atol 0 --rtol 1e-6"},
	{"rsqrt_f32_denormal", "f32", "f32", UNARY("rsqrt", "f32", "mul", "1e-39"), "--atol 0 --rtol 1e-6"},
	{"roundeven_f32", "f32", "f32", UNARY("roundeven", "f32", "mul", "2.5"), "--atol 0 --rtol 0"},
	{"round_f32", "f32", "f32", UNARY("round", "f32", "mul", "2.0"), "--atol 0 --rtol 0"},
	{"round_bf16", "bf16", "bf16", UNARY("round", "bf16", "mul", "2.0"), "--atol 0 --rtol 0"},
	{"log10_f32", "f32", "f32", UNARY("log10", "f32", "mul", "1000.0"), "--atol 1e-6 --rtol 1e-6"},
	/* Wave's sinh, cbrt, atan2, powf (math.c; specials: special_values) */
	{"sinh_f32", "f32", "f32", UNARY("sinh", "f32", "mul", "1.0"), "--atol 0 --rtol 1e-6"},
	{"sinh_f32_wide", "f32", "f32", UNARY("sinh", "f32", "mul", "44.0"), "--atol 0 --rtol 1e-6"},
	{"sinh_f32_tiny", "f32", "f32", UNARY("sinh", "f32", "truediv", "1000.0"), "--atol 0 --rtol 1e-6"},
	{"cbrt_f32", "f32", "f32", UNARY("cbrt", "f32", "mul", "1e30"), "--atol 0 --rtol 1e-6"},
	{"cbrt_f32_denormal", "f32", "f32", UNARY("cbrt", "f32", "mul", "1e-39"), "--atol 0 --rtol 1e-6"},
	{"atan2_f32", "f32", "f32", INTBIN("atan2", "f32", "3.0"), "--atol 0 --rtol 1e-6"},
	{"atan2_f32_tiny", "f32", "f32", INTBIN("atan2", "f32", "1e-30"), "--atol 0 --rtol 1e-6"},
	{"powf_f32", "f32", "f32", INTBIN("powf", "f32", "2.0"), "--atol 0 --rtol 2e-6"},
	{"powf_f32_wide", "f32", "f32", INTBIN("powf", "f32", "1e15"), "--atol 0 --rtol 1e-5"},
	{"sinh_f16", "f16", "f16", UNARY("sinh", "f16", "mul", "3.0"), ""},
	{"cbrt_bf16", "bf16", "bf16", UNARY("cbrt", "bf16", "mul", "100.0"), ""},
	{"atan2_bf16", "bf16", "bf16", INTBIN("atan2", "bf16", "2.0"), ""},
	{"powf_f16", "f16", "f16", INTBIN("powf", "f16", "2.0"), ""},
	/* remf (C's fmod) is exact: specials and wide ranges in remf_exact */
	{"remf_f32", "f32", "f32", INTBIN("remf", "f32", "1000.0"), "--atol 0 --rtol 0"},
	{"remf_f16", "f16", "f16", INTBIN("remf", "f16", "37.0"), "--atol 0 --rtol 0"},
	{"remf_bf16", "bf16", "bf16", INTBIN("remf", "bf16", "1e30"), "--atol 0 --rtol 0"},
	{"floordiv_f32", "f32", "f32", INTBIN("floordiv", "f32", "1000.0"), "--atol 0 --rtol 0"},
	{"mod_f32", "f32", "f32", INTBIN("mod", "f32", "1e9"), "--atol 0 --rtol 0"},
	{"floordiv_f16", "f16", "f16", INTBIN("floordiv", "f16", "300.0"), "--atol 0 --rtol 0"},
	{"mod_bf16", "bf16", "bf16", INTBIN("mod", "bf16", "1e20"), "--atol 0 --rtol 0"},
	/* the same through f32 for the 16-bit types */
	{"sin_f16", "f16", "f16", UNARY("sin", "f16", "mul", "100.0"), ""},
	{"cos_bf16", "bf16", "bf16", UNARY("cos", "bf16", "mul", "100.0"), ""},
	{"tanh_f16", "f16", "f16", UNARY("tanh", "f16", "mul", "3.0"), ""},
	{"tanh_bf16", "bf16", "bf16", UNARY("tanh", "bf16", "truediv", "100.0"), ""},
	{"log_f16", "f16", "f16", UNARY("log", "f16", "mul", "10.0"), ""},
	{"log_bf16", "bf16", "bf16", UNARY("log", "bf16", "mul", "10.0"), ""},
	{"rsqrt_f16", "f16", "f16", UNARY("rsqrt", "f16", "mul", "10.0"), ""},
	{"rsqrt_bf16", "bf16", "bf16", UNARY("rsqrt", "bf16", "mul", "10.0"), ""},
	{"roundeven_f16", "f16", "f16", UNARY("roundeven", "f16", "mul", "2.5"), "--atol 0 --rtol 0"},
	{"roundeven_bf16", "bf16", "bf16", UNARY("roundeven", "bf16", "mul", "2.5"), "--atol 0 --rtol 0"},
	{"sqrt_bf16", "bf16", "bf16", UNARY("sqrt", "bf16", "mul", "10.0"), ""},
	{"exp_bf16", "bf16", "bf16", UNARY("exp", "bf16", "mul", "2.0"), ""},
	{"reciprocal_f16", "f16", "f16", UNARY("reciprocal", "f16", "mul", "3.0"), ""},
	{"abs_f32", "f32", "f32", UNARY("abs", "f32", "mul", "3.0"), "--atol 0 --rtol 0"},
	/* maximum / minimum in every type */
	{"maximum_bf16", "bf16", "bf16", "{\"name\":\"out\",\"op\":\"maximum\",\"lhs\":\"a\",\"rhs\":\"b\"}", "--atol 0 --rtol 0"},
	{"minimum_f16", "f16", "f16", "{\"name\":\"out\",\"op\":\"minimum\",\"lhs\":\"a\",\"rhs\":\"b\"}", "--atol 0 --rtol 0"},
	/* NaN from log of a negative: maximum and minimum propagate it */
	{"maximum_nan_f32", "f32", "f32", NAN_MAXMIN("maximum"), ""},
	{"minimum_nan_f16", "f16", "f16", NAN_MAXMIN("minimum"), ""},
	{"maximum_nan_bf16", "bf16", "bf16", NAN_MAXMIN("maximum"), ""},
	{"maximum_u32", "u32", "u32", INTBIN("maximum", "u32", "3"), ""},
	{"minimum_u32", "u32", "u32", INTBIN("minimum", "u32", "3"), ""},
	/* integer arithmetic; a * 1000003 reaches +-8e6 and mul wraps */
	{"add_i32", "i32", "i32", INTBIN("add", "i32", "1000003"), ""},
	{"sub_i32", "i32", "i32", INTBIN("sub", "i32", "1000003"), ""},
	{"mul_i32", "i32", "i32", INTBIN("mul", "i32", "1000003"), ""},
	{"mul_i32_wraps", "i32", "i32", INTBIN("mul", "i32", "300000007"), ""},
	{"floordiv_i32", "i32", "i32", INTBIN("floordiv", "i32", "1000003"), ""},
	{"floordiv_i32_small", "i32", "i32", INTBIN("floordiv", "i32", "1"), ""},
	{"mod_i32", "i32", "i32", INTBIN("mod", "i32", "1000003"), ""},
	{"mod_i32_small", "i32", "i32", INTBIN("mod", "i32", "1"), ""},
	{"truediv_i32", "i32", "i32", INTBIN("truediv", "i32", "1000003"), ""},
	{"maximum_i32", "i32", "i32", INTBIN("maximum", "i32", "3"), ""},
	{"and_i32", "i32", "i32", INTBIN("and_", "i32", "1000003"), ""},
	{"or_i32", "i32", "i32", INTBIN("or_", "i32", "1000003"), ""},
	{"floordiv_u32", "u32", "u32", INTBIN("floordiv", "u32", "1000003"), ""},
	{"mod_u32", "u32", "u32", INTBIN("mod", "u32", "1000003"), ""},
	{"mul_u32", "u32", "u32", INTBIN("mul", "u32", "1000003"), ""},
	{"sub_u32", "u32", "u32", INTBIN("sub", "u32", "1000003"), ""},
	{"neg_i32", "i32", "i32", UNARY("neg", "i32", "mul", "1000003"), ""},
	{"abs_i32", "i32", "i32", UNARY("abs", "i32", "mul", "1000003"), ""},
	{"invert_i32", "i32", "i32", UNARY("invert", "i32", "mul", "1000003"), ""},
	/* logical ops on masks */
	{"and_i1", "f32", "f32",
		"{\"name\":\"p\",\"op\":\"gt\",\"lhs\":\"a\",\"rhs\":\"b\"},"
		"{\"name\":\"z\",\"op\":\"scalar\",\"value\":0.5,\"dtype\":\"f32\"},"
		"{\"name\":\"q\",\"op\":\"lt\",\"lhs\":\"a\",\"rhs\":\"z\"},"
		"{\"name\":\"pq\",\"op\":\"and_\",\"lhs\":\"p\",\"rhs\":\"q\"},"
		"{\"name\":\"npq\",\"op\":\"invert\",\"arg\":\"pq\"},"
		"{\"name\":\"o\",\"op\":\"or_\",\"lhs\":\"npq\",\"rhs\":\"p\"},"
		"{\"name\":\"out\",\"op\":\"select\",\"cond\":\"o\",\"if_true\":\"a\",\"if_false\":\"b\"}", "--atol 0 --rtol 0"},
	/* apply_expr: signed floor division and modulo, relations, Max/Min */
	{"apply_expr_affine", "i32", "i32", APPLY("x - 3*y + M"), ""},
	{"apply_expr_pow2", "i32", "i32", APPLY("floor(x/4) + Mod(y, 8) + floor((x + y)/2)"), ""},
	{"apply_expr_div", "i32", "i32", APPLY("floor(x/3) - Mod(y, 5) + ceiling(y/7)"), ""},
	{"apply_expr_rel", "i32", "i32", APPLY("x < y"), ""},
	{"apply_expr_and", "i32", "i32", APPLY("(x > 0) & (y <= 2)"), ""},
	{"apply_expr_maxmin", "i32", "i32", APPLY("Max(x, y) - Min(x, 3)"), ""},
	{"apply_expr_mul", "i32", "i32", APPLY("x*y - 7*x*x"), ""},
	/* self_index (the N coordinate), compared and selected */
	{"self_index", "i32", "i32",
		"{\"name\":\"i\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"i32\"},"
		"{\"name\":\"ib\",\"op\":\"broadcast\",\"arg\":\"i\",\"target_shape\":[\"M\",\"N\"]},"
		"{\"name\":\"k\",\"op\":\"scalar\",\"value\":\"N - 100\",\"dtype\":\"i32\"},"
		"{\"name\":\"lt\",\"op\":\"lt\",\"lhs\":\"ib\",\"rhs\":\"k\"},"
		"{\"name\":\"s\",\"op\":\"add\",\"lhs\":\"ib\",\"rhs\":\"a\"},"
		"{\"name\":\"out\",\"op\":\"select\",\"cond\":\"lt\",\"if_true\":\"s\",\"if_false\":\"b\"}", ""},
	/* constant registers of the 16-bit and integer types */
	{"register_f16", "f16", "f16",
		"{\"name\":\"r\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"f16\",\"value\":1.5},"
		"{\"name\":\"out\",\"op\":\"mul\",\"lhs\":\"a\",\"rhs\":\"r\"}", "--atol 0 --rtol 0"},
	{"register_bf16", "bf16", "bf16",
		"{\"name\":\"r\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"bf16\",\"value\":-0.75},"
		"{\"name\":\"out\",\"op\":\"add\",\"lhs\":\"a\",\"rhs\":\"r\"}", "--atol 0 --rtol 0"},
	{"register_u32", "u32", "u32",
		"{\"name\":\"r\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"u32\",\"value\":7},"
		"{\"name\":\"out\",\"op\":\"sub\",\"lhs\":\"a\",\"rhs\":\"r\"}", ""},
	{"scalar_i32_expr", "i32", "i32",
		"{\"name\":\"k\",\"op\":\"scalar\",\"value\":\"2*N + M\",\"dtype\":\"i32\"},"
		"{\"name\":\"out\",\"op\":\"mul\",\"lhs\":\"a\",\"rhs\":\"k\"}", ""},
};

static void write_kernel(const char *path, const EltCase *c)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f,
		"{\"format\":\"wavecc-kernel/1\",\"name\":\"elt_%s\","
		"\"symbols\":{\"M\":3,\"N\":300,\"BLOCK_M\":1,\"BLOCK_N\":\"Max(Min(N, 256), 64)\"},"
		"\"address_spaces\":{\"G\":\"global\"},"
		"\"constraints\":[{\"kind\":\"hardware\",\"threads_per_wave\":64,"
		"\"vector_shapes\":{\"M\":\"BLOCK_M\",\"N\":\"BLOCK_N\"}},"
		"{\"kind\":\"workgroup\",\"dim\":\"M\",\"tile\":\"BLOCK_M\",\"workgroup_dim\":1},"
		"{\"kind\":\"workgroup\",\"dim\":\"N\",\"tile\":\"BLOCK_N\",\"workgroup_dim\":0},"
		"{\"kind\":\"wave\",\"dim\":\"M\",\"tile\":\"BLOCK_M\"},{\"kind\":\"wave\",\"dim\":\"N\",\"tile\":\"BLOCK_N\"}],"
		"\"arguments\":["
		"{\"name\":\"A\",\"type\":\"memory\",\"shape\":[\"M\",\"N\"],\"address_space\":\"G\",\"dtype\":\"%s\"},"
		"{\"name\":\"B\",\"type\":\"memory\",\"shape\":[\"M\",\"N\"],\"address_space\":\"G\",\"dtype\":\"%s\"},"
		"{\"name\":\"C\",\"type\":\"memory\",\"shape\":[\"M\",\"N\"],\"address_space\":\"G\",\"dtype\":\"%s\"}],"
		"\"graph\":[{\"name\":\"a\",\"op\":\"read\",\"memory\":\"A\"},{\"name\":\"b\",\"op\":\"read\",\"memory\":\"B\"},"
		"%s,{\"name\":\"w\",\"op\":\"write\",\"register\":\"out\",\"memory\":\"C\"}]}\n",
		c->name, c->ta, c->ta, c->tc, c->nodes);
	fclose(f);
}

START_TEST(elt_case)
{
	const EltCase *c = &cases[_i / 2];
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char dir_name[64], path[4096];
	snprintf(dir_name, sizeof dir_name, "elt_ops_%d", _i);
	snprintf(path, sizeof path, "%s/%s.json", test_tmpdir(dir_name), c->name);
	write_kernel(path, c);
	CmdResult r = test_wavecc("run '%s' --mcpu %s --seed %d %s", path, mcpu, 5 + _i, c->flags);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", c->name, mcpu, r.status,
		r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* What stays outside: each a located error naming the op. */
static const EltCase rejected[] = {

	{"apply_expr on floats", "f32", "i32",
		"{\"name\":\"e\",\"op\":\"apply_expr\",\"register\":[\"a\"],\"params\":[\"x\"],\"expr\":\"x + 1\"},"
		"{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"e\",\"dtype\":\"i32\"}", "apply_expr"},
	/* i64 values whose range leaves 32 bits (a wrapped word would be a
	 * wrong kernel): rejected at the op that makes them */
	{"i64 register past 2^31", "f32", "f32",
		"{\"name\":\"col\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"i64\"},"
		"{\"name\":\"win\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"i64\",\"value\":4294967296},"
		"{\"name\":\"l\",\"op\":\"le\",\"lhs\":\"col\",\"rhs\":\"win\"},"
		"{\"name\":\"out\",\"op\":\"select\",\"cond\":\"l\",\"if_true\":\"a\",\"if_false\":\"b\"}",
		"graph[3]: register on i64 values: the result's range [4294967296, 4294967296] does not fit 32 bits"},
	{"i64 add past 2^31", "f32", "f32",
		"{\"name\":\"col\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"i64\"},"
		"{\"name\":\"win\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"i64\",\"value\":2147483600},"
		"{\"name\":\"d\",\"op\":\"add\",\"lhs\":\"col\",\"rhs\":\"win\"},"
		"{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"d\",\"dtype\":\"f32\"}",
		"graph[4]: add on i64 values: the result's range [2147483600, "},
	{"u64 sub below 0", "f32", "f32",
		"{\"name\":\"col\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"u64\"},"
		"{\"name\":\"win\",\"op\":\"register\",\"shape\":[\"M\",\"N\"],\"dtype\":\"u64\",\"value\":40},"
		"{\"name\":\"d\",\"op\":\"sub\",\"lhs\":\"col\",\"rhs\":\"win\"},"
		"{\"name\":\"out\",\"op\":\"cast\",\"arg\":\"d\",\"dtype\":\"f32\"}",
		"graph[4]: sub on u64 values whose range is not proven"},
	{"i64 apply_expr past 2^31", "f32", "f32",
		"{\"name\":\"col\",\"op\":\"self_index\",\"dim\":\"N\",\"dtype\":\"i64\"},"
		"{\"name\":\"d\",\"op\":\"apply_expr\",\"register\":\"col\",\"params\":[\"c\"],\"expr\":\"c*100000000 - N\"},"
		"{\"name\":\"l\",\"op\":\"lt\",\"lhs\":\"d\",\"rhs\":\"col\"},"
		"{\"name\":\"out\",\"op\":\"select\",\"cond\":\"l\",\"if_true\":\"a\",\"if_false\":\"b\"}",
		"apply_expr on i64 values whose range is not proven to fit 32 bits (every step of -N + 100000000*c)"},
};

START_TEST(elt_rejected)
{
	const EltCase *c = &rejected[_i];
	char path[4096];
	snprintf(path, sizeof path, "%s/rejected.json", test_tmpdir("elt_ops_rejected"));
	EltCase k = *c;
	k.name = "rejected";
	write_kernel(path, &k);
	CmdResult r = test_wavecc("run '%s'", path);
	ck_assert_msg(r.status != 0 && strstr(r.err, ": error: ") && strstr(r.err, c->flags), "%s: status %d\n%s%s",
		c->name, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* test_scalar.py::test_scalar_cond_copy (tests/driver/wave/scalar_cond_copy.json)
 * runs against the interpreter in wave_test.c; here its code also runs
 * from the launch descriptor and the test checks Wave's assertion itself:
 * b = a in columns below the threshold 12, 0 after. N = 300 gives 4 elements per
 * thread and a partial workgroup. */
START_TEST(scalar_cond_copy_runs)
{
	enum { M = 3, N = 300 };
	const char *mcpu = _i ? "gfx90a" : "gfx942";
	const char *dir = test_tmpdir(_i ? "elt_cond_copy_90a" : "elt_cond_copy_942");
	CmdResult r = test_wavecc("compile tests/driver/wave/scalar_cond_copy.json -D M=%d -D N=%d --mcpu %s -o '%s/k.hsaco' "
				  "--launch '%s/k.launch.json'",
		M, N, mcpu, dir, dir);
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
	static uint16_t a[M * N];
	for (int i = 0; i < M * N; i++)
		a[i] = dtype_f32_to_f16((float)(i % 97 + 1) / 8.0f);
	char path[1024], err[256];
	int64_t shape[2] = {M, N};
	snprintf(path, sizeof path, "%s/a.npy", dir);
	ck_assert_msg(npy_write(path, DT_F16, 2, shape, a, err, sizeof err) == 0, "%s", err);
	r = test_wavecc("run '%s/k.launch.json' -D M=%d -D N=%d --in a='%s/a.npy' --out b='%s/b.npy'", dir, M, N, dir, dir);
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
	NpyArray b;
	snprintf(path, sizeof path, "%s/b.npy", dir);
	ck_assert_msg(npy_read(path, &b, err, sizeof err) == 0, "%s", err);
	const uint16_t *bv = (const uint16_t *)b.data;
	for (int i = 0; i < M * N; i++)
		ck_assert_msg(bv[i] == (i % N < 12 ? a[i] : 0), "b[%d][%d] = 0x%04x", i / N, i % N, bv[i]);
	npy_free(&b);
}
END_TEST

/* sinh, cbrt, atan2 and powf over every pair of 30 special values (zeros
 * of both signs, infinities, NaN, +-1, denormals, the f32 range's ends,
 * sinh's overflow, odd and even integers, halves), compiled against the
 * interpreter's C library results: a and b are the 900 pairs. */
static const float specials[30] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, 0.0f / 0.0f, 1.0f, -1.0f, 0.5f, -0.5f,
	2.0f, -2.0f, 3.0f, -3.0f, 0.25f, 1e-39f, -1e-39f, 1e30f, -1e30f, 3.4e38f, -3.4e38f, 88.0f, -88.0f, 100.0f,
	-100.0f, 1.5f, -1.5f, 7.0f, -7.0f, 1e-3f, -1e-3f};
static const char *const special_ops[][3] = {
	{"sinh", UNARY("sinh", "f32", "mul", "1.0"), "--atol 0 --rtol 1e-6"},
	{"cbrt", UNARY("cbrt", "f32", "mul", "1.0"), "--atol 0 --rtol 1e-6"},
	{"atan2", INTBIN("atan2", "f32", "1.0"), "--atol 0 --rtol 1e-6"},
	/* the error grows with |y log2 x| (docs/compiler.md): 1e-39^1 has 130 */
	{"powf", INTBIN("powf", "f32", "1.0"), "--atol 0 --rtol 1e-5"},
};

START_TEST(special_values)
{
	const char *const *o = special_ops[_i / 2];
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char dir_name[64], path[4096], pa[4200], pb[4200], err[256];
	snprintf(dir_name, sizeof dir_name, "elt_specials_%d", _i);
	const char *dir = test_tmpdir(dir_name);
	static float a[900], b[900];
	for (int i = 0; i < 900; i++) {
		a[i] = specials[i / 30];
		b[i] = specials[i % 30];
	}
	int64_t shape[2] = {3, 300};
	snprintf(pa, sizeof pa, "%s/A.npy", dir);
	snprintf(pb, sizeof pb, "%s/B.npy", dir);
	ck_assert_msg(npy_write(pa, DT_F32, 2, shape, a, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(pb, DT_F32, 2, shape, b, err, sizeof err) == 0, "%s", err);
	EltCase c = {o[0], "f32", "f32", o[1], o[2]};
	snprintf(path, sizeof path, "%s/%s.json", dir, o[0]);
	write_kernel(path, &c);
	CmdResult r = test_wavecc("run '%s' --mcpu %s --in A='%s' --in B='%s' %s", path, mcpu, pa, pb, o[2]);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", o[0], mcpu, r.status,
		r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* remf against C's fmodf, float floordiv and mod against the
 * interpreter's double formulas (ref_floordiv, ref_mod), bit for bit
 * (signed zeros, NaN for NaN) over 4800 pairs: every pair of 40 special values (zeros, infinities, NaN,
 * the smallest and largest denormals and normals, the largest finite,
 * powers of two, odd multiples), 1600 random bit patterns (any finite
 * exponents: quotients up to 2^276, denormal divisors and dividends),
 * and 1600 pairs with a near an integer multiple of b (within a few ulps,
 * quotients to 2^40: remainders near 0 and near |b|); the run also
 * compares with the interpreter at zero tolerance. */
static uint32_t remf_rng(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (uint32_t)(*st >> 16);
}

static float remf_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The interpreter's float floordiv and mod: floor of the double quotient,
 * the product and difference rounded in double, then to f32. */
static float ref_floordiv(float a, float b)
{
	volatile double q = floor((double)a / (double)b);
	return (float)q;
}

static float ref_mod(float a, float b)
{
	volatile double q = floor((double)a / (double)b);
	volatile double p = (double)b * q;
	volatile double d = (double)a - p;
	return (float)d;
}

static const struct {
	const char *op;
	float (*ref)(float, float);
} exact_ops[] = {{"remf", fmodf}, {"floordiv", ref_floordiv}, {"mod", ref_mod}};

START_TEST(remf_exact)
{
	const char *opname = exact_ops[_i / 2].op;
	float (*ref)(float, float) = exact_ops[_i / 2].ref;
	enum { M = 16, N = 300, NS = 40 };
	static const uint32_t sp[NS] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
		0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
		0x40000000, 0xc0400000, 0x3f000000, 0x40490fdb, 0xc0490fdb, 0x4b800001, 0x4b7fffff, 0x00000003,
		0x00400000, 0x00c00000, 0x3effffff, 0x3f7fffff, 0x3f800001, 0x7e800000, 0x01000000, 0x0d000000,
		0x47c35000, 0xc7c35000, 0x40e00000, 0x3dcccccd, 0xbdcccccd, 0x5d5e0b6b, 0x219392ef, 0x7f000001,
		0x2f800000};
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	static float a[M * N], b[M * N];
	uint64_t st = 0x9e3779b97f4a7c15ull;
	int n = 0;
	for (int i = 0; i < NS; i++)
		for (int j = 0; j < NS; j++, n++)
			a[n] = remf_bits(sp[i]), b[n] = remf_bits(sp[j]);
	for (int i = 0; i < 1600; i++, n++) {
		uint32_t u, v;
		do
			u = remf_rng(&st);
		while ((u & 0x7f800000u) == 0x7f800000u);
		do
			v = remf_rng(&st);
		while ((v & 0x7f800000u) == 0x7f800000u);
		a[n] = remf_bits(u);
		b[n] = remf_bits(v);
	}
	while (n < M * N) {
		uint32_t v = (remf_rng(&st) & 0x807fffffu) | ((60u + remf_rng(&st) % 120u) << 23);
		float q = (float)(remf_rng(&st) % 4096u) * ldexpf(1.0f, (int)(remf_rng(&st) % 29u)) + 1.0f;
		uint32_t u;
		float p = remf_bits(v) * q;
		memcpy(&u, &p, 4);
		u += (uint32_t)((int)(remf_rng(&st) % 7u) - 3);
		if ((u & 0x7f800000u) == 0x7f800000u || (u & 0x7f800000u) == 0)
			continue;
		a[n] = remf_bits(u);
		b[n++] = remf_bits(v);
	}
	char dir_name[64], path[4096], pa[4200], pb[4200], pc[4200], err[256];
	snprintf(dir_name, sizeof dir_name, "elt_exact_%d", _i);
	const char *dir = test_tmpdir(dir_name);
	int64_t shape[2] = {M, N};
	snprintf(pa, sizeof pa, "%s/A.npy", dir);
	snprintf(pb, sizeof pb, "%s/B.npy", dir);
	snprintf(pc, sizeof pc, "%s/C.npy", dir);
	ck_assert_msg(npy_write(pa, DT_F32, 2, shape, a, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(pb, DT_F32, 2, shape, b, err, sizeof err) == 0, "%s", err);
	char nodes[128];
	snprintf(nodes, sizeof nodes, "{\"name\":\"out\",\"op\":\"%s\",\"lhs\":\"a\",\"rhs\":\"b\"}", opname);
	EltCase c = {opname, "f32", "f32", nodes, ""};
	snprintf(path, sizeof path, "%s/%s.json", dir, opname);
	write_kernel(path, &c);
	CmdResult r = test_wavecc("run '%s' --mcpu %s -D M=%d -D N=%d --in A='%s' --in B='%s' --out C='%s' --atol 0 --rtol 0",
		path, mcpu, M, N, pa, pb, pc);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", opname, mcpu, r.status,
		r.out, r.err);
	cmd_result_free(&r);
	NpyArray o;
	ck_assert_msg(npy_read(pc, &o, err, sizeof err) == 0, "%s", err);
	const float *got = (const float *)o.data;
	int bad = 0;
	for (int i = 0; i < M * N; i++) {
		float want = ref(a[i], b[i]);
		uint32_t gu, wu;
		memcpy(&gu, &got[i], 4);
		memcpy(&wu, &want, 4);
		if (isnan(want) ? !isnan(got[i]) : gu != wu) {
			if (bad++ < 8)
				fprintf(stderr, "%s %s: (%a, %a) = %a, got %a\n", opname, mcpu, (double)a[i], (double)b[i],
					(double)want, (double)got[i]);
		}
	}
	npy_free(&o);
	ck_assert_msg(bad == 0, "%s on %s: %d of %d results differ from C's", opname, mcpu, bad, M * N);
}
END_TEST

/* The same three ops on f16 and bf16 (computed through f32, rounded to
 * 16 bits from the f32 result as the interpreter rounds): 4800 random
 * finite 16-bit pairs, zeros and infinities among them, bit for bit
 * against C's results rounded the interpreter's way. */
START_TEST(exact_16bit)
{
	enum { M = 16, N = 300 };
	const char *opname = exact_ops[_i / 4].op;
	float (*ref)(float, float) = exact_ops[_i / 4].ref;
	bool bf = _i / 2 % 2;
	const char *dt = bf ? "bf16" : "f16", *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	static uint16_t a[M * N], b[M * N];
	uint64_t st = 0x5851f42d4c957f2dull + (uint64_t)_i;
	uint16_t expmask = bf ? 0x7f80 : 0x7c00;
	for (int i = 0; i < M * N; i++) {
		uint16_t u[2];
		for (int k = 0; k < 2; k++)
			do
				u[k] = (uint16_t)remf_rng(&st);
			while ((u[k] & expmask) == expmask && (u[k] & (uint16_t)~(expmask | 0x8000)) != 0); /* no NaN */
		a[i] = u[0];
		b[i] = u[1];
	}
	char dir_name[64], path[4096], pa[4200], pb[4200], pc[4200], err[256];
	snprintf(dir_name, sizeof dir_name, "elt_exact16_%d", _i);
	const char *dir = test_tmpdir(dir_name);
	int64_t shape[2] = {M, N};
	DType t = bf ? DT_BF16 : DT_F16;
	snprintf(pa, sizeof pa, "%s/A.npy", dir);
	snprintf(pb, sizeof pb, "%s/B.npy", dir);
	snprintf(pc, sizeof pc, "%s/C.npy", dir);
	ck_assert_msg(npy_write(pa, t, 2, shape, a, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(pb, t, 2, shape, b, err, sizeof err) == 0, "%s", err);
	char nodes[128];
	snprintf(nodes, sizeof nodes, "{\"name\":\"out\",\"op\":\"%s\",\"lhs\":\"a\",\"rhs\":\"b\"}", opname);
	EltCase c = {opname, dt, dt, nodes, ""};
	snprintf(path, sizeof path, "%s/%s.json", dir, opname);
	write_kernel(path, &c);
	CmdResult r = test_wavecc("run '%s' --mcpu %s -D M=%d -D N=%d --in A='%s' --in B='%s' --out C='%s' --atol 0 --rtol 0",
		path, mcpu, M, N, pa, pb, pc);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s %s on %s: status %d\n%s%s", opname, dt, mcpu,
		r.status, r.out, r.err);
	cmd_result_free(&r);
	NpyArray o;
	ck_assert_msg(npy_read(pc, &o, err, sizeof err) == 0, "%s", err);
	const uint16_t *got = (const uint16_t *)o.data;
	int bad = 0;
	for (int i = 0; i < M * N; i++) {
		float fa = bf ? dtype_bf16_to_f32(a[i]) : dtype_f16_to_f32(a[i]);
		float fb = bf ? dtype_bf16_to_f32(b[i]) : dtype_f16_to_f32(b[i]);
		float w = ref(fa, fb);
		uint16_t want = bf ? dtype_f32_to_bf16(w) : dtype_f32_to_f16(w);
		float g = bf ? dtype_bf16_to_f32(got[i]) : dtype_f16_to_f32(got[i]);
		if (isnan(w) ? !isnan(g) : got[i] != want) {
			if (bad++ < 8)
				fprintf(stderr, "%s %s %s: (%a, %a) = 0x%04x, got 0x%04x\n", opname, dt, mcpu, (double)fa,
					(double)fb, want, got[i]);
		}
	}
	npy_free(&o);
	ck_assert_msg(bad == 0, "%s %s on %s: %d of %d results differ", opname, dt, mcpu, bad, M * N);
}
END_TEST

static Suite *elt_suite(void)
{
	Suite *s = suite_create("elt_ops");
	TCase *tc = tcase_create("run");
	tcase_set_timeout(tc, 120);
	test_add_loop_sampled(tc, elt_case, (int)(2 * ARRAY_LEN(cases)));
	tcase_add_loop_test(tc, elt_rejected, 0, (int)ARRAY_LEN(rejected));
	tcase_add_loop_test(tc, scalar_cond_copy_runs, 0, 2);
	test_add_loop_sampled(tc, special_values, (int)(2 * ARRAY_LEN(special_ops)));
	test_add_loop_sampled(tc, remf_exact, (int)(2 * ARRAY_LEN(exact_ops)));
	test_add_loop_sampled(tc, exact_16bit, (int)(4 * ARRAY_LEN(exact_ops)));
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(elt_suite()); }
