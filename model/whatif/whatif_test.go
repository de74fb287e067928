package whatif

import (
	"errors"
	"fmt"
	"github.com/mkvet/mkvet/internal/seeds"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// term builds a single-piece term from text.
func term(name string, kind TermKind, expr string) Term {
	return Term{Name: name, Kind: kind, T: symbolic.PiecewiseOf(symbolic.MustParse(expr))}
}

// pacheco is Pacheco's model of the parallel trapezoidal rule on an nCUBE 2
// (seed 004 §11.6): T(n, p) = k1*n/p + k2*log2(p) with k1 = 22.3 µs per
// trapezoid and k2 = 175 µs per reduce stage. He estimates k2 as
// t_s + t_c + t_a "≈ 170 + 2.5 + 1.5 ≈ 175 µsec" (the parts sum to 174;
// the printed predictions use 175) and drops k3 as negligible.
func pacheco() Model {
	return Model{Size: "p", Terms: []Term{
		term("compute", Compute, "n/p*ta"),
		term("reduce", Comm, "log2(p)*k2"),
	}}
}

var pachecoEnv = map[string]float64{"ta": 22.3e-6, "k2": 175e-6}

// TestPachecoSpeedups checks every printed digit of the predicted speedups
// of Pacheco's Table 11.2 (seed 004 §11.6).
func TestPachecoSpeedups(t *testing.T) {
	want := seeds.PachecoPred(t)
	ps := []int64{2, 4, 8, 16, 32}
	for j, n := range seeds.PachecoN {
		env := map[string]float64{"n": float64(n)}
		for k, v := range pachecoEnv {
			env[k] = v
		}
		rows, err := Table(pacheco(), env, ps)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if !r.Exact {
				t.Errorf("n=%d p=%d: not exact", n, r.P)
			}
			got := strconv.FormatFloat(r.Speedup, 'f', 1, 64)
			if got != want[r.P][j] {
				t.Errorf("n=%d p=%d: speedup %s (%.4f), Pacheco's Table 11.2 says %s", n, r.P, got, r.Speedup, want[r.P][j])
			}
		}
	}
}

func TestTable(t *testing.T) {
	m := Model{Size: "P", Terms: []Term{
		term("compute", Compute, "N/P*tc"),
		term("reduce", Comm, "log2(P)*ts"),
		term("io", IO, "tio"),
	}}
	env := map[string]float64{"N": 1000, "tc": 0.1, "ts": 3, "tio": 0.5, "P": 99}
	rows, err := Table(m, env, []int64{1, 2, 3, 4, 1024})
	if err != nil {
		t.Fatal(err)
	}
	// T(1) = 100.5, T(2) = 50 + 3 + 0.5, T(4) = 25 + 6 + 0.5.
	for _, c := range []struct {
		i          int
		time, comm float64
		dom        string
		exact      bool
	}{
		{0, 100.5, 0, "compute", true},
		{1, 53.5, 3 / 53.5, "compute", true},
		{2, 1000*0.1/3 + 3*math.Log2(3) + 0.5, 3 * math.Log2(3) / (1000*0.1/3 + 3*math.Log2(3) + 0.5), "compute", false},
		{3, 31.5, 6 / 31.5, "compute", true},
		{4, 100.0/1024 + 30 + 0.5, 30 / (100.0/1024 + 30.5), "reduce", true},
	} {
		r := rows[c.i]
		if r.Exact != c.exact || r.Dominant != c.dom || math.Abs(r.Time-c.time) > 1e-12*c.time ||
			math.Abs(r.CommShare-c.comm) > 1e-12 {
			t.Errorf("P=%d: got %+v, want time %v comm share %v dominant %s exact %v", r.P, r, c.time, c.comm, c.dom, c.exact)
		}
		if s := 100.5 / c.time; math.Abs(r.Speedup-s) > 1e-12*s || math.Abs(r.Efficiency-s/float64(r.P)) > 1e-12 {
			t.Errorf("P=%d: speedup %v efficiency %v, want %v", r.P, r.Speedup, r.Efficiency, s)
		}
		if len(r.Terms) != 3 {
			t.Errorf("P=%d: %d term times", r.P, len(r.Terms))
		}
	}
	// Exact: 0.1*1000/3 at P=3 in floats is 33.33...; at P=1024 the time
	// 3065/100 + 0.1*1000/1024 rounds once.
	want := 0.5 + 30 + 100.0/1024
	if rows[4].Time != want {
		t.Errorf("P=1024: time %v, want %v", rows[4].Time, want)
	}
}

// TestTableExactDigits shows exactness at work: in float64, 0.1+0.2 is
// 0.30000000000000004, but the decimal parameters are read exactly.
func TestTableExactDigits(t *testing.T) {
	m := Model{Size: "P", Terms: []Term{term("a", Compute, "a/P"), term("b", Comm, "b")}}
	rows, err := Table(m, map[string]float64{"a": 0.1, "b": 0.2}, []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Time != 0.3 || !rows[0].Exact {
		t.Errorf("time %v (exact %v), want 0.3", rows[0].Time, rows[0].Exact)
	}
	if rows[0].CommShare != 2.0/3 {
		t.Errorf("comm share %v, want 2/3", rows[0].CommShare)
	}
}

func TestTablePiecewise(t *testing.T) {
	// A message of 8*N/P bytes, eager below 1024 bytes, rendezvous above.
	eager := symbolic.Rel(symbolic.MustParse("8*N/P"), "<", symbolic.Int(1024))
	rdv := symbolic.Rel(symbolic.MustParse("8*N/P"), ">=", symbolic.Int(1024))
	msg := symbolic.Piecewise{Pieces: []symbolic.Piece{
		{Guard: []symbolic.Relation{eager}, Value: symbolic.MustParse("1 + 8*N/P")},
		{Guard: []symbolic.Relation{rdv}, Value: symbolic.MustParse("3 + 8*N/P")},
	}}
	m := Model{Size: "P", Terms: []Term{{Name: "send", Kind: Comm, T: msg}}}
	rows, err := Table(m, map[string]float64{"N": 1024}, []int64{1, 4, 8, 16})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{8195, 2051, 1027, 513} // 8*N/P = 1024 at P = 8: rendezvous
	for i, r := range rows {
		if r.Time != want[i] {
			t.Errorf("P=%d: %v, want %v", r.P, r.Time, want[i])
		}
	}
}

func TestTableErrors(t *testing.T) {
	m := pacheco()
	for _, c := range []struct {
		env  map[string]float64
		ps   []int64
		want string
	}{
		{map[string]float64{"ta": 1}, []int64{1}, "no value for k2, n"},
		{map[string]float64{"ta": 1, "k2": 1, "n": 8}, []int64{0}, "process counts start at 1"},
		{map[string]float64{"ta": 1, "k2": 1, "n": math.NaN()}, []int64{1}, "n = NaN is not a number"},
		{map[string]float64{"ta": -1, "k2": 0, "n": 8}, []int64{1}, "not positive"},
	} {
		_, err := Table(m, c.env, c.ps)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v at %v: error %v, want %q", c.env, c.ps, err, c.want)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "whatif: Model.Size is empty") {
			t.Errorf("panic %v", r)
		}
	}()
	Table(Model{}, nil, nil)
}

func TestModelFuncTime(t *testing.T) {
	f, err := pacheco().Compile()
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Time(map[string]float64{"ta": 22.3e-6, "k2": 175e-6, "n": 1024, "p": 8})
	if err != nil {
		t.Fatal(err)
	}
	// 22.3e-6*128 + 3*175e-6 = 0.0028544 + 0.000525, exactly.
	if want := 0.0033794; got != want {
		t.Errorf("T = %v, want %v", got, want)
	}
}

func TestParseSweep(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int64
		err  string
	}{
		{"8", []int64{8}, ""},
		{"1,2,4..64", []int64{1, 2, 4, 8, 16, 32, 64}, ""},
		{"1..4096", []int64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}, ""},
		{"3..20", []int64{3, 6, 12}, ""},
		{"2..32:+2", []int64{2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32}, ""},
		{"1..100:*10", []int64{1, 10, 100}, ""},
		{"1..9:x3", []int64{1, 3, 9}, ""},
		{" 16 , 1 .. 4 ,2", []int64{1, 2, 4, 16}, ""},
		{"0,5..7:+1", []int64{0, 5, 6, 7}, ""},
		{"4611686018427387904..9223372036854775807", []int64{1 << 62}, ""},
		{"9223372036854775800..9223372036854775807:+5", []int64{9223372036854775800, 9223372036854775805}, ""},
		{"", nil, "col 1: empty item"},
		{"1,,2", nil, "col 3: empty item"},
		{"1,2,", nil, "col 5: empty item"},
		{"1,a", nil, `col 3: want an integer, found "a"`},
		{"1..", nil, "col 4: want an integer, found the end"},
		{"8..4", nil, "col 1: range 8..4 is empty"},
		{"1,0..8", nil, "col 3: geometric range starts at 0"},
		{"2..32:+0", nil, "col 8: step must be at least 1"},
		{"2..32:*1", nil, "col 8: factor must be at least 2"},
		{"2..32:-2", nil, "col 7: want a step"},
		{"2..32;", nil, `col 6: unexpected ";" after range`},
		{"2 3", nil, `col 3: unexpected "3"`},
		{"99999999999999999999", nil, "col 1: 99999999999999999999 is out of range"},
		{"1..1000000000:+1", nil, "col 1: range has more than"},
		{"-1", nil, `col 1: want an integer, found "-"`},
	} {
		got, err := ParseSweep(c.in)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("ParseSweep(%q): error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseSweep(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	var se *SyntaxError
	if _, err := ParseSweep("1,x"); !errors.As(err, &se) || se.Col != 3 {
		t.Errorf("error %v is not a *SyntaxError at col 3", err)
	}
}

func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		in     string
		lo, hi int64
		err    string
	}{
		{"1..256", 1, 256, ""},
		{" 4 .. 8 ", 4, 8, ""},
		{"16", 16, 16, ""},
		{"8..4", 0, 0, "col 1: range 8..4 is empty"},
		{"1..256:+2", 0, 0, `col 7: unexpected ":+2" after range`},
		{"x", 0, 0, `col 1: want an integer, found "x"`},
	} {
		lo, hi, err := ParseRange(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("ParseRange(%q): error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || lo != c.lo || hi != c.hi {
			t.Errorf("ParseRange(%q) = %d, %d, %v; want %d, %d", c.in, lo, hi, err, c.lo, c.hi)
		}
	}
}

func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"1,2,4..4096", "2..32:+2", "1..100:*10", "8..4", "1,,2", " 3 .. 9 : x 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vals, err := ParseSweep(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len(s)+1 {
				t.Fatalf("ParseSweep(%q): error %v has no column in range", s, err)
			}
			return
		}
		if len(vals) == 0 || !slices.IsSorted(vals) || len(slices.Compact(slices.Clone(vals))) != len(vals) {
			t.Fatalf("ParseSweep(%q) = %v: not ascending and unique", s, vals)
		}
	})
}

// BenchmarkSweep evaluates Table, compiled once, for Pacheco's model at
// n = 2^24 over P = 2^0..2^20 (exact at every point) and over every P up
// to 4096 (mostly irrational log2(P), float64); ns/P is per process count.
func BenchmarkSweep(b *testing.B) {
	env := map[string]float64{"n": 1 << 24}
	for k, v := range pachecoEnv {
		env[k] = v
	}
	f, err := pacheco().Compile()
	if err != nil {
		b.Fatal(err)
	}
	pow2 := make([]int64, 21)
	for i := range pow2 {
		pow2[i] = 1 << i
	}
	every := make([]int64, 1<<12)
	for i := range every {
		every[i] = int64(i + 1)
	}
	for _, c := range []struct {
		name string
		ps   []int64
	}{{"P=2^0..2^20", pow2}, {"P=1..4096", every}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := f.Table(env, c.ps); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.ps)), "ns/P")
		})
	}
}

// TestRowAtNeedsNoTimeAtOne checks RowAt against Table: the same time,
// terms and communication share at P, with no speedup; and a model valid
// at one process count only (here zero at P = 1, which Table refuses)
// still has its row there.
func TestRowAtNeedsNoTimeAtOne(t *testing.T) {
	m := Model{Size: "P", Terms: []Term{
		{Name: "compute", Kind: Compute, T: symbolic.PiecewiseOf(symbolic.MustParse("n/P*ta"))},
		{Name: "reduce", Kind: Comm, T: symbolic.PiecewiseOf(symbolic.MustParse("log2(P)*k2"))},
	}}
	env := map[string]float64{"n": 1000, "ta": 2e-6, "k2": 1e-4}
	rows, err := Table(m, env, []int64{8})
	if err != nil {
		t.Fatal(err)
	}
	row, err := RowAt(m, env, 8)
	if err != nil {
		t.Fatal(err)
	}
	if row.Time != rows[0].Time || row.CommShare != rows[0].CommShare || row.Dominant != rows[0].Dominant ||
		len(row.Terms) != 2 || row.Terms[1] != rows[0].Terms[1] || !math.IsNaN(row.Speedup) || !math.IsNaN(row.Efficiency) {
		t.Errorf("RowAt = %+v, Table's row %+v", row, rows[0])
	}
	only := Model{Size: "P", Terms: []Term{
		{Name: "compute", Kind: Compute, T: symbolic.PiecewiseOf(symbolic.MustParse("(P - 1)*ta"))},
	}}
	if _, err := Table(only, env, []int64{4}); err == nil {
		t.Fatal("Table of a model that is zero at P = 1: no error")
	}
	if row, err := RowAt(only, env, 4); err != nil || row.Time != 6e-6 {
		t.Errorf("RowAt(4) = %+v, %v; want 6us", row, err)
	}
}
