package model

import (
	"math"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

var mSym = symbolic.Sym("m")

// pieces renders a Piecewise one piece per line, as the tests expect it.
func pieces(pw symbolic.Piecewise) string { return pw.String() }

func TestModelTimesSymbolic(t *testing.T) {
	lam, _ := Lookup("lam-c")
	perwiz, _ := Lookup("myrinet-score")
	tests := []struct {
		name string
		net  PointToPoint
		want string
	}{
		{"hockney", Hockney{Ts: symbolic.RatFrac(1, 1e6), Tc: symbolic.RatFrac(1, 1e9)}, "m/1000000000 + 1/1000000"},
		// LogP with W = 8: 2o + L + (max(ceil(m/8),1) - 1)*max(g, o), g = 3 > o = 2.
		{"logp", LogP{L: symbolic.RatInt(5), O: symbolic.RatInt(2), Gap: symbolic.RatInt(3)},
			"3*max(m - floor(7*m/8), 1) + 6"},
		// Brim: o + m*G + L + o per regime; 3L + 3o_s + 2o_l + m*G_c above 64 KiB.
		// 2*39.03 + 60 = 138.06 us; 2*163.43 + 60 = 386.86 us;
		// 180 + 117.09 + 326.86 = 623.95 us.
		{"loggp lam-c", *lam.LogGP, "" +
			"46751*m/125000000000 + 6903/50000000    if m <= 1399\n" +
			"7311*m/40000000000 + 19343/50000000    if m >= 1400 and m <= 65536\n" +
			"54161*m/250000000000 + 12479/20000000    if m >= 65537"},
		// PerWiz: 2o + L + m*G = 13.41 us up to S; 3L + 5o + m*G = 38.08 us above.
		{"loggps perwiz", *perwiz.LogGPS, "" +
			"m/250000000 + 1341/100000000    if m <= 16383\n" +
			"m/250000000 + 119/3125000    if m >= 16384"},
	}
	for _, tt := range tests {
		if got := pieces(tt.net.Time(mSym)); got != tt.want {
			t.Errorf("%s: Time(m) =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
	// Exact values of the pieces, in microseconds as Brim's parameters add up.
	us := func(s string) symbolic.Rat { return dec(s, microsecond) }
	checks := []struct {
		net  PointToPoint
		m    int64
		want symbolic.Rat
	}{
		{*lam.LogGP, 0, us("138.06")},
		{*lam.LogGP, 1399, us("138.06").Add(us("0.374008").Mul(symbolic.RatInt(1399)))},
		{*lam.LogGP, 1400, us("386.86").Add(us("0.182775").Mul(symbolic.RatInt(1400)))},
		{*lam.LogGP, 65536, us("386.86").Add(us("0.182775").Mul(symbolic.RatInt(65536)))},
		{*lam.LogGP, 65537, us("623.95").Add(us("0.216644").Mul(symbolic.RatInt(65537)))},
		{*perwiz.LogGPS, 16383, us("13.41").Add(symbolic.RatFrac(16383, 250_000_000))},
		{*perwiz.LogGPS, 16384, us("38.08").Add(symbolic.RatFrac(16384, 250_000_000))},
		{LogP{L: symbolic.RatInt(5), O: symbolic.RatInt(2), Gap: symbolic.RatInt(3)}, 0, symbolic.RatInt(9)},
		{LogP{L: symbolic.RatInt(5), O: symbolic.RatInt(2), Gap: symbolic.RatInt(3)}, 8, symbolic.RatInt(9)},
		{LogP{L: symbolic.RatInt(5), O: symbolic.RatInt(2), Gap: symbolic.RatInt(3)}, 9, symbolic.RatInt(12)},
		{LogP{L: symbolic.RatInt(5), O: symbolic.RatInt(4), Gap: symbolic.RatInt(3), W: symbolic.RatInt(4)}, 12, symbolic.RatInt(21)},
	}
	for _, c := range checks {
		got, err := c.net.Time(symbolic.Int(c.m)).Eval(nil)
		if err != nil || !eqRat(got, c.want) {
			t.Errorf("%T: T(%d) = %v, %v; want %v", c.net, c.m, got, err, c.want)
		}
		// The constant size selects its piece when the Piecewise is built.
		if _, ok := c.net.Time(symbolic.Int(c.m)).Single(); !ok {
			t.Errorf("%T: T(%d) is not a single piece", c.net, c.m)
		}
		if f := c.net.Seconds(float64(c.m)); math.Abs(f-c.want.Float64()) > 1e-12*math.Abs(c.want.Float64()) {
			t.Errorf("%T: Seconds(%d) = %g, want %g", c.net, c.m, f, c.want.Float64())
		}
	}
}

// TestRegimesThroughSize checks that a symbolic size such as 8*N keeps its
// regimes as guards on N.
func TestRegimesThroughSize(t *testing.T) {
	lam, _ := Lookup("lam-c")
	got := lam.LogGP.Time(symbolic.MustParse("8*N")).String()
	want := "" +
		"46751*N/15625000000 + 6903/50000000    if 8*N <= 1399\n" +
		"7311*N/5000000000 + 19343/50000000    if 8*N >= 1400 and 8*N <= 65536\n" +
		"54161*N/31250000000 + 12479/20000000    if 8*N >= 65537"
	if got != want {
		t.Errorf("T(8N) =\n%s\nwant\n%s", got, want)
	}
}

// TestSecondsMatchesTime compares the float and symbolic paths of every
// embedded network over sizes around every boundary.
func TestSecondsMatchesTime(t *testing.T) {
	sizes := []int64{0, 1, 7, 8, 9, 1399, 1400, 1401, 8191, 8192, 16383, 16384, 65535, 65536, 65537, 1 << 22}
	for _, name := range Names() {
		p, _ := Lookup(name)
		var nets []PointToPoint
		for _, n := range []PointToPoint{p.Hockney, p.LogGP, p.LogGPS, p.LogP} {
			switch n := n.(type) {
			case *Hockney:
				if n != nil {
					nets = append(nets, *n)
				}
			case *LogGP:
				if n != nil {
					nets = append(nets, *n)
				}
			case *LogGPS:
				if n != nil {
					nets = append(nets, *n)
				}
			}
		}
		for _, net := range nets {
			pw := net.Time(mSym)
			for _, m := range sizes {
				exact, err := pw.Eval(map[string]symbolic.Rat{"m": symbolic.RatInt(m)})
				if err != nil {
					t.Fatal(err)
				}
				fl, err := EvalFloat(pw, map[string]float64{"m": float64(m)})
				if err != nil {
					t.Fatal(err)
				}
				s := net.Seconds(float64(m))
				want := exact.Float64()
				if math.Abs(s-want) > 1e-12*want || math.Abs(fl-want) > 1e-12*want {
					t.Errorf("%s %T m=%d: exact %g, Seconds %g, EvalFloat %g", name, net, m, want, s, fl)
				}
			}
		}
	}
}

func TestLogGPSSendWait(t *testing.T) {
	g := LogGPS{L: dec("9.11", microsecond), O: dec("2.15", microsecond)}
	// REQ arrives o + L = 11.26 us after the send; the receive comes at 20 us.
	if got := g.SendWait(0, 20e-6); math.Abs(got-8.74e-6) > 1e-15 {
		t.Errorf("SendWait = %g, want 8.74e-6", got)
	}
	if got := g.SendWait(0, 5e-6); got != 0 {
		t.Errorf("SendWait with the receiver early = %g, want 0", got)
	}
	if got := g.Synchronous(mSym).String(); got != "m >= 1" {
		// S = 0: every non-empty message is synchronous.
		t.Errorf("Synchronous = %s", got)
	}
}

func TestLogGPValidate(t *testing.T) {
	bad := []struct {
		g    LogGP
		want string
	}{
		{LogGP{}, "no size regime"},
		{LogGP{Regimes: []Regime{{Below: symbolic.RatInt(10)}, {Below: symbolic.RatInt(5)}, {}}}, "regime 1: bound 5 B is not above the previous bound 10 B"},
		{LogGP{Regimes: []Regime{{Below: symbolic.RatInt(10)}}}, "regime 0: the last regime has no upper bound (it extends to the eager limit)"},
		{LogGP{Regimes: []Regime{{Below: symbolic.RatInt(10)}, {}}, EagerLimit: symbolic.RatInt(4)}, "eager limit 4 B is below the last regime bound 10 B"},
	}
	for _, b := range bad {
		if err := b.g.Validate(); err == nil || err.Error() != b.want {
			t.Errorf("Validate(%+v) = %v, want %q", b.g, err, b.want)
		}
	}
}

// TestRegimeOf names the size regimes of Brim's LAM/MPI fit (seed 002
// §V.iii: below one Ethernet packet of 1400 B, up to 64 KiB, rendezvous
// above) and of LogGPS's synchronous threshold (seed 003 §2), at the
// bounds on either side.
func TestRegimeOf(t *testing.T) {
	lam, ok := Lookup("lam-fortran")
	if !ok || lam.LogGP == nil {
		t.Fatal("no lam-fortran LogGP profile")
	}
	gps := LogGPS{S: symbolic.RatInt(16384)}
	for _, c := range []struct {
		net  PointToPoint
		m    float64
		want string
	}{
		{*lam.LogGP, 0, "eager < 1400 B"},
		{*lam.LogGP, 1399, "eager < 1400 B"},
		{*lam.LogGP, 1400, "eager 1400 B–64 KiB"},
		{*lam.LogGP, 65536, "eager 1400 B–64 KiB"},
		{*lam.LogGP, 65537, "rendezvous > 64 KiB"},
		{gps, 16384, "asynchronous ≤ 16 KiB"},
		{gps, 16385, "synchronous > 16 KiB"},
		{Hockney{}, 1e9, ""},
	} {
		if got := RegimeOf(c.net, c.m); got != c.want {
			t.Errorf("%T at %g B: %q, want %q", c.net, c.m, got, c.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[float64]string{
		0: "0 B", 1400: "1400 B", 8192: "8 KiB", 65536: "64 KiB", 12390: "12.1 KiB",
		1048656: "1.0 MiB", 32 << 20: "32 MiB", 54315622: "51.8 MiB", 268582912: "256.1 MiB", math.Inf(1): "unbounded",
	} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%g) = %q, want %q", b, got, want)
		}
	}
}
