; add, sub, mul, the high half of a product, negation
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 64
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %ia
  %b = load i32, i32* %ib
  %base = mul i32 %tid, 16
  %s = add i32 %a, %b
  %d = sub i32 %a, %b
  %m = mul i32 %a, %b
  %a64 = sext i32 %a to i64
  %b64 = sext i32 %b to i64
  %p64 = mul i64 %a64, %b64
  %hi64 = lshr i64 %p64, 32
  %hi = trunc i64 %hi64 to i32
  %n = sub i32 0, %a
  %o0 = getelementptr i32, i32* %op, i32 %base
  store i32 %s, i32* %o0
  %b1 = add i32 %base, 1
  %o1 = getelementptr i32, i32* %op, i32 %b1
  store i32 %d, i32* %o1
  %b2 = add i32 %base, 2
  %o2 = getelementptr i32, i32* %op, i32 %b2
  store i32 %m, i32* %o2
  %b3 = add i32 %base, 3
  %o3 = getelementptr i32, i32* %op, i32 %b3
  store i32 %hi, i32* %o3
  %b4 = add i32 %base, 4
  %o4 = getelementptr i32, i32* %op, i32 %b4
  store i32 %n, i32* %o4
  ret void
}
