; Newton iterations for a square root in double precision
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %dp = bitcast i8* %in to double*
  %op = bitcast i8* %out to double*
  %t1 = add i32 %tid, 256
  %pa = getelementptr double, double* %dp, i32 %t1
  %a0 = load double, double* %pa
  %neg = fcmp olt double %a0, 0.0
  %na = fneg double %a0
  %a1 = select i1 %neg, double %na, double %a0
  %a = fadd double %a1, 1.0
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %x = phi double [ %a, %entry ], [ %x1, %loop ]
  %q = fdiv double %a, %x
  %s = fadd double %x, %q
  %x1 = fmul double %s, 0.5
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 12
  br i1 %c, label %loop, label %exit
exit:
  %base = mul i32 %tid, 8
  %ob = getelementptr double, double* %op, i32 %base
  store double %x1, double* %ob
  %o1 = getelementptr double, double* %ob, i32 1
  store double %a, double* %o1
  ret void
}
