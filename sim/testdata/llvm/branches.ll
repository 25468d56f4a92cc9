; an if/else-if chain with divergent conditions and a join
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %ip = bitcast i8* %in to i32*
  %op = bitcast i8* %out to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %a = load i32, i32* %pa
  %c0 = icmp slt i32 %a, 0
  br i1 %c0, label %neg, label %nonneg
neg:
  %n1 = sub i32 0, %a
  %n2 = lshr i32 %n1, 3
  br label %join
nonneg:
  %c1 = icmp ult i32 %a, 1000
  br i1 %c1, label %small, label %large
small:
  %s1 = mul i32 %a, %a
  br label %join
large:
  %odd = and i32 %a, 1
  %c2 = icmp eq i32 %odd, 0
  br i1 %c2, label %even, label %join
even:
  %e1 = lshr i32 %a, 1
  br label %join
join:
  %r = phi i32 [ %n2, %neg ], [ %s1, %small ], [ %a, %large ], [ %e1, %even ]
  %w = phi i32 [ 1, %neg ], [ 2, %small ], [ 3, %large ], [ 4, %even ]
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  store i32 %r, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %w, i32* %o1
  ret void
}
