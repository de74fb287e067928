// Package symeval is the symbolic evaluation of an APT (SCALA, seed 001 §3;
// MK's attribute computation, seed 000 §2): it walks a program from its entry,
// keeps the value of every variable as an exact symbolic expression of the
// parameters, P and the rank, and records for every node the iteration domain
// in which it executes — the enclosing loops' variables with their bounds and
// the path condition of the enclosing branches — as an integer set the
// counting engine can count.
//
// Values come from constants, PARAMETER and DATA, assignments (def-use
// substitution along the walk), COMMON and module variables, actual-to-formal
// binding at calls (by reference for variables, by value for expressions) and
// function results. A variable assigned under a condition holds one
// alternative per path, each guarded by its condition, so that a block size
// computed as n/p + 1 on the first mod(n,p) ranks and n/p on the others stays
// exact. Recurrences of the form x = x + c with loop-invariant c get their
// closed forms; any other value changed by a loop, read at run time or
// returned by code the evaluation cannot see becomes a named parameter, never a
// guessed number: it is registered once with where it enters the program and
// how the user can give it.
//
// MPI_COMM_SIZE defines the symbol P and MPI_COMM_RANK the symbol rank, with
// 0 <= rank <= P-1, whatever the program calls its variables.
//
// Values travel between ranks as in the run: a broadcast gives every rank
// the root's value (the rank set to the root's), an all-reduction of known
// values their reduction, and at a point (P a number) the sends met are
// kept, so that a receive, a scatter, an allgather or a reduce gives each
// rank the value its sender had (p2p.go, scatter.go).
//
// At a point, a call or a loop whose symbolic evaluation would leave
// values of the data unknown (a set-up building a random matrix) is run
// instead, rank by rank, by the concrete machine (package concrete;
// concrete.go), its counts becoming occurrences and its integer arrays
// tables of numbers (tables.go).
//
// Control transfers that leave structured code (GOTO, EXIT and CYCLE under
// conditions the evaluation cannot place) are not modelled exactly: the
// affected occurrences are marked inexact with a note.
//
// Each loop nest also gets its footprint, the declared sizes of the arrays
// its statements refer to, evaluated in its calling context, and each
// innermost loop the bytes one iteration streams (footprint.go): the
// calibration's memory levels rest on them.
package symeval
