package membench

import "testing"

// TestHeld recovers the capacity from times the hit-ratio model gives
// (the oracle: miss - (miss-near)·c/s, evaluated here), and refuses
// times that do not fall with the size.
func TestHeld(t *testing.T) {
	const near, miss, mib = 1.1e-9, 12e-9, 1 << 20
	at := func(c, s float64) float64 { return miss - (miss-near)*c/s }
	for _, c := range []float64{4 * mib, 13 * mib, 32 * mib} {
		s1, s2 := 32.0*mib, 128.0*mib
		got := held(near, at(c, s1), at(c, s2), s1, s2)
		if float64(got) != c {
			t.Errorf("c = %v: held %d", c, got)
		}
	}
	if got := held(near, 10e-9, 9e-9, 32*mib, 128*mib); got != 0 {
		t.Errorf("times that rise as the size falls: held %d, want 0", got)
	}
	if got := held(near, 10e-9, 10e-9, 32*mib, 128*mib); got != 0 {
		t.Errorf("equal times: held %d, want 0", got)
	}
}
