; rotates and funnel shifts
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)

define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %ia = getelementptr i32, i32* %ip, i32 %tid
  %t2 = add i32 %tid, 31
  %ib = getelementptr i32, i32* %ip, i32 %t2
  %t3 = add i32 %tid, 90
  %ic = getelementptr i32, i32* %ip, i32 %t3
  %a = load i32, i32* %ia
  %b = load i32, i32* %ib
  %c = load i32, i32* %ic
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %x0 = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 %c)
  %x1 = call i32 @llvm.fshr.i32(i32 %a, i32 %b, i32 %c)
  %x2 = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %c)
  %x3 = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 11)
  %x4 = call i32 @llvm.fshr.i32(i32 %b, i32 %b, i32 3)
  store i32 %x0, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %x1, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %x2, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %x3, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  store i32 %x4, i32* %o4
  ret void
}
