package whatif

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// TestIsospeedClosedForm checks psi against its closed form for a model
// with a linear overhead: T = N*t/P + s*(P-1), W = N, so the average speed
// N/(N*t + s*P*(P-1)) is kept when N' = N*p'(p'-1)/(p(p-1)) and
// psi(p, p') = (p-1)/(p'-1).
func TestIsospeedClosedForm(t *testing.T) {
	m := Model{Size: "P", Terms: []Term{
		term("compute", Compute, "N/P*t"),
		term("shift", Comm, "s*(P-1)"),
	}}
	env := map[string]float64{"N": 1000, "t": 1e-6, "s": 3e-5}
	for _, c := range []struct{ p, p2 int64 }{{2, 4}, {4, 8}, {4, 64}, {8, 8}, {16, 4}} {
		psi, n2, err := Isospeed(symbolic.MustParse("N"), m, "N", env, c.p, c.p2)
		if err != nil {
			t.Fatal(err)
		}
		wantPsi := float64(c.p-1) / float64(c.p2-1)
		wantN := 1000 * float64(c.p2*(c.p2-1)) / float64(c.p*(c.p-1))
		if math.Abs(psi-wantPsi) > 1e-12*wantPsi || math.Abs(n2-wantN) > 1e-12*wantN {
			t.Errorf("psi(%d, %d) = %v at N' = %v, want %v at %v", c.p, c.p2, psi, n2, wantPsi, wantN)
		}
	}
	// Work that is not the problem size: W = N^2 with T = N^2*t/P + s*log2(P)
	// keeps the speed at N'^2 = N^2 * p' log2(p') / (p log2(p)).
	m2 := Model{Size: "P", Terms: []Term{
		term("compute", Compute, "N^2/P*t"),
		term("reduce", Comm, "s*log2(P)"),
	}}
	psi, n2, err := Isospeed(symbolic.MustParse("N^2"), m2, "N", env, 2, 32)
	if err != nil {
		t.Fatal(err)
	}
	wantN := 1000 * math.Sqrt(32*5/2.0)
	if want := 1.0 / 5; math.Abs(psi-want) > 1e-12 || math.Abs(n2-wantN) > 1e-9*wantN {
		t.Errorf("psi(2, 32) = %v at N' = %v, want %v at %v", psi, n2, want, wantN)
	}
}

// TestIsospeedNotScalable: with a serial part that grows with N the
// average speed at P falls to 1/(P*ts + tc) whatever N, so no problem size
// keeps the speed at more processes.
func TestIsospeedNotScalable(t *testing.T) {
	m := Model{Size: "P", Terms: []Term{term("serial", Compute, "N*ts"), term("parallel", Compute, "N/P*tc")}}
	_, _, err := Isospeed(symbolic.MustParse("N"), m, "N", map[string]float64{"N": 100, "ts": 1e-6, "tc": 1e-5}, 2, 4)
	if err == nil {
		t.Fatal("no error")
	}
	t.Log(err)
}

// TestScaledCrossing: with T = N*t/P + o(P) and W = N, psi(p, p') is
// o(p)/o(p'). For o_slow = 9.45*(P-1), o_fast = 0.1*(P-1)^2 at p = 2 and
// N*t = 2, alpha = (1 + 9.45)/(1 + 0.1) = 9.5, Phi = 1/(p'-1),
// Psi = 1/(p'-1)^2, and Phi > alpha*Psi first at p' = 11.
func TestScaledCrossing(t *testing.T) {
	slow := Model{Size: "P", Terms: []Term{term("compute", Compute, "N/P*t"), term("comm", Comm, "945/100*(P-1)")}}
	fast := Model{Size: "P", Terms: []Term{term("compute", Compute, "N/P*t"), term("comm", Comm, "1/10*(P-1)^2")}}
	env := map[string]float64{"N": 2000, "t": 1e-3}
	r, err := ScaledCrossing(symbolic.MustParse("N"), slow, fast, "N", env, 2, 64)
	if err != nil {
		t.Fatal(err)
	}
	if r.Faster != B || math.Abs(r.Alpha-9.5) > 1e-12 || r.Crossing != 11 ||
		math.Abs(r.Phi-0.1) > 1e-12 || math.Abs(r.Psi-0.01) > 1e-12 {
		t.Errorf("got %+v, want b faster, alpha 9.5, crossing 11, Phi 0.1, Psi 0.01", r)
	}
	r, err = ScaledCrossing(symbolic.MustParse("N"), fast, slow, "N", env, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	if r.Faster != A || r.Crossing != 0 {
		t.Errorf("up to 10: got %+v, want a faster and no crossing", r)
	}
}

// TestCompare checks the crossings Compare finds from a sparse sweep
// against those of every integer P, decided by exact evaluation.
func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b Model
		env  map[string]float64
		n    int // crossings
	}{{
		// A linear shift against a tree with a message per block: b wins
		// from P = 109.
		"shift-tree",
		Model{Size: "P", Terms: []Term{term("compute", Compute, "N/P*ta"), term("shift", Comm, "(P-1)*s")}},
		Model{Size: "P", Terms: []Term{
			term("compute", Compute, "N/P*tb"),
			term("reduce", Comm, "ceil(log2(P))*s + floor(N/P)*tm"),
		}},
		map[string]float64{"N": 100000, "ta": 1e-6, "tb": 2e-6, "s": 1e-5, "tm": 1e-7},
		1,
	}, {
		// b is faster for 18 <= P <= 62 only.
		"window",
		Model{Size: "P", Terms: []Term{term("t", Compute, "c")}},
		Model{Size: "P", Terms: []Term{term("t", Compute, "(P-40)^2/1000 + c - 1/2")}},
		map[string]float64{"c": 1},
		2,
	}, {
		// b is faster for 31 <= P <= 49; at 30 and 50 the two are equal.
		"ties",
		Model{Size: "P", Terms: []Term{term("t", Compute, "c")}},
		Model{Size: "P", Terms: []Term{term("t", Compute, "(P-40)^2/1000 + c - 1/10")}},
		map[string]float64{"c": 1},
		2,
	}} {
		t.Run(c.name, func(t *testing.T) {
			want := bruteCrossings(t, c.a, c.b, c.env, 4096)
			if len(want) != c.n {
				t.Fatalf("the test models cross %d times, want %d: %+v", len(want), c.n, want)
			}
			sweep, _ := ParseSweep("1..4096")
			every, _ := ParseSweep("1..4096:+1")
			for _, ps := range [][]int64{sweep, every} {
				got, err := Compare(c.a, c.b, c.env, ps)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%d points: crossings %+v, want %+v", len(ps), got, want)
				}
				for i, g := range got {
					w := want[i]
					if g.From != w.From || g.To != w.To || g.Before != w.Before || g.After != w.After {
						t.Errorf("%d points: crossing %+v, want %+v", len(ps), g, w)
					}
					if g.At < float64(g.From) || g.At > float64(g.To) {
						t.Errorf("crossing %+v: At outside [From, To]", g)
					}
				}
			}
			t.Logf("crossings: %+v", want)
		})
	}
	// At is where the times are equal.
	a := Model{Size: "P", Terms: []Term{term("t", Compute, "c")}}
	b := Model{Size: "P", Terms: []Term{term("t", Compute, "(P-40)^2/1000 + c - 1/10")}}
	got, err := Compare(a, b, map[string]float64{"c": 1}, []int64{1, 40, 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || math.Abs(got[0].At-30) > 1e-9 || math.Abs(got[1].At-50) > 1e-9 {
		t.Errorf("crossings %+v, want At = 30 and 50", got)
	}
}

// bruteCrossings returns the crossings of a and b over P = 1..pmax, from
// symbolic's own evaluation of every P: exact where rational.
func bruteCrossings(t *testing.T, a, b Model, env map[string]float64, pmax int64) []Crossing {
	ta, tb := a.Total(), b.Total()
	var out []Crossing
	var last Variant
	var lastP int64
	for p := int64(1); p <= pmax; p++ {
		c := cmpSym(t, ta, tb, env, p)
		var v Variant
		switch {
		case c < 0:
			v = A
		case c > 0:
			v = B
		default:
			continue
		}
		if last != 0 && v != last {
			out = append(out, Crossing{From: lastP, To: p, Before: last, After: v})
		}
		last, lastP = v, p
	}
	return out
}

// cmpSym compares x and y at P = p, exactly unless one is irrational.
func cmpSym(t *testing.T, x, y symbolic.Piecewise, env map[string]float64, p int64) int {
	exact := map[string]symbolic.Rat{"P": symbolic.RatInt(p)}
	fenv := map[string]float64{"P": float64(p)}
	for k, v := range env {
		exact[k], fenv[k] = decimalRat(v), v
	}
	xv, errx := x.Eval(exact)
	yv, erry := y.Eval(exact)
	if errx == nil && erry == nil {
		return xv.Cmp(yv)
	}
	xf, yf := evalSym(t, x, fenv), evalSym(t, y, fenv)
	return cmpFloat(xf, yf)
}

// evalSym evaluates a guard-free Piecewise in float64 with symbolic's
// evaluator.
func evalSym(t *testing.T, pw symbolic.Piecewise, env map[string]float64) float64 {
	var sum float64
	for _, p := range pw.Pieces {
		if len(p.Guard) > 0 {
			t.Fatal("evalSym: guards")
		}
		v, err := p.Value.EvalFloat(env)
		if err != nil {
			t.Fatal(err)
		}
		sum += v
	}
	return sum
}

// pipeline is MK's pipeline phase with a block of K pivots per message
// (seed 000 §4.1, §5.4): T = Fill + Remain with
//
//	Fill   = (P-1)*(tau(8K) + s + r + K*w),  tau(m) = ts + m*tc
//	Remain = (N/K)*(s + r + o + K*w)
//
// so that dT/dK = (P-1)*(8*tc + w) - N*(s + r + o)/K^2.
func pipeline() Model {
	return Model{Size: "P", Terms: []Term{
		term("fill", Comm, "(P-1)*(ts + 8*K*tc + s + r + K*w)"),
		term("remain", Compute, "N/K*(s + r + o + K*w)"),
	}}
}

// TestGrain compares Grain with an exhaustive search over every integer K
// in range, exactly, for random parameters of MK's pipeline.
func TestGrain(t *testing.T) {
	m := pipeline()
	total := m.Total()
	rng := rand.New(rand.NewPCG(1, 1))
	wantD := symbolic.MustParse("(P-1)*(8*tc + w) - N*(s + r + o)/K^2")
	// dec returns a random decimal k*10^-e with k in [1, n], as float64 and
	// exactly.
	dec := func(n int64, e int) (float64, symbolic.Rat) {
		k := 1 + rng.Int64N(n)
		den := int64(math.Pow10(e))
		return float64(k) / float64(den), symbolic.RatFrac(k, den)
	}
	for i := range 200 {
		env := map[string]float64{}
		exact := map[string]symbolic.Rat{}
		for _, v := range []struct {
			name string
			n    int64
			e    int
		}{{"ts", 2000, 7}, {"tc", 1000, 9}, {"s", 500, 7}, {"r", 500, 7}, {"o", 500, 7}, {"w", 1000, 9}} {
			env[v.name], exact[v.name] = dec(v.n, v.e)
		}
		p, n := 2+rng.Int64N(127), 16+rng.Int64N(8192)
		env["P"], env["N"] = float64(p), float64(n)
		exact["P"], exact["N"] = symbolic.RatInt(p), symbolic.RatInt(n)
		lo, hi := int64(1), int64(256)
		if i%4 == 3 {
			lo, hi = 1+rng.Int64N(8), 9+rng.Int64N(24) // often cut off before the optimum
		}
		k, tk, d, err := Grain(m, "K", lo, hi, env)
		if err != nil {
			t.Fatal(err)
		}
		var bestK int64
		var best symbolic.Rat
		for q := lo; q <= hi; q++ {
			exact["K"] = symbolic.RatInt(q)
			v, err := total.Eval(exact)
			if err != nil {
				t.Fatal(err)
			}
			if q == lo || v.Cmp(best) < 0 {
				bestK, best = q, v
			}
		}
		if k != bestK || tk != best.Float64() {
			t.Errorf("P=%d N=%d %v, K in %d..%d: Grain = %d (T %v), exhaustive %d (T %v)", p, n, env, lo, hi, k, tk, bestK, best.Float64())
		}
		if !d.Equal(wantD) {
			t.Errorf("dT/dK = %v, want %v", d, wantD)
		}
		if gk, gt, err := GrainSweep(m, "K", lo, hi, env); err != nil || gk != bestK || gt != tk {
			t.Errorf("GrainSweep = %d, %v, %v; want %d", gk, gt, err, bestK)
		}
	}
}

// TestGrainShape checks Grain on a T with two local minima, and the
// error for a T that is not differentiable in K.
func TestGrainShape(t *testing.T) {
	// (K-10)^2*(K-100)^2 has minima 0 at K = 10 and 100; the tilt 1e-3*K
	// makes K = 10 the global one and moves both off the integers.
	m := Model{Size: "P", Terms: []Term{term("t", Compute, "(K-10)^2*(K-100)^2/10^6 + K/1000 + P")}}
	env := map[string]float64{"P": 1}
	k, _, _, err := Grain(m, "K", 1, 1000, env)
	if err != nil {
		t.Fatal(err)
	}
	if bk, _, _ := GrainSweep(m, "K", 1, 1000, env); k != bk || k != 10 {
		t.Errorf("Grain = %d, exhaustive %d, want 10", k, bk)
	}
	m = Model{Size: "P", Terms: []Term{term("t", Compute, "ceil(N/K)*s + K*P")}}
	env = map[string]float64{"P": 4, "N": 1000, "s": 1}
	if _, _, _, err := Grain(m, "K", 1, 100, env); !errors.Is(err, symbolic.ErrNotDifferentiable) {
		t.Errorf("Grain with ceil(N/K): error %v", err)
	}
	// ceil(1000/K) + 4K is 127 at K = 15 (67 + 60) and 16 (63 + 64), more
	// elsewhere; ties go to the smaller K.
	if k, tk, err := GrainSweep(m, "K", 1, 100, env); err != nil || k != 15 || tk != 127 {
		t.Errorf("GrainSweep = %d, %v, %v; want 15, 127", k, tk, err)
	}
}

// TestConstantTime checks N(P) against the closed form for
// T = N^2*tc/P + log2(P)*ts, N = sqrt((t0 - log2(P)*ts)*P/tc), and the
// report of process counts with no solution.
func TestConstantTime(t *testing.T) {
	m := Model{Size: "P", Terms: []Term{term("compute", Compute, "N^2/P*tc"), term("reduce", Comm, "log2(P)*ts")}}
	ps := []int64{1, 2, 8, 64, 1024}
	env := map[string]float64{"tc": 1e-6, "ts": 1e-3}
	ns, err := ConstantTime(m, "N", 1, ps, env)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		want := math.Sqrt((1 - math.Log2(float64(p))*1e-3) * float64(p) / 1e-6)
		if math.Abs(ns[i]-want) > 1e-12*want {
			t.Errorf("P=%d: N = %v, want %v", p, ns[i], want)
		}
	}
	env["ts"] = 0.2 // log2(P)*ts > 1 from P = 64
	ns, err = ConstantTime(m, "N", 1, ps, env)
	var none *NoSolutionError
	if !errors.As(err, &none) || len(none.P) != 2 || none.P[0] != 64 || none.P[1] != 1024 {
		t.Fatalf("error %v, want no solution at P = 64, 1024", err)
	}
	if !math.IsNaN(ns[3]) || !math.IsNaN(ns[4]) || math.IsNaN(ns[2]) {
		t.Errorf("N = %v, want NaN for P = 64, 1024 only", ns)
	}
	t.Log(err)
	// Bounded time: T = tc*N/(N+1) never reaches 1.
	m = Model{Size: "P", Terms: []Term{term("t", Compute, "tc*N/(N+1)/P")}}
	if _, err := ConstantTime(m, "N", 1, []int64{1}, env); !errors.As(err, &none) {
		t.Errorf("bounded T: error %v", err)
	} else {
		t.Log(err)
	}
}
