; float add, sub, mul, div (divisor bounded away from zero), negation
declare float @llvm.fabs.f32(float)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to float*
  %t1 = add i32 %tid, 256
  %pa = getelementptr float, float* %fp, i32 %t1
  %t2 = add i32 %tid, 333
  %pb = getelementptr float, float* %fp, i32 %t2
  %a = load float, float* %pa
  %b = load float, float* %pb
  %base = mul i32 %tid, 16
  %ob = getelementptr float, float* %op, i32 %base
  %x0 = fadd float %a, %b
  %x1 = fsub float %a, %b
  %x2 = fmul float %a, %b
  %ab = call float @llvm.fabs.f32(float %b)
  %den = fadd float %ab, 1.0
  %x3 = fdiv float %a, %den
  %x4 = fneg float %a
  %x5 = fmul float %a, 0x3FB99999A0000000
  %x6 = fdiv float 1.0, %den
  store float %x0, float* %ob
  %o1 = getelementptr float, float* %ob, i32 1
  store float %x1, float* %o1
  %o2 = getelementptr float, float* %ob, i32 2
  store float %x2, float* %o2
  %o3 = getelementptr float, float* %ob, i32 3
  store float %x3, float* %o3
  %o4 = getelementptr float, float* %ob, i32 4
  store float %x4, float* %o4
  %o5 = getelementptr float, float* %ob, i32 5
  store float %x5, float* %o5
  %o6 = getelementptr float, float* %ob, i32 6
  store float %x6, float* %o6
  ret void
}
