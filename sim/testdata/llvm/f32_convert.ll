; int <-> float conversions, float <-> double
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %fp = bitcast i8* %in to float*
  %dp = bitcast i8* %in to double*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %i = load i32, i32* %ia
  %t1 = add i32 %tid, 256
  %pa = getelementptr float, float* %fp, i32 %t1
  %f = load float, float* %pa
  %t2 = add i32 %tid, 256
  %pd = getelementptr double, double* %dp, i32 %t2
  %d = load double, double* %pd
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %x0 = sitofp i32 %i to float
  %x1 = uitofp i32 %i to float
  %x2 = fptosi float %f to i32
  %x3 = fpext float %f to double
  %x4 = fptrunc double %d to float
  %x5 = sitofp i32 %i to double
  %fa = fmul float %f, 3.5
  %x6 = fptosi float %fa to i16
  %x6w = sext i16 %x6 to i32
  %o0 = bitcast i32* %ob to float*
  store float %x0, float* %o0
  %o1 = getelementptr i32, i32* %ob, i32 1
  %o1f = bitcast i32* %o1 to float*
  store float %x1, float* %o1f
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %x2, i32* %o2
  %o4 = getelementptr i32, i32* %ob, i32 4
  %o4d = bitcast i32* %o4 to double*
  store double %x3, double* %o4d
  %o6 = getelementptr i32, i32* %ob, i32 6
  %o6f = bitcast i32* %o6 to float*
  store float %x4, float* %o6f
  %o8 = getelementptr i32, i32* %ob, i32 8
  %o8d = bitcast i32* %o8 to double*
  store double %x5, double* %o8d
  %o10 = getelementptr i32, i32* %ob, i32 10
  store i32 %x6w, i32* %o10
  ret void
}
