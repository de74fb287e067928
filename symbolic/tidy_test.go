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
