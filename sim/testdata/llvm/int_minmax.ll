; signed/unsigned min and max, absolute value, saturating add
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 9
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %a = load i32, i32* %ia
  %b = load i32, i32* %ib
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %x0 = call i32 @llvm.smin.i32(i32 %a, i32 %b)
  %x1 = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %x2 = call i32 @llvm.umin.i32(i32 %a, i32 %b)
  %x3 = call i32 @llvm.umax.i32(i32 %a, i32 %b)
  %x4 = call i32 @llvm.abs.i32(i32 %a, i1 false)
  %x5 = call i32 @llvm.sadd.sat.i32(i32 %a, i32 %b)
  %x6 = call i32 @llvm.usub.sat.i32(i32 %a, i32 %b)
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
  ret void
}
