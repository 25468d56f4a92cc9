; a switch on thread-dependent values
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %a = load i32, i32* %pa
  %k = urem i32 %tid, 7
  switch i32 %k, label %dflt [ i32 0, label %c0
                               i32 1, label %c1
                               i32 2, label %c2
                               i32 3, label %c3
                               i32 5, label %c5 ]
c0:
  %r0 = add i32 %a, 100
  br label %join
c1:
  %r1 = mul i32 %a, 3
  br label %join
c2:
  %r2 = xor i32 %a, 255
  br label %join
c3:
  %r3 = lshr i32 %a, 4
  br label %join
c5:
  %r5 = sub i32 7, %a
  br label %join
dflt:
  %rd = or i32 %a, 1024
  br label %join
join:
  %r = phi i32 [ %r0, %c0 ], [ %r1, %c1 ], [ %r2, %c2 ], [ %r3, %c3 ], [ %r5, %c5 ], [ %rd, %dflt ]
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %r, i32* %ob
  ret void
}
