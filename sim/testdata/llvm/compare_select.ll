; integer comparisons of every predicate, zext of i1, select
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 1
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %ia
  %b = load i32, i32* %ib
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %c0 = icmp eq i32 %a, %b
  %c1 = icmp ne i32 %a, 0
  %c2 = icmp slt i32 %a, %b
  %c3 = icmp sle i32 %a, -3
  %c4 = icmp ugt i32 %a, %b
  %c5 = icmp uge i32 %a, 1000
  %c6 = icmp sgt i32 %b, 0
  %c7 = icmp ult i32 %b, 256
  %z0 = zext i1 %c0 to i32
  %z1 = zext i1 %c1 to i32
  %z2 = sext i1 %c2 to i32
  %z3 = zext i1 %c3 to i32
  %s4 = select i1 %c4, i32 %a, i32 %b
  %s5 = select i1 %c5, i32 17, i32 %a
  %both = and i1 %c6, %c7
  %s6 = select i1 %both, i32 %b, i32 -1
  %either = or i1 %c2, %c5
  %x = xor i1 %either, %c0
  %s7 = select i1 %x, i32 5, i32 9
  store i32 %z0, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %z1, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %z2, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %z3, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  store i32 %s4, i32* %o4
  %o5 = getelementptr i32, i32* %ob, i32 5
  store i32 %s5, i32* %o5
  %o6 = getelementptr i32, i32* %ob, i32 6
  store i32 %s6, i32* %o6
  %o7 = getelementptr i32, i32* %ob, i32 7
  store i32 %s7, i32* %o7
  ret void
}
