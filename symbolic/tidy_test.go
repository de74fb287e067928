package symbolic

import "testing"

// TestTidyMerges: complementary and adjacent pieces merge, into max for a
// growing difference and min for a shrinking one, with the value of the
// pieces at every point of a grid (the pieces' own evaluation is the
// oracle).
func TestTidyMerges(t *testing.T) {
	a := NewAssumptions()
	if err := a.AssumeText("n >= 0, k >= 0"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pieces [][2]string // value, guard
		want   string
	}{
		{[][2]string{{"n", "n >= k"}, {"k", "k >= n + 1"}}, "max(k, n)"},
		{[][2]string{{"2*n - k", "n >= k"}, {"n", "k >= n + 1"}}, "max(2*n - k, n)"},
		{[][2]string{{"k", "n >= k + 1"}, {"n - 1", "k >= n"}}, "min(k, n - 1)"},
		{[][2]string{{"3", "k == 4"}, {"3", "k >= 5"}, {"3", "3 >= k"}}, "3"},
	} {
		var pw Piecewise
		for _, p := range c.pieces {
			v, err := Parse(p[0])
			if err != nil {
				t.Fatal(err)
			}
			g, err := ParseRelations(p[1])
			if err != nil {
				t.Fatal(err)
			}
			pw.Pieces = append(pw.Pieces, Piece{Guard: g, Value: v})
		}
		got := pw.Tidy(a)
		if got.String() != c.want {
			t.Errorf("Tidy(%s) = %s, want %s", pw, got, c.want)
		}
		for n := range int64(12) {
			for k := range int64(12) {
				env := map[string]Rat{"n": RatInt(n), "k": RatInt(k)}
				x, _ := pw.Eval(env)
				y, err := got.Eval(env)
				if err != nil || !x.Equal(y) {
					t.Fatalf("%s at n=%d, k=%d: %s, tidied %s = %s", pw, n, k, x, got, y)
				}
			}
		}
	}
}

// TestTidyMergesRankRanges: a value given rank by rank (a loop run once per
// rank) tidies into ranges of ranks, one piece per run of equal values, and
// still equals the pieces' own evaluation at every rank and at the ranks
// around them (the oracle); pieces that share other relations merge only
// where those agree.
func TestTidyMergesRankRanges(t *testing.T) {
	a := NewAssumptions()
	if err := a.AssumeText("n >= 1"); err != nil {
		t.Fatal(err)
	}
	rng := uint64(7)
	next := func(m uint64) int64 {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int64((rng >> 33) % m)
	}
	for trial := range 300 {
		np := 1 + next(12)
		var pw Piecewise
		runs := 0
		var last int64 = -1
		for r := range np {
			v := next(3) // 0: no piece, as a rank that runs nothing
			if trial%2 == 0 && v == 2 {
				v = 1
			}
			if v != last {
				runs++
				last = v
			}
			if v == 0 {
				continue
			}
			g := []Relation{{E: Sym("rank").Sub(Int(r)), Op: EQ}}
			if trial%3 == 0 {
				g = append(g, Relation{E: Sym("n").Sub(Int(2)), Op: GE})
			}
			pw.Pieces = append(pw.Pieces, Piece{Guard: g, Value: Sym("n").Scale(RatInt(v))})
		}
		if trial%5 == 0 && np > 2 {
			// Pieces add where their guards overlap: a range over
			// the ranks' pieces adds to them and merges with none.
			pw.Pieces = append(pw.Pieces, Piece{Guard: []Relation{{E: Sym("rank").Sub(Int(1)), Op: GE}}, Value: Sym("n")})
			runs += 2
		}
		got := pw.Tidy(a)
		if len(got.Pieces) > runs {
			t.Errorf("Tidy(%s) = %s: %d pieces for %d runs of equal values", pw, got, len(got.Pieces), runs)
		}
		for r := int64(-2); r < np+2; r++ {
			for n := int64(1); n <= 3; n++ {
				env := map[string]Rat{"rank": RatInt(r), "n": RatInt(n)}
				x, _ := pw.Eval(env)
				y, err := got.Eval(env)
				if r >= 0 && r < np && (err != nil || !x.Equal(y)) {
					t.Fatalf("%s at rank=%d n=%d: %s, tidied %s = %s (%v)", pw, r, n, x, got, y, err)
				}
			}
		}
	}
}
