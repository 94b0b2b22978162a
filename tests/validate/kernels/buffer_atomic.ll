; buffer_atomic.ll — the MUBUF atomics wavecc's atomic_add compiles to
; (isel/atomic.c), written as LLVM IR because clang-19's OpenCL has no buffer
; atomic builtins; clang-19 compiles it with LLVM's AMDGPU backend like the
; .cl kernels. Per work-item g < n of 64-wide workgroups, with buffer
; descriptors of exact size (num_records = the tensor's bytes, stride 0):
;   cnt[x & 15] += x                    buffer_atomic_add, no return
;   out_old[g] = uniq[g] += x           buffer_atomic_add sc0 (glc on gfx90a),
;                                       offset 0x80000000 when g % 5 == 0:
;                                       dropped, returns 0
;   fsum[x & 15] += (x & 255) * 0.25    buffer_atomic_add_f32, no return
;                                       (exact values: any order, one sum)
;   out_fold[g] = funiq[g] += 0.5 * x   buffer_atomic_add_f32 sc0, offset
;                                       0x80000000 when g % 7 == 0
; plus an immediate offset: cnt2[(x & 7) + 8] += 1 through offset:32.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32, ptr addrspace(8), i32, i32, i32)
declare float @llvm.amdgcn.raw.ptr.buffer.atomic.fadd.f32(float, ptr addrspace(8), i32, i32, i32)
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1), i16, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

define amdgpu_kernel void @buffer_atomic(ptr addrspace(1) %x, ptr addrspace(1) %cnt, ptr addrspace(1) %uniq,
    ptr addrspace(1) %out_old, ptr addrspace(1) %fsum, ptr addrspace(1) %funiq, ptr addrspace(1) %out_fold,
    ptr addrspace(1) %cnt2, i32 %n) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %w = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %w, 64
  %g = add i32 %base, %t
  %in = icmp slt i32 %g, %n
  br i1 %in, label %body, label %done

body:
  %xp = getelementptr i32, ptr addrspace(1) %x, i32 %g
  %xv = load i32, ptr addrspace(1) %xp
  %nbytes = shl i32 %n, 2
  ; cnt[x & 15] += x
  %rc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %cnt, i16 0, i32 64, i32 131072)
  %k = and i32 %xv, 15
  %koff = shl i32 %k, 2
  %d0 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 %xv, ptr addrspace(8) %rc, i32 %koff, i32 0, i32 0)
  ; out_old[g] = uniq[g] += x, lanes g % 5 == 0 out of range
  %ru = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %uniq, i16 0, i32 %nbytes, i32 131072)
  %goff = shl i32 %g, 2
  %m5 = urem i32 %g, 5
  %oob5 = icmp eq i32 %m5, 0
  %uoff = select i1 %oob5, i32 -2147483648, i32 %goff
  %old = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 %xv, ptr addrspace(8) %ru, i32 %uoff, i32 0, i32 0)
  %op = getelementptr i32, ptr addrspace(1) %out_old, i32 %g
  store i32 %old, ptr addrspace(1) %op
  ; fsum[x & 15] += (x & 255) * 0.25
  %rf = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %fsum, i16 0, i32 64, i32 131072)
  %lo = and i32 %xv, 255
  %lof = sitofp i32 %lo to float
  %q = fmul float %lof, 2.500000e-01
  %d1 = call float @llvm.amdgcn.raw.ptr.buffer.atomic.fadd.f32(float %q, ptr addrspace(8) %rf, i32 %koff, i32 0, i32 0)
  ; out_fold[g] = funiq[g] += 0.5 * x, lanes g % 7 == 0 out of range
  %rg = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %funiq, i16 0, i32 %nbytes, i32 131072)
  %xf = sitofp i32 %xv to float
  %h = fmul float %xf, 5.000000e-01
  %m7 = urem i32 %g, 7
  %oob7 = icmp eq i32 %m7, 0
  %foff = select i1 %oob7, i32 -2147483648, i32 %goff
  %fold = call float @llvm.amdgcn.raw.ptr.buffer.atomic.fadd.f32(float %h, ptr addrspace(8) %rg, i32 %foff, i32 0, i32 0)
  %fp = getelementptr float, ptr addrspace(1) %out_fold, i32 %g
  store float %fold, ptr addrspace(1) %fp
  ; cnt2[(x & 7) + 8] += 1 through the immediate offset field
  %r2 = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %cnt2, i16 0, i32 64, i32 131072)
  %k7 = and i32 %xv, 7
  %k7off = shl i32 %k7, 2
  %k7imm = add i32 %k7off, 32
  %d2 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 1, ptr addrspace(8) %r2, i32 %k7imm, i32 0, i32 0)
  br label %done

done:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
