// Package phase is the static communication analysis of a costed program
// and the composition of its predicted time T(N, P) (MK, seed 000 §3–4,
// with the communication phase graph built from closed forms instead of a
// trace).
//
// Analyze evaluates every point-to-point call symbolically: whom each rank
// sends to or receives from (rank+1, rank-px, 0, a loop variable), how many
// messages of how many bytes, per rank, as closed forms in the problem sizes,
// P and the rank. A send whose peer is rank+d matches a receive whose peer
// is rank-d (tags permitting); a send to a fixed rank c matches a receive
// that rank c performs. The connected components of these matches are the
// phases (MK's Fig. 2 steps 1–2). Each is classified from its calls and the
// closed forms of its sender and receiver lists (MK's SL and RL):
//
//   - exchange: MPI_Sendrecv or nonblocking sends and receives;
//   - pipeline: some rank receives and then sends, the blocking receive
//     coming first in the loop body (MK's async flag); its chain depth D is
//     the longest chain of messages, fitted to a closed form (P, P/2, px,
//     P/px ...) that equals it at every sample;
//   - shift: sends before receives (loosely synchronous, MK's default);
//   - fan-in or fan-out: many ranks to one fixed rank or back (flagged: LogGP
//     charges no contention at the root and is optimistic there).
//
// The work between a pipeline's receive and its send (between a shift's send
// and receive) is the phase's W. Consecutive phases overlap when no rank that
// receives in the first sends in the second (MK's Complexity(V) loop); two
// pipelines of one loop body along different offsets whose receives both
// precede their sends form a wavefront over a 2D grid of ranks, costed by
// Brim's StartP recursion (seed 002 eq. 4–6), whose closed form is
// StartP(i, j) = (i-1)a + (j-1)b: every monotone path of the grid has i-1
// steps of one kind and j-1 of the other.
//
// Decisions that need values (which ranks send, chain lengths, overlap, the
// rank at which a maximum is attained) are taken at sample points: P over
// 1..16 and a few larger counts, the parameters at their defaults or the
// values Options.Env gives (closed forms that may use P). Closed forms are
// checked against the samples, never assumed: a chain depth is a candidate
// closed form equal to the longest chain at every sample with traffic; a
// maximum over ranks is the value at rank 0 or P-1 (or a relaxed form) only
// where it equals the maximum over all ranks at every sample, and says so
// (Max.Method) otherwise.
//
// Model turns the analysis and a machine profile into a whatif.Model: a
// compute term (max over ranks of the work outside the phases, or the mean
// with Balance), one term per step of the phase composition with MK's
// §4.1 formulas, and one per collective with the algorithm model.Collective
// assumes.
package phase
