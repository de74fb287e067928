; ModuleID = 'heap.ll'
source_filename = "heap.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.N = type { i32, i32, i32, %struct.N**, i8* }

@.str = private unnamed_addr constant [8 x i8] c"node.%d\00", align 1
@.str.1 = private unnamed_addr constant [5 x i8] c"node\00", align 1
@.str.2 = private unnamed_addr constant [2 x i8] c"x\00", align 1

; Function Attrs: noinline nounwind uwtable
define dso_local %struct.N* @mk(i32 noundef %id) #0 !dbg !10 {
entry:
  %nm = alloca [32 x i8], align 16
  call void @llvm.dbg.value(metadata i32 %id, metadata !28, metadata !DIExpression()), !dbg !29
  call void @llvm.dbg.declare(metadata [32 x i8]* %nm, metadata !30, metadata !DIExpression()), !dbg !34
  %call = call noalias i8* @malloc(i64 noundef 32) #4, !dbg !35
  %0 = bitcast i8* %call to %struct.N*, !dbg !35
  call void @llvm.dbg.value(metadata %struct.N* %0, metadata !36, metadata !DIExpression()), !dbg !29
  %arraydecay = getelementptr inbounds [32 x i8], [32 x i8]* %nm, i64 0, i64 0, !dbg !37
  %call1 = call i32 (i8*, i8*, ...) @sprintf(i8* noundef %arraydecay, i8* noundef getelementptr inbounds ([8 x i8], [8 x i8]* @.str, i64 0, i64 0), i32 noundef %id) #4, !dbg !38
  %arraydecay2 = getelementptr inbounds [32 x i8], [32 x i8]* %nm, i64 0, i64 0, !dbg !39
  %call3 = call noalias i8* @strdup(i8* noundef %arraydecay2) #4, !dbg !40
  %name = getelementptr inbounds %struct.N, %struct.N* %0, i32 0, i32 4, !dbg !41
  store i8* %call3, i8** %name, align 8, !dbg !42
  %id4 = getelementptr inbounds %struct.N, %struct.N* %0, i32 0, i32 0, !dbg !43
  store i32 %id, i32* %id4, align 8, !dbg !44
  %n = getelementptr inbounds %struct.N, %struct.N* %0, i32 0, i32 1, !dbg !45
  store i32 0, i32* %n, align 4, !dbg !46
  %max = getelementptr inbounds %struct.N, %struct.N* %0, i32 0, i32 2, !dbg !47
  store i32 2, i32* %max, align 8, !dbg !48
  %max5 = getelementptr inbounds %struct.N, %struct.N* %0, i32 0, i32 2, !dbg !49
  %1 = load i32, i32* %max5, align 8, !dbg !49
  %conv = sext i32 %1 to i64, !dbg !50
  %mul = mul i64 %conv, 8, !dbg !51
  %call6 = call noalias i8* @malloc(i64 noundef %mul) #4, !dbg !52
  %2 = bitcast i8* %call6 to %struct.N**, !dbg !52
  %next = getelementptr inbounds %struct.N, %struct.N* %0, i32 0, i32 3, !dbg !53
  store %struct.N** %2, %struct.N*** %next, align 8, !dbg !54
  ret %struct.N* %0, !dbg !55
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: nounwind
declare noalias i8* @malloc(i64 noundef) #2

; Function Attrs: nounwind
declare i32 @sprintf(i8* noundef, i8* noundef, ...) #2

; Function Attrs: nounwind
declare noalias i8* @strdup(i8* noundef) #2

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main(i32 noundef %argc, i8** noundef %argv) #0 !dbg !56 {
entry:
  call void @llvm.dbg.value(metadata i32 %argc, metadata !60, metadata !DIExpression()), !dbg !61
  call void @llvm.dbg.value(metadata i8** %argv, metadata !62, metadata !DIExpression()), !dbg !61
  %cmp = icmp sgt i32 %argc, 1, !dbg !63
  br i1 %cmp, label %cond.true, label %cond.false, !dbg !64

cond.true:                                        ; preds = %entry
  %arrayidx = getelementptr inbounds i8*, i8** %argv, i64 1, !dbg !65
  %0 = load i8*, i8** %arrayidx, align 8, !dbg !65
  %call = call i32 @atoi(i8* noundef %0) #5, !dbg !66
  br label %cond.end, !dbg !64

cond.false:                                       ; preds = %entry
  br label %cond.end, !dbg !64

cond.end:                                         ; preds = %cond.false, %cond.true
  %cond = phi i32 [ %call, %cond.true ], [ 4, %cond.false ], !dbg !64
  call void @llvm.dbg.value(metadata i32 %cond, metadata !67, metadata !DIExpression()), !dbg !61
  call void @llvm.dbg.value(metadata i32 0, metadata !68, metadata !DIExpression()), !dbg !61
  %conv = sext i32 %cond to i64, !dbg !69
  %call1 = call noalias i8* @calloc(i64 noundef %conv, i64 noundef 8) #4, !dbg !70
  %1 = bitcast i8* %call1 to %struct.N**, !dbg !70
  call void @llvm.dbg.value(metadata %struct.N** %1, metadata !71, metadata !DIExpression()), !dbg !61
  call void @llvm.dbg.value(metadata i32 0, metadata !73, metadata !DIExpression()), !dbg !75
  br label %for.cond, !dbg !76

for.cond:                                         ; preds = %for.inc, %cond.end
  %i.0 = phi i32 [ 0, %cond.end ], [ %inc, %for.inc ], !dbg !75
  call void @llvm.dbg.value(metadata i32 %i.0, metadata !73, metadata !DIExpression()), !dbg !75
  %cmp2 = icmp slt i32 %i.0, %cond, !dbg !77
  br i1 %cmp2, label %for.body, label %for.end, !dbg !79

for.body:                                         ; preds = %for.cond
  %call4 = call %struct.N* @mk(i32 noundef %i.0), !dbg !80
  %idxprom = sext i32 %i.0 to i64, !dbg !81
  %arrayidx5 = getelementptr inbounds %struct.N*, %struct.N** %1, i64 %idxprom, !dbg !81
  store %struct.N* %call4, %struct.N** %arrayidx5, align 8, !dbg !82
  br label %for.inc, !dbg !81

for.inc:                                          ; preds = %for.body
  %inc = add nsw i32 %i.0, 1, !dbg !83
  call void @llvm.dbg.value(metadata i32 %inc, metadata !73, metadata !DIExpression()), !dbg !75
  br label %for.cond, !dbg !84, !llvm.loop !85

for.end:                                          ; preds = %for.cond
  call void @llvm.dbg.value(metadata i32 1, metadata !88, metadata !DIExpression()), !dbg !90
  br label %for.cond7, !dbg !91

for.cond7:                                        ; preds = %for.inc29, %for.end
  %i6.0 = phi i32 [ 1, %for.end ], [ %inc30, %for.inc29 ], !dbg !90
  call void @llvm.dbg.value(metadata i32 %i6.0, metadata !88, metadata !DIExpression()), !dbg !90
  %cmp8 = icmp slt i32 %i6.0, %cond, !dbg !92
  br i1 %cmp8, label %for.body10, label %for.end31, !dbg !94

for.body10:                                       ; preds = %for.cond7
  %sub = sub nsw i32 %i6.0, 1, !dbg !95
  %idxprom11 = sext i32 %sub to i64, !dbg !97
  %arrayidx12 = getelementptr inbounds %struct.N*, %struct.N** %1, i64 %idxprom11, !dbg !97
  %2 = load %struct.N*, %struct.N** %arrayidx12, align 8, !dbg !97
  call void @llvm.dbg.value(metadata %struct.N* %2, metadata !98, metadata !DIExpression()), !dbg !99
  %n13 = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 1, !dbg !100
  %3 = load i32, i32* %n13, align 4, !dbg !100
  %max = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 2, !dbg !102
  %4 = load i32, i32* %max, align 8, !dbg !102
  %cmp14 = icmp eq i32 %3, %4, !dbg !103
  br i1 %cmp14, label %if.then, label %if.end, !dbg !104

if.then:                                          ; preds = %for.body10
  %max16 = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 2, !dbg !105
  %5 = load i32, i32* %max16, align 8, !dbg !107
  %mul = mul nsw i32 %5, 2, !dbg !107
  store i32 %mul, i32* %max16, align 8, !dbg !107
  %next = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 3, !dbg !108
  %6 = load %struct.N**, %struct.N*** %next, align 8, !dbg !108
  %7 = bitcast %struct.N** %6 to i8*, !dbg !109
  %max17 = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 2, !dbg !110
  %8 = load i32, i32* %max17, align 8, !dbg !110
  %conv18 = sext i32 %8 to i64, !dbg !111
  %mul19 = mul i64 %conv18, 8, !dbg !112
  %call20 = call i8* @realloc(i8* noundef %7, i64 noundef %mul19) #4, !dbg !113
  %9 = bitcast i8* %call20 to %struct.N**, !dbg !113
  %next21 = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 3, !dbg !114
  store %struct.N** %9, %struct.N*** %next21, align 8, !dbg !115
  br label %if.end, !dbg !116

if.end:                                           ; preds = %if.then, %for.body10
  %idxprom22 = sext i32 %i6.0 to i64, !dbg !117
  %arrayidx23 = getelementptr inbounds %struct.N*, %struct.N** %1, i64 %idxprom22, !dbg !117
  %10 = load %struct.N*, %struct.N** %arrayidx23, align 8, !dbg !117
  %next24 = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 3, !dbg !118
  %11 = load %struct.N**, %struct.N*** %next24, align 8, !dbg !118
  %n25 = getelementptr inbounds %struct.N, %struct.N* %2, i32 0, i32 1, !dbg !119
  %12 = load i32, i32* %n25, align 4, !dbg !120
  %inc26 = add nsw i32 %12, 1, !dbg !120
  store i32 %inc26, i32* %n25, align 4, !dbg !120
  %idxprom27 = sext i32 %12 to i64, !dbg !121
  %arrayidx28 = getelementptr inbounds %struct.N*, %struct.N** %11, i64 %idxprom27, !dbg !121
  store %struct.N* %10, %struct.N** %arrayidx28, align 8, !dbg !122
  br label %for.inc29, !dbg !123

for.inc29:                                        ; preds = %if.end
  %inc30 = add nsw i32 %i6.0, 1, !dbg !124
  call void @llvm.dbg.value(metadata i32 %inc30, metadata !88, metadata !DIExpression()), !dbg !90
  br label %for.cond7, !dbg !125, !llvm.loop !126

for.end31:                                        ; preds = %for.cond7
  call void @llvm.dbg.value(metadata i32 0, metadata !128, metadata !DIExpression()), !dbg !130
  br label %for.cond33, !dbg !131

for.cond33:                                       ; preds = %for.inc60, %for.end31
  %s.0 = phi i32 [ 0, %for.end31 ], [ %s.2, %for.inc60 ], !dbg !132
  %i32.0 = phi i32 [ 0, %for.end31 ], [ %inc61, %for.inc60 ], !dbg !130
  call void @llvm.dbg.value(metadata i32 %i32.0, metadata !128, metadata !DIExpression()), !dbg !130
  call void @llvm.dbg.value(metadata i32 %s.0, metadata !68, metadata !DIExpression()), !dbg !61
  %cmp34 = icmp slt i32 %i32.0, %cond, !dbg !133
  br i1 %cmp34, label %for.body36, label %for.end62, !dbg !135

for.body36:                                       ; preds = %for.cond33
  %idxprom37 = sext i32 %i32.0 to i64, !dbg !136
  %arrayidx38 = getelementptr inbounds %struct.N*, %struct.N** %1, i64 %idxprom37, !dbg !136
  %13 = load %struct.N*, %struct.N** %arrayidx38, align 8, !dbg !136
  %name = getelementptr inbounds %struct.N, %struct.N* %13, i32 0, i32 4, !dbg !138
  %14 = load i8*, i8** %name, align 8, !dbg !138
  %call39 = call i8* @strstr(i8* noundef %14, i8* noundef getelementptr inbounds ([5 x i8], [5 x i8]* @.str.1, i64 0, i64 0)) #5, !dbg !139
  %tobool = icmp ne i8* %call39, null, !dbg !139
  br i1 %tobool, label %land.lhs.true, label %if.end59, !dbg !140

land.lhs.true:                                    ; preds = %for.body36
  %arrayidx40 = getelementptr inbounds i8*, i8** %argv, i64 0, !dbg !141
  %15 = load i8*, i8** %arrayidx40, align 8, !dbg !141
  %call41 = call i32 @strncmp(i8* noundef %15, i8* noundef getelementptr inbounds ([2 x i8], [2 x i8]* @.str.2, i64 0, i64 0), i64 noundef 1) #5, !dbg !142
  %tobool42 = icmp ne i32 %call41, 0, !dbg !142
  br i1 %tobool42, label %if.then43, label %if.end59, !dbg !143

if.then43:                                        ; preds = %land.lhs.true
  call void @llvm.dbg.value(metadata i32 0, metadata !144, metadata !DIExpression()), !dbg !146
  br label %for.cond44, !dbg !147

for.cond44:                                       ; preds = %for.inc56, %if.then43
  %s.1 = phi i32 [ %s.0, %if.then43 ], [ %add, %for.inc56 ], !dbg !61
  %j.0 = phi i32 [ 0, %if.then43 ], [ %inc57, %for.inc56 ], !dbg !146
  call void @llvm.dbg.value(metadata i32 %j.0, metadata !144, metadata !DIExpression()), !dbg !146
  call void @llvm.dbg.value(metadata i32 %s.1, metadata !68, metadata !DIExpression()), !dbg !61
  %idxprom45 = sext i32 %i32.0 to i64, !dbg !148
  %arrayidx46 = getelementptr inbounds %struct.N*, %struct.N** %1, i64 %idxprom45, !dbg !148
  %16 = load %struct.N*, %struct.N** %arrayidx46, align 8, !dbg !148
  %n47 = getelementptr inbounds %struct.N, %struct.N* %16, i32 0, i32 1, !dbg !150
  %17 = load i32, i32* %n47, align 4, !dbg !150
  %cmp48 = icmp slt i32 %j.0, %17, !dbg !151
  br i1 %cmp48, label %for.body50, label %for.end58, !dbg !152

for.body50:                                       ; preds = %for.cond44
  %idxprom51 = sext i32 %i32.0 to i64, !dbg !153
  %arrayidx52 = getelementptr inbounds %struct.N*, %struct.N** %1, i64 %idxprom51, !dbg !153
  %18 = load %struct.N*, %struct.N** %arrayidx52, align 8, !dbg !153
  %next53 = getelementptr inbounds %struct.N, %struct.N* %18, i32 0, i32 3, !dbg !154
  %19 = load %struct.N**, %struct.N*** %next53, align 8, !dbg !154
  %idxprom54 = sext i32 %j.0 to i64, !dbg !153
  %arrayidx55 = getelementptr inbounds %struct.N*, %struct.N** %19, i64 %idxprom54, !dbg !153
  %20 = load %struct.N*, %struct.N** %arrayidx55, align 8, !dbg !153
  %id = getelementptr inbounds %struct.N, %struct.N* %20, i32 0, i32 0, !dbg !155
  %21 = load i32, i32* %id, align 8, !dbg !155
  %add = add nsw i32 %s.1, %21, !dbg !156
  call void @llvm.dbg.value(metadata i32 %add, metadata !68, metadata !DIExpression()), !dbg !61
  br label %for.inc56, !dbg !157

for.inc56:                                        ; preds = %for.body50
  %inc57 = add nsw i32 %j.0, 1, !dbg !158
  call void @llvm.dbg.value(metadata i32 %inc57, metadata !144, metadata !DIExpression()), !dbg !146
  br label %for.cond44, !dbg !159, !llvm.loop !160

for.end58:                                        ; preds = %for.cond44
  br label %if.end59, !dbg !161

if.end59:                                         ; preds = %for.end58, %land.lhs.true, %for.body36
  %s.2 = phi i32 [ %s.1, %for.end58 ], [ %s.0, %land.lhs.true ], [ %s.0, %for.body36 ], !dbg !132
  call void @llvm.dbg.value(metadata i32 %s.2, metadata !68, metadata !DIExpression()), !dbg !61
  br label %for.inc60, !dbg !162

for.inc60:                                        ; preds = %if.end59
  %inc61 = add nsw i32 %i32.0, 1, !dbg !163
  call void @llvm.dbg.value(metadata i32 %inc61, metadata !128, metadata !DIExpression()), !dbg !130
  br label %for.cond33, !dbg !164, !llvm.loop !165

for.end62:                                        ; preds = %for.cond33
  ret i32 %s.0, !dbg !167
}

; Function Attrs: nounwind readonly willreturn
declare i32 @atoi(i8* noundef) #3

; Function Attrs: nounwind
declare noalias i8* @calloc(i64 noundef, i64 noundef) #2

; Function Attrs: nounwind
declare i8* @realloc(i8* noundef, i64 noundef) #2

; Function Attrs: nounwind readonly willreturn
declare i8* @strstr(i8* noundef, i8* noundef) #3

; Function Attrs: nounwind readonly willreturn
declare i32 @strncmp(i8* noundef, i8* noundef, i64 noundef) #3

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind readonly willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }
attributes #5 = { nounwind readonly willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "heap.c", directory: ".", checksumkind: CSK_MD5, checksum: "37a648845146a6d793fcd60cac0cb915")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 14.0.6"}
!10 = distinct !DISubprogram(name: "mk", scope: !1, file: !1, line: 8, type: !11, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !27)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !18}
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = !DIDerivedType(tag: DW_TAG_typedef, name: "N", file: !1, line: 7, baseType: !15)
!15 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "N", file: !1, line: 7, size: 256, elements: !16)
!16 = !{!17, !19, !20, !21, !24}
!17 = !DIDerivedType(tag: DW_TAG_member, name: "id", scope: !15, file: !1, line: 7, baseType: !18, size: 32)
!18 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!19 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !15, file: !1, line: 7, baseType: !18, size: 32, offset: 32)
!20 = !DIDerivedType(tag: DW_TAG_member, name: "max", scope: !15, file: !1, line: 7, baseType: !18, size: 32, offset: 64)
!21 = !DIDerivedType(tag: DW_TAG_member, name: "next", scope: !15, file: !1, line: 7, baseType: !22, size: 64, offset: 128)
!22 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !23, size: 64)
!23 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!24 = !DIDerivedType(tag: DW_TAG_member, name: "name", scope: !15, file: !1, line: 7, baseType: !25, size: 64, offset: 192)
!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !26, size: 64)
!26 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!27 = !{}
!28 = !DILocalVariable(name: "id", arg: 1, scope: !10, file: !1, line: 8, type: !18)
!29 = !DILocation(line: 0, scope: !10)
!30 = !DILocalVariable(name: "nm", scope: !10, file: !1, line: 9, type: !31)
!31 = !DICompositeType(tag: DW_TAG_array_type, baseType: !26, size: 256, elements: !32)
!32 = !{!33}
!33 = !DISubrange(count: 32)
!34 = !DILocation(line: 9, column: 8, scope: !10)
!35 = !DILocation(line: 10, column: 10, scope: !10)
!36 = !DILocalVariable(name: "p", scope: !10, file: !1, line: 10, type: !13)
!37 = !DILocation(line: 11, column: 11, scope: !10)
!38 = !DILocation(line: 11, column: 3, scope: !10)
!39 = !DILocation(line: 12, column: 20, scope: !10)
!40 = !DILocation(line: 12, column: 13, scope: !10)
!41 = !DILocation(line: 12, column: 6, scope: !10)
!42 = !DILocation(line: 12, column: 11, scope: !10)
!43 = !DILocation(line: 13, column: 6, scope: !10)
!44 = !DILocation(line: 13, column: 9, scope: !10)
!45 = !DILocation(line: 13, column: 18, scope: !10)
!46 = !DILocation(line: 13, column: 20, scope: !10)
!47 = !DILocation(line: 13, column: 28, scope: !10)
!48 = !DILocation(line: 13, column: 32, scope: !10)
!49 = !DILocation(line: 14, column: 23, scope: !10)
!50 = !DILocation(line: 14, column: 20, scope: !10)
!51 = !DILocation(line: 14, column: 27, scope: !10)
!52 = !DILocation(line: 14, column: 13, scope: !10)
!53 = !DILocation(line: 14, column: 6, scope: !10)
!54 = !DILocation(line: 14, column: 11, scope: !10)
!55 = !DILocation(line: 15, column: 3, scope: !10)
!56 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 17, type: !57, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !27)
!57 = !DISubroutineType(types: !58)
!58 = !{!18, !18, !59}
!59 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !25, size: 64)
!60 = !DILocalVariable(name: "argc", arg: 1, scope: !56, file: !1, line: 17, type: !18)
!61 = !DILocation(line: 0, scope: !56)
!62 = !DILocalVariable(name: "argv", arg: 2, scope: !56, file: !1, line: 17, type: !59)
!63 = !DILocation(line: 18, column: 16, scope: !56)
!64 = !DILocation(line: 18, column: 11, scope: !56)
!65 = !DILocation(line: 18, column: 27, scope: !56)
!66 = !DILocation(line: 18, column: 22, scope: !56)
!67 = !DILocalVariable(name: "n", scope: !56, file: !1, line: 18, type: !18)
!68 = !DILocalVariable(name: "s", scope: !56, file: !1, line: 18, type: !18)
!69 = !DILocation(line: 19, column: 20, scope: !56)
!70 = !DILocation(line: 19, column: 13, scope: !56)
!71 = !DILocalVariable(name: "all", scope: !56, file: !1, line: 19, type: !72)
!72 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64)
!73 = !DILocalVariable(name: "i", scope: !74, file: !1, line: 20, type: !18)
!74 = distinct !DILexicalBlock(scope: !56, file: !1, line: 20, column: 3)
!75 = !DILocation(line: 0, scope: !74)
!76 = !DILocation(line: 20, column: 8, scope: !74)
!77 = !DILocation(line: 20, column: 21, scope: !78)
!78 = distinct !DILexicalBlock(scope: !74, file: !1, line: 20, column: 3)
!79 = !DILocation(line: 20, column: 3, scope: !74)
!80 = !DILocation(line: 20, column: 40, scope: !78)
!81 = !DILocation(line: 20, column: 31, scope: !78)
!82 = !DILocation(line: 20, column: 38, scope: !78)
!83 = !DILocation(line: 20, column: 27, scope: !78)
!84 = !DILocation(line: 20, column: 3, scope: !78)
!85 = distinct !{!85, !79, !86, !87}
!86 = !DILocation(line: 20, column: 44, scope: !74)
!87 = !{!"llvm.loop.mustprogress"}
!88 = !DILocalVariable(name: "i", scope: !89, file: !1, line: 21, type: !18)
!89 = distinct !DILexicalBlock(scope: !56, file: !1, line: 21, column: 3)
!90 = !DILocation(line: 0, scope: !89)
!91 = !DILocation(line: 21, column: 8, scope: !89)
!92 = !DILocation(line: 21, column: 21, scope: !93)
!93 = distinct !DILexicalBlock(scope: !89, file: !1, line: 21, column: 3)
!94 = !DILocation(line: 21, column: 3, scope: !89)
!95 = !DILocation(line: 22, column: 18, scope: !96)
!96 = distinct !DILexicalBlock(scope: !93, file: !1, line: 21, column: 31)
!97 = !DILocation(line: 22, column: 12, scope: !96)
!98 = !DILocalVariable(name: "a", scope: !96, file: !1, line: 22, type: !13)
!99 = !DILocation(line: 0, scope: !96)
!100 = !DILocation(line: 23, column: 12, scope: !101)
!101 = distinct !DILexicalBlock(scope: !96, file: !1, line: 23, column: 9)
!102 = !DILocation(line: 23, column: 20, scope: !101)
!103 = !DILocation(line: 23, column: 14, scope: !101)
!104 = !DILocation(line: 23, column: 9, scope: !96)
!105 = !DILocation(line: 23, column: 30, scope: !106)
!106 = distinct !DILexicalBlock(scope: !101, file: !1, line: 23, column: 25)
!107 = !DILocation(line: 23, column: 34, scope: !106)
!108 = !DILocation(line: 23, column: 61, scope: !106)
!109 = !DILocation(line: 23, column: 58, scope: !106)
!110 = !DILocation(line: 23, column: 70, scope: !106)
!111 = !DILocation(line: 23, column: 67, scope: !106)
!112 = !DILocation(line: 23, column: 74, scope: !106)
!113 = !DILocation(line: 23, column: 50, scope: !106)
!114 = !DILocation(line: 23, column: 43, scope: !106)
!115 = !DILocation(line: 23, column: 48, scope: !106)
!116 = !DILocation(line: 23, column: 90, scope: !106)
!117 = !DILocation(line: 24, column: 23, scope: !96)
!118 = !DILocation(line: 24, column: 8, scope: !96)
!119 = !DILocation(line: 24, column: 16, scope: !96)
!120 = !DILocation(line: 24, column: 17, scope: !96)
!121 = !DILocation(line: 24, column: 5, scope: !96)
!122 = !DILocation(line: 24, column: 21, scope: !96)
!123 = !DILocation(line: 25, column: 3, scope: !96)
!124 = !DILocation(line: 21, column: 27, scope: !93)
!125 = !DILocation(line: 21, column: 3, scope: !93)
!126 = distinct !{!126, !94, !127, !87}
!127 = !DILocation(line: 25, column: 3, scope: !89)
!128 = !DILocalVariable(name: "i", scope: !129, file: !1, line: 26, type: !18)
!129 = distinct !DILexicalBlock(scope: !56, file: !1, line: 26, column: 3)
!130 = !DILocation(line: 0, scope: !129)
!131 = !DILocation(line: 26, column: 8, scope: !129)
!132 = !DILocation(line: 18, column: 41, scope: !56)
!133 = !DILocation(line: 26, column: 21, scope: !134)
!134 = distinct !DILexicalBlock(scope: !129, file: !1, line: 26, column: 3)
!135 = !DILocation(line: 26, column: 3, scope: !129)
!136 = !DILocation(line: 27, column: 16, scope: !137)
!137 = distinct !DILexicalBlock(scope: !134, file: !1, line: 27, column: 9)
!138 = !DILocation(line: 27, column: 24, scope: !137)
!139 = !DILocation(line: 27, column: 9, scope: !137)
!140 = !DILocation(line: 27, column: 38, scope: !137)
!141 = !DILocation(line: 27, column: 49, scope: !137)
!142 = !DILocation(line: 27, column: 41, scope: !137)
!143 = !DILocation(line: 27, column: 9, scope: !134)
!144 = !DILocalVariable(name: "j", scope: !145, file: !1, line: 28, type: !18)
!145 = distinct !DILexicalBlock(scope: !137, file: !1, line: 28, column: 7)
!146 = !DILocation(line: 0, scope: !145)
!147 = !DILocation(line: 28, column: 12, scope: !145)
!148 = !DILocation(line: 28, column: 27, scope: !149)
!149 = distinct !DILexicalBlock(scope: !145, file: !1, line: 28, column: 7)
!150 = !DILocation(line: 28, column: 35, scope: !149)
!151 = !DILocation(line: 28, column: 25, scope: !149)
!152 = !DILocation(line: 28, column: 7, scope: !145)
!153 = !DILocation(line: 28, column: 48, scope: !149)
!154 = !DILocation(line: 28, column: 56, scope: !149)
!155 = !DILocation(line: 28, column: 65, scope: !149)
!156 = !DILocation(line: 28, column: 45, scope: !149)
!157 = !DILocation(line: 28, column: 43, scope: !149)
!158 = !DILocation(line: 28, column: 39, scope: !149)
!159 = !DILocation(line: 28, column: 7, scope: !149)
!160 = distinct !{!160, !152, !161, !87}
!161 = !DILocation(line: 28, column: 65, scope: !145)
!162 = !DILocation(line: 27, column: 64, scope: !137)
!163 = !DILocation(line: 26, column: 27, scope: !134)
!164 = !DILocation(line: 26, column: 3, scope: !134)
!165 = distinct !{!165, !135, !166, !87}
!166 = !DILocation(line: 28, column: 65, scope: !129)
!167 = !DILocation(line: 29, column: 3, scope: !56)
