; minnum, maxnum, fabs, copysign
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.copysign.f32(float, float)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to float*
  %t1 = add i32 %tid, 300
  %pa = getelementptr float, float* %fp, i32 %t1
  %t2 = add i32 %tid, 400
  %pb = getelementptr float, float* %fp, i32 %t2
  %a = load float, float* %pa
  %b = load float, float* %pb
  %base = mul i32 %tid, 16
  %ob = getelementptr float, float* %op, i32 %base
  %x0 = call float @llvm.minnum.f32(float %a, float %b)
  %x1 = call float @llvm.maxnum.f32(float %a, float %b)
  %x2 = call float @llvm.fabs.f32(float %a)
  %x3 = call float @llvm.copysign.f32(float %a, float %b)
  %x4 = call float @llvm.maxnum.f32(float %a, float 0.0)
  store float %x0, float* %ob
  %o1 = getelementptr float, float* %ob, i32 1
  store float %x1, float* %o1
  %o2 = getelementptr float, float* %ob, i32 2
  store float %x2, float* %o2
  %o3 = getelementptr float, float* %ob, i32 3
  store float %x3, float* %o3
  %o4 = getelementptr float, float* %ob, i32 4
  store float %x4, float* %o4
  ret void
}
