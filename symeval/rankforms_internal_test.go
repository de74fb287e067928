package symeval

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// rankAltsOn regroups a value given rank by rank into closed forms in the
// rank. The oracle is the table itself: each rank's number, drawn from one
// to three random forms (a line in the rank, a line in mod(rank, k) or in
// floor(rank/k) for k dividing P) on random runs of ranks, with a few
// single-rank exceptions. Every rank must take exactly one alternative
// whose guard holds there and whose value there is the rank's number.
func TestRankFormsAgainstTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	ev := &evaluator{values: map[string]int64{}, rankSets: map[string][]bool{}}
	regrouped := 0
	for trial := range 400 {
		np := []int64{12, 32, 48, 64, 96, 128, 256}[rng.IntN(7)]
		ev.values[Size] = np
		ev.rankSets = map[string][]bool{} // tabulated at one P each
		var divs []int64
		for k := int64(2); k < np; k++ {
			if np%k == 0 {
				divs = append(divs, k)
			}
		}
		var forms []rankForm
		for range 1 + rng.IntN(3) {
			f := rankForm{kind: rng.IntN(3), a: int64(rng.IntN(7) - 3), b: int64(rng.IntN(200) - 100)}
			if f.kind != formRank {
				f.k = divs[rng.IntN(len(divs))]
			}
			forms = append(forms, f)
		}
		vals := make([]int64, np)
		cut := rng.Int64N(np)
		for r := range np {
			f := forms[0]
			if r >= cut {
				f = forms[len(forms)-1]
			}
			vals[r] = f.at(r)
		}
		for range rng.IntN(3) {
			vals[rng.Int64N(np)] = int64(rng.IntN(1000) + 1000)
		}
		// One alternative per rank, as a scan over the ranks leaves them.
		alts := make([]Alt, np)
		sets := make([][]bool, np)
		for r := range np {
			alts[r] = Alt{E: symbolic.Int(vals[r])}
			sets[r] = make([]bool, np)
			sets[r][r] = true
		}
		out := ev.rankAltsOn(alts, sets, np)
		distinct := map[int64]bool{}
		for _, v := range vals {
			distinct[v] = true
		}
		if len(out) < len(distinct) {
			regrouped++
		}
		for r := range np {
			taken := 0
			for _, a := range out {
				if a.Guard != nil {
					in, ok := ev.rankSet(a.Guard, np)
					if !ok {
						t.Fatalf("trial %d: guard %v cannot be tabulated", trial, a.Guard)
					}
					if !in[r] {
						continue
					}
				}
				taken++
				got, err := a.E.Eval(map[string]symbolic.Rat{Rank: symbolic.RatInt(r)})
				if err != nil {
					t.Fatalf("trial %d: %s at rank %d: %v", trial, a.E, r, err)
				}
				if v, ok := got.Int64(); !ok || v != vals[r] {
					t.Fatalf("trial %d, P=%d: rank %d takes %s = %s, want %d", trial, np, r, a.E, got, vals[r])
				}
			}
			if taken != 1 {
				t.Fatalf("trial %d, P=%d: rank %d takes %d alternatives of %v", trial, np, r, taken, out)
			}
		}
	}
	if regrouped < 100 {
		t.Errorf("only %d of 400 tables were regrouped into forms", regrouped)
	}
}
