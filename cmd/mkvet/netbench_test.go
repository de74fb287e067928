package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"mpirun -np 2", []string{"mpirun", "-np", "2"}},
		{"  srun   -n 2\t-N 2 ", []string{"srun", "-n", "2", "-N", "2"}},
		{`mpirun --host 'a b' -x "X=\"q\"" c\ d`, []string{"mpirun", "--host", "a b", "-x", `X="q"`, "c d"}},
		{`a''b ""`, []string{"ab", ""}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := splitWords(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"a 'b", `a "b`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q): no error", bad)
		}
	}
	if got := substituteExe([]string{"srun", "-n", "2", "{exe}", "-v"}, "/x/nb"); !reflect.DeepEqual(got, []string{"srun", "-n", "2", "/x/nb", "-v"}) {
		t.Errorf("substituteExe = %q", got)
	}
	if got := substituteExe([]string{"mpirun", "-np", "2"}, "/x/nb"); !reflect.DeepEqual(got, []string{"mpirun", "-np", "2", "/x/nb"}) {
		t.Errorf("substituteExe = %q", got)
	}
}

func TestParseSizes(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"0..16", "[0 1 2 4 8 16]"},
		{"0..4MiB", "[0 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304]"},
		{"1KiB..4KiB, 100, 3000B", "[100 1024 2048 3000 4096]"},
		{"3..24", "[3 6 12 24]"},
	}
	for _, tt := range tests {
		got, err := parseSizes(tt.in)
		if err != nil || fmt.Sprint(got) != tt.want {
			t.Errorf("parseSizes(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	bad := []struct{ in, want string }{
		{"8..2", `range "8..2" ends below its start`},
		{"1,2", `"1,2" gives 2 sizes; fitting needs at least 3`},
		{"0..2GiB", `size "2GiB" is not a whole number of bytes in 0..1GiB`},
		{"0..4us", `"4us" is not a size such as "64KiB"`},
		{"1.5B,2,3", `size "1.5B" is not a whole number of bytes in 0..1GiB`},
	}
	for _, b := range bad {
		if _, err := parseSizes(b.in); err == nil || err.Error() != b.want {
			t.Errorf("parseSizes(%q): %v, want %q", b.in, err, b.want)
		}
	}
}

func TestNetbenchUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "mkvet netbench: -launcher is required"},
		{[]string{"-launcher", "mpirun 'x"}, `mkvet netbench: -launcher "mpirun 'x": unterminated single quote`},
		{[]string{"-launcher", "mpirun", "-sizes", "1,2"}, "mkvet netbench: -sizes: "},
		{[]string{"-launcher", "mpirun", "-reps", "0"}, "mkvet netbench: -reps, -trials and -regimes must be positive"},
		{[]string{"-launcher", "mpirun", "-compiler", "mpif90"}, `mkvet netbench: -compiler "mpif90" looks like a Fortran wrapper`},
		{[]string{"-launcher", "mpirun", "extra"}, `mkvet netbench: unexpected arguments ["extra"]`},
		{[]string{"-launcher", "mpirun", "-compiler", "/nonexistent/mpicc"}, "mkvet netbench: building the benchmark: /nonexistent/mpicc -O2 -o"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if st := run(append([]string{"netbench"}, tt.args...), &out, &errb); st != 2 {
			t.Errorf("%q: status %d, want 2", tt.args, st)
		}
		if !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%q: stderr %q does not contain %q", tt.args, errb.String(), tt.want)
		}
	}
}

// TestNetbenchFakeToolchain runs the whole command with a stand-in
// compiler, which writes a script printing the times of a known LogGP
// model, and `env` as the launcher: the profile must carry that model.
func TestNetbenchFakeToolchain(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell")
	}
	dir := t.TempDir()
	// Times of t = 2us + m * 1ns/B below 4 KiB, 10us + m * 0.5ns/B above.
	var table strings.Builder
	for _, m := range []int64{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536} {
		pp, so := 2e-6+float64(m)*1e-9, 0.5e-6+float64(m)*1e-9
		if m >= 4096 {
			pp, so = 10e-6+float64(m)*0.5e-9, 4.5e-6+float64(m)*0.5e-9
		}
		fmt.Fprintf(&table, "pingpong %d %.9e\nsend %d %.9e\n", m, pp, m, so)
	}
	cc := filepath.Join(dir, "fakecc")
	script := "#!/bin/sh\n# fakecc -O2 -o EXE SRC: write EXE, a script printing known times.\n" +
		"[ \"$2\" = -o ] || exit 3\ngrep -q MPI_Init \"$4\" || exit 4\n" +
		"printf '#!/bin/sh\\ncat <<EOF\\n" + strings.ReplaceAll(table.String(), "\n", "\\n") + "EOF\\n' > \"$3\"\nchmod +x \"$3\"\n"
	if err := os.WriteFile(cc, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "p.json")
	var stdout, stderr bytes.Buffer
	st := run([]string{"netbench", "-launcher", "env {exe}", "-compiler", cc, "-sizes", "0..64KiB", "-o", out}, &stdout, &stderr)
	if st != 0 {
		t.Fatalf("status %d\n%s\n%s", st, stdout.String(), stderr.String())
	}
	p, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	g := p.LogGP
	if len(g.Regimes) != 2 || g.Regimes[0].Below.Float64() != 4096 {
		t.Fatalf("regimes %+v, want a split at 4 KiB\n%s", g.Regimes, stdout.String())
	}
	near := func(what string, got, want float64) {
		if d := got - want; d > 1e-6*want || d < -1e-6*want {
			t.Errorf("%s = %g, want %g", what, got, want)
		}
	}
	near("L", g.L.Float64(), 1e-6) // 2us - 2*0.5us
	near("o", g.Regimes[0].O.Float64(), 0.5e-6)
	near("G", g.Regimes[0].G.Float64(), 1e-9)
	near("o above 4 KiB", g.Regimes[1].O.Float64(), 4.5e-6) // (10us - 1us)/2
	near("G above 4 KiB", g.Regimes[1].G.Float64(), 0.5e-9)
	for _, want := range []string{"R^2 = ", "regime 1: 0B..2KiB", "regime 2: 4KiB..64KiB", "wrote " + out} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestNetbenchMPI runs the benchmark on the real MPI (Open MPI in CI) with a
// short sweep.
func TestNetbenchMPI(t *testing.T) {
	e2e.Require(t, "mpicc", "mpirun")
	e2e.SetMPIEnv(t)
	out := filepath.Join(t.TempDir(), "measured.json")
	var stdout, stderr bytes.Buffer
	st := run([]string{"netbench", "-launcher", "mpirun --oversubscribe -np 2", "-sizes", "0..256KiB",
		"-reps", "20", "-trials", "2", "-o", out}, &stdout, &stderr)
	if st != 0 {
		t.Fatalf("status %d\n%s\n%s", st, stdout.String(), stderr.String())
	}
	t.Log(stdout.String())
	if !strings.Contains(stdout.String(), "R^2 = ") {
		t.Errorf("report lacks R^2:\n%s", stdout.String())
	}
	p, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	ts, tc := p.Hockney.Ts.Float64(), p.Hockney.Tc.Float64()
	// Sane magnitudes for any MPI between two processes: a latency between
	// 10 ns and 10 ms, a bandwidth between 1 MB/s and 1 TB/s.
	if !(ts > 10e-9 && ts < 10e-3) {
		t.Errorf("t_s = %g s", ts)
	}
	if !(tc > 1e-12 && tc < 1e-6) {
		t.Errorf("t_c = %g s/B", tc)
	}
	if _, err := p.Network(); err != nil {
		t.Error(err)
	}
}
