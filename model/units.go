package model

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/mkvet/mkvet/symbolic"
)

// dim is the physical dimension of a quantity in a profile.
type dim int

const (
	dimTime        dim = iota + 1 // seconds
	dimBytes                      // bytes
	dimTimePerByte                // seconds per byte
	dimRate                       // bytes per second
)

func (d dim) String() string {
	switch d {
	case dimTime:
		return `a time such as "2.15us"`
	case dimBytes:
		return `a size such as "64KiB"`
	case dimTimePerByte, dimRate:
		return `a time per byte such as "0.5ns/B" or a bandwidth such as "30MB/s"`
	}
	return "a quantity"
}

// Unit scales, exact. Decimal prefixes are powers of ten (KB = 1000 B, as
// network bandwidths are quoted); binary prefixes are powers of two (KiB =
// 1024 B).
var (
	timeUnits = map[string]symbolic.Rat{
		"s":  symbolic.RatInt(1),
		"ms": symbolic.RatFrac(1, 1e3),
		"us": symbolic.RatFrac(1, 1e6),
		"µs": symbolic.RatFrac(1, 1e6), // U+00B5 MICRO SIGN
		"μs": symbolic.RatFrac(1, 1e6), // U+03BC GREEK SMALL LETTER MU
		"ns": symbolic.RatFrac(1, 1e9),
		"ps": symbolic.RatFrac(1, 1e12),
	}
	sizeUnits = map[string]symbolic.Rat{
		"B": symbolic.RatInt(1), "byte": symbolic.RatInt(1), "bytes": symbolic.RatInt(1),
		"kB": symbolic.RatInt(1e3), "KB": symbolic.RatInt(1e3), "MB": symbolic.RatInt(1e6), "GB": symbolic.RatInt(1e9), "TB": symbolic.RatInt(1e12),
		"KiB": symbolic.RatInt(1 << 10), "MiB": symbolic.RatInt(1 << 20), "GiB": symbolic.RatInt(1 << 30), "TiB": symbolic.RatInt(1 << 40),
		// Bits, for bandwidths quoted as "2Gb/s".
		"b": symbolic.RatFrac(1, 8), "bit": symbolic.RatFrac(1, 8),
		"kb": symbolic.RatFrac(1e3, 8), "Kb": symbolic.RatFrac(1e3, 8), "Mb": symbolic.RatFrac(1e6, 8), "Gb": symbolic.RatFrac(1e9, 8),
		"kbit": symbolic.RatFrac(1e3, 8), "Kbit": symbolic.RatFrac(1e3, 8), "Mbit": symbolic.RatFrac(1e6, 8), "Gbit": symbolic.RatFrac(1e9, 8),
	}
)

// maxExponent bounds the decimal exponent of a number in a quantity.
const maxExponent = 300

// parseQuantity reads a decimal number followed by an optional space and a
// unit ("2.15us", "9.11 us", "30MB/s", "0.25ns/B", "64KiB") into an exact
// value in base units (seconds, bytes, seconds per byte, bytes per second)
// and its dimension. The number is read exactly: "2.15us" is 215/10^8 s.
func parseQuantity(s string) (symbolic.Rat, dim, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || t[i] == '+' || t[i] == '-' ||
		(t[i] == 'e' || t[i] == 'E') && i+1 < len(t) && (t[i+1] >= '0' && t[i+1] <= '9' || t[i+1] == '-' || t[i+1] == '+')) {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	if num == "" {
		return symbolic.Rat{}, 0, fmt.Errorf("%q does not start with a number", s)
	}
	if len(num) > 100 {
		return symbolic.Rat{}, 0, fmt.Errorf("number %.20q... is too long", num)
	}
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		// big.Rat would build 10^exp exactly: bound it.
		if exp, err := strconv.Atoi(num[i+1:]); err != nil || exp > maxExponent || exp < -maxExponent {
			return symbolic.Rat{}, 0, fmt.Errorf("bad number %q (exponents go to ±%d)", num, maxExponent)
		}
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return symbolic.Rat{}, 0, fmt.Errorf("bad number %q", num)
	}
	v := symbolic.RatBig(r)
	if unit == "" {
		return symbolic.Rat{}, 0, fmt.Errorf("%q has no unit", s)
	}
	if u, ok := timeUnits[unit]; ok {
		return v.Mul(u), dimTime, nil
	}
	if u, ok := sizeUnits[unit]; ok {
		return v.Mul(u), dimBytes, nil
	}
	if num, den, ok := strings.Cut(unit, "/"); ok {
		num, den = strings.TrimSpace(num), strings.TrimSpace(den)
		if tu, ok := timeUnits[num]; ok {
			if su, ok := sizeUnits[den]; ok {
				return v.Mul(tu).Quo(su), dimTimePerByte, nil
			}
		}
		if su, ok := sizeUnits[num]; ok {
			if tu, ok := timeUnits[den]; ok {
				return v.Mul(su).Quo(tu), dimRate, nil
			}
		}
	}
	return symbolic.Rat{}, 0, fmt.Errorf("unknown unit %q in %q", unit, s)
}

// parseAs reads s as a quantity of dimension want. A bandwidth is accepted
// where a time per byte is wanted and inverted exactly (30MB/s is 1/30 us/B).
// Negative values are refused: no cost in a profile is negative.
func parseAs(s string, want dim) (symbolic.Rat, error) {
	v, d, err := parseQuantity(s)
	if err != nil {
		return v, err
	}
	if want == dimTimePerByte && d == dimRate {
		if v.Sign() <= 0 {
			return v, fmt.Errorf("bandwidth %q is not positive", s)
		}
		v, d = v.Inv(), dimTimePerByte
	}
	if d != want {
		return v, fmt.Errorf("%q is not %s", s, want)
	}
	if v.Sign() < 0 {
		return v, fmt.Errorf("%q is negative", s)
	}
	return v, nil
}

// ParseDuration reads a time with its unit ("2.15us", "9.11 us", "1.5ms",
// "250ns"; s, ms, us, µs, ns, ps) exactly, in seconds.
func ParseDuration(s string) (symbolic.Rat, error) { return parseAs(s, dimTime) }

// ParseBytes reads a size with its unit ("16383B", "64KiB", "1MB"; B, KB =
// 10^3 B, MB, GB, KiB = 2^10 B, MiB, GiB; b and bit are bits) exactly, in
// bytes.
func ParseBytes(s string) (symbolic.Rat, error) { return parseAs(s, dimBytes) }

// ParsePerByte reads a transfer cost in seconds per byte, given either as a
// time per size ("0.372917us/B")
// or as a bandwidth ("30MB/s", "2Gb/s"), which is inverted exactly.
func ParsePerByte(s string) (symbolic.Rat, error) { return parseAs(s, dimTimePerByte) }

// FormatDuration prints seconds in the largest unit (s, ms, us, ns, ps) that
// gives a value of at least 1, exactly when the value is a terminating
// decimal in that unit and with 9 significant digits otherwise. ParseDuration
// reads the result back; exact inputs come back equal.
func FormatDuration(sec symbolic.Rat) string {
	return formatScaled(sec, []unitScale{{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}, {"ps", 1e12}})
}

// FormatPerByte prints seconds per byte as a time per byte ("0.5ns/B"),
// choosing the unit as FormatDuration does, or as a bandwidth ("30MB/s")
// when only that form is exact. ParsePerByte reads either back.
func FormatPerByte(secPerByte symbolic.Rat) string {
	perByte := []unitScale{{"s/B", 1}, {"ms/B", 1e3}, {"us/B", 1e6}, {"ns/B", 1e9}, {"ps/B", 1e12}}
	if secPerByte.Sign() > 0 && !terminating(secPerByte) && terminating(secPerByte.Inv()) {
		bw := secPerByte.Inv()
		u := unitScale{"B/s", 1}
		for _, c := range []unitScale{{"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}} {
			if bw.Cmp(symbolic.RatInt(c.scale)) >= 0 {
				u = c
				break
			}
		}
		return formatDecimal(bw.Quo(symbolic.RatInt(u.scale))) + u.name
	}
	return formatScaled(secPerByte, perByte)
}

// terminating reports whether r is a decimal fraction with at most 24
// digits after the point.
func terminating(r symbolic.Rat) bool {
	d := new(big.Int).Set(r.Den())
	for _, f := range []int64{2, 5} {
		for n := 0; n < 24; n++ {
			q, m := new(big.Int).QuoRem(d, big.NewInt(f), new(big.Int))
			if m.Sign() != 0 {
				break
			}
			d = q
		}
	}
	return d.Cmp(big.NewInt(1)) == 0
}

type unitScale struct {
	name  string
	scale int64
}

func formatScaled(v symbolic.Rat, units []unitScale) string {
	if v.IsZero() {
		return "0" + units[0].name
	}
	u := units[len(units)-1]
	{
		for _, c := range units {
			if v.Abs().Mul(symbolic.RatInt(c.scale)).Cmp(symbolic.RatInt(1)) >= 0 {
				u = c
				break
			}
		}
	}
	return formatDecimal(v.Mul(symbolic.RatInt(u.scale))) + u.name
}

// formatDecimal prints r exactly when it is a terminating decimal with at
// most 12 fraction digits, else rounded to 9 significant digits.
func formatDecimal(r symbolic.Rat) string {
	b := r.Big()
	for digits := 0; digits <= 12; digits++ {
		scaled := new(big.Rat).Mul(b, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)))
		if scaled.IsInt() {
			return b.FloatString(digits)
		}
	}
	f, _ := b.Float64()
	s := fmt.Sprintf("%.9g", f)
	return strings.TrimRightFunc(s, unicode.IsSpace)
}
