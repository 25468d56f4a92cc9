; a float accumulation loop (order-sensitive) with a float select inside
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to float*
  %n0 = and i32 %tid, 15
  %n = add i32 %n0, 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %mx = phi float [ 0xC202A05F20000000, %entry ], [ %mx1, %loop ]
  %k = add i32 %i, 256
  %k2 = add i32 %k, %tid
  %p = getelementptr float, float* %fp, i32 %k2
  %v = load float, float* %p
  %w = fmul float %v, 0x3FF3333340000000
  %s1 = fadd float %s, %w
  %gt = fcmp ogt float %v, %mx
  %mx1 = select i1 %gt, float %v, float %mx
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %base = mul i32 %tid, 16
  %ob = getelementptr float, float* %op, i32 %base
  store float %s1, float* %ob
  %o1 = getelementptr float, float* %ob, i32 1
  store float %mx1, float* %o1
  ret void
}
