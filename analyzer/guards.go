package analyzer

import (
	"fmt"
	"math"
	"slices"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// NeutralChoices gives a default to each value of the data the partial
// point pt lacks that only chooses between cases of the counts (it is in
// their guards, never in a value: a verification flag before a print, an
// error count tested against zero) where every choice moves the predicted
// work by less than NeutralShare: such a value has no range to measure
// (Impact), so without this MK3001 would ask for it however little it
// matters (issue 13: ask only where it moves the work by 1% or more). The
// default is the choice with the most work, and every count resting on it
// is marked at the point (a stand-in, cost.Point.StandIns). It sets
// Default, Lo and Hi of those parameters of r and returns their names.
func NeutralChoices(r *cost.Report, pt *cost.Point) []string {
	if pt == nil || !pt.Partial() {
		return nil
	}
	byName := map[string]*cost.Param{}
	for _, q := range r.Params {
		byName[q.Name] = q
	}
	missing := map[string]bool{}
	for _, u := range pt.Unknown {
		missing[u] = true
	}
	var out []string
	var uses *symbolUses
	var known []float64 // the work resting on no missing value, per rank
	for _, name := range pt.Unknown {
		q := byName[name]
		if q == nil || q.Default != nil || !q.Origin.Data() || namedByDefault(r, name) {
			continue
		}
		if uses == nil {
			uses = usesOf(r) // once: a program may lack thousands of values
		}
		cands, ok := guardChoices(uses, pt, name)
		if !ok {
			continue
		}
		if known == nil {
			// The work resting on no missing value, per rank
			// (ImpactBound's known work).
			kw, ok := knownWorkFunc(r, pt)
			if !ok {
				return out
			}
			if _, known, ok = kw.part(name, pt.P); !ok {
				return out
			}
		}
		imp, best, ok := choiceImpact(r, pt, name, cands, missing, known)
		if !ok || imp >= NeutralShare {
			continue
		}
		d := symbolic.Int(best)
		lo, hi := symbolic.Int(slices.Min(cands)), symbolic.Int(slices.Max(cands))
		q.Default, q.Lo, q.Hi = &d, &lo, &hi
		q.What += fmt.Sprintf(" (it only chooses between cases of the counts, which move the work by less than 1%% at %s; taken as %d)",
			Point(r, pt), best)
		out = append(out, name)
	}
	return out
}

// namedByDefault reports whether another parameter's default or bounds
// name the value (its choice would then be more than a choice of cases).
func namedByDefault(r *cost.Report, name string) bool {
	for _, q := range r.Params {
		for _, e := range []*symbolic.Expr{q.Default, q.Lo, q.Hi} {
			if e != nil && e.Has(name) {
				return true
			}
		}
	}
	return false
}

// symbolUses is where the symbols of a report's figures are: in a value
// of a piece, or only in guards (each relation once).
type symbolUses struct {
	inValue map[string]bool
	guards  map[string][]symbolic.Relation
}

// usesOf walks every figure of r once.
func usesOf(r *cost.Report) *symbolUses {
	u := &symbolUses{inValue: map[string]bool{}, guards: map[string][]symbolic.Relation{}}
	seen := map[string]bool{}
	eachFigure(r, func(pw symbolic.Piecewise) {
		for _, pc := range pw.Pieces {
			for _, x := range pc.Value.Symbols() {
				u.inValue[x] = true
			}
			for _, g := range pc.Guard {
				if k := g.Key(); !seen[k] {
					seen[k] = true
					for _, x := range g.E.Symbols() {
						u.guards[x] = append(u.guards[x], g)
					}
				}
			}
		}
	})
	return u
}

// guardChoices returns values of name, one on each side of every
// threshold its guards test (with the point's values in), when name is in
// guards alone, each linear in it with no other unknown.
func guardChoices(u *symbolUses, pt *cost.Point, name string) ([]int64, bool) {
	if u.inValue[name] {
		return nil, false
	}
	env := map[string]symbolic.Rat{}
	for k, v := range pt.Env {
		env[k] = symbolic.RatInt(v)
	}
	cands := []int64{0, 1}
	add := func(v int64) {
		if !slices.Contains(cands, v) {
			cands = append(cands, v)
		}
	}
	for _, g := range u.guards[name] {
		e, err := g.E.SubstConst(env)
		if err != nil {
			return nil, false
		}
		x, a, b, ok := e.LinearOne()
		if !ok || x != name {
			return nil, false
		}
		v, ok := b.Neg().Quo(a).Floor().Int64()
		if !ok || v > math.MaxInt64/2 || v < math.MinInt64/2 {
			return nil, false
		}
		add(v - 1)
		add(v)
		add(v + 1)
	}
	slices.Sort(cands)
	return cands, true
}

// choiceImpact measures how much the predicted work at pt moves over the
// choices of name (ImpactBound's bound, over every pair of choices at
// once: the spread of the pieces that mention it over the known work),
// and returns the choice with the most work.
func choiceImpact(r *cost.Report, pt *cost.Point, name string, cands []int64, missing map[string]bool, known []float64) (float64, int64, bool) {
	vars, index, vals := pointVars(pt)
	index[name] = len(vars)
	vars = append(vars, name)
	vals = append(vals, 0)
	others := without(missing, name)
	var part symbolic.Piecewise
	for _, p := range r.Work.Pieces {
		one := symbolic.Piecewise{Pieces: []symbolic.Piece{p}}
		if !one.Has(name) {
			continue
		}
		if one.HasAny(others) {
			return 0, 0, false
		}
		part.Pieces = append(part.Pieces, p)
	}
	if len(part.Pieces) == 0 {
		return 0, cands[0], true
	}
	df, err := part.Compile(vars)
	if err != nil {
		return 0, 0, false
	}
	kMax, kSum := slices.Max(known), 0.0
	for _, k := range known {
		kSum += k
	}
	lo := make([]float64, pt.P) // per rank, the least over the choices
	hi := make([]float64, pt.P) // and the most
	sums := make([]float64, len(cands))
	for rk := range pt.P {
		vals[index[cost.Rank]] = rk
		for i, c := range cands {
			vals[index[name]] = c
			d, err := df.EvalInt(vals)
			if err != nil {
				return 0, 0, false
			}
			v := d.Float64()
			if i == 0 {
				lo[rk], hi[rk] = v, v
			}
			lo[rk], hi[rk] = min(lo[rk], v), max(hi[rk], v)
			sums[i] += v
		}
	}
	if kMax <= 0 || kSum <= 0 {
		return 0, 0, false
	}
	var spread float64
	for rk := range pt.P {
		spread = max(spread, hi[rk]-lo[rk])
	}
	// Ties go to 1, then 0 (true, false), then the nearest to 0.
	pref := func(v int64) int64 {
		switch {
		case v == 1:
			return -2
		case v == 0:
			return -1
		case v < 0:
			return -2 * v
		}
		return 2*v - 1
	}
	best := 0
	for i := range sums {
		if sums[i] > sums[best] || sums[i] == sums[best] && pref(cands[i]) < pref(cands[best]) {
			best = i
		}
	}
	return max(spread/kMax, (slices.Max(sums)-slices.Min(sums))/kSum), cands[best], true
}

// without returns set without name.
func without(set map[string]bool, name string) map[string]bool {
	out := make(map[string]bool, len(set))
	for k := range set {
		if k != name {
			out[k] = true
		}
	}
	return out
}
