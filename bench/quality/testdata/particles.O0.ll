; ModuleID = 'cuda/particles.cu'
source_filename = "cuda/particles.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Vec2 = type { float, float }

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @particles(ptr noundef %0, ptr noundef %1, ptr noundef %2, float noundef %3, float noundef %4, i32 noundef %5) #0 {
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca float, align 4
  %11 = alloca float, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca %struct.Vec2, align 4
  %15 = alloca %struct.Vec2, align 4
  %16 = alloca i32, align 4
  %17 = alloca %struct.Vec2, align 4
  %18 = alloca %struct.Vec2, align 4
  %19 = alloca %struct.Vec2, align 4
  %20 = alloca %struct.Vec2, align 4
  %21 = alloca %struct.Vec2, align 4
  %22 = alloca %struct.Vec2, align 4
  %23 = alloca %struct.Vec2, align 4
  %24 = alloca %struct.Vec2, align 4
  %25 = alloca %struct.Vec2, align 4
  %26 = alloca %struct.Vec2, align 4
  %27 = alloca %struct.Vec2, align 4
  %28 = alloca %struct.Vec2, align 4
  %29 = alloca %struct.Vec2, align 4
  %30 = alloca %struct.Vec2, align 4
  store ptr %0, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store ptr %2, ptr %9, align 8
  store float %3, ptr %10, align 4
  store float %4, ptr %11, align 4
  store i32 %5, ptr %12, align 4
  %31 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %32 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %33 = mul nsw i32 %31, %32
  %34 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %35 = add nsw i32 %33, %34
  store i32 %35, ptr %13, align 4
  %36 = load i32, ptr %13, align 4
  %37 = load i32, ptr %12, align 4
  %38 = icmp sge i32 %36, %37
  br i1 %38, label %39, label %40

39:                                               ; preds = %6
  br label %107

40:                                               ; preds = %6
  %41 = load ptr, ptr %7, align 8
  %42 = load i32, ptr %13, align 4
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds %struct.Vec2, ptr %41, i64 %43
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %14, ptr align 4 %44, i64 8, i1 false)
  call void @llvm.memset.p0.i64(ptr align 4 %15, i8 0, i64 8, i1 false)
  store i32 0, ptr %16, align 4
  br label %45

45:                                               ; preds = %69, %40
  %46 = load i32, ptr %16, align 4
  %47 = icmp slt i32 %46, 4
  br i1 %47, label %48, label %72

48:                                               ; preds = %45
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %18, ptr align 4 %15, i64 8, i1 false)
  %49 = load ptr, ptr %9, align 8
  %50 = load i32, ptr %16, align 4
  %51 = sext i32 %50 to i64
  %52 = getelementptr inbounds %struct.Vec2, ptr %49, i64 %51
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %21, ptr align 4 %52, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %22, ptr align 4 %14, i64 8, i1 false)
  %53 = call %struct.Vec2 @_ZL3sub4Vec2S_(ptr noundef byval(%struct.Vec2) align 4 %21, ptr noundef byval(%struct.Vec2) align 4 %22) #5
  %54 = getelementptr inbounds %struct.Vec2, ptr %20, i32 0, i32 0
  %55 = extractvalue %struct.Vec2 %53, 0
  store float %55, ptr %54, align 4
  %56 = getelementptr inbounds %struct.Vec2, ptr %20, i32 0, i32 1
  %57 = extractvalue %struct.Vec2 %53, 1
  store float %57, ptr %56, align 4
  %58 = load float, ptr %10, align 4
  %59 = call %struct.Vec2 @_ZL5scale4Vec2f(ptr noundef byval(%struct.Vec2) align 4 %20, float noundef %58) #5
  %60 = getelementptr inbounds %struct.Vec2, ptr %19, i32 0, i32 0
  %61 = extractvalue %struct.Vec2 %59, 0
  store float %61, ptr %60, align 4
  %62 = getelementptr inbounds %struct.Vec2, ptr %19, i32 0, i32 1
  %63 = extractvalue %struct.Vec2 %59, 1
  store float %63, ptr %62, align 4
  %64 = call %struct.Vec2 @_ZL3add4Vec2S_(ptr noundef byval(%struct.Vec2) align 4 %18, ptr noundef byval(%struct.Vec2) align 4 %19) #5
  %65 = getelementptr inbounds %struct.Vec2, ptr %17, i32 0, i32 0
  %66 = extractvalue %struct.Vec2 %64, 0
  store float %66, ptr %65, align 4
  %67 = getelementptr inbounds %struct.Vec2, ptr %17, i32 0, i32 1
  %68 = extractvalue %struct.Vec2 %64, 1
  store float %68, ptr %67, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %15, ptr align 4 %17, i64 8, i1 false)
  br label %69

69:                                               ; preds = %48
  %70 = load i32, ptr %16, align 4
  %71 = add nsw i32 %70, 1
  store i32 %71, ptr %16, align 4
  br label %45, !llvm.loop !5

72:                                               ; preds = %45
  %73 = load ptr, ptr %8, align 8
  %74 = load i32, ptr %13, align 4
  %75 = sext i32 %74 to i64
  %76 = getelementptr inbounds %struct.Vec2, ptr %73, i64 %75
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %24, ptr align 4 %76, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %26, ptr align 4 %15, i64 8, i1 false)
  %77 = load float, ptr %11, align 4
  %78 = call %struct.Vec2 @_ZL5scale4Vec2f(ptr noundef byval(%struct.Vec2) align 4 %26, float noundef %77) #5
  %79 = getelementptr inbounds %struct.Vec2, ptr %25, i32 0, i32 0
  %80 = extractvalue %struct.Vec2 %78, 0
  store float %80, ptr %79, align 4
  %81 = getelementptr inbounds %struct.Vec2, ptr %25, i32 0, i32 1
  %82 = extractvalue %struct.Vec2 %78, 1
  store float %82, ptr %81, align 4
  %83 = call %struct.Vec2 @_ZL3add4Vec2S_(ptr noundef byval(%struct.Vec2) align 4 %24, ptr noundef byval(%struct.Vec2) align 4 %25) #5
  %84 = getelementptr inbounds %struct.Vec2, ptr %23, i32 0, i32 0
  %85 = extractvalue %struct.Vec2 %83, 0
  store float %85, ptr %84, align 4
  %86 = getelementptr inbounds %struct.Vec2, ptr %23, i32 0, i32 1
  %87 = extractvalue %struct.Vec2 %83, 1
  store float %87, ptr %86, align 4
  %88 = load ptr, ptr %8, align 8
  %89 = load i32, ptr %13, align 4
  %90 = sext i32 %89 to i64
  %91 = getelementptr inbounds %struct.Vec2, ptr %88, i64 %90
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %91, ptr align 4 %23, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %28, ptr align 4 %14, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %30, ptr align 4 %23, i64 8, i1 false)
  %92 = load float, ptr %11, align 4
  %93 = call %struct.Vec2 @_ZL5scale4Vec2f(ptr noundef byval(%struct.Vec2) align 4 %30, float noundef %92) #5
  %94 = getelementptr inbounds %struct.Vec2, ptr %29, i32 0, i32 0
  %95 = extractvalue %struct.Vec2 %93, 0
  store float %95, ptr %94, align 4
  %96 = getelementptr inbounds %struct.Vec2, ptr %29, i32 0, i32 1
  %97 = extractvalue %struct.Vec2 %93, 1
  store float %97, ptr %96, align 4
  %98 = call %struct.Vec2 @_ZL3add4Vec2S_(ptr noundef byval(%struct.Vec2) align 4 %28, ptr noundef byval(%struct.Vec2) align 4 %29) #5
  %99 = getelementptr inbounds %struct.Vec2, ptr %27, i32 0, i32 0
  %100 = extractvalue %struct.Vec2 %98, 0
  store float %100, ptr %99, align 4
  %101 = getelementptr inbounds %struct.Vec2, ptr %27, i32 0, i32 1
  %102 = extractvalue %struct.Vec2 %98, 1
  store float %102, ptr %101, align 4
  %103 = load ptr, ptr %7, align 8
  %104 = load i32, ptr %13, align 4
  %105 = sext i32 %104 to i64
  %106 = getelementptr inbounds %struct.Vec2, ptr %103, i64 %105
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %106, ptr align 4 %27, i64 8, i1 false)
  br label %107

107:                                              ; preds = %72, %39
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #3

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.Vec2 @_ZL3add4Vec2S_(ptr noundef byval(%struct.Vec2) align 4 %0, ptr noundef byval(%struct.Vec2) align 4 %1) #4 {
  %3 = alloca %struct.Vec2, align 4
  %4 = getelementptr inbounds %struct.Vec2, ptr %3, i32 0, i32 0
  %5 = getelementptr inbounds %struct.Vec2, ptr %0, i32 0, i32 0
  %6 = load float, ptr %5, align 4
  %7 = getelementptr inbounds %struct.Vec2, ptr %1, i32 0, i32 0
  %8 = load float, ptr %7, align 4
  %9 = fadd contract float %6, %8
  store float %9, ptr %4, align 4
  %10 = getelementptr inbounds %struct.Vec2, ptr %3, i32 0, i32 1
  %11 = getelementptr inbounds %struct.Vec2, ptr %0, i32 0, i32 1
  %12 = load float, ptr %11, align 4
  %13 = getelementptr inbounds %struct.Vec2, ptr %1, i32 0, i32 1
  %14 = load float, ptr %13, align 4
  %15 = fadd contract float %12, %14
  store float %15, ptr %10, align 4
  %16 = load %struct.Vec2, ptr %3, align 4
  ret %struct.Vec2 %16
}

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.Vec2 @_ZL5scale4Vec2f(ptr noundef byval(%struct.Vec2) align 4 %0, float noundef %1) #4 {
  %3 = alloca %struct.Vec2, align 4
  %4 = alloca float, align 4
  store float %1, ptr %4, align 4
  %5 = getelementptr inbounds %struct.Vec2, ptr %3, i32 0, i32 0
  %6 = getelementptr inbounds %struct.Vec2, ptr %0, i32 0, i32 0
  %7 = load float, ptr %6, align 4
  %8 = load float, ptr %4, align 4
  %9 = fmul contract float %7, %8
  store float %9, ptr %5, align 4
  %10 = getelementptr inbounds %struct.Vec2, ptr %3, i32 0, i32 1
  %11 = getelementptr inbounds %struct.Vec2, ptr %0, i32 0, i32 1
  %12 = load float, ptr %11, align 4
  %13 = load float, ptr %4, align 4
  %14 = fmul contract float %12, %13
  store float %14, ptr %10, align 4
  %15 = load %struct.Vec2, ptr %3, align 4
  ret %struct.Vec2 %15
}

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.Vec2 @_ZL3sub4Vec2S_(ptr noundef byval(%struct.Vec2) align 4 %0, ptr noundef byval(%struct.Vec2) align 4 %1) #4 {
  %3 = alloca %struct.Vec2, align 4
  %4 = getelementptr inbounds %struct.Vec2, ptr %3, i32 0, i32 0
  %5 = getelementptr inbounds %struct.Vec2, ptr %0, i32 0, i32 0
  %6 = load float, ptr %5, align 4
  %7 = getelementptr inbounds %struct.Vec2, ptr %1, i32 0, i32 0
  %8 = load float, ptr %7, align 4
  %9 = fsub contract float %6, %8
  store float %9, ptr %4, align 4
  %10 = getelementptr inbounds %struct.Vec2, ptr %3, i32 0, i32 1
  %11 = getelementptr inbounds %struct.Vec2, ptr %0, i32 0, i32 1
  %12 = load float, ptr %11, align 4
  %13 = getelementptr inbounds %struct.Vec2, ptr %1, i32 0, i32 1
  %14 = load float, ptr %13, align 4
  %15 = fsub contract float %12, %14
  store float %15, ptr %10, align 4
  %16 = load %struct.Vec2, ptr %3, align 4
  ret %struct.Vec2 %16
}

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { convergent mustprogress  nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #5 = { convergent nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @particles, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
