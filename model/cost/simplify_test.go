package cost

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Differential test of the rewriting of a domain's condition before it is
// counted (countCases: the split on guards, then every relation simplified
// under the assumptions and the domain's other relations). Random one- and
// two-variable domains whose bounds are max() and min() of two or three
// affine terms in the parameters, over negative ranges too, with relations
// repeated and guards in disjunctions, are rewritten and counted; at every
// integer point of a box the rewritten condition must hold exactly where the
// original does, and the count must equal enumeration. The oracle is the
// original condition evaluated exactly at each point.
//
// The regression it guards: a relation used to be simplified under
// assumptions that held the relation itself, so that i <= min(1, k + 1)
// with i >= k + 1 (DO i = k + 1, min(1, k + 1)) proved k <= 0 from itself,
// read min(1, k + 1) as k + 1 and became i <= k + 1: one iteration for every
// k, where there is none for k >= 1.

// simpParams are the parameters of the random domains and the ranges their
// values are drawn from; m >= 1 is assumed.
var simpParams = []struct {
	name   string
	lo, hi int64
}{{"k", -4, 4}, {"n", -4, 4}, {"m", 1, 2}}

// simpBox bounds the variables enumerated: every point of every generated
// domain lies in -simpBox..simpBox at the test points (a term in the
// parameters is at most 2*4 + 3 or 4 + 4 + 3 in absolute value, a bound made
// from the other bound one more; an inner one adds the outer variable's 12
// and 3, and one more).
const simpBox = 16

// simpTerm returns a random affine term in the parameters and the outer
// variables.
func simpTerm(r *rand.Rand, outer []string) symbolic.Expr {
	c := symbolic.Int(int64(r.IntN(7) - 3))
	params := []string{"k", "n", "m"}
	syms := append(params, outer...)
	switch r.IntN(6) {
	case 0:
		return c
	case 1, 2:
		return symbolic.Sym(syms[r.IntN(len(syms))]).Add(c)
	case 3:
		return symbolic.Sym(syms[r.IntN(len(syms))]).Neg().Add(c)
	case 4:
		return symbolic.Sym(params[r.IntN(len(params))]).Scale(symbolic.RatInt(2)).Add(c)
	}
	a, b := params[r.IntN(len(params))], params[r.IntN(len(params))]
	return symbolic.Sym(a).Add(symbolic.Sym(b)).Add(c)
}

// simpBound returns a lower (max) or upper (min) bound of one to three
// terms; with two or more, one term is often the variable's other bound
// shifted by -1, 0 or 1, the shape of DO i = lo, min(c, lo) and of the last
// block of a block distribution.
func simpBound(r *rand.Rand, outer []string, other symbolic.Expr, upper bool) symbolic.Expr {
	n := 1 + r.IntN(3)
	var xs []symbolic.Expr
	for i := range n {
		if i == 0 && n > 1 && !other.IsZero() && r.IntN(2) == 0 {
			xs = append(xs, other.Add(symbolic.Int(int64(r.IntN(3)-1))))
			continue
		}
		xs = append(xs, simpTerm(r, outer))
	}
	if upper {
		return symbolic.Min(xs...)
	}
	return symbolic.Max(xs...)
}

// simpDomain is a random domain: its variables and condition.
func simpDomain(r *rand.Rand) ([]string, counting.And) {
	nv := 1 + r.IntN(2)
	var vars []string
	var cond counting.And
	for d := range nv {
		v := fmt.Sprintf("i%d", d)
		x := symbolic.Sym(v)
		var lo, hi symbolic.Expr
		if r.IntN(2) == 0 {
			lo = simpBound(r, vars, symbolic.Expr{}, false)
			hi = simpBound(r, vars, lo, true)
		} else {
			hi = simpBound(r, vars, symbolic.Expr{}, true)
			lo = simpBound(r, vars, hi, false)
		}
		ge := counting.Rel{R: symbolic.Rel(x, ">=", lo)}
		le := counting.Rel{R: symbolic.Rel(x, "<=", hi)}
		cond = append(cond, ge, le)
		if r.IntN(4) == 0 {
			// The same bound twice (an inner loop and a guard repeating
			// an outer bound).
			cond = append(cond, []counting.Formula{ge, le}[r.IntN(2)])
		}
		vars = append(vars, v)
	}
	switch r.IntN(4) {
	case 0:
		// A guard on the parameters in a disjunction: a conditional value.
		g := counting.Rel{R: symbolic.Rel(simpTerm(r, nil), ">=", simpTerm(r, nil))}
		alt := counting.Rel{R: symbolic.Rel(symbolic.Sym(vars[0]), "<=", simpBound(r, nil, symbolic.Expr{}, true))}
		cond = append(cond, counting.Or{counting.And{g, alt}, counting.And{counting.Not{F: g}}})
	case 1:
		// A relation between the bounds, as a path condition holds them.
		cond = append(cond, counting.Rel{R: symbolic.Rel(simpBound(r, nil, symbolic.Expr{}, true), ">=", simpTerm(r, nil))})
	}
	r.Shuffle(len(cond), func(i, j int) { cond[i], cond[j] = cond[j], cond[i] })
	return vars, cond
}

// simpFixed are the domains of the reported bug and its siblings, checked
// before the random ones: DO i = k + 1, min(1, k + 1) (no iteration for
// k >= 1), a max() lower bound, a min of three, negative ranges, the last
// block of a block distribution, and a bound repeated by a guard.
var simpFixed = []string{
	"[k, n, m] -> { [i0] : k + 1 <= i0 <= min(1, k + 1) }",
	"[k, n, m] -> { [i0] : max(1, k - 1) <= i0 <= k - 1 }",
	"[k, n, m] -> { [i0] : max(1, n, k - 1) <= i0 <= k - 1 }",
	"[k, n, m] -> { [i0] : k + 1 <= i0 <= min(1, n, k + 1) }",
	"[k, n, m] -> { [i0] : -k - 3 <= i0 <= min(-1, -k - 3) }",
	"[k, n, m] -> { [i0] : 2*k + 1 <= i0 <= min(n, 2*k + 2) }",
	"[k, n, m] -> { [i0] : k + 1 <= i0 <= min(1, k + 1) and i0 <= min(1, k + 1) }",
	"[k, n, m] -> { [i0, i1] : 1 <= i0 <= n and i0 + k <= i1 <= min(2, i0 + k) }",
	"[k, n, m] -> { [i0, i1] : max(i0, k) <= i1 <= k and -2 <= i0 <= min(n, 3) }",
}

// simpCheck rewrites and counts one domain and compares both with the
// original condition at every point of the box, for a sample of parameter
// values. It reports whether the count was found in closed form.
func simpCheck(t *testing.T, an *analysis, label string, set *counting.Set, r *rand.Rand) bool {
	t.Helper()
	names := append(slices.Clone(set.Params), set.Vars...)
	orig, err := counting.CompileFormula(set.Cond, names)
	if err != nil {
		t.Fatal(err)
	}
	isVar := map[string]bool{}
	for _, v := range set.Vars {
		isVar[v] = true
	}
	// The rewritten cases, together, must hold where the original holds.
	var parts []string
	var comp []*counting.CompiledFormula
	for _, c := range cases(set.Cond, maxGuardSplits) {
		f := an.simplifyDomain(c, isVar)
		parts = append(parts, fmt.Sprint(f))
		cf, err := counting.CompileFormula(f, names)
		if err != nil {
			t.Fatal(err)
		}
		comp = append(comp, cf)
	}
	pw, cerr := an.countCases(set, nil)
	if cerr != nil && !errors.Is(cerr, counting.ErrNotExact) && !errors.Is(cerr, counting.ErrTooComplex) {
		t.Fatalf("%s %s: %v", label, set, cerr)
	}
	vals := make([]int64, len(names))
	holds := func(c *counting.CompiledFormula) bool {
		h, err := c.Holds(vals)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	for range 24 {
		renv := map[string]symbolic.Rat{}
		for i, p := range simpParams {
			vals[i] = p.lo + r.Int64N(p.hi-p.lo+1)
			renv[p.name] = symbolic.RatInt(vals[i])
		}
		var want int64
		bad := false
		var rec func(d int)
		rec = func(d int) {
			if bad {
				return
			}
			if d == len(names) {
				in := holds(orig)
				got := false
				for _, c := range comp {
					got = got || holds(c)
				}
				if in != got {
					bad = true
					t.Errorf("%s %s\n  rewritten as %s\n  at %v: original %v, rewritten %v", label, set, strings.Join(parts, " | "), vals, in, got)
				}
				if in {
					want++
					for _, x := range vals[len(set.Params):] {
						if x == simpBox || x == -simpBox {
							t.Fatalf("%s %s has the point %v on the edge of the box: enlarge simpBox", label, set, vals)
						}
					}
				}
				return
			}
			for x := int64(-simpBox); x <= simpBox; x++ {
				vals[d] = x
				rec(d + 1)
			}
		}
		rec(len(set.Params))
		if bad || cerr != nil {
			if bad {
				return cerr == nil
			}
			continue
		}
		got, err := pw.Eval(renv)
		if err != nil {
			t.Fatal(err)
		}
		if g, ok := got.Int64(); !ok || g != want {
			t.Errorf("%s %s\n  rewritten as %s\n  at %v: counted %s, enumerated %d\n  count: %s", label, set, strings.Join(parts, " | "), renv, got, want, pw)
			return true
		}
	}
	return cerr == nil
}

func TestSimplifyDomainsAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2024))
	base := []symbolic.Relation{symbolic.Rel(symbolic.Sym("m"), ">=", symbolic.Int(1))}
	an := &analysis{assume: assumptions(base), counts: map[string]countResult{}, rep: &Report{}}
	for i, text := range simpFixed {
		set, err := counting.ParseSet(text)
		if err != nil {
			t.Fatal(err)
		}
		if !simpCheck(t, an, fmt.Sprintf("fixed domain %d", i), set, r) {
			t.Errorf("fixed domain %d %s: not counted in closed form", i, set)
		}
	}
	const domains = 300
	counted := 0
	for d := range domains {
		vars, cond := simpDomain(r)
		set := &counting.Set{Params: []string{"k", "n", "m"}, Vars: vars, Cond: cond}
		if simpCheck(t, an, fmt.Sprintf("domain %d", d), set, r) {
			counted++
		}
		if t.Failed() && d > 20 {
			return
		}
	}
	t.Logf("%d random domains, %d counted in closed form", domains, counted)
	if counted < domains*3/4 {
		t.Errorf("only %d of %d domains counted in closed form", counted, domains)
	}
}

// TestAssumptionsKeepTheirMeaning: the relations given as assumptions are
// simplified under one another (assumptions), never under themselves: the
// rewritten set must hold exactly where the given one does.
func TestAssumptionsKeepTheirMeaning(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2024))
	names := []string{"k", "n", "m"}
	for d := 0; d < 300; d++ {
		var rels []symbolic.Relation
		nrel := 2 + r.IntN(3)
		for range nrel {
			x := symbolic.Sym(names[r.IntN(3)])
			if r.IntN(2) == 0 {
				rels = append(rels, symbolic.Rel(x, "<=", simpBound(r, nil, simpTerm(r, nil), true)))
			} else {
				rels = append(rels, symbolic.Rel(x, ">=", simpBound(r, nil, simpTerm(r, nil), false)))
			}
			if r.IntN(4) == 0 {
				rels = append(rels, rels[r.IntN(len(rels))])
			}
		}
		got := assumptions(rels)
		a := symbolic.NewAssumptions(rels...)
		bad := 0
		simpPoints(func(env map[string]int64) {
			renv := map[string]symbolic.Rat{}
			for k, v := range env {
				renv[k] = symbolic.RatInt(v)
			}
			w, err1 := a.Holds(renv)
			g, err2 := got.Holds(renv)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if w != g && bad < 3 {
				bad++
				t.Errorf("assumptions %v\n  rewritten as %v\n  at %v: given %v, rewritten %v", rels, got.Relations(), env, w, g)
			}
		})
		if t.Failed() && d > 20 {
			return
		}
	}
}

// simpPoints calls f at every point of the parameter ranges.
func simpPoints(f func(env map[string]int64)) {
	env := map[string]int64{}
	var rec func(i int)
	rec = func(i int) {
		if i == len(simpParams) {
			f(env)
			return
		}
		p := simpParams[i]
		for v := p.lo; v <= p.hi; v++ {
			env[p.name] = v
			rec(i + 1)
		}
	}
	rec(0)
}
