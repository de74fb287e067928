package cost_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model/cost"
)

// FuzzAnalyze runs symbolic evaluation and counting on whatever Fortran the
// frontend accepts: it must answer with a report or an error, never panic,
// and every report must evaluate at a small point or say why not.
func FuzzAnalyze(f *testing.F) {
	// Small seeds keep each execution fast: whole test programs take
	// seconds to count, which starves the fuzzer.
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "programs", "*.f*"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err == nil && len(src) < 1500 {
			f.Add(string(src), filepath.Ext(file) == ".f")
		}
	}
	for _, src := range []string{
		"program p\n integer :: n, i, j\n read *, n\n do i = 1, n\n  do j = i, n, 2\n  end do\n end do\nend program\n",
		"program p\n use mpi\n integer :: me, np, ierr, i\n call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)\n call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)\n" +
			" do i = me, 100, np\n  if (mod(i, 3) == 0) call MPI_Send(i, 1, MPI_INTEGER, mod(me+1, np), 0, MPI_COMM_WORLD, ierr)\n end do\nend program\n",
		"program p\n integer :: k, n\n n = 10\n k = 1\n10 if (k > n) goto 20\n k = k + 2\n goto 10\n20 continue\nend program\n",
		"program p\n integer :: i, m\n m = 0\n do i = 1, 8\n  m = m + 3\n end do\n select case (m)\n case (1:5)\n  m = 1\n case default\n  m = 2\n end select\nend program\n",
	} {
		f.Add(src, false)
	}
	f.Fuzz(func(t *testing.T, src string, fixed bool) {
		name := "fuzz.f90"
		if fixed {
			name = "fuzz.f"
		}
		prog, diags := fortran.ParseSource(name, []byte(src), fortran.Config{})
		for _, d := range diags {
			if d.Severity == apt.Error {
				return
			}
		}
		// A program that takes the analysis more than a few seconds is a
		// failure too: the user would wait on it.
		type result struct {
			rep *cost.Report
			err error
		}
		done := make(chan result, 1)
		go func() {
			rep, err := cost.Analyze(prog, cost.Options{})
			done <- result{rep, err}
		}()
		var rep *cost.Report
		select {
		case r := <-done:
			if r.err != nil {
				return
			}
			rep = r.rep
		case <-time.After(10 * time.Second):
			t.Fatalf("analysis takes more than 10 s on:\n%s", src)
		}
		env := map[string]int64{cost.Size: 3}
		for _, p := range rep.Params {
			env[p.Name] = 4
		}
		rep.At(env) // an error (assumptions violated) is an answer too
	})
}
