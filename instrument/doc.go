// Package instrument is mkvet's instrumentation pass: it writes a copy of a
// Fortran program (fixed or free form) with probes keyed by APT node IDs and a
// small runtime module, so that a few small runs measure what the static
// model counts. MK times loop bodies in small-scale runs and joins the times
// with symbolic loop bounds (seed 000 §3); this package provides the runs'
// side of that join.
//
// Every routine counts its calls, every DO loop its entries and body
// executions (an innermost counted loop that cannot leave early adds its
// Fortran trip count on entry, since a counter in its body would stop the
// compiler vectorising it; Options.BodyCounters counts in the body always),
// every branch of an IF or SELECT CASE how often it is taken, and
// every MPI call its calls, messages and bytes sent and received (a transfer
// with MPI_PROC_NULL moves nothing and is not counted; a collective counts one
// message per call and side, as the static model does). Routines that are not
// called from inside a loop, their outermost loops and all MPI calls are
// timed, with MPI_Wtime in an MPI program and system_clock otherwise; a
// timed region's exclusive time leaves out the timed regions nested in it.
// Routines called from loops are counted but not timed: a timer costs tens of
// nanoseconds, more than a small routine's body. Options.NestTimers times
// every routine's outermost loops, those of routines called from loops too,
// so that each loop nest has its exclusive time (the nests of the routines
// it calls and its MPI calls taken out), the measured side of MK1001's
// shares; a GO TO or RETURN that leaves a timed nest closes its timer first.
//
// At MPI_FINALIZE (or the end of a serial program) each rank writes
// mkvet.<rank>.jsonl into $MKVET_OUT (default: the working directory): one
// "run" record (program time, clock, the measured cost of a timer pair and of
// a counter increment, how many ran, the estimated overhead, and a speed
// probe: a fixed 64 KB sweep timed on all ranks at once outside the program
// time, which shows a shared host's slow spells) and one "node"
// record per probe that ran, each with the run's parameter values. ReadRecords
// and ReadRun read them back; malformed lines are reported as file:line.
//
// Problem sizes (`!mk$ param`) reach the copy in one of three ways
// (ParamMode): a PARAMETER constant is rewritten in the copy (one build per
// value); a variable assigned from a constant reads $MKVET_PARAM_<NAME> at
// run time through the runtime's mkvet_ival, falling back to the constant; a
// value read from input or the command line must come with the run.
//
// The copy keeps Fortran's meaning around labels: a probe before a labelled
// statement takes over the label through a CONTINUE so that jumps still run
// it, and a DO loop ending on a statement with probes after it ends on a
// CONTINUE after them. A logical IF whose action needs probes becomes a
// block IF. Statements without probes are copied byte for byte.
package instrument
