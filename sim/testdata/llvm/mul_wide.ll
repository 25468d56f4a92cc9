; widening multiplies (mul.wide.s32/u32) and high halves (mul.hi)
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i64*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 111
  %pb = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %pa
  %b = load i32, i32* %pb
  %base = mul i32 %tid, 8
  %ob = getelementptr i64, i64* %op, i32 %base
  %as = sext i32 %a to i64
  %bs = sext i32 %b to i64
  %az = zext i32 %a to i64
  %bz = zext i32 %b to i64
  %x0 = mul i64 %as, %bs
  %x1 = mul i64 %az, %bz
  %h = lshr i64 %x1, 32
  %x2 = mul i64 %as, 100000
  %lo = mul i64 %az, 3
  store i64 %x0, i64* %ob
  %o1 = getelementptr i64, i64* %ob, i32 1
  store i64 %x1, i64* %o1
  %o2 = getelementptr i64, i64* %ob, i32 2
  store i64 %h, i64* %o2
  %o3 = getelementptr i64, i64* %ob, i32 3
  store i64 %x2, i64* %o3
  %o4 = getelementptr i64, i64* %ob, i32 4
  store i64 %lo, i64* %o4
  ret void
}
