; loads and stores of 1, 2, 4 and 8 bytes at computed offsets
define void @body(i32 %tid, i8* %in, i8* %out) {
  %base = mul i32 %tid, 64
  %ob = getelementptr i8, i8* %out, i32 %base
  %q = mul i32 %tid, 8
  %p64 = getelementptr i8, i8* %in, i32 %q
  %p64c = bitcast i8* %p64 to i64*
  %v64 = load i64, i64* %p64c
  %p32 = bitcast i8* %p64 to i32*
  %v32 = load i32, i32* %p32
  %p16 = getelementptr i8, i8* %p64, i32 6
  %p16c = bitcast i8* %p16 to i16*
  %v16 = load i16, i16* %p16c
  %p8 = getelementptr i8, i8* %p64, i32 3
  %v8 = load i8, i8* %p8
  %o8 = bitcast i8* %ob to i64*
  store i64 %v64, i64* %o8
  %oa = getelementptr i8, i8* %ob, i32 8
  %oa4 = bitcast i8* %oa to i32*
  store i32 %v32, i32* %oa4
  %ob2 = getelementptr i8, i8* %ob, i32 12
  %ob22 = bitcast i8* %ob2 to i16*
  store i16 %v16, i16* %ob22
  %oc = getelementptr i8, i8* %ob, i32 14
  store i8 %v8, i8* %oc
  %od = getelementptr i8, i8* %ob, i32 15
  %v8b = add i8 %v8, 7
  store i8 %v8b, i8* %od
  %sh = lshr i64 %v64, 13
  %oe = getelementptr i8, i8* %ob, i32 16
  %oe8 = bitcast i8* %oe to i64*
  store i64 %sh, i64* %oe8
  ret void
}
