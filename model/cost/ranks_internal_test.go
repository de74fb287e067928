package cost

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// TestClassGuardsSelectTheirClass checks classGuards against enumeration:
// for random conditions on the rank (orderings, equations, residues) at
// random P, the ranks are split into classes by the conditions' truth as
// countByRank splits them, and each class's guards must hold, one at a
// time, at exactly the ranks of the class. Classes with many false
// equations (every rank but a few, as a loop run rank by rank leaves) used
// to double their guards per equation; the guards must stay few.
func TestClassGuardsSelectTheirClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	r := symbolic.Sym(symeval.Rank)
	for trial := 0; trial < 300; trial++ {
		np := int64(1 + rng.IntN(80))
		an := &analysis{np: np, rankTables: map[string][]bool{}}
		var rels []counting.Rel
		if trial == 0 {
			// Each rank but the last ten on its own: the last ten are
			// one run of ranks, told from the others by 30 false
			// equations.
			np = 40
			an.np = np
			for c := int64(0); c < 30; c++ {
				rels = append(rels, counting.Rel{R: symbolic.Rel(r, "==", symbolic.Int(c))})
			}
		}
		for i := rng.IntN(40); i >= 0 && trial > 0; i-- {
			c := symbolic.Int(rng.Int64N(np + 2))
			var rel symbolic.Relation
			switch rng.IntN(4) {
			case 0:
				rel = symbolic.Rel(r, "==", c)
			case 1:
				rel = symbolic.Rel(r, ">=", c)
			case 2:
				rel = symbolic.Rel(r, "<", c)
			default:
				k := symbolic.Int(1 + rng.Int64N(5))
				rel = symbolic.Rel(symbolic.Mod(r, k), "==", symbolic.Mod(c, k))
			}
			rels = append(rels, counting.Rel{R: rel})
		}
		tables := make([][]bool, len(rels))
		for i, rel := range rels {
			tb, err := an.rankTable(rel)
			if err != nil {
				t.Fatal(err)
			}
			tables[i] = tb
		}
		classes := map[string][]int64{}
		truths := map[string][]bool{}
		for rk := int64(0); rk < np; rk++ {
			var kb strings.Builder
			var truth []bool
			for _, tb := range tables {
				truth = append(truth, tb[rk])
				if tb[rk] {
					kb.WriteByte('1')
				} else {
					kb.WriteByte('0')
				}
			}
			classes[kb.String()] = append(classes[kb.String()], rk)
			truths[kb.String()] = truth
		}
		for key, ranks := range classes {
			guards := an.classGuards(rels, tables, truths[key], ranks)
			if len(guards) > len(rankRangeGuards(ranks)) {
				t.Fatalf("P=%d: %d guards for a class of %d ranks", np, len(guards), len(ranks))
			}
			in := map[int64]bool{}
			for _, rk := range ranks {
				in[rk] = true
			}
			for rk := int64(0); rk < np; rk++ {
				env := map[string]symbolic.Rat{symeval.Rank: symbolic.RatInt(rk)}
				held := 0
				for _, g := range guards {
					ok, err := symbolic.NewAssumptions(g...).Holds(env)
					if err != nil {
						t.Fatal(err)
					}
					if ok {
						held++
					}
				}
				if in[rk] && held != 1 || !in[rk] && held != 0 {
					t.Fatalf("P=%d, class %v: rank %d is in %d of its guards %v", np, ranks, rk, held, guards)
				}
			}
		}
	}
}

// TestCountEachRankAgainstEnumeration checks countEachRank, the rank by
// rank count that stands in where a closed form in the rank is out of
// reach, against enumeration of each set at every rank: nests whose
// counts at a fixed rank come out of the engine in several pieces (the
// cases of an inner loop over the outer loop's variable) must add up to
// the number of points, not be refused.
func TestCountEachRankAgainstEnumeration(t *testing.T) {
	for _, src := range []string{
		"[rank] -> { [i, j] : 1 <= i <= rank + 3 and 1 <= j <= i and j <= 4 }",
		"[rank] -> { [i, j] : 1 <= i <= 9 and i <= j <= 2*rank + 1 and mod(i + rank, 3) == 0 }",
		"[rank] -> { [c, k, j] : 1 <= c <= 3 and c*rank <= k <= c*rank + 4 and floor(k/2) <= j <= min(k, 5) }",
		"[rank] -> { [c, k] : 1 <= c <= 4 and 1 <= k and ((c == 1 and k <= rank + 3) or (c == 2 and k <= 5) or (not (c == 1) and not (c == 2) and k <= 2*c)) }",
	} {
		set, err := counting.ParseSet(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		const np = 7
		an := &analysis{np: np, rankTables: map[string][]bool{}, counts: map[string]countResult{}, assume: symbolic.NewAssumptions()}
		ranks := make([]int64, np)
		for r := range ranks {
			ranks[r] = int64(r)
		}
		pw, err := an.countEachRank(set, nil, ranks, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		c, err := counting.CompileFormula(set.Cond, append([]string{symeval.Rank}, set.Vars...))
		if err != nil {
			t.Fatal(err)
		}
		for r := int64(0); r < np; r++ {
			want := int64(0)
			pt := make([]int64, 1+len(set.Vars))
			pt[0] = r
			var walk func(d int)
			walk = func(d int) {
				if d == len(set.Vars) {
					if ok, err := c.Holds(pt); err == nil && ok {
						want++
					}
					return
				}
				for x := int64(-2); x <= 40; x++ {
					pt[1+d] = x
					walk(d + 1)
				}
			}
			walk(0)
			got, err := pw.Eval(map[string]symbolic.Rat{symeval.Rank: symbolic.RatInt(r)})
			if err != nil {
				t.Fatalf("%s at rank %d: %v", src, r, err)
			}
			if g, _ := got.Int64(); !got.IsInt() || g != want {
				t.Errorf("%s at rank %d: %s points, enumeration %d", src, r, got, want)
			}
		}
	}
}

// TestCountManyClassesAgainstEnumeration checks countByRank where the
// conditions on the rank split the ranks into more classes than get a
// guard each (countManyClasses): each class counted once where its domain
// no longer mentions the rank, rank by rank where it does, must give at
// every rank the number of points enumeration finds.
func TestCountManyClassesAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	for trial := 0; trial < 4; trial++ {
		np := int64(maxRankClasses + 20 + rng.IntN(30))
		var alts, nots []string
		for c := int64(0); c < np; c++ {
			if c%7 == 3 {
				continue // ranks left to the last alternative
			}
			bound := fmt.Sprintf("%d", rng.IntN(12))
			if rng.IntN(4) == 0 {
				bound = fmt.Sprintf("rank - %d", rng.IntN(int(np)))
			}
			alts = append(alts, fmt.Sprintf("(%s rank == %d and i <= %s)", strings.Join(nots, ""), c, bound))
			nots = append(nots, fmt.Sprintf("not (rank == %d) and ", c))
		}
		alts = append(alts, fmt.Sprintf("(%s i <= 7 and mod(i + rank, 2) == 0)", strings.Join(nots, "")))
		src := "[rank] -> { [i] : 1 <= i and (" + strings.Join(alts, " or ") + ") }"
		set, err := counting.ParseSet(src)
		if err != nil {
			t.Fatalf("%.200s: %v", src, err)
		}
		an := &analysis{np: np, rankTables: map[string][]bool{}, counts: map[string]countResult{}, assume: symbolic.NewAssumptions()}
		if n := len(newRankDecider(set.Cond).rels); n <= maxRankClasses {
			t.Fatalf("%d conditions on the rank: the classes would not be too many", n)
		}
		pw, err := an.countByRank(set, nil)
		if err != nil {
			t.Fatalf("P=%d: %v", np, err)
		}
		c, err := counting.CompileFormula(set.Cond, []string{symeval.Rank, "i"})
		if err != nil {
			t.Fatal(err)
		}
		for r := int64(0); r < np; r++ {
			want := int64(0)
			for i := int64(-2); i <= 200; i++ {
				if ok, err := c.Holds([]int64{r, i}); err == nil && ok {
					want++
				}
			}
			got, err := pw.Eval(map[string]symbolic.Rat{symeval.Rank: symbolic.RatInt(r)})
			if err != nil {
				t.Fatalf("P=%d rank %d: %v", np, r, err)
			}
			if g, _ := got.Int64(); !got.IsInt() || g != want {
				t.Errorf("P=%d rank %d: %s points, enumeration %d", np, r, got, want)
			}
		}
	}
}
