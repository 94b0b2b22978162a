/* validate.h — harness for the emulator validation suites (tests/validate/).
 *
 * Each suite compiles its OpenCL C kernels (tests/validate/kernels/NAME.cl)
 * once per run with clang-19 for gfx942 into a scratch folder under the build
 * directory, and copies every hand-written launch descriptor
 * (kernels/NAME.launch.json) next to the code objects: a descriptor names its
 * code object by a path relative to itself ("NAME.hsaco"), so descriptor and
 * code object only have to sit in one folder.
 *
 * A test fills its inputs in C, writes them as .npy files, runs
 * `wavecc run DESC --backend emu -D ... --in ... --out ...`, reads the outputs
 * back and compares them with a reference computed in C by the test from the
 * same data. Mismatches are reported with the array, the flat index and both
 * values.
 *
 * Compilation runs in an unchecked fixture (once, in the parent process, before
 * Check forks the tests); a compile failure is remembered and fails every test
 * with the compiler's message. */
#ifndef WAVECC_VALIDATE_H
#define WAVECC_VALIDATE_H

#include <stdint.h>

#include "../../util/dtype.h"
#include "../test.h"

/* ---- harness.c: compiling ---- */

/* Build NAME.hsaco for each NAME in the NULL-terminated list into the
 * suite's folder (test_tmpdir(suite)), two builds at a time, and copy the
 * descriptors: kernels/NAME.cl with clang-19, or hand-written kernels/NAME.s
 * with llvm-mc-19 and ld.lld-19. Use as the body of an unchecked fixture. */
void vk_compile(const char *suite, const char *const *names);
/* The same for another target ID ("gfx90a", "gfx942:sramecc-"): clang and
 * llvm-mc get -mcpu=ARCH and the descriptors' "arch" is rewritten from
 * gfx942 to its processor as they are copied. The code object's e_flags
 * carry the target ID, so `wavecc run` models d16 loads as it says (sramecc
 * off: preserved, on/any: zeroed). vk_expect_insns checks nothing for
 * targets other than plain gfx942. */
void vk_compile_arch(const char *suite, const char *const *names, const char *arch);
/* The processor ("gfx942") and the full target ID of the current suite. */
const char *vk_arch(void);
const char *vk_target(void);
/* NULL, or why compiling failed (every test asserts it is NULL first). */
const char *vk_compile_error(void);
/* The suite folder holding code objects and descriptors. */
const char *vk_dir(void);
/* Disassembly of OUT_NAME.hsaco (llvm-objdump-19 -d), cached; heap string
 * owned by the harness. */
const char *vk_disasm(const char *name);
/* Fail the test unless each mnemonic in the NULL-terminated list occurs in
 * the disassembly of NAME.hsaco: proves the kernel exercises what it claims. */
void vk_expect_insns(const char *name, const char *const *mnemonics);
/* The same for instructions only another target has (gfx90a's i8 MFMAs):
 * checked when the suite's target ID is exactly TARGET, spelled as
 * llvm-objdump-19 prints them for it (v_mfma_i32_16x16x16i8). */
void vk_expect_insns_on(const char *target, const char *name, const char *const *mnemonics);

/* What clang's -O0 builds of a kernel (the *_o0.cl variants) must contain on
 * gfx942: scratch traffic, SGPR spills to VGPR lanes under whole-wave exec,
 * VGPR spills to AGPRs. NULL-terminated. */
extern const char *const vk_spill_insns[];

/* ---- harness.c: running ---- */

/* One kernel argument bound to host data. `data` holds count(shape) elements
 * of `dt`; for VK_OUT and VK_INOUT it receives the result. */
typedef enum { VK_IN, VK_OUT, VK_INOUT } VkDir;
typedef struct VkArg {
	const char *name;
	DType dt;
	int ndim;
	int64_t shape[4];
	void *data;
	VkDir dir;
} VkArg;

/* Run descriptor DESC (a file name in vk_dir()) on the emulator with the
 * given -D definitions ("n=100 k=3", space separated; may be NULL; a token
 * starting with "-" is passed as a wavecc option instead). Writes
 * inputs, reads outputs (checking dtype and shape). On failure fails the
 * test with wavecc's message. */
void vk_run(const char *desc, const char *defs, VkArg *args, int nargs);
/* The same without checking the outcome: writes the inputs, runs wavecc and
 * returns its status and messages (outputs are not read). */
CmdResult vk_run_raw(const char *desc, const char *defs, VkArg *args, int nargs);

/* ---- harness.c: data and comparisons ---- */

/* Deterministic generator (splitmix64) for test inputs. */
typedef struct { uint64_t s; } VkRng;
uint64_t vk_next(VkRng *r);
int32_t vk_int(VkRng *r, int32_t lo, int32_t hi); /* uniform in [lo, hi] */
float vk_float(VkRng *r, float lo, float hi);

/* Exact comparison of 32-bit words; fails with the first mismatch. */
void vk_check_u32(const char *what, const uint32_t *got, const uint32_t *want, size_t n);
void vk_check_u16(const char *what, const uint16_t *got, const uint16_t *want, size_t n);
/* Float comparison: equal, both NaN, or |got - want| <= abs_tol +
 * ulps * ulp(want) (ulp of the f32 value want). Fails with the worst index. */
void vk_check_f32(const char *what, const float *got, const double *want, size_t n, double ulps, double abs_tol);

/* f32 -> bf16 bits, round to nearest even (NaN quieted, top bits kept), and
 * back. Written here, not taken from util/dtype, so the reference does not
 * share code with the tool under test. */
uint16_t vk_bf16(float f);
float vk_bf16_f32(uint16_t b);

/* gfx942's FNUZ 8-bit floats (E4M3: ebits 4, mbits 3, bias 8; E5M2: ebits 5,
 * mbits 2, bias 16): decode a byte (0x80 is NaN), and encode with round to
 * nearest even (a result of zero is 0x00; no negative zero exists) and the
 * CDNA3 ISA guide's FP16_OVFL = 0 rule: NaN, +-inf and results past the
 * largest value (240, 57344) are 0x80. */
double vk_fnuz_decode(uint8_t b, int mbits, int bias);
uint8_t vk_fnuz_encode(double x, int mbits, int bias);

/* f16 bits <-> value (through the host's _Float16, independent of util/dtype). */
float vk_h2f(uint32_t bits16);
uint32_t vk_f2h(double d);

/* Bits of a float and back. */
uint32_t vk_fbits(float f);
float vk_bitsf(uint32_t u);

#endif
