; ModuleID = 'linked.ll'
source_filename = "llvm-link"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ompi_predefined_communicator_t = type opaque
%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_communicator_t = type opaque
%struct.ompi_datatype_t = type opaque

@__const.main.a = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t, align 1
@ompi_mpi_int = external global %struct.ompi_predefined_datatype_t, align 1
@g = internal global i32 3, align 4, !dbg !0

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main(i32 noundef %argc, i8** noundef %argv) #0 !dbg !23 {
entry:
  %argc.addr = alloca i32, align 4
  %argv.addr = alloca i8**, align 8
  %rank = alloca i32, align 4
  %a = alloca [4 x i32], align 16
  %s = alloca i32, align 4
  store i32 %argc, i32* %argc.addr, align 4
  call void @llvm.dbg.declare(metadata i32* %argc.addr, metadata !30, metadata !DIExpression()), !dbg !31
  store i8** %argv, i8*** %argv.addr, align 8
  call void @llvm.dbg.declare(metadata i8*** %argv.addr, metadata !32, metadata !DIExpression()), !dbg !33
  call void @llvm.dbg.declare(metadata i32* %rank, metadata !34, metadata !DIExpression()), !dbg !35
  call void @llvm.dbg.declare(metadata [4 x i32]* %a, metadata !36, metadata !DIExpression()), !dbg !40
  %0 = bitcast [4 x i32]* %a to i8*, !dbg !40
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 16 %0, i8* align 16 bitcast ([4 x i32]* @__const.main.a to i8*), i64 16, i1 false), !dbg !40
  %call = call i32 @MPI_Init(i32* noundef %argc.addr, i8*** noundef %argv.addr), !dbg !41
  %call1 = call i32 @MPI_Comm_rank(%struct.ompi_communicator_t* noundef bitcast (%struct.ompi_predefined_communicator_t* @ompi_mpi_comm_world to %struct.ompi_communicator_t*), i32* noundef %rank), !dbg !42
  call void @llvm.dbg.declare(metadata i32* %s, metadata !43, metadata !DIExpression()), !dbg !44
  %arraydecay = getelementptr inbounds [4 x i32], [4 x i32]* %a, i64 0, i64 0, !dbg !45
  %1 = load i32, i32* %rank, align 4, !dbg !46
  %add = add nsw i32 %1, 5, !dbg !47
  %call2 = call i32 @twice(i32* noundef %arraydecay, i32 noundef %add), !dbg !48
  store i32 %call2, i32* %s, align 4, !dbg !44
  %2 = bitcast i32* %s to i8*, !dbg !49
  %call3 = call i32 @MPI_Bcast(i8* noundef %2, i32 noundef 1, %struct.ompi_datatype_t* noundef bitcast (%struct.ompi_predefined_datatype_t* @ompi_mpi_int to %struct.ompi_datatype_t*), i32 noundef 0, %struct.ompi_communicator_t* noundef bitcast (%struct.ompi_predefined_communicator_t* @ompi_mpi_comm_world to %struct.ompi_communicator_t*)), !dbg !50
  %call4 = call i32 @MPI_Finalize(), !dbg !51
  %3 = load i32, i32* %s, align 4, !dbg !52
  %cmp = icmp sgt i32 %3, 0, !dbg !53
  %4 = zext i1 %cmp to i64, !dbg !52
  %cond = select i1 %cmp, i32 0, i32 1, !dbg !52
  ret i32 %cond, !dbg !54
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nounwind willreturn
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #2

declare i32 @MPI_Init(i32* noundef, i8*** noundef) #3

declare i32 @MPI_Comm_rank(%struct.ompi_communicator_t* noundef, i32* noundef) #3

; Function Attrs: noinline nounwind uwtable
define internal i32 @twice(i32* noundef %p, i32 noundef %n) #0 !dbg !55 {
entry:
  call void @llvm.dbg.value(metadata i32* %p, metadata !59, metadata !DIExpression()), !dbg !60
  call void @llvm.dbg.value(metadata i32 %n, metadata !61, metadata !DIExpression()), !dbg !60
  call void @llvm.dbg.value(metadata i32 0, metadata !62, metadata !DIExpression()), !dbg !60
  call void @llvm.dbg.value(metadata i32 0, metadata !63, metadata !DIExpression()), !dbg !65
  br label %for.cond, !dbg !66

for.cond:                                         ; preds = %for.inc, %entry
  %s.0 = phi i32 [ 0, %entry ], [ %add, %for.inc ], !dbg !60
  %i.0 = phi i32 [ 0, %entry ], [ %add1, %for.inc ], !dbg !65
  call void @llvm.dbg.value(metadata i32 %i.0, metadata !63, metadata !DIExpression()), !dbg !65
  call void @llvm.dbg.value(metadata i32 %s.0, metadata !62, metadata !DIExpression()), !dbg !60
  %cmp = icmp slt i32 %i.0, %n, !dbg !67
  br i1 %cmp, label %for.body, label %for.end, !dbg !69

for.body:                                         ; preds = %for.cond
  %rem = srem i32 %i.0, 4, !dbg !70
  %idxprom = sext i32 %rem to i64, !dbg !71
  %arrayidx = getelementptr inbounds i32, i32* %p, i64 %idxprom, !dbg !71
  %0 = load i32, i32* %arrayidx, align 4, !dbg !71
  %add = add nsw i32 %s.0, %0, !dbg !72
  call void @llvm.dbg.value(metadata i32 %add, metadata !62, metadata !DIExpression()), !dbg !60
  br label %for.inc, !dbg !73

for.inc:                                          ; preds = %for.body
  %add1 = add nsw i32 %i.0, 2, !dbg !74
  call void @llvm.dbg.value(metadata i32 %add1, metadata !63, metadata !DIExpression()), !dbg !65
  br label %for.cond, !dbg !75, !llvm.loop !76

for.end:                                          ; preds = %for.cond
  br label %while.cond, !dbg !79

while.cond:                                       ; preds = %if.end, %for.end
  %s.1 = phi i32 [ %s.0, %for.end ], [ %div, %if.end ], !dbg !60
  call void @llvm.dbg.value(metadata i32 %s.1, metadata !62, metadata !DIExpression()), !dbg !60
  %cmp2 = icmp sgt i32 %s.1, 100, !dbg !80
  br i1 %cmp2, label %while.body, label %while.end.loopexit, !dbg !79

while.body:                                       ; preds = %while.cond
  %div = sdiv i32 %s.1, 2, !dbg !81
  call void @llvm.dbg.value(metadata i32 %div, metadata !62, metadata !DIExpression()), !dbg !60
  %cmp3 = icmp eq i32 %div, 7, !dbg !83
  br i1 %cmp3, label %if.then, label %if.end, !dbg !85

if.then:                                          ; preds = %while.body
  br label %while.end, !dbg !86

if.end:                                           ; preds = %while.body
  br label %while.cond, !dbg !79, !llvm.loop !87

while.end.loopexit:                               ; preds = %while.cond
  br label %while.end, !dbg !89

while.end:                                        ; preds = %while.end.loopexit, %if.then
  %s.2 = phi i32 [ %div, %if.then ], [ %s.1, %while.end.loopexit ], !dbg !60
  call void @llvm.dbg.value(metadata i32 %s.2, metadata !62, metadata !DIExpression()), !dbg !60
  switch i32 %n, label %sw.default [
    i32 1, label %sw.bb
    i32 2, label %sw.bb4
  ], !dbg !89

sw.bb:                                            ; preds = %while.end
  %inc = add nsw i32 %s.2, 1, !dbg !90
  call void @llvm.dbg.value(metadata i32 %inc, metadata !62, metadata !DIExpression()), !dbg !60
  br label %sw.epilog, !dbg !92

sw.bb4:                                           ; preds = %while.end
  %dec = add nsw i32 %s.2, -1, !dbg !93
  call void @llvm.dbg.value(metadata i32 %dec, metadata !62, metadata !DIExpression()), !dbg !60
  br label %sw.epilog, !dbg !94

sw.default:                                       ; preds = %while.end
  %1 = load i32, i32* @g, align 4, !dbg !95
  %mul = mul nsw i32 %s.2, %1, !dbg !96
  call void @llvm.dbg.value(metadata i32 %mul, metadata !62, metadata !DIExpression()), !dbg !60
  br label %sw.epilog, !dbg !97

sw.epilog:                                        ; preds = %sw.default, %sw.bb4, %sw.bb
  %s.3 = phi i32 [ %mul, %sw.default ], [ %dec, %sw.bb4 ], [ %inc, %sw.bb ], !dbg !98
  call void @llvm.dbg.value(metadata i32 %s.3, metadata !62, metadata !DIExpression()), !dbg !60
  ret i32 %s.3, !dbg !99
}

declare i32 @MPI_Bcast(i8* noundef, i32 noundef, %struct.ompi_datatype_t* noundef, i32 noundef, %struct.ompi_communicator_t* noundef) #3

declare i32 @MPI_Finalize() #3

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nounwind willreturn }
attributes #3 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!2}
!llvm.ident = !{!15}
!llvm.module.flags = !{!16, !17, !18, !19, !20, !21, !22}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 5, type: !14, isLocal: true, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !13, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "testdata/small.c", directory: ".", checksumkind: CSK_MD5, checksum: "af312366f138d3e2f77efb13e7772317")
!4 = !{!5, !9, !10}
!5 = !DIDerivedType(tag: DW_TAG_typedef, name: "MPI_Comm", file: !6, line: 419, baseType: !7)
!6 = !DIFile(filename: "/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h", directory: "", checksumkind: CSK_MD5, checksum: "c3ca5be6f2c6a6e16d01846df47c0b49")
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!8 = !DICompositeType(tag: DW_TAG_structure_type, name: "ompi_communicator_t", file: !6, line: 419, flags: DIFlagFwdDecl)
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!10 = !DIDerivedType(tag: DW_TAG_typedef, name: "MPI_Datatype", file: !6, line: 420, baseType: !11)
!11 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !12, size: 64)
!12 = !DICompositeType(tag: DW_TAG_structure_type, name: "ompi_datatype_t", file: !6, line: 420, flags: DIFlagFwdDecl)
!13 = !{!0}
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !{!"Debian clang version 14.0.6"}
!16 = !{i32 7, !"Dwarf Version", i32 5}
!17 = !{i32 2, !"Debug Info Version", i32 3}
!18 = !{i32 1, !"wchar_size", i32 4}
!19 = !{i32 7, !"PIC Level", i32 2}
!20 = !{i32 7, !"PIE Level", i32 2}
!21 = !{i32 7, !"uwtable", i32 1}
!22 = !{i32 7, !"frame-pointer", i32 2}
!23 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 30, type: !24, scopeLine: 31, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !29)
!24 = !DISubroutineType(types: !25)
!25 = !{!14, !14, !26}
!26 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !27, size: 64)
!27 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !28, size: 64)
!28 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!29 = !{}
!30 = !DILocalVariable(name: "argc", arg: 1, scope: !23, file: !3, line: 30, type: !14)
!31 = !DILocation(line: 30, column: 14, scope: !23)
!32 = !DILocalVariable(name: "argv", arg: 2, scope: !23, file: !3, line: 30, type: !26)
!33 = !DILocation(line: 30, column: 27, scope: !23)
!34 = !DILocalVariable(name: "rank", scope: !23, file: !3, line: 32, type: !14)
!35 = !DILocation(line: 32, column: 6, scope: !23)
!36 = !DILocalVariable(name: "a", scope: !23, file: !3, line: 32, type: !37)
!37 = !DICompositeType(tag: DW_TAG_array_type, baseType: !14, size: 128, elements: !38)
!38 = !{!39}
!39 = !DISubrange(count: 4)
!40 = !DILocation(line: 32, column: 12, scope: !23)
!41 = !DILocation(line: 33, column: 2, scope: !23)
!42 = !DILocation(line: 34, column: 2, scope: !23)
!43 = !DILocalVariable(name: "s", scope: !23, file: !3, line: 35, type: !14)
!44 = !DILocation(line: 35, column: 6, scope: !23)
!45 = !DILocation(line: 35, column: 16, scope: !23)
!46 = !DILocation(line: 35, column: 19, scope: !23)
!47 = !DILocation(line: 35, column: 24, scope: !23)
!48 = !DILocation(line: 35, column: 10, scope: !23)
!49 = !DILocation(line: 36, column: 12, scope: !23)
!50 = !DILocation(line: 36, column: 2, scope: !23)
!51 = !DILocation(line: 37, column: 2, scope: !23)
!52 = !DILocation(line: 38, column: 9, scope: !23)
!53 = !DILocation(line: 38, column: 11, scope: !23)
!54 = !DILocation(line: 38, column: 2, scope: !23)
!55 = distinct !DISubprogram(name: "twice", scope: !3, file: !3, line: 7, type: !56, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !2, retainedNodes: !29)
!56 = !DISubroutineType(types: !57)
!57 = !{!14, !58, !14}
!58 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!59 = !DILocalVariable(name: "p", arg: 1, scope: !55, file: !3, line: 7, type: !58)
!60 = !DILocation(line: 0, scope: !55)
!61 = !DILocalVariable(name: "n", arg: 2, scope: !55, file: !3, line: 7, type: !14)
!62 = !DILocalVariable(name: "s", scope: !55, file: !3, line: 9, type: !14)
!63 = !DILocalVariable(name: "i", scope: !64, file: !3, line: 10, type: !14)
!64 = distinct !DILexicalBlock(scope: !55, file: !3, line: 10, column: 2)
!65 = !DILocation(line: 0, scope: !64)
!66 = !DILocation(line: 10, column: 7, scope: !64)
!67 = !DILocation(line: 10, column: 20, scope: !68)
!68 = distinct !DILexicalBlock(scope: !64, file: !3, line: 10, column: 2)
!69 = !DILocation(line: 10, column: 2, scope: !64)
!70 = !DILocation(line: 11, column: 12, scope: !68)
!71 = !DILocation(line: 11, column: 8, scope: !68)
!72 = !DILocation(line: 11, column: 5, scope: !68)
!73 = !DILocation(line: 11, column: 3, scope: !68)
!74 = !DILocation(line: 10, column: 27, scope: !68)
!75 = !DILocation(line: 10, column: 2, scope: !68)
!76 = distinct !{!76, !69, !77, !78}
!77 = !DILocation(line: 11, column: 15, scope: !64)
!78 = !{!"llvm.loop.mustprogress"}
!79 = !DILocation(line: 12, column: 2, scope: !55)
!80 = !DILocation(line: 12, column: 11, scope: !55)
!81 = !DILocation(line: 13, column: 5, scope: !82)
!82 = distinct !DILexicalBlock(scope: !55, file: !3, line: 12, column: 18)
!83 = !DILocation(line: 14, column: 9, scope: !84)
!84 = distinct !DILexicalBlock(scope: !82, file: !3, line: 14, column: 7)
!85 = !DILocation(line: 14, column: 7, scope: !82)
!86 = !DILocation(line: 15, column: 4, scope: !84)
!87 = distinct !{!87, !79, !88, !78}
!88 = !DILocation(line: 16, column: 2, scope: !55)
!89 = !DILocation(line: 17, column: 2, scope: !55)
!90 = !DILocation(line: 19, column: 4, scope: !91)
!91 = distinct !DILexicalBlock(scope: !55, file: !3, line: 17, column: 13)
!92 = !DILocation(line: 20, column: 3, scope: !91)
!93 = !DILocation(line: 22, column: 4, scope: !91)
!94 = !DILocation(line: 23, column: 3, scope: !91)
!95 = !DILocation(line: 25, column: 11, scope: !91)
!96 = !DILocation(line: 25, column: 9, scope: !91)
!97 = !DILocation(line: 26, column: 2, scope: !91)
!98 = !DILocation(line: 0, scope: !91)
!99 = !DILocation(line: 27, column: 2, scope: !55)
