package symeval

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/symbolic"
)

// registerSrc shifts the lengths of the last m diagonals along a register
// (lens) each step of the loop over the diagonals; their sum bounds the
// loop over the lines of the diagonal, whose body tests data. A second
// loop stores its register's new element under a test of data.
const registerSrc = `      subroutine diag(nj, nk, m, x, s, nfix)
      implicit none
      integer nj, nk, m, d, l, mi, i, cnt, nfix
      integer lens(6), lens2(6)
      double precision x(64), s
      do d = 1, nj + nk + m - 2
         cnt = 0
         do mi = m, 2, -1
            lens(mi) = lens(mi-1)
            cnt = cnt + lens(mi)
         end do
         lens(1) = max(min(d, nj, nk, nj + nk - d), 0)
         cnt = cnt + lens(1)
         do l = 1, cnt
            do i = 1, l
               s = s + x(i)
            end do
            if (x(l) .lt. 0.0d0) nfix = nfix + 1
         end do
      end do
      do d = 1, nj
         do mi = m, 2, -1
            lens2(mi) = lens2(mi-1)
         end do
         if (x(d) .gt. 0.0d0) lens2(1) = d
         do l = 1, lens2(m)
            s = s + x(l)
         end do
      end do
      end
`

// The carried slice of the loop over the diagonals runs the shift and the
// new element of the register, and neither the sum (set anew on each
// trip) nor the loop over the lines; the register whose new element rests
// on a test of data has none.
func TestCarrySliceOfRegister(t *testing.T) {
	prog, diags := fortran.ParseSource("diag.f", []byte(registerSrc), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	r := prog.Routine("diag")
	var loops []*apt.Loop
	for _, n := range r.Body {
		if l, ok := n.(*apt.Loop); ok {
			loops = append(loops, l)
		}
	}
	if len(loops) != 2 {
		t.Fatalf("%d loops at the top of diag, want 2", len(loops))
	}
	ev := &evaluator{prog: prog, frames: []*frame{{routine: r, id: "f0"}}, summary: map[*apt.Routine]*summary{}}
	sl := ev.carrySliceOf(loops[0])
	if sl == nil {
		t.Fatal("no carried slice for the loop over the diagonals")
	}
	if want := []string{ev.key("lens")}; !slices.Equal(sl.carried, want) {
		t.Errorf("carried %v, want %v", sl.carried, want)
	}
	var kept, skipped []string
	for _, n := range loops[0].Body {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if sl.skip[s] {
						skipped = append(skipped, apt.FormatExpr(s.Target))
					} else {
						kept = append(kept, apt.FormatExpr(s.Target))
					}
				}
			case *apt.Loop:
				if sl.skip[x] {
					skipped = append(skipped, "do "+x.Var)
					return false
				}
			}
			return true
		})
	}
	if want := []string{"lens(mi)", "lens(1)"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if want := []string{"cnt", "cnt", "cnt", "do l"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	// A second activation sharing storage alike takes the memo.
	if again := ev.carrySliceOf(loops[0]); again == nil || !slices.Equal(again.carried, sl.carried) || len(again.skip) != len(sl.skip) {
		t.Errorf("memoized slice %+v, want %+v", again, sl)
	}
	if sl := ev.carrySliceOf(loops[1]); sl != nil {
		t.Errorf("a register filled under a test of data has a slice: %v", sl.carried)
	}
}

// affinePieces writes a sequence as its maximal runs of an affine form.
func TestAffinePieces(t *testing.T) {
	k := symbolic.Sym("k")
	cases := []struct {
		ns   []int64
		want []string // each piece as "E if guard"
	}{
		{[]int64{7}, []string{"7"}},
		{[]int64{0, 1, 2, 3}, []string{"k"}},
		{[]int64{0, 1, 2, 2, 2, 1, 0}, []string{"k if k >= 0 and k <= 2", "2 if k >= 3 and k <= 4", "6 - k if k >= 5 and k <= 6"}},
		{[]int64{1, 3, 5, 50, 49}, []string{"2*k + 1 if k >= 0 and k <= 2", "53 - k if k >= 3 and k <= 4"}},
	}
	for _, c := range cases {
		alts, ok := affinePieces(c.ns, k)
		if !ok {
			t.Errorf("%v: no pieces", c.ns)
			continue
		}
		var got []string
		for _, a := range alts {
			s := a.E.String()
			if a.Guard != nil {
				s += " if " + fmt.Sprint(a.Guard)
			}
			got = append(got, s)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v: pieces %q, want %q", c.ns, got, c.want)
		}
		// Every piece gives the sequence's value where its guard holds.
		for i, n := range c.ns {
			env := map[string]symbolic.Rat{"k": symbolic.RatInt(int64(i))}
			hits := 0
			for _, a := range alts {
				if a.Guard != nil {
					g, err := counting.CompileFormula(a.Guard, []string{"k"})
					if err != nil {
						t.Fatal(err)
					}
					if h, err := g.Holds([]int64{int64(i)}); err != nil || !h {
						continue
					}
				}
				hits++
				if v, err := a.E.Eval(env); err != nil || !v.Equal(symbolic.RatInt(n)) {
					t.Errorf("%v at k=%d: %s = %v, want %d", c.ns, i, a.E, v, n)
				}
			}
			if hits != 1 {
				t.Errorf("%v at k=%d: %d pieces hold, want 1", c.ns, i, hits)
			}
		}
	}
	// A sequence with more runs than alternatives allow has none.
	var zigzag []int64
	for i := range 2*maxPieceAlts + 4 {
		zigzag = append(zigzag, int64(i%2)*int64(i))
	}
	if _, ok := affinePieces(zigzag, k); ok {
		t.Errorf("%v: pieces beyond maxPieceAlts", zigzag)
	}
}
