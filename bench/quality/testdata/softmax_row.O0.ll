; ModuleID = 'cuda/softmax_row.cu'
source_filename = "cuda/softmax_row.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ11softmax_rowE5vals_ = internal addrspace(3) global [4 x [32 x float]] undef, align 4
@_ZZ11softmax_rowE4red_ = internal addrspace(3) global [4 x [32 x float]] undef, align 4

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @softmax_row(ptr noundef %0, ptr noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i32, align 4
  %10 = alloca float, align 4
  %11 = alloca i32, align 4
  %12 = alloca float, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %16 = and i32 %15, 31
  store i32 %16, ptr %5, align 4
  %17 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %18 = ashr i32 %17, 5
  %19 = and i32 %18, 3
  store i32 %19, ptr %6, align 4
  %20 = load i32, ptr %6, align 4
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds [4 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ11softmax_rowE5vals_ to ptr), i64 0, i64 %21
  %23 = getelementptr inbounds [32 x float], ptr %22, i64 0, i64 0
  store ptr %23, ptr %7, align 8
  %24 = load i32, ptr %6, align 4
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds [4 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ11softmax_rowE4red_ to ptr), i64 0, i64 %25
  %27 = getelementptr inbounds [32 x float], ptr %26, i64 0, i64 0
  store ptr %27, ptr %8, align 8
  %28 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %29 = mul nsw i32 %28, 4
  %30 = load i32, ptr %6, align 4
  %31 = add nsw i32 %29, %30
  store i32 %31, ptr %9, align 4
  %32 = load ptr, ptr %3, align 8
  %33 = load i32, ptr %9, align 4
  %34 = mul nsw i32 %33, 32
  %35 = load i32, ptr %5, align 4
  %36 = add nsw i32 %34, %35
  %37 = sext i32 %36 to i64
  %38 = getelementptr inbounds float, ptr %32, i64 %37
  %39 = load float, ptr %38, align 4
  store float %39, ptr %10, align 4
  %40 = load float, ptr %10, align 4
  %41 = load ptr, ptr %7, align 8
  %42 = load i32, ptr %5, align 4
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds float, ptr %41, i64 %43
  store float %40, ptr %44, align 4
  %45 = load float, ptr %10, align 4
  %46 = load ptr, ptr %8, align 8
  %47 = load i32, ptr %5, align 4
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds float, ptr %46, i64 %48
  store float %45, ptr %49, align 4
  call void @llvm.nvvm.barrier0()
  store i32 16, ptr %11, align 4
  br label %50

50:                                               ; preds = %76, %2
  %51 = load i32, ptr %11, align 4
  %52 = icmp sgt i32 %51, 0
  br i1 %52, label %53, label %79

53:                                               ; preds = %50
  %54 = load i32, ptr %5, align 4
  %55 = load i32, ptr %11, align 4
  %56 = icmp slt i32 %54, %55
  br i1 %56, label %57, label %75

57:                                               ; preds = %53
  %58 = load ptr, ptr %8, align 8
  %59 = load i32, ptr %5, align 4
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds float, ptr %58, i64 %60
  %62 = load float, ptr %61, align 4
  %63 = load ptr, ptr %8, align 8
  %64 = load i32, ptr %5, align 4
  %65 = load i32, ptr %11, align 4
  %66 = add nsw i32 %64, %65
  %67 = sext i32 %66 to i64
  %68 = getelementptr inbounds float, ptr %63, i64 %67
  %69 = load float, ptr %68, align 4
  %70 = call contract noundef float @_ZL8fmax_f32ff(float noundef %62, float noundef %69) #5
  %71 = load ptr, ptr %8, align 8
  %72 = load i32, ptr %5, align 4
  %73 = sext i32 %72 to i64
  %74 = getelementptr inbounds float, ptr %71, i64 %73
  store float %70, ptr %74, align 4
  br label %75

75:                                               ; preds = %57, %53
  call void @llvm.nvvm.barrier0()
  br label %76

76:                                               ; preds = %75
  %77 = load i32, ptr %11, align 4
  %78 = ashr i32 %77, 1
  store i32 %78, ptr %11, align 4
  br label %50, !llvm.loop !5

79:                                               ; preds = %50
  %80 = load ptr, ptr %8, align 8
  %81 = getelementptr inbounds float, ptr %80, i64 0
  %82 = load float, ptr %81, align 4
  store float %82, ptr %12, align 4
  call void @llvm.nvvm.barrier0()
  %83 = load ptr, ptr %7, align 8
  %84 = load i32, ptr %5, align 4
  %85 = sext i32 %84 to i64
  %86 = getelementptr inbounds float, ptr %83, i64 %85
  %87 = load float, ptr %86, align 4
  %88 = load float, ptr %12, align 4
  %89 = fsub contract float %87, %88
  %90 = fmul contract float %89, 0x3FF7154760000000
  %91 = call contract float @llvm.nvvm.ex2.approx.f(float %90)
  store float %91, ptr %13, align 4
  %92 = load float, ptr %13, align 4
  %93 = load ptr, ptr %8, align 8
  %94 = load i32, ptr %5, align 4
  %95 = sext i32 %94 to i64
  %96 = getelementptr inbounds float, ptr %93, i64 %95
  store float %92, ptr %96, align 4
  call void @llvm.nvvm.barrier0()
  store i32 16, ptr %14, align 4
  br label %97

97:                                               ; preds = %119, %79
  %98 = load i32, ptr %14, align 4
  %99 = icmp sgt i32 %98, 0
  br i1 %99, label %100, label %122

100:                                              ; preds = %97
  %101 = load i32, ptr %5, align 4
  %102 = load i32, ptr %14, align 4
  %103 = icmp slt i32 %101, %102
  br i1 %103, label %104, label %118

104:                                              ; preds = %100
  %105 = load ptr, ptr %8, align 8
  %106 = load i32, ptr %5, align 4
  %107 = load i32, ptr %14, align 4
  %108 = add nsw i32 %106, %107
  %109 = sext i32 %108 to i64
  %110 = getelementptr inbounds float, ptr %105, i64 %109
  %111 = load float, ptr %110, align 4
  %112 = load ptr, ptr %8, align 8
  %113 = load i32, ptr %5, align 4
  %114 = sext i32 %113 to i64
  %115 = getelementptr inbounds float, ptr %112, i64 %114
  %116 = load float, ptr %115, align 4
  %117 = fadd contract float %116, %111
  store float %117, ptr %115, align 4
  br label %118

118:                                              ; preds = %104, %100
  call void @llvm.nvvm.barrier0()
  br label %119

119:                                              ; preds = %118
  %120 = load i32, ptr %14, align 4
  %121 = ashr i32 %120, 1
  store i32 %121, ptr %14, align 4
  br label %97, !llvm.loop !7

122:                                              ; preds = %97
  %123 = load float, ptr %13, align 4
  %124 = load ptr, ptr %8, align 8
  %125 = getelementptr inbounds float, ptr %124, i64 0
  %126 = load float, ptr %125, align 4
  %127 = fdiv contract float %123, %126
  %128 = load ptr, ptr %4, align 8
  %129 = load i32, ptr %9, align 4
  %130 = mul nsw i32 %129, 32
  %131 = load i32, ptr %5, align 4
  %132 = add nsw i32 %130, %131
  %133 = sext i32 %132 to i64
  %134 = getelementptr inbounds float, ptr %128, i64 %133
  store float %127, ptr %134, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

; Function Attrs: convergent mustprogress  nounwind
define internal noundef float @_ZL8fmax_f32ff(float noundef %0, float noundef %1) #3 {
  %3 = alloca float, align 4
  %4 = alloca float, align 4
  store float %0, ptr %3, align 4
  store float %1, ptr %4, align 4
  %5 = load float, ptr %3, align 4
  %6 = load float, ptr %4, align 4
  %7 = call contract float @llvm.nvvm.fmax.f(float %5, float %6)
  ret float %7
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.f(float) #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.nvvm.fmax.f(float, float) #1

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { convergent mustprogress  nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(none) }
attributes #5 = { convergent nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @softmax_row, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = distinct !{!7, !6}
