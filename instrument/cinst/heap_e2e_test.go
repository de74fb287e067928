package cinst_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
)

// TestHeapObjectsByRankE2E: heaplist.c's ranks draw shares of n = 37 that
// differ (10, 9, 9, 9 at P = 4), so its set-up loop is run rank by rank;
// the tree and list each rank's run builds on the heap must be the ones
// the walks after the loop follow. Before, the loop was not run rank by
// rank (its trip count cases on the rank), and where it was, the objects
// one rank made were forgotten when the ranks' states were joined: the
// walks' trip counts were asked for.
func TestHeapObjectsByRankE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	rep := analyzeProgramAt(t, "heaplist.c", map[string]int64{cost.Size: 4}, "37", "3")
	for _, p := range rep.Params {
		if p.Value == nil && !strings.HasPrefix(p.Name, "pct_") {
			t.Errorf("%s is asked for (%s)", p.Name, p.What)
		}
	}
}
