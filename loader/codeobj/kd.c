/* kd.c — decode the AMDHSA kernel descriptor (see kd.h for the contract). */
#include <stdio.h>
#include <string.h>

#include "kd.h"

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t bits(uint32_t w, int hi, int lo)
{
	return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

int kd_decode(const uint8_t b[KD_SIZE], KernelDescriptor *kd, char *why, int why_len)
{
	memset(kd, 0, sizeof *kd);
	kd->group_segment_fixed_size = rd32(b + 0);
	kd->private_segment_fixed_size = rd32(b + 4);
	kd->kernarg_size = rd32(b + 8);
	kd->kernel_code_entry_byte_offset = (int64_t)((uint64_t)rd32(b + 16) | (uint64_t)rd32(b + 20) << 32);
	kd->rsrc3 = rd32(b + 44);
	kd->rsrc1 = rd32(b + 48);
	kd->rsrc2 = rd32(b + 52);
	kd->kernel_code_properties = (uint16_t)(b[56] | b[57] << 8);
	kd->kernarg_preload = (uint16_t)(b[58] | b[59] << 8);

	for (int i = 12; i < 16; i++)
		if (b[i])
			goto reserved;
	for (int i = 24; i < 44; i++)
		if (b[i])
			goto reserved;
	for (int i = 60; i < 64; i++)
		if (b[i])
			goto reserved;

	uint32_t r1 = kd->rsrc1, r2 = kd->rsrc2, r3 = kd->rsrc3, p = kd->kernel_code_properties;
	kd->vgpr_granules = bits(r1, 5, 0);
	kd->sgpr_granules = bits(r1, 9, 6);
	kd->float_round_mode_32 = bits(r1, 13, 12);
	kd->float_round_mode_16_64 = bits(r1, 15, 14);
	kd->float_denorm_mode_32 = bits(r1, 17, 16);
	kd->float_denorm_mode_16_64 = bits(r1, 19, 18);
	kd->dx10_clamp = bits(r1, 21, 21);
	kd->ieee_mode = bits(r1, 23, 23);
	kd->fp16_overflow = bits(r1, 26, 26);

	kd->enable_private_segment = bits(r2, 0, 0);
	kd->user_sgpr_count = bits(r2, 5, 1);
	kd->enable_wgid[0] = bits(r2, 7, 7);
	kd->enable_wgid[1] = bits(r2, 8, 8);
	kd->enable_wgid[2] = bits(r2, 9, 9);
	kd->enable_wg_info = bits(r2, 10, 10);
	kd->vgpr_workitem_id = bits(r2, 12, 11);

	kd->accum_offset = (bits(r3, 5, 0) + 1) * 4;
	kd->tg_split = bits(r3, 16, 16);

	kd->user_private_segment_buffer = p & 1;
	kd->user_dispatch_ptr = p >> 1 & 1;
	kd->user_queue_ptr = p >> 2 & 1;
	kd->user_kernarg_segment_ptr = p >> 3 & 1;
	kd->user_dispatch_id = p >> 4 & 1;
	kd->user_flat_scratch_init = p >> 5 & 1;
	kd->user_private_segment_size = p >> 6 & 1;
	kd->wavefront_size32 = p >> 10 & 1;
	kd->uses_dynamic_stack = p >> 11 & 1;

	kd->vgpr_alloc = (kd->vgpr_granules + 1) * 8;
	kd->sgpr_alloc = (kd->sgpr_granules + 1) * 8;

	/* User SGPRs are dense from s0 in a fixed order; system SGPRs follow
	 * at user_sgpr_count (AMDGPUUsage, "Initial Kernel Execution State"). */
	int s = 0;
#define TAKE(flag, field, n) kd->field = (flag) ? (s += (n), s - (n)) : -1
	TAKE(kd->user_private_segment_buffer, sgpr_private_segment_buffer, 4);
	TAKE(kd->user_dispatch_ptr, sgpr_dispatch_ptr, 2);
	TAKE(kd->user_queue_ptr, sgpr_queue_ptr, 2);
	TAKE(kd->user_kernarg_segment_ptr, sgpr_kernarg_ptr, 2);
	TAKE(kd->user_dispatch_id, sgpr_dispatch_id, 2);
	TAKE(kd->user_flat_scratch_init, sgpr_flat_scratch_init, 2);
	s += kd->kernarg_preload & 0x7f;
	TAKE(kd->user_private_segment_size, sgpr_private_segment_size, 1);
	if ((uint32_t)s > kd->user_sgpr_count) {
		snprintf(why, (size_t)why_len, "user_sgpr_count %u is less than the %d user SGPRs enabled",
			 kd->user_sgpr_count, s);
		return -1;
	}
	s = (int)kd->user_sgpr_count;
	TAKE(kd->enable_wgid[0], sgpr_wgid[0], 1);
	TAKE(kd->enable_wgid[1], sgpr_wgid[1], 1);
	TAKE(kd->enable_wgid[2], sgpr_wgid[2], 1);
	TAKE(kd->enable_wg_info, sgpr_wg_info, 1);
#undef TAKE
	if (kd->wavefront_size32) {
		snprintf(why, (size_t)why_len, "wavefront_size32 is set; CDNA is wave64 only");
		return -1;
	}
	return 0;
reserved:
	snprintf(why, (size_t)why_len, "reserved kernel descriptor bytes are not zero");
	return -1;
}
