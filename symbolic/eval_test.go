package symbolic

import (
	"math/rand/v2"
	"testing"
)

// TestEvalIntFastPath: at 10,000 random expressions (floors, mods, min, max,
// division by positive symbols) and integer points, the int64 path of
// EvalInt gives exactly the value of the exact Rat path, or defers to it.
func TestEvalIntFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	fast := 0
	for i := range 10000 {
		_, boxes := genAssumptions(r)
		e := genSignExpr(r, boxes, 4)
		f, err := e.Compile(proveSyms)
		if err != nil {
			t.Fatal(err)
		}
		pt := make([]int64, len(proveSyms))
		rv := make([]Rat, len(proveSyms))
		for k, s := range proveSyms {
			b := boxes[s]
			pt[k] = b.lo + r.Int64N(b.hi-b.lo+1)
			rv[k] = RatInt(pt[k])
		}
		want, errWant := f.Eval(rv)
		got, errGot := f.EvalInt(pt)
		if (errWant == nil) != (errGot == nil) || errWant == nil && got.Cmp(want) != 0 {
			t.Fatalf("case %d: %s at %v: EvalInt %s (%v), Eval %s (%v)", i, e, pt, got, errGot, want, errWant)
		}
		if _, _, ok := f.evalQ64(pt, &q64cache{}); ok {
			fast++
		}
	}
	t.Logf("%d of 10000 evaluations took the int64 path", fast)
	if fast < 3000 {
		t.Errorf("only %d evaluations took the int64 path", fast)
	}
}
