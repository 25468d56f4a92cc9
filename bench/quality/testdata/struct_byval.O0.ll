; ModuleID = 'cuda/struct_byval.cu'
source_filename = "cuda/struct_byval.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Particle = type { float, float, float, float, i32 }

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @struct_byval(ptr noundef %0, float noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca float, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca %struct.Particle, align 4
  %9 = alloca %struct.Particle, align 4
  store ptr %0, ptr %4, align 8
  store float %1, ptr %5, align 4
  store i32 %2, ptr %6, align 4
  %10 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %11 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %12 = mul nsw i32 %10, %11
  %13 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %14 = add nsw i32 %12, %13
  store i32 %14, ptr %7, align 4
  %15 = load i32, ptr %7, align 4
  %16 = load i32, ptr %6, align 4
  %17 = icmp slt i32 %15, %16
  br i1 %17, label %18, label %39

18:                                               ; preds = %3
  %19 = load ptr, ptr %4, align 8
  %20 = load i32, ptr %7, align 4
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds %struct.Particle, ptr %19, i64 %21
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %22, i64 20, i1 false)
  %23 = load float, ptr %5, align 4
  %24 = call %struct.Particle @_ZL4step8Particleff(ptr noundef byval(%struct.Particle) align 4 %9, float noundef %23, float noundef 0x40239EB860000000) #4
  %25 = getelementptr inbounds %struct.Particle, ptr %8, i32 0, i32 0
  %26 = extractvalue %struct.Particle %24, 0
  store float %26, ptr %25, align 4
  %27 = getelementptr inbounds %struct.Particle, ptr %8, i32 0, i32 1
  %28 = extractvalue %struct.Particle %24, 1
  store float %28, ptr %27, align 4
  %29 = getelementptr inbounds %struct.Particle, ptr %8, i32 0, i32 2
  %30 = extractvalue %struct.Particle %24, 2
  store float %30, ptr %29, align 4
  %31 = getelementptr inbounds %struct.Particle, ptr %8, i32 0, i32 3
  %32 = extractvalue %struct.Particle %24, 3
  store float %32, ptr %31, align 4
  %33 = getelementptr inbounds %struct.Particle, ptr %8, i32 0, i32 4
  %34 = extractvalue %struct.Particle %24, 4
  store i32 %34, ptr %33, align 4
  %35 = load ptr, ptr %4, align 8
  %36 = load i32, ptr %7, align 4
  %37 = sext i32 %36 to i64
  %38 = getelementptr inbounds %struct.Particle, ptr %35, i64 %37
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %38, ptr align 4 %8, i64 20, i1 false)
  br label %39

39:                                               ; preds = %18, %3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent mustprogress  nounwind
define internal %struct.Particle @_ZL4step8Particleff(ptr noundef byval(%struct.Particle) align 4 %0, float noundef %1, float noundef %2) #2 {
  %4 = alloca %struct.Particle, align 4
  %5 = alloca float, align 4
  %6 = alloca float, align 4
  store float %1, ptr %5, align 4
  store float %2, ptr %6, align 4
  %7 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 4
  %8 = load i32, ptr %7, align 4
  %9 = icmp ne i32 %8, 0
  br i1 %9, label %10, label %38

10:                                               ; preds = %3
  %11 = load float, ptr %6, align 4
  %12 = load float, ptr %5, align 4
  %13 = fmul contract float %11, %12
  %14 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 3
  %15 = load float, ptr %14, align 4
  %16 = fsub contract float %15, %13
  store float %16, ptr %14, align 4
  %17 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 2
  %18 = load float, ptr %17, align 4
  %19 = load float, ptr %5, align 4
  %20 = fmul contract float %18, %19
  %21 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 0
  %22 = load float, ptr %21, align 4
  %23 = fadd contract float %22, %20
  store float %23, ptr %21, align 4
  %24 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 3
  %25 = load float, ptr %24, align 4
  %26 = load float, ptr %5, align 4
  %27 = fmul contract float %25, %26
  %28 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 1
  %29 = load float, ptr %28, align 4
  %30 = fadd contract float %29, %27
  store float %30, ptr %28, align 4
  %31 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 1
  %32 = load float, ptr %31, align 4
  %33 = fcmp contract olt float %32, 0.000000e+00
  br i1 %33, label %34, label %37

34:                                               ; preds = %10
  %35 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 1
  store float 0.000000e+00, ptr %35, align 4
  %36 = getelementptr inbounds %struct.Particle, ptr %0, i32 0, i32 4
  store i32 0, ptr %36, align 4
  br label %37

37:                                               ; preds = %34, %10
  br label %38

38:                                               ; preds = %37, %3
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %4, ptr align 4 %0, i64 20, i1 false)
  %39 = load %struct.Particle, ptr %4, align 4
  ret %struct.Particle %39
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

!0 = !{ptr @struct_byval, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
