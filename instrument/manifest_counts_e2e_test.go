package instrument_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
)

// countsDecks are the input decks the counts oracle runs the manifest's
// programs with, by name, for p processes: the hot-nest oracles' decks
// (sweep3dDeck, teaDeck) on smaller grids, since counts need no time to
// measure. Sweep3D's holds its process grid (npe_i x npe_j = p) and its
// fixups off, since how often a fixup repeats is the data's and no counter
// gives it alone. The analysis reads the same deck from the folder the run
// starts in.
var countsDecks = map[string]func(p int) (name, text string){
	"sweep3d": func(p int) (string, string) {
		i, j := p, 1
		if p == 4 {
			i, j = 2, 2
		}
		return "input", strings.Replace(sweep3dDeck(i, j), "50 50 50 ", "20 24 20 ", 1)
	},
	"tealeaf": func(int) (string, string) {
		return "tea.in", strings.NewReplacer("x_cells=200", "x_cells=64", "y_cells=200", "y_cells=48").Replace(teaDeck)
	},
}

// countsDataNests bounds, by program, the hot loop nests whose counts rest
// on the program's data (not compared), as dataNests does for NPB 3.3:
// MG's bubble sort orders random values.
var countsDataNests = map[string]int{"npb34-MG": 2}

// countsUnmeasured names the programs whose data the counters do not give
// value by value, with why: their counts cannot be compared.
var countsUnmeasured = map[string]string{
	"snap": "its groups leave the inner iterations as each converges (WHERE (inrdone) do_grp = 0), so which groups " +
		"each sweep, task list and message takes is the run's data: 26 values at P = 4 that no counter gives alone",
}

// TestManifestCountsMatchRunsE2E is the counts oracle of issue 41 on the
// Fortran programs of the manifest that nobody tuned mkvet for (NPB 3.3
// and CloverLeaf have their own, TestNPBCountsMatchRunsE2E and
// TestCloverLeafCountsMatchRunsE2E): each built as the manifest says with
// a counter in every loop body, run under Open MPI at each of its process
// counts, and analysed as `mkvet check -D P=p` analyses it from the folder
// the run starts in (its deck, its command line, nothing else given).
// Every loop nest holding 1% or more of the predicted work must have an
// exact count, entries and iterations, equal to the counters on every
// rank (countsOracle); values of the data the analysis asks for are read
// off the counters first, as a calibration run would (measureData).
func TestManifestCountsMatchRunsE2E(t *testing.T) {
	corpora.Dir(t)
	e2e.Require(t, "mpif77", "mpif90", "mpicc", "mpirun")
	progs, err := corpora.Select(func(p corpora.Program) bool {
		return p.Language == "fortran" && p.Folder != "NPB3.3-MPI" && p.Name != "cloverleaf"
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			if p.Counters.Build == "" {
				t.Skipf("%s: the manifest gives no build with counters", p.Name)
			}
			if why := countsUnmeasured[p.Name]; why != "" {
				t.Skipf("%s: not compared: %s", p.Name, why)
			}
			c, err := corpora.Open(t, p, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			var b *sweep.Build
			var cfg *sweep.Config
			// The least and largest process counts: NPB 3.3's oracle, on
			// the same algorithms, runs the ones between.
			for _, np := range p.ProcsEnds() {
				manifestCountsAt(t, c, np, &cfg, &b)
			}
		})
	}
	t.Logf("manifest counts oracle: %v", time.Since(start).Round(time.Second))
}

// manifestCountsAt checks c's counts at np processes. The build (*b, with
// its configuration *cfg) is made once, or again at each np when the
// program's configure step takes the process count.
func manifestCountsAt(t *testing.T, c *corpora.Copy, np int, cfg **sweep.Config, b **sweep.Build) {
	t.Helper()
	label := fmt.Sprintf("%s P=%d", c.Name, np)
	if c.Program.Configure != "" {
		if err := c.Configure(np, ""); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if strings.Contains(c.Program.Configure, "{P}") {
			*b = nil
		}
	}
	files, err := c.Sources()
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	defines := c.DefineMap()
	prog, diags := fortran.ParseFiles(files, fortran.Config{IncludeDirs: c.Includes(), Defines: defines})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%s: parse: %v", label, d)
		}
	}
	// The run's folder, with its deck: the analysis reads it there.
	runDir := t.TempDir()
	var inputs []sweep.InputFile
	if deck := countsDecks[c.Name]; deck != nil {
		name, text := deck(np)
		if err := os.WriteFile(filepath.Join(runDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = []sweep.InputFile{{Name: name, Template: text}}
	} else if c.Program.Deck != "" {
		text, err := os.ReadFile(filepath.Join(c.Dir, c.Program.Deck))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(runDir, c.Program.Deck), text, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = []sweep.InputFile{{Name: c.Program.Deck, Template: string(text)}}
	}
	var args []string
	if c.Args != "" {
		args = strings.Fields(c.Args)
	}
	point := map[string]int64{cost.Size: int64(np)}
	rep, err := cost.AnalyzeAt(prog, cost.Options{Dir: runDir, Args: args}, point)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if *b == nil {
		build, err := c.CountersBuild()
		if err != nil {
			t.Fatal(err)
		}
		*cfg = &sweep.Config{
			Prog: prog, Files: files,
			Options: instrument.Options{BodyCounters: true, IncludeDirs: c.Includes()},
			Build:   build, Launcher: strings.TrimSpace(e2e.MPILauncher + " " + c.Args),
			Dir: t.TempDir(), Timeout: 5 * time.Minute, Env: e2e.MPIEnv(t),
		}
		if *b, err = (*cfg).Compile(nil); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
	}
	(*cfg).InputFiles = inputs
	run := (*cfg).Run(*b, sweep.Point{P: np}, 0, filepath.Join((*cfg).Dir, fmt.Sprint("run-P", np)), "counts")
	if run.Err != nil {
		t.Fatalf("%s: %v\n%s%s", label, run.Err, run.Stdout, run.Stderr)
	}
	byNode := recordsByNode(run.Records)
	measured, err := measureData(rep, point, byNode)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if len(measured) > 0 {
		t.Logf("%s: values of the data measured on rank 0: %v", label, measured)
	}
	dataSyms := map[string]bool{}
	for _, q := range rep.Params {
		if q.Origin == cost.FromUnresolved || q.Origin == cost.FromTripCount {
			dataSyms[q.Name] = true
		}
	}
	for k, v := range measured {
		point[k] = v
	}
	pt, err := rep.At(point)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	data := countsOracle(t, c.Name, np, rep, pt, byNode, dataSyms)
	if want := countsDataNests[c.Name]; len(data) > want {
		t.Errorf("%s: %d hot loop nests depend on data, %d expected", label, len(data), want)
	}
}
