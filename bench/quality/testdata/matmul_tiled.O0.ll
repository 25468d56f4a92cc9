; ModuleID = 'cuda/matmul_tiled.cu'
source_filename = "cuda/matmul_tiled.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ12matmul_tiledE2As = internal addrspace(3) global [8 x [8 x float]] undef, align 4
@_ZZ12matmul_tiledE2Bs = internal addrspace(3) global [8 x [8 x float]] undef, align 4

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @matmul_tiled(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca float, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store ptr %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %19 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %20 = srem i32 %19, 8
  store i32 %20, ptr %9, align 4
  %21 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %22 = sdiv i32 %21, 8
  %23 = srem i32 %22, 8
  store i32 %23, ptr %10, align 4
  %24 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %25 = mul nsw i32 %24, 8
  %26 = load i32, ptr %10, align 4
  %27 = add nsw i32 %25, %26
  store i32 %27, ptr %11, align 4
  %28 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %29 = mul nsw i32 %28, 8
  %30 = load i32, ptr %9, align 4
  %31 = add nsw i32 %29, %30
  store i32 %31, ptr %12, align 4
  %32 = load i32, ptr %8, align 4
  %33 = and i32 %32, 63
  store i32 %33, ptr %13, align 4
  store float 0.000000e+00, ptr %14, align 4
  store i32 0, ptr %15, align 4
  br label %34

34:                                               ; preds = %127, %4
  %35 = load i32, ptr %15, align 4
  %36 = load i32, ptr %13, align 4
  %37 = add nsw i32 %36, 8
  %38 = sub nsw i32 %37, 1
  %39 = sdiv i32 %38, 8
  %40 = icmp slt i32 %35, %39
  br i1 %40, label %41, label %130

41:                                               ; preds = %34
  %42 = load i32, ptr %15, align 4
  %43 = mul nsw i32 %42, 8
  %44 = load i32, ptr %9, align 4
  %45 = add nsw i32 %43, %44
  store i32 %45, ptr %16, align 4
  %46 = load i32, ptr %15, align 4
  %47 = mul nsw i32 %46, 8
  %48 = load i32, ptr %10, align 4
  %49 = add nsw i32 %47, %48
  store i32 %49, ptr %17, align 4
  %50 = load i32, ptr %11, align 4
  %51 = load i32, ptr %13, align 4
  %52 = icmp slt i32 %50, %51
  br i1 %52, label %53, label %67

53:                                               ; preds = %41
  %54 = load i32, ptr %16, align 4
  %55 = load i32, ptr %13, align 4
  %56 = icmp slt i32 %54, %55
  br i1 %56, label %57, label %67

57:                                               ; preds = %53
  %58 = load ptr, ptr %5, align 8
  %59 = load i32, ptr %11, align 4
  %60 = load i32, ptr %13, align 4
  %61 = mul nsw i32 %59, %60
  %62 = load i32, ptr %16, align 4
  %63 = add nsw i32 %61, %62
  %64 = sext i32 %63 to i64
  %65 = getelementptr inbounds float, ptr %58, i64 %64
  %66 = load float, ptr %65, align 4
  br label %68

67:                                               ; preds = %53, %41
  br label %68

68:                                               ; preds = %67, %57
  %69 = phi contract float [ %66, %57 ], [ 0.000000e+00, %67 ]
  %70 = load i32, ptr %10, align 4
  %71 = sext i32 %70 to i64
  %72 = getelementptr inbounds [8 x [8 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ12matmul_tiledE2As to ptr), i64 0, i64 %71
  %73 = load i32, ptr %9, align 4
  %74 = sext i32 %73 to i64
  %75 = getelementptr inbounds [8 x float], ptr %72, i64 0, i64 %74
  store float %69, ptr %75, align 4
  %76 = load i32, ptr %17, align 4
  %77 = load i32, ptr %13, align 4
  %78 = icmp slt i32 %76, %77
  br i1 %78, label %79, label %93

79:                                               ; preds = %68
  %80 = load i32, ptr %12, align 4
  %81 = load i32, ptr %13, align 4
  %82 = icmp slt i32 %80, %81
  br i1 %82, label %83, label %93

83:                                               ; preds = %79
  %84 = load ptr, ptr %6, align 8
  %85 = load i32, ptr %17, align 4
  %86 = load i32, ptr %13, align 4
  %87 = mul nsw i32 %85, %86
  %88 = load i32, ptr %12, align 4
  %89 = add nsw i32 %87, %88
  %90 = sext i32 %89 to i64
  %91 = getelementptr inbounds float, ptr %84, i64 %90
  %92 = load float, ptr %91, align 4
  br label %94

93:                                               ; preds = %79, %68
  br label %94

94:                                               ; preds = %93, %83
  %95 = phi contract float [ %92, %83 ], [ 0.000000e+00, %93 ]
  %96 = load i32, ptr %10, align 4
  %97 = sext i32 %96 to i64
  %98 = getelementptr inbounds [8 x [8 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ12matmul_tiledE2Bs to ptr), i64 0, i64 %97
  %99 = load i32, ptr %9, align 4
  %100 = sext i32 %99 to i64
  %101 = getelementptr inbounds [8 x float], ptr %98, i64 0, i64 %100
  store float %95, ptr %101, align 4
  call void @llvm.nvvm.barrier0()
  store i32 0, ptr %18, align 4
  br label %102

102:                                              ; preds = %123, %94
  %103 = load i32, ptr %18, align 4
  %104 = icmp slt i32 %103, 8
  br i1 %104, label %105, label %126

105:                                              ; preds = %102
  %106 = load i32, ptr %10, align 4
  %107 = sext i32 %106 to i64
  %108 = getelementptr inbounds [8 x [8 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ12matmul_tiledE2As to ptr), i64 0, i64 %107
  %109 = load i32, ptr %18, align 4
  %110 = sext i32 %109 to i64
  %111 = getelementptr inbounds [8 x float], ptr %108, i64 0, i64 %110
  %112 = load float, ptr %111, align 4
  %113 = load i32, ptr %18, align 4
  %114 = sext i32 %113 to i64
  %115 = getelementptr inbounds [8 x [8 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ12matmul_tiledE2Bs to ptr), i64 0, i64 %114
  %116 = load i32, ptr %9, align 4
  %117 = sext i32 %116 to i64
  %118 = getelementptr inbounds [8 x float], ptr %115, i64 0, i64 %117
  %119 = load float, ptr %118, align 4
  %120 = fmul contract float %112, %119
  %121 = load float, ptr %14, align 4
  %122 = fadd contract float %121, %120
  store float %122, ptr %14, align 4
  br label %123

123:                                              ; preds = %105
  %124 = load i32, ptr %18, align 4
  %125 = add nsw i32 %124, 1
  store i32 %125, ptr %18, align 4
  br label %102, !llvm.loop !5

126:                                              ; preds = %102
  call void @llvm.nvvm.barrier0()
  br label %127

127:                                              ; preds = %126
  %128 = load i32, ptr %15, align 4
  %129 = add nsw i32 %128, 1
  store i32 %129, ptr %15, align 4
  br label %34, !llvm.loop !7

130:                                              ; preds = %34
  %131 = load i32, ptr %11, align 4
  %132 = load i32, ptr %13, align 4
  %133 = icmp slt i32 %131, %132
  br i1 %133, label %134, label %148

134:                                              ; preds = %130
  %135 = load i32, ptr %12, align 4
  %136 = load i32, ptr %13, align 4
  %137 = icmp slt i32 %135, %136
  br i1 %137, label %138, label %148

138:                                              ; preds = %134
  %139 = load float, ptr %14, align 4
  %140 = load ptr, ptr %7, align 8
  %141 = load i32, ptr %11, align 4
  %142 = load i32, ptr %13, align 4
  %143 = mul nsw i32 %141, %142
  %144 = load i32, ptr %12, align 4
  %145 = add nsw i32 %143, %144
  %146 = sext i32 %145 to i64
  %147 = getelementptr inbounds float, ptr %140, i64 %146
  store float %139, ptr %147, align 4
  br label %148

148:                                              ; preds = %138, %134, %130
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

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

!0 = !{ptr @matmul_tiled, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = distinct !{!7, !6}
