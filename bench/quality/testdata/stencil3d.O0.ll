; ModuleID = 'cuda/stencil3d.cu'
source_filename = "cuda/stencil3d.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Dims = type { i32, i32, i32 }

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @stencil3d(ptr noundef %0, ptr noundef %1, ptr noundef byval(%struct.Dims) align 4 %2, float noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca float, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca float, align 4
  %12 = alloca %struct.Dims, align 4
  %13 = alloca float, align 4
  %14 = alloca %struct.Dims, align 4
  %15 = alloca %struct.Dims, align 4
  %16 = alloca %struct.Dims, align 4
  %17 = alloca %struct.Dims, align 4
  %18 = alloca %struct.Dims, align 4
  %19 = alloca %struct.Dims, align 4
  %20 = alloca %struct.Dims, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store float %3, ptr %7, align 4
  %21 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %22 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %23 = mul nsw i32 %21, %22
  %24 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %25 = add nsw i32 %23, %24
  store i32 %25, ptr %8, align 4
  %26 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %27 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %28 = mul nsw i32 %26, %27
  %29 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %30 = add nsw i32 %28, %29
  store i32 %30, ptr %9, align 4
  %31 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %32 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %33 = mul nsw i32 %31, %32
  %34 = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %35 = add nsw i32 %33, %34
  store i32 %35, ptr %10, align 4
  %36 = load i32, ptr %8, align 4
  %37 = icmp slt i32 %36, 1
  br i1 %37, label %62, label %38

38:                                               ; preds = %4
  %39 = load i32, ptr %9, align 4
  %40 = icmp slt i32 %39, 1
  br i1 %40, label %62, label %41

41:                                               ; preds = %38
  %42 = load i32, ptr %10, align 4
  %43 = icmp slt i32 %42, 1
  br i1 %43, label %62, label %44

44:                                               ; preds = %41
  %45 = load i32, ptr %8, align 4
  %46 = getelementptr inbounds %struct.Dims, ptr %2, i32 0, i32 0
  %47 = load i32, ptr %46, align 4
  %48 = sub nsw i32 %47, 1
  %49 = icmp sge i32 %45, %48
  br i1 %49, label %62, label %50

50:                                               ; preds = %44
  %51 = load i32, ptr %9, align 4
  %52 = getelementptr inbounds %struct.Dims, ptr %2, i32 0, i32 1
  %53 = load i32, ptr %52, align 4
  %54 = sub nsw i32 %53, 1
  %55 = icmp sge i32 %51, %54
  br i1 %55, label %62, label %56

56:                                               ; preds = %50
  %57 = load i32, ptr %10, align 4
  %58 = getelementptr inbounds %struct.Dims, ptr %2, i32 0, i32 2
  %59 = load i32, ptr %58, align 4
  %60 = sub nsw i32 %59, 1
  %61 = icmp sge i32 %57, %60
  br i1 %61, label %62, label %63

62:                                               ; preds = %56, %50, %44, %41, %38, %4
  br label %146

63:                                               ; preds = %56
  %64 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %12, ptr align 4 %2, i64 12, i1 false)
  %65 = load i32, ptr %8, align 4
  %66 = load i32, ptr %9, align 4
  %67 = load i32, ptr %10, align 4
  %68 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %12, i32 noundef %65, i32 noundef %66, i32 noundef %67) #4
  %69 = sext i32 %68 to i64
  %70 = getelementptr inbounds float, ptr %64, i64 %69
  %71 = load float, ptr %70, align 4
  store float %71, ptr %11, align 4
  %72 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %14, ptr align 4 %2, i64 12, i1 false)
  %73 = load i32, ptr %8, align 4
  %74 = sub nsw i32 %73, 1
  %75 = load i32, ptr %9, align 4
  %76 = load i32, ptr %10, align 4
  %77 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %14, i32 noundef %74, i32 noundef %75, i32 noundef %76) #4
  %78 = sext i32 %77 to i64
  %79 = getelementptr inbounds float, ptr %72, i64 %78
  %80 = load float, ptr %79, align 4
  %81 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %15, ptr align 4 %2, i64 12, i1 false)
  %82 = load i32, ptr %8, align 4
  %83 = add nsw i32 %82, 1
  %84 = load i32, ptr %9, align 4
  %85 = load i32, ptr %10, align 4
  %86 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %15, i32 noundef %83, i32 noundef %84, i32 noundef %85) #4
  %87 = sext i32 %86 to i64
  %88 = getelementptr inbounds float, ptr %81, i64 %87
  %89 = load float, ptr %88, align 4
  %90 = fadd contract float %80, %89
  %91 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %16, ptr align 4 %2, i64 12, i1 false)
  %92 = load i32, ptr %8, align 4
  %93 = load i32, ptr %9, align 4
  %94 = sub nsw i32 %93, 1
  %95 = load i32, ptr %10, align 4
  %96 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %16, i32 noundef %92, i32 noundef %94, i32 noundef %95) #4
  %97 = sext i32 %96 to i64
  %98 = getelementptr inbounds float, ptr %91, i64 %97
  %99 = load float, ptr %98, align 4
  %100 = fadd contract float %90, %99
  %101 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %17, ptr align 4 %2, i64 12, i1 false)
  %102 = load i32, ptr %8, align 4
  %103 = load i32, ptr %9, align 4
  %104 = add nsw i32 %103, 1
  %105 = load i32, ptr %10, align 4
  %106 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %17, i32 noundef %102, i32 noundef %104, i32 noundef %105) #4
  %107 = sext i32 %106 to i64
  %108 = getelementptr inbounds float, ptr %101, i64 %107
  %109 = load float, ptr %108, align 4
  %110 = fadd contract float %100, %109
  %111 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %18, ptr align 4 %2, i64 12, i1 false)
  %112 = load i32, ptr %8, align 4
  %113 = load i32, ptr %9, align 4
  %114 = load i32, ptr %10, align 4
  %115 = sub nsw i32 %114, 1
  %116 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %18, i32 noundef %112, i32 noundef %113, i32 noundef %115) #4
  %117 = sext i32 %116 to i64
  %118 = getelementptr inbounds float, ptr %111, i64 %117
  %119 = load float, ptr %118, align 4
  %120 = fadd contract float %110, %119
  %121 = load ptr, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %19, ptr align 4 %2, i64 12, i1 false)
  %122 = load i32, ptr %8, align 4
  %123 = load i32, ptr %9, align 4
  %124 = load i32, ptr %10, align 4
  %125 = add nsw i32 %124, 1
  %126 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %19, i32 noundef %122, i32 noundef %123, i32 noundef %125) #4
  %127 = sext i32 %126 to i64
  %128 = getelementptr inbounds float, ptr %121, i64 %127
  %129 = load float, ptr %128, align 4
  %130 = fadd contract float %120, %129
  store float %130, ptr %13, align 4
  %131 = load float, ptr %11, align 4
  %132 = load float, ptr %7, align 4
  %133 = load float, ptr %13, align 4
  %134 = load float, ptr %11, align 4
  %135 = fmul contract float 6.000000e+00, %134
  %136 = fsub contract float %133, %135
  %137 = fmul contract float %132, %136
  %138 = fadd contract float %131, %137
  %139 = load ptr, ptr %6, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %20, ptr align 4 %2, i64 12, i1 false)
  %140 = load i32, ptr %8, align 4
  %141 = load i32, ptr %9, align 4
  %142 = load i32, ptr %10, align 4
  %143 = call noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %20, i32 noundef %140, i32 noundef %141, i32 noundef %142) #4
  %144 = sext i32 %143 to i64
  %145 = getelementptr inbounds float, ptr %139, i64 %144
  store float %138, ptr %145, align 4
  br label %146

146:                                              ; preds = %63, %62
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z() #1

; Function Attrs: convergent mustprogress  nounwind
define internal noundef i32 @_ZL2at4Dimsiii(ptr noundef byval(%struct.Dims) align 4 %0, i32 noundef %1, i32 noundef %2, i32 noundef %3) #2 {
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store i32 %1, ptr %5, align 4
  store i32 %2, ptr %6, align 4
  store i32 %3, ptr %7, align 4
  %8 = load i32, ptr %7, align 4
  %9 = getelementptr inbounds %struct.Dims, ptr %0, i32 0, i32 1
  %10 = load i32, ptr %9, align 4
  %11 = mul nsw i32 %8, %10
  %12 = load i32, ptr %6, align 4
  %13 = add nsw i32 %11, %12
  %14 = getelementptr inbounds %struct.Dims, ptr %0, i32 0, i32 0
  %15 = load i32, ptr %14, align 4
  %16 = mul nsw i32 %13, %15
  %17 = load i32, ptr %5, align 4
  %18 = add nsw i32 %16, %17
  ret i32 %18
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #3

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress  nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { convergent nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @stencil3d, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
