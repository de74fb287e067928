package runenv_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/internal/runenv"
)

// formatCase is one random formatted READ: its items' types, its format
// and the file it reads.
type formatCase struct {
	items  []runenv.Item
	format string
	text   string
}

// randomField is a field of width w for an item of kind k, usually one its
// descriptor reads, sometimes not.
func randomField(rng *rand.Rand, k runenv.Kind, w int) string {
	var s string
	switch k {
	case runenv.KindInteger:
		s = strconv.Itoa(rng.IntN(20000) - 5000)
		if rng.IntN(6) == 0 {
			s = strings.Replace(s, "1", " ", 1) // a blank inside: ignored
		}
	case runenv.KindReal:
		s = []string{"3.25", "-0.5", "125", "1.5E2", "2.5-1", "7D-2", ".75", "-12", "1e1", ""}[rng.IntN(10)]
	case runenv.KindLogical:
		s = []string{"T", "F", ".TRUE.", ".false.", "t", "x"}[rng.IntN(6)]
	default:
		b := make([]byte, w)
		for i := range b {
			b[i] = "abcxyz 019-."[rng.IntN(12)]
		}
		return string(b)
	}
	if len(s) > w {
		s = s[:w]
	}
	if rng.IntN(2) == 0 {
		return strings.Repeat(" ", w-len(s)) + s // right-justified
	}
	return s + strings.Repeat(" ", w-len(s))
}

// randomFormatCase draws items, a format that reads them (descriptors of
// their types, widths, positioning, slashes, a repeated group that format
// reversion comes back to) and records laid out for it.
func randomFormatCase(rng *rand.Rand) formatCase {
	var c formatCase
	kinds := []runenv.Kind{runenv.KindInteger, runenv.KindReal, runenv.KindLogical, runenv.KindCharacter}
	for range 1 + rng.IntN(5) {
		it := runenv.Item{Kind: kinds[rng.IntN(4)]}
		if it.Kind == runenv.KindCharacter {
			it.Len = 1 + rng.IntN(12)
		}
		c.items = append(c.items, it)
	}
	var descs []string
	var lines []string
	var line strings.Builder
	// One descriptor per item, the last few of them in a group that the
	// items after it would revert to; every so often a second pass of the
	// group reads items the first did not.
	cut := rng.IntN(len(c.items))
	for i, it := range c.items {
		w := 1 + rng.IntN(9)
		var d string
		switch it.Kind {
		case runenv.KindInteger:
			d = "I" + strconv.Itoa(w)
		case runenv.KindReal:
			dd := rng.IntN(3)
			d = []string{"F", "E", "D", "G"}[rng.IntN(4)] + strconv.Itoa(w) + "." + strconv.Itoa(dd)
		case runenv.KindLogical:
			d = "L" + strconv.Itoa(w)
		default:
			switch rng.IntN(3) {
			case 0:
				d, w = "A", it.Len
			default:
				d = "A" + strconv.Itoa(w)
			}
		}
		if i == cut && rng.IntN(2) == 0 {
			descs = append(descs, "(")
		}
		switch rng.IntN(8) {
		case 0:
			n := 1 + rng.IntN(3)
			descs = append(descs, strconv.Itoa(n)+"X")
			line.WriteString(strings.Repeat("#", n))
		case 1:
			descs = append(descs, "/")
			lines = append(lines, line.String())
			line.Reset()
		case 2:
			descs = append(descs, "TR1")
			line.WriteString("?")
		}
		descs = append(descs, d)
		line.WriteString(randomField(rng, it.Kind, w))
	}
	if slices := strings.Join(descs, ","); strings.Contains(slices, "(") {
		c.format = "(" + strings.Replace(slices, "(,", "(", 1) + "))"
	} else {
		c.format = "(" + slices + ")"
	}
	if rng.IntN(10) == 0 {
		c.format = "(BZ," + c.format[1:]
	}
	lines = append(lines, line.String())
	// More records than the READ needs, sometimes fewer.
	for range rng.IntN(3) {
		lines = append(lines, randomField(rng, c.items[rng.IntN(len(c.items))].Kind, 8))
	}
	if rng.IntN(8) == 0 && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	c.text = strings.Join(lines, "\n") + "\n"
	return c
}

// formatValues is what runenv.FormattedRead says a case's items hold,
// printed as the test program prints them; "err" where the READ fails.
func formatValues(c formatCase) string {
	f, err := runenv.ParseFormat(c.format)
	if err != nil {
		return "bad format: " + err.Error()
	}
	vals, _, ok := runenv.FormattedRead(runenv.Records(c.text), 1, f, c.items)
	if !ok {
		return "err"
	}
	var out []string
	for i, v := range vals {
		switch c.items[i].Kind {
		case runenv.KindInteger:
			out = append(out, strconv.FormatInt(v.Int, 10))
		case runenv.KindReal:
			x, _ := v.Real.Float64()
			out = append(out, strconv.FormatInt(int64(math.Float64bits(x)), 10))
		case runenv.KindLogical:
			out = append(out, map[bool]string{true: "T", false: "F"}[v.Bool])
		default:
			out = append(out, "["+v.Str+"]")
		}
	}
	return strings.Join(out, " ")
}

// TestFormattedReadAgainstGfortranE2E checks runenv.FormattedRead, the
// formatted input mkvet evaluates, against gfortran's own reading of the
// same files under the same formats: 300 random READs of integer, real,
// logical and character items (a real printed as its bits, a negative
// zero as zero), each failing READ an error on both sides.
func TestFormattedReadAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	rng := rand.New(rand.NewPCG(41, 47))
	dir := t.TempDir()
	const n = 300
	var cases []formatCase
	var src strings.Builder
	src.WriteString("program formats\n")
	for k := range n {
		fmt.Fprintf(&src, "  call f%d\n", k)
	}
	src.WriteString("end program formats\n")
	for k := range n {
		c := randomFormatCase(rng)
		cases = append(cases, c)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d", k)), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&src, "subroutine f%d\n  integer :: ios\n  character(len=400) :: line\n", k)
		var items, prints []string
		for i, it := range c.items {
			v := fmt.Sprintf("v%d", i)
			items = append(items, v)
			switch it.Kind {
			case runenv.KindInteger:
				fmt.Fprintf(&src, "  integer :: %s\n", v)
				prints = append(prints, fmt.Sprintf("write (line(len_trim(line)+2:), '(i0)') %s", v))
			case runenv.KindReal:
				fmt.Fprintf(&src, "  double precision :: %s\n", v)
				prints = append(prints, fmt.Sprintf("write (line(len_trim(line)+2:), '(i0)') transfer(%s, 0_8)", v))
			case runenv.KindLogical:
				fmt.Fprintf(&src, "  logical :: %s\n", v)
				prints = append(prints, fmt.Sprintf("write (line(len_trim(line)+2:), '(l1)') %s", v))
			default:
				fmt.Fprintf(&src, "  character(len=%d) :: %s\n", it.Len, v)
				prints = append(prints, fmt.Sprintf("line = trim(line) // ' [' // %s // ']'", v))
			}
		}
		fmt.Fprintf(&src, "  line = ''\n  open (unit=10, file='in%d', status='old')\n", k)
		fmt.Fprintf(&src, "  read (10, %q, iostat=ios) %s\n  close (10)\n", c.format, strings.Join(items, ", "))
		src.WriteString("  if (ios /= 0) then\n    print '(a)', 'err'\n    return\n  end if\n")
		for _, p := range prints {
			src.WriteString("  " + p + "\n")
		}
		fmt.Fprintf(&src, "  print '(a)', trim(adjustl(line))\nend subroutine f%d\n", k)
	}
	lines := gfortranLines(t, dir, "formats", src.String(), n)
	errs := 0
	for k, c := range cases {
		// A negative zero is a zero to mkvet's exact values.
		want := strings.ReplaceAll(" "+strings.TrimSpace(lines[k])+" ", " -9223372036854775808 ", " 0 ")
		want = strings.TrimSpace(want)
		got := formatValues(c)
		if got == "err" {
			errs++
		}
		if got != want {
			t.Errorf("READ %d, format %s, items %v, file:\n%s\nFormattedRead: %s\ngfortran:      %s", k, c.format, c.items, c.text, got, want)
		}
	}
	t.Logf("%d formatted READs agree with gfortran (%d fail on both sides)", n, errs)
}

// TestFormattedWriteAgainstGfortranE2E checks runenv.FormattedWrite, the
// records mkvet gives a file the program writes, against the file gfortran
// writes: 300 random WRITEs of character values under formats of A and Aw
// edit descriptors, character strings, X, T, TL, TR, slashes and a
// repeated group (format reversion).
func TestFormattedWriteAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	rng := rand.New(rand.NewPCG(43, 53))
	dir := t.TempDir()
	const n = 300
	type writeCase struct {
		format string
		vals   []string
	}
	var cases []writeCase
	var src strings.Builder
	src.WriteString("program writes\n  character(len=40) :: line\n  integer :: ios, k\n")
	for k := range n {
		var c writeCase
		for range rng.IntN(4) + 1 {
			b := make([]byte, 1+rng.IntN(8))
			for i := range b {
				b[i] = "abcxyz 01-."[rng.IntN(11)]
			}
			c.vals = append(c.vals, string(b))
		}
		var descs []string
		for range 1 + rng.IntN(4) {
			switch rng.IntN(9) {
			case 0:
				descs = append(descs, "'<"+string("pq"[rng.IntN(2)])+">'")
			case 1:
				descs = append(descs, strconv.Itoa(1+rng.IntN(3))+"X")
			case 2:
				descs = append(descs, "/")
			case 3:
				descs = append(descs, "T"+strconv.Itoa(1+rng.IntN(6)))
			case 4:
				descs = append(descs, "TL"+strconv.Itoa(1+rng.IntN(3)), "A")
			case 5, 6:
				descs = append(descs, "A"+strconv.Itoa(1+rng.IntN(10)))
			default:
				descs = append(descs, "A")
			}
		}
		// At least one value edited: a format with none and values to
		// write is an error on both sides.
		descs = append(descs, "A")
		rng.Shuffle(len(descs), func(i, j int) { descs[i], descs[j] = descs[j], descs[i] })
		if rng.IntN(3) == 0 {
			c.format = "('#'," + strings.Join(descs, ",") + ")"
		} else {
			c.format = "(" + strings.Join(descs, ",") + ")"
		}
		if rng.IntN(3) == 0 {
			c.format = "(" + c.format + ")" // a group to revert to
		}
		cases = append(cases, c)
		var items []string
		for _, v := range c.vals {
			items = append(items, "'"+v+"'")
		}
		fmt.Fprintf(&src, "  open (unit=10, file='out%d', status='replace')\n", k)
		fmt.Fprintf(&src, "  write (10, %q, iostat=ios) %s\n  close (10)\n", c.format, strings.Join(items, ", "))
	}
	src.WriteString("  print '(a)', 'done'\nend program writes\n")
	gfortranLines(t, dir, "writes", src.String(), 1)
	refused := 0
	defer func() { t.Logf("%d WRITEs agree with gfortran, %d with a TL refused", n-refused, refused) }()
	for k, c := range cases {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("out%d", k)))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(string(b), "\n")
		f, err := runenv.ParseFormat(c.format)
		if err != nil {
			t.Errorf("%s: %v", c.format, err)
			continue
		}
		recs, ok := runenv.FormattedWrite(f, c.vals)
		got := strings.Join(recs, "\n")
		if !ok && strings.Contains(c.format, "TL") {
			refused++ // a TL past the record's start, maybe
			continue
		}
		if !ok {
			got = "(refused)"
		}
		if got != want {
			t.Errorf("WRITE %d, format %s, values %q:\nFormattedWrite: %q\ngfortran:       %q", k, c.format, c.vals, got, want)
		}
	}
}
