package llvmir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llir/llvm/asm"
)

// bigProgram writes a synthetic C MPI program of about lines source lines:
// functions with loop nests (rectangular, triangular, strided, while loops
// with branches, switches, early exits) and calls between them, the shapes
// the frontend analyses.
func bigProgram(lines int) string {
	var b strings.Builder
	n := 0
	w := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		n++
	}
	w("#include <mpi.h>")
	w("double A[512][512], B[512], C[512];")
	var funcs []string
	for i := 0; n < lines; i++ {
		name := fmt.Sprintf("k%d", i)
		funcs = append(funcs, name)
		w("void " + name + "(int n, int m, double *x)")
		w("{")
		w("\tdouble s = 0;")
		switch i % 4 {
		case 0:
			w("\tfor (int i = 0; i < n; i++)")
			w("\t\tfor (int j = i; j < m; j++)")
			w("\t\t\tA[i % 512][j % 512] += x[j % 512] * 0.5;")
		case 1:
			w("\tint k = 0;")
			w("\twhile (k < n) {")
			w("\t\tif (k % 3 == 0)")
			w("\t\t\ts += B[k % 512];")
			w("\t\telse")
			w("\t\t\ts -= C[k % 512];")
			w("\t\tk += 2;")
			w("\t}")
		case 2:
			w("\tfor (int i = n; i > 0; i -= 3) {")
			w("\t\tswitch (i % 4) {")
			w("\t\tcase 0: s += 1; break;")
			w("\t\tcase 1: s *= 2; break;")
			w("\t\tdefault: s = s / 3;")
			w("\t\t}")
			w("\t}")
		default:
			w("\tfor (int i = 0; i < n; i++) {")
			w("\t\tif (x[i % 512] > 7)")
			w("\t\t\tbreak;")
			w("\t\tx[i % 512] = s + i;")
			w("\t}")
			w(fmt.Sprintf("\tk%d(n, m, x);", i-1))
		}
		w("\tB[n % 512] = s;")
		w("}")
	}
	w("int main(int argc, char **argv)")
	w("{")
	w("\tint rank;")
	w("\tdouble x[512];")
	w("\tMPI_Init(&argc, &argv);")
	w("\tMPI_Comm_rank(MPI_COMM_WORLD, &rank);")
	for _, f := range funcs[:min(len(funcs), 200)] {
		w("\t" + f + "(rank + 10, 20, x);")
	}
	w("\tMPI_Finalize();")
	w("\treturn 0;")
	w("}")
	return b.String()
}

// BenchmarkLiftVsParse measures, in one run, llir's parse of the IR of a
// 100,000-line C program and mkvet's whole reading of it (the same parse,
// then the CFGs, loops, structuring and APT): the analysis must cost at most
// as much again as the parse (ratio <= 2).
func BenchmarkLiftVsParse(b *testing.B) {
	for _, t := range []string{"clang-14", "opt-14", "llvm-link-14"} {
		if _, err := exec.LookPath(t); err != nil {
			b.Skipf("needs %s (Debian: clang-14 llvm-14)", t)
		}
	}
	dir := b.TempDir()
	src := filepath.Join(dir, "big.c")
	if err := os.WriteFile(src, []byte(bigProgram(100000)), 0o644); err != nil {
		b.Fatal(err)
	}
	ir, name, diags := Compile([]string{src}, Config{})
	if ir == nil {
		b.Fatal(diags)
	}
	irLines := strings.Count(string(ir), "\n")
	var parse, whole time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := asm.ParseBytes(name, ir); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		lf, diags := liftUnguarded(name, ir, []string{src})
		if lf == nil {
			b.Fatal(diags)
		}
		parse += t1.Sub(t0)
		whole += time.Since(t1)
	}
	ratio := float64(whole) / float64(parse)
	b.ReportMetric(parse.Seconds()/float64(b.N), "parse-s")
	b.ReportMetric(whole.Seconds()/float64(b.N), "read+analyse-s")
	b.ReportMetric(ratio, "ratio")
	b.ReportMetric(float64(irLines), "IR-lines")
	if ratio > 2 {
		b.Errorf("reading and analysing the IR took %.2f times llir's parse (goal: at most 2)", ratio)
	}
}
