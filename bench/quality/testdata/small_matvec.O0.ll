; ModuleID = 'cuda/small_matvec.cu'
source_filename = "cuda/small_matvec.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @small_matvec(ptr noundef %0, ptr noundef %1, ptr noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i32, align 4
  %8 = alloca [16 x float], align 4
  %9 = alloca [4 x float], align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store ptr %2, ptr %6, align 8
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %16 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %17 = mul nsw i32 %15, %16
  %18 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %19 = add nsw i32 %17, %18
  store i32 %19, ptr %7, align 4
  store i32 0, ptr %10, align 4
  br label %20

20:                                               ; preds = %35, %3
  %21 = load i32, ptr %10, align 4
  %22 = icmp slt i32 %21, 16
  br i1 %22, label %23, label %38

23:                                               ; preds = %20
  %24 = load ptr, ptr %4, align 8
  %25 = load i32, ptr %7, align 4
  %26 = mul nsw i32 %25, 16
  %27 = load i32, ptr %10, align 4
  %28 = add nsw i32 %26, %27
  %29 = sext i32 %28 to i64
  %30 = getelementptr inbounds float, ptr %24, i64 %29
  %31 = load float, ptr %30, align 4
  %32 = load i32, ptr %10, align 4
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds [16 x float], ptr %8, i64 0, i64 %33
  store float %31, ptr %34, align 4
  br label %35

35:                                               ; preds = %23
  %36 = load i32, ptr %10, align 4
  %37 = add nsw i32 %36, 1
  store i32 %37, ptr %10, align 4
  br label %20, !llvm.loop !5

38:                                               ; preds = %20
  store i32 0, ptr %11, align 4
  br label %39

39:                                               ; preds = %54, %38
  %40 = load i32, ptr %11, align 4
  %41 = icmp slt i32 %40, 4
  br i1 %41, label %42, label %57

42:                                               ; preds = %39
  %43 = load ptr, ptr %5, align 8
  %44 = load i32, ptr %7, align 4
  %45 = mul nsw i32 %44, 4
  %46 = load i32, ptr %11, align 4
  %47 = add nsw i32 %45, %46
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds float, ptr %43, i64 %48
  %50 = load float, ptr %49, align 4
  %51 = load i32, ptr %11, align 4
  %52 = sext i32 %51 to i64
  %53 = getelementptr inbounds [4 x float], ptr %9, i64 0, i64 %52
  store float %50, ptr %53, align 4
  br label %54

54:                                               ; preds = %42
  %55 = load i32, ptr %11, align 4
  %56 = add nsw i32 %55, 1
  store i32 %56, ptr %11, align 4
  br label %39, !llvm.loop !8

57:                                               ; preds = %39
  store i32 0, ptr %12, align 4
  br label %58

58:                                               ; preds = %92, %57
  %59 = load i32, ptr %12, align 4
  %60 = icmp slt i32 %59, 4
  br i1 %60, label %61, label %95

61:                                               ; preds = %58
  store float 0.000000e+00, ptr %13, align 4
  store i32 0, ptr %14, align 4
  br label %62

62:                                               ; preds = %80, %61
  %63 = load i32, ptr %14, align 4
  %64 = icmp slt i32 %63, 4
  br i1 %64, label %65, label %83

65:                                               ; preds = %62
  %66 = load i32, ptr %12, align 4
  %67 = mul nsw i32 %66, 4
  %68 = load i32, ptr %14, align 4
  %69 = add nsw i32 %67, %68
  %70 = sext i32 %69 to i64
  %71 = getelementptr inbounds [16 x float], ptr %8, i64 0, i64 %70
  %72 = load float, ptr %71, align 4
  %73 = load i32, ptr %14, align 4
  %74 = sext i32 %73 to i64
  %75 = getelementptr inbounds [4 x float], ptr %9, i64 0, i64 %74
  %76 = load float, ptr %75, align 4
  %77 = fmul contract float %72, %76
  %78 = load float, ptr %13, align 4
  %79 = fadd contract float %78, %77
  store float %79, ptr %13, align 4
  br label %80

80:                                               ; preds = %65
  %81 = load i32, ptr %14, align 4
  %82 = add nsw i32 %81, 1
  store i32 %82, ptr %14, align 4
  br label %62, !llvm.loop !9

83:                                               ; preds = %62
  %84 = load float, ptr %13, align 4
  %85 = load ptr, ptr %6, align 8
  %86 = load i32, ptr %7, align 4
  %87 = mul nsw i32 %86, 4
  %88 = load i32, ptr %12, align 4
  %89 = add nsw i32 %87, %88
  %90 = sext i32 %89 to i64
  %91 = getelementptr inbounds float, ptr %85, i64 %90
  store float %84, ptr %91, align 4
  br label %92

92:                                               ; preds = %83
  %93 = load i32, ptr %12, align 4
  %94 = add nsw i32 %93, 1
  store i32 %94, ptr %12, align 4
  br label %58, !llvm.loop !10

95:                                               ; preds = %58
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

!0 = !{ptr @small_matvec, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6, !7}
!6 = !{!"llvm.loop.mustprogress"}
!7 = !{!"llvm.loop.unroll.enable"}
!8 = distinct !{!8, !6, !7}
!9 = distinct !{!9, !6, !7}
!10 = distinct !{!10, !6, !7}
