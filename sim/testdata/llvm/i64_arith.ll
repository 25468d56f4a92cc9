; 64-bit add, sub, mul, compare and select
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i64*
  %op = bitcast i8* %out to i64*
  %ia = getelementptr i64, i64* %ip, i32 %tid
  %t2 = add i32 %tid, 50
  %ib = getelementptr i64, i64* %ip, i32 %t2
  %a = load i64, i64* %ia
  %b = load i64, i64* %ib
  %base = mul i32 %tid, 8
  %ob = getelementptr i64, i64* %op, i32 %base
  %x0 = add i64 %a, %b
  %x1 = sub i64 %a, %b
  %x2 = mul i64 %a, %b
  %x3 = mul i64 %a, 6364136223846793005
  %x4 = add i64 %x3, 1442695040888963407
  %c = icmp slt i64 %a, %b
  %x5 = select i1 %c, i64 %a, i64 %b
  %cu = icmp ugt i64 %a, %b
  %x6 = select i1 %cu, i64 %x0, i64 %x1
  store i64 %x0, i64* %ob
  %o1 = getelementptr i64, i64* %ob, i32 1
  store i64 %x1, i64* %o1
  %o2 = getelementptr i64, i64* %ob, i32 2
  store i64 %x2, i64* %o2
  %o3 = getelementptr i64, i64* %ob, i32 3
  store i64 %x4, i64* %o3
  %o4 = getelementptr i64, i64* %ob, i32 4
  store i64 %x5, i64* %o4
  %o5 = getelementptr i64, i64* %ob, i32 5
  store i64 %x6, i64* %o5
  ret void
}
