package model

import (
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// badInputs are broken profiles with the exact error each must produce.
var badInputs = []struct {
	src, want string
}{
	{``, "bad.json:1:1: invalid JSON: unexpected end of file"},
	{`[]`, "bad.json:1:1: want an object, found an array"},
	{`{"name": "x",}`, "bad.json:1:14: invalid JSON: invalid character '}' looking for beginning of object key string"},
	{`{"name": "x"} {}`, "bad.json:1:15: invalid JSON: data after the profile object"},
	{"{\n  \"nmae\": \"x\"\n}", `bad.json:2:3: nmae: unknown field (want one of name, description, source, model, ops, hockney, logp, loggp, loggps, patterns, memory)`},
	{`{"name": "a", "name": "b"}`, "bad.json:1:15: name: duplicate field"},
	{`{"name": 3}`, "bad.json:1:10: name: want a string, found a number"},
	{"{\n \"hockney\": {\"t_s\": \"120\", \"t_c\": \"30MB/s\"}\n}", `bad.json:2:21: hockney.t_s: "120" has no unit`},
	{`{"hockney": {"t_s": 120, "t_c": "30MB/s"}}`, `bad.json:1:21: hockney.t_s: want a string with a unit (a time such as "2.15us"), found a number`},
	{`{"hockney": {"t_s": "120us", "t_c": "30 MB"}}`, `bad.json:1:37: hockney.t_c: "30 MB" is not a time per byte such as "0.5ns/B" or a bandwidth such as "30MB/s"`},
	{`{"hockney": {"t_s": "120us"}}`, "bad.json:1:13: hockney: want both t_s and t_c"},
	{`{"ops": {"flop": "0.5ns", "fma": "1ns"}}`, "bad.json:1:27: ops.fma: unknown field (want one of flop, add, mul, div, intrinsic, load, store, vector, scalar, chain, complex)"},
	{`{"ops": {"flop": "-0.5ns"}}`, `bad.json:1:18: ops.flop: "-0.5ns" is negative`},
	{"{\"loggp\": {\"L\": \"60us\",\n  \"regimes\": [\n    {\"below\": \"1400B\", \"o\": \"39.03us\", \"G\": \"0.374008usec/B\"}, {}]}}",
		`bad.json:3:45: loggp.regimes[0].G: unknown unit "usec/B" in "0.374008usec/B"`},
	{`{"a" 1}`, "bad.json:1:6: invalid JSON: invalid character '1' after object key"},
	{`{"name": tru}`, "bad.json:1:13: invalid JSON: invalid character '}' in literal true (expecting 'e')"},
	{"{\n\"name\": \"a\\q\"}", "bad.json:2:12: invalid JSON: invalid character 'q' in string escape code"},
	{`{"n": [1 2]}`, "bad.json:1:10: invalid JSON: invalid character '2' after array element"},
	{`{"loggp": {"L": "60us"}}`, "bad.json:1:11: loggp: want regimes: at least one size regime"},
	{`{"loggp": {"L": "60us", "regimes": {}}}`, "bad.json:1:36: loggp.regimes: want an array of regimes, found an object"},
	{`{"loggp": {"L": "60us", "regimes": [{"below": "1400B", "o": "1us", "G": "1ns/B"}]}}`,
		"bad.json:1:36: loggp.regimes: regime 0: the last regime has no upper bound (it extends to the eager limit)"},
	{`{"loggp": {"L": "60us", "regimes": [{"below": 0, "o": "1us", "G": "1ns/B"}, {}]}}`, "bad.json:1:47: loggp.regimes[0].below: a regime bound of 0 bytes is empty"},
	{`{"loggp": {"L": "60us", "regimes": [{"below": 1.5, "o": "1us", "G": "1ns/B"}, {}]}}`, "bad.json:1:47: loggp.regimes[0].below: want a non-negative whole number of bytes, found 1.5"},
	{`{"loggps": {"L": "9.11us", "o": "2.15us"}}`, "bad.json:1:12: loggps: want S, the synchronous threshold in bytes"},
	{`{"logp": {"L": "1us", "o": "1us", "g": "1us", "P": -4}}`, "bad.json:1:52: logp.P: want a non-negative whole number, found a number -4"},
	{`{"model": "logp", "hockney": {"t_s": "1us", "t_c": "1ns/B"}}`, `bad.json:1:11: model: model "logp" is selected but not given`},
	{`{"model": "bsp"}`, `bad.json:1:11: model: unknown model "bsp" (want hockney, logp, loggp or loggps)`},
	{`{"patterns": {"1d": {"rho": "1us"}}}`, "bad.json:1:21: patterns.1d: want both rho and beta"},
	{`{"patterns": []}`, "bad.json:1:14: patterns: want an object of patterns, found an array"},
	{`{"name": "x"`, "bad.json:1:13: invalid JSON: unexpected end of file"},
	{`{"loggps": {"L": "1us", "o": "1us", "S": "12b"}}`, `bad.json:1:42: loggps.S: "12b" is not a whole number of bytes`},
	{`{"ops": {"flop": "1e999999999s"}}`, `bad.json:1:18: ops.flop: bad number "1e999999999" (exponents go to ±300)`},
	{strings.Repeat("[", 100), "bad.json:1:66: invalid JSON: nested more than 64 levels"},
}

func TestReadProfileErrors(t *testing.T) {
	for _, in := range badInputs {
		p, err := ReadProfile("bad.json", []byte(in.src))
		if err == nil {
			t.Errorf("%q: no error, profile %+v", in.src, p)
			continue
		}
		if err.Error() != in.want {
			t.Errorf("%q:\n got %s\nwant %s", in.src, err, in.want)
		}
		var pe *ProfileError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %T is not a *ProfileError", in.src, err)
		}
	}
}

func TestReadProfileFile(t *testing.T) {
	data, err := os.ReadFile("testdata/lam-c.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadProfile("testdata/lam-c.json", data)
	if err != nil {
		t.Fatal(err)
	}
	lam, _ := Lookup("lam-c")
	got, want := p.LogGP, lam.LogGP
	for i := range want.Regimes {
		if !eqRat(got.Regimes[i].O, want.Regimes[i].O) || !eqRat(got.Regimes[i].G, want.Regimes[i].G) || !eqRat(got.Regimes[i].Below, want.Regimes[i].Below) {
			t.Errorf("regime %d = %+v, want %+v", i, got.Regimes[i], want.Regimes[i])
		}
	}
	if !eqRat(got.L, want.L) || !eqRat(got.EagerLimit, want.EagerLimit) || got.Rendezvous.G.Cmp(want.Rendezvous.G) != 0 {
		t.Errorf("loggp = %+v, want %+v", got, want)
	}
	if !eqRat(p.Ops.Resolved().Div, dec("3.22", microsecond)) {
		t.Errorf("div defaults to flop: %v", p.Ops.Resolved().Div)
	}
	// A profile without a name takes the file's.
	q, err := ReadProfile("dir/my-machine.json", []byte(`{"hockney": {"t_s": "1us", "t_c": "1ns/B"}}`))
	if err != nil || q.Name != "my-machine" {
		t.Errorf("unnamed profile: %v, %v", q, err)
	}
}

// FuzzReadProfile checks that no input makes ReadProfile panic and that
// every error names the file with a line and column.
func FuzzReadProfile(f *testing.F) {
	for _, in := range badInputs {
		f.Add([]byte(in.src))
	}
	for _, name := range Names() {
		p, _ := Lookup(name)
		var b strings.Builder
		p.WriteJSON(&b)
		f.Add([]byte(b.String()))
	}
	if data, err := os.ReadFile("testdata/lam-c.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"memory": {"cpus": 2, "touch": "0.29ns/B", "touch_all": "0.3ns/B", "levels": [{"name": "memory", "stream": "0.02ns/B", "stream_all": "0.03ns/B"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadProfile("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			var pe *ProfileError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		// A profile that reads also writes, reads back and evaluates.
		var b strings.Builder
		if err := p.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadProfile("fuzz.json", []byte(b.String())); err != nil {
			t.Fatalf("written profile does not read back: %v\n%s", err, b.String())
		}
		if net, err := p.Network(); err == nil {
			net.Time(mSym)
			net.Seconds(1000)
		}
		if m := p.Memory; m != nil {
			exerciseMemory(t, m)
		}
	})
}

// TestProfileMoveRoundTrip: a profile's block-move figures (membench's
// move kernel) are written and read back as they were.
func TestProfileMoveRoundTrip(t *testing.T) {
	p := Default()
	mem := *p.Memory
	mem.Levels = slices.Clone(mem.Levels)
	mem.Levels[0].MoveOne, mem.Levels[0].MoveAll = 4e-12, 4.5e-12
	p.Memory = &mem
	var b strings.Builder
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"move"`) {
		t.Fatalf("no move figure written:\n%s", b.String())
	}
	q, err := ReadProfile("m.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if l := q.Memory.Levels[0]; math.Abs(l.MoveOne/4e-12-1) > 1e-9 || math.Abs(l.MoveAll/4.5e-12-1) > 1e-9 || q.Memory.Levels[1].MoveOne != 0 {
		t.Errorf("read back %+v", q.Memory.Levels[:2])
	}
}

// TestProfileLoopKindsRoundTrip: a profile's work units by loop kind
// (membench's unit kernels) are written and read back exactly, and a
// negative one is refused with its position.
func TestProfileLoopKindsRoundTrip(t *testing.T) {
	p := Default()
	p.Ops.Vector, p.Ops.Scalar = symbolic.RatFrac(46, 1e12), symbolic.RatFrac(53, 1e12)
	p.Ops.Chain, p.Ops.Complex = symbolic.RatFrac(117, 1e12), symbolic.RatFrac(113, 1e12)
	var b strings.Builder
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	q, err := ReadProfile("k.json", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if q.Ops != p.Ops {
		t.Errorf("read back %+v, want %+v", q.Ops, p.Ops)
	}
	_, err = ReadProfile("k.json", []byte(`{"ops": {"add": "0.1ns", "chain": "-1ns"}}`))
	if err == nil || !strings.HasPrefix(err.Error(), "k.json:1:") {
		t.Errorf("negative chain unit: %v", err)
	}
}

// TestProfileTouchRoundTrip: a profile's first-touch figures (membench's
// touch kernel) are written and read back, Touch picks the one for the
// processes on the node, and a negative one is refused with its position.
func TestProfileTouchRoundTrip(t *testing.T) {
	p := Default()
	mem := *p.Memory
	mem.TouchOne, mem.TouchAll = 2.9e-10, 3.2e-10
	p.Memory = &mem
	var b strings.Builder
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	q, err := ReadProfile("t.json", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	m := q.Memory
	if math.Abs(m.TouchOne/2.9e-10-1) > 1e-9 || math.Abs(m.TouchAll/3.2e-10-1) > 1e-9 {
		t.Errorf("read back touch %g / %g", m.TouchOne, m.TouchAll)
	}
	if m.Touch(1) != m.TouchOne || (m.CPUs > 1 && m.Touch(m.CPUs) != m.TouchAll) {
		t.Errorf("Touch(1) = %g, Touch(%d) = %g", m.Touch(1), m.CPUs, m.Touch(m.CPUs))
	}
	if Default().Memory.Touch(4) != 0 {
		t.Errorf("the embedded profile prices a first touch it never measured")
	}
	bad := strings.Replace(b.String(), `"touch": "`, `"touch": "-`, 1)
	if _, err := ReadProfile("t.json", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "t.json:") {
		t.Errorf("negative first touch: %v", err)
	}
}
