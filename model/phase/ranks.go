package phase

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Sample is one point at which the analysis evaluates closed forms per rank:
// P and a value for every parameter of the report.
type Sample struct {
	Env map[string]int64 // P and the parameters
	P   int64
	// vars and vals are Env in the order compiled functions take it, rank
	// last.
	vars []string
	vals []int64
	// rats is Env as rationals, made once (at): a whole application's
	// sample holds hundreds of defaulted values, and the matching of its
	// calls evaluates closed forms at it thousands of times.
	rats map[string]symbolic.Rat
}

func newSample(env map[string]int64) *Sample {
	s := &Sample{Env: env, P: env[cost.Size]}
	for k := range env {
		if k != cost.Rank {
			s.vars = append(s.vars, k)
		}
	}
	slices.Sort(s.vars)
	s.vars = append(s.vars, cost.Rank)
	s.vals = make([]int64, len(s.vars))
	for i, k := range s.vars[:len(s.vars)-1] {
		s.vals[i] = env[k]
	}
	return s
}

// perRank evaluates pw at every rank of the sample. Symbols the sample does
// not give are an error.
func (s *Sample) perRank(pw symbolic.Piecewise) ([]symbolic.Rat, error) {
	f, err := pw.Compile(s.vars)
	if err != nil {
		return nil, err
	}
	out := make([]symbolic.Rat, s.P)
	for r := int64(0); r < s.P; r++ {
		s.vals[len(s.vals)-1] = r
		v, err := f.EvalInt(s.vals)
		if err != nil {
			return nil, err
		}
		out[r] = v
	}
	return out, nil
}

// at evaluates a rank-free pw at the sample.
func (s *Sample) at(pw symbolic.Piecewise) (symbolic.Rat, error) {
	if s.rats == nil {
		s.rats = make(map[string]symbolic.Rat, len(s.Env))
		for k, v := range s.Env {
			s.rats[k] = symbolic.RatInt(v)
		}
	}
	return pw.Eval(s.rats)
}

// String prints the sample as "P=4, n=64".
func (s *Sample) String() string {
	parts := []string{fmt.Sprintf("P=%d", s.P)}
	for _, k := range s.vars[:len(s.vars)-1] {
		if k != cost.Size {
			parts = append(parts, fmt.Sprintf("%s=%d", k, s.Env[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// MaxMethod says how a maximum over ranks was derived.
type MaxMethod int

const (
	// RankFree means the value does not depend on the rank.
	RankFree MaxMethod = iota + 1 // rank-free
	// AtRank means the maximum is the value at one rank (Max.Rank, such as
	// 0 or P-1), checked against the maximum over all ranks at every sample.
	AtRank // at-rank
	// Relaxed means the maximum is the sum of the pieces with the conditions
	// on the rank dropped and each piece at the rank where it is largest, an
	// upper bound that equals the maximum at every sample.
	Relaxed // relaxed
	// Approx means no closed form tried equals the maximum at every sample;
	// Value is the one closest to it (the value at one rank, or the relaxed
	// form) and Note says how far off it is.
	Approx // approx
)

var maxMethodNames = [...]string{RankFree: "rank-free", AtRank: "at-rank", Relaxed: "relaxed", Approx: "approx"}

// String returns the method's name as in its declaration's line comment.
func (m MaxMethod) String() string {
	if m >= 1 && int(m) < len(maxMethodNames) {
		return maxMethodNames[m]
	}
	return fmt.Sprintf("MaxMethod(%d)", int(m))
}

// Max is the maximum over ranks 0..P-1 of a per-rank closed form.
type Max struct {
	Value  symbolic.Piecewise // rank-free
	Method MaxMethod
	Rank   symbolic.Expr // the rank attaining it, for AtRank
	Note   string
}

// rankCandidates are the ranks tried for AtRank, in order of preference,
// clamped to 0..P-1.
var rankCandidates = []string{"0", "P - 1", "min(1, P - 1)", "max(P - 2, 0)"}

// MaxOverRanks returns the maximum over the ranks of a per-rank closed form
// (the critical processor, DESIGN "the critical processor is the max over
// ranks"). It is derived symbolically where possible and checked by
// evaluation: a value that does not depend on the rank is its own maximum;
// otherwise the value at rank 0, P-1, 1 or P-2 is taken when it equals the
// maximum over all ranks at every sample; otherwise the relaxed form (every
// piece at the endpoint rank where it is larger, conditions on the rank
// dropped: an upper bound when the pieces are non-negative) is taken and
// the Method says whether it matched the maximum at every sample.
func (a *Analysis) MaxOverRanks(pw symbolic.Piecewise) (Max, error) {
	if !pw.Has(cost.Rank) {
		return Max{Value: pw, Method: RankFree}, nil
	}
	// The maximum at each sample.
	type obs struct {
		s   *Sample
		max symbolic.Rat
	}
	var seen []obs
	for _, s := range a.samples {
		vs, err := s.perRank(pw)
		if err != nil {
			return Max{}, err
		}
		if len(vs) == 0 {
			continue
		}
		m := vs[0]
		for _, v := range vs[1:] {
			if v.Cmp(m) > 0 {
				m = v
			}
		}
		seen = append(seen, obs{s, m})
	}
	// dev returns the largest deviation of c from the maximum over the
	// samples, relative to the largest maximum, where it is, and whether c
	// is at least the maximum everywhere (an upper bound).
	scale := 0.0
	for _, o := range seen {
		scale = max(scale, math.Abs(o.max.Float64()))
	}
	if scale == 0 {
		scale = 1
	}
	dev := func(c symbolic.Piecewise) (float64, string, bool) {
		worst, where, upper := 0.0, "", true
		for _, o := range seen {
			v, err := o.s.at(c)
			if err != nil {
				return math.Inf(1), err.Error(), false
			}
			if v.Equal(o.max) {
				continue
			}
			upper = upper && v.Cmp(o.max) > 0
			d := math.Abs(v.Sub(o.max).Float64()) / scale
			if d > worst || where == "" {
				worst, where = d, fmt.Sprintf("%s at %s, the maximum over ranks being %s", v, o.s, o.max)
			}
		}
		return worst, where, upper
	}
	best := Max{Method: Approx}
	bestDev, bestUpper := math.Inf(1), false
	bestWhere := ""
	consider := func(c symbolic.Piecewise, how Max) bool {
		d, where, upper := dev(c)
		if where == "" {
			how.Value = c
			best, bestDev = how, 0
			return true
		}
		if d < bestDev || d == bestDev && upper && !bestUpper {
			how.Value = c
			best, bestDev, bestWhere, bestUpper = how, d, where, upper
		}
		return false
	}
	cands := make([]symbolic.Expr, 0, len(rankCandidates))
	for _, rc := range rankCandidates {
		cands = append(cands, symbolic.MustParse(rc))
	}
	cands = append(cands, rankSolutions(pw)...)
	// A candidate is tried on its values at the samples, which
	// simplification does not change; only the one kept is simplified.
	for _, r := range cands {
		c, err := pwSubst(pw, map[string]symbolic.Expr{cost.Rank: r})
		if err != nil {
			continue
		}
		if consider(c, Max{Method: AtRank, Rank: r}) {
			best.Value = best.Value.SimplifyWithin(a.rankFree, proofBudget)
			return best, nil
		}
	}
	if best.Method == AtRank {
		best.Value = best.Value.SimplifyWithin(a.rankFree, proofBudget)
	}
	rel, err := a.relax(pw)
	if err != nil {
		return Max{}, err
	}
	if consider(rel, Max{Method: Relaxed, Note: "attained where every condition on the rank holds"}) {
		return best, nil
	}
	rank := ""
	if best.Method == AtRank {
		rank = " (the value at rank " + best.Rank.String() + ")"
	}
	bound := ""
	if bestUpper {
		bound = ", an upper bound"
	}
	best.Note = fmt.Sprintf("approximate%s%s: off by up to %.3g%% of the largest maximum at the samples, e.g. %s", rank, bound, 100*bestDev, bestWhere)
	best.Method = Approx
	return best, nil
}

// rankSolutions returns the ranks that the equalities of pw's guards
// single out (rank + 1 == floor(P/2) gives floor(P/2) - 1): where a piece
// holds on one rank only, that rank is a candidate for the maximum.
func rankSolutions(pw symbolic.Piecewise) []symbolic.Expr {
	var out []symbolic.Expr
	for _, p := range pw.Pieces {
		for _, r := range p.Guard {
			if r.Op != symbolic.EQ {
				continue
			}
			cs, ok := r.E.Coeffs(cost.Rank)
			if !ok || len(cs) > 2 {
				continue
			}
			c1, ok := cs[1].Const()
			if !ok || !(c1.IsOne() || c1.Neg().IsOne()) {
				continue
			}
			// c1*rank + c0 == 0: rank = -c0/c1.
			sol := cs[0].Neg().Mul(symbolic.Const(c1.Inv()))
			if sol.Has(cost.Rank) || slices.ContainsFunc(out, sol.Equal) {
				continue
			}
			out = append(out, sol)
		}
	}
	return out
}

// relax returns the sum of the pieces of pw with their conditions on the
// rank dropped, each value at the rank (0 or P-1) where it is larger at the
// largest sample.
func (a *Analysis) relax(pw symbolic.Piecewise) (symbolic.Piecewise, error) {
	var out symbolic.Piecewise
	var big *Sample
	for _, s := range a.samples {
		if big == nil || s.P > big.P {
			big = s
		}
	}
	for _, p := range pw.Pieces {
		var g []symbolic.Relation
		for _, r := range p.Guard {
			if !r.E.Has(cost.Rank) {
				g = append(g, r)
			}
		}
		v := p.Value
		if v.Has(cost.Rank) {
			lo, err1 := v.Subst(map[string]symbolic.Expr{cost.Rank: symbolic.Int(0)})
			hi, err2 := v.Subst(map[string]symbolic.Expr{cost.Rank: symbolic.MustParse("P - 1")})
			if err1 != nil || err2 != nil {
				return symbolic.Piecewise{}, fmt.Errorf("phase: %v at an endpoint rank", v)
			}
			v = hi
			if big != nil {
				x, errx := big.at(symbolic.PiecewiseOf(lo))
				y, erry := big.at(symbolic.PiecewiseOf(hi))
				if errx == nil && erry == nil && x.Cmp(y) > 0 {
					v = lo
				}
			}
		}
		out.Pieces = append(out.Pieces, symbolic.Piece{Guard: g, Value: v})
	}
	return out.SimplifyWithin(a.rankFree, proofBudget), nil
}
