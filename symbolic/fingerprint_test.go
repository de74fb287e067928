package symbolic

import (
	"math/rand/v2"
	"testing"
)

// TestFingerprintAgainstKey: two forms have the same fingerprint exactly
// when they have the same key, over random forms built to collide often
// (few symbols, small coefficients, one or two pieces).
func TestFingerprintAgainstKey(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	syms := []string{"n", "P"}
	var forms []Piecewise
	for range 400 {
		var pw Piecewise
		for range 1 + r.IntN(2) {
			var g []Relation
			if r.IntN(2) == 0 {
				g = append(g, Relation{E: randomPoly(r, 1, syms, 1), Op: GE + RelOp(r.IntN(2))})
			}
			pw.Pieces = append(pw.Pieces, Piece{Guard: g, Value: randomPoly(r, 1+r.IntN(2), syms, 1)})
		}
		forms = append(forms, pw)
	}
	byKey := map[string]Fingerprint{}
	byPrint := map[Fingerprint]string{}
	same := 0
	for _, pw := range forms {
		k, f := pw.Key(), pw.Fingerprint()
		if g, ok := byKey[k]; ok {
			same++
			if g != f {
				t.Fatalf("equal keys %q, different fingerprints %x and %x", k, g, f)
			}
		}
		if k2, ok := byPrint[f]; ok && k2 != k {
			t.Fatalf("keys %q and %q share the fingerprint %x", k, k2, f)
		}
		byKey[k], byPrint[f] = f, k
	}
	if same < 10 || len(byKey) < 100 {
		t.Errorf("%d forms with a key seen before, %d keys: the test wants both many", same, len(byKey))
	}
}
