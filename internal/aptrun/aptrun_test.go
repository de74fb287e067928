package aptrun

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

// The expected counts below are derived by reading the programs in
// testdata/programs, not by running the interpreter.

const programs = "../../testdata/programs"

func parseProgram(t *testing.T, file string) *apt.Program {
	t.Helper()
	prog, diags := fortran.ParseFiles([]string{filepath.Join(programs, file)}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%s: %s", file, d)
		}
	}
	return prog
}

func parseSrc(t *testing.T, name, src string) *apt.Program {
	t.Helper()
	prog, diags := fortran.ParseSource(name, []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%s: %s", name, d)
		}
	}
	return prog
}

func mustRun(t *testing.T, prog *apt.Program, cfg Config) *Counts {
	t.Helper()
	c, err := Run(prog, cfg)
	if err != nil {
		t.Fatalf("Run(P=%d, rank=%d, params=%v): %v", cfg.P, cfg.Rank, cfg.Params, err)
	}
	return c
}

// want maps node IDs to expected counts; a missing key in the counts is 0.
type want map[string]int64

func check(t *testing.T, label, what string, got map[string]int64, w want) {
	t.Helper()
	for id, v := range w {
		if got[id] != v {
			t.Errorf("%s: %s[%s] = %d, want %d", label, what, id, got[id], v)
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// recvIDs returns the IDs of the receive Comm nodes of prog.
func recvIDs(prog *apt.Program) map[string]bool {
	out := map[string]bool{}
	apt.Inspect(prog, func(n apt.Node) bool {
		if c, ok := n.(*apt.Comm); ok && (c.Op == apt.MPIRecv || c.Op == apt.MPIIrecv) {
			out[c.ID] = true
		}
		return true
	})
	return out
}

// balance checks that, over all ranks, the receives executed equal the
// messages sent (for programs whose receives never name MPI_PROC_NULL).
func balance(t *testing.T, label string, prog *apt.Program, all []*Counts) {
	t.Helper()
	recvs := recvIDs(prog)
	var sent, received int64
	for _, c := range all {
		for id, n := range c.Msgs {
			if !recvs[id] {
				sent += n
			}
		}
		for id := range recvs {
			received += c.Exec[id]
		}
	}
	// Collectives count one message per rank and call: leave them out.
	var coll int64
	apt.Inspect(prog, func(n apt.Node) bool {
		if c, ok := n.(*apt.Comm); ok && c.Op.IsCollective() {
			for _, cs := range all {
				coll += cs.Msgs[c.ID]
			}
		}
		return true
	})
	if sent-coll != received {
		t.Errorf("%s: %d point-to-point messages sent, %d receives executed", label, sent-coll, received)
	}
}

func TestTrapSerial(t *testing.T) {
	prog := parseProgram(t, "trap_serial.f")
	for _, n := range []int64{1, 2, 3, 100, 1024} {
		c := mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": n}})
		label := fmt.Sprintf("n=%d", n)
		// f(a), f(b) and one call per iteration.
		check(t, label, "Iter", c.Iter, want{"trapsr/L1": n - 1})
		check(t, label, "Exec", c.Exec, want{"trapsr": 1, "trapsr/B1": 1, "trapsr/L1": 1,
			"trapsr/L1/B1": n - 1, "trapsr/L1/N1": n - 1, "trapsr/B2": 1, "trapsr/O1": 1,
			"f": n + 1, "f/B1": n + 1, "f/R1": n + 1})
	}
	// Without Params the annotation's default (n = 1024) applies.
	c := mustRun(t, prog, Config{P: 1})
	check(t, "default", "Iter", c.Iter, want{"trapsr/L1": 1023})
	// A serial program: every rank of any communicator does the same.
	for p := int64(1); p <= 16; p++ {
		for rank := int64(0); rank < p; rank++ {
			c := mustRun(t, prog, Config{P: p, Rank: rank, Params: map[string]int64{"n": 7}})
			check(t, fmt.Sprintf("P=%d rank=%d", p, rank), "Iter", c.Iter, want{"trapsr/L1": 6})
		}
	}
}

func TestTrapMPI(t *testing.T) {
	prog := parseProgram(t, "trap_mpi.f")
	for p := int64(1); p <= 16; p++ {
		for _, k := range []int64{1, 5} { // n = k*p satisfies mod(n, p) == 0
			n := k * p
			var all []*Counts
			for rank := int64(0); rank < p; rank++ {
				c := mustRun(t, prog, Config{P: p, Rank: rank, Params: map[string]int64{"n": n}})
				all = append(all, c)
				label := fmt.Sprintf("P=%d rank=%d n=%d", p, rank, n)
				// Every rank integrates n/p trapezoids: n/p - 1 loop trips.
				check(t, label, "Iter", c.Iter, want{"trap/L1": k - 1})
				check(t, label, "Exec", c.Exec, want{"trap": 1, "f": k + 1, "trapmp/I1": 1})
				root := rank == 0
				if root {
					check(t, label, "Iter", c.Iter, want{"trapmp/I1/b1/L1": p - 1})
					check(t, label, "Exec", c.Exec, want{"trapmp/I1/b1": 1, "trapmp/I1/b2": 0,
						"trapmp/I1/b1/L1/M1": p - 1, "trapmp/I2/b1/O1": 1})
				} else {
					check(t, label, "Exec", c.Exec, want{"trapmp/I1/b1": 0, "trapmp/I1/b2": 1,
						"trapmp/I1/b2/M1": 1, "trapmp/I2/b1": 0})
					check(t, label, "Msgs", c.Msgs, want{"trapmp/I1/b2/M1": 1})
					check(t, label, "Bytes", c.Bytes, want{"trapmp/I1/b2/M1": 8})
				}
				check(t, label, "Msgs", c.Msgs, want{"trapmp/I1/b1/L1/M1": 0, "trapmp/M1": 0})
			}
			balance(t, fmt.Sprintf("P=%d n=%d", p, n), prog, all)
		}
	}
	c := mustRun(t, prog, Config{P: 4, Rank: 2})
	check(t, "default n", "Iter", c.Iter, want{"trap/L1": 1024/4 - 1})
}

func TestTrapReduce(t *testing.T) {
	prog := parseProgram(t, "trap_reduce.f90")
	for p := int64(1); p <= 16; p++ {
		for rank := int64(0); rank < p; rank++ {
			k := int64(3)
			c := mustRun(t, prog, Config{P: p, Rank: rank, Params: map[string]int64{"n": k * p}})
			label := fmt.Sprintf("P=%d rank=%d", p, rank)
			check(t, label, "Iter", c.Iter, want{"trap_mod/trap/L1": k - 1})
			check(t, label, "Exec", c.Exec, want{"trap_mod/trap": 1, "trap_mod/f": k + 1,
				"trap_reduce/B1": 1, "trap_reduce/I1": 1, "trap_reduce/I1/b1": 0,
				"trap_reduce/I2/b1": b2i(rank == 0)})
			check(t, label, "Msgs", c.Msgs, want{"trap_reduce/M4": 1, "trap_reduce/M5": 1, "trap_reduce/M6": 0})
			check(t, label, "Bytes", c.Bytes, want{"trap_reduce/M4": 4, "trap_reduce/M5": 8})
		}
	}
	// With a command-line argument rank 0 reads n, but n is a parameter: the
	// READ (and the assignment n = 1024) leave it alone.
	c := mustRun(t, prog, Config{P: 2, Rank: 0, Params: map[string]int64{"n": 10, "command_argument_count": 1}})
	check(t, "argc=1", "Exec", c.Exec, want{"trap_reduce/I1/b1": 1, "trap_reduce/I1/b1/C1": 1, "trap_reduce/I1/b1/O1": 1})
	check(t, "argc=1", "Iter", c.Iter, want{"trap_mod/trap/L1": 4})
}

func TestJacobi1D(t *testing.T) {
	prog := parseProgram(t, "jacobi1d.f90")
	const iters = 3
	for p := int64(1); p <= 16; p++ {
		for _, n := range []int64{p, p + 5, 3*p + 2} { // assume n >= p
			for rank := int64(0); rank < p; rank++ {
				c := mustRun(t, prog, Config{P: p, Rank: rank,
					Params: map[string]int64{"n": n, "iters": iters, "nargs": 0}})
				label := fmt.Sprintf("P=%d rank=%d n=%d", p, rank, n)
				// The first mod(n, p) ranks own n/p + 1 points, the others n/p.
				count := n/p + b2i(rank < n%p)
				check(t, label, "Iter", c.Iter, want{"jacobi1d/L1": iters, "jacobi1d/L1/L1": iters * count})
				check(t, label, "Exec", c.Exec, want{"decomposition/block_of": 1,
					"decomposition/block_of/I1/b1": b2i(rank < n%p),
					"decomposition/block_of/I2/b1": b2i(rank == 0),
					"decomposition/block_of/I3/b1": b2i(rank == p-1),
					"jacobi1d/I1/b1":               0, "jacobi1d/I3/b1": b2i(rank == p-1),
					"jacobi1d/L1/M1": iters, "jacobi1d/L1/M3": iters, "jacobi1d/L1/M4": iters})
				// Halo sends to MPI_PROC_NULL on the edge ranks are no messages.
				left, right := b2i(rank > 0)*iters, b2i(rank < p-1)*iters
				check(t, label, "Msgs", c.Msgs, want{"jacobi1d/L1/M1": 0, "jacobi1d/L1/M2": 0,
					"jacobi1d/L1/M3": left, "jacobi1d/L1/M4": right, "jacobi1d/L1/M5": 0,
					"jacobi1d/L1/M6": iters})
				check(t, label, "Bytes", c.Bytes, want{"jacobi1d/L1/M3": 8 * left,
					"jacobi1d/L1/M4": 8 * right, "jacobi1d/L1/M6": 8 * iters})
			}
		}
	}
	// The defaults of the annotations (n = 1000, iters = 50).
	c := mustRun(t, prog, Config{P: 3, Rank: 0, Params: map[string]int64{"nargs": 0}})
	check(t, "defaults", "Iter", c.Iter, want{"jacobi1d/L1": 50, "jacobi1d/L1/L1": 50 * 334})
	// With two arguments both READs run and are ignored (parameters).
	c = mustRun(t, prog, Config{P: 3, Rank: 2, Params: map[string]int64{"n": 7, "iters": 2, "nargs": 2}})
	check(t, "nargs=2", "Exec", c.Exec, want{"jacobi1d/I1/b1/O1": 1, "jacobi1d/I2/b1/O1": 1})
	check(t, "nargs=2", "Iter", c.Iter, want{"jacobi1d/L1/L1": 2 * 2})
	// nargs = command_argument_count() needs a value.
	if _, err := Run(prog, Config{P: 2, Rank: 0}); err == nil || !strings.Contains(err.Error(), "nargs") {
		t.Errorf("missing nargs: err = %v, want an error naming nargs", err)
	}
}

func TestPGE1(t *testing.T) {
	prog := parseProgram(t, "pge1.f")
	for p := int64(1); p <= 16; p++ {
		for _, k := range []int64{1, 3} {
			n := k * p // assume mod(n, p) == 0
			var all []*Counts
			for me := int64(0); me < p; me++ {
				c := mustRun(t, prog, Config{P: p, Rank: me, Params: map[string]int64{"n": n}})
				all = append(all, c)
				label := fmt.Sprintf("P=%d rank=%d n=%d", p, me, n)
				nloc := n / p
				jlo, jhi := me*nloc+1, me*nloc+nloc
				// Pivot k belongs to rank (k-1)/nloc. Ranks left of the owner skip
				// the pivot (goto 50); the owner computes the multipliers (n-k of
				// them); ranks to its right receive them; every rank but the last
				// passes them on; columns max(k+1, jlo)..jhi are updated.
				skipped := max(0, n-1-(me+1)*nloc)
				lastK := min((me+1)*nloc, n-1) // the last pivot this rank handles
				var ownIters, sendBytes, updJ, updI int64
				for kk := me*nloc + 1; kk <= lastK; kk++ {
					ownIters += n - kk
				}
				sends := int64(0)
				if me < p-1 {
					sends = lastK
				}
				for kk := int64(1); kk <= sends; kk++ {
					sendBytes += 8 * (n - kk)
				}
				for kk := int64(1); kk <= lastK; kk++ {
					cols := max(0, jhi-max(kk+1, jlo)+1)
					updJ += cols
					updI += cols * (n - kk)
				}
				check(t, label, "Iter", c.Iter, want{"pge1/L1": nloc, "pge1/L1/L1": nloc * n,
					"pge1/L2": n - 1, "pge1/L2/I2/b1/L1": ownIters, "pge1/L2/L1": updJ,
					"pge1/L2/L1/L1": updI, "pge1/L3": nloc})
				check(t, label, "Exec", c.Exec, want{"pge1/I1/b1": 0, "pge1/L1/L1/I1/b1": nloc,
					"pge1/L2/I1/b1/G1": skipped, "pge1/L2/I2/b1": max(0, lastK-me*nloc),
					"pge1/L2/I2/b2/M1": min(me*nloc, n-1), "pge1/L2/I3/b1/M1": sends,
					"pge1/L2/N1": n - 1, "pge1/L2/L1": lastK, "pge1/I2/b1": b2i(me == 0)})
				check(t, label, "Msgs", c.Msgs, want{"pge1/L2/I3/b1/M1": sends, "pge1/M4": 1})
				check(t, label, "Bytes", c.Bytes, want{"pge1/L2/I3/b1/M1": sendBytes, "pge1/M4": 8})
			}
			balance(t, fmt.Sprintf("P=%d n=%d", p, n), prog, all)
		}
	}
	// p not dividing n: MPI_ABORT ends the run.
	c := mustRun(t, prog, Config{P: 4, Rank: 0, Params: map[string]int64{"n": 10}})
	check(t, "abort", "Exec", c.Exec, want{"pge1/I1/b1": 1, "pge1/I1/b1/I1/b1/O1": 1,
		"pge1/I1/b1/M1": 1, "pge1/B1": 0, "pge1/M5": 0})
}

func TestLUWavefront(t *testing.T) {
	prog := parseProgram(t, "lu_wavefront.f")
	nx, ny, nz, itmax := int64(3), int64(4), int64(2), int64(2)
	params := map[string]int64{"nx": nx, "ny": ny, "nz": nz, "itmax": itmax}
	for np := int64(1); np <= 16; np++ {
		// setgrid: px is the largest divisor d of np with d*d <= np.
		px, s, small := int64(1), int64(0), int64(0)
		for d := int64(1); d*d <= np; d++ {
			s++
			if np%d == 0 {
				px = d
				small++
			}
		}
		py := np / px
		var all []*Counts
		for me := int64(0); me < np; me++ {
			c := mustRun(t, prog, Config{P: np, Rank: me, Params: params})
			all = append(all, c)
			label := fmt.Sprintf("P=%d rank=%d", np, me)
			col, row := me%px, me/px
			west, east, south, north := col > 0, col < px-1, row > 0, row < py-1
			planes := itmax * nz
			check(t, label, "Exec", c.Exec, want{"setgrid": 1,
				// The GO TO loop tests d = 1, 2, ... until d*d > np.
				"setgrid/I1": s + 1, "setgrid/I1/b1/G1": 1, "setgrid/I2": s,
				"setgrid/I2/b1": small, "setgrid/G1": s, "setgrid/N1": 1, "setgrid/R1": 1,
				"luwave/L2/L1/I1/b1": b2i(west) * planes, "luwave/L2/L1/I2/b1": b2i(south) * planes,
				"luwave/L2/L1/I1/b1/M1": b2i(west) * planes, "luwave/L2/L1/I2/b1/M1": b2i(south) * planes,
				"luwave/L2/L1/I3/b1": b2i(east) * planes, "luwave/L2/L1/I4/b1": b2i(north) * planes,
				"luwave/L2/L1/N1": planes, "luwave/I1/b1/O1": b2i(me == 0)})
			check(t, label, "Iter", c.Iter, want{"luwave/L1": nz, "luwave/L1/L1": nz * (ny + 1),
				"luwave/L1/L1/L1": nz * (ny + 1) * (nx + 1), "luwave/L2": itmax, "luwave/L2/L1": planes,
				"luwave/L2/L1/I1/b1/L1": b2i(west) * planes * ny, "luwave/L2/L1/I2/b1/L1": b2i(south) * planes * nx,
				"luwave/L2/L1/L1": planes * ny, "luwave/L2/L1/L1/L1": planes * ny * nx,
				"luwave/L2/L1/I3/b1/L1": b2i(east) * planes * ny, "luwave/L2/L1/I4/b1/L1": b2i(north) * planes * nx,
				"luwave/L3": nz})
			check(t, label, "Msgs", c.Msgs, want{"luwave/L2/L1/I3/b1/M1": b2i(east) * planes,
				"luwave/L2/L1/I4/b1/M1": b2i(north) * planes, "luwave/L2/L1/I1/b1/M1": 0, "luwave/M4": 1})
			check(t, label, "Bytes", c.Bytes, want{"luwave/L2/L1/I3/b1/M1": b2i(east) * planes * ny * 8,
				"luwave/L2/L1/I4/b1/M1": b2i(north) * planes * nx * 8, "luwave/M4": 8})
		}
		balance(t, fmt.Sprintf("P=%d", np), prog, all)
	}
}

func TestShiftPipeline(t *testing.T) {
	shift, pipe := parseProgram(t, "shift.f"), parseProgram(t, "pipeline.f")
	n, m := int64(5), int64(3)
	params := map[string]int64{"n": n, "m": m}
	for np := int64(1); np <= 16; np++ {
		var allS, allP []*Counts
		for me := int64(0); me < np; me++ {
			label := fmt.Sprintf("P=%d rank=%d", np, me)
			notLast, notFirst := b2i(me < np-1), b2i(me > 0)
			c := mustRun(t, shift, Config{P: np, Rank: me, Params: params})
			allS = append(allS, c)
			check(t, "shift "+label, "Iter", c.Iter, want{"shift/L1": m, "shift/L2": n, "shift/L2/L1": n * m})
			check(t, "shift "+label, "Exec", c.Exec, want{"shift/L2/I1": n, "shift/L2/I1/b1/M1": notLast * n,
				"shift/L2/I2/b1/M1": notFirst * n, "shift/I1/b1/O1": b2i(me == 0)})
			check(t, "shift "+label, "Msgs", c.Msgs, want{"shift/L2/I1/b1/M1": notLast * n})
			check(t, "shift "+label, "Bytes", c.Bytes, want{"shift/L2/I1/b1/M1": notLast * n * m * 8})
			c = mustRun(t, pipe, Config{P: np, Rank: me, Params: params})
			allP = append(allP, c)
			check(t, "pipeline "+label, "Iter", c.Iter, want{"pipeln/L1": m, "pipeln/L2": n, "pipeln/L2/L1": n * m})
			check(t, "pipeline "+label, "Exec", c.Exec, want{"pipeln/L2/I1/b1/M1": notFirst * n,
				"pipeln/L2/I2/b1/M1": notLast * n, "pipeln/I1/b1/O1": b2i(me == np-1)})
			check(t, "pipeline "+label, "Msgs", c.Msgs, want{"pipeln/L2/I2/b1/M1": notLast * n, "pipeln/L2/I1/b1/M1": 0})
			check(t, "pipeline "+label, "Bytes", c.Bytes, want{"pipeln/L2/I2/b1/M1": notLast * n * m * 8})
		}
		balance(t, fmt.Sprintf("shift P=%d", np), shift, allS)
		balance(t, fmt.Sprintf("pipeline P=%d", np), pipe, allP)
	}
}

func TestATM2D(t *testing.T) {
	prog := parseProgram(t, "atm2d.f90")
	nx, ny, niter := int64(4), int64(17), int64(3) // assume ny >= np
	for np := int64(1); np <= 16; np++ {
		for me := int64(0); me < np; me++ {
			c := mustRun(t, prog, Config{P: np, Rank: me, Params: map[string]int64{"nx": nx, "ny": ny, "niter": niter}})
			label := fmt.Sprintf("P=%d rank=%d", np, me)
			// Rows are block-distributed, the first mod(ny, np) ranks get one more.
			nrows := ny/np + b2i(me < ny%np)
			sweeps := 2 * niter
			up, down := b2i(me < np-1)*sweeps, b2i(me > 0)*sweeps
			check(t, label, "Iter", c.Iter, want{"atm2d/L1": niter, "atm2d/L1/L1": sweeps,
				"atm_grid/sweep/L1": sweeps * nrows, "atm_grid/sweep/L1/L1": sweeps * nrows * nx})
			// Each point matches exactly one of the two colours.
			check(t, label, "Exec", c.Exec, want{"atm_grid/decompose": 1,
				"atm_grid/decompose/I1/b1": b2i(me < ny%np), "atm_grid/decompose/I1/b2": b2i(me >= ny%np),
				"atm_grid/exchange": sweeps, "atm_grid/sweep": sweeps,
				"atm_grid/sweep/L1/L1/I1": sweeps * nrows * nx, "atm_grid/sweep/L1/L1/I1/b1": niter * nrows * nx})
			check(t, label, "Msgs", c.Msgs, want{"atm_grid/exchange/M1": up, "atm_grid/exchange/M2": down, "atm2d/M4": 1})
			check(t, label, "Bytes", c.Bytes, want{"atm_grid/exchange/M1": up * (nx + 2) * 8,
				"atm_grid/exchange/M2": down * (nx + 2) * 8, "atm2d/M4": 8})
		}
	}
}

func TestHPFExample(t *testing.T) {
	prog := parseProgram(t, "hpf_example.f90")
	for _, tc := range []struct{ n1, n2, taken int64 }{
		{8, 40, 8 + 16 + 24 + 32 + 40 + 40 + 40 + 40}, // sum of min(8*j1, 40)
		{3, 12, 3 + 6 + 9},
		{1, 100, 1},
	} {
		for np := int64(1); np <= 16; np++ {
			for me := int64(0); me < np; me++ {
				c := mustRun(t, prog, Config{P: np, Rank: me, Params: map[string]int64{"n1": tc.n1, "n2": tc.n2}})
				label := fmt.Sprintf("n1=%d n2=%d P=%d rank=%d", tc.n1, tc.n2, np, me)
				check(t, label, "Iter", c.Iter, want{"hpf_example/L1": tc.n1,
					"hpf_example/L1/L1": tc.n1 * tc.n1 * (tc.n1 + 1) / 2})
				check(t, label, "Exec", c.Exec, want{"hpf_example/L1/L1/I1/b1": tc.taken, "hpf_example/O1": 1})
			}
		}
	}
}

func TestConstructsFixed(t *testing.T) {
	prog := parseProgram(t, "constructs_fixed.F")
	const nsize = 32
	for np := int64(1); np <= 16; np++ {
		for me := int64(0); me < np; me++ {
			c := mustRun(t, prog, Config{P: np, Rank: me, Params: map[string]int64{"iters": 10}})
			label := fmt.Sprintf("P=%d rank=%d", np, me)
			ibr := me%3 + 1
			pair := me^1 < np
			even := me%2 == 0
			check(t, label, "Iter", c.Iter, want{"cfixed/L1": nsize, "cfixed/L1/L1": 2 * nsize, "cfixed/L2": nsize,
				// DO WHILE: k = 1..51, CYCLE on even k, EXIT at k = 51.
				"cfixed/L3": 51, "cfixed/L4": nsize, "cfixed/L5": nsize, "cfixed/L6": np})
			check(t, label, "Exec", c.Exec, want{"cfixed/L2/B1": nsize, "f": nsize,
				"cfixed/L3/I1/b1/Y1": 25, "cfixed/L3/I2/b1/X1": 1,
				// Computed GO TO (31, 32, 33) ibr: a branch per label.
				"cfixed/I1/b1": b2i(ibr == 1), "cfixed/I1/b2": b2i(ibr == 2), "cfixed/I1/b3": b2i(ibr == 3),
				"cfixed/B3": b2i(ibr == 1), "cfixed/G1": b2i(ibr == 1), "cfixed/B4": b2i(ibr == 2),
				"cfixed/G2": b2i(ibr == 2), "cfixed/B5": b2i(ibr == 3), "cfixed/N1": 1,
				// Assigned GO TO to 40, arithmetic IF with k - 51 == 0 to 42.
				"cfixed/G3": 1, "cfixed/N2": 1, "cfixed/I2/b1": 0, "cfixed/I2/b2": 1, "cfixed/I2/b3": 0,
				"cfixed/B7": 0, "cfixed/B8": 1, "cfixed/N3": 1, "cfixed/N4": 1,
				// SELECT CASE (me): 0; 1:3, 5; default.
				"cfixed/I3/b1": b2i(me == 0), "cfixed/I3/b2": b2i(me >= 1 && me <= 3 || me == 5),
				"cfixed/I3/b3": b2i(me == 4 || me > 5),
				"cfixed/P1":    1, "cfixed/P2": 1, "cfixed/I5/b1": b2i(pair),
				"cfixed/I5/b1/I1/b1": b2i(pair && even), "cfixed/I5/b1/I1/b2": b2i(pair && !even),
				"cfixed/I5/b1/C1": b2i(pair), "cfixed/I6/b1": 0,
				"report": 1, "report/I1/b1/O2": b2i(me == 0), "cfixed/S1": 1})
			pairMsg := b2i(pair)
			check(t, label, "Msgs", c.Msgs, want{"cfixed/I5/b1/I1/b1/M1": b2i(pair && even),
				"cfixed/I5/b1/I1/b1/M3": b2i(pair && even), "cfixed/I5/b1/I1/b2/M2": b2i(pair && !even),
				"cfixed/I5/b1/M2": pairMsg, "cfixed/I5/b1/M5": pairMsg, "cfixed/I5/b1/M6": pairMsg,
				"cfixed/I5/b1/M8": pairMsg, "cfixed/I5/b1/M1": 0, "cfixed/I5/b1/M3": 0,
				"cfixed/M4": 1, "cfixed/M5": 1, "cfixed/M15": 1, "cfixed/M16": 0})
			check(t, label, "Bytes", c.Bytes, want{"cfixed/I5/b1/I1/b1/M3": b2i(pair && even) * 8 * 8,
				"cfixed/M4": 0, "cfixed/M5": nsize * 8, "cfixed/M6": 8, "cfixed/M14": nsize * 8,
				// The v-variants' count arrays hold nsize for each of the np ranks.
				"cfixed/M12": np * nsize * 8, "cfixed/M15": np * nsize * 8})
		}
	}
	// iters is an annotated parameter without a default.
	if _, err := Run(prog, Config{P: 1}); err == nil || !strings.Contains(err.Error(), "iters") {
		t.Errorf("missing iters: err = %v, want an error naming iters", err)
	}
}

func TestConstructsFree(t *testing.T) {
	prog := parseProgram(t, "constructs_free.F90")
	const n = 24
	for np := int64(1); np <= 16; np++ {
		for me := int64(0); me < np; me++ {
			c := mustRun(t, prog, Config{P: np, Rank: me})
			label := fmt.Sprintf("P=%d rank=%d", np, me)
			// outer: steps 1..8 run inner i = 1..13 (CYCLE outer at i = 13),
			// step 9 EXITs outer at i = 1.
			check(t, label, "Iter", c.Iter, want{"constructs_free/L1": 9, "constructs_free/L1/L1": 8*13 + 1,
				"constructs_free/L2": 4, "kernels_module/ideal_gas_kernel/L1": n,
				"kernels_module/ideal_gas_kernel/L1/L1": n * n, "constructs_free/L3/L1": n * n,
				"constructs_free/L4/L1": n * n, "constructs_free/L5": n})
			check(t, label, "Exec", c.Exec, want{"constructs_free/L1/L1/I1/b1/Y1": 8,
				"constructs_free/L1/L1/I2/b1/X1": 1, "constructs_free/L2/I1/b1/X1": 1,
				"kernels_module/cell_volume": 1, "constructs_free/I1/b1": b2i(me == 0),
				"comms_module/clover_exchange/I1/b1":    b2i(me%2 == 0),
				"comms_module/clover_collectives/I1/b1": 0})
			right := b2i(me < np-1)
			check(t, label, "Msgs", c.Msgs, want{"comms_module/clover_exchange/M2": right,
				"comms_module/clover_exchange/M4": right, "comms_module/clover_exchange/M7": right,
				"comms_module/clover_exchange/M9": 0, "comms_module/clover_exchange/M10": 0,
				"comms_module/clover_exchange/M1": 0, "comms_module/clover_exchange/M6": 1,
				"comms_module/clover_collectives/M11": 1})
			check(t, label, "Bytes", c.Bytes, want{"comms_module/clover_exchange/M2": right * n * 8,
				"comms_module/clover_collectives/M1": 8, "comms_module/clover_collectives/M7": np * n * 8})
		}
	}
}

// TestInterpreter checks language features on small programs.
func TestInterpreter(t *testing.T) {
	src := `
module m
  implicit none
  integer :: calls = 0
contains
  subroutine bump(k)
    integer, intent(inout) :: k
    k = k + 1
    calls = calls + 1
  end subroutine bump
end module m

program features
  use m
  implicit none
  integer :: a(10), b(2, 3), i, j, s, total
  integer :: counter
  a = 0
  a(2:8:3) = 7
  do i = 1, 10
    if (a(i) == 7) call bump(s)
  end do
  call fill(b, 6)
  total = 0
  do j = 1, 3
    do i = 1, 2
      if (b(i, j) == i + 10*j) total = total + 1
    end do
  end do
  call twice(a(9))
  do i = 1, 3
    counter = tick()
  end do
  call host()
  if (calls /= 3) stop
  do i = 1, a(9)
  end do
contains
  subroutine host()
    do while (s > 0)
      s = s - 1
    end do
  end subroutine host
end program features

subroutine fill(x, n)
  integer :: n, x(n), k
  do k = 1, n
    x(k) = mod(k-1, 2) + 1 + 10*((k-1)/2 + 1)
  end do
end subroutine fill

subroutine twice(y)
  integer :: y(2)
  y(1) = 4
  y(2) = 5
end subroutine twice

integer function tick()
  integer, save :: n = 0
  n = n + 1
  tick = n
  do while (.false.)
  end do
end function tick
`
	prog := parseSrc(t, "features.f90", src)
	c := mustRun(t, prog, Config{P: 1})
	check(t, "features", "Exec", c.Exec, want{
		"features/L1/I1/b1/C1": 3, // a(2), a(5), a(8)
		"m/bump":               3, "fill": 1, "twice": 1, "tick": 3,
		"features/L2/L1/I1/b1": 6, // b filled in array element order through the dummy
		"features/I1/b1":       0, // calls == 3
		"features/host":        1,
	})
	check(t, "features", "Iter", c.Iter, want{
		"features/host/L1": 3, // s was bumped three times
		"features/L4":      4, // a(9) = 4 through sequence association
		"tick/L1":          0,
	})
}

func TestGotoAndSave(t *testing.T) {
	src := `      program g
      integer i, n, k
      n = 0
      k = 0
   10 n = n + 1
      if (n .lt. 5) goto 10
      do 20 i = 1, 10
         if (mod(i, 2) .eq. 0) goto 20
         k = k + 1
         if (i .ge. 7) goto 30
   20 continue
   30 continue
      call s(3)
      call s(4)
      end
      subroutine s(m)
      integer m, j, cnt
      save cnt
      data cnt /0/
      cnt = cnt + m
      do j = 1, cnt
      end do
      end
`
	prog := parseSrc(t, "g.f", src)
	c := mustRun(t, prog, Config{P: 1})
	check(t, "goto", "Exec", c.Exec, want{
		"g/B2":       5, // label 10, reached 5 times
		"g/I1/b1/G1": 4,
		"g/L1/I1/b1": 3, // i = 2, 4, 6 jump to the DO termination
		"g/L1/B1":    4, // i = 1, 3, 5, 7
		"g/L1/N1":    6, // continue 20 for i = 1..6
		"g/N1":       1,
		"s":          2,
	})
	// cnt is saved: 3, then 7.
	check(t, "save", "Iter", c.Iter, want{"g/L1": 7, "s/L1": 3 + 7})
}

func TestParamsAndReads(t *testing.T) {
	src := `program r
  implicit none
  integer :: n, m, i
  !mk$ param m = 6
  read (*, *) n
  m = 100
  do i = 1, n + m
  end do
end program r
`
	prog := parseSrc(t, "r.f90", src)
	c := mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": 4}})
	check(t, "params", "Iter", c.Iter, want{"r/L1": 10})
	c = mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": 4, "m": 1}})
	check(t, "params", "Iter", c.Iter, want{"r/L1": 5})
	_, err := Run(prog, Config{P: 1})
	if err == nil || !strings.Contains(err.Error(), "READ into n") || !strings.Contains(err.Error(), "r.f90:5:") {
		t.Errorf("missing READ value: err = %v", err)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, msg string }{
		{"steps.f90", "program p\n  integer :: i\n  do\n    i = i + 1\n  end do\nend program p\n", "aborted after"},
		{"div.f90", "program p\n  integer :: i, j\n  j = 0\n  i = 1/j\nend program p\n", "div.f90:4:"},
		{"bounds.f90", "program p\n  integer :: a(3), i\n  i = 4\n  a(i) = 1\nend program p\n", "outside the bounds"},
		{"label.f", "      program p\n      goto 99\n      end\n", "GO TO 99"},
		{"ptr.f90", "program p\n  integer, target :: t\n  integer, pointer :: q\n  q => t\nend program p\n", "ptr.f90:4:"},
		{"common.f", "      program p\n      common /c/ a, b\n      call s\n      end\n      subroutine s\n      common /c/ x\n      x = 1\n      end\n", "COMMON /c/"},
	} {
		prog, _ := fortran.ParseSource(tc.name, []byte(tc.src), fortran.Config{})
		_, err := Run(prog, Config{P: 1, MaxSteps: 1000})
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.msg)
		}
	}
}

func TestEntryAndStop(t *testing.T) {
	src := `subroutine work(n)
  integer :: n, i
  do i = 1, n
    if (i == 3) stop
  end do
end subroutine work
`
	prog := parseSrc(t, "w.f90", src)
	// The entry's dummy takes its value from Params; STOP ends the run.
	c := mustRun(t, prog, Config{Entry: "work", P: 1, Params: map[string]int64{"n": 10}})
	check(t, "entry", "Iter", c.Iter, want{"work/L1": 3})
	check(t, "entry", "Exec", c.Exec, want{"work": 1, "work/L1/I1/b1/S1": 1})
	c = mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": 2}})
	check(t, "only routine", "Iter", c.Iter, want{"work/L1": 2})
}

func TestMoreFeatures(t *testing.T) {
	src := `
module shapes
  implicit none
  type :: pt
    integer :: x = 0, y = 0
  end type pt
contains
  integer function sumsq(v)
    integer, intent(in) :: v(:)
    integer :: i
    sumsq = 0
    do i = 1, size(v)
      sumsq = sumsq + v(i)**2
    end do
  end function sumsq
  subroutine opt(a, b)
    integer :: a
    integer, optional :: b
    if (present(b)) a = a + b
  end subroutine opt
  integer function apply(f, x)
    integer, external :: f
    integer :: x
    apply = f(x)
  end function apply
  integer function dbl(x)
    integer :: x
    dbl = 2*x
  end function dbl
end module shapes

program more
  use shapes
  implicit none
  type(pt) :: ps(4)
  integer :: i, k, n, w(6), m
  character(len=8) :: word
  real :: r
  do i = 1, 4
    ps(i)%x = i
    ps(i)%y = 10*i
  end do
  k = 0
  do i = 1, 4
    if (ps(i)%y > 15) k = k + 1
  end do
  do i = 1, k
  end do
  w = (/ (i, i = 1, 6) /)
  where (w > 3) w = 0
  do i = 1, sum(w)
  end do
  do i = 1, sumsq(w(1:3))
  end do
  n = 1
  call opt(n)
  call opt(n, b=4)
  do i = 1, n
  end do
  do i = 1, apply(dbl, 3)
  end do
  word = 'abcdef'
  select case (word(2:3))
  case ('bc')
    m = 2
  case default
    m = 0
  end select
  do i = 1, m
  end do
  do i = 10, 1, -3
  end do
  do i = 1, -i
  end do
  do r = 0.5, 2.0, 0.5
  end do
  call inner(3)
contains
  subroutine inner(j)
    integer :: j
    call deeper()
  contains
    subroutine deeper()
      do k = 1, j + m
      end do
    end subroutine deeper
  end subroutine inner
end program more
`
	prog := parseSrc(t, "more.f90", src)
	c := mustRun(t, prog, Config{P: 1})
	check(t, "more", "Iter", c.Iter, want{
		"more/L3":              3,         // ps(2..4)%y > 15
		"more/L4":              1 + 2 + 3, // WHERE zeroed w(4:6)
		"more/L5":              1 + 4 + 9, // assumed-shape section
		"more/L6":              5,         // optional argument present once
		"more/L7":              6,         // procedure argument
		"more/L8":              2,         // substring selector
		"more/L9":              4,         // 10, 7, 4, 1
		"more/L10":             2,         // i is -2 after the loop 10, 1, -3
		"more/L11":             4,         // real DO: 0.5, 1.0, 1.5, 2.0
		"more/inner/deeper/L1": 3 + 2,
	})
	check(t, "more", "Exec", c.Exec, want{"shapes/opt/I1/b1": 1, "shapes/dbl": 1, "more/I1/b1": 1, "more/I1/b2": 0})
}

// TestConcurrentRuns runs ranks in parallel on one Program: Run only reads it.
func TestConcurrentRuns(t *testing.T) {
	prog := parseProgram(t, "atm2d.f90")
	done := make(chan error)
	for r := int64(0); r < 4; r++ {
		go func() {
			_, err := Run(prog, Config{P: 4, Rank: r, Params: map[string]int64{"nx": 4, "ny": 8, "niter": 2}})
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestNoInputFiles: with Config.NoInputFiles an optional input deck
// (OPEN with STATUS='OLD' and IOSTAT=) is absent and the program takes its
// defaults, as it does run in a directory without the file; without it the
// READ branch runs and asks for its values.
func TestNoInputFiles(t *testing.T) {
	prog := parseSrc(t, "deck.f90", `program deck
  integer :: n, st, i, s
  open (unit=3, file='deck.in', status='old', iostat=st)
  if (st == 0) then
    read (3, *) n
    close (3)
  else
    n = 7
  end if
  s = 0
  do i = 1, n
    s = s + i
  end do
end program deck
`)
	var loop string
	for id := range mustRun(t, prog, Config{P: 1, NoInputFiles: true}).Iter {
		loop = id
	}
	c := mustRun(t, prog, Config{P: 1, NoInputFiles: true})
	if loop == "" || c.Iter[loop] != 7 {
		t.Errorf("without the input file: %v iterations, want the default 7", c.Iter)
	}
	if _, err := Run(prog, Config{P: 1}); err == nil || !strings.Contains(err.Error(), "READ into n") {
		t.Errorf("with the file assumed present: %v, want the READ to ask for n", err)
	}
	c = mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": 3}})
	if c.Iter[loop] != 3 {
		t.Errorf("reading n=3: %v iterations", c.Iter)
	}
}

// A datum of a file read twice (from the start of the file, after another
// OPEN or a REWIND) has the value of the variable that read it first; the
// other records' values are their own.
func TestReadTwice(t *testing.T) {
	src := `program r
  implicit none
  integer :: a, b, c, d, e, f, g, i
  open (3, file='deck', status='old')
  read (3, *) a, b
  close (3)
  open (10, file='deck', status='old')
  read (10, *) c, d, e
  read (10, *) f
  rewind (10)
  read (10, *) g
  close (10)
  do i = 1, 100*c + 10*d + e + f + g
  end do
end program r
`
	prog := parseSrc(t, "r.f90", src)
	c := mustRun(t, prog, Config{P: 1, Params: map[string]int64{"a": 1, "b": 2, "e": 3, "f": 4}})
	check(t, "read twice", "Iter", c.Iter, want{"r/L1": 100*1 + 10*2 + 3 + 4 + 1})
}
