// Package apt defines the augmented parse tree (APT), the one program representation
// every mkvet frontend produces and every later stage (symbolic evaluation, counting,
// the cost model, instrumentation) reads.
//
// MK (seed 000, §2.1) builds its model on an APT whose nodes are of type ROUTINE, IF,
// LOOP, CALL and COMMN, "augmented" with loop bounds, branch information, message sizes
// and basic-block costs. mkvet keeps those five kinds (Routine, If, Loop, Call, Comm)
// and adds the nodes a static analyzer needs to stay honest about what it saw:
// Block (straight-line statements, each kept with its own operation counts), IO,
// the control transfers Goto, Return, Stop, Exit, Cycle and Continue, Region markers
// for the `!mk$ region` annotation, and Unknown for anything the frontend could not
// model, which always carries a diagnostic.
//
// The package is frontend-neutral: it imports no syntax types of any source language.
// Expressions inside nodes are Expr trees (Const, Name, Index, Call, Unary, Binary, ...)
// that symbolic evaluation turns into exact symbolic values; constants keep their
// literal text so that exact rational conversion is possible, and Fortran semantics a
// later stage must know (integer division truncates, the declared type of each name)
// are recorded in neutral terms.
//
// Every node carries a stable ID, a path within its routine such as "jacobi/L2/C1"
// (see AssignIDs), so that editing one routine never renumbers the nodes of another;
// instrumentation keys its runtime records by these IDs.
package apt
