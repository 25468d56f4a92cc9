; ModuleID = 'cuda/vec3_normalize.cu'
source_filename = "cuda/vec3_normalize.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.float3_ = type { float, float, float }

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @vec3_normalize(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca %struct.float3_, align 4
  %7 = alloca float, align 4
  %8 = alloca %struct.float3_, align 4
  %9 = alloca %struct.float3_, align 4
  %10 = alloca %struct.float3_, align 4
  %11 = alloca %struct.float3_, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %12 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %13 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %14 = mul nsw i32 %12, %13
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %16 = add nsw i32 %14, %15
  store i32 %16, ptr %5, align 4
  %17 = load i32, ptr %5, align 4
  %18 = load i32, ptr %4, align 4
  %19 = icmp sge i32 %17, %18
  br i1 %19, label %20, label %21

20:                                               ; preds = %2
  br label %44

21:                                               ; preds = %2
  %22 = load ptr, ptr %3, align 8
  %23 = load i32, ptr %5, align 4
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds %struct.float3_, ptr %22, i64 %24
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %6, ptr align 4 %25, i64 12, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %8, ptr align 4 %6, i64 12, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %6, i64 12, i1 false)
  %26 = call contract noundef float @_ZL4dot37float3_S_(ptr noundef byval(%struct.float3_) align 4 %8, ptr noundef byval(%struct.float3_) align 4 %9) #5
  store float %26, ptr %7, align 4
  %27 = load float, ptr %7, align 4
  %28 = fcmp contract ogt float %27, 0.000000e+00
  br i1 %28, label %29, label %44

29:                                               ; preds = %21
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %11, ptr align 4 %6, i64 12, i1 false)
  %30 = load float, ptr %7, align 4
  %31 = call contract noundef float @_ZL8sqrt_f32f(float noundef %30) #5
  %32 = fdiv contract float 1.000000e+00, %31
  %33 = call %struct.float3_ @_ZL4mul37float3_f(ptr noundef byval(%struct.float3_) align 4 %11, float noundef %32) #5
  %34 = getelementptr inbounds %struct.float3_, ptr %10, i32 0, i32 0
  %35 = extractvalue %struct.float3_ %33, 0
  store float %35, ptr %34, align 4
  %36 = getelementptr inbounds %struct.float3_, ptr %10, i32 0, i32 1
  %37 = extractvalue %struct.float3_ %33, 1
  store float %37, ptr %36, align 4
  %38 = getelementptr inbounds %struct.float3_, ptr %10, i32 0, i32 2
  %39 = extractvalue %struct.float3_ %33, 2
  store float %39, ptr %38, align 4
  %40 = load ptr, ptr %3, align 8
  %41 = load i32, ptr %5, align 4
  %42 = sext i32 %41 to i64
  %43 = getelementptr inbounds %struct.float3_, ptr %40, i64 %42
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %43, ptr align 4 %10, i64 12, i1 false)
  br label %44

44:                                               ; preds = %20, %29, %21
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

; Function Attrs: convergent mustprogress  nounwind
define internal noundef float @_ZL4dot37float3_S_(ptr noundef byval(%struct.float3_) align 4 %0, ptr noundef byval(%struct.float3_) align 4 %1) #3 {
  %3 = getelementptr inbounds %struct.float3_, ptr %0, i32 0, i32 0
  %4 = load float, ptr %3, align 4
  %5 = getelementptr inbounds %struct.float3_, ptr %1, i32 0, i32 0
  %6 = load float, ptr %5, align 4
  %7 = fmul contract float %4, %6
  %8 = getelementptr inbounds %struct.float3_, ptr %0, i32 0, i32 1
  %9 = load float, ptr %8, align 4
  %10 = getelementptr inbounds %struct.float3_, ptr %1, i32 0, i32 1
  %11 = load float, ptr %10, align 4
  %12 = fmul contract float %9, %11
  %13 = fadd contract float %7, %12
  %14 = getelementptr inbounds %struct.float3_, ptr %0, i32 0, i32 2
  %15 = load float, ptr %14, align 4
  %16 = getelementptr inbounds %struct.float3_, ptr %1, i32 0, i32 2
  %17 = load float, ptr %16, align 4
  %18 = fmul contract float %15, %17
  %19 = fadd contract float %13, %18
  ret float %19
}

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.float3_ @_ZL4mul37float3_f(ptr noundef byval(%struct.float3_) align 4 %0, float noundef %1) #3 {
  %3 = alloca %struct.float3_, align 4
  %4 = alloca float, align 4
  store float %1, ptr %4, align 4
  %5 = getelementptr inbounds %struct.float3_, ptr %3, i32 0, i32 0
  %6 = getelementptr inbounds %struct.float3_, ptr %0, i32 0, i32 0
  %7 = load float, ptr %6, align 4
  %8 = load float, ptr %4, align 4
  %9 = fmul contract float %7, %8
  store float %9, ptr %5, align 4
  %10 = getelementptr inbounds %struct.float3_, ptr %3, i32 0, i32 1
  %11 = getelementptr inbounds %struct.float3_, ptr %0, i32 0, i32 1
  %12 = load float, ptr %11, align 4
  %13 = load float, ptr %4, align 4
  %14 = fmul contract float %12, %13
  store float %14, ptr %10, align 4
  %15 = getelementptr inbounds %struct.float3_, ptr %3, i32 0, i32 2
  %16 = getelementptr inbounds %struct.float3_, ptr %0, i32 0, i32 2
  %17 = load float, ptr %16, align 4
  %18 = load float, ptr %4, align 4
  %19 = fmul contract float %17, %18
  store float %19, ptr %15, align 4
  %20 = load %struct.float3_, ptr %3, align 4
  ret %struct.float3_ %20
}

; Function Attrs: convergent mustprogress  nounwind
define internal noundef float @_ZL8sqrt_f32f(float noundef %0) #3 {
  %2 = alloca float, align 4
  store float %0, ptr %2, align 4
  %3 = load float, ptr %2, align 4
  %4 = call contract float @llvm.nvvm.sqrt.rn.f(float %3)
  ret float %4
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.sqrt.rn.f(float) #4

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { convergent mustprogress  nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(none) }
attributes #5 = { convergent nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @vec3_normalize, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
