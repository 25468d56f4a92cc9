; ModuleID = 'cuda/reduce_sum.cu'
source_filename = "cuda/reduce_sum.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ10reduce_sumE3buf = internal addrspace(3) global [128 x float] undef, align 4

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @reduce_sum(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %10 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %10, ptr %7, align 4
  %11 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %12 = mul nsw i32 %11, 128
  %13 = load i32, ptr %7, align 4
  %14 = add nsw i32 %12, %13
  store i32 %14, ptr %8, align 4
  %15 = load i32, ptr %8, align 4
  %16 = load i32, ptr %6, align 4
  %17 = icmp slt i32 %15, %16
  br i1 %17, label %18, label %24

18:                                               ; preds = %3
  %19 = load ptr, ptr %4, align 8
  %20 = load i32, ptr %8, align 4
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds float, ptr %19, i64 %21
  %23 = load float, ptr %22, align 4
  br label %25

24:                                               ; preds = %3
  br label %25

25:                                               ; preds = %24, %18
  %26 = phi contract float [ %23, %18 ], [ 0.000000e+00, %24 ]
  %27 = load i32, ptr %7, align 4
  %28 = sext i32 %27 to i64
  %29 = getelementptr inbounds [128 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10reduce_sumE3buf to ptr), i64 0, i64 %28
  store float %26, ptr %29, align 4
  call void @llvm.nvvm.barrier0()
  store i32 64, ptr %9, align 4
  br label %30

30:                                               ; preds = %50, %25
  %31 = load i32, ptr %9, align 4
  %32 = icmp sgt i32 %31, 0
  br i1 %32, label %33, label %53

33:                                               ; preds = %30
  %34 = load i32, ptr %7, align 4
  %35 = load i32, ptr %9, align 4
  %36 = icmp slt i32 %34, %35
  br i1 %36, label %37, label %49

37:                                               ; preds = %33
  %38 = load i32, ptr %7, align 4
  %39 = load i32, ptr %9, align 4
  %40 = add nsw i32 %38, %39
  %41 = sext i32 %40 to i64
  %42 = getelementptr inbounds [128 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10reduce_sumE3buf to ptr), i64 0, i64 %41
  %43 = load float, ptr %42, align 4
  %44 = load i32, ptr %7, align 4
  %45 = sext i32 %44 to i64
  %46 = getelementptr inbounds [128 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10reduce_sumE3buf to ptr), i64 0, i64 %45
  %47 = load float, ptr %46, align 4
  %48 = fadd contract float %47, %43
  store float %48, ptr %46, align 4
  br label %49

49:                                               ; preds = %37, %33
  call void @llvm.nvvm.barrier0()
  br label %50

50:                                               ; preds = %49
  %51 = load i32, ptr %9, align 4
  %52 = ashr i32 %51, 1
  store i32 %52, ptr %9, align 4
  br label %30, !llvm.loop !5

53:                                               ; preds = %30
  %54 = load i32, ptr %7, align 4
  %55 = icmp eq i32 %54, 0
  br i1 %55, label %56, label %62

56:                                               ; preds = %53
  %57 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ10reduce_sumE3buf to ptr), align 4
  %58 = load ptr, ptr %5, align 8
  %59 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds float, ptr %58, i64 %60
  store float %57, ptr %61, align 4
  br label %62

62:                                               ; preds = %56, %53
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @reduce_sum, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
