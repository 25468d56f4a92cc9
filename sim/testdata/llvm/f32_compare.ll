; float comparisons (ordered and unordered) feeding selects and branches
define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %fp = bitcast i8* %in to float*
  %op = bitcast i8* %out to i32*
  %t1 = add i32 %tid, 256
  %pa = getelementptr float, float* %fp, i32 %t1
  %t2 = add i32 %tid, 257
  %pb = getelementptr float, float* %fp, i32 %t2
  %a = load float, float* %pa
  %b = load float, float* %pb
  %base = mul i32 %tid, 16
  %ob = getelementptr i32, i32* %op, i32 %base
  %c0 = fcmp olt float %a, %b
  %c1 = fcmp oge float %a, 0.0
  %c2 = fcmp une float %a, %b
  %c3 = fcmp ueq float %a, 5.0
  %c4 = fcmp ogt float %a, %b
  %z0 = zext i1 %c0 to i32
  %z1 = zext i1 %c1 to i32
  %z2 = zext i1 %c2 to i32
  %z3 = zext i1 %c3 to i32
  store i32 %z0, i32* %ob
  %o1 = getelementptr i32, i32* %ob, i32 1
  store i32 %z1, i32* %o1
  %o2 = getelementptr i32, i32* %ob, i32 2
  store i32 %z2, i32* %o2
  %o3 = getelementptr i32, i32* %ob, i32 3
  store i32 %z3, i32* %o3
  %o4 = getelementptr i32, i32* %ob, i32 4
  %o4f = bitcast i32* %o4 to float*
  br i1 %c4, label %then, label %else
then:
  %d = fsub float %a, %b
  store float %d, float* %o4f
  br label %done
else:
  %e = fmul float %a, 2.0
  store float %e, float* %o4f
  br label %done
done:
  ret void
}
