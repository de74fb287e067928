package e2e

import "testing"

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv("MKVET_E2E", tc.val)
		if got := Enabled(); got != tc.want {
			t.Errorf("MKVET_E2E=%q: Enabled() = %v, want %v", tc.val, got, tc.want)
		}
	}
}

func TestRequireFound(t *testing.T) {
	// "go" runs this test, so it is on PATH.
	if p := Require(t, "go"); p[0] == "" {
		t.Fatal("Require returned an empty path for go")
	}
}
