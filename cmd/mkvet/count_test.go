package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runMkvet(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestCountFahringer(t *testing.T) {
	out, errs, code := runMkvet(t, "count", "-assume", "n1 >= 1, n2 >= 1, p >= 1, 1 <= k <= p", "-per", "k=1..p",
		"-at", "n1=100,n2=100,p=4", "-at", "n1=3,n2=10,p=4,k=2",
		"[n1,n2,p,k] -> { [j1,j2] : 1 <= j1 <= n1 and 1 <= j2 <= j1*n1 and j2 <= n2 and floor(n2*(k-1)/p) + 1 <= j2 <= floor(n2*k/p) }")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"at n1=100, n2=100, p=4, over k=1..4: total 10000, max 2500",
		"at k=2, n1=3, n2=10, p=4: 7",
		"over k=1..4: total 18, max 7 (k=2), min 2 (k=4)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCountSumJSON(t *testing.T) {
	out, errs, code := runMkvet(t, "count", "-json", "-sum", "i", "-at", "n=10", "[n] -> { [i] : 1 <= i <= n }")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res countResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 1 || res.Points[0].Value != "55" {
		t.Errorf("sum of i for i = 1..10: got %+v, want 55", res.Points)
	}
	if len(res.Pieces) != 1 || res.Pieces[0].Value != "n^2/2 + n/2" {
		t.Errorf("pieces %+v, want n^2/2 + n/2 under n >= 1", res.Pieces)
	}
}

func TestCountErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"count", "[n] -> { [i] : 1 <= i <=  }"}, "set:1:27: expected an expression"},
		{[]string{"count", "[n] -> { [i] : 1 <= i <= q }"}, "undeclared symbol(s) q"},
		{[]string{"count", "[n] -> { [i] : 1 <= i }"}, "unbounded above"},
		{[]string{"count", "[n, m] -> { [i, j] : 1 <= i <= n and 1 <= j <= n and i*j <= m }"}, "multiplies"},
		{[]string{"count"}, "want exactly one set argument"},
	} {
		_, errs, code := runMkvet(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestExprCommand(t *testing.T) {
	out, errs, code := runMkvet(t, "expr", "N*N/P + 2*log2(P)", "-D", "N=1000,P=4", "-diff", "P")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"expr    N^2/P + 2*log2(P)", "value   250004", "d/dP   2/(P*ln(2)) - N^2/P^2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, errs, code = runMkvet(t, "expr", "N*(P+")
	if code != 2 || !strings.Contains(errs, "expr:1:6: unexpected end of input") {
		t.Errorf("bad expression: exit %d, stderr %q", code, errs)
	}
	_, errs, code = runMkvet(t, "nosuch")
	if code != 2 || !strings.Contains(errs, `unknown subcommand "nosuch"`) {
		t.Errorf("unknown subcommand: exit %d, stderr %q", code, errs)
	}
	out, _, code = runMkvet(t, "help")
	if code != 0 || !strings.Contains(out, "count") || !strings.Contains(out, "apt") {
		t.Errorf("help: exit %d, output %q", code, out)
	}
}
