/* kd.h — the 64-byte AMDHSA kernel descriptor (code object v3+), decoded.
 * Layout and bit fields as LLVM's AMDGPUUsage documents them ("Kernel
 * Descriptor" for code object v3 and later, and the COMPUTE_PGM_RSRC1/2/3
 * tables it refers to). Shared by the
 * code-object reader (`wavecc info`), the launcher and the emulator, which
 * derives the initial register state from it. */
#ifndef WAVECC_KD_H
#define WAVECC_KD_H

#include <stdbool.h>
#include <stdint.h>

enum { KD_SIZE = 64 };

typedef struct KernelDescriptor {
	/* raw words */
	uint32_t group_segment_fixed_size;   /* static LDS bytes */
	uint32_t private_segment_fixed_size; /* scratch bytes per work-item */
	uint32_t kernarg_size;
	int64_t kernel_code_entry_byte_offset; /* from the KD address */
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t kernel_code_properties;
	uint16_t kernarg_preload;

	/* rsrc1 */
	uint32_t vgpr_granules;  /* GRANULATED_WORKITEM_VGPR_COUNT */
	uint32_t sgpr_granules;  /* GRANULATED_WAVEFRONT_SGPR_COUNT */
	uint32_t float_round_mode_32, float_round_mode_16_64;
	uint32_t float_denorm_mode_32, float_denorm_mode_16_64;
	bool dx10_clamp, ieee_mode, fp16_overflow;
	/* rsrc2 */
	bool enable_private_segment;
	uint32_t user_sgpr_count;
	bool enable_wgid[3];       /* system SGPR workgroup id x, y, z */
	bool enable_wg_info;
	uint32_t vgpr_workitem_id; /* 0: x, 1: x,y, 2: x,y,z */
	/* rsrc3 (gfx90a/gfx940+) */
	uint32_t accum_offset;     /* first AGPR in the unified file, in registers */
	bool tg_split;
	/* kernel_code_properties */
	bool user_private_segment_buffer, user_dispatch_ptr, user_queue_ptr;
	bool user_kernarg_segment_ptr, user_dispatch_id, user_flat_scratch_init;
	bool user_private_segment_size, wavefront_size32, uses_dynamic_stack;

	/* derived */
	uint32_t vgpr_alloc; /* unified VGPR+AGPR registers allocated: (granules+1)*8 */
	uint32_t sgpr_alloc; /* (granules+1)*8, including the 6 the hardware reserves */
	/* user SGPR positions, or -1 when not enabled */
	int sgpr_private_segment_buffer, sgpr_dispatch_ptr, sgpr_queue_ptr;
	int sgpr_kernarg_ptr, sgpr_dispatch_id, sgpr_flat_scratch_init;
	int sgpr_private_segment_size;
	int sgpr_wgid[3]; /* system SGPRs follow the user SGPRs */
	int sgpr_wg_info;
} KernelDescriptor;

/* Decode 64 bytes. Returns 0, or -1 with a message in `why` (64+ bytes) when a
 * reserved field is non-zero or a field is out of range. */
int kd_decode(const uint8_t bytes[KD_SIZE], KernelDescriptor *kd, char *why, int why_len);

#endif
