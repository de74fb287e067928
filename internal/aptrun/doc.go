// Package aptrun is a concrete tree-walking interpreter of the APT that
// counts executions: the brute-force oracle for the counting of issue 5
// ("per-rank count of every loop body equals brute-force execution counts —
// a tree-walking counter over the APT").
//
// Run executes one MPI rank of a program, given the communicator size P, the
// rank, and values for the program's parameters, and returns how many times
// every node ran (Counts.Exec), how many iterations every loop body ran
// (Counts.Iter), and the messages and bytes every MPI call sent
// (Counts.Msgs, Counts.Bytes). It deliberately shares nothing with mkvet's
// symbolic evaluation and counting: it runs the program, with concrete
// integer, real, logical, character and derived-type values, so that tests
// can compare the symbolic per-rank counts with brute force at sampled
// parameter points.
//
// # What it runs
//
// Control: counted DO (trip count max(0, (hi-lo+step)/step) computed once on
// entry, the DO variable's value after the loop as in Fortran), DO WHILE, DO
// without control, EXIT and CYCLE (with construct names, also EXIT from a
// named IF), logical, block and arithmetic IF, SELECT CASE (values, ranges,
// DEFAULT), plain, computed and assigned GO TO to a label in the same or an
// enclosing statement list (labelled DO terminations included), RETURN, STOP
// and ERROR STOP (which end the run normally, as does MPI_ABORT), FORALL and DO CONCURRENT
// (run as DO loops whose index variables are ordinary variables), masked
// assignment (WHERE statement and FORALL masks).
//
// Data: scalars; arrays of any rank with explicit, assumed-size, assumed-shape
// and deferred (ALLOCATE/DEALLOCATE) bounds, stored sparsely (untouched
// elements read as zero); array elements, sections with strides and vector
// subscripts, whole-array and elemental expressions, array constructors with
// implied DOs; derived-type scalars with scalar, array and allocatable
// components (also returned by functions); character variables and
// substrings. PARAMETER constants, DATA statements (repeat counts; values
// fill an array from its first element in array element order) and
// declaration initialisers initialise variables. Local variables of
// subroutines and functions are fresh on each call unless SAVEd or
// initialised; main program, module and COMMON variables are static.
// Variables never assigned read as zero (blanks, .false.).
//
// Procedures: subroutine calls and function references to routines of the
// program (external, internal and module procedures, found through host
// association and USE with ONLY and renames), actual arguments bound by
// reference for variables, array elements (sequence association) and
// sections, by value for expressions, keyword and missing optional
// arguments (PRESENT), procedures passed as arguments. Module variables
// (USE) and COMMON blocks (shared by block name and member position) are
// shared storage. GET_ENVIRONMENT_VARIABLE reads Config.Env (every variable
// it does not set is unset) and, with Config.Args, GET_COMMAND_ARGUMENT and
// GETARG give the arguments, as internal/runenv says. Other routines that
// are not in the program (libraries, GET_COMMAND_ARGUMENT without
// Config.Args, MPI calls the frontend does not model) do nothing; functions
// that are not in the program return zero.
//
// Parameters: a variable whose name is a key of Config.Params, or that a
// `!mk$ param` annotation of a routine that sees it names, holds the
// parameter value from the start of every routine that sees it, and every
// assignment to it (PARAMETER, DATA, assignment, READ, DO) is ignored.
// Dummy arguments are not parameters by name (they are associated with their
// actual, which may be one), except for the entry routine's dummies, which
// have no actual. An annotated parameter missing from Config.Params takes the
// annotation's default; without one, creating the variable is an error.
// A READ into a scalar variable that is not a parameter, and
// v = command_argument_count() without Config.Args, set it from
// Config.Params (an error when the name is missing); a READ into an array
// or derived-type object leaves it unchanged. A list-directed internal READ
// of INTEGER scalars whose text holds their values (READ (arg, *) n) reads
// them from the text instead. A READ item that reads a datum of a file an
// earlier item read (the same file, record and item number,
// internal/readpos: a deck read twice) takes the value of that earlier
// item's variable's name. command_argument_count() elsewhere in an
// expression is the number of Config.Args, or without them
// Config.Params["command_argument_count"], 0 by default.
//
// MPI: MPI_COMM_SIZE sets its result to Config.P and MPI_COMM_RANK to
// Config.Rank, whatever the communicator; other MPI calls move no data, set
// no output arguments (ierror, status, request) and only count. A point-to-point
// send (send, isend, ssend, bsend, rsend, issend, and the send side of
// sendrecv and sendrecv_replace) to a peer other than MPI_PROC_NULL (the
// frontend's predefined value, -2) counts one message of count times the
// datatype size bytes; every collective counts one message of the send side's
// count times datatype size bytes (0 when it has no send side, such as a
// barrier; a count array of the v-variants contributes its first P
// elements). Receives and waits count nothing.
//
// RunWorld runs all P ranks at once, each an engine of its own on one
// goroutine, and moves the contents of messages between them (world.go,
// collective.go): point-to-point messages queue by source and destination
// in the order sent (sends are buffered), a receive takes the first that
// matches, waits complete irecvs, and the k-th collective of every rank
// meets the others' k-th (broadcast, reductions, scatter, gather,
// allgather, all-to-all and their v-variants). It is the oracle for values
// carried between ranks; a deadlock or collectives that do not match are
// errors naming where each rank waits.
//
// # Counting
//
// Every node executed increments Counts.Exec[ID]: a Routine on each call
// (the entry once), a Loop each time its DO statement is reached (and
// Counts.Iter[ID] on each execution of its body), an If each time it is
// reached and the Branch taken, Block, Call, Comm, IO, Goto, Return, Stop,
// Exit, Cycle, Continue and Region nodes each time they run. Counts are
// summed over all calls of a routine (context-insensitive by node ID).
// Function references in WRITE/PRINT output lists run; other I/O does
// nothing. Arguments of MPI calls are evaluated only as far as counting
// needs (the send side's peer and count), arguments of routines outside the
// program not at all. `!mk$ iterations` annotations are ignored (loops run
// their real trip counts) and `!mk$ assume` annotations are not checked:
// choosing parameter values that satisfy them is the caller's business.
//
// Run only reads the program, so ranks may run concurrently on one Program.
//
// # What it does not run
//
// Run returns an error naming the source position (never panics) for:
// Unknown nodes (statements the frontend did not model), pointer assignment
// and ASSOCIATED, alternate returns, WHERE constructs (an IF with an
// array-valued condition), components of arrays of derived type (a(i)%x
// where a(i) is an element works; a%x for an array a does not), COMMON
// blocks declared with different numbers of members or different member
// shapes in different scopes (EQUIVALENCE-like storage association),
// ALLOCATE with SOURCE= or MOLD=, intrinsic functions outside the supported
// set below (so MATMUL, TRANSPOSE, RESHAPE, SPREAD, CSHIFT, EOSHIFT, PACK,
// UNPACK, TRANSFER, NORM2, ISHFTC, NEAREST, ... are errors), reductions with
// DIM= on arrays of rank > 1, MAXLOC/MINLOC other than on one rank-1 array,
// subscripts out of bounds (checked except in the last dimension of a dummy
// array, where the actual's storage bounds are checked instead), integer
// division by zero, an unknown GO TO label, a section or whole-array
// operation of more than 2^24 elements, a character length above 2^20,
// calls nested more than 2000 deep, and running past Config.MaxSteps.
// All reals are float64 and all integers int64 whatever their kind (no
// overflow at 32 bits); .and. and .or. short-circuit.
//
// Supported intrinsic functions: elemental ABS ACHAR ACOS ADJUSTL ADJUSTR
// AIMAG AINT ANINT ASIN ATAN ATAN2 BTEST CEILING CHAR CMPLX CONJG COS COSH
// DBLE DCMPLX DIM DPROD ERF ERFC EXP FLOOR GAMMA HYPOT IACHAR IAND ICHAR IEOR
// INDEX INT IOR ISHFT LEN_TRIM LGE LGT LLE LLT LOG LOG10 MAX MERGE MIN MOD
// MODULO NINT NOT REAL SIGN SIN SINH SQRT TAN TANH and their specific names
// (IABS, DSQRT, AMAX1, DMOD, IDNINT, FLOAT, SNGL, ...); reductions SUM
// PRODUCT MAXVAL MINVAL COUNT ANY ALL DOT_PRODUCT MAXLOC MINLOC; inquiry
// SIZE LBOUND UBOUND SHAPE ALLOCATED PRESENT LEN KIND HUGE TINY EPSILON
// DIGITS PRECISION RANGE BIT_SIZE SELECTED_REAL_KIND SELECTED_INT_KIND; TRIM
// REPEAT COMMAND_ARGUMENT_COUNT IARGC.
//
// A procedure passed as an actual argument must be EXTERNAL, a module
// procedure or an internal procedure; intrinsic procedures passed as
// arguments are not recognised.
package aptrun
