; ModuleID = 'cuda/transpose.cu'
source_filename = "cuda/transpose.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ9transposeE4tile = internal addrspace(3) global [8 x [9 x float]] undef, align 4

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @transpose(ptr noundef %0, ptr noundef %1, i32 noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i32 %2, ptr %7, align 4
  store i32 %3, ptr %8, align 4
  %11 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %12 = mul nsw i32 %11, 8
  %13 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %14 = add nsw i32 %12, %13
  store i32 %14, ptr %9, align 4
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %16 = mul nsw i32 %15, 8
  %17 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %18 = add nsw i32 %16, %17
  store i32 %18, ptr %10, align 4
  %19 = load i32, ptr %9, align 4
  %20 = load i32, ptr %7, align 4
  %21 = icmp slt i32 %19, %20
  br i1 %21, label %22, label %42

22:                                               ; preds = %4
  %23 = load i32, ptr %10, align 4
  %24 = load i32, ptr %8, align 4
  %25 = icmp slt i32 %23, %24
  br i1 %25, label %26, label %42

26:                                               ; preds = %22
  %27 = load ptr, ptr %5, align 8
  %28 = load i32, ptr %10, align 4
  %29 = load i32, ptr %7, align 4
  %30 = mul nsw i32 %28, %29
  %31 = load i32, ptr %9, align 4
  %32 = add nsw i32 %30, %31
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds float, ptr %27, i64 %33
  %35 = load float, ptr %34, align 4
  %36 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %37 = sext i32 %36 to i64
  %38 = getelementptr inbounds [8 x [9 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %37
  %39 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds [9 x float], ptr %38, i64 0, i64 %40
  store float %35, ptr %41, align 4
  br label %42

42:                                               ; preds = %26, %22, %4
  call void @llvm.nvvm.barrier0()
  %43 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %44 = mul nsw i32 %43, 8
  %45 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %46 = add nsw i32 %44, %45
  store i32 %46, ptr %9, align 4
  %47 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %48 = mul nsw i32 %47, 8
  %49 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %50 = add nsw i32 %48, %49
  store i32 %50, ptr %10, align 4
  %51 = load i32, ptr %9, align 4
  %52 = load i32, ptr %8, align 4
  %53 = icmp slt i32 %51, %52
  br i1 %53, label %54, label %74

54:                                               ; preds = %42
  %55 = load i32, ptr %10, align 4
  %56 = load i32, ptr %7, align 4
  %57 = icmp slt i32 %55, %56
  br i1 %57, label %58, label %74

58:                                               ; preds = %54
  %59 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds [8 x [9 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %60
  %62 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %63 = sext i32 %62 to i64
  %64 = getelementptr inbounds [9 x float], ptr %61, i64 0, i64 %63
  %65 = load float, ptr %64, align 4
  %66 = load ptr, ptr %6, align 8
  %67 = load i32, ptr %10, align 4
  %68 = load i32, ptr %8, align 4
  %69 = mul nsw i32 %67, %68
  %70 = load i32, ptr %9, align 4
  %71 = add nsw i32 %69, %70
  %72 = sext i32 %71 to i64
  %73 = getelementptr inbounds float, ptr %66, i64 %72
  store float %65, ptr %73, align 4
  br label %74

74:                                               ; preds = %58, %54, %42
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

attributes #0 = { convergent mustprogress  norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @transpose, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
