; a while loop with a data-dependent trip count (bounded)
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %a0 = load i32, i32* %pa
  %a1 = and i32 %a0, 1023
  %a = add i32 %a1, 1
  br label %loop
loop:
  %x = phi i32 [ %a, %entry ], [ %x1, %next ]
  %n = phi i32 [ 0, %entry ], [ %n1, %next ]
  %one = icmp eq i32 %x, 1
  %lim = icmp uge i32 %n, 200
  %stop = or i1 %one, %lim
  br i1 %stop, label %exit, label %step
step:
  %odd = and i32 %x, 1
  %isodd = icmp ne i32 %odd, 0
  %t3 = mul i32 %x, 3
  %t31 = add i32 %t3, 1
  %h = lshr i32 %x, 1
  %x1 = select i1 %isodd, i32 %t31, i32 %h
  br label %next
next:
  %n1 = add i32 %n, 1
  br label %loop
exit:
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %n, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %a, i32* %o1
  ret void
}
