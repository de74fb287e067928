package counting

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// The differential test builds random loop nests as text in the set notation
// together with an independent Go predicate for each constraint, counts them
// with Count, and compares with brute-force enumeration at random parameter
// points. The predicates use only Go integer arithmetic: they are the oracle.

var testParams = []string{"n", "m", "p", "k", "s", "b"}

type point map[string]int64

func fdiv(a, b int64) int64 { // floor(a/b), b != 0
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func fmod(a, b int64) int64 { return a - b*fdiv(a, b) }

func cdiv(a, b int64) int64 { return -fdiv(-a, b) }

// bound is a loop bound: its text and its value at a point.
type bound struct {
	text string
	val  func(point) int64
}

// constraint is a condition: its text and its truth at a point.
type constraint struct {
	text string
	ok   func(point) bool
}

type nest struct {
	vars []string
	lo   []bound
	hi   []bound
	cons []constraint // all constraints, loop bounds included
	kind []string     // what each variable's loop is, for failure messages
	unit []bool       // the loop has step 1
	pstr bool         // some loop has the parametric step s
	prod bool         // some bound multiplies a variable by a parameter
}

func (ns *nest) text() string {
	parts := make([]string, len(ns.cons))
	for i, c := range ns.cons {
		parts[i] = c.text
	}
	return fmt.Sprintf("[%s] -> { [%s] : %s }", strings.Join(testParams, ", "), strings.Join(ns.vars, ", "), strings.Join(parts, " and "))
}

// maxFeatures bounds the hard features (a stride, a min or max bound, a
// floor of an outer variable, a distribution, a guard) one nest combines:
// each is covered on its own and in pairs, while a nest with all of them has a
// closed form of hundreds of pieces that takes seconds (see the package doc).
const maxFeatures = 1

func genNest(r *rand.Rand) *nest {
	depth := 1 + r.IntN(4)
	ns := &nest{}
	budget := maxFeatures
	for d := range depth {
		v := fmt.Sprintf("i%d", d)
		var outer string
		if d > 0 {
			outer = ns.vars[d-1]
		}
		lo, hi, kind := genBounds(r, outer, d)
		if kind == "min" || kind == "max" || kind == "floor of outer" {
			if budget == 0 {
				hi = bound{"n", func(pt point) int64 { return pt["n"] }}
				lo = bound{"1", func(point) int64 { return 1 }}
				kind = "rectangular"
			} else {
				budget--
			}
		}
		if kind == "param*var" {
			if ns.pstr {
				// o*m under a step s: counts by gcd(m, s); use a plain bound.
				hi = bound{"n", func(pt point) int64 { return pt["n"] }}
				kind = "rectangular"
			} else {
				ns.prod = true
			}
		}
		ns.vars = append(ns.vars, v)
		ns.lo = append(ns.lo, lo)
		ns.hi = append(ns.hi, hi)
		ns.kind = append(ns.kind, kind)
		ns.unit = append(ns.unit, true)
		vv := v
		ns.cons = append(ns.cons,
			constraint{lo.text + " <= " + v, func(pt point) bool { return lo.val(pt) <= pt[vv] }},
			constraint{v + " <= " + hi.text, func(pt point) bool { return pt[vv] <= hi.val(pt) }})
		// Step: 1, a constant or the parameter s.
		step := r.IntN(6)
		if step < 2 {
			if budget == 0 {
				step = 2
			} else {
				budget--
			}
		}
		switch step {
		case 0:
			c := int64(2 + r.IntN(2))
			ns.cons = append(ns.cons, constraint{fmt.Sprintf("mod(%s - (%s), %d) = 0", v, lo.text, c),
				func(pt point) bool { return fmod(pt[vv]-lo.val(pt), c) == 0 }})
			ns.kind[d] += fmt.Sprintf(" step %d", c)
			ns.unit[d] = false
		case 1:
			if ns.prod {
				break // sum of floor(o*m/s): counts by gcd(m, s), no closed form
			}
			ns.cons = append(ns.cons, constraint{fmt.Sprintf("modulo(%s - (%s), s) = 0", v, lo.text),
				func(pt point) bool { return fmod(pt[vv]-lo.val(pt), pt["s"]) == 0 }})
			ns.kind[d] += " step s"
			ns.unit[d] = false
			ns.pstr = true
		}
	}
	// A distribution on one unit-stride variable, and sometimes a guard. (Two
	// congruences with parametric moduli on one index, i = a mod s and
	// i = b mod p, have counts that depend on gcd(s, p): no quasi-polynomial
	// exists, and Count refuses them.)
	if r.IntN(4) != 0 && budget > 0 {
		budget--
		d := r.IntN(depth)
		if ns.unit[d] {
			ns.cons = append(ns.cons, genDistribution(r, ns.vars[d], ns.pstr || ns.prod))
			ns.kind[d] += " distributed"
		}
	}
	if r.IntN(3) == 0 && budget > 0 {
		ns.cons = append(ns.cons, genGuard(r, ns.vars))
	}
	return ns
}

// genBounds returns bounds of a loop whose enclosing loop variable is outer
// ("" for the outermost loop).
func genBounds(r *rand.Rand, outer string, d int) (lo, hi bound, kind string) {
	c := int64(r.IntN(3))
	lo = bound{fmt.Sprint(c), func(point) int64 { return c }}
	hi = bound{"n", func(pt point) int64 { return pt["n"] }}
	kind = "rectangular"
	if outer == "" {
		switch r.IntN(3) {
		case 0:
			hi = bound{"m", func(pt point) int64 { return pt["m"] }}
		case 1:
			hi = bound{"floor(n/2) + 1", func(pt point) int64 { return fdiv(pt["n"], 2) + 1 }}
		}
		return lo, hi, kind
	}
	o := outer
	switch r.IntN(9) {
	case 0: // triangular
		hi = bound{o, func(pt point) int64 { return pt[o] }}
		kind = "triangular"
	case 1: // triangular from below
		lo = bound{o, func(pt point) int64 { return pt[o] }}
		kind = "triangular (lower)"
	case 2: // trapezoidal
		hi = bound{"n - " + o, func(pt point) int64 { return pt["n"] - pt[o] }}
		kind = "trapezoidal"
	case 3: // parameter times variable (Fahringer's j2 <= j1*n1)
		hi = bound{o + "*m", func(pt point) int64 { return pt[o] * pt["m"] }}
		kind = "param*var"
	case 4: // min bound
		hi = bound{"min(n, " + o + " + m)", func(pt point) int64 { return min(pt["n"], pt[o]+pt["m"]) }}
		kind = "min"
	case 5: // max bound
		lo = bound{"max(1, " + o + " - m)", func(pt point) int64 { return max(1, pt[o]-pt["m"]) }}
		kind = "max"
	case 6: // offset by the outer variable
		lo = bound{o + " + 1", func(pt point) int64 { return pt[o] + 1 }}
		hi = bound{o + " + m", func(pt point) int64 { return pt[o] + pt["m"] }}
		kind = "window"
	case 7: // a floor of the outer variable
		hi = bound{"floor(" + o + "/2) + 1", func(pt point) int64 { return fdiv(pt[o], 2) + 1 }}
		kind = "floor of outer"
	}
	return lo, hi, kind
}

// genDistribution returns the ownership condition of processor k (1..p) for
// index v under BLOCK, HPF BLOCK, CYCLIC or BLOCK-CYCLIC.
//
// With a parametric stride s or a bound i <= o*m elsewhere in the nest only
// the BLOCK forms are drawn: a congruence modulo p linked to one modulo s, or
// summed along o*m, counts by gcd(s, p) or gcd(m, p), for which no
// quasi-polynomial exists; Count refuses such sets with ErrNotExact.
func genDistribution(r *rand.Rand, v string, paramStride bool) constraint {
	n := 5
	if paramStride {
		n = 2
	}
	switch r.IntN(n) {
	case 0: // BLOCK, Fahringer's form: floor(n*(k-1)/p) + 1 <= v <= floor(n*k/p)
		return constraint{fmt.Sprintf("floor(n*(k-1)/p) + 1 <= %s <= floor(n*k/p)", v), func(pt point) bool {
			n, p, k := pt["n"], pt["p"], pt["k"]
			return fdiv(n*(k-1), p)+1 <= pt[v] && pt[v] <= fdiv(n*k, p)
		}}
	case 1: // HPF BLOCK: blocks of ceil(n/p), trailing processors may be empty
		return constraint{fmt.Sprintf("(k-1)*ceil(n/p) + 1 <= %s <= min(k*ceil(n/p), n)", v), func(pt point) bool {
			n, p, k := pt["n"], pt["p"], pt["k"]
			bs := cdiv(n, p)
			return (k-1)*bs+1 <= pt[v] && pt[v] <= min(k*bs, n)
		}}
	case 2: // CYCLIC with Fortran MOD (v - 1 >= 0 in the generated loops? not always: use modulo)
		return constraint{fmt.Sprintf("modulo(%s - 1, p) = k - 1", v), func(pt point) bool {
			return fmod(pt[v]-1, pt["p"]) == pt["k"]-1
		}}
	case 3: // BLOCK-CYCLIC(b)
		return constraint{fmt.Sprintf("modulo(floor((%s - 1)/b), p) = k - 1", v), func(pt point) bool {
			return fmod(fdiv(pt[v]-1, pt["b"]), pt["p"]) == pt["k"]-1
		}}
	}
	// BLOCK-CYCLIC with a constant block of 2
	return constraint{fmt.Sprintf("modulo(floor((%s - 1)/2), p) = k - 1", v), func(pt point) bool {
		return fmod(fdiv(pt[v]-1, 2), pt["p"]) == pt["k"]-1
	}}
}

func genGuard(r *rand.Rand, vars []string) constraint {
	a := vars[r.IntN(len(vars))]
	b := vars[r.IntN(len(vars))]
	switch r.IntN(5) {
	case 0:
		return constraint{fmt.Sprintf("%s + %s <= n", a, b), func(pt point) bool { return pt[a]+pt[b] <= pt["n"] }}
	case 1:
		return constraint{fmt.Sprintf("(%s <= 2 or %s >= m)", a, b), func(pt point) bool { return pt[a] <= 2 || pt[b] >= pt["m"] }}
	case 2:
		return constraint{fmt.Sprintf("not (%s = %s + 1)", a, b), func(pt point) bool { return pt[a] != pt[b]+1 }}
	case 3:
		return constraint{fmt.Sprintf("mod(%s + 3, 3) != 1", a), func(pt point) bool { return (pt[a]+3)%3 != 1 }}
	}
	return constraint{fmt.Sprintf("%s + 1 >= %s", a, b), func(pt point) bool { return pt[a]+1 >= pt[b] }}
}

// brute counts the points of ns at the parameter point pt by enumeration.
func brute(ns *nest, pt point) int64 {
	var rec func(d int) int64
	rec = func(d int) int64 {
		if d == len(ns.vars) {
			for _, c := range ns.cons {
				if !c.ok(pt) {
					return 0
				}
			}
			return 1
		}
		v := ns.vars[d]
		var n int64
		for x := ns.lo[d].val(pt); x <= ns.hi[d].val(pt); x++ {
			pt[v] = x
			n += rec(d + 1)
		}
		delete(pt, v)
		return n
	}
	return rec(0)
}

func testAssumptions() *symbolic.Assumptions {
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("n >= 1, m >= 1, p >= 1, 1 <= k <= p, s >= 1, b >= 1"); err != nil {
		panic(err)
	}
	return a
}

func randomParams(r *rand.Rand) point {
	p := int64(1 + r.IntN(5))
	return point{"n": int64(1 + r.IntN(13)), "m": int64(1 + r.IntN(5)), "p": p, "k": 1 + r.Int64N(p),
		"s": int64(1 + r.IntN(3)), "b": int64(1 + r.IntN(3))}
}

// TestCountAgainstBruteForce: random systems of depth 1 to 4, each at 5
// random parameter points, must match enumeration exactly. CI runs 1,000
// systems; MKVET_COUNT_SYSTEMS=10000 runs the full acceptance count (about
// seven minutes on two cores).
func TestCountAgainstBruteForce(t *testing.T) {
	cases := 1000
	if v := os.Getenv("MKVET_COUNT_SYSTEMS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("MKVET_COUNT_SYSTEMS=%q: want a positive number", v)
		}
		cases = n
	}
	if testing.Short() {
		cases = min(cases, 300)
	}
	r := rand.New(rand.NewPCG(11, 11))
	a := testAssumptions()
	kinds := map[string]int{}
	var tooComplex []string
	for i := range cases {
		ns := genNest(r)
		src := ns.text()
		set, err := ParseSet(src)
		if err != nil {
			t.Fatalf("case %d: ParseSet(%s): %v", i, src, err)
		}
		pw, err := Count(set, a)
		if errors.Is(err, ErrTooComplex) {
			// A resource refusal, allowed (the issue asks for it rather than
			// minutes of work), counted and capped below.
			tooComplex = append(tooComplex, src)
			continue
		}
		if err != nil {
			t.Fatalf("case %d: Count(%s): %v", i, src, err)
		}
		for _, k := range ns.kind {
			kinds[k]++
		}
		agreesWithBrute(t, r, i, ns, src, pw, "count", "")
	}
	t.Logf("%d systems, %d counted and exact at 5 points each, %d refused as too complex; loop kinds: %v",
		cases, cases-len(tooComplex), len(tooComplex), kinds)
	for _, s := range tooComplex {
		t.Logf("too complex: %s", s)
	}
	if len(tooComplex)*100 > cases {
		t.Errorf("%d of %d systems refused as too complex (limit 1%%)", len(tooComplex), cases)
	}
}

// agreesWithBrute checks pw against enumeration of the nest ns (its text
// src, case i) at 5 random parameter points; what names pw and detail adds
// to a failure's report.
func agreesWithBrute(t *testing.T, r *rand.Rand, i int, ns *nest, src string, pw symbolic.Piecewise, what, detail string) {
	t.Helper()
	for range 5 {
		pt := randomParams(r)
		want := brute(ns, pt)
		env := map[string]symbolic.Rat{}
		for k, v := range pt {
			env[k] = symbolic.RatInt(v)
		}
		got, err := pw.Eval(env)
		if err != nil {
			t.Fatalf("case %d: %s at %v: %v", i, src, pt, err)
		}
		if !got.Equal(symbolic.RatInt(want)) {
			t.Fatalf("case %d: %s\nat %v: %s %s, enumeration %d\nclosed form:\n%s%s", i, src, pt, what, got, want, pw, detail)
		}
	}
}

// TestSumAtPointAgainstBruteForce checks the point fallback on the nests
// the engine refuses in closed form (a stride that is an outer variable,
// a product of two variables) against enumeration.
func TestSumAtPointAgainstBruteForce(t *testing.T) {
	a := symbolic.NewAssumptions()
	for n := int64(0); n <= 40; n += 3 {
		cases := []struct {
			set   string
			brute func() int64
		}{
			{fmt.Sprintf("{ [k, i] : 2 <= k <= %d and i >= 0 and 2*k + i*k <= %d }", n, n), func() int64 {
				c := int64(0)
				for k := int64(2); k <= n; k++ {
					for i := 2 * k; i <= n; i += k {
						c++
					}
				}
				return c
			}},
			{fmt.Sprintf("{ [i, j] : 1 <= i <= %d and 1 <= j and i*j <= %d }", n, n), func() int64 {
				c := int64(0)
				for i := int64(1); i <= n; i++ {
					for j := int64(1); i*j <= n; j++ {
						c++
					}
				}
				return c
			}},
			{fmt.Sprintf("{ [i, j, l] : 1 <= i <= %d and 1 <= j <= i and 0 <= l and l*j <= i }", n), func() int64 {
				c := int64(0)
				for i := int64(1); i <= n; i++ {
					for j := int64(1); j <= i; j++ {
						for l := int64(0); l*j <= i; l++ {
							c++
						}
					}
				}
				return c
			}},
		}
		for _, c := range cases {
			s, err := ParseSet(c.set)
			if err != nil {
				t.Fatal(err)
			}
			pw, err := SumAtPoint(s, symbolic.Int(1), a, Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.set, err)
			}
			got, err := pw.Eval(nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := c.brute(); !got.Equal(symbolic.RatInt(want)) {
				t.Errorf("%s: %s, brute force %d", c.set, got, want)
			}
		}
	}
}

// TestSumBoxAgainstBruteForce checks the point-by-point count of sets
// without parameters against Go loops over the same points, weighted: a
// stencil's neighbours inside a grid, a triangle, a set with a modulus
// and one with no point; and that it refuses a box past its limit (and
// leaves independent ranges, a product, to the engine).
func TestSumBoxAgainstBruteForce(t *testing.T) {
	for n := int64(0); n <= 12; n += 4 {
		cases := []struct {
			set   string
			w     string
			brute func() int64
		}{
			{fmt.Sprintf("{ [x, y, sx, sy] : 0 <= x <= %d and 0 <= y <= 5 and -1 <= sx <= 1 and -1 <= sy <= 1 and 0 <= x + sx <= %d and 0 <= y + sy <= 5 }", n, n),
				"x + 2*sy + 3", func() int64 {
					c := int64(0)
					for x := int64(0); x <= n; x++ {
						for y := int64(0); y <= 5; y++ {
							for sx := int64(-1); sx <= 1; sx++ {
								for sy := int64(-1); sy <= 1; sy++ {
									if x+sx >= 0 && x+sx <= n && y+sy >= 0 && y+sy <= 5 {
										c += x + 2*sy + 3
									}
								}
							}
						}
					}
					return c
				}},
			{fmt.Sprintf("{ [i, j, k] : 1 <= i <= %d and 1 <= j <= %d and j <= i and 0 <= k <= 3 and j + k <= i }", n, n),
				"1", func() int64 {
					c := int64(0)
					for i := int64(1); i <= n; i++ {
						for j := int64(1); j <= i; j++ {
							for k := int64(0); k <= 3 && j+k <= i; k++ {
								c++
							}
						}
					}
					return c
				}},
			{fmt.Sprintf("{ [i, j, k] : 0 <= i <= %d and 0 <= j <= 7 and 0 <= k <= 2 and i + 2*j + k >= 5 and i + 2*j + k <= 14 }", n),
				"i*k + 1", func() int64 {
					c := int64(0)
					for i := int64(0); i <= n; i++ {
						for j := int64(0); j <= 7; j++ {
							for k := int64(0); k <= 2; k++ {
								if s := i + 2*j + k; s >= 5 && s <= 14 {
									c += i*k + 1
								}
							}
						}
					}
					return c
				}},
			{fmt.Sprintf("{ [i, j, k] : 0 <= i <= %d and 3 <= j <= 1 and 0 <= k <= 2 and i + k <= 5 }", n), "1", func() int64 { return 0 }},
		}
		for _, c := range cases {
			s, err := ParseSet(c.set)
			if err != nil {
				t.Fatal(err)
			}
			w, err := symbolic.Parse(c.w)
			if err != nil {
				t.Fatal(err)
			}
			pw, ok, err := SumBox(s, w, 1<<15)
			if !ok || err != nil {
				t.Fatalf("%s: ok=%v err=%v", c.set, ok, err)
			}
			got, err := pw.Eval(nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := c.brute(); !got.Equal(symbolic.RatInt(want)) {
				t.Errorf("%s weighted %s: %s, brute force %d", c.set, c.w, got, want)
			}
		}
	}
	s, err := ParseSet("{ [i, j, k] : 0 <= i <= 99 and 0 <= j <= 99 and 0 <= k <= 99 }")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := SumBox(s, symbolic.Int(1), 1<<15); ok {
		t.Errorf("a box of 10^6 points was enumerated with a limit of 2^15")
	}
	s, err = ParseSet("{ [i, j, k] : 0 <= i <= 9 and 0 <= j <= 9 and 0 <= k <= 9 }")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := SumBox(s, symbolic.Int(1), 1<<15); ok {
		t.Errorf("independent ranges were enumerated")
	}
}
