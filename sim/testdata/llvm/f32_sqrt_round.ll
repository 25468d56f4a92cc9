; square root and rounding to integral values
declare float @llvm.sqrt.f32(float)
declare float @llvm.fabs.f32(float)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.rint.f32(float)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to float*
  %t1 = add i32 %tid, 256
  %pa = getelementptr float, float* %fp, i32 %t1
  %a = load float, float* %pa
  %base = mul i32 %tid, 16
  %ob = getelementptr float, float* %op, i32 %base
  %aa = call float @llvm.fabs.f32(float %a)
  %x0 = call float @llvm.sqrt.f32(float %aa)
  %x1 = call float @llvm.floor.f32(float %a)
  %x2 = call float @llvm.ceil.f32(float %a)
  %x3 = call float @llvm.trunc.f32(float %a)
  %x4 = call float @llvm.rint.f32(float %a)
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
