; signed division and remainder (no INT_MIN / -1, no zero divisors)
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 77
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a0 = load i32, i32* %ia
  %a = ashr i32 %a0, 1
  %b0 = load i32, i32* %ib
  %bs = ashr i32 %b0, 19
  %b = or i32 %bs, 1
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %q = sdiv i32 %a, %b
  %r = srem i32 %a, %b
  %q5 = sdiv i32 %a, -5
  %r3 = srem i32 %a, 3
  %q8 = sdiv i32 %a, 8
  %a64 = sext i32 %a to i64
  %b64 = sext i32 %b to i64
  %x = mul i64 %a64, -77
  %q64 = sdiv i64 %x, %b64
  %r64 = srem i64 %x, %b64
  %q64t = trunc i64 %q64 to i32
  %r64t = trunc i64 %r64 to i32
  store i32 %q, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %r, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %q5, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %r3, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  store i32 %q8, i32* %o4
  %o5 = getelementptr i32, i32* %ob, i32 5
  store i32 %q64t, i32* %o5
  %o6 = getelementptr i32, i32* %ob, i32 6
  store i32 %r64t, i32* %o6
  ret void
}
