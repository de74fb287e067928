// Package fortran is mkvet's Fortran frontend: it reads Fortran 77 fixed-form
// and Fortran 90+ free-form source and builds the augmented parse tree of
// package apt (MK's APT, seed 000 §2.1).
//
// The frontend is written for real scientific codes rather than toy snippets:
// the NAS Parallel Benchmarks (fixed form, include 'mpif.h', a generated
// npbparams.h, COMMON blocks, DO loops sharing a labelled terminal statement),
// Sweep3D-style wavefront codes, and CloverLeaf-style free-form modules (USE,
// CONTAINS, derived types, allocatable arrays). It handles
//
//   - both source forms, chosen by extension (.f .for .f77 fixed; .f90 .f95 .f03
//     .f08 free) or Config.Form; upper-case extensions (.F, .F90) run the
//     built-in preprocessor (#define of object-like and function-like macros,
//     #undef, #ifdef, #ifndef, #if/#elif with defined(), #else, #endif,
//     #include, -D macros, __LINE__ and __FILE__);
//   - fixed-form columns: C, c, *, ! or D in column 1 for comments, labels in
//     columns 1-5, continuation in column 6, nothing past column 72, blanks
//     insignificant (DO10I=1,N is DO 10 I = 1, N); free-form & continuation, !
//     comments and ; separators; case insensitivity;
//   - INCLUDE with a search path (the including file's directory, then
//     Config.IncludeDirs); mpif.h and the mpi module are known without files;
//   - PROGRAM, SUBROUTINE, FUNCTION, MODULE with USE and CONTAINS, BLOCK DATA;
//     all the specification statements a cost model needs (types with kinds and
//     lengths, DIMENSION, PARAMETER, COMMON, DATA, IMPLICIT, SAVE, EXTERNAL,
//     INTRINSIC, ALLOCATABLE, INTENT, derived TYPE definitions); and every
//     executable statement of those codes, including arithmetic IF, computed
//     and assigned GO TO, SELECT CASE and WHERE;
//   - MPI calls in the Fortran 77 and mpi-module styles, which become Comm
//     nodes with datatype sizes;
//   - HPF (PROCESSORS, DISTRIBUTE, ALIGN, INDEPENDENT) and OpenMP loop
//     directives, and mkvet's annotations !mk$ param, assume, iterations and
//     region begin/end (also written c$mk or *mk$ in fixed form).
//
// Source is first turned into logical statements whose canonical text has
// blanks removed and letters upper-cased outside character constants, with a
// position map back to lines and columns; fixed form needs exactly that, and
// it is harmless for free form. Each statement is then classified by its
// leading keyword (after the classic assignment test), so a statement that
// fails to parse never disturbs its neighbours: it becomes an Unknown node
// with a file:line:col diagnostic, and parsing resumes at the next statement.
// The frontend never panics; a recover at the top turns an internal bug into a
// diagnostic as a last resort.
//
// After all files are read a typing pass applies IMPLICIT rules (so every
// name has a type), resolves USE to modules among the inputs, tells array
// references from function references, marks integer division, and counts
// the operations of every statement.
package fortran
