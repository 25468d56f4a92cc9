; double add, sub, mul, div, fma, sqrt, min/max
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fabs.f64(double)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %dp = bitcast i8* %in to double*
  %op = bitcast i8* %out to double*
  %t1 = add i32 %tid, 256
  %pa = getelementptr double, double* %dp, i32 %t1
  %t2 = add i32 %tid, 320
  %pb = getelementptr double, double* %dp, i32 %t2
  %t3 = add i32 %tid, 400
  %pc = getelementptr double, double* %dp, i32 %t3
  %a = load double, double* %pa
  %b = load double, double* %pb
  %c = load double, double* %pc
  %base = mul i32 %tid, 8
  %ob = getelementptr double, double* %op, i32 %base
  %x0 = fadd double %a, %b
  %x1 = fmul double %a, %b
  %ab = call double @llvm.fabs.f64(double %b)
  %den = fadd double %ab, 0.25
  %x2 = fdiv double %a, %den
  %x3 = call double @llvm.fma.f64(double %a, double %b, double %c)
  %ac = call double @llvm.fabs.f64(double %c)
  %x4 = call double @llvm.sqrt.f64(double %ac)
  %x5 = call double @llvm.minnum.f64(double %a, double %b)
  %x6 = call double @llvm.maxnum.f64(double %a, double %c)
  %x7 = fsub double %x0, %c
  store double %x0, double* %ob
  %o1 = getelementptr double, double* %ob, i32 1
  store double %x1, double* %o1
  %o2 = getelementptr double, double* %ob, i32 2
  store double %x2, double* %o2
  %o3 = getelementptr double, double* %ob, i32 3
  store double %x3, double* %o3
  %o4 = getelementptr double, double* %ob, i32 4
  store double %x4, double* %o4
  %o5 = getelementptr double, double* %ob, i32 5
  store double %x5, double* %o5
  %o6 = getelementptr double, double* %ob, i32 6
  store double %x6, double* %o6
  %o7 = getelementptr double, double* %ob, i32 7
  store double %x7, double* %o7
  ret void
}
