; ModuleID = '<stdin>'
source_filename = "seedret.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.params_t = type { i32, i32, i8 }
%struct.view_t = type { double*, i64 }

@__const.parse.p = private unnamed_addr constant %struct.params_t { i32 32, i32 10, i8 0 }, align 4

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main(i32 noundef %0, i8** noundef %1) #0 {
  %3 = alloca %struct.params_t, align 4
  %4 = alloca { i64, i8 }, align 8
  %5 = alloca %struct.view_t, align 8
  %6 = alloca %struct.view_t, align 8
  %7 = alloca [4 x i32], align 16
  %8 = alloca [4 x i32], align 16
  %9 = call { i64, i8 } @parse(i32 noundef %0, i8** noundef %1)
  store { i64, i8 } %9, { i64, i8 }* %4, align 8
  %10 = bitcast %struct.params_t* %3 to i8*
  %11 = bitcast { i64, i8 }* %4 to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 %10, i8* align 8 %11, i64 12, i1 false)
  %12 = getelementptr inbounds %struct.params_t, %struct.params_t* %3, i32 0, i32 0
  %13 = load i32, i32* %12, align 4
  %14 = sext i32 %13 to i64
  %15 = call { double*, i64 } @make(i64 noundef %14)
  %16 = bitcast %struct.view_t* %5 to { double*, i64 }*
  %17 = getelementptr inbounds { double*, i64 }, { double*, i64 }* %16, i32 0, i32 0
  %18 = extractvalue { double*, i64 } %15, 0
  store double* %18, double** %17, align 8
  %19 = getelementptr inbounds { double*, i64 }, { double*, i64 }* %16, i32 0, i32 1
  %20 = extractvalue { double*, i64 } %15, 1
  store i64 %20, i64* %19, align 8
  %21 = bitcast %struct.view_t* %6 to i8*
  %22 = bitcast %struct.view_t* %5 to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %21, i8* align 8 %22, i64 16, i1 false)
  %23 = getelementptr inbounds [4 x i32], [4 x i32]* %7, i64 0, i64 1
  call void @put(i32* noundef %23, i32 noundef 3)
  %24 = getelementptr inbounds [4 x i32], [4 x i32]* %8, i64 0, i64 0
  %25 = bitcast i32* %24 to i8*
  %26 = getelementptr inbounds [4 x i32], [4 x i32]* %7, i64 0, i64 0
  %27 = bitcast i32* %26 to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 16 %25, i8* align 16 %27, i64 16, i1 false)
  br label %28

28:                                               ; preds = %37, %2
  %.01 = phi double [ 0.000000e+00, %2 ], [ %36, %37 ]
  %.0 = phi i64 [ 0, %2 ], [ %38, %37 ]
  %29 = call i64 @len(%struct.view_t* noundef %6)
  %30 = icmp slt i64 %.0, %29
  br i1 %30, label %31, label %39

31:                                               ; preds = %28
  %32 = getelementptr inbounds %struct.view_t, %struct.view_t* %5, i32 0, i32 0
  %33 = load double*, double** %32, align 8
  %34 = getelementptr inbounds double, double* %33, i64 %.0
  %35 = load double, double* %34, align 8
  %36 = fadd double %.01, %35
  br label %37

37:                                               ; preds = %31
  %38 = add nsw i64 %.0, 1
  br label %28, !llvm.loop !6

39:                                               ; preds = %28
  %40 = getelementptr inbounds %struct.params_t, %struct.params_t* %3, i32 0, i32 2
  %41 = load i8, i8* %40, align 4
  %42 = icmp ne i8 %41, 0
  br i1 %42, label %43, label %48

43:                                               ; preds = %39
  %44 = getelementptr inbounds [4 x i32], [4 x i32]* %8, i64 0, i64 1
  %45 = load i32, i32* %44, align 4
  %46 = sitofp i32 %45 to double
  %47 = fadd double %.01, %46
  br label %48

48:                                               ; preds = %43, %39
  %.1 = phi double [ %47, %43 ], [ %.01, %39 ]
  %49 = fptosi double %.1 to i32
  ret i32 %49
}

; Function Attrs: noinline nounwind uwtable
define internal { i64, i8 } @parse(i32 noundef %0, i8** noundef %1) #0 {
  %3 = alloca %struct.params_t, align 4
  %4 = alloca { i64, i8 }, align 8
  %5 = bitcast %struct.params_t* %3 to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 %5, i8* align 4 bitcast (%struct.params_t* @__const.parse.p to i8*), i64 12, i1 false)
  %6 = icmp sgt i32 %0, 1
  br i1 %6, label %7, label %12

7:                                                ; preds = %2
  %8 = getelementptr inbounds i8*, i8** %1, i64 1
  %9 = load i8*, i8** %8, align 8
  %10 = call i32 @atoi(i8* noundef %9) #4
  %11 = getelementptr inbounds %struct.params_t, %struct.params_t* %3, i32 0, i32 0
  store i32 %10, i32* %11, align 4
  br label %12

12:                                               ; preds = %7, %2
  %13 = icmp sgt i32 %0, 3
  %14 = zext i1 %13 to i32
  %15 = trunc i32 %14 to i8
  %16 = getelementptr inbounds %struct.params_t, %struct.params_t* %3, i32 0, i32 2
  store i8 %15, i8* %16, align 4
  %17 = bitcast { i64, i8 }* %4 to i8*
  %18 = bitcast %struct.params_t* %3 to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %17, i8* align 4 %18, i64 12, i1 false)
  %19 = load { i64, i8 }, { i64, i8 }* %4, align 8
  ret { i64, i8 } %19
}

; Function Attrs: argmemonly nofree nounwind willreturn
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: noinline nounwind uwtable
define internal { double*, i64 } @make(i64 noundef %0) #0 {
  %2 = alloca %struct.view_t, align 8
  %3 = mul i64 %0, 8
  %4 = call noalias i8* @malloc(i64 noundef %3) #5
  %5 = bitcast i8* %4 to double*
  %6 = getelementptr inbounds %struct.view_t, %struct.view_t* %2, i32 0, i32 0
  store double* %5, double** %6, align 8
  %7 = getelementptr inbounds %struct.view_t, %struct.view_t* %2, i32 0, i32 1
  store i64 %0, i64* %7, align 8
  %8 = bitcast %struct.view_t* %2 to { double*, i64 }*
  %9 = load { double*, i64 }, { double*, i64 }* %8, align 8
  ret { double*, i64 } %9
}

; Function Attrs: noinline nounwind uwtable
define internal void @put(i32* noundef %0, i32 noundef %1) #0 {
  store i32 %1, i32* %0, align 4
  ret void
}

; Function Attrs: noinline nounwind uwtable
define internal i64 @len(%struct.view_t* noundef %0) #0 {
  %2 = getelementptr inbounds %struct.view_t, %struct.view_t* %0, i32 0, i32 1
  %3 = load i64, i64* %2, align 8
  ret i64 %3
}

; Function Attrs: nounwind readonly willreturn
declare i32 @atoi(i8* noundef) #2

; Function Attrs: nounwind
declare noalias i8* @malloc(i64 noundef) #3

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { argmemonly nofree nounwind willreturn }
attributes #2 = { nounwind readonly willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind readonly willreturn }
attributes #5 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 14.0.6"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
