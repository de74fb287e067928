package symbolic

import (
	"runtime"
	"testing"
)

// TestEvalMemoNeverStale evaluates many short-lived expressions, collecting
// garbage between them so that new expressions may take the memory of old
// ones: each must evaluate to its own value, never to a remembered one.
func TestEvalMemoNeverStale(t *testing.T) {
	x, y := Sym("x"), Sym("y")
	env := map[string]Rat{"x": RatInt(3), "y": RatInt(5)}
	for i := range 20000 {
		e := x.Scale(RatInt(int64(i))).Add(y.Mul(x)).Add(Int(int64(i % 7)))
		got, err := e.Eval(env)
		if err != nil {
			t.Fatal(err)
		}
		if want := RatInt(int64(3*i + 15 + i%7)); got.Cmp(want) != 0 {
			t.Fatalf("case %d: %s = %s, want %s", i, e, got, want)
		}
		f, err := e.EvalFloat(map[string]float64{"x": 3, "y": 5})
		if err != nil || f != float64(3*i+15+i%7) {
			t.Fatalf("case %d: EvalFloat %s = %g (%v)", i, e, f, err)
		}
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	if _, err := (x.Add(y)).Eval(map[string]Rat{"x": RatInt(1)}); err == nil {
		t.Fatal("a symbol without a value must be an error")
	}
}
