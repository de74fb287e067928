package runenv_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/runenv"
)

func TestVariable(t *testing.T) {
	env := map[string]string{"NPB_TIMER_FLAG": "on", "LONG": "abcdefgh", "EMPTY": ""}
	for _, c := range []struct {
		env      map[string]string
		name     string
		trim     bool
		valueLen int64
		want     runenv.Result
	}{
		{nil, "NPB_TIMER_FLAG", true, 4, runenv.Result{Value: "    ", Status: runenv.StatusUnset}},
		{env, "NPB_TIMER_FLAG", true, 4, runenv.Result{Value: "on  ", Length: 2}},
		{env, "NPB_TIMER_FLAG  ", true, 4, runenv.Result{Value: "on  ", Length: 2}},
		{env, "NPB_TIMER_FLAG  ", false, 4, runenv.Result{Value: "    ", Status: runenv.StatusUnset}},
		{env, "LONG", true, 3, runenv.Result{Value: "abc", Length: 8, Status: runenv.StatusTruncated}},
		{env, "LONG", true, -1, runenv.Result{Value: "abcdefgh", Length: 8}},
		{env, "EMPTY", true, 2, runenv.Result{Value: "  "}},
		{env, "OTHER", true, 0, runenv.Result{Status: runenv.StatusUnset}},
	} {
		if got := runenv.Variable(c.env, c.name, c.trim, c.valueLen); got != c.want {
			t.Errorf("Variable(%v, %q, %v, %d) = %+v, want %+v", c.env, c.name, c.trim, c.valueLen, got, c.want)
		}
	}
}

func TestArgument(t *testing.T) {
	args := []string{"500", "verbose"}
	if n := runenv.ArgumentCount(args); n != 2 {
		t.Errorf("ArgumentCount = %d", n)
	}
	for _, c := range []struct {
		n, valueLen int64
		want        runenv.Result
	}{
		{1, 5, runenv.Result{Value: "500  ", Length: 3}},
		{2, 4, runenv.Result{Value: "verb", Length: 7, Status: runenv.StatusTruncated}},
		{0, -1, runenv.Result{Value: runenv.ProgramName, Length: int64(len(runenv.ProgramName))}},
		{3, 2, runenv.Result{Value: "  ", Status: runenv.StatusNoArg}},
		{-1, 0, runenv.Result{Status: runenv.StatusNoArg}},
	} {
		if got := runenv.Argument(args, c.n, c.valueLen); got != c.want {
			t.Errorf("Argument(%d, %d) = %+v, want %+v", c.n, c.valueLen, got, c.want)
		}
	}
}

func TestActuals(t *testing.T) {
	name := &apt.Const{Kind: apt.ConstChar, Text: "HOME"}
	val, st := &apt.Name{Name: "v"}, &apt.Name{Name: "ios"}
	got := runenv.Actuals([]apt.Expr{name, val, &apt.Keyword{Name: "status", Value: st}}, runenv.EnvironmentArgs)
	if got["name"] != name || got["value"] != val || got["status"] != st || got["length"] != nil {
		t.Errorf("Actuals = %v", got)
	}
}

func TestListValues(t *testing.T) {
	for _, c := range []struct {
		rec  string
		want []string
	}{
		{"500", []string{"500"}},
		{"  12 34,56 ", []string{"12", "34", "56"}},
		{"1,,3", []string{"1", "", "3"}},
		{",2", []string{"", "2"}},
		{"3*7 8", []string{"7", "7", "7", "8"}},
		{"2* 5", []string{"", "", "5"}},
		{"'a b', \"it\"\"s\"", []string{"a b", `it"s`}},
		{"1 2 / 3", []string{"1", "2"}},
		{"2*'x'", []string{"x", "x"}},
		{"2*'a b',3", []string{"a b", "a b", "3"}},
		{"1*", []string{""}},
		{"", nil},
	} {
		if got := runenv.ListValues(c.rec); !slices.Equal(got, c.want) {
			t.Errorf("ListValues(%q) = %q, want %q", c.rec, got, c.want)
		}
	}
	for _, c := range []struct {
		s  string
		n  int64
		ok bool
	}{{"42", 42, true}, {"-7", -7, true}, {"+3", 3, true}, {"1.5", 0, false}, {"", 0, false}} {
		if n, ok := runenv.Integer(c.s); n != c.n || ok != c.ok {
			t.Errorf("Integer(%q) = %d, %v", c.s, n, ok)
		}
	}
}

func TestListRecordSlash(t *testing.T) {
	for rec, want := range map[string]bool{"1 2 /": true, "1, 2": false, "'a/b' 3": false, "4 / 5": true, "": false} {
		if _, slash := runenv.ListRecord(rec); slash != want {
			t.Errorf("%q: slash %v, want %v", rec, slash, want)
		}
	}
}

// TestReal checks Real against strconv's reading of the same literal with
// a Go exponent letter (its own oracle for the decimal value), and refuses
// what a list-directed real is not.
func TestReal(t *testing.T) {
	for in, want := range map[string]string{"1": "1", "-12.0": "-12", ".1": "1/10", "1.": "1", "+2.5d-3": "1/400",
		"1E2": "100", "6.02q23": "602000000000000000000000", "-.5e1": "-5", "0.125D+1": "5/4"} {
		r, ok := runenv.Real(in)
		if !ok || r.RatString() != want {
			t.Errorf("Real(%q) = %v, %v; want %s", in, r, ok, want)
		}
	}
	for _, in := range []string{"", ".", "+", "1e", "e5", "1.2.3", "abc", "1e999999", "--1", "1 2"} {
		if r, ok := runenv.Real(in); ok {
			t.Errorf("Real(%q) = %v, want refused", in, r)
		}
	}
}

func TestLogical(t *testing.T) {
	for in, want := range map[string]bool{".TRUE.": true, "T": true, ".false.": false, "f": false, "tru": true} {
		if v, ok := runenv.Logical(in); !ok || v != want {
			t.Errorf("Logical(%q) = %v, %v", in, v, ok)
		}
	}
	for _, in := range []string{"", ".", "1", "yes"} {
		if _, ok := runenv.Logical(in); ok {
			t.Errorf("Logical(%q) accepted", in)
		}
	}
}

// FuzzListRead: any deck text is read without a panic; a READ takes its
// values from the records it says, and a real it accepts has the value
// strconv reads from the same literal.
func FuzzListRead(f *testing.F) {
	f.Add("4, 5 ! n m\n0.25d0 .TRUE.\n1\n 2 3\n, 6\n7 /\n", 3, 2)
	f.Add("2*7 3*\n'a/b', \"c\"\n", 1, 4)
	f.Add("/\n\n,,\n", 2, 3)
	f.Fuzz(func(t *testing.T, text string, from, want int) {
		if want > 1000 || want < 0 {
			return
		}
		recs := runenv.Records(text)
		vals, next, ok := runenv.ListRead(recs, from, want)
		if !ok {
			return
		}
		if next <= from || next > len(recs)+1 {
			t.Fatalf("next record %d after reading from %d of %d", next, from, len(recs))
		}
		for _, v := range vals {
			if v.Record < from || v.Record >= next {
				t.Fatalf("a value of record %d outside %d..%d", v.Record, from, next-1)
			}
			r, ok := runenv.Real(v.Text)
			if !ok {
				continue
			}
			lit := strings.NewReplacer("d", "e", "D", "e", "q", "e", "Q", "e").Replace(v.Text)
			x, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				continue // beyond float64's range
			}
			if y, _ := r.Float64(); x != y && math.Abs(x-y) > 1e-12*math.Abs(x) {
				t.Fatalf("Real(%q) = %v, strconv %v", v.Text, y, x)
			}
		}
	})
}

// FuzzNamelistRead: any text is read as namelist input or refused,
// without a panic; what is read lies between the group's record and the
// record the next READ starts at.
func FuzzNamelistRead(f *testing.F) {
	f.Add("&g\n  NX = 400, ny = 200\n  alpha = 0.25, v = .true. ! c\n/\n", "g", 1)
	f.Add("&other x = 1 /\n&G a(2) = 3, b%c = 'x/y' &end\n", "g", 1)
	f.Add("$g x = 2*3 , , 4 $end\n", "G", 1)
	f.Fuzz(func(t *testing.T, text, group string, from int) {
		recs := runenv.Records(text)
		items, next, ok := runenv.NamelistRead(recs, from, group)
		if !ok {
			return
		}
		if next <= from || next > len(recs)+1 {
			t.Fatalf("next record %d after reading from %d of %d", next, from, len(recs))
		}
		for _, it := range items {
			if it.Record < from || it.Record >= next || it.Name == "" {
				t.Fatalf("item %+v outside records %d..%d", it, from, next-1)
			}
		}
	})
}
