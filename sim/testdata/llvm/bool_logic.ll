; predicate logic: and/or/xor/not of comparisons, i1 arithmetic
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 2
  %pb = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %pa
  %b = load i32, i32* %pb
  %p = icmp sgt i32 %a, %b
  %q = icmp eq i32 %a, 0
  %r = icmp ult i32 %b, 100
  %pq = and i1 %p, %q
  %qr = or i1 %q, %r
  %x = xor i1 %p, %r
  %np = xor i1 %p, true
  %m = and i1 %np, %qr
  %cnt0 = zext i1 %p to i32
  %cnt1 = zext i1 %qr to i32
  %cnt2 = zext i1 %x to i32
  %cnt3 = zext i1 %m to i32
  %c01 = add i32 %cnt0, %cnt1
  %c23 = add i32 %cnt2, %cnt3
  %tot = add i32 %c01, %c23
  %sel = select i1 %pq, i32 %a, i32 %tot
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %tot, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %sel, i32* %o1
  ret void
}
