; double <-> 64-bit integer conversions, rounding of doubles
declare double @llvm.floor.f64(double)
declare double @llvm.rint.f64(double)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %dp = bitcast i8* %in to double*
  %lp = bitcast i8* %in to i64*
  %op = bitcast i8* %out to i64*
  %t1 = add i32 %tid, 300
  %pa = getelementptr double, double* %dp, i32 %t1
  %a = load double, double* %pa
  %pl = getelementptr i64, i64* %lp, i32 %tid
  %l = load i64, i64* %pl
  %base = mul i32 %tid, 8
  %ob = getelementptr i64, i64* %op, i32 %base
  %x0 = fptosi double %a to i64
  %x1 = sitofp i64 %l to double
  %x1b = bitcast double %x1 to i64
  %x2 = uitofp i64 %l to double
  %x2b = bitcast double %x2 to i64
  %fl = call double @llvm.floor.f64(double %a)
  %x3 = bitcast double %fl to i64
  %ri = call double @llvm.rint.f64(double %a)
  %x4 = bitcast double %ri to i64
  %ap = fmul double %a, %a
  %x5 = fptoui double %ap to i64
  store i64 %x0, i64* %ob
  %o1 = getelementptr i64, i64* %ob, i32 1
  store i64 %x1b, i64* %o1
  %o2 = getelementptr i64, i64* %ob, i32 2
  store i64 %x2b, i64* %o2
  %o3 = getelementptr i64, i64* %ob, i32 3
  store i64 %x3, i64* %o3
  %o4 = getelementptr i64, i64* %ob, i32 4
  store i64 %x4, i64* %o4
  %o5 = getelementptr i64, i64* %ob, i32 5
  store i64 %x5, i64* %o5
  ret void
}
