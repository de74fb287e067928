package cinst_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/instrument/cinst"
	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
)

// corpusCArgs are the command lines the counts oracle runs the C and C++
// programs of the manifest with, smaller than the manifest's (counts need
// no time to measure), by name.
var corpusCArgs = map[string]string{"hpccg": "12 10 7"}

// corpusCHot are, by name, the loops (file:line) that must be counted
// exactly on every rank: the hot nests of the program, whatever else
// rests on its data.
var corpusCHot = map[string][]string{
	// The sparse matrix-vector product: its inner loop runs each row's
	// nonzeros, which generate_matrix counts into A->nnz_in_row through
	// a structure allocated with new; ddot and waxpby run the rows.
	"hpccg": {"HPC_sparsemv.cpp:75", "HPC_sparsemv.cpp:86", "ddot.cpp:64", "ddot.cpp:69", "waxpby.cpp:69"},
}

// TestCorpusCCountsMatchRunsE2E is the counts oracle on the C and C++
// programs of the manifest other than NPB's (TestNPBCCountsMatchRunsE2E):
// each is compiled by the C frontend as `mkvet check` compiles it (its
// defines, its command line), its IR instrumented with a counter per
// loop, built against Open MPI and run at each of its process counts.
// Every loop whose static count is exact and rests on no unknown value
// must equal the counters on every rank, and the program's hot loops
// (corpusCHot) must be among them.
func TestCorpusCCountsMatchRunsE2E(t *testing.T) {
	corpora.Dir(t)
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc", "mpirun")
	progs, err := corpora.Select(func(p corpora.Program) bool {
		return corpusCHot[p.Name] != nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) != len(corpusCHot) {
		t.Fatalf("the manifest holds %d of the %d programs the oracle checks", len(progs), len(corpusCHot))
	}
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			c, err := corpora.Open(t, p, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			files, err := c.Sources()
			if err != nil {
				t.Fatal(err)
			}
			defines := c.DefineMap()
			lf, diags := llvmir.Load(files, llvmir.Config{IncludeDirs: c.Includes(), Defines: defines})
			for _, d := range diags {
				if d.Severity == apt.Error {
					t.Fatal(d)
				}
			}
			work := t.TempDir()
			res, err := cinst.Instrument(lf, filepath.Join(work, "copy"), cinst.Options{})
			if err != nil {
				t.Fatal(err)
			}
			exe := filepath.Join(work, "prog")
			build(t, res, exe)
			args := strings.Fields(corpusCArgs[p.Name])
			for _, np := range p.Procs {
				point := map[string]int64{cost.Size: int64(np)}
				rep, err := cost.Analyze(lf.Prog, cost.Options{Values: point, Args: args, Dir: c.Dir})
				if err != nil {
					t.Fatal(err)
				}
				recs, _ := run(t, exe, np, args, filepath.Join(work, fmt.Sprint("run-", np)))
				equal, data := loopsOracle(t, p.Name, rep, res, point, recs)
				t.Logf("%s P=%d: %d per-rank loop counts equal the static ones; %d loops depend on the data", p.Name, np, equal, len(data))
				for _, hot := range corpusCHot[p.Name] {
					for _, d := range data {
						if strings.HasPrefix(d, hot+":") {
							t.Errorf("%s P=%d: the hot loop at %s is not counted exactly: %s", p.Name, np, hot, d)
						}
					}
				}
			}
		})
	}
}
