; and, or, xor, not, popcount, leading/trailing zeros, bit reverse, bswap
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.bswap.i32(i32)
declare i64 @llvm.ctpop.i64(i64)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 5
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %ia
  %b = load i32, i32* %ib
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %x0 = and i32 %a, %b
  %x1 = or i32 %a, %b
  %x2 = xor i32 %a, %b
  %x3 = xor i32 %a, -1
  %x4 = call i32 @llvm.ctpop.i32(i32 %a)
  %x5 = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %x6 = call i32 @llvm.cttz.i32(i32 %b, i1 false)
  %x7 = call i32 @llvm.bitreverse.i32(i32 %a)
  %x8 = call i32 @llvm.bswap.i32(i32 %b)
  %nb = xor i32 %b, -1
  %x9 = and i32 %a, %nb
  %ab = zext i32 %a to i64
  %bb = zext i32 %b to i64
  %bh = shl i64 %bb, 32
  %w = or i64 %ab, %bh
  %pc = call i64 @llvm.ctpop.i64(i64 %w)
  %x10 = trunc i64 %pc to i32
  store i32 %x0, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %x1, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %x2, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %x3, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  store i32 %x4, i32* %o4
  %o5 = getelementptr i32, i32* %ob, i32 5
  store i32 %x5, i32* %o5
  %o6 = getelementptr i32, i32* %ob, i32 6
  store i32 %x6, i32* %o6
  %o7 = getelementptr i32, i32* %ob, i32 7
  store i32 %x7, i32* %o7
  %o8 = getelementptr i32, i32* %ob, i32 8
  store i32 %x8, i32* %o8
  %o9 = getelementptr i32, i32* %ob, i32 9
  store i32 %x9, i32* %o9
  %o10 = getelementptr i32, i32* %ob, i32 10
  store i32 %x10, i32* %o10
  ret void
}
