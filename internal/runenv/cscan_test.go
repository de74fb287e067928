package runenv

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// TestScanC: sscanf's value and items on the forms settings files take.
func TestScanC(t *testing.T) {
	for _, tc := range []struct {
		format, text string
		result       int
		items        []string // each item's text, or its value for %n
	}{
		{"%d", "42", 1, []string{"42"}},
		{"%d %d", "  7\t-3 9", 2, []string{"7", "-3"}},
		{"%31s = %lf", "dt = 0.25\n", 2, []string{"dt", "0.25"}},
		{" %31[a-z_] = %31s", "  n_x=10\n", 2, []string{"n_x", "10"}},
		{"%s = %d", "# comment\n", 1, []string{"#"}},
		{"%d", "", -1, nil},
		{"%d", "   \n", -1, nil},
		{"%d", "x", 0, nil},
		{"%d,%d", "3;4", 1, []string{"3"}},
		{"%d,%d", "3,", 1, []string{"3"}},
		{"%*d %d", "1 2", 1, []string{"2"}},
		{"%3d%d", "12345", 2, []string{"123", "45"}},
		{"%i %i %i", "0x1f 017 -9", 3, []string{"0x1f", "017", "-9"}},
		{"%c%c", "a b", 2, []string{"a", " "}},
		{"%d%n", "12 ", 1, []string{"12", "2"}},
		{"%[^=]=%s", "key=val", 2, []string{"key", "val"}},
		{"%%%d", " %5", 1, []string{"5"}},
		{"%le", "1e3x", 1, []string{"1e3"}},
	} {
		items, result, _, ok := ScanC(tc.format, tc.text)
		if !ok {
			t.Errorf("sscanf(%q, %q): not followed", tc.text, tc.format)
			continue
		}
		var got []string
		for _, it := range items {
			if it.Conv == 'n' {
				got = append(got, strconv.FormatInt(it.Int, 10))
			} else {
				got = append(got, it.Text)
			}
		}
		if result != tc.result || strings.Join(got, "|") != strings.Join(tc.items, "|") {
			t.Errorf("sscanf(%q, %q) = %d %q, want %d %q", tc.text, tc.format, result, got, tc.result, tc.items)
		}
	}
}

// TestScanCAgainstLibc runs random formats over random texts through the
// C library's sscanf and ScanC: the value, and every item assigned, must
// agree wherever ScanC follows the scan (it says where it does not).
func TestScanCAgainstLibc(t *testing.T) {
	e2e.Require(t, "cc")
	r := rand.New(rand.NewPCG(11, 5))
	convs := []string{"%lld", "%lli", "%llu", "%llx", "%llo", "%lf", "%le", "%s", "%4s", "%c", "%2c",
		"%[a-z]", "%[^,=]", "%*lld", "%*s", "%3lld"}
	lits := []string{" ", ",", "=", "x", "%%", " = "}
	alphabet := "0123456789     -+.eEx,=az\t%"
	type tcase struct{ format, text string }
	var cases []tcase
	for len(cases) < 3000 {
		var f strings.Builder
		for range 1 + r.IntN(4) {
			if r.IntN(3) == 0 {
				f.WriteString(lits[r.IntN(len(lits))])
			}
			f.WriteString(convs[r.IntN(len(convs))])
		}
		var s strings.Builder
		for range r.IntN(12) {
			s.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		cases = append(cases, tcase{f.String(), s.String()})
	}
	// The C program: per case, sscanf into items of the conversions'
	// types, then the value and each assigned item on one line.
	var c strings.Builder
	c.WriteString("#include <stdio.h>\n#include <string.h>\nint main(void) {\n")
	c.WriteString("  long long i[8]; double d[8]; char s[8][64]; int r;\n")
	kinds := make([][]byte, len(cases))
	for k, tc := range cases {
		var args []string
		var ks []byte
		for _, it := range scanConvs(tc.format) {
			n := len(ks)
			switch it {
			case 'i':
				args = append(args, fmt.Sprintf("&i[%d]", n))
			case 'f':
				args = append(args, fmt.Sprintf("&d[%d]", n))
			default:
				args = append(args, fmt.Sprintf("s[%d]", n))
			}
			ks = append(ks, it)
		}
		kinds[k] = ks
		fmt.Fprintf(&c, "  memset(s, 0, sizeof s); r = sscanf(%s, %s%s);\n", strconv.Quote(tc.text), strconv.Quote(tc.format),
			strings.Join(append([]string{""}, args...), ", "))
		fmt.Fprintf(&c, "  printf(\"%%d\", r);\n")
		for n, it := range ks {
			fmt.Fprintf(&c, "  if (r > %d) ", n)
			switch it {
			case 'i':
				fmt.Fprintf(&c, "printf(\" %%lld\", i[%d]);\n", n)
			case 'f':
				fmt.Fprintf(&c, "printf(\" %%.17g\", d[%d]);\n", n)
			default:
				fmt.Fprintf(&c, "printf(\" [%%s]\", s[%d]);\n", n)
			}
		}
		c.WriteString("  printf(\"\\n\");\n")
	}
	c.WriteString("  return 0;\n}\n")
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "scan.c"), filepath.Join(dir, "scan")
	if err := os.WriteFile(src, []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cc", "-O0", "-w", "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d lines from the C program, want %d", len(lines), len(cases))
	}
	followed := 0
	for k, tc := range cases {
		items, result, _, ok := ScanC(tc.format, tc.text)
		if !ok {
			continue
		}
		followed++
		var b strings.Builder
		fmt.Fprintf(&b, "%d", result)
		for n, it := range items {
			switch kinds[k][n] {
			case 'i':
				fmt.Fprintf(&b, " %d", it.Int)
			case 'f':
				f, _ := it.Real.Float64()
				fmt.Fprintf(&b, " %s", strconv.FormatFloat(f, 'g', 17, 64))
			default:
				fmt.Fprintf(&b, " [%s]", it.Text)
			}
		}
		if got, want := b.String(), lines[k]; got != normFloats(want) {
			t.Errorf("sscanf(%q, %q): ScanC %q, C library %q", tc.text, tc.format, got, want)
		}
	}
	if followed < len(cases)*8/10 {
		t.Errorf("ScanC followed %d of %d scans; the test wants most", followed, len(cases))
	}
	t.Logf("%d of %d random scans followed and equal to the C library's", followed, len(cases))
}

// scanConvs is the kind of each assigned conversion of a test format:
// 'i' integer, 'f' floating, 's' text (the formats the test makes).
func scanConvs(format string) []byte {
	var out []byte
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if format[i] == '%' {
			continue
		}
		suppress := format[i] == '*'
		for i < len(format) && strings.IndexByte("*0123456789l", format[i]) >= 0 {
			i++
		}
		k := byte('s')
		switch format[i] {
		case 'd', 'i', 'u', 'x', 'o':
			k = 'i'
		case 'f', 'e':
			k = 'f'
		case '[':
			for i < len(format) && format[i] != ']' || format[i-1] == '[' || format[i-1] == '^' {
				i++
			}
		}
		if !suppress {
			out = append(out, k)
		}
	}
	return out
}

// normFloats writes the C library's %.17g as Go's 'g' with 17 digits does.
func normFloats(line string) string {
	fs := strings.Split(line, " ")
	for i, f := range fs {
		if i == 0 || strings.HasPrefix(f, "[") {
			continue
		}
		if strings.ContainsAny(f, ".e") {
			if x, err := strconv.ParseFloat(f, 64); err == nil {
				fs[i] = strconv.FormatFloat(x, 'g', 17, 64)
			}
		}
	}
	return strings.Join(fs, " ")
}

// FuzzScanC: any format over any text scans without a panic, within the
// text, and sscanf's value counts the items assigned (%n's aside).
func FuzzScanC(f *testing.F) {
	for _, s := range [][2]string{{"%d", "42"}, {" %31[a-z_] = %31s", "nx = 10\n"}, {"%*s%lf%n", "a 1e3"},
		{"%[^]x]", "]]x"}, {"%i%c%3c", "0x1fzab"}, {"%%%s", "%%"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, format, text string) {
		items, result, used, ok := ScanC(format, text)
		if !ok {
			return
		}
		if used < 0 || used > len(text) {
			t.Fatalf("sscanf(%q, %q): %d characters consumed of %d", text, format, used, len(text))
		}
		assigned := 0
		for _, it := range items {
			if it.Conv != 'n' {
				assigned++
			}
			if it.Conv == 'f' && it.Real == nil {
				t.Fatalf("sscanf(%q, %q): a floating item without its value", text, format)
			}
		}
		if result != assigned && !(result == -1 && assigned == 0) {
			t.Fatalf("sscanf(%q, %q) = %d with %d items assigned", text, format, result, assigned)
		}
	})
}
