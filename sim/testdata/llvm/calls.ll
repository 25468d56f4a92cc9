; calls of non-inlined device functions with scalar and pointer arguments
define internal i32 @mix(i32 %a, i32 %b) noinline {
  %x = mul i32 %a, 2654435761
  %y = xor i32 %x, %b
  %z = lshr i32 %y, 7
  %r = add i32 %y, %z
  ret i32 %r
}

define internal float @poly(float %x) noinline {
  %x2 = fmul float %x, %x
  %t = fmul float %x2, 0.25
  %u = fadd float %t, %x
  %v = fsub float %u, 1.0
  ret float %v
}

define internal void @put(i32* %p, i32 %v) noinline {
  store i32 %v, i32* %p
  ret void
}

define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %a = load i32, i32* %pa
  %m1 = call i32 @mix(i32 %a, i32 %tid)
  %m2 = call i32 @mix(i32 %m1, i32 17)
  %t1 = add i32 %tid, 256
  %pf = getelementptr float, float* %fp, i32 %t1
  %f = load float, float* %pf
  %g = call float @poly(float %f)
  %gb = bitcast float %g to i32
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  call void @put(i32* %ob, i32 %m1)
  %o1 = getelementptr i32, i32* %ob, i32 1
  call void @put(i32* %o1, i32 %m2)
  %o2 = getelementptr i32, i32* %ob, i32 2
  call void @put(i32* %o2, i32 %gb)
  ret void
}
