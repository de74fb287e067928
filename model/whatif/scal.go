package whatif

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

// slot returns the index of the variable name in f's point, -1 when the
// model does not depend on it.
func (f *ModelFunc) slot(name string) int { return slices.Index(f.vars, name) }

// setFloat sets variable i of pt (no-op for -1).
func (pt *point) setFloat(i int, v float64) {
	if i >= 0 {
		pt.f[i] = v
	}
}

// setExact sets variable i of pt to an integer, exactly (no-op for -1).
func (pt *point) setExact(i int, v int64) {
	if i >= 0 {
		pt.setInt(i, v)
	}
}

// Isospeed returns SCALA's isospeed scalability from p to p2 processes
// (Sun and Rover; seed 001 eq. 1)
//
//	psi(p, p2) = p2*W / (p*W2)
//
// and the problem size n2 that achieves it. W = work(N) at N = env[n] is
// the work at p processes, and W2 = work(n2) the work at p2 processes that
// keeps the average unit speed W/(p*T(N, p)) what it is at (N, p): n2 solves
//
//	work(n2) / (p2*T(n2, p2)) = work(N) / (p*T(N, p)).
//
// The other symbols of work and m take their values from env. n2 is found
// by bracketing from N (doubling or halving) and bisection in float64,
// which assumes that the average speed at p2 increases with the problem
// size; the error says when no problem size up to 2^1000*N keeps the
// speed (the code-machine combination is not scalable to p2). psi is 1 for
// ideal scaling and smaller as more work per process is needed.
func Isospeed(work symbolic.Expr, m Model, n string, env map[string]float64, p, p2 int64) (psi, n2 float64, err error) {
	if p < 1 || p2 < 1 {
		return 0, 0, fmt.Errorf("whatif: isospeed from %d to %d processes: process counts start at 1", p, p2)
	}
	speed, err := averageSpeed(work, m, n, env)
	if err != nil {
		return 0, 0, err
	}
	n0 := env[n]
	return isospeed(speed, n0, p, p2)
}

// averageSpeed compiles the average unit speed W(N)/(P*T(N, P)) as a
// function of N and P; it also returns W(N).
func averageSpeed(work symbolic.Expr, m Model, n string, env map[string]float64) (func(N float64, P int64) (speed, w float64), error) {
	f, err := m.Compile()
	if err != nil {
		return nil, err
	}
	n0, ok := env[n]
	if !ok {
		return nil, fmt.Errorf("whatif: no value for %s, the problem size", n)
	}
	if !(n0 > 0) {
		return nil, fmt.Errorf("whatif: problem size %s = %g is not positive", n, n0)
	}
	wvars := append(work.Symbols(), n)
	slices.Sort(wvars)
	wvars = slices.Compact(wvars)
	wf, err := compileExpr(work, wvars)
	if err != nil {
		return nil, fmt.Errorf("whatif: work %v: %w", work, err)
	}
	wpt, err := bindVars(wvars, env, func(name string) bool { return name == n })
	if err != nil {
		return nil, fmt.Errorf("whatif: work %v: %w", work, err)
	}
	pt, err := f.bind(env, true, n)
	if err != nil {
		return nil, err
	}
	wn, tn, tp := slices.Index(wvars, n), f.slot(n), f.slot(m.Size)
	return func(N float64, P int64) (float64, float64) {
		wpt.setFloat(wn, N)
		w, _ := wf.eval(wpt, false)
		pt.setFloat(tn, N)
		pt.setFloat(tp, float64(P))
		t, err := f.evalFloat(pt)
		if err != nil {
			return math.NaN(), w.f
		}
		return w.f / (float64(P) * t), w.f
	}, nil
}

// isospeed solves the isospeed condition for speed, from (n0, p) to p2.
func isospeed(speed func(float64, int64) (float64, float64), n0 float64, p, p2 int64) (psi, n2 float64, err error) {
	target, w0 := speed(n0, p)
	if math.IsNaN(target) || math.IsInf(target, 0) {
		return 0, 0, fmt.Errorf("whatif: average speed at N = %g, P = %d is %g", n0, p, target)
	}
	if p2 == p {
		return 1, n0, nil
	}
	g := func(N float64) float64 {
		s, _ := speed(N, p2)
		return s - target
	}
	n2, err = solveIncreasing(g, n0, n0*0x1p-1000, n0*0x1p1000)
	if err != nil {
		why := "it is not a number"
		switch err {
		case errShort:
			why = fmt.Sprintf("it stays below up to N = 2^1000*%g", n0)
		case errAbove:
			why = fmt.Sprintf("it stays above down to N = 2^-1000*%g", n0)
		}
		return 0, 0, fmt.Errorf("whatif: no problem size keeps the average speed %.6g of N = %g, P = %d at P = %d: %s", target, n0, p, p2, why)
	}
	_, w2 := speed(n2, p2)
	return float64(p2) * w0 / (float64(p) * w2), n2, nil
}

// Failures of solveIncreasing: g stays negative up to the upper limit
// (short) or positive down to the lower one (above), or is NaN.
var (
	errShort = errors.New("below the target up to the limit")
	errAbove = errors.New("above the target down to the limit")
	errNaN   = errors.New("not a number")
)

// solveIncreasing finds x in [min, max] with g(x) = 0 for g increasing:
// it brackets the root from x0 by doubling (or halving) and bisects to
// relative precision 2^-50. Exact zeros at the bracket ends are returned
// as they are.
func solveIncreasing(g func(float64) float64, x0, lo, hi float64) (float64, error) {
	a, b := x0, x0
	ga := g(x0)
	switch {
	case ga == 0:
		return x0, nil
	case math.IsNaN(ga):
		return 0, errNaN
	case ga < 0:
		for {
			b = min(2*b, hi)
			gb := g(b)
			if gb >= 0 {
				if gb == 0 {
					return b, nil
				}
				break
			}
			if math.IsNaN(gb) {
				return 0, errNaN
			}
			if b == hi {
				return 0, errShort
			}
			a = b
		}
	default:
		for {
			a = max(a/2, lo)
			ga = g(a)
			if ga <= 0 {
				if ga == 0 {
					return a, nil
				}
				break
			}
			if math.IsNaN(ga) {
				return 0, errNaN
			}
			if a == lo {
				return 0, errAbove
			}
			b = a
		}
	}
	return bisect(g, a, b), nil
}

// bisect returns the point where g changes sign in [a, b], g(a) and g(b)
// having opposite signs, to relative precision 2^-50.
func bisect(g func(float64) float64, a, b float64) float64 {
	sa := g(a) < 0
	for range 200 {
		mid := a + (b-a)/2
		if mid == a || mid == b || b-a <= 0x1p-50*math.Abs(b) {
			break
		}
		if (g(mid) < 0) == sa {
			a = mid
		} else {
			b = mid
		}
	}
	return a + (b-a)/2
}

// Variant names one of the two models Compare compares.
type Variant int

const (
	// A is Compare's first model.
	A Variant = iota + 1 // a
	// B is Compare's second model.
	B // b
)

// String returns "a" or "b".
func (v Variant) String() string {
	switch v {
	case A:
		return "a"
	case B:
		return "b"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Crossing is a performance crossing point (seed 001 §2): the process
// count at which the faster of two variants changes.
type Crossing struct {
	// From is the last process count at which Before is faster, To the
	// first at which After is; To = From + 1 unless the two take equal
	// time in between.
	From, To      int64
	Before, After Variant
	// At is the real process count in [From, To] at which the times are
	// equal, the closed forms being evaluated at real P (a step, for
	// floor(N/P) and the like, when they are not continuous).
	At float64
}

// Compare returns the crossing points of a and b over the process counts
// ps (in any order): where the faster variant changes between two
// consecutive counts, the integers between them are searched by bisection
// for the first count at which the new variant is faster. Times are
// compared exactly wherever both are rational. A variant is faster only
// when strictly faster; at equal times neither is.
//
// Crossings are found between samples where the faster variant differs;
// two crossings between the same two samples cancel and are not seen (pass
// every integer, "1..4096:+1", to see all). SCALA's Fig. 2 (seed 001)
// reaches crossing points through scalabilities, from times at one
// ensemble size (ScaledCrossing); with closed forms for both variants the
// times themselves can be compared at every P for a fixed problem size.
func Compare(a, b Model, env map[string]float64, ps []int64) ([]Crossing, error) {
	fa, err := a.Compile()
	if err != nil {
		return nil, err
	}
	fb, err := b.Compile()
	if err != nil {
		return nil, err
	}
	pa, err := fa.bind(env, true)
	if err != nil {
		return nil, err
	}
	pb, err := fb.bind(env, true)
	if err != nil {
		return nil, err
	}
	// faster returns A, B or 0 (equal) at process count p.
	faster := func(p int64) (Variant, error) {
		ta, err := fa.evalP(pa, p, nil)
		if err != nil {
			return 0, fmt.Errorf("variant a: %w", err)
		}
		tb, err := fb.evalP(pb, p, nil)
		if err != nil {
			return 0, fmt.Errorf("variant b: %w", err)
		}
		var c int
		if ta.exact && tb.exact {
			c = ta.r.Cmp(tb.r)
		} else {
			c = cmpFloat(ta.float(), tb.float())
		}
		switch {
		case c < 0:
			return A, nil
		case c > 0:
			return B, nil
		}
		return 0, nil
	}
	diff := func(x float64) float64 {
		pa.setFloat(fa.size, x)
		pb.setFloat(fb.size, x)
		ta, erra := fa.evalFloat(pa)
		tb, errb := fb.evalFloat(pb)
		if erra != nil || errb != nil {
			return math.NaN()
		}
		return ta - tb
	}
	ps = slices.Clone(ps)
	slices.Sort(ps)
	ps = slices.Compact(ps)
	var out []Crossing
	var last Variant
	var lastP int64
	for _, p := range ps {
		v, err := faster(p)
		if err != nil {
			return nil, err
		}
		if v == 0 {
			continue
		}
		if last != 0 && v != last {
			c := Crossing{Before: last, After: v}
			// Smallest q in (lastP, p] where v is faster, then the
			// largest q in [lastP, To) where last is.
			lo, hi := lastP, p
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				w, err := faster(mid)
				if err != nil {
					return nil, err
				}
				if w == v {
					hi = mid
				} else {
					lo = mid
				}
			}
			c.To = hi
			lo = lastP
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				w, err := faster(mid)
				if err != nil {
					return nil, err
				}
				if w == last {
					lo = mid
				} else {
					hi = mid
				}
			}
			c.From = lo
			c.At = bisect(diff, float64(c.From), float64(c.To))
			if math.IsNaN(c.At) {
				c.At = float64(c.To)
			}
			out = append(out, c)
		}
		last, lastP = v, p
	}
	return out, nil
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// ScaledRange is the result of ScaledCrossing.
type ScaledRange struct {
	// Faster is the variant that is faster at the initial ensemble size,
	// and Alpha = t_slower/t_faster > 1 there.
	Faster Variant
	Alpha  float64
	// Crossing is the smallest scaled crossing point, 0 when there is none
	// up to the limit.
	Crossing int64
	// Phi and Psi are the scalabilities psi(p, Crossing) of the slower and
	// the faster variant (at the limit when there is no crossing).
	Phi, Psi float64
}

// ScaledCrossing is SCALA's range comparison via crossing-point analysis
// (seed 001 Fig. 2). At p processes and problem size N = env[n] one
// variant is faster: t_slow(p, W) = alpha*t_fast(p, W) with alpha > 1. For
// p' = p+1, p+2, ... up to limit it computes the isospeed scalability
// Phi(p, p') of the slower variant and Psi(p, p') of the faster one and
// stops at the first p' with Phi > alpha*Psi: the smallest scaled crossing
// point, the faster variant being superior at every ensemble size in
// [p, p'). Without such p' the faster one is superior over all of [p,
// limit]. Both variants share the work closed form work(n).
//
// The paper's combination 1, the one with t = alpha*T, alpha > 1, is read
// as the slower one with scalability Phi; Phi and Psi are 0 when limit = p.
func ScaledCrossing(work symbolic.Expr, a, b Model, n string, env map[string]float64, p, limit int64) (ScaledRange, error) {
	if p < 1 || limit < p {
		return ScaledRange{}, fmt.Errorf("whatif: scaled crossing from %d up to %d processes", p, limit)
	}
	sa, err := averageSpeed(work, a, n, env)
	if err != nil {
		return ScaledRange{}, fmt.Errorf("variant a: %w", err)
	}
	sb, err := averageSpeed(work, b, n, env)
	if err != nil {
		return ScaledRange{}, fmt.Errorf("variant b: %w", err)
	}
	n0 := env[n]
	// Times from speeds: the work is common, so t_a/t_b = speed_b/speed_a.
	va, _ := sa(n0, p)
	vb, _ := sb(n0, p)
	r := ScaledRange{Faster: A, Alpha: va / vb}
	slow, fast := sb, sa
	if vb > va {
		r.Faster, r.Alpha, slow, fast = B, vb/va, sa, sb
	}
	if r.Alpha == 1 {
		return ScaledRange{}, fmt.Errorf("whatif: variants take equal time at %d processes: no faster one to compare", p)
	}
	for p2 := p + 1; p2 <= limit; p2++ {
		phi, _, err := isospeed(slow, n0, p, p2)
		if err != nil {
			return ScaledRange{}, fmt.Errorf("slower variant: %w", err)
		}
		psi, _, err := isospeed(fast, n0, p, p2)
		if err != nil {
			return ScaledRange{}, fmt.Errorf("faster variant: %w", err)
		}
		r.Phi, r.Psi = phi, psi
		if phi > r.Alpha*psi {
			r.Crossing = p2
			return r, nil
		}
	}
	return r, nil
}

// Grain returns the optimal grain size (MK, seed 000 §5.4): the integer K
// in [lo, hi] that minimizes T, found from the symbolic derivative dT/dK,
// taken piece by piece. The roots of dT/dK = 0 are bracketed on a
// geometric grid over [lo, hi] and refined by bisection in float64; the
// integers next to each root and the endpoints lo and hi are the
// candidates, and T is evaluated at them exactly. Ties go to the smaller K.
// dTdK is the derivative of the pieces in effect at kBest, in every symbol.
//
// T must not take floor, trunc, min or max of K (the error then wraps
// symbolic.ErrNotDifferentiable; GrainSweep needs no derivative). A T
// with several local minima in one grid interval (1/1024 of the range on a
// log scale) may hide one of them.
func Grain(m Model, k string, lo, hi int64, env map[string]float64) (kBest int64, tBest float64, dTdK symbolic.Expr, err error) {
	if lo < 1 || hi < lo {
		return 0, 0, symbolic.Expr{}, fmt.Errorf("whatif: grain range %d..%d: want 1 <= lo <= hi", lo, hi)
	}
	f, err := m.Compile()
	if err != nil {
		return 0, 0, symbolic.Expr{}, err
	}
	// The derivative, piece by piece, over the same variables.
	total := m.Total()
	var deriv symbolic.Piecewise
	for _, pc := range total.Pieces {
		d, err := pc.Value.Diff(k)
		if err != nil {
			return 0, 0, symbolic.Expr{}, fmt.Errorf("whatif: dT/d%s: %w", k, err)
		}
		deriv.Pieces = append(deriv.Pieces, symbolic.Piece{Guard: pc.Guard, Value: d})
	}
	df, err := compilePiecewise(deriv, f.vars)
	if err != nil {
		return 0, 0, symbolic.Expr{}, fmt.Errorf("whatif: dT/d%s: %w", k, err)
	}
	pt, err := f.bind(env, false, k)
	if err != nil {
		return 0, 0, symbolic.Expr{}, err
	}
	ks := f.slot(k)
	slope := func(x float64) float64 {
		pt.setFloat(ks, x)
		v, err := evalPieces(df, pt, false)
		if err != nil {
			return math.NaN()
		}
		return v.float()
	}

	cands := []int64{lo, hi}
	add := func(r float64) {
		c := int64(math.Floor(r))
		for q := c - 1; q <= c+2; q++ {
			if q >= lo && q <= hi {
				cands = append(cands, q)
			}
		}
	}
	const grid = 1024
	n := min(hi-lo, grid)
	prevX, prevD := float64(lo), slope(float64(lo))
	for i := int64(1); i <= n; i++ {
		x := float64(lo) * math.Pow(float64(hi)/float64(lo), float64(i)/float64(n))
		if i == n {
			x = float64(hi)
		}
		d := slope(x)
		switch {
		case prevD == 0:
			add(prevX)
		case prevD < 0 && d > 0:
			// A minimum: dT/dK goes from - to +.
			add(bisect(slope, prevX, x))
		}
		prevX, prevD = x, d
	}
	if prevD == 0 {
		add(prevX)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)

	var best value
	for _, q := range cands {
		pt.setExact(ks, q)
		t, err := f.evalTerms(pt, true, nil)
		if err != nil {
			return 0, 0, symbolic.Expr{}, fmt.Errorf("whatif: at %s = %d: %w", k, q, err)
		}
		if kBest == 0 || less(t, best) {
			kBest, best = q, t
		}
	}

	// The derivative of the pieces whose guards hold at kBest.
	pt.setExact(ks, kBest)
	for i, pc := range df {
		holds := true
		for j := range pc.guard {
			ok, err := pc.guard[j].holds(pt, pc.ops[j], true)
			if err != nil {
				return 0, 0, symbolic.Expr{}, err
			}
			holds = holds && ok
		}
		if holds {
			dTdK = dTdK.Add(deriv.Pieces[i].Value)
		}
	}
	return kBest, best.float(), dTdK, nil
}

// less reports x < y, exactly when both are exact.
func less(x, y value) bool {
	if x.exact && y.exact {
		return x.r.Cmp(y.r) < 0
	}
	return x.float() < y.float()
}

// GrainSweep is Grain by brute force: T evaluated exactly at every integer
// K in [lo, hi] (at most 2^24 of them), the smallest K of the least time.
func GrainSweep(m Model, k string, lo, hi int64, env map[string]float64) (kBest int64, tBest float64, err error) {
	if lo < 1 || hi < lo || hi-lo >= maxSweep {
		return 0, 0, fmt.Errorf("whatif: grain range %d..%d: want 1 <= lo <= hi, at most %d values", lo, hi, maxSweep)
	}
	f, err := m.Compile()
	if err != nil {
		return 0, 0, err
	}
	pt, err := f.bind(env, false, k)
	if err != nil {
		return 0, 0, err
	}
	ks := f.slot(k)
	var best value
	for q := lo; q <= hi; q++ {
		pt.setExact(ks, q)
		t, err := f.evalTerms(pt, true, nil)
		if err != nil {
			return 0, 0, fmt.Errorf("whatif: at %s = %d: %w", k, q, err)
		}
		if q == lo || less(t, best) {
			kBest, best = q, t
		}
	}
	return kBest, best.float(), nil
}

// NoSolutionError reports the process counts at which ConstantTime found
// no problem size.
type NoSolutionError struct {
	T0  float64 // the time asked for, seconds
	P   []int64 // process counts without a solution
	Why []string
}

func (e *NoSolutionError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "whatif: no problem size takes %g s at", e.T0)
	for i, p := range e.P {
		if i > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, " P = %d (%s)", p, e.Why[i])
	}
	return b.String()
}

// constantTimeMax is the largest problem size ConstantTime tries.
const constantTimeMax = 0x1p62

// ConstantTime returns MK's constant-time curve (seed 000 §5.5): for each
// process count in ps, the problem size N = n in [1, 2^62] at which
// T(N, P) = t0 (a real number; its floor is the largest integer N that
// takes at most t0 where T increases with N). Other symbols take their
// values from env. T is assumed to increase with N; the root is found by
// doubling from N = 1 and bisection in float64.
//
// Where some P have no solution (T(1, P) > t0 already, as with a pipeline
// fill time that grows with P, or T stays below t0) their entries are NaN
// and the error, a *NoSolutionError, lists them; the other entries are
// valid.
func ConstantTime(m Model, n string, t0 float64, ps []int64, env map[string]float64) ([]float64, error) {
	f, err := m.Compile()
	if err != nil {
		return nil, err
	}
	if !(t0 > 0) || math.IsInf(t0, 0) {
		return nil, fmt.Errorf("whatif: constant time %g s is not positive and finite", t0)
	}
	pt, err := f.bind(env, true, n)
	if err != nil {
		return nil, err
	}
	ns, sp := f.slot(n), f.slot(m.Size)
	out := make([]float64, len(ps))
	var none *NoSolutionError
	for i, p := range ps {
		if p < 1 {
			return nil, fmt.Errorf("whatif: %s = %d: process counts start at 1", m.Size, p)
		}
		pt.setFloat(sp, float64(p))
		g := func(N float64) float64 {
			pt.setFloat(ns, N)
			t, err := f.evalFloat(pt)
			if err != nil {
				return math.NaN()
			}
			return t - t0
		}
		why := ""
		if g1 := g(1); g1 > 0 {
			why = fmt.Sprintf("T(%s=1) = %.6g s", n, g1+t0)
		} else if x, err := solveIncreasing(g, 1, 1, constantTimeMax); err == errShort {
			why = fmt.Sprintf("T stays below it up to %s = 2^62", n)
		} else if err != nil {
			why = fmt.Sprintf("T is %v", err)
		} else {
			out[i] = x
		}
		if why != "" {
			out[i] = math.NaN()
			if none == nil {
				none = &NoSolutionError{T0: t0}
			}
			none.P = append(none.P, p)
			none.Why = append(none.Why, why)
		}
	}
	if none != nil {
		return out, none
	}
	return out, nil
}
