; fused multiply-add, single and chained
declare float @llvm.fma.f32(float, float, float)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to float*
  %t1 = add i32 %tid, 256
  %pa = getelementptr float, float* %fp, i32 %t1
  %t2 = add i32 %tid, 320
  %pb = getelementptr float, float* %fp, i32 %t2
  %t3 = add i32 %tid, 384
  %pc = getelementptr float, float* %fp, i32 %t3
  %a = load float, float* %pa
  %b = load float, float* %pb
  %c = load float, float* %pc
  %base = mul i32 %tid, 16
  %ob = getelementptr float, float* %op, i32 %base
  %x0 = call float @llvm.fma.f32(float %a, float %b, float %c)
  %na = fneg float %a
  %x1 = call float @llvm.fma.f32(float %na, float %b, float %c)
  %x2 = call float @llvm.fma.f32(float %x0, float %x1, float %a)
  %x3 = call float @llvm.fma.f32(float %a, float 3.0, float -1.5)
  store float %x0, float* %ob
  %o1 = getelementptr float, float* %ob, i32 1
  store float %x1, float* %o1
  %o2 = getelementptr float, float* %ob, i32 2
  store float %x2, float* %o2
  %o3 = getelementptr float, float* %ob, i32 3
  store float %x3, float* %o3
  ret void
}
