// Package whatif is the what-if mathematics over a program's predicted time:
// given T(N, P) as a closed form, it answers how the program behaves at other
// process counts, problem sizes and grain sizes, and draws the answers. It
// does not care how the closed form was derived (by hand, from a Fortran
// program, from timings); a Model is a list of named terms, each a
// symbolic.Piecewise in seconds.
//
// # Tables
//
// Table evaluates a Model over a sweep of process counts (ParseSweep reads
// "1,2,4..4096"): the time T(P), the speedup S(P) = T(1)/T(P), the
// efficiency E(P) = S(P)/P (Pacheco, seed 004 §11.4), the share of the
// communication terms and the dominant term. Values are computed exactly
// (big.Rat semantics, symbolic.Func.Eval) wherever the closed form is
// rational at the point, and rounded to float64 once, at the end, so that
// printed digits are right; irrational points (log2(3)) fall back to float64
// evaluation and Row.Exact says so. Parameter values are float64 but are read
// as the shortest decimal that rounds to them, so 22.3e-6 is 223/10^7
// exactly.
//
// # Scalability
//
// Isospeed computes SCALA's isospeed scalability (Sun and Rover; seed 001
// eq. 1): psi(p, p') = p'*W / (p*W'), W' being the work that keeps the
// average unit speed W/(p*T) at p' what it was at p. ScaledCrossing is
// SCALA's range comparison via scalability (seed 001 Fig. 2); Compare finds
// the process counts where the faster of two variants changes (crossing
// points) directly from their closed forms.
//
// Grain finds MK's optimal grain size (seed 000 §5.4) from the symbolic
// derivative dT/dK = 0 and the best integer next to its roots; ConstantTime
// gives MK's constant-time curve (seed 000 §5.5): for each P, the problem size
// N at which T(N, P) equals a given time.
//
// # Numerics
//
// Root finding (Isospeed, ConstantTime, Grain, Compare's real crossing) is by
// bracketing and bisection in float64 and assumes the function is monotone
// on the bracket (average speed increasing in N, time increasing in N, one
// sign change of dT/dK per grid interval); where it is not, the answer is a
// sign change, not necessarily the only one. Integer answers (Grain's K,
// Compare's crossings) are decided by exact evaluation at integers.
//
// # Plots
//
// Plot draws time, speedup or efficiency against P on a log2 axis with
// gonum.org/v1/plot, one curve per problem size or variant, as SVG or PNG.
package whatif
