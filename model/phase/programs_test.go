package phase

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// newPrograms are the testdata programs written for the phase analysis,
// with parameter values valid at P = 1..8 (840 divides by 1..8).
var newPrograms = []struct {
	file   string
	params map[string]int64
}{
	{"pge2.f", map[string]int64{"n": 840, "nrhs": 3}},
	{"pge1_solve.f", map[string]int64{"n": 840, "nrhs": 3}},
	{"pipe_block.f", map[string]int64{"n": 840, "k": 8}},
}

// TestProgramsRun runs every rank of the new programs with the APT
// interpreter at P = 1..8 and checks the costed report's per-rank counts,
// messages and bytes against the execution, and that every message sent
// point to point is received.
func TestProgramsRun(t *testing.T) {
	for _, np := range newPrograms {
		t.Run(np.file, func(t *testing.T) {
			prog := parse(t, np.file)
			rep, err := cost.Analyze(prog, cost.Options{})
			if err != nil {
				t.Fatal(err)
			}
			recvs := map[string]bool{}
			apt.Inspect(prog, func(n apt.Node) bool {
				if c, ok := n.(*apt.Comm); ok && (c.Op == apt.MPIRecv || c.Op == apt.MPIIrecv || c.Op == apt.MPISendrecv) {
					recvs[c.ID] = true
				}
				return true
			})
			for p := int64(1); p <= 8; p++ {
				env := map[string]int64{cost.Size: p}
				for k, v := range np.params {
					env[k] = v
				}
				pt, err := rep.At(env)
				if err != nil {
					t.Fatalf("P=%d: %v", p, err)
				}
				var sent, received int64
				for rank := int64(0); rank < p; rank++ {
					got, err := aptrun.Run(prog, aptrun.Config{P: p, Rank: rank, Params: np.params})
					if err != nil {
						t.Fatalf("P=%d rank %d: %v", p, rank, err)
					}
					for _, n := range rep.Nodes {
						id := n.Node.Base().ID
						v := pt.Nodes[n]
						check := func(what string, want int64, pred float64) {
							if pred != float64(want) {
								t.Errorf("P=%d rank %d %s %s: predicted %v, executed %d", p, rank, id, what, pred, want)
							}
						}
						check("count", got.Exec[id], v.Count.PerRank[rank])
						if n.Comm != nil {
							check("messages", got.Msgs[id], v.Messages.PerRank[rank])
							check("bytes", got.Bytes[id], v.BytesSent.PerRank[rank])
							if !n.Comm.Op.IsCollective() {
								sent += got.Msgs[id]
							}
							if recvs[id] {
								r, err := n.Comm.Received.Eval(ratEnv(pt.Env, rank))
								if err != nil {
									t.Fatal(err)
								}
								k, _ := r.Int64()
								received += k
							}
						}
					}
				}
				if sent != received {
					t.Errorf("P=%d: %d messages sent, %d received", p, sent, received)
				}
			}
		})
	}
}

// TestProgramsCompile checks the new programs with the MPI compiler.
func TestProgramsCompile(t *testing.T) {
	tools := e2e.Require(t, "mpif90")
	for _, np := range newPrograms {
		out, err := exec.Command(tools[0], "-fsyntax-only", filepath.Join(programs, np.file)).CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", np.file, err, out)
		}
	}
}

func ratEnv(env map[string]int64, rank int64) map[string]symbolic.Rat {
	out := map[string]symbolic.Rat{}
	for k, v := range env {
		out[k] = symbolic.RatInt(v)
	}
	out[cost.Rank] = symbolic.RatInt(rank)
	return out
}
