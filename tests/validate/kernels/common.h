// common.h — helpers shared by the validation kernels. With -nogpulib there is
// no OpenCL library, so work-item ids come from the AMDGPU builtins and every
// kernel fixes its workgroup size with reqd_work_group_size (the global id
// then needs no dispatch packet or implicit kernel arguments).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define LID_X ((int)__builtin_amdgcn_workitem_id_x())
#define LID_Y ((int)__builtin_amdgcn_workitem_id_y())
#define LID_Z ((int)__builtin_amdgcn_workitem_id_z())
#define WGID_X ((int)__builtin_amdgcn_workgroup_id_x())
#define WGID_Y ((int)__builtin_amdgcn_workgroup_id_y())
#define WGID_Z ((int)__builtin_amdgcn_workgroup_id_z())
#define BARRIER() \
  do { \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
    __builtin_amdgcn_s_barrier(); \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
  } while (0)
