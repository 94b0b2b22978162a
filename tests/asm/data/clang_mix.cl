// A clang-19 kernel for the linker tests: a __constant table (clang puts it in
// .rodata and addresses it with s_getpc + rel32 lo/hi relocations), LDS, a
// barrier and a loop. Built at test time with
//   clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3 -S
__constant float coeff[8] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, 4.0f, 8.0f, 16.0f};

// -nogpulib has no get_global_id(); use the builtins (workgroups of 64).
#define LID() ((int)__builtin_amdgcn_workitem_id_x())
#define GID() ((int)__builtin_amdgcn_workgroup_id_x() * 64 + LID())

__kernel void mix(__global const float *x, __global float *y, int n)
{
	__local float tile[64];
	int l = LID(), g = GID();
	tile[l] = g < n ? x[g] : 0.0f;
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
	float acc = 0.0f;
	for (int k = 0; k < 8; k++)
		acc += coeff[(g + k) & 7] * tile[(l + k) & 63];
	if (g < n)
		y[g] = acc;
}

__kernel void scale2(__global float *y, float s)
{
	y[GID()] *= s * coeff[GID() & 7];
}
