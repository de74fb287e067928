// Package counting counts the integer points of parametric sets exactly:
// how often each processor executes a statement, how many elements it sends,
// how many transfers it makes (SCALA/P3T, seed 001 §4), as closed forms in the
// problem sizes, the processor count and the processor id.
//
// A Set lists parameters, loop variables (outermost first) and a condition:
// affine constraints with coefficients that are constants or parameters
// (j2 <= j1*n1), floors, ceilings and mods by constants or parameters (BLOCK
// bounds floor(n*(k-1)/p) + 1 <= i <= floor(n*k/p), HPF BLOCK with ceil(n/p)
// and empty trailing processors, CYCLIC mod(i-1, p) == k-1, BLOCK-CYCLIC
// mod(floor((i-1)/b), p) == k-1), strides (mod(i - lb, s) == 0), min and max
// in bounds, joined by and, or and not. ParseSet reads isl's notation.
//
// Count and Sum return a symbolic.Piecewise: guarded quasi-polynomials whose
// values add where their guards hold. The method is iterated summation from
// the innermost variable out with case splits on the active bounds (Pugh,
// PLDI'94; Fahringer 1998), made exact: floors and congruences of a variable
// become new variables (v + b = m*q + r, 0 <= r < m), sums of polynomials are
// taken with Faulhaber's formulas, and every case carries the guard under
// which it applies. There is no approximation anywhere; what cannot be counted
// exactly is refused:
//
//   - ErrNotExact names the constraint: products of two variables, floors with
//     a parametric coefficient over a different parameter (floor(m*i/s) summed
//     over i counts by gcd(m, s), for which no quasi-polynomial exists), two
//     congruences with parametric moduli on one index, constant moduli next to
//     parametric ones where the count depends on the parameter's residue
//     (splitting on p mod 3 is future work), unbounded variables;
//   - ErrTooComplex when a count would exceed Options' limits on case-split
//     cells or expression size, instead of running for minutes.
//
// The brute-force enumerator in the tests is the oracle for all of it.
package counting
