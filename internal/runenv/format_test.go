package runenv

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

// TestFormattedRead: fields by width, the rightmost characters of a wide
// A field, implied decimals, blanks in numbers, positioning, slashes,
// reversion to the last group, and the record the next READ starts at,
// each worked out from Fortran 2008 10.4-10.8.
func TestFormattedRead(t *testing.T) {
	recs := []string{
		"  12ab  cd 3.5",
		"   125 1.5-2 T",
		"x",
		"1 2",
		"3 4",
	}
	type want struct {
		vals []string // the fields' values, formatted by kind
		next int
		ok   bool
	}
	ch := func(n int) Item { return Item{Kind: KindCharacter, Len: n} }
	in, re, lg := Item{Kind: KindInteger}, Item{Kind: KindReal}, Item{Kind: KindLogical}
	for _, c := range []struct {
		format string
		from   int
		items  []Item
		want   want
	}{
		{"(I4,A2,2X,A2,F4.1)", 1, []Item{in, ch(2), ch(3), re}, want{[]string{"12", "ab", "cd ", "7/2"}, 2, true}},
		{"(a)", 1, []Item{ch(6)}, want{[]string{"  12ab"}, 2, true}},
		{"(A100)", 1, []Item{ch(4)}, want{[]string{"    "}, 2, true}}, // the rightmost 4 of 100: padding
		{"(i6, f6.2, l2)", 2, []Item{in, re, lg}, want{[]string{"125", "3/200", "true"}, 3, true}},
		{"(f6.2)", 2, []Item{re}, want{[]string{"5/4"}, 3, true}}, // "   125": implied decimals
		{"(T5,A2,TL4,I2)", 1, []Item{ch(2), in}, want{[]string{"ab", "12"}, 2, true}},
		{"(I4/I6)", 1, []Item{in, in}, want{[]string{"12", "125"}, 3, true}},
		{"(I4/)", 1, []Item{in}, want{[]string{"12"}, 3, true}},                      // the slash consumes record 2
		{"(I1,(I2))", 4, []Item{in, in, in}, want{[]string{"1", "2", "3"}, 6, true}}, // reversion to (I2) on record 5
		{"(2I2)", 4, []Item{in, in, in, in}, want{[]string{"1", "2", "3", "4"}, 6, true}},
		{"(I4)", 3, []Item{in}, want{nil, 3, false}},                  // "x" is not an integer
		{"(I4)", 6, []Item{in}, want{nil, 6, false}},                  // past the end
		{"(A)", 1, nil, want{nil, 2, true}},                           // no items: skips the record
		{"(BZ,I6)", 4, []Item{in}, want{[]string{"102000"}, 5, true}}, // blanks are zeros
		{"(I2,:,I2)", 4, []Item{in}, want{[]string{"1"}, 5, true}},
		{"(3X)", 1, []Item{in}, want{nil, 2, false}}, // no data edit descriptor
	} {
		f, err := ParseFormat(c.format)
		if err != nil {
			t.Errorf("%s: %v", c.format, err)
			continue
		}
		vals, next, ok := FormattedRead(recs, c.from, f, c.items)
		var got []string
		for i, v := range vals {
			switch c.items[i].Kind {
			case KindInteger:
				got = append(got, big.NewInt(v.Int).String())
			case KindReal:
				got = append(got, v.Real.RatString())
			case KindLogical:
				got = append(got, map[bool]string{true: "true", false: "false"}[v.Bool])
			default:
				got = append(got, v.Str)
			}
		}
		if ok != c.want.ok || ok && (next != c.want.next || strings.Join(got, "|") != strings.Join(c.want.vals, "|")) {
			t.Errorf("%s from %d: %q next %d ok %v; want %q next %d ok %v", c.format, c.from, got, next, ok, c.want.vals, c.want.next, c.want.ok)
		}
	}
}

// TestParseFormatErrors: a format that cannot be read says where.
func TestParseFormatErrors(t *testing.T) {
	for _, c := range []struct {
		spec string
		off  int
	}{
		{"I5", 0}, {"(I5", 3}, {"(I)", 2}, {"(Q5)", 1}, {"('x)", 1}, {"(Z8)", 1}, {"(I5) x", 5}, {"(F8.)", 4},
		{"(99999999I2)", 1},
	} {
		_, err := ParseFormat(c.spec)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != c.off {
			t.Errorf("%q: %v, want an error at offset %d", c.spec, err, c.off)
		}
	}
}

// FuzzFormattedRead: no format and no records make the reader panic or
// loop without end; a format it refuses names an offset inside its text.
func FuzzFormattedRead(f *testing.F) {
	f.Add("(I4,A2,2X,A2,F4.1)", "  12ab  cd 3.5\n1 2", uint8(3))
	f.Add("(a100)", "hello", uint8(1))
	f.Add("(2(I2,:),/,T3,TL1,L2)", "1 2\n T", uint8(5))
	f.Add("(-2P,E10.3E2,BZ,ES8.2,G5.1,D6.1)", "1.0E+01", uint8(2))
	f.Fuzz(func(t *testing.T, spec, text string, n uint8) {
		fm, err := ParseFormat(spec)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > len(spec) {
				t.Fatalf("%q: error %v without an offset in the text", spec, err)
			}
			return
		}
		items := make([]Item, int(n%8))
		for i := range items {
			items[i] = Item{Kind: Kind(1 + (int(n)+i)%4), Len: i * 3}
		}
		recs := Records(text)
		vals, next, ok := FormattedRead(recs, 1, fm, items)
		if ok && (len(vals) != len(items) || next < 2 || next > len(recs)+2) {
			t.Fatalf("%q over %q: %d values for %d items, next %d of %d records", spec, text, len(vals), len(items), next, len(recs))
		}
	})
}

// TestFormattedWrite: the records a WRITE of character values makes, each
// worked out from Fortran 2008 10.4 and 10.7.4.
func TestFormattedWrite(t *testing.T) {
	for _, c := range []struct {
		format string
		vals   []string
		want   []string
		ok     bool
	}{
		{"(A)", []string{"hello"}, []string{"hello"}, true},
		{"(A)", []string{"a", "b"}, []string{"a", "b"}, true}, // reversion: a record each
		{"(A3,'|',A)", []string{"hello", "x"}, []string{"hel|x"}, true},
		{"(A8)", []string{"abc"}, []string{"     abc"}, true},
		{"('[',A,']')", []string{"q"}, []string{"[q]"}, true},
		{"(1X,A/A)", []string{"a", "b"}, []string{" a", "b"}, true},
		{"(A,T2,A)", []string{"xyz", "Q"}, []string{"xQz"}, true},
		{"(A,I5)", []string{"a", "b"}, nil, false},
		{"(A,:,' tail')", []string{"a"}, []string{"a"}, true},
		{"(A,' tail')", []string{"a"}, []string{"a tail"}, true},
		{"('only')", nil, []string{"only"}, true},
	} {
		f, err := ParseFormat(c.format)
		if err != nil {
			t.Errorf("%s: %v", c.format, err)
			continue
		}
		got, ok := FormattedWrite(f, c.vals)
		if ok != c.ok || ok && strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s of %q: %q %v, want %q %v", c.format, c.vals, got, ok, c.want, c.ok)
		}
	}
}
