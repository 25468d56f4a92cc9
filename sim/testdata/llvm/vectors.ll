; vector loads and stores (ld.v4, ld.v2, st.v4, st.v2) and lane arithmetic
define void @body(i32 %tid, i8* %in, i8* %out) {
  %vp = bitcast i8* %in to <4 x i32>*
  %k = and i32 %tid, 63
  %pa = getelementptr <4 x i32>, <4 x i32>* %vp, i32 %k
  %a = load <4 x i32>, <4 x i32>* %pa, align 16
  %k2 = add i32 %k, 3
  %pb = getelementptr <4 x i32>, <4 x i32>* %vp, i32 %k2
  %b = load <4 x i32>, <4 x i32>* %pb, align 16
  %s = add <4 x i32> %a, %b
  %x = xor <4 x i32> %a, <i32 1, i32 2, i32 3, i32 4>
  %ov = bitcast i8* %out to <4 x i32>*
  %t4 = mul i32 %tid, 4
  %po = getelementptr <4 x i32>, <4 x i32>* %ov, i32 %t4
  store <4 x i32> %s, <4 x i32>* %po, align 16
  %t41 = add i32 %t4, 1
  %po1 = getelementptr <4 x i32>, <4 x i32>* %ov, i32 %t41
  store <4 x i32> %x, <4 x i32>* %po1, align 16
  %fv = bitcast i8* %in to <2 x float>*
  %k3 = add i32 %k, 128
  %pf = getelementptr <2 x float>, <2 x float>* %fv, i32 %k3
  %f = load <2 x float>, <2 x float>* %pf, align 8
  %f2 = fmul <2 x float> %f, <float 2.0, float -0.5>
  %t42 = add i32 %t4, 2
  %po2 = getelementptr <4 x i32>, <4 x i32>* %ov, i32 %t42
  %po2f = bitcast <4 x i32>* %po2 to <2 x float>*
  store <2 x float> %f2, <2 x float>* %po2f, align 8
  ret void
}
