; indirect (gathered) loads and scattered stores
define void @body(i32 %tid, i8* %in, i8* %out) {
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %a = load i32, i32* %pa
  %i1 = and i32 %a, 255
  %pb = getelementptr i32, i32* %ip, i32 %i1
  %b = load i32, i32* %pb
  %i2 = lshr i32 %b, 24
  %pc = getelementptr i32, i32* %ip, i32 %i2
  %c = load i32, i32* %pc
  %base = mul i32 %tid, 16
  %slot = and i32 %a, 15
  %w = add i32 %base, %slot
  %pw = getelementptr i32, i32* %op, i32 %w
  store i32 %c, i32* %pw
  %ob = getelementptr i32, i32* %op, i32 %base
  %sum = add i32 %b, %c
  %cur = load i32, i32* %ob
  %nw = add i32 %cur, %sum
  store i32 %nw, i32* %ob
  ret void
}
