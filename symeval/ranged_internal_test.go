package symeval

import (
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// The planes of a block are one number where the blocks divide the
// planes, and stay a closed form in the block where the last block is
// shorter; the variable of a loop, and values outside its iterations, are
// left.
func TestFoldRanged(t *testing.T) {
	kb := symbolic.Sym("kb")
	block := func(bk, nkt int64) Value {
		// min(bk, nkt - k0 + 1) with k0 = 1 + (kb - 1)*bk.
		k0 := symbolic.Int(1).Add(kb.Sub(symbolic.Int(1)).Mul(symbolic.Int(bk)))
		return Known(symbolic.Min(symbolic.Int(bk), symbolic.Int(nkt).Sub(k0).Add(symbolic.Int(1))))
	}
	ev := &evaluator{}
	end := ev.rangeLoop(Known(kb.Sub(symbolic.Int(1))), Known(symbolic.Int(3)))
	for _, c := range []struct {
		v    Value
		want string
	}{
		{block(10, 30), "10"},
		{block(10, 25), block(10, 25).Alts[0].E.String()},
		{Known(kb.Mul(symbolic.Int(2))), "2*kb"},
		{Known(symbolic.Max(kb, symbolic.Int(3))), "3"},
		{Known(symbolic.Max(kb, symbolic.Sym("n"))), "max(kb, n)"},
	} {
		got := ev.foldRanged(c.v)
		if e, ok := got.Single(); !ok || e.String() != c.want {
			t.Errorf("foldRanged(%s) = %v, want %s", c.v.Alts[0].E, got.Alts, c.want)
		}
	}
	end()
	if got := ev.foldRanged(block(10, 30)); !sameValue(got, block(10, 30)) {
		t.Errorf("outside the loop: %v folded", got.Alts)
	}
}
