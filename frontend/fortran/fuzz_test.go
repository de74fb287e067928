package fortran

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mkvet/mkvet/frontend/apt"
)

// FuzzParse checks that no input makes the frontend panic and that every
// diagnostic has the form file:line:col: message with a line and column inside
// the input. The corpus is seeded with the testdata programs in both forms.
func FuzzParse(f *testing.F) {
	for _, path := range programFiles(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, strings.HasSuffix(strings.ToLower(path), "90"))
	}
	f.Add([]byte("      DO10I=1,N\n   10 CONTINUE\n      END\n"), false)
	f.Add([]byte("x = 1; y = x &\n  & + 2\nend\n"), true)
	f.Add([]byte("#define SQ(x) ((x)*(x))\n#define A B B\n#define B A A\n#define L __LINE__\nk = SQ(SQ(A)) + L\ncall f(__FILE__, SQ((1, 2))\nend\n"), true)
	f.Add([]byte("      DATA C/12HBAD ARGUMENT/\n      CALL F(3H x , 1H')\n      BYTE B\n      POINTER (P, A(10)), (Q, Z)\n  100 FORMAT(5Hcount, I3)\n      END\n"), false)
	f.Add([]byte("module m\ninterface\nmodule subroutine s(a)\ninteger :: a\nend subroutine\nend interface\nend module\nsubmodule (m) n\ncontains\nmodule procedure s\na = 1\nend procedure\nend submodule\n"), true)
	f.Add([]byte("module c\nimplicit none (type, external)\nenum, bind(c)\nenumerator :: a, b = 4, c\nend enum\nend module\n"), true)
	f.Fuzz(func(t *testing.T, src []byte, free bool) {
		name := "fuzz.F"
		if free {
			name = "fuzz.F90"
		}
		prog, diags := ParseSource(name, src, Config{})
		if prog == nil {
			t.Fatal("nil program")
		}
		lines := strings.Count(string(src), "\n") + 1
		longest := 0
		for _, l := range strings.Split(string(src), "\n") {
			longest = max(longest, len(l))
		}
		for _, d := range diags {
			s := d.String()
			if !strings.HasPrefix(s, name+":") || !strings.Contains(s, ": ") || d.Msg == "" {
				t.Errorf("malformed diagnostic %q", s)
			}
			if d.Pos.File != name {
				continue // messages about included files are not expected here
			}
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 || d.Pos.Col > longest+2 {
				t.Errorf("diagnostic %q outside the input (%d lines, longest %d)", s, lines, longest)
			}
			if !utf8.ValidString(d.Msg) && utf8.Valid(src) {
				t.Errorf("diagnostic message is not UTF-8: %q", d.Msg)
			}
		}
		apt.Inspect(prog, func(n apt.Node) bool {
			if u, ok := n.(*apt.Unknown); ok && u.Diag.Msg == "" {
				t.Errorf("Unknown node %s without a diagnostic", u.ID)
			}
			return true
		})
	})
}

// BenchmarkParse measures parse+APT of a generated NPB-style fixed-form file
// and reports lines per second.
func BenchmarkParse(b *testing.B) {
	for _, lines := range []int{10_000, 100_000} {
		src := generateNPB(lines)
		n := strings.Count(string(src), "\n")
		b.Run(strconv.Itoa(n)+"lines", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				_, diags := ParseSource("bench.f", src, Config{})
				if len(diags) != 0 {
					b.Fatalf("diagnostics: %v", diags[0])
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// generateNPB writes roughly want lines of fixed-form Fortran in the style of
// NPB 3.3-MPI: subroutines with include 'mpif.h', COMMON blocks, PARAMETERs,
// shared-termination labelled DO nests, continuation lines, block IFs and MPI
// calls. The output is deterministic.
func generateNPB(want int) []byte {
	var b strings.Builder
	b.WriteString("      program bench\n      call sub1\n      end\n")
	lines := 3
	for k := 1; lines < want; k++ {
		s := strconv.Itoa(k)
		b.WriteString("c     subroutine " + s + "\n" +
			"      subroutine sub" + s + "\n" +
			"      implicit none\n" +
			"      include 'mpif.h'\n" +
			"      integer nx, ny, nz\n" +
			"      parameter (nx = 64, ny = 64, nz = 64)\n" +
			"      double precision u(5, nx, ny, nz), rsd(5, nx, ny, nz)\n" +
			"      double precision tmp, dt, c1, c2\n" +
			"      integer i, j, k, m, ierr, me, status(MPI_STATUS_SIZE)\n" +
			"      common /cvar/ u, rsd, dt, c1, c2\n" +
			"      do 10 k = 2, nz - 1\n" +
			"         do 10 j = 2, ny - 1\n" +
			"            do 10 i = 2, nx - 1\n" +
			"               do 10 m = 1, 5\n" +
			"                  rsd(m, i, j, k) = dt * ( u(m, i+1, j, k)\n" +
			"     >                 - 2.0d0 * u(m, i, j, k) + u(m, i-1, j, k) )\n" +
			"     >                 + c1 * (u(m, i, j+1, k) - u(m, i, j-1, k))\n" +
			"   10 continue\n" +
			"      if (me .gt. 0) then\n" +
			"         call MPI_RECV(tmp, 1, MPI_DOUBLE_PRECISION, me-1, 1,\n" +
			"     >                 MPI_COMM_WORLD, status, ierr)\n" +
			"      else\n" +
			"         tmp = c2 * sqrt(abs(rsd(1, 2, 2, 2))) / max(c1, 1.0d-8)\n" +
			"      endif\n" +
			"      do 20 k = 1, nz\n" +
			"         tmp = tmp + rsd(1, 2, 2, k)**2\n" +
			"   20 continue\n" +
			"      call MPI_ALLREDUCE(tmp, dt, 1, MPI_DOUBLE_PRECISION, MPI_SUM,\n" +
			"     >                   MPI_COMM_WORLD, ierr)\n" +
			"      return\n" +
			"      end\n")
		lines += 31
	}
	return []byte(b.String())
}
