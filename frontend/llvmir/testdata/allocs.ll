; ModuleID = 'allocs.ll'
source_filename = "allocs.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main(i32 noundef %argc, i8** noundef %argv) #0 !dbg !14 {
entry:
  %d = alloca double*, align 8
  call void @llvm.dbg.value(metadata i32 %argc, metadata !21, metadata !DIExpression()), !dbg !22
  call void @llvm.dbg.value(metadata i8** %argv, metadata !23, metadata !DIExpression()), !dbg !22
  %cmp = icmp sgt i32 %argc, 1, !dbg !24
  br i1 %cmp, label %cond.true, label %cond.false, !dbg !25

cond.true:                                        ; preds = %entry
  %arrayidx = getelementptr inbounds i8*, i8** %argv, i64 1, !dbg !26
  %0 = load i8*, i8** %arrayidx, align 8, !dbg !26
  %call = call i64 @atol(i8* noundef %0) #5, !dbg !27
  br label %cond.end, !dbg !25

cond.false:                                       ; preds = %entry
  br label %cond.end, !dbg !25

cond.end:                                         ; preds = %cond.false, %cond.true
  %cond = phi i64 [ %call, %cond.true ], [ 100, %cond.false ], !dbg !25
  call void @llvm.dbg.value(metadata i64 %cond, metadata !28, metadata !DIExpression()), !dbg !22
  %mul = mul i64 %cond, 4, !dbg !30
  %call1 = call noalias i8* @malloc(i64 noundef %mul) #6, !dbg !31
  %1 = bitcast i8* %call1 to i32*, !dbg !31
  call void @llvm.dbg.value(metadata i32* %1, metadata !32, metadata !DIExpression()), !dbg !22
  %call2 = call noalias i8* @calloc(i64 noundef %cond, i64 noundef 4) #6, !dbg !34
  %2 = bitcast i8* %call2 to i32*, !dbg !34
  call void @llvm.dbg.value(metadata i32* %2, metadata !35, metadata !DIExpression()), !dbg !22
  %mul3 = mul i64 %cond, 8, !dbg !36
  %add = add i64 %mul3, 63, !dbg !37
  %div = udiv i64 %add, 64, !dbg !38
  %mul4 = mul i64 64, %div, !dbg !39
  %call5 = call noalias align 64 i8* @aligned_alloc(i64 noundef 64, i64 noundef %mul4) #6, !dbg !40
  %3 = bitcast i8* %call5 to double*, !dbg !40
  call void @llvm.dbg.value(metadata double* %3, metadata !41, metadata !DIExpression()), !dbg !22
  call void @llvm.dbg.declare(metadata double** %d, metadata !44, metadata !DIExpression()), !dbg !45
  %4 = bitcast double** %d to i8**, !dbg !46
  %mul6 = mul i64 %cond, 8, !dbg !48
  %call7 = call i32 @posix_memalign(i8** noundef %4, i64 noundef 64, i64 noundef %mul6) #6, !dbg !49
  %cmp8 = icmp ne i32 %call7, 0, !dbg !50
  br i1 %cmp8, label %if.then, label %if.end, !dbg !51

if.then:                                          ; preds = %cond.end
  br label %return, !dbg !52

if.end:                                           ; preds = %cond.end
  %5 = call i8* @llvm.stacksave(), !dbg !53
  %vla = alloca i32, i64 %cond, align 16, !dbg !53
  call void @llvm.dbg.value(metadata i64 %cond, metadata !54, metadata !DIExpression()), !dbg !22
  call void @llvm.dbg.declare(metadata i32* %vla, metadata !56, metadata !DIExpression()), !dbg !60
  call void @llvm.dbg.value(metadata i64 0, metadata !61, metadata !DIExpression()), !dbg !63
  br label %for.cond, !dbg !64

for.cond:                                         ; preds = %for.inc, %if.end
  %i.0 = phi i64 [ 0, %if.end ], [ %inc, %for.inc ], !dbg !63
  call void @llvm.dbg.value(metadata i64 %i.0, metadata !61, metadata !DIExpression()), !dbg !63
  %cmp9 = icmp slt i64 %i.0, %cond, !dbg !65
  br i1 %cmp9, label %for.body, label %for.end, !dbg !67

for.body:                                         ; preds = %for.cond
  %rem = srem i64 %i.0, 7, !dbg !68
  %conv = trunc i64 %rem to i32, !dbg !70
  %arrayidx10 = getelementptr inbounds i32, i32* %1, i64 %i.0, !dbg !71
  store i32 %conv, i32* %arrayidx10, align 4, !dbg !72
  %conv11 = sitofp i64 %i.0 to double, !dbg !73
  %mul12 = fmul double 5.000000e-01, %conv11, !dbg !74
  %arrayidx13 = getelementptr inbounds double, double* %3, i64 %i.0, !dbg !75
  store double %mul12, double* %arrayidx13, align 8, !dbg !76
  %arrayidx14 = getelementptr inbounds double, double* %3, i64 %i.0, !dbg !77
  %6 = load double, double* %arrayidx14, align 8, !dbg !77
  %arrayidx15 = getelementptr inbounds i32, i32* %2, i64 %i.0, !dbg !78
  %7 = load i32, i32* %arrayidx15, align 4, !dbg !78
  %conv16 = sitofp i32 %7 to double, !dbg !78
  %add17 = fadd double %6, %conv16, !dbg !79
  %8 = load double*, double** %d, align 8, !dbg !80
  %arrayidx18 = getelementptr inbounds double, double* %8, i64 %i.0, !dbg !80
  store double %add17, double* %arrayidx18, align 8, !dbg !81
  %arrayidx19 = getelementptr inbounds i32, i32* %1, i64 %i.0, !dbg !82
  %9 = load i32, i32* %arrayidx19, align 4, !dbg !82
  %add20 = add nsw i32 %9, 1, !dbg !83
  %arrayidx21 = getelementptr inbounds i32, i32* %vla, i64 %i.0, !dbg !84
  store i32 %add20, i32* %arrayidx21, align 4, !dbg !85
  br label %for.inc, !dbg !86

for.inc:                                          ; preds = %for.body
  %inc = add nsw i64 %i.0, 1, !dbg !87
  call void @llvm.dbg.value(metadata i64 %inc, metadata !61, metadata !DIExpression()), !dbg !63
  br label %for.cond, !dbg !88, !llvm.loop !89

for.end:                                          ; preds = %for.cond
  call void @llvm.dbg.value(metadata i64 0, metadata !92, metadata !DIExpression()), !dbg !22
  call void @llvm.dbg.value(metadata i64 0, metadata !93, metadata !DIExpression()), !dbg !95
  br label %for.cond23, !dbg !96

for.cond23:                                       ; preds = %for.inc37, %for.end
  %s.0 = phi i64 [ 0, %for.end ], [ %s.1, %for.inc37 ], !dbg !97
  %i22.0 = phi i64 [ 0, %for.end ], [ %inc38, %for.inc37 ], !dbg !95
  call void @llvm.dbg.value(metadata i64 %i22.0, metadata !93, metadata !DIExpression()), !dbg !95
  call void @llvm.dbg.value(metadata i64 %s.0, metadata !92, metadata !DIExpression()), !dbg !22
  %cmp24 = icmp slt i64 %i22.0, %cond, !dbg !98
  br i1 %cmp24, label %for.body26, label %for.end39, !dbg !100

for.body26:                                       ; preds = %for.cond23
  call void @llvm.dbg.value(metadata i32 0, metadata !101, metadata !DIExpression()), !dbg !103
  br label %for.cond27, !dbg !104

for.cond27:                                       ; preds = %for.inc34, %for.body26
  %s.1 = phi i64 [ %s.0, %for.body26 ], [ %add33, %for.inc34 ], !dbg !22
  %j.0 = phi i32 [ 0, %for.body26 ], [ %inc35, %for.inc34 ], !dbg !103
  call void @llvm.dbg.value(metadata i32 %j.0, metadata !101, metadata !DIExpression()), !dbg !103
  call void @llvm.dbg.value(metadata i64 %s.1, metadata !92, metadata !DIExpression()), !dbg !22
  %arrayidx28 = getelementptr inbounds i32, i32* %vla, i64 %i22.0, !dbg !105
  %10 = load i32, i32* %arrayidx28, align 4, !dbg !105
  %cmp29 = icmp slt i32 %j.0, %10, !dbg !107
  br i1 %cmp29, label %for.body31, label %for.end36, !dbg !108

for.body31:                                       ; preds = %for.cond27
  %conv32 = sext i32 %j.0 to i64, !dbg !109
  %add33 = add nsw i64 %s.1, %conv32, !dbg !110
  call void @llvm.dbg.value(metadata i64 %add33, metadata !92, metadata !DIExpression()), !dbg !22
  br label %for.inc34, !dbg !111

for.inc34:                                        ; preds = %for.body31
  %inc35 = add nsw i32 %j.0, 1, !dbg !112
  call void @llvm.dbg.value(metadata i32 %inc35, metadata !101, metadata !DIExpression()), !dbg !103
  br label %for.cond27, !dbg !113, !llvm.loop !114

for.end36:                                        ; preds = %for.cond27
  br label %for.inc37, !dbg !115

for.inc37:                                        ; preds = %for.end36
  %inc38 = add nsw i64 %i22.0, 1, !dbg !116
  call void @llvm.dbg.value(metadata i64 %inc38, metadata !93, metadata !DIExpression()), !dbg !95
  br label %for.cond23, !dbg !117, !llvm.loop !118

for.end39:                                        ; preds = %for.cond23
  %11 = bitcast i32* %1 to i8*, !dbg !120
  call void @free(i8* noundef %11) #6, !dbg !121
  %12 = bitcast i32* %2 to i8*, !dbg !122
  call void @free(i8* noundef %12) #6, !dbg !123
  %13 = bitcast double* %3 to i8*, !dbg !124
  call void @free(i8* noundef %13) #6, !dbg !125
  %14 = load double*, double** %d, align 8, !dbg !126
  %15 = bitcast double* %14 to i8*, !dbg !126
  call void @free(i8* noundef %15) #6, !dbg !127
  %rem40 = srem i64 %s.0, 2, !dbg !128
  %conv41 = trunc i64 %rem40 to i32, !dbg !129
  call void @llvm.stackrestore(i8* %5), !dbg !130
  br label %return

return:                                           ; preds = %for.end39, %if.then
  %retval.0 = phi i32 [ 1, %if.then ], [ %conv41, %for.end39 ], !dbg !22
  ret i32 %retval.0, !dbg !130
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: nounwind readonly willreturn
declare i64 @atol(i8* noundef) #2

; Function Attrs: nounwind
declare noalias i8* @malloc(i64 noundef) #3

; Function Attrs: nounwind
declare noalias i8* @calloc(i64 noundef, i64 noundef) #3

; Function Attrs: nounwind
declare noalias i8* @aligned_alloc(i64 noundef, i64 noundef) #3

; Function Attrs: nounwind
declare i32 @posix_memalign(i8** noundef, i64 noundef, i64 noundef) #3

; Function Attrs: nofree nosync nounwind willreturn
declare i8* @llvm.stacksave() #4

; Function Attrs: nounwind
declare void @free(i8* noundef) #3

; Function Attrs: nofree nosync nounwind willreturn
declare void @llvm.stackrestore(i8*) #4

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { nounwind readonly willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nofree nosync nounwind willreturn }
attributes #5 = { nounwind readonly willreturn }
attributes #6 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.ident = !{!6}
!llvm.module.flags = !{!7, !8, !9, !10, !11, !12, !13}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "testdata/allocs.c", directory: ".", checksumkind: CSK_MD5, checksum: "d0432b59d690ee6304f96228d9aa135d")
!2 = !{!3, !5}
!3 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !4, size: 64)
!4 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!6 = !{!"Debian clang version 14.0.6"}
!7 = !{i32 7, !"Dwarf Version", i32 5}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 1, !"wchar_size", i32 4}
!10 = !{i32 7, !"PIC Level", i32 2}
!11 = !{i32 7, !"PIE Level", i32 2}
!12 = !{i32 7, !"uwtable", i32 1}
!13 = !{i32 7, !"frame-pointer", i32 2}
!14 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 6, type: !15, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !20)
!15 = !DISubroutineType(types: !16)
!16 = !{!5, !5, !17}
!17 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64)
!18 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !19, size: 64)
!19 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!20 = !{}
!21 = !DILocalVariable(name: "argc", arg: 1, scope: !14, file: !1, line: 6, type: !5)
!22 = !DILocation(line: 0, scope: !14)
!23 = !DILocalVariable(name: "argv", arg: 2, scope: !14, file: !1, line: 6, type: !17)
!24 = !DILocation(line: 8, column: 16, scope: !14)
!25 = !DILocation(line: 8, column: 11, scope: !14)
!26 = !DILocation(line: 8, column: 27, scope: !14)
!27 = !DILocation(line: 8, column: 22, scope: !14)
!28 = !DILocalVariable(name: "n", scope: !14, file: !1, line: 8, type: !29)
!29 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!30 = !DILocation(line: 9, column: 20, scope: !14)
!31 = !DILocation(line: 9, column: 11, scope: !14)
!32 = !DILocalVariable(name: "a", scope: !14, file: !1, line: 9, type: !33)
!33 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !5, size: 64)
!34 = !DILocation(line: 10, column: 11, scope: !14)
!35 = !DILocalVariable(name: "b", scope: !14, file: !1, line: 10, type: !33)
!36 = !DILocation(line: 11, column: 41, scope: !14)
!37 = !DILocation(line: 11, column: 58, scope: !14)
!38 = !DILocation(line: 11, column: 64, scope: !14)
!39 = !DILocation(line: 11, column: 35, scope: !14)
!40 = !DILocation(line: 11, column: 14, scope: !14)
!41 = !DILocalVariable(name: "c", scope: !14, file: !1, line: 11, type: !42)
!42 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !43, size: 64)
!43 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!44 = !DILocalVariable(name: "d", scope: !14, file: !1, line: 12, type: !42)
!45 = !DILocation(line: 12, column: 10, scope: !14)
!46 = !DILocation(line: 13, column: 21, scope: !47)
!47 = distinct !DILexicalBlock(scope: !14, file: !1, line: 13, column: 6)
!48 = !DILocation(line: 13, column: 40, scope: !47)
!49 = !DILocation(line: 13, column: 6, scope: !47)
!50 = !DILocation(line: 13, column: 58, scope: !47)
!51 = !DILocation(line: 13, column: 6, scope: !14)
!52 = !DILocation(line: 14, column: 3, scope: !47)
!53 = !DILocation(line: 15, column: 2, scope: !14)
!54 = !DILocalVariable(name: "__vla_expr0", scope: !14, type: !55, flags: DIFlagArtificial)
!55 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!56 = !DILocalVariable(name: "e", scope: !14, file: !1, line: 15, type: !57)
!57 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, elements: !58)
!58 = !{!59}
!59 = !DISubrange(count: !54)
!60 = !DILocation(line: 15, column: 6, scope: !14)
!61 = !DILocalVariable(name: "i", scope: !62, file: !1, line: 16, type: !29)
!62 = distinct !DILexicalBlock(scope: !14, file: !1, line: 16, column: 2)
!63 = !DILocation(line: 0, scope: !62)
!64 = !DILocation(line: 16, column: 7, scope: !62)
!65 = !DILocation(line: 16, column: 21, scope: !66)
!66 = distinct !DILexicalBlock(scope: !62, file: !1, line: 16, column: 2)
!67 = !DILocation(line: 16, column: 2, scope: !62)
!68 = !DILocation(line: 17, column: 12, scope: !69)
!69 = distinct !DILexicalBlock(scope: !66, file: !1, line: 16, column: 31)
!70 = !DILocation(line: 17, column: 10, scope: !69)
!71 = !DILocation(line: 17, column: 3, scope: !69)
!72 = !DILocation(line: 17, column: 8, scope: !69)
!73 = !DILocation(line: 18, column: 16, scope: !69)
!74 = !DILocation(line: 18, column: 14, scope: !69)
!75 = !DILocation(line: 18, column: 3, scope: !69)
!76 = !DILocation(line: 18, column: 8, scope: !69)
!77 = !DILocation(line: 19, column: 10, scope: !69)
!78 = !DILocation(line: 19, column: 17, scope: !69)
!79 = !DILocation(line: 19, column: 15, scope: !69)
!80 = !DILocation(line: 19, column: 3, scope: !69)
!81 = !DILocation(line: 19, column: 8, scope: !69)
!82 = !DILocation(line: 20, column: 10, scope: !69)
!83 = !DILocation(line: 20, column: 15, scope: !69)
!84 = !DILocation(line: 20, column: 3, scope: !69)
!85 = !DILocation(line: 20, column: 8, scope: !69)
!86 = !DILocation(line: 21, column: 2, scope: !69)
!87 = !DILocation(line: 16, column: 27, scope: !66)
!88 = !DILocation(line: 16, column: 2, scope: !66)
!89 = distinct !{!89, !67, !90, !91}
!90 = !DILocation(line: 21, column: 2, scope: !62)
!91 = !{!"llvm.loop.mustprogress"}
!92 = !DILocalVariable(name: "s", scope: !14, file: !1, line: 22, type: !29)
!93 = !DILocalVariable(name: "i", scope: !94, file: !1, line: 23, type: !29)
!94 = distinct !DILexicalBlock(scope: !14, file: !1, line: 23, column: 2)
!95 = !DILocation(line: 0, scope: !94)
!96 = !DILocation(line: 23, column: 7, scope: !94)
!97 = !DILocation(line: 22, column: 7, scope: !14)
!98 = !DILocation(line: 23, column: 21, scope: !99)
!99 = distinct !DILexicalBlock(scope: !94, file: !1, line: 23, column: 2)
!100 = !DILocation(line: 23, column: 2, scope: !94)
!101 = !DILocalVariable(name: "j", scope: !102, file: !1, line: 24, type: !5)
!102 = distinct !DILexicalBlock(scope: !99, file: !1, line: 24, column: 3)
!103 = !DILocation(line: 0, scope: !102)
!104 = !DILocation(line: 24, column: 8, scope: !102)
!105 = !DILocation(line: 24, column: 23, scope: !106)
!106 = distinct !DILexicalBlock(scope: !102, file: !1, line: 24, column: 3)
!107 = !DILocation(line: 24, column: 21, scope: !106)
!108 = !DILocation(line: 24, column: 3, scope: !102)
!109 = !DILocation(line: 25, column: 9, scope: !106)
!110 = !DILocation(line: 25, column: 6, scope: !106)
!111 = !DILocation(line: 25, column: 4, scope: !106)
!112 = !DILocation(line: 24, column: 30, scope: !106)
!113 = !DILocation(line: 24, column: 3, scope: !106)
!114 = distinct !{!114, !108, !115, !91}
!115 = !DILocation(line: 25, column: 9, scope: !102)
!116 = !DILocation(line: 23, column: 27, scope: !99)
!117 = !DILocation(line: 23, column: 2, scope: !99)
!118 = distinct !{!118, !100, !119, !91}
!119 = !DILocation(line: 25, column: 9, scope: !94)
!120 = !DILocation(line: 26, column: 7, scope: !14)
!121 = !DILocation(line: 26, column: 2, scope: !14)
!122 = !DILocation(line: 27, column: 7, scope: !14)
!123 = !DILocation(line: 27, column: 2, scope: !14)
!124 = !DILocation(line: 28, column: 7, scope: !14)
!125 = !DILocation(line: 28, column: 2, scope: !14)
!126 = !DILocation(line: 29, column: 7, scope: !14)
!127 = !DILocation(line: 29, column: 2, scope: !14)
!128 = !DILocation(line: 30, column: 17, scope: !14)
!129 = !DILocation(line: 30, column: 9, scope: !14)
!130 = !DILocation(line: 31, column: 1, scope: !14)
