package symeval

import (
	"fmt"
	"testing"
)

// TestFormatC checks formatC against Go's fmt, which formats the
// conversions it takes (%d, %i, %u, %c, %s with flags and widths) as C's
// printf does.
func TestFormatC(t *testing.T) {
	args := []any{int64(7), "Source", int64(-42), int64('S'), int64(3)}
	arg := func(k int, conv byte) (int64, string, bool) {
		if k >= len(args) {
			return 0, "", false
		}
		switch v := args[k].(type) {
		case int64:
			return v, "", conv != 's'
		case string:
			return 0, v, conv == 's'
		}
		return 0, "", false
	}
	for _, tc := range []struct{ format, want string }{
		{"Source.%d", ""},
		{"%d %s %i %c|%5d", "7 Source -42 S|    3"},
		{"%ld-%-8s|%03u", "7-Source  |-42"},
		{"100%% %d", "100% 7"},
	} {
		got, ok := formatC(tc.format, arg)
		if tc.want == "" {
			tc.want = fmt.Sprintf("Source.%d", 7)
		}
		if !ok || got != tc.want {
			t.Errorf("formatC(%q) = %q, %v; want %q", tc.format, got, ok, tc.want)
		}
	}
	for _, bad := range []string{"%f", "%d %d %d %d %d %d", "%", "%5"} {
		if got, ok := formatC(bad, arg); ok {
			t.Errorf("formatC(%q) = %q: want no value", bad, got)
		}
	}
}

// TestCAtoi checks cAtoi against the C library's rules: blanks, a sign,
// the digits up to the first other character.
func TestCAtoi(t *testing.T) {
	for in, want := range map[string]int64{"42": 42, "  -17x": -17, "+8": 8, "BH": 0, "": 0, "12 34": 12, "-": 0} {
		if got := cAtoi(in); got != want {
			t.Errorf("cAtoi(%q) = %d, want %d", in, got, want)
		}
	}
}

// FuzzFormatC: any format, a program's string literal, formats or is
// refused, never panics.
func FuzzFormatC(f *testing.F) {
	for _, s := range []string{"Source.%d", "%5.3ld|%-s%%", "%", "%c%c%c", "%.*d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		formatC(format, func(k int, conv byte) (int64, string, bool) {
			return int64(k) * 1000003, "x", k < 8
		})
	})
}
