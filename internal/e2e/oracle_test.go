package e2e

import (
	"slices"
	"testing"
)

// TestOracleProcs: every count and every size is run, the first size at
// every count.
func TestOracleProcs(t *testing.T) {
	ps := []int{1, 2, 3, 4}
	var got [][]int
	seen := map[int]bool{}
	for si := range 4 {
		got = append(got, OracleProcs(si, ps))
		for _, p := range got[si] {
			seen[p] = true
		}
	}
	want := [][]int{{1, 2, 3, 4}, {4}, {3}, {2}}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("size %d: %v, want %v", i, got[i], want[i])
		}
	}
	if len(seen) != len(ps) {
		t.Errorf("counts run: %v", seen)
	}
	if p := OracleProcs(2, []int{1}); !slices.Equal(p, []int{1}) {
		t.Errorf("serial: %v", p)
	}
}
