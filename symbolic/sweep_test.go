package symbolic

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// An intTerm is an expression or relation over x and n with its value in
// plain integer arithmetic (the oracle); ok is false where it has none.
type intTerm struct {
	text string
	val  func(x, n int64) (v int64, ok bool)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func genSweepGuard(r *rand.Rand) intTerm {
	c := int64(r.IntN(31) - 10)
	a := int64(r.IntN(5) - 2)
	switch r.IntN(8) {
	case 0, 1: // linear in x with a number for coefficient
		b := int64(r.IntN(3) - 1)
		return intTerm{fmt.Sprintf("%d*x + %d*n + %d", a, b, c), func(x, n int64) (int64, bool) { return a*x + b*n + c, true }}
	case 2: // rank == c
		return intTerm{fmt.Sprintf("x - %d", c), func(x, n int64) (int64, bool) { return x - c, true }}
	case 3: // free of x
		return intTerm{fmt.Sprintf("n + %d", c), func(x, n int64) (int64, bool) { return n + c, true }}
	case 4: // a coefficient that is not a number, and a remainder
		k := int64(r.IntN(3) + 2)
		return intTerm{fmt.Sprintf("x*n - %d*mod(x, %d) + %d", a, k, c), func(x, n int64) (int64, bool) { return x*n - a*(x%k) + c, true }}
	case 5: // free of x, no value at n = c
		return intTerm{fmt.Sprintf("floor(10/(n - %d))", c), func(x, n int64) (int64, bool) {
			if n == c {
				return 0, false
			}
			return floorDiv(10, n-c), true
		}}
	case 6: // linear in x, no value at n = c
		return intTerm{fmt.Sprintf("%d*x + floor(10/(n - %d))", a, c), func(x, n int64) (int64, bool) {
			if n == c {
				return 0, false
			}
			return a*x + floorDiv(10, n-c), true
		}}
	default: // no value at x = c
		return intTerm{fmt.Sprintf("floor(n/(x - %d))", c), func(x, n int64) (int64, bool) {
			if x == c {
				return 0, false
			}
			return floorDiv(n, x-c), true
		}}
	}
}

func genSweepValue(r *rand.Rand) intTerm {
	a, b, c := int64(r.IntN(7)-3), int64(r.IntN(5)-2), int64(r.IntN(21)-10)
	switch r.IntN(6) {
	case 0: // free of x
		return intTerm{fmt.Sprintf("%d*n + %d", b, c), func(x, n int64) (int64, bool) { return b*n + c, true }}
	case 1: // free of x, no value at n = c
		return intTerm{fmt.Sprintf("floor(7/(n - %d)) + %d", c, b), func(x, n int64) (int64, bool) {
			if n == c {
				return 0, false
			}
			return floorDiv(7, n-c) + b, true
		}}
	}
	if r.IntN(3) == 0 {
		k := int64(r.IntN(4) + 1)
		return intTerm{fmt.Sprintf("floor((%d*x + %d)/%d) + %d*n", a, c, k, b), func(x, n int64) (int64, bool) { return floorDiv(a*x+c, k) + b*n, true }}
	}
	return intTerm{fmt.Sprintf("%d*x + %d*n + %d", a, b, c), func(x, n int64) (int64, bool) { return a*x + b*n + c, true }}
}

func TestSweepAgainstIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	ops := []string{">=", ">", "=="}
	for i := range 2000 {
		var pw Piecewise
		type piece struct {
			guards []intTerm
			ops    []string
			value  intTerm
		}
		var ps []piece
		for range r.IntN(6) + 1 {
			var p piece
			var texts []string
			for range r.IntN(3) {
				g := genSweepGuard(r)
				op := ops[r.IntN(len(ops))]
				p.guards, p.ops = append(p.guards, g), append(p.ops, op)
				texts = append(texts, g.text+" "+op+" 0")
			}
			p.value = genSweepValue(r)
			var guard []Relation
			if len(texts) > 0 {
				rels, err := ParseRelations(strings.Join(texts, " and "))
				if err != nil {
					t.Fatalf("%v: %v", texts, err)
				}
				guard = rels
			}
			v, err := Parse(p.value.text)
			if err != nil {
				t.Fatal(err)
			}
			pw.Pieces = append(pw.Pieces, Piece{Guard: guard, Value: v})
			ps = append(ps, p)
		}
		nval := int64(r.IntN(40) - 5)
		span := int64(r.IntN(60) + 1)
		sw, err := NewSweeper([]string{"n", "x"}, []int64{nval, 0}, "x", span)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got, err := sw.Eval(pw)
		// The oracle: pieces with no false guard add up; a guard or
		// value with no value there is an error.
		var wantErr bool
		want := make([]int64, span)
		for x := range span {
			for _, p := range ps {
				skip, bad := false, false
				for j, g := range p.guards {
					v, ok := g.val(x, nval)
					if !ok {
						bad = true
						continue
					}
					if !(Relation{Op: map[string]RelOp{">=": GE, ">": GT, "==": EQ}[p.ops[j]]}).Holds(RatInt(v)) {
						skip = true
						break
					}
				}
				if skip {
					continue
				}
				if bad {
					wantErr = true
					continue
				}
				v, ok := p.value.val(x, nval)
				if !ok {
					wantErr = true
					continue
				}
				want[x] += v
			}
		}
		if wantErr {
			if err == nil {
				t.Fatalf("case %d: %s at n=%d: no error, want one", i, pw, nval)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %s at n=%d: %v", i, pw, nval, err)
		}
		for x := range span {
			if !got[x].Equal(RatInt(want[x])) {
				t.Fatalf("case %d: %s at x=%d, n=%d: %s, want %d", i, pw, x, nval, got[x], want[x])
			}
		}
	}
}

// BenchmarkSweepRankPieces is a per-rank count of the shape whole programs
// give at P = 1024 (one piece per run of ranks): Sweep against EvalInt at
// each rank, in one run.
func BenchmarkSweepRankPieces(b *testing.B) {
	const np = 1024
	var pw Piecewise
	for lo := int64(0); lo < np; lo += 2 {
		rels, err := ParseRelations(fmt.Sprintf("rank >= %d and rank <= %d", lo, lo+1))
		if err != nil {
			b.Fatal(err)
		}
		v, _ := Parse(fmt.Sprintf("n*%d + 3", lo%7+1))
		pw.Pieces = append(pw.Pieces, Piece{Guard: rels, Value: v})
	}
	vars := []string{"n", "rank"}
	b.Run("sweep", func(b *testing.B) {
		for b.Loop() {
			sw, err := NewSweeper(vars, []int64{100, 0}, "rank", np)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := sw.Eval(pw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("evalint", func(b *testing.B) {
		f, err := pw.Compile(vars)
		if err != nil {
			b.Fatal(err)
		}
		pt := []int64{100, 0}
		for b.Loop() {
			for rk := range int64(np) {
				pt[1] = rk
				if _, err := f.EvalInt(pt); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
