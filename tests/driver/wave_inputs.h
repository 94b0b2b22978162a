/* wave_inputs.h — input files for transcribed Wave tests (wave_inputs.c). */
#ifndef WAVECC_TESTS_WAVE_INPUTS_H
#define WAVECC_TESTS_WAVE_INPUTS_H

#include <stddef.h>

/* Write the i32 buffer spec "NAME:ROWS,COLS,SCALE" describes — every row
 * the same seeded permutation of 0..COLS-1, times SCALE (Wave's
 * randperm(COLS).repeat(ROWS, 1) * SCALE) — to a .npy file and put the
 * `wavecc run` option that loads it ("--in NAME=PATH") into opt. */
const char *wave_perm_input(const char *spec, char *opt, size_t len);

/* Write the i8 buffer spec "NAME:ROWS,COLS" describes — seeded 0s and 1s,
 * Wave's (randn(shape) > 0).int().to(int8) — as wave_perm_input does. */
const char *wave_bits_input(const char *spec, char *opt, size_t len);

/* Extend attention's index buffers for the spec "P0/E0,P1/E1,...:N_KV" —
 * sequence i with a prefix of Pi cached tokens and Ei new ones: qo_indptr
 * and kv_indptr (the running sums, N+1 entries) and kv_indices (N_KV
 * entries, padded with 0: each sequence's prefix rows at its start in the
 * cache pool, as Wave's create_inputs lays them) — as .npy files, and the
 * `--in` options that load them into opt. "...:N_KV:mask" also writes the
 * custom-mask variant's custom_mask (i8, Wave's causal-valued mask) and
 * mask_offsets. */
const char *wave_extend_input(const char *spec, char *opt, size_t len);

/* Prefill attention's offsets and sequence_lengths for the spec
 * "LEN0,LEN1,...": the sequences packed in order (offsets their running
 * sums, from 0); the --in options written into opt. */
const char *wave_prefill_input(const char *spec, char *opt, size_t len);

/* Paged decode attention's request_indices for the spec
 * "NUM_SEQS,KV_LEN": NUM_SEQS + 1 running sums of KV_LEN, each inner one
 * moved by a seeded randint(-KV_LEN/10, KV_LEN/10) (Wave's create_inputs);
 * the --in option appended to opt. */
const char *wave_paged_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading the f16 buffer spec
 * "NAME:D0,...,SCALE" (one to four dims) describes: seeded integers
 * ceil(clamp(normal·SCALE, -SCALE, SCALE)), Wave's quantized_tensor. */
const char *wave_quant_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading the i32 buffer spec "NAME:ROWS,COLS"
 * describes, each element a pair of f16 values (the first in its low half:
 * Wave's f16[ROWS, 2·COLS].view(int32)) drawn as the interpreter's fill
 * draws f16 (multiples of 1/64 in [-2, 2)). */
const char *wave_packed_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading the i8 buffer spec "NAME:D0[,D1[,D2]]:KIND"
 * describes, as Wave's mxfp_utils.py generate_gemm_afp4wfp4_inputs and
 * wave_gemm_mxfp_test.py generate_gemm_afp8wfp8_inputs build them: KIND f4
 * is random bytes (two e2m1 codes each), e5m2 / e4m3 the OCP f8 of normal
 * samples, scale e8m0 scales 124..127 (2^-3 .. 1), scale_shuffled those
 * through e8m0_shuffle (the preshuffled-scale kernels' layout; two dims). */
const char *wave_mx_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading the i32 buffer spec
 * "NAME:D0,...,LO,HI" (one to three dims) describes: seeded integers
 * uniform in [LO, HI) (Wave's randint(LO, HI, shape)). */
const char *wave_randint_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading the f32 buffer "NAME:ROWS,COLS" of
 * 0, 1, 2, ... in C order (Wave's arange(ROWS * COLS).reshape(ROWS, COLS)). */
const char *wave_arange_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading "NAME:N": an i32 vector 0, 1, ..., N - 1 (Wave's device_arange(N, dtype=torch.int32): paged attention's block
 * table). */
const char *wave_iota_input(const char *spec, char *opt, size_t len);

/* Append to opt the option loading the buffer "NAME:ROWS,COLS:DTYPE" of
 * zeros (Wave's torch.zeros output of an atomic_add: the seeded fill
 * would make a bf16 sum's roundings depend on the adds' order). */
const char *wave_zeros_input(const char *spec, char *opt, size_t len);

#endif
