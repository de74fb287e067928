// Package trace is mkvet's event traces and what it does with them: MK's
// communication phase graph (seed 000 §3, Fig. 2), PerWiz's LogGPS replay
// of a run's happened-before DAG and its what-ifs (seed 003), and Chrome
// trace / Perfetto timelines. A trace is either measured (a run of a
// program instrumented with mkvet instrument -events, read from its raw
// per-rank files by ReadRawDir, clocks corrected to rank 0's) or predicted
// (Predict: the program's APT executed at a concrete (N, P), computation
// costed by the operation counts and messages by LogGPS); every analysis
// works on both.
//
// # Events and files
//
// Each rank's events are its MPI calls (entry and exit times, peers as
// MPI_COMM_WORLD ranks, tags, bytes, communicator group, root, requests,
// call-site APT node) and the entries and exits of its timed regions
// (routines called outside loops, outermost loops), in program order; the
// computation is the time between them. The trace file (Write, Read) is
// columnar with varint deltas, about 15 bytes an event (a million-event
// run in 15 MiB); a malformed file, or raw file, gives a FormatError naming
// the file and the byte offset, never a panic.
//
// # Matching and replay
//
// Match pairs the k-th send from s to d with tag m with the k-th receive
// on d from s with tag m (MPI's non-overtaking rule), waits with the
// isends and irecvs whose requests they complete, and collectives by their
// order on each member. A Replayer replays the graph under LogGPS (L, o, G
// and the synchronous threshold S; Params): a receive completes its own
// time after the later of its call and its message's arrival (the send's
// call plus o + L + m*G), a synchronous send after the later of its call
// and the receive's call plus L, a collective after its members' calls. In
// the Measured mode each call's own time is its measured duration less the
// waiting LogGPS separates (PerWiz §4), so a replay without a change gives
// the trace back; in the Modelled mode every call costs what LogGPS says.
// The ranks advance in turns, each as far as the calls it waits for allow:
// no DAG is built, and a million events replay in about 40 ms.
//
// # What-ifs (PerWiz F1-F3) and phases (MK)
//
// ZeroWaitAt zeroes the waiting time of the calls at given APT nodes;
// Balance spreads the computation of each parallel step of a region (the
// k-th execution of a timed routine or loop nest on every rank) evenly;
// Domino follows the waits that end the run back through the partners
// they waited for (PerWiz's domino path) and finds the wait whose removal
// gains most; LowerBounds sums each rank's breakdown (F3). CPG builds MK's
// phases from the matched messages: connected components of call points,
// MK's async flag (a rank receives in the phase before it first sends),
// pipeline depth as the longest chain of its pairs; phases under one APT
// ancestor through which ranks pass data on (a receive in one, the next
// send in the other) are one wavefront (seed 002), and two shifts that are
// each other's reverse one exchange.
package trace
