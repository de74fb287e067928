package model

import (
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

func TestParseQuantities(t *testing.T) {
	tests := []struct {
		in    string
		parse func(string) (symbolic.Rat, error)
		want  symbolic.Rat
	}{
		{"2.15us", ParseDuration, symbolic.RatFrac(215, 100_000_000)},
		{"9.11 us", ParseDuration, symbolic.RatFrac(911, 100_000_000)},
		{"9.11µs", ParseDuration, symbolic.RatFrac(911, 100_000_000)},
		{"9.11μs", ParseDuration, symbolic.RatFrac(911, 100_000_000)},
		{"120us", ParseDuration, symbolic.RatFrac(120, 1_000_000)},
		{"1.5ms", ParseDuration, symbolic.RatFrac(3, 2000)},
		{"0.5ns", ParseDuration, symbolic.RatFrac(1, 2_000_000_000)},
		{"1e-6s", ParseDuration, symbolic.RatFrac(1, 1_000_000)},
		{"2.0e-2us", ParseDuration, symbolic.RatFrac(2, 100_000_000)},
		{"0s", ParseDuration, symbolic.RatInt(0)},
		{"16383B", ParseBytes, symbolic.RatInt(16383)},
		{"64KiB", ParseBytes, symbolic.RatInt(65536)},
		{"4MiB", ParseBytes, symbolic.RatInt(4 << 20)},
		{"1.4KB", ParseBytes, symbolic.RatInt(1400)},
		{"30MB/s", ParsePerByte, symbolic.RatFrac(1, 30_000_000)},
		{"2Gb/s", ParsePerByte, symbolic.RatFrac(1, 250_000_000)},
		{"12.5 GB/s", ParsePerByte, symbolic.RatFrac(1, 12_500_000_000)},
		{"0.372917us/B", ParsePerByte, symbolic.RatFrac(372917, 1_000_000_000_000)},
		{"4ns/byte", ParsePerByte, symbolic.RatFrac(4, 1_000_000_000)},
	}
	for _, tt := range tests {
		got, err := tt.parse(tt.in)
		if err != nil || got.Cmp(tt.want) != 0 {
			t.Errorf("parse %q = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseQuantityErrors(t *testing.T) {
	tests := []struct {
		in    string
		parse func(string) (symbolic.Rat, error)
		want  string
	}{
		{"", ParseDuration, `"" does not start with a number`},
		{"us", ParseDuration, `"us" does not start with a number`},
		{"2.15", ParseDuration, `"2.15" has no unit`},
		{"2.15 furlongs", ParseDuration, `unknown unit "furlongs" in "2.15 furlongs"`},
		{"1..2us", ParseDuration, `bad number "1..2"`},
		{"-3us", ParseDuration, `"-3us" is negative`},
		{"64KiB", ParseDuration, `"64KiB" is not a time such as "2.15us"`},
		{"3us", ParseBytes, `"3us" is not a size such as "64KiB"`},
		{"3us", ParsePerByte, `"3us" is not a time per byte such as "0.5ns/B" or a bandwidth such as "30MB/s"`},
		{"0MB/s", ParsePerByte, `bandwidth "0MB/s" is not positive`},
		{"3us/s", ParsePerByte, `unknown unit "us/s" in "3us/s"`},
	}
	for _, tt := range tests {
		_, err := tt.parse(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("parse %q: error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestFormatQuantities(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{FormatDuration(symbolic.RatFrac(215, 100_000_000)), "2.15us"},
		{FormatDuration(symbolic.RatInt(0)), "0s"},
		{FormatDuration(symbolic.RatFrac(3, 2)), "1.5s"},
		{FormatDuration(symbolic.RatFrac(1, 3_000_000)), "333.333333ns"},
		{FormatPerByte(symbolic.RatFrac(1, 30_000_000)), "30MB/s"},
		{FormatPerByte(symbolic.RatFrac(47, 80_000_000)), "587.5ns/B"},
		{FormatPerByte(symbolic.RatFrac(1, 12_500_000_000)), "80ps/B"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
