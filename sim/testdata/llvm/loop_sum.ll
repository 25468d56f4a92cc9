; a loop whose trip count depends on the thread: sum and xor of a window
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %n = urem i32 %tid, 17
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %x = phi i32 [ 0, %entry ], [ %x1, %body ]
  %c = icmp ult i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %k = add i32 %i, %tid
  %p = getelementptr i32, i32* %ip, i32 %k
  %v = load i32, i32* %p
  %s1 = add i32 %s, %v
  %r = shl i32 %x, 1
  %x1 = xor i32 %r, %v
  %i1 = add i32 %i, 1
  br label %loop
exit:
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %s, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %x, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %i, i32* %o2
  ret void
}
