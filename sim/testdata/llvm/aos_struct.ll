; array-of-structs access with struct GEPs and mixed field widths
%rec = type { i32, float, i16, i8, double }

define void @body(i32 %tid, i8* %in, i8* %out) {
  %rp = bitcast i8* %in to %rec*
  %k = and i32 %tid, 31
  %f0 = getelementptr %rec, %rec* %rp, i32 %k, i32 0
  %f1 = getelementptr %rec, %rec* %rp, i32 %k, i32 1
  %f2 = getelementptr %rec, %rec* %rp, i32 %k, i32 2
  %f3 = getelementptr %rec, %rec* %rp, i32 %k, i32 3
  %a = load i32, i32* %f0
  %b = load float, float* %f1
  %c = load i16, i16* %f2
  %d = load i8, i8* %f3
  %orp = bitcast i8* %out to %rec*
  %t2 = mul i32 %tid, 2
  %g0 = getelementptr %rec, %rec* %orp, i32 %t2, i32 0
  %g1 = getelementptr %rec, %rec* %orp, i32 %t2, i32 1
  %g2 = getelementptr %rec, %rec* %orp, i32 %t2, i32 2
  %g3 = getelementptr %rec, %rec* %orp, i32 %t2, i32 3
  %g4 = getelementptr %rec, %rec* %orp, i32 %t2, i32 4
  %cz = sext i16 %c to i32
  %s = add i32 %a, %cz
  store i32 %s, i32* %g0
  %bf = sitofp i8 %d to float
  %bb = fadd float %bf, 0.5
  store float %bb, float* %g1
  %c2 = add i16 %c, 1
  store i16 %c2, i16* %g2
  %d2 = xor i8 %d, 85
  store i8 %d2, i8* %g3
  %bx = fpext float %bb to double
  store double %bx, double* %g4
  ret void
}
