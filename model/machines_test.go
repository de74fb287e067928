package model

import (
	"bytes"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// rat reads a decimal exactly, for expected values copied from the seeds.
func rat(t *testing.T, s string, scale symbolic.Rat) symbolic.Rat {
	t.Helper()
	return dec(s, scale)
}

func eqRat(a, b symbolic.Rat) bool { return a.Cmp(b) == 0 }

// TestPachecoTable11_1 checks every row of Pacheco's Table 11.1 (seed 004,
// "Estimates of t_s, t_c, and t_a on several systems (all times are in
// microseconds ...; t_c is time per double)"), as printed.
func TestPachecoTable11_1(t *testing.T) {
	rows := []struct{ name, machine, ta, ts, tc string }{
		{"t3d-pvm", "Cray T3D (PVM)", "0.011", "21", "0.30"},
		{"t3d-sm", "Cray T3D (SM", "0.011", "3", "0.063"},
		{"paragon", "Intel Paragon", "0.030", "29", "0.052"},
		{"ipsc860", "Intel iPSC/860", "0.030", "65", "2.7"},
		{"ipsc2", "Intel iPSC/2", "", "370", "2.9"},
		{"sp1", "IBM SP-1", "0.0096", "270", "1.1"},
		{"sp2", "IBM SP-2", "0.0042", "35", "0.23"},
		{"cs2-sm", "Meiko CS2 (SM", "0.010", "11", "0.20"},
		{"cs2", "Meiko CS2", "0.010", "83", "0.19"},
		{"ncube2", "nCUBE 2", "0.50", "170", "4.7"},
		{"cm5", "TMC CM-5", "", "95", "0.89"},
		{"ethernet", "Ethernet", "", "500", "8.9"},
	}
	for _, r := range rows {
		p, ok := Lookup(r.name)
		if !ok {
			t.Errorf("no embedded profile %q", r.name)
			continue
		}
		if !bytes.HasPrefix([]byte(p.Description), []byte(r.machine)) {
			t.Errorf("%s: description %q does not name %q", r.name, p.Description, r.machine)
		}
		h := p.Hockney
		if h == nil {
			t.Errorf("%s: no Hockney model", r.name)
			continue
		}
		if want := rat(t, r.ts, microsecond); !eqRat(h.Ts, want) {
			t.Errorf("%s: t_s = %v s, want %s us", r.name, h.Ts, r.ts)
		}
		// t_c per double of 8 bytes.
		if got, want := h.Tc.Mul(symbolic.RatInt(8)), rat(t, r.tc, microsecond); !eqRat(got, want) {
			t.Errorf("%s: t_c = %v s/double, want %s us", r.name, got, r.tc)
		}
		want := symbolic.Rat{}
		if r.ta != "" {
			want = rat(t, r.ta, microsecond)
		}
		if ops := p.Ops.Resolved(); !eqRat(ops.Flop, want) || !eqRat(ops.Add, want) || !eqRat(ops.Mul, want) {
			t.Errorf("%s: t_a = %v/%v/%v s, want %q us", r.name, ops.Flop, ops.Add, ops.Mul, r.ta)
		}
	}
}

// TestMKParagon checks MK's Paragon (seed 000 §5.2: "its network parameters
// are 120 μs latency and 30MB/s bandwidth").
func TestMKParagon(t *testing.T) {
	p, _ := Lookup("mk-paragon")
	if !eqRat(p.Hockney.Ts, rat(t, "120", microsecond)) || !eqRat(p.Hockney.Tc, symbolic.RatFrac(1, 30_000_000)) {
		t.Errorf("mk-paragon = %+v, want 120 us and 1/(30 MB/s)", *p.Hockney)
	}
}

// TestSCALATable2 checks SCALA's Table 2 (seed 001, "Communication Models
// (in μs)"): rho and beta per machine and pattern.
func TestSCALATable2(t *testing.T) {
	rows := []struct{ machine, pattern, rho, beta string }{
		{"t3e", "1d-short", "35.6", "2.0e-2"},
		{"t3e", "1d-long", "71.2", "12.5e-3"},
		{"t3e", "2d-short", "40.3", "2.1e-2"},
		{"t3e", "2d-long", "77.5", "14.1e-3"},
		{"qsw-cs2", "1d-short", "220.3", "5.5e-2"},
		{"qsw-cs2", "1d-long", "297.2", "3.5e-2"},
		{"qsw-cs2", "2d-short", "150.4", "6.7e-2"},
		{"qsw-cs2", "2d-long", "192.9", "4.4e-2"},
	}
	for _, r := range rows {
		p, ok := Lookup(r.machine)
		if !ok {
			t.Fatalf("no profile %s", r.machine)
		}
		h, ok := p.Pattern(r.pattern)
		if !ok {
			t.Errorf("%s: no pattern %s", r.machine, r.pattern)
			continue
		}
		if !eqRat(h.Ts, rat(t, r.rho, microsecond)) || !eqRat(h.Tc, rat(t, r.beta, microsecond)) {
			t.Errorf("%s %s: rho, beta = %v, %v s; want %s, %s us", r.machine, r.pattern, h.Ts, h.Tc, r.rho, r.beta)
		}
	}
}

// TestBrimTables checks Brim's "Fortran Parameters" and "C Parameters"
// tables (seed 002 §V.iii), L = 60 us, the 1400 B and 64 KiB boundaries.
func TestBrimTables(t *testing.T) {
	rows := []struct{ name, ga, gb, gc, os, ol string }{
		{"lam-fortran", "0.372917", "0.183877", "0.212738", "41.26", "159.84"},
		{"lam-c", "0.374008", "0.182775", "0.216644", "39.03", "163.43"},
	}
	for _, r := range rows {
		p, _ := Lookup(r.name)
		g := p.LogGP
		us := func(s string) symbolic.Rat { return rat(t, s, microsecond) }
		checks := []struct {
			what      string
			got, want symbolic.Rat
		}{
			{"L", g.L, us("60")},
			{"G_a", g.Regimes[0].G, us(r.ga)},
			{"G_b", g.Regimes[1].G, us(r.gb)},
			{"G_c", g.Rendezvous.G, us(r.gc)},
			{"o_s", g.Regimes[0].O, us(r.os)},
			{"o_s (envelope)", g.Rendezvous.OCtrl, us(r.os)},
			{"o_l", g.Regimes[1].O, us(r.ol)},
			{"o_l (data)", g.Rendezvous.OData, us(r.ol)},
			{"1400 B bound", g.Regimes[0].Below, symbolic.RatInt(1400)},
			{"eager limit", g.EagerLimit, symbolic.RatInt(65536)},
		}
		for _, c := range checks {
			if !eqRat(c.got, c.want) {
				t.Errorf("%s: %s = %v, want %v", r.name, c.what, c.got, c.want)
			}
		}
		if len(g.Regimes) != 2 {
			t.Errorf("%s: %d regimes, want 2", r.name, len(g.Regimes))
		}
	}
}

// TestPerWizLogGPS checks PerWiz's Myrinet parameters (seed 003 §5: "L =
// 9.11 μs, o = 2.15 μs, and S = 16 383 bytes", 64 PCs, 2 Gb/s).
func TestPerWizLogGPS(t *testing.T) {
	p, _ := Lookup("myrinet-score")
	g := p.LogGPS
	if !eqRat(g.L, rat(t, "9.11", microsecond)) || !eqRat(g.O, rat(t, "2.15", microsecond)) ||
		!eqRat(g.S, symbolic.RatInt(16383)) || g.P != 64 || !eqRat(g.G, symbolic.RatFrac(8, 2_000_000_000)) {
		t.Errorf("myrinet-score = %+v", *g)
	}
}

// TestDefaultProfile checks that the default is a present-day node: a work
// unit between 0.05 and 0.5 ns (membench's unit kernels take 0.05-0.12 ns
// on current cores), MPI latency 1 to 2 us, bandwidth 10 to 25 GB/s, and
// a memory hierarchy with every pattern's times.
func TestDefaultProfile(t *testing.T) {
	p := Default()
	if p.Name != DefaultName {
		t.Fatalf("Default().Name = %q", p.Name)
	}
	in := func(what string, v symbolic.Rat, lo, hi float64) {
		if f := v.Float64(); f < lo || f > hi {
			t.Errorf("%s = %g, want in [%g, %g]", what, f, lo, hi)
		}
	}
	in("flop", p.Ops.Flop, 0.05e-9, 0.5e-9)
	if !p.Memory.Patterned() {
		t.Errorf("the default profile's memory hierarchy lacks times: %+v", p.Memory)
	}
	net, err := p.Network()
	if err != nil {
		t.Fatal(err)
	}
	in("latency T(0)", symbolic.RatInt(0).Add(mustRat(t, net.Time(symbolic.Int(0)))), 1e-6, 2e-6)
	in("bandwidth", symbolic.RatInt(1).Quo(p.Hockney.Tc), 10e9, 25e9)
	in("Hockney t_s", p.Hockney.Ts, 1e-6, 2e-6)
}

func mustRat(t *testing.T, pw symbolic.Piecewise) symbolic.Rat {
	t.Helper()
	v, err := pw.Eval(nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEmbeddedRoundTrip writes every embedded profile and reads it back:
// the written file is the same again, and its network gives the same times.
func TestEmbeddedRoundTrip(t *testing.T) {
	for _, name := range Names() {
		p, _ := Lookup(name)
		var b1 bytes.Buffer
		if err := p.WriteJSON(&b1); err != nil {
			t.Fatal(err)
		}
		q, err := ReadProfile(name+".json", b1.Bytes())
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b1.String())
		}
		var b2 bytes.Buffer
		q.WriteJSON(&b2)
		if b1.String() != b2.String() {
			t.Errorf("%s: round trip differs:\n%s\n%s", name, b1.String(), b2.String())
		}
		n1, err1 := p.Network()
		n2, err2 := q.Network()
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", name, err1, err2)
		}
		for _, m := range []int64{0, 1, 1399, 1400, 8192, 16383, 16384, 65536, 65537, 1 << 20} {
			a, _ := n1.Time(symbolic.Int(m)).Eval(nil)
			b, _ := n2.Time(symbolic.Int(m)).Eval(nil)
			if !eqRat(a, b) {
				t.Errorf("%s: T(%d) = %v before, %v after the round trip", name, m, a, b)
			}
		}
	}
}

func TestLoad(t *testing.T) {
	if p, err := Load(""); err != nil || p.Name != DefaultName {
		t.Errorf("Load(\"\") = %v, %v", p, err)
	}
	if p, err := Load("ncube2"); err != nil || p.Name != "ncube2" {
		t.Errorf("Load(ncube2) = %v, %v", p, err)
	}
	if p, err := Load("testdata/lam-c.json"); err != nil || p.Name != "lam-c-file" {
		t.Errorf("Load(testdata/lam-c.json) = %v, %v", p, err)
	}
	if _, err := Load("nosuch"); err == nil || !bytes.Contains([]byte(err.Error()), []byte("ncube2")) {
		t.Errorf("Load(nosuch) error %v does not list the embedded names", err)
	}
	// Lookup returns copies.
	a, _ := Lookup("lam-c")
	a.LogGP.Regimes[0].O = symbolic.RatInt(1)
	b, _ := Lookup("lam-c")
	if eqRat(b.LogGP.Regimes[0].O, symbolic.RatInt(1)) {
		t.Error("changing a looked-up profile changed the embedded one")
	}
}
