; nested loops with a data-dependent inner bound and an early exit
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %m = and i32 %tid, 7
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  %acc = phi i32 [ 1, %entry ], [ %acc2, %olatch ]
  %ci = icmp ult i32 %i, 6
  br i1 %ci, label %ohead, label %exit
ohead:
  %pi = getelementptr i32, i32* %ip, i32 %i
  %lim0 = load i32, i32* %pi
  %lim1 = and i32 %lim0, 3
  %lim = add i32 %lim1, %m
  br label %inner
inner:
  %j = phi i32 [ 0, %ohead ], [ %j1, %ibody ]
  %a = phi i32 [ %acc, %ohead ], [ %a1, %ibody ]
  %cj = icmp ult i32 %j, %lim
  br i1 %cj, label %ibody, label %olatch
ibody:
  %k = mul i32 %i, 8
  %k2 = add i32 %k, %j
  %pk = getelementptr i32, i32* %ip, i32 %k2
  %v = load i32, i32* %pk
  %t = mul i32 %a, 31
  %a1 = add i32 %t, %v
  %j1 = add i32 %j, 1
  %big = icmp ugt i32 %a1, 4000000000
  br i1 %big, label %early, label %inner
olatch:
  %acc2 = xor i32 %a, %i
  %i1 = add i32 %i, 1
  br label %outer
early:
  %base0 = mul i32 %tid, 16
  %ob0 = getelementptr i32, i32* %op, i32 %base0
  store i32 %a1, i32* %ob0
  %oe = getelementptr i32, i32* %ob0, i32 1
  store i32 %i, i32* %oe
  ret void
exit:
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %acc, i32* %ob
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 -1, i32* %o2
  ret void
}
