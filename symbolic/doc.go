// Package symbolic is mkvet's exact expression algebra: the closed forms in
// problem sizes, processor counts and ranks that every later stage produces
// (loop bounds, counts, message sizes, T(N,P)).
//
// # Canonical form
//
// An Expr is kept in one canonical normal form, so that expressions equal by
// the identities below are equal as values (Equal) and print identically:
// N*(P+1) and N*P + N are one Expr, 2*N/4 is N/2. The form is an expanded sum
// of terms, each an exact rational coefficient (Rat: int64 fast path, math/big
// beyond) times a monomial, a product of atoms to integer powers, N/P being
// N*P^-1. Terms are ordered graded-lexicographically (highest total degree
// first). Atoms are:
//
//	symbols      integer-valued by default (Sym), or real-valued (RealSym)
//	floor(x)     ceil(x) is -floor(-x); floor(n + x) = n + floor(x) for integer n
//	trunc(x)     rounding toward zero: Fortran INT and integer division
//	min, max     flattened, deduplicated, common terms and content moved out
//	log2(x)      powers of two in x's content come out as integers
//	sqrt(x)      square content comes out; sqrt(x)^2 = x
//	1/s          the reciprocal of a sum s that does not divide exactly
//	ln 2         the constant, so that ln(x) = log2(x)*ln 2
//
// Integer division and remainder come in both semantics, named apart: IDiv
// and Mod are Fortran's (truncating: mod(a,b) = a - b*trunc(a/b)), FloorDiv
// and Modulo floor (modulo(a,b) = a - b*floor(a/b), so modulo(k*P, P) = 0).
//
// Simplification applies only identities that hold wherever both sides are
// defined (floor(N) = N for integer N, min(a,a) = a, constant folding inside
// every function). Facts that need assumptions, such as trunc(x) = floor(x)
// for x >= 0, are applied by Assumptions.Simplify.
//
// The form is canonical for polynomials and Laurent polynomials over the atoms,
// with atoms canonical recursively. Two limits are known: division by a sum is
// canonical only up to factorisation of the divisor (1/(N+1)^2 and
// 1/(N^2+2N+1) are different forms of one value), and identities between
// different functions beyond those listed (min(a,b) + max(a,b) = a + b) are
// not applied.
//
// # Assumptions and the compare oracle
//
// Assumptions hold relations (P >= 1, 0 <= me <= P-1, N >= P). Prove answers
// True, False or Unknown for e >= 0, e > 0 and e == 0 under them; it never
// answers wrongly. It splits min, max and trunc into cases, bounds floor(x)
// between x - 1 + 1/D and x, and proves polynomial signs by interval
// arithmetic and by substituting each symbol from one of its bounds (x = L + x'
// with x' >= 0) until all coefficients are non-negative. Before any proof it
// builds a few integer points that satisfy the relations (checked exactly,
// within a bounded number of evaluations) and tries no proof they
// contradict, which makes undecidable questions cheap without changing an
// answer. A relation whose symbols cancel when each is written as quotient
// and remainder (10*modulo(c,2) + 2*mod(i,2) == 8: parities, places in a
// cycle) is decided by enumerating the remainders with the assumptions of
// the same kind (residue.go), which the bounds on floor cannot do.
//
// # Text
//
// Parse reads the notation users type (N*N/P + 2*log2(P), floor(N/P),
// mod(N,P), ** or ^) and what the printers write. Format prints plain math
// (the default everywhere in mkvet), Fortran (REAL(8) arithmetic) and Go
// (float64 with package math); Parse(e.Format(s)) equals e for every syntax.
//
// # Evaluation
//
// Eval is exact (big.Rat semantics, ErrIrrational for log2(3)); EvalFloat
// rounds only irrational operations, floors of rational arguments being taken
// exactly. Compile prepares an expression for evaluation at many points with
// an int64 fast path.
package symbolic
