package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// synthetic returns ping-pong and send-only times of net at sizes 0, 1, 2,
// 4, ... 2^maxExp, with send-only time o + m*G per message.
func synthetic(net PointToPoint, send func(m float64) float64, maxExp int) []Sample {
	s := []Sample{{Bytes: 0, PingPong: net.Seconds(0), Send: send(0)}}
	for e := 0; e <= maxExp; e++ {
		m := float64(int64(1) << e)
		s = append(s, Sample{Bytes: m, PingPong: net.Seconds(m), Send: send(m)})
	}
	return s
}

func TestFitHockneyExact(t *testing.T) {
	p, _ := Lookup("mk-paragon")
	h := *p.Hockney
	samples := synthetic(h, h.Seconds, 20)
	got, fit, err := FitHockney(samples)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Ts.Float64()-120e-6) > 1e-12 || math.Abs(got.Tc.Float64()*30e6-1) > 1e-5 {
		t.Errorf("fit t_s = %v, t_c = %v; want 120 us, 1/(30 MB/s)", got.Ts.Float64(), got.Tc.Float64())
	}
	if fit.R2 < 1-1e-9 {
		t.Errorf("R^2 = %v on exact data", fit.R2)
	}
	if _, _, err := FitHockney(samples[:1]); err == nil {
		t.Error("fit of one size: no error")
	}
}

// TestFitLogGPRegimes fits Brim's LAM/MPI model, sampled at powers of two:
// the regimes must split where Brim's do (1400 B falls between 1024 and
// 2048; 64 KiB between 65536 and 131072), and each regime's G must be
// Brim's.
func TestFitLogGPRegimes(t *testing.T) {
	lam, _ := Lookup("lam-c")
	g := *lam.LogGP
	os, ol := g.Regimes[0].O.Float64(), g.Regimes[1].O.Float64()
	send := func(m float64) float64 {
		switch {
		case m < 1400:
			return os + m*g.Regimes[0].G.Float64()
		case m <= 65536:
			return ol + m*g.Regimes[1].G.Float64()
		}
		return g.Seconds(m) - g.L.Float64()
	}
	fitted, fits, err := FitLogGP(synthetic(g, send, 22), 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(fitted.Regimes) != 3 {
		t.Fatalf("%d regimes, want 3: %+v", len(fitted.Regimes), fitted.Regimes)
	}
	if b0, b1 := fitted.Regimes[0].Below.Float64(), fitted.Regimes[1].Below.Float64(); b0 != 2048 || b1 != 131072 {
		t.Errorf("regime bounds %v, %v; want 2048, 131072 (first sizes past Brim's 1400 B and 64 KiB)", b0, b1)
	}
	for i, want := range []float64{g.Regimes[0].G.Float64(), g.Regimes[1].G.Float64(), g.Rendezvous.G.Float64()} {
		if got := fitted.Regimes[i].G.Float64(); math.Abs(got-want) > 1e-6*want {
			t.Errorf("regime %d: G = %g, want %g", i, got, want)
		}
		if fits[i].PingPong.R2 < 1-1e-9 {
			t.Errorf("regime %d: R^2 = %v on exact data", i, fits[i].PingPong.R2)
		}
	}
	// Regime 0: o = o_s, L = 60 us.
	if got := fitted.L.Float64(); math.Abs(got-60e-6) > 1e-10 {
		t.Errorf("L = %g, want 60 us", got)
	}
	if got := fitted.Regimes[0].O.Float64(); math.Abs(got-os) > 1e-10 {
		t.Errorf("o_s = %g, want %g", got, os)
	}
	if got := fitted.Regimes[1].O.Float64(); math.Abs(got-ol) > 1e-10 {
		t.Errorf("o_l = %g, want %g", got, ol)
	}
	if err := fitted.Validate(); err != nil {
		t.Error(err)
	}
}

// TestFitLogGPOneRegime checks that linear data is not split.
func TestFitLogGPOneRegime(t *testing.T) {
	h := Hockney{Ts: ratOf(2e-6), Tc: ratOf(1e-10)}
	fitted, _, err := FitLogGP(synthetic(h, func(m float64) float64 { return 0.5e-6 + m*1e-10 }, 20), 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(fitted.Regimes) != 1 {
		t.Errorf("%d regimes on linear data, want 1: %+v", len(fitted.Regimes), fitted.Regimes)
	}
}

func TestParseNetbench(t *testing.T) {
	out := "pingpong 0 1.5e-06\nsend 0 5e-07\n\npingpong 1024 2.5e-06\nsend 1024 9e-07\n"
	s, err := ParseNetbench("run", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(s); got != "[{0 1.5e-06 5e-07} {1024 2.5e-06 9e-07}]" {
		t.Errorf("samples = %s", got)
	}
	bad := []struct{ in, want string }{
		{"hello\n", `run:1: want "pingpong|send SIZE SECONDS", found "hello"`},
		{"pingpong 0 x\n", `run:1: bad size or time in "pingpong 0 x"`},
		{"pingpong 0 1e-6\n", "run: size 0 has only one of its two measurements"},
		{"", "run: no measurements"},
	}
	for _, b := range bad {
		if _, err := ParseNetbench("run", strings.NewReader(b.in)); err == nil || err.Error() != b.want {
			t.Errorf("%q: error %v, want %q", b.in, err, b.want)
		}
	}
}
