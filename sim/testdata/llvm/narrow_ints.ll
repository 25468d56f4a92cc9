; i8 and i16 loads, sign/zero extension, wrapping arithmetic, narrow stores
define void @body(i32 %tid, i8* %in, i8* %out) {
  %p8 = getelementptr i8, i8* %in, i32 %tid
  %t2 = mul i32 %tid, 3
  %p8b = getelementptr i8, i8* %in, i32 %t2
  %a = load i8, i8* %p8
  %b = load i8, i8* %p8b
  %hp = bitcast i8* %in to i16*
  %t3 = add i32 %tid, 200
  %ph = getelementptr i16, i16* %hp, i32 %t3
  %h = load i16, i16* %ph
  %base = mul i32 %tid, 64
  %ob = getelementptr i8, i8* %out, i32 %base
  %s8 = add i8 %a, %b
  %m8 = mul i8 %a, %b
  %as = sext i8 %a to i32
  %az = zext i8 %a to i32
  %hs = sext i16 %h to i32
  %hz = zext i16 %h to i32
  %h2 = mul i16 %h, %h
  %h3 = lshr i16 %h, 3
  %h4 = ashr i16 %h, 5
  store i8 %s8, i8* %ob
  %o1 = getelementptr i8, i8* %ob, i32 1
  store i8 %m8, i8* %o1
  %o2 = getelementptr i8, i8* %ob, i32 2
  %o2h = bitcast i8* %o2 to i16*
  store i16 %h2, i16* %o2h
  %o4 = getelementptr i8, i8* %ob, i32 4
  %o4w = bitcast i8* %o4 to i32*
  store i32 %as, i32* %o4w
  %o8 = getelementptr i8, i8* %ob, i32 8
  %o8w = bitcast i8* %o8 to i32*
  store i32 %az, i32* %o8w
  %o12 = getelementptr i8, i8* %ob, i32 12
  %o12w = bitcast i8* %o12 to i32*
  store i32 %hs, i32* %o12w
  %o16 = getelementptr i8, i8* %ob, i32 16
  %o16w = bitcast i8* %o16 to i32*
  store i32 %hz, i32* %o16w
  %o20 = getelementptr i8, i8* %ob, i32 20
  %o20h = bitcast i8* %o20 to i16*
  store i16 %h3, i16* %o20h
  %o22 = getelementptr i8, i8* %ob, i32 22
  %o22h = bitcast i8* %o22 to i16*
  store i16 %h4, i16* %o22h
  ret void
}
