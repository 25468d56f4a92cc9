; ModuleID = 'cuda/running_stats.cu'
source_filename = "cuda/running_stats.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Stats = type { i32, float, float }

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @running_stats(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca %struct.Stats, align 4
  %11 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store ptr %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %12 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %13 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %14 = mul nsw i32 %12, %13
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %16 = add nsw i32 %14, %15
  store i32 %16, ptr %9, align 4
  call void @llvm.memset.p0.i64(ptr align 4 %10, i8 0, i64 12, i1 false)
  store i32 0, ptr %11, align 4
  br label %17

17:                                               ; preds = %31, %4
  %18 = load i32, ptr %11, align 4
  %19 = load i32, ptr %8, align 4
  %20 = and i32 %19, 15
  %21 = icmp slt i32 %18, %20
  br i1 %21, label %22, label %34

22:                                               ; preds = %17
  %23 = load ptr, ptr %5, align 8
  %24 = load i32, ptr %9, align 4
  %25 = mul nsw i32 %24, 16
  %26 = load i32, ptr %11, align 4
  %27 = add nsw i32 %25, %26
  %28 = sext i32 %27 to i64
  %29 = getelementptr inbounds float, ptr %23, i64 %28
  %30 = load float, ptr %29, align 4
  call void @_ZL4pushP5Statsf(ptr noundef %10, float noundef %30) #4
  br label %31

31:                                               ; preds = %22
  %32 = load i32, ptr %11, align 4
  %33 = add nsw i32 %32, 1
  store i32 %33, ptr %11, align 4
  br label %17, !llvm.loop !5

34:                                               ; preds = %17
  %35 = getelementptr inbounds %struct.Stats, ptr %10, i32 0, i32 1
  %36 = load float, ptr %35, align 4
  %37 = load ptr, ptr %6, align 8
  %38 = load i32, ptr %9, align 4
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds float, ptr %37, i64 %39
  store float %36, ptr %40, align 4
  %41 = getelementptr inbounds %struct.Stats, ptr %10, i32 0, i32 0
  %42 = load i32, ptr %41, align 4
  %43 = icmp sgt i32 %42, 1
  br i1 %43, label %44, label %52

44:                                               ; preds = %34
  %45 = getelementptr inbounds %struct.Stats, ptr %10, i32 0, i32 2
  %46 = load float, ptr %45, align 4
  %47 = getelementptr inbounds %struct.Stats, ptr %10, i32 0, i32 0
  %48 = load i32, ptr %47, align 4
  %49 = sub nsw i32 %48, 1
  %50 = sitofp i32 %49 to float
  %51 = fdiv contract float %46, %50
  br label %53

52:                                               ; preds = %34
  br label %53

53:                                               ; preds = %52, %44
  %54 = phi contract float [ %51, %44 ], [ 0.000000e+00, %52 ]
  %55 = load ptr, ptr %7, align 8
  %56 = load i32, ptr %9, align 4
  %57 = sext i32 %56 to i64
  %58 = getelementptr inbounds float, ptr %55, i64 %57
  store float %54, ptr %58, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #2

; Function Attrs: convergent mustprogress  nounwind
define internal void @_ZL4pushP5Statsf(ptr noundef %0, float noundef %1) #3 {
  %3 = alloca ptr, align 8
  %4 = alloca float, align 4
  %5 = alloca float, align 4
  store ptr %0, ptr %3, align 8
  store float %1, ptr %4, align 4
  %6 = load ptr, ptr %3, align 8
  %7 = getelementptr inbounds %struct.Stats, ptr %6, i32 0, i32 0
  %8 = load i32, ptr %7, align 4
  %9 = add nsw i32 %8, 1
  store i32 %9, ptr %7, align 4
  %10 = load float, ptr %4, align 4
  %11 = load ptr, ptr %3, align 8
  %12 = getelementptr inbounds %struct.Stats, ptr %11, i32 0, i32 1
  %13 = load float, ptr %12, align 4
  %14 = fsub contract float %10, %13
  store float %14, ptr %5, align 4
  %15 = load float, ptr %5, align 4
  %16 = load ptr, ptr %3, align 8
  %17 = getelementptr inbounds %struct.Stats, ptr %16, i32 0, i32 0
  %18 = load i32, ptr %17, align 4
  %19 = sitofp i32 %18 to float
  %20 = fdiv contract float %15, %19
  %21 = load ptr, ptr %3, align 8
  %22 = getelementptr inbounds %struct.Stats, ptr %21, i32 0, i32 1
  %23 = load float, ptr %22, align 4
  %24 = fadd contract float %23, %20
  store float %24, ptr %22, align 4
  %25 = load float, ptr %5, align 4
  %26 = load float, ptr %4, align 4
  %27 = load ptr, ptr %3, align 8
  %28 = getelementptr inbounds %struct.Stats, ptr %27, i32 0, i32 1
  %29 = load float, ptr %28, align 4
  %30 = fsub contract float %26, %29
  %31 = fmul contract float %25, %30
  %32 = load ptr, ptr %3, align 8
  %33 = getelementptr inbounds %struct.Stats, ptr %32, i32 0, i32 2
  %34 = load float, ptr %33, align 4
  %35 = fadd contract float %34, %31
  store float %35, ptr %33, align 4
  ret void
}

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #3 = { convergent mustprogress  nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #4 = { convergent nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @running_stats, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
