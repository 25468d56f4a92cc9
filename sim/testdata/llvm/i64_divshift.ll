; 64-bit shifts by variable amounts, division by constants, rotates
declare i64 @llvm.fshl.i64(i64, i64, i64)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %lp = bitcast i8* %in to i64*
  %op = bitcast i8* %out to i64*
  %pa = getelementptr i64, i64* %lp, i32 %tid
  %a = load i64, i64* %pa
  %t2 = add i32 %tid, 33
  %pb = getelementptr i64, i64* %lp, i32 %t2
  %b = load i64, i64* %pb
  %s = and i64 %b, 63
  %x0 = udiv i64 %a, 1000000007
  %x1 = sdiv i64 %a, -3
  %x2 = urem i64 %a, 60
  %x3 = call i64 @llvm.fshl.i64(i64 %a, i64 %a, i64 %s)
  %x4 = ashr i64 %a, %s
  %base = mul i32 %tid, 8
  %ob = getelementptr i64, i64* %op, i32 %base
  store i64 %x0, i64* %ob
  %o1 = getelementptr i64, i64* %ob, i32 1
  store i64 %x1, i64* %o1
  %o2 = getelementptr i64, i64* %ob, i32 2
  store i64 %x2, i64* %o2
  %o3 = getelementptr i64, i64* %ob, i32 3
  store i64 %x3, i64* %o3
  %o4 = getelementptr i64, i64* %ob, i32 4
  store i64 %x4, i64* %o4
  ret void
}
