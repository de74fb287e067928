// Package concrete runs a routine of an APT with concrete values and
// counts what it executes, for the symbolic evaluation to use where only a
// run determines the counts: the set-up of a program that generates its
// data (a random sparse matrix's row lengths, the keys a sort buckets) from
// values the evaluation knows at a point. It evaluates the program's own
// code, as the run would, instead of asking for the values it computes.
//
// A routine is compiled once into closures over slots (its dummies,
// locals and the global storage it reaches), then called with its actual
// arguments bound to Stores, arrays of int64 or float64 with a known flag
// per element. The storage a run reaches outside the call (COMMON, module
// and SAVE variables) comes from the caller's Globals function, so the
// evaluation hands over what it knows and takes back what the run wrote.
// A value the caller does not know is unknown: arithmetic carries it, and
// the run stops where control, a subscript or a trip count needs it.
//
// What it runs: counted DO (integer bounds, Fortran's trip count fixed on
// entry), DO WHILE and DO without control, block, logical and arithmetic
// IF, SELECT CASE on integers, plain and computed GO TO within a routine,
// EXIT, CYCLE, RETURN, CALL and function references of the program's own
// routines (actual arguments by reference, array elements by sequence
// association), scalar assignments to variables and array elements of
// INTEGER, LOGICAL and REAL type (REAL(4) rounded to single precision),
// and the numeric intrinsics programs compute sizes and random numbers
// with. Anything else (MPI, input, character and derived-type data, array
// sections, pointers) stops the run with a reason: the caller falls back
// to its symbolic evaluation. So does a run past its step budget.
//
// Counts are kept per call path (Context): how often each node ran and
// each loop's body ran, under each call site, so that the caller can give
// every occurrence its own count.
package concrete
