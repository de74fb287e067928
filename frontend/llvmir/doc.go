// Package llvmir is mkvet's frontend for C and C++ (and any LLVM 14 IR): it
// compiles sources with clang-14, links the translation units with
// llvm-link-14, normalises the module with opt-14 (Passes) and reads it with
// github.com/llir/llvm, then builds the augmented parse tree of package apt
// (MK's APT, seed 000 §2.1) that the Fortran frontend also builds, so every
// later stage works unchanged.
//
// From the IR it recovers what the APT holds:
//
//   - routines: every defined function, main as the program; formals by
//     their source names (debug info), a pointer used as one value a scalar
//     by reference, any other pointer an array;
//   - control: the CFG, dominators (Cooper, Harvey and Kennedy), natural
//     loops and their nesting, and per nesting level post-dominators that
//     give every branch the point where its arms meet; the CFG is turned back
//     into nested IF, SELECT CASE and DO constructs (EXIT, CYCLE and RETURN for
//     the edges that leave them);
//   - loops: a loop whose test compares an induction variable (a header phi
//     stepped by a constant) with a loop-invariant bound becomes a counted DO
//     whose Fortran trip count equals the C loop's (loops.go); a loop testing
//     any other side-effect-free condition in its header is a DO WHILE;
//     anything else is a DO with its exits inside;
//   - values: SSA values take the names of the source variables they hold
//     (llvm.dbg.value), and where two values of one variable overlap the
//     later is renamed, so assignments read like the source; phis become
//     copies on their edges; loads and stores of scalars whose address is
//     taken (a rank passed to MPI_Comm_rank) are reads and assignments of
//     the variable; array accesses are Index references with one subscript
//     per dimension;
//   - calls: the program's functions as CALLs or function references with
//     arguments bound like Fortran's (values by value, addresses by
//     reference); MPI calls of the C API as Comm nodes (Open MPI's handles
//     ompi_mpi_comm_world, ompi_mpi_double, ... by their MPI names); values
//     parsed from argv or read by scanf are input (IO READ), so they become
//     named parameters; printf and the like are output;
//   - costs: per statement the operations of its instructions: floating
//     point and integer arithmetic, integer arithmetic that only computes
//     addresses as subscript work, loads and stores of array elements,
//     comparisons, math library calls as intrinsics;
//   - positions: every node at its debug location, so diagnostics and
//     annotations point at the C/C++ line and column.
//
// IR that llir cannot read (the opaque pointers and attributes of LLVM 15
// and later) is refused with a message that says how to write readable IR;
// bad input never panics.
package llvmir
