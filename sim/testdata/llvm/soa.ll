; struct-of-arrays indexing: x[], y[], z[] float arrays and an int array
define void @body(i32 %tid, i8* %in, i8* %out) {
  %fp = bitcast i8* %in to float*
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to float*
  %xs = getelementptr float, float* %fp, i32 256
  %ys = getelementptr float, float* %fp, i32 320
  %zs = getelementptr float, float* %fp, i32 384
  %px = getelementptr float, float* %xs, i32 %tid
  %py = getelementptr float, float* %ys, i32 %tid
  %pz = getelementptr float, float* %zs, i32 %tid
  %x = load float, float* %px
  %y = load float, float* %py
  %z = load float, float* %pz
  %pi = getelementptr i32, i32* %ip, i32 %tid
  %i0 = load i32, i32* %pi
  %j = and i32 %i0, 63
  %pxj = getelementptr float, float* %xs, i32 %j
  %xj = load float, float* %pxj
  %pyj = getelementptr float, float* %ys, i32 %j
  %yj = load float, float* %pyj
  %dx = fsub float %x, %xj
  %dy = fsub float %y, %yj
  %dx2 = fmul float %dx, %dx
  %dy2 = fmul float %dy, %dy
  %d2 = fadd float %dx2, %dy2
  %dot0 = fmul float %x, %y
  %dot1 = fmul float %y, %z
  %dot = fadd float %dot0, %dot1
  %base = mul i32 %tid, 16
  %ob = getelementptr float, float* %op, i32 %base
  store float %d2, float* %ob
  %o1 = getelementptr float, float* %ob, i32 1
  store float %dot, float* %o1
  %o2 = getelementptr float, float* %ob, i32 2
  store float %xj, float* %o2
  ret void
}
