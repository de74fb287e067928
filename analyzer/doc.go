// Package analyzer holds mkvet's language-neutral check catalogue: the checks
// that turn a costed APT (a cost.Report, optionally evaluated at a point of
// the parameters and P) into vet-style diagnostics.
//
// Every check has a stable ID that is never renumbered (IDs become SARIF
// rule IDs and users suppress by them), a title, a documentation paragraph,
// a Fortran example that triggers it and the figures ("facts") it reports,
// all kept as data in Checks beside the rule, as staticcheck documents its
// analyzers (honnef.co/go/tools analysis/lint). The ranges are
//
//	MK1xxx  cost and complexity (hot loop nests, load imbalance, serial work)
//	MK2xxx  communication and scalability (messages inside loops)
//	MK3xxx  input and annotation problems (values the analysis had to make
//	        parameters, evaluation problems, approximate counts)
//
// Checks work in two modes. At a point (Run given a *cost.Point) they use the
// per-rank values: shares of the predicted work, max/mean imbalance ratios,
// the heaviest ranks. Without a point the counts are closed forms in the
// problem sizes, P and rank, and the checks reason about them symbolically:
// whether a count depends on rank (the load differs across ranks) or on P
// (the work shrinks as processes are added), and what share of the work a
// node holds as the problem grows. That share is the limit, as every problem
// size grows by a common factor t with P and rank fixed (sizes positive), of
// the node's work over the program's: the ratio of the leading coefficients
// of t^k*log2(t)^j, where floor and trunc of a growing argument are replaced
// by the argument, min and max by their dominant argument, and guards are
// settled by the assumptions or by the sign of their leading coefficient.
// Cases on rank and P are kept; they must partition the ranks with one
// leading coefficient (checked for P up to 16) for the limit to be a single
// closed form. The same leading terms tell whether a load imbalance persists
// at scale (its leading term depends on rank) or whether a loop's work grows
// as fast as the program's. The limit is exact where it is defined; where it
// is not (a leading term that differs by rank, sqrt of an odd power, a guard
// whose truth does not settle), the check stays silent rather than guess.
//
// Messages follow vet's style: lower case, no trailing period, carrying the
// fact and its size, with closed forms printed in mkvet's expression notation
// and, at a point, their values:
//
//	loop runs n/P - 1 iterations per rank and holds 87% of the predicted work (n=1024, P=8: 127 iterations)
package analyzer
