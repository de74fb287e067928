package cost_test

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// TestTransfersAgainstExecution checks Report.Transfers, the per-transfer
// counts the costing keeps for the phase analysis, against an execution of
// the APT: at each P, for every point-to-point Comm node, the messages and
// bytes of its send-side transfers, summed per rank, equal what the
// interpreter sends there. Each program needs no value but P, and each
// sends point to point at every P > 1 (a missing value or no send compared
// fails the test, so it cannot pass by comparing nothing); they include a
// neighbour search and a hand-built grid whose transfers are counted rank
// class by rank class.
func TestTransfersAgainstExecution(t *testing.T) {
	for _, name := range []string{"neighbours.f", "shift.f", "pipeline.f", "atm2d.f90", "lu_wavefront.f"} {
		prog := parseProgram(t, name)
		for _, np := range []int64{1, 2, 4, 6, 16} {
			env := map[string]int64{cost.Size: np}
			rep, err := cost.Analyze(prog, cost.Options{Values: env})
			if err != nil {
				t.Fatalf("%s P=%d: %v", name, np, err)
			}
			if m := rep.MissingParams(env); len(m) > 0 {
				// Each program is chosen to need nothing but P.
				t.Fatalf("%s P=%d: no value for %v", name, np, m)
			}
			tcs, err := rep.Transfers()
			if err != nil {
				t.Errorf("%s P=%d: %v", name, np, err)
			}
			at := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(np)}
			for _, q := range rep.Params {
				if q.Value != nil {
					at[q.Name] = symbolic.RatInt(*q.Value)
				}
			}
			checked := 0
			for rank := int64(0); rank < np; rank++ {
				got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank})
				if err != nil {
					t.Fatalf("%s P=%d rank %d: %v", name, np, rank, err)
				}
				at[cost.Rank] = symbolic.RatInt(rank)
				msgs, bytes := map[string]int64{}, map[string]int64{}
				known := map[string]bool{}
				for _, tc := range tcs {
					if !tc.Send {
						continue
					}
					id := tc.Occ.Node.Base().ID
					m, err := tc.Messages.Eval(at)
					if err != nil || !m.IsInt() {
						t.Fatalf("%s P=%d rank %d: %s: messages %s: %v", name, np, rank, id, tc.Messages, err)
					}
					n, _ := m.Int64()
					msgs[id] += n
					known[id] = true
					if tc.Bytes != nil {
						b, err := tc.Volume.Eval(at)
						if err != nil || !b.IsInt() {
							t.Fatalf("%s P=%d rank %d: %s: volume %s: %v", name, np, rank, id, tc.Volume, err)
						}
						v, _ := b.Int64()
						bytes[id] += v
					}
				}
				for id, want := range got.Msgs {
					c, ok := nodeByID(rep, id).(*apt.Comm)
					if !ok || c.Op.IsCollective() || c.Send == nil {
						continue
					}
					if msgs[id] != want {
						t.Errorf("%s P=%d rank %d: %s: transfers send %d messages, the execution %d", name, np, rank, id, msgs[id], want)
					}
					if b := got.Bytes[id]; known[id] && bytes[id] != b {
						t.Errorf("%s P=%d rank %d: %s: transfers send %d bytes, the execution %d", name, np, rank, id, bytes[id], b)
					}
					checked++
				}
			}
			if np > 1 && checked == 0 {
				t.Errorf("%s P=%d: no point-to-point send was compared", name, np)
			}
		}
	}
}

// nodeByID returns the APT node of the report with the given ID, nil when
// the report has none.
func nodeByID(rep *cost.Report, id string) apt.Node {
	if n := rep.ByID[id]; n != nil {
		return n.Node
	}
	return nil
}
