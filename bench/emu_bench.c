/* emu_bench.c — emulator speed: wave instructions per second and lane
 * operations per second on three kernels, each assembled at run time with
 * llvm-mc-19 (the only tool it needs):
 *   valu   a loop of dependent v_fma_f32 / v_add_u32 (ALU bound)
 *   mfma   a loop of v_mfma_f32_16x16x16_f16 accumulations
 *   memory global_load_dwordx4 / v_pk_add_f32 / global_store_dwordx4 over 4 MiB
 * Each figure is also given as a ratio against the host doing the same
 * arithmetic in a plain C loop in the same run (the reference).
 *
 *   emu_bench [--quick]
 *
 * Run by `make bench-emu`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../loader/emu/emu.h"
#include "../util/util.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Assemble `body` for gfx942 and return the .text bytes. */
static uint8_t *assemble(const char *body, size_t *n)
{
	char dir[] = "/tmp/emu-bench-XXXXXX";
	if (!mkdtemp(dir))
		die("mkdtemp failed");
	char path[256], cmd[1024];
	snprintf(path, sizeof path, "%s/k.s", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	fprintf(f, ".text\n%s\ns_endpgm\n", body);
	fclose(f);
	snprintf(cmd, sizeof cmd, "cd %s && llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj k.s -o k.o && "
		 "llvm-objcopy-19 -O binary --only-section=.text k.o k.bin", dir);
	if (system(cmd) != 0)
		die("llvm-mc-19 failed on the benchmark kernel");
	snprintf(path, sizeof path, "%s/k.bin", dir);
	f = fopen(path, "rb");
	if (!f)
		die("no k.bin");
	uint8_t *code = xmalloc(1 << 16);
	*n = fread(code, 1, 1 << 16, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return code;
}

typedef struct {
	EmuMemory *m;
	EmuLaunch l;
	uint8_t *code;
	uint8_t kernarg[64];
} Bench;

static void setup(Bench *b, const char *body, uint32_t grid, uint32_t wg)
{
	memset(b, 0, sizeof *b);
	size_t n;
	b->code = assemble(body, &n);
	b->m = emu_mem_new();
	if (emu_mem_map_at(b->m, 0x100000, b->code, n, false, "code") != 0)
		die("map failed");
	KernelDescriptor *kd = &b->l.kd;
	kd->vgpr_alloc = 256, kd->accum_offset = 128;
	kd->sgpr_private_segment_buffer = kd->sgpr_dispatch_ptr = kd->sgpr_queue_ptr = -1;
	kd->sgpr_dispatch_id = kd->sgpr_flat_scratch_init = kd->sgpr_private_segment_size = -1;
	kd->sgpr_kernarg_ptr = 0, kd->sgpr_wgid[0] = 2, kd->sgpr_wgid[1] = kd->sgpr_wgid[2] = -1, kd->sgpr_wg_info = -1;
	b->l.arch = EMU_GFX942;
	b->l.kd_addr = 0x100000;
	b->l.kernarg_addr = emu_mem_map(b->m, b->kernarg, sizeof b->kernarg, 16, false, "kernarg");
	b->l.grid[0] = grid, b->l.grid[1] = b->l.grid[2] = 1;
	b->l.wg_size[0] = wg, b->l.wg_size[1] = b->l.wg_size[2] = 1;
}

static void run(Bench *b, const char *name, double lane_ops_per_inst, double host_ops_per_s)
{
	char err[512];
	EmuStats st;
	if (emu_launch(b->m, &b->l, &st, err, sizeof err) != 0)
		die("%s: %s", name, err);
	double ips = (double)st.instructions / st.seconds;
	double lops = ips * lane_ops_per_inst;
	printf("%-7s %10llu wave-instr in %.3f s: %6.2f M instr/s, %7.1f M lane-ops/s (%.3f x host C loop)\n", name,
	       (unsigned long long)st.instructions, st.seconds, ips / 1e6, lops / 1e6, lops / host_ops_per_s);
	emu_mem_free(b->m);
	free(b->code);
}

/* The reference: the host doing dependent f32 FMAs in a plain loop. */
static double host_fma_rate(void)
{
	static float x[64];
	for (int i = 0; i < 64; i++)
		x[i] = 1.0f + (float)i * 1e-3f;
	long iters = 200000;
	double t0 = now_s();
	for (long k = 0; k < iters; k++)
		for (int i = 0; i < 64; i++)
			x[i] = x[i] * 0.999f + 0.001f;
	double t = now_s() - t0;
	volatile float sink = x[7];
	(void)sink;
	return (double)iters * 64 / t;
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	uint32_t grid = quick ? 4 : 32;
	double host = host_fma_rate();
	printf("host C loop: %.1f M f32 fma/s (reference)\n", host / 1e6);
	Bench b;

	setup(&b, "v_cvt_f32_u32 v1, v0\n"
		  "v_mov_b32 v2, 1.0\n"
		  "s_movk_i32 s4, 1000\n"
		  "loop:\n"
		  "v_fma_f32 v2, v2, 0.5, v1\n"
		  "v_add_u32 v3, v3, v0\n"
		  "v_fma_f32 v4, v2, v1, v4\n"
		  "v_xor_b32 v5, v3, v4\n"
		  "s_sub_u32 s4, s4, 1\n"
		  "s_cmp_lg_u32 s4, 0\n"
		  "s_cbranch_scc1 loop", grid, 256);
	run(&b, "valu", 64.0 * 4 / 7, host); /* 4 of the 7 loop instructions are VALU */

	setup(&b, "v_mov_b32 v2, 0x3c003c00\nv_mov_b32 v3, v2\nv_mov_b32 v4, v2\nv_mov_b32 v5, v2\n"
		  "s_movk_i32 s4, 200\n"
		  "loop:\n"
		  "v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[4:5], a[0:3]\n"
		  "s_sub_u32 s4, s4, 1\n"
		  "s_cmp_lg_u32 s4, 0\n"
		  "s_cbranch_scc1 loop", grid, 256);
	run(&b, "mfma", 16.0 * 16 * 16 / 4, host); /* MACs per instruction, per 4 loop instructions */

	size_t bytes = (size_t)4 << 20;
	float *buf = xcalloc(bytes, 1);
	setup(&b, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		  "v_and_b32 v0, 0x3ff, v0\n"
		  "s_lshl_b32 s3, s2, 8\n"
		  "v_add_u32 v0, s3, v0\n"
		  "v_lshlrev_b32 v1, 4, v0\n"
		  "s_waitcnt lgkmcnt(0)\n"
		  "global_load_dwordx4 v[2:5], v1, s[4:5]\n"
		  "s_waitcnt vmcnt(0)\n"
		  "v_pk_add_f32 v[2:3], v[2:3], 1.0\n"
		  "v_pk_add_f32 v[4:5], v[4:5], 1.0\n"
		  "global_store_dwordx4 v1, v[2:5], s[4:5]", (uint32_t)(bytes / 16 / 256), 256);
	uint64_t a = emu_mem_map(b.m, buf, bytes, 256, true, "buf");
	memcpy(b.kernarg, &a, 8);
	run(&b, "memory", 64.0 * 4 / 12, host);
	free(buf);
	return 0;
}
