package runenv_test

import (
	"slices"
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
