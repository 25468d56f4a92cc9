; unsigned division and remainder by nonzero divisors, 32 and 64 bits
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 100
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %ia
  %b0 = load i32, i32* %ib
  %bm = and i32 %b0, 4095
  %b = or i32 %bm, 1
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %q = udiv i32 %a, %b
  %r = urem i32 %a, %b
  %q7 = udiv i32 %a, 7
  %r10 = urem i32 %a, 10
  %a64 = zext i32 %a to i64
  %x64 = mul i64 %a64, 1000003
  %b64 = zext i32 %b to i64
  %q64 = udiv i64 %x64, %b64
  %r64 = urem i64 %x64, %b64
  store i32 %q, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %r, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %q7, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %r10, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  %o4l = bitcast i32* %o4 to i64*
  store i64 %q64, i64* %o4l
  %o6 = getelementptr i32, i32* %ob, i32 6
  %o6l = bitcast i32* %o6 to i64*
  store i64 %r64, i64* %o6l
  ret void
}
