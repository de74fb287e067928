package apt

import (
	"reflect"
	"testing"
)

// TestLongOptionsRoundTrip: a table written as text reads back as itself;
// malformed text is refused.
func TestLongOptionsRoundTrip(t *testing.T) {
	opts := []LongOption{{"size", 1, "", 'n'}, {"verbose", 0, "main_verbose", 1}, {"opt", 2, "", -3}}
	got, ok := ParseLongOptions(FormatLongOptions(opts))
	if !ok || !reflect.DeepEqual(got, opts) {
		t.Errorf("round trip: %v %v", got, ok)
	}
	if got, ok := ParseLongOptions(""); !ok || len(got) != 0 || got == nil {
		t.Errorf("empty table: %v %v", got, ok)
	}
	for _, bad := range []string{"size\t1\tn\n", "size\tx\t\t110\n"} {
		if _, ok := ParseLongOptions(bad); ok {
			t.Errorf("%q read as a table", bad)
		}
	}
}
