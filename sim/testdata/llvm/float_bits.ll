; bit manipulation of float representations (exponent/mantissa fields)
define void @body(i32 %tid, i8* %in, i8* %out) {
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to i32*
  %t1 = add i32 %tid, 256
  %pa = getelementptr float, float* %fp, i32 %t1
  %a = load float, float* %pa
  %ai = bitcast float %a to i32
  %e0 = lshr i32 %ai, 23
  %e = and i32 %e0, 255
  %m = and i32 %ai, 8388607
  %s = lshr i32 %ai, 31
  %one = or i32 %m, 1065353216
  %mf = bitcast i32 %one to float
  %mf2 = fmul float %mf, %mf
  %mb = bitcast float %mf2 to i32
  %flip = xor i32 %ai, -2147483648
  %ff = bitcast i32 %flip to float
  %sum = fadd float %ff, %a
  %sb = bitcast float %sum to i32
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %e, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %m, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %s, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %mb, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  store i32 %sb, i32* %o4
  ret void
}
