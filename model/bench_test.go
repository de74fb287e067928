package model

import (
	"fmt"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// sweepP returns p = 2^0 .. 2^maxExp.
func sweepP(maxExp int) []int {
	ps := make([]int, maxExp+1)
	for i := range ps {
		ps[i] = 1 << i
	}
	return ps
}

// BenchmarkCollectiveSeconds evaluates an allreduce of 8 KiB over a sweep of
// p = 2^0..2^20, on the fast float path, per model.
func BenchmarkCollectiveSeconds(b *testing.B) {
	lam, _ := Lookup("lam-c")
	paragon, _ := Lookup("mk-paragon")
	nets := []struct {
		name string
		net  PointToPoint
	}{{"hockney", *paragon.Hockney}, {"loggp", *lam.LogGP}}
	ps := sweepP(20)
	for _, n := range nets {
		b.Run(n.name, func(b *testing.B) {
			var sink float64
			for b.Loop() {
				for _, p := range ps {
					sink += Allreduce.Seconds(n.net, p, 8192, 1e-6)
				}
			}
			_ = sink
		})
	}
}

// BenchmarkCollectiveCompiled evaluates the symbolic allreduce, compiled
// once, over the same sweep: the path for closed forms.
func BenchmarkCollectiveCompiled(b *testing.B) {
	lam, _ := Lookup("lam-c")
	for _, size := range []int{1 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("m=%d", size), func(b *testing.B) {
			pw, err := Allreduce.Time(*lam.LogGP, symbolic.Sym("p"), symbolic.Int(int64(size)), symbolic.Int(0))
			if err != nil {
				b.Fatal(err)
			}
			e, _ := pw.Single()
			f, err := e.Compile([]string{"p"})
			if err != nil {
				b.Fatal(err)
			}
			ps := sweepP(20)
			x := make([]float64, 1)
			var sink float64
			for b.Loop() {
				for _, p := range ps {
					x[0] = float64(p)
					sink += f.EvalFloat(x)
				}
			}
			_ = sink
		})
	}
}
