; ModuleID = 'cuda/poly_eval.cu'
source_filename = "cuda/poly_eval.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @poly_eval(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca [5 x float], align 4
  %11 = alloca i32, align 4
  %12 = alloca float, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
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
  %22 = icmp sge i32 %20, %21
  br i1 %22, label %23, label %24

23:                                               ; preds = %4
  br label %69

24:                                               ; preds = %4
  store i32 0, ptr %11, align 4
  br label %25

25:                                               ; preds = %37, %24
  %26 = load i32, ptr %11, align 4
  %27 = icmp slt i32 %26, 5
  br i1 %27, label %28, label %40

28:                                               ; preds = %25
  %29 = load ptr, ptr %7, align 8
  %30 = load i32, ptr %11, align 4
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds float, ptr %29, i64 %31
  %33 = load float, ptr %32, align 4
  %34 = load i32, ptr %11, align 4
  %35 = sext i32 %34 to i64
  %36 = getelementptr inbounds [5 x float], ptr %10, i64 0, i64 %35
  store float %33, ptr %36, align 4
  br label %37

37:                                               ; preds = %28
  %38 = load i32, ptr %11, align 4
  %39 = add nsw i32 %38, 1
  store i32 %39, ptr %11, align 4
  br label %25, !llvm.loop !5

40:                                               ; preds = %25
  %41 = load ptr, ptr %5, align 8
  %42 = load i32, ptr %9, align 4
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds float, ptr %41, i64 %43
  %45 = load float, ptr %44, align 4
  store float %45, ptr %12, align 4
  %46 = getelementptr inbounds [5 x float], ptr %10, i64 0, i64 4
  %47 = load float, ptr %46, align 4
  store float %47, ptr %13, align 4
  store i32 3, ptr %14, align 4
  br label %48

48:                                               ; preds = %60, %40
  %49 = load i32, ptr %14, align 4
  %50 = icmp sge i32 %49, 0
  br i1 %50, label %51, label %63

51:                                               ; preds = %48
  %52 = load float, ptr %13, align 4
  %53 = load float, ptr %12, align 4
  %54 = fmul contract float %52, %53
  %55 = load i32, ptr %14, align 4
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds [5 x float], ptr %10, i64 0, i64 %56
  %58 = load float, ptr %57, align 4
  %59 = fadd contract float %54, %58
  store float %59, ptr %13, align 4
  br label %60

60:                                               ; preds = %51
  %61 = load i32, ptr %14, align 4
  %62 = add nsw i32 %61, -1
  store i32 %62, ptr %14, align 4
  br label %48, !llvm.loop !7

63:                                               ; preds = %48
  %64 = load float, ptr %13, align 4
  %65 = load ptr, ptr %6, align 8
  %66 = load i32, ptr %9, align 4
  %67 = sext i32 %66 to i64
  %68 = getelementptr inbounds float, ptr %65, i64 %67
  store float %64, ptr %68, align 4
  br label %69

69:                                               ; preds = %63, %23
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @poly_eval, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = distinct !{!7, !6}
