; ModuleID = 'cuda/complex_mul.cu'
source_filename = "cuda/complex_mul.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.cplx = type { float, float }

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @complex_mul(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca %struct.cplx, align 4
  %11 = alloca %struct.cplx, align 4
  %12 = alloca %struct.cplx, align 4
  %13 = alloca %struct.cplx, align 4
  %14 = alloca %struct.cplx, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store ptr %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %16 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %17 = mul nsw i32 %15, %16
  %18 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %19 = add nsw i32 %17, %18
  store i32 %19, ptr %9, align 4
  %20 = load i32, ptr %9, align 4
  %21 = load i32, ptr %8, align 4
  %22 = icmp slt i32 %20, %21
  br i1 %22, label %23, label %50

23:                                               ; preds = %4
  %24 = load ptr, ptr %7, align 8
  %25 = load i32, ptr %9, align 4
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds %struct.cplx, ptr %24, i64 %26
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %11, ptr align 4 %27, i64 8, i1 false)
  %28 = load ptr, ptr %5, align 8
  %29 = load i32, ptr %9, align 4
  %30 = sext i32 %29 to i64
  %31 = getelementptr inbounds %struct.cplx, ptr %28, i64 %30
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %13, ptr align 4 %31, i64 8, i1 false)
  %32 = load ptr, ptr %6, align 8
  %33 = load i32, ptr %9, align 4
  %34 = sext i32 %33 to i64
  %35 = getelementptr inbounds %struct.cplx, ptr %32, i64 %34
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %14, ptr align 4 %35, i64 8, i1 false)
  %36 = call %struct.cplx @_ZL4cmul4cplxS_(ptr noundef byval(%struct.cplx) align 4 %13, ptr noundef byval(%struct.cplx) align 4 %14) #4
  %37 = getelementptr inbounds %struct.cplx, ptr %12, i32 0, i32 0
  %38 = extractvalue %struct.cplx %36, 0
  store float %38, ptr %37, align 4
  %39 = getelementptr inbounds %struct.cplx, ptr %12, i32 0, i32 1
  %40 = extractvalue %struct.cplx %36, 1
  store float %40, ptr %39, align 4
  %41 = call %struct.cplx @_ZL4cadd4cplxS_(ptr noundef byval(%struct.cplx) align 4 %11, ptr noundef byval(%struct.cplx) align 4 %12) #4
  %42 = getelementptr inbounds %struct.cplx, ptr %10, i32 0, i32 0
  %43 = extractvalue %struct.cplx %41, 0
  store float %43, ptr %42, align 4
  %44 = getelementptr inbounds %struct.cplx, ptr %10, i32 0, i32 1
  %45 = extractvalue %struct.cplx %41, 1
  store float %45, ptr %44, align 4
  %46 = load ptr, ptr %7, align 8
  %47 = load i32, ptr %9, align 4
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds %struct.cplx, ptr %46, i64 %48
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %49, ptr align 4 %10, i64 8, i1 false)
  br label %50

50:                                               ; preds = %23, %4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.cplx @_ZL4cadd4cplxS_(ptr noundef byval(%struct.cplx) align 4 %0, ptr noundef byval(%struct.cplx) align 4 %1) #2 {
  %3 = alloca %struct.cplx, align 4
  %4 = getelementptr inbounds %struct.cplx, ptr %3, i32 0, i32 0
  %5 = getelementptr inbounds %struct.cplx, ptr %0, i32 0, i32 0
  %6 = load float, ptr %5, align 4
  %7 = getelementptr inbounds %struct.cplx, ptr %1, i32 0, i32 0
  %8 = load float, ptr %7, align 4
  %9 = fadd contract float %6, %8
  store float %9, ptr %4, align 4
  %10 = getelementptr inbounds %struct.cplx, ptr %3, i32 0, i32 1
  %11 = getelementptr inbounds %struct.cplx, ptr %0, i32 0, i32 1
  %12 = load float, ptr %11, align 4
  %13 = getelementptr inbounds %struct.cplx, ptr %1, i32 0, i32 1
  %14 = load float, ptr %13, align 4
  %15 = fadd contract float %12, %14
  store float %15, ptr %10, align 4
  %16 = load %struct.cplx, ptr %3, align 4
  ret %struct.cplx %16
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #3

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.cplx @_ZL4cmul4cplxS_(ptr noundef byval(%struct.cplx) align 4 %0, ptr noundef byval(%struct.cplx) align 4 %1) #2 {
  %3 = alloca %struct.cplx, align 4
  %4 = getelementptr inbounds %struct.cplx, ptr %0, i32 0, i32 0
  %5 = load float, ptr %4, align 4
  %6 = getelementptr inbounds %struct.cplx, ptr %1, i32 0, i32 0
  %7 = load float, ptr %6, align 4
  %8 = fmul contract float %5, %7
  %9 = getelementptr inbounds %struct.cplx, ptr %0, i32 0, i32 1
  %10 = load float, ptr %9, align 4
  %11 = getelementptr inbounds %struct.cplx, ptr %1, i32 0, i32 1
  %12 = load float, ptr %11, align 4
  %13 = fmul contract float %10, %12
  %14 = fsub contract float %8, %13
  %15 = getelementptr inbounds %struct.cplx, ptr %3, i32 0, i32 0
  store float %14, ptr %15, align 4
  %16 = getelementptr inbounds %struct.cplx, ptr %0, i32 0, i32 0
  %17 = load float, ptr %16, align 4
  %18 = getelementptr inbounds %struct.cplx, ptr %1, i32 0, i32 1
  %19 = load float, ptr %18, align 4
  %20 = fmul contract float %17, %19
  %21 = getelementptr inbounds %struct.cplx, ptr %0, i32 0, i32 1
  %22 = load float, ptr %21, align 4
  %23 = getelementptr inbounds %struct.cplx, ptr %1, i32 0, i32 0
  %24 = load float, ptr %23, align 4
  %25 = fmul contract float %22, %24
  %26 = fadd contract float %20, %25
  %27 = getelementptr inbounds %struct.cplx, ptr %3, i32 0, i32 1
  store float %26, ptr %27, align 4
  %28 = load %struct.cplx, ptr %3, align 4
  ret %struct.cplx %28
}

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress  nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { convergent nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @complex_mul, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
