; shifts by variable and constant amounts, 32 and 64 bits
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 13
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %ia
  %b0 = load i32, i32* %ib
  %s = and i32 %b0, 31
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %x1 = shl i32 %a, %s
  %x2 = lshr i32 %a, %s
  %x3 = ashr i32 %a, %s
  %x4 = shl i32 %a, 7
  %x5 = ashr i32 %a, 29
  %a64 = sext i32 %a to i64
  %s64 = zext i32 %b0 to i64
  %s64m = and i64 %s64, 63
  %y1 = shl i64 %a64, %s64m
  %y2 = lshr i64 %a64, %s64m
  %y3 = ashr i64 %a64, %s64m
  store i32 %x1, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %x2, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %x3, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %x4, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  store i32 %x5, i32* %o4
  %o6 = getelementptr i32, i32* %ob, i32 6
  %p6 = bitcast i32* %o6 to i64*
  store i64 %y1, i64* %p6
  %o8 = getelementptr i32, i32* %ob, i32 8
  %p8 = bitcast i32* %o8 to i64*
  store i64 %y2, i64* %p8
  %o10 = getelementptr i32, i32* %ob, i32 10
  %p10 = bitcast i32* %o10 to i64*
  store i64 %y3, i64* %p10
  ret void
}
