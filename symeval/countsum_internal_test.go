package symeval

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// A counter's value after a loop whose step depends on the iteration is
// checked against the loop run by hand: random steps (counts under tests
// on the loop's variable and an outer one, strides, steps that grow with
// the variable), random bounds, every point of a grid of the outer
// symbols.
func TestStepSumsAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 41))
	v, x, n := symbolic.Sym("v"), symbolic.Sym("x"), symbolic.Sym("n")
	rel := func(e symbolic.Expr, op string, f symbolic.Expr) counting.Formula {
		return counting.Rel{R: symbolic.Rel(e, op, f)}
	}
	randTest := func() counting.Formula {
		k := symbolic.Int(rng.Int64N(7) - 3)
		switch rng.IntN(5) {
		case 0:
			return rel(v.Add(x), ">=", k)
		case 1:
			return rel(v.Add(k), "<=", n)
		case 2:
			return rel(symbolic.Modulo(v, symbolic.Int(2+rng.Int64N(2))), "==", symbolic.Int(rng.Int64N(2)))
		case 3:
			return rel(v.Mul(symbolic.Int(2)).Sub(x), "<=", k)
		default:
			return rel(v, "==", x.Add(k))
		}
	}
	randStep := func() symbolic.Expr {
		switch rng.IntN(4) {
		case 0:
			return v
		case 1:
			return x.Add(symbolic.Int(1))
		default:
			return symbolic.Int(1 + rng.Int64N(3))
		}
	}
	ev := &evaluator{}
	checked := 0
	for trial := range 300 {
		var g counting.Formula
		for range 1 + rng.IntN(3) {
			g = and(g, randTest())
		}
		c := Value{Alts: []Alt{{Guard: g, E: randStep()}, {Guard: not(g), E: symbolic.Int(rng.Int64N(2))}}}
		step := []int64{1, 1, 2, -1, 3}[rng.IntN(5)]
		lo := x.Add(symbolic.Int(rng.Int64N(5) - 2))
		trips := n
		if rng.IntN(2) == 0 {
			trips = symbolic.Int(rng.Int64N(6))
		}
		cv := Value{}
		for _, a := range c.Alts {
			e, _ := a.E.Subst(map[string]symbolic.Expr{"v": symbolic.Sym(stepIter)})
			f, _ := substFormula(a.Guard, map[string]symbolic.Expr{"v": symbolic.Sym(stepIter)})
			cv.Alts = append(cv.Alts, Alt{Guard: f, E: e})
		}
		got, ok := ev.sumOverIterations(Known(symbolic.Sym("s")), cv, stepIter, Known(lo), step, Known(trips))
		if !ok {
			continue // refused: the value stays unknown, never wrong
		}
		checked++
		for xv := int64(-3); xv <= 4; xv++ {
			for nv := int64(0); nv <= 5; nv++ {
				env := map[string]int64{"x": xv, "n": nv, "s": 10}
				want := int64(10)
				l := evalInt(t, lo, env)
				for w := range max(evalInt(t, trips, env), 0) {
					env["v"] = l + step*w
					want += evalValue(t, c, env)
				}
				delete(env, "v")
				if have := evalValue(t, got, env); have != want {
					t.Fatalf("trial %d: step %v over %s by %d, %s trips at x=%d n=%d: %d, want %d (value %v)",
						trial, c.Alts, lo, step, trips, xv, nv, have, want, got.Alts)
				}
			}
		}
	}
	t.Logf("%d of 300 sums counted and checked", checked)
	if checked < 200 {
		t.Errorf("only %d of 300 sums counted", checked)
	}
}

func evalInt(t *testing.T, e symbolic.Expr, env map[string]int64) int64 {
	t.Helper()
	rat := map[string]symbolic.Rat{}
	for k, v := range env {
		rat[k] = symbolic.RatInt(v)
	}
	r, err := e.Eval(rat)
	if err != nil {
		t.Fatal(err)
	}
	i, ok := r.Int64()
	if !ok {
		t.Fatalf("%s = %s, not an integer", e, r)
	}
	return i
}

// evalValue is the value of the alternative whose guard holds at env; it
// fails the test where none or two hold.
func evalValue(t *testing.T, val Value, env map[string]int64) int64 {
	t.Helper()
	var names []string
	var point []int64
	for k, v := range env {
		names = append(names, k)
		point = append(point, v)
	}
	var out []int64
	for _, a := range val.Alts {
		holds := true
		if a.Guard != nil {
			cf, err := counting.CompileFormula(a.Guard, names)
			if err != nil {
				t.Fatal(err)
			}
			if holds, err = cf.Holds(point); err != nil {
				t.Fatal(err)
			}
		}
		if holds {
			out = append(out, evalInt(t, a.E, env))
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d alternatives of %v hold at %v", len(out), val.Alts, env)
	}
	return out[0]
}
