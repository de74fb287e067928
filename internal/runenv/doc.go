// Package runenv is what a program sees of the process it runs in: its
// environment variables and its command line, as Fortran's intrinsic
// procedures GET_ENVIRONMENT_VARIABLE, COMMAND_ARGUMENT_COUNT and
// GET_COMMAND_ARGUMENT give them (Fortran 2008 13.7.67, 13.7.31 and
// 13.7.66), the list-directed reading of the words a program takes from
// them (READ (arg, *) n), and the input files it reads: list-directed
// records (ListRead, Fortran 2008 10.10) and namelist input (NamelistRead,
// 10.11), the values as written, for the caller to convert to its items'
// types (Integer, Real, Logical).
//
// The symbolic evaluation (symeval) and the concrete interpreter
// (internal/aptrun) both call it, so that the two give these procedures
// one semantics. A nil environment is one where no variable is set, the
// environment a user's normal run has for the variables a program reads
// to change its defaults; a nil command line is one not given, which only
// the caller can stand for (a parameter, a value of the run).
package runenv
