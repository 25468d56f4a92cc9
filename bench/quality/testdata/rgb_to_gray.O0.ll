; ModuleID = 'cuda/rgb_to_gray.cu'
source_filename = "cuda/rgb_to_gray.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress  norecurse nounwind
define dso_local void @rgb_to_gray(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %13 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %14 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %15 = mul nsw i32 %13, %14
  %16 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %17 = add nsw i32 %15, %16
  store i32 %17, ptr %7, align 4
  %18 = load i32, ptr %7, align 4
  %19 = load i32, ptr %6, align 4
  %20 = icmp sge i32 %18, %19
  br i1 %20, label %21, label %22

21:                                               ; preds = %3
  br label %57

22:                                               ; preds = %3
  %23 = load ptr, ptr %4, align 8
  %24 = load i32, ptr %7, align 4
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds i32, ptr %23, i64 %25
  %27 = load i32, ptr %26, align 4
  store i32 %27, ptr %8, align 4
  %28 = load i32, ptr %8, align 4
  %29 = and i32 %28, 255
  store i32 %29, ptr %9, align 4
  %30 = load i32, ptr %8, align 4
  %31 = lshr i32 %30, 8
  %32 = and i32 %31, 255
  store i32 %32, ptr %10, align 4
  %33 = load i32, ptr %8, align 4
  %34 = lshr i32 %33, 16
  %35 = and i32 %34, 255
  store i32 %35, ptr %11, align 4
  %36 = load i32, ptr %9, align 4
  %37 = mul i32 77, %36
  %38 = load i32, ptr %10, align 4
  %39 = mul i32 150, %38
  %40 = add i32 %37, %39
  %41 = load i32, ptr %11, align 4
  %42 = mul i32 29, %41
  %43 = add i32 %40, %42
  %44 = lshr i32 %43, 8
  store i32 %44, ptr %12, align 4
  %45 = load i32, ptr %12, align 4
  %46 = icmp ugt i32 %45, 255
  br i1 %46, label %47, label %48

47:                                               ; preds = %22
  br label %50

48:                                               ; preds = %22
  %49 = load i32, ptr %12, align 4
  br label %50

50:                                               ; preds = %48, %47
  %51 = phi i32 [ 255, %47 ], [ %49, %48 ]
  %52 = trunc i32 %51 to i8
  %53 = load ptr, ptr %5, align 8
  %54 = load i32, ptr %7, align 4
  %55 = sext i32 %54 to i64
  %56 = getelementptr inbounds i8, ptr %53, i64 %55
  store i8 %52, ptr %56, align 1
  br label %57

57:                                               ; preds = %50, %21
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

!0 = !{ptr @rgb_to_gray, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
