; ModuleID = 'cuda/matmul_naive.cu'
source_filename = "cuda/matmul_naive.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @matmul_naive(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) #0 {
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca float, align 4
  %16 = alloca i32, align 4
  store ptr %0, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store ptr %2, ptr %9, align 8
  store i32 %3, ptr %10, align 4
  store i32 %4, ptr %11, align 4
  store i32 %5, ptr %12, align 4
  %17 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %18 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %19 = mul nsw i32 %17, %18
  %20 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %21 = add nsw i32 %19, %20
  store i32 %21, ptr %13, align 4
  %22 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %23 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %24 = mul nsw i32 %22, %23
  %25 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %26 = add nsw i32 %24, %25
  store i32 %26, ptr %14, align 4
  %27 = load i32, ptr %13, align 4
  %28 = load i32, ptr %10, align 4
  %29 = icmp sge i32 %27, %28
  br i1 %29, label %34, label %30

30:                                               ; preds = %6
  %31 = load i32, ptr %14, align 4
  %32 = load i32, ptr %12, align 4
  %33 = icmp sge i32 %31, %32
  br i1 %33, label %34, label %35

34:                                               ; preds = %30, %6
  br label %76

35:                                               ; preds = %30
  store float 0.000000e+00, ptr %15, align 4
  store i32 0, ptr %16, align 4
  br label %36

36:                                               ; preds = %63, %35
  %37 = load i32, ptr %16, align 4
  %38 = load i32, ptr %11, align 4
  %39 = and i32 %38, 63
  %40 = icmp slt i32 %37, %39
  br i1 %40, label %41, label %66

41:                                               ; preds = %36
  %42 = load ptr, ptr %7, align 8
  %43 = load i32, ptr %13, align 4
  %44 = load i32, ptr %11, align 4
  %45 = mul nsw i32 %43, %44
  %46 = load i32, ptr %16, align 4
  %47 = add nsw i32 %45, %46
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds float, ptr %42, i64 %48
  %50 = load float, ptr %49, align 4
  %51 = load ptr, ptr %8, align 8
  %52 = load i32, ptr %16, align 4
  %53 = load i32, ptr %12, align 4
  %54 = mul nsw i32 %52, %53
  %55 = load i32, ptr %14, align 4
  %56 = add nsw i32 %54, %55
  %57 = sext i32 %56 to i64
  %58 = getelementptr inbounds float, ptr %51, i64 %57
  %59 = load float, ptr %58, align 4
  %60 = fmul contract float %50, %59
  %61 = load float, ptr %15, align 4
  %62 = fadd contract float %61, %60
  store float %62, ptr %15, align 4
  br label %63

63:                                               ; preds = %41
  %64 = load i32, ptr %16, align 4
  %65 = add nsw i32 %64, 1
  store i32 %65, ptr %16, align 4
  br label %36, !llvm.loop !5

66:                                               ; preds = %36
  %67 = load float, ptr %15, align 4
  %68 = load ptr, ptr %9, align 8
  %69 = load i32, ptr %13, align 4
  %70 = load i32, ptr %12, align 4
  %71 = mul nsw i32 %69, %70
  %72 = load i32, ptr %14, align 4
  %73 = add nsw i32 %71, %72
  %74 = sext i32 %73 to i64
  %75 = getelementptr inbounds float, ptr %68, i64 %74
  store float %67, ptr %75, align 4
  br label %76

76:                                               ; preds = %66, %34
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

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

!0 = !{ptr @matmul_naive, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
