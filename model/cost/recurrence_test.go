package cost

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/symbolic"
)

// TestRecurrence checks the per-iteration bound of loop bodies against
// chains counted by hand from the default weights (add, multiply 1,
// division 4, intrinsic 8; latencyFactor 4).
func TestRecurrence(t *testing.T) {
	cases := []struct {
		name string
		body string
		want int64 // 0: no recurrence
	}{
		// x -> t1 (mul) -> x1 (int) -> x2 (mul, sub) -> x (mul, add):
		// 1+8+2+2 = 13 units, 52 per iteration.
		{"generator", `t1 = r * x
x1 = int(t1)
x2 = x - c * x1
x = r * x2 + d * x1
y(i) = x`, 52},
		// s = s + a(i)*b(i): one add on the chain.
		{"sum", `s = s + a(i) * b(i)`, 4},
		// Integer counters wait one cycle: no bound.
		{"counter", `k = k + 1
y(k) = a(i)`, 0},
		// Nothing carried: every value is computed afresh.
		{"independent", `t1 = a(i) * c
y(i) = t1 / d`, 0},
		// u and v feed each other through a copy: the cycle u -> v -> u
		// spans two iterations with two multiplies, one per iteration.
		{"swap", `t1 = u
u = v * c
v = t1 * d`, 4},
		// A division on the chain: 4 + 1.
		{"division", `x = c / x + d`, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "      subroutine s(a, b, y, n)\n      integer n, i, k\n      double precision a(n), b(n), y(n)\n" +
				"      double precision x, x1, x2, t1, r, c, d, s, u, v\n      do i = 1, n\n"
			for _, l := range strings.Split(c.body, "\n") {
				src += "        " + l + "\n"
			}
			src += "      enddo\n      end\n"
			prog, diags := fortran.ParseSource("t.f", []byte(src), fortran.Config{})
			for _, d := range diags {
				if d.Severity == apt.Error {
					t.Fatalf("%s\n%s", d, src)
				}
			}
			bodies := loopBodies(prog)
			if len(bodies) != 1 {
				t.Fatalf("%d loop bodies, want 1", len(bodies))
			}
			for b := range bodies {
				got, ok := DefaultWeights().recurrence(b.Stmts)
				if c.want == 0 {
					if ok {
						t.Errorf("recurrence %s, want none", got)
					}
					return
				}
				if !ok || !got.Equal(symbolic.RatInt(c.want)) {
					t.Errorf("recurrence %s (%v), want %d", got, ok, c.want)
				}
			}
		})
	}
}
