package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

var pSym = symbolic.Sym("p")

// unit is a Hockney model with t_s = 100 and t_c = 1 per byte (abstract
// time units), so hand-computed values are integers.
var unit = Hockney{Ts: symbolic.RatInt(100), Tc: symbolic.RatInt(1)}

// TestCollectivesSmallP checks every collective at p = 1, 2, 3, 8 with m =
// 10 bytes and combine = 5 against values computed by hand: T(10) = 110,
// T(0) = 100, ceil(log2 p) = 0, 1, 2, 3 and floor(log2 p) = 0, 1, 1, 3.
func TestCollectivesSmallP(t *testing.T) {
	want := map[Collective][4]int64{
		Bcast:                      {0, 110, 220, 330},
		Reduce:                     {0, 115, 230, 345},
		Allreduce:                  {0, 225, 450, 675},
		AllreduceRecursiveDoubling: {0, 115, 340, 345}, // p=3: 1*(110+5) + 2*110 + 5
		Barrier:                    {0, 100, 200, 300},
		GatherLinear:               {0, 110, 220, 770},
		ScatterLinear:              {0, 110, 220, 770},
		GatherBinomial:             {0, 110, 220, 370}, // K*100 + (p-1)*10
		ScatterBinomial:            {0, 110, 220, 370},
		Allgather:                  {0, 110, 220, 770},
		Alltoall:                   {0, 110, 220, 770},
		Scan:                       {0, 115, 230, 805}, // (p-1)*(110+5)
	}
	ps := []int64{1, 2, 3, 8}
	for _, c := range Collectives {
		pw, err := c.Time(unit, pSym, symbolic.Int(10), symbolic.Int(5))
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		for i, p := range ps {
			w := float64(want[c][i])
			got, err := EvalFloat(pw, map[string]float64{"p": float64(p)})
			if err != nil || math.Abs(got-w) > 1e-9 {
				t.Errorf("%v symbolic at p=%d: %v, %v; want %v (%v)", c, p, got, err, w, pw)
			}
			if s := c.Seconds(unit, int(p), 10, 5); math.Abs(s-w) > 1e-9 {
				t.Errorf("%v Seconds at p=%d: %v, want %v", c, p, s, w)
			}
			// With p a constant the symbolic value is exact.
			pc, err := c.Time(unit, symbolic.Int(p), symbolic.Int(10), symbolic.Int(5))
			if err != nil {
				t.Fatal(err)
			}
			if v, err := pc.Eval(nil); err != nil || !eqRat(v, symbolic.RatInt(want[c][i])) {
				t.Errorf("%v exact at p=%d: %v, %v; want %d", c, p, v, err, want[c][i])
			}
		}
	}
}

// TestCollectiveForms checks the closed forms in p and m.
func TestCollectiveForms(t *testing.T) {
	tests := []struct {
		c    Collective
		want string
	}{
		{Bcast, "m*ceil(log2(p)) + 100*ceil(log2(p))"},
		{Reduce, "c*ceil(log2(p)) + m*ceil(log2(p)) + 100*ceil(log2(p))"},
		{Allreduce, "c*ceil(log2(p)) + 2*m*ceil(log2(p)) + 200*ceil(log2(p))"},
		{Barrier, "100*ceil(log2(p))"},
		{GatherLinear, "m*p - m + 100*p - 100"},
		{GatherBinomial, "m*p - m + 100*ceil(log2(p))"},
		{Alltoall, "m*p - m + 100*p - 100"},
	}
	for _, tt := range tests {
		pw, err := tt.c.Time(unit, pSym, mSym, symbolic.RealSym("c"))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := pw.Single()
		if !ok || got.String() != tt.want {
			t.Errorf("%v = %v, want %s", tt.c, pw, tt.want)
		}
	}
}

// TestBinomialGatherRegimes sums a size-regime model over the stages of a
// binomial gather with constant p: at p = 5 the root receives 1, 2 and 1
// blocks (stages 2^0, 2^1 and min(4, 5-4)).
func TestBinomialGatherRegimes(t *testing.T) {
	lam, _ := Lookup("lam-c")
	g := *lam.LogGP
	pw, err := GatherBinomial.Time(g, symbolic.Int(5), mSym, symbolic.Int(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int64{0, 100, 699, 700, 1399, 1400, 30000, 32768, 32769, 65536, 65537, 1 << 20} {
		got, err := pw.Eval(map[string]symbolic.Rat{"m": symbolic.RatInt(m)})
		if err != nil {
			t.Fatal(err)
		}
		want := g.Seconds(float64(m)) + g.Seconds(float64(2*m)) + g.Seconds(float64(m))
		if math.Abs(got.Float64()-want) > 1e-12*want {
			t.Errorf("m=%d: %v, want %v", m, got.Float64(), want)
		}
		if s := GatherBinomial.Seconds(g, 5, float64(m), 0); math.Abs(s-want) > 1e-12*want {
			t.Errorf("Seconds m=%d: %v, want %v", m, s, want)
		}
	}
	if _, err := GatherBinomial.Time(g, pSym, mSym, symbolic.Int(0)); err == nil {
		t.Error("binomial gather with LogGP and symbolic p: no error")
	}
}

// TestPachecoTrapezoid follows seed 004 §11.6. The tree reduce of one float
// on the nCUBE 2 costs log2(p)*(t_s + t_c + t_a) with the text's t_s = 170
// us, t_c = 2.5 us per float and t_a = 1.5 us: 174 us per stage, which
// Pacheco rounds to k_2 ≈ 175 us. With 175 us per stage and 22.3 us per
// trapezoid, T(n,p) = 22.3 n/p + 175 log2(p) gives the "Pred." columns of
// Table 11.2 to the printed digit.
func TestPachecoTrapezoid(t *testing.T) {
	us := func(s string) symbolic.Rat { return dec(s, microsecond) }
	ncube := Hockney{Ts: us("170"), Tc: us("2.5").Quo(symbolic.RatInt(4))}
	pw, err := Reduce.Time(ncube, pSym, symbolic.Int(4), symbolic.Const(us("1.5")))
	if err != nil {
		t.Fatal(err)
	}
	stage, _ := pw.Single()
	if want := symbolic.Const(us("174")).Mul(symbolic.Ceil(symbolic.Log2(pSym))); !stage.Equal(want) {
		t.Errorf("reduce = %v, want %v", stage, want)
	}

	perStage := Hockney{Ts: us("175")} // Pacheco's k_2, a zero-byte message
	pred := map[int64][4]string{
		2:  {"1.9", "2.0", "2.0", "2.0"},
		4:  {"3.6", "3.8", "3.8", "3.9"},
		8:  {"5.8", "6.8", "7.1", "7.3"},
		16: {"8.1", "10.7", "12.1", "12.8"},
		32: {"9.3", "14.4", "17.6", "19.8"},
	}
	reduce, _ := Reduce.Time(perStage, pSym, symbolic.Int(0), symbolic.Int(0))
	r, _ := reduce.Single()
	for p, row := range pred {
		for i, n := range []int64{512, 1024, 1536, 2048} {
			serial := us("22.3").Mul(symbolic.RatInt(n))
			T := symbolic.Const(serial).Div(pSym).Add(r)
			v, err := T.Eval(map[string]symbolic.Rat{"p": symbolic.RatInt(p)})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%.1f", serial.Quo(v).Float64()); got != row[i] {
				t.Errorf("S(n=%d, p=%d) = %s, Table 11.2 predicts %s", n, p, got, row[i])
			}
		}
	}
}

func TestCollectiveString(t *testing.T) {
	if Reduce.String() != "reduce" || Collective(0).String() != "Collective(0)" || Alltoall.String() != "alltoall" {
		t.Errorf("names: %v %v %v", Reduce, Collective(0), Alltoall)
	}
}
