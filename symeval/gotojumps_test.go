package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval"
)

// notModelled returns the diagnostics saying a jump is not modelled.
func notModelled(res *symeval.Result) []string {
	var out []string
	for _, d := range res.Diags {
		if strings.Contains(d.Msg, "is not modelled") {
			out = append(out, d.String())
		}
	}
	return out
}

// Jumps inside a loop built from GO TO are followed as in any statement
// list: a forward GO TO skipping work on even runs, a computed GO TO and an
// arithmetic IF whose branches rejoin inside the loop, and an inner loop
// built from GO TO. The loop is run pass by pass: each pass that reaches
// the DO loop at line 6 adds one occurrence of it.
func TestGotoJumpsInGotoLoop(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       int // occurrences of the DO loop
	}{
		{"forward", `  if (mod(it, 2) == 0) goto 20
`, 5},
		{"computed", `  goto (20, 30, 30) mod(it, 3) + 1
30 continue
`, 7},
		{"arithmetic", `  if (it - 4) 20, 30, 30
30 continue
`, 7},
		{"inner", `  j = 0
40 j = j + 1
  if (j < 3) goto 40
  if (j /= 3) goto 20
`, 10},
	} {
		res := evaluate(t, `program p
  integer :: it, i, j
  it = 0
10 continue
  it = it + 1
`+tc.body+`  do i = 1, 8
  end do
20 continue
  if (it < 10) goto 10
end program p
`, symeval.Options{})
		if d := notModelled(res); len(d) > 0 {
			t.Errorf("%s: %v", tc.name, d)
		}
		do := occsWhere(res, func(n apt.Node) bool { l, ok := n.(*apt.Loop); return ok && l.Var == "i" })
		if len(do) != tc.want {
			t.Errorf("%s: the DO loop is reached on %d runs, want %d", tc.name, len(do), tc.want)
		}
	}
}

// The same jumps in a loop the evaluation walks once for all its runs (its
// count is a parameter of the input): the forward GO TO's paths rejoin at
// its label, the work it skips is under its condition, and the work after
// the label runs on every run. A counter stepped after an inner loop built
// from GO TO still counts the runs of a loop too long to run pass by pass.
func TestGotoJumpsSymbolic(t *testing.T) {
	res := evaluate(t, `program p
  integer :: it, i, j, imeth, maxit, n
  read (*, *) imeth, maxit, n
  it = 0
10 continue
  it = it + 1
  if (imeth == 3) goto 20
  do i = 1, 5
  end do
20 continue
  do i = 1, 7
  end do
  if (it < maxit) goto 10
  j = 1
30 i = 1
40 if (i > 300) goto 50
  i = i + 2
  goto 40
50 j = j + 1
  do i = 1, 9
  end do
  if (j <= 200) goto 30
end program p
`, symeval.Options{})
	if d := notModelled(res); len(d) > 0 {
		t.Errorf("%v", d)
	}
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "imeth") {
		t.Errorf("skipped loop's domain %s: want it under imeth's test", dom)
	}
	if dom := loopDomain(t, res, "p/L2"); strings.Contains(dom, "imeth") && !strings.Contains(dom, "(not (imeth == 3)) or imeth == 3") {
		t.Errorf("loop after the label: domain %s, want every run (both paths)", dom)
	}
	if dom := loopDomain(t, res, "p/L3"); !strings.Contains(dom, "k <= 200") {
		t.Errorf("loop after the inner GO TO loop: domain %s, want 200 runs of the outer", dom)
	}
}

// A deck read in a loop built from GO TO that skips comment lines by going
// back to its head: each pass reads a line, the comments start the next
// pass, the settings are read from the others.
func TestGotoHeadFromBody(t *testing.T) {
	dir := inDir(t, map[string]string{"kw.in": "* a deck\nN        18\n* steps\nMAXIT    40\n"})
	res := evaluate(t, `program p
  integer :: n, maxit, i, it
  double precision :: val
  character(len=8) :: key
  character(len=80) :: line
  n = 10
  maxit = 1
  open (10, file='kw.in', status='old')
10 read (10, '(A)', end=20) line
  if (line(1:1) .eq. '*') goto 10
  read (line, '(A8, F12.0)') key, val
  if (key .eq. 'N       ') n = nint(val)
  if (key .eq. 'MAXIT   ') maxit = nint(val)
  goto 10
20 close (10)
  do it = 1, maxit
    do i = 1, n
    end do
  end do
end program p
`, symeval.Options{Dir: dir})
	if d := notModelled(res); len(d) > 0 {
		t.Errorf("%v", d)
	}
	if len(res.Params) != 0 {
		t.Errorf("parameters %v: the deck gives every value", paramNames(res))
	}
	if o := occs(res, "p/L1/L1"); len(o) == 1 && o[0].Inexact {
		t.Errorf("inner loop inexact: %s", o[0].Note)
	}
	if dom := loopDomain(t, res, "p/L1/L1"); !strings.Contains(dom, "i <= 18") || !strings.Contains(dom, "it <= 40") {
		t.Errorf("domain %s, want the deck's 18 by 40", dom)
	}
}
