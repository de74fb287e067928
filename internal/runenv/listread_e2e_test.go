package runenv_test

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
	"github.com/mkvet/mkvet/internal/runenv"
)

// deckCase is one random input file and the READs of a program that reads
// it: reads[r] items in the r-th READ, each item an integer variable with
// a default of its own.
type deckCase struct {
	text  string
	reads []int
}

// randomDeck draws a deck: values over records in the ways list-directed
// input allows (commas or blanks, a value continued on the next record,
// values left over at a record's end, null values, r*c repeats, a slash
// ending a READ's input, a comment after it).
func randomDeck(rng *rand.Rand) deckCase {
	var c deckCase
	var b strings.Builder
	sep := func() string { return []string{" ", ", ", "  ", ",", " ,  "}[rng.IntN(5)] }
	for range 1 + rng.IntN(5) {
		n := 1 + rng.IntN(4)
		c.reads = append(c.reads, n)
		var vals []string
		for k := 0; k < n; k++ {
			switch rng.IntN(10) {
			case 0:
				vals = append(vals, "") // null
			case 1:
				if k+1 < n {
					vals = append(vals, "2*"+strconv.Itoa(rng.IntN(50)))
					k++
					continue
				}
				vals = append(vals, strconv.Itoa(-rng.IntN(9)))
			default:
				vals = append(vals, strconv.Itoa(rng.IntN(100)))
			}
		}
		switch rng.IntN(6) {
		case 0: // a slash before the last values
			cut := rng.IntN(len(vals))
			vals = append(vals[:cut:cut], "/ the rest keep their values")
		case 1: // values left over on the record
			vals = append(vals, strconv.Itoa(rng.IntN(100)))
		}
		// The values of one READ on one record, or split over two.
		split := len(vals)
		if len(vals) > 1 && rng.IntN(3) == 0 {
			split = 1 + rng.IntN(len(vals)-1)
		}
		for i, v := range vals {
			if i == split {
				b.WriteString("\n")
			} else if i > 0 {
				b.WriteString(sep())
			}
			if v == "" && (i == 0 || i == split) {
				b.WriteString(",") // a leading null needs its comma
				continue
			}
			b.WriteString(v)
		}
		b.WriteString("\n")
	}
	c.text = b.String()
	return c
}

// simulate is what runenv.ListRead says the variables hold after the
// READs, each starting at its default 1000 + its number; false when the
// file ends first.
func simulate(c deckCase) ([]int64, bool) {
	recs := runenv.Records(c.text)
	var out []int64
	rec := 1
	for _, n := range c.reads {
		vals, next, ok := runenv.ListRead(recs, rec, n)
		if !ok {
			return nil, false
		}
		for k := 0; k < n; k++ {
			v := int64(1000 + len(out))
			if k < len(vals) && vals[k].Text != "" {
				x, ok := runenv.Integer(vals[k].Text)
				if !ok {
					return nil, false
				}
				v = x
			}
			out = append(out, v)
		}
		rec = next
	}
	return out, true
}

// TestListReadAgainstGfortranE2E checks runenv.ListRead, the list-directed
// input mkvet evaluates and its interpreter runs, against gfortran's own
// reading of the same files: 200 random decks, each read by a routine of
// one program with its READs, the variables printed after them.
func TestListReadAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	rng := rand.New(rand.NewPCG(47, 41))
	dir := t.TempDir()
	var cases []deckCase
	var src strings.Builder
	src.WriteString("program decks\n")
	const n = 200
	for k := range n {
		fmt.Fprintf(&src, "  call d%d\n", k)
	}
	src.WriteString("end program decks\n")
	for k := range n {
		c := randomDeck(rng)
		cases = append(cases, c)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("deck%d", k)), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, r := range c.reads {
			total += r
		}
		fmt.Fprintf(&src, "subroutine d%d\n  integer :: v(%d), ios\n", k, total)
		for i := range total {
			fmt.Fprintf(&src, "  v(%d) = %d\n", i+1, 1000+i)
		}
		fmt.Fprintf(&src, "  open (unit=10, file='deck%d', status='old')\n", k)
		at := 1
		for _, r := range c.reads {
			var items []string
			for i := range r {
				items = append(items, fmt.Sprintf("v(%d)", at+i))
			}
			fmt.Fprintf(&src, "  read (10, *, iostat=ios) %s\n  if (ios /= 0) then\n    print '(a)', 'eof'\n    close (10)\n    return\n  end if\n", strings.Join(items, ", "))
			at += r
		}
		fmt.Fprintf(&src, "  close (10)\n  print '(*(i0, 1x))', v\nend subroutine d%d\n", k)
	}
	lines := gfortranLines(t, dir, "decks", src.String(), n)
	eofs := 0
	for k, c := range cases {
		want := strings.TrimSpace(lines[k])
		vals, ok := simulate(c)
		got := "eof"
		if ok {
			var s []string
			for _, v := range vals {
				s = append(s, strconv.FormatInt(v, 10))
			}
			got = strings.Join(s, " ")
		} else {
			eofs++
		}
		if got != want {
			t.Errorf("deck %d (READs of %v items):\n%s\nListRead: %s\ngfortran: %s", k, c.reads, c.text, got, want)
		}
	}
	t.Logf("%d decks agree with gfortran (%d end before their READs do)", n-eofs, eofs)
}

// randomNamelist draws namelist input for group g of variables v0..vn-1:
// a few of them in any order (some twice: the last counts), with blanks or
// commas, several on a record or one value on the record after its name,
// comments, another group before it, upper or lower case, a null value,
// and a slash or &end.
func randomNamelist(rng *rand.Rand, n int) string {
	var b strings.Builder
	if rng.IntN(3) == 0 {
		b.WriteString("&other x = 1 /\n")
	}
	if rng.IntN(3) == 0 {
		b.WriteString("! settings\n")
	}
	b.WriteString([]string{"&g", "&G", " &g"}[rng.IntN(3)])
	if rng.IntN(2) == 0 {
		b.WriteString("\n")
	} else {
		b.WriteString(" ")
	}
	for range rng.IntN(2 * n) {
		name := fmt.Sprintf("v%d", rng.IntN(n))
		if rng.IntN(4) == 0 {
			name = strings.ToUpper(name)
		}
		val := strconv.Itoa(rng.IntN(200) - 50)
		if rng.IntN(10) == 0 {
			val = "" // null: the variable keeps its value
		}
		b.WriteString(name + []string{" = ", "=", " =\n  "}[rng.IntN(3)] + val)
		b.WriteString([]string{", ", " ", "\n", " ! a comment\n", ",\n"}[rng.IntN(5)])
	}
	b.WriteString([]string{"/\n", " /\n", "&end\n", "/ trailing words\n"}[rng.IntN(4)])
	return b.String()
}

// TestNamelistReadAgainstGfortranE2E checks runenv.NamelistRead against
// gfortran's reading of 150 random namelist inputs, each read by a
// routine of one program whose group holds six integers.
func TestNamelistReadAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	rng := rand.New(rand.NewPCG(47, 43))
	dir := t.TempDir()
	const n, vars = 150, 6
	var src strings.Builder
	src.WriteString("program nml\n")
	for k := range n {
		fmt.Fprintf(&src, "  call g%d\n", k)
	}
	src.WriteString("end program nml\n")
	texts := make([]string, n)
	for k := range n {
		texts[k] = randomNamelist(rng, vars)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("nml%d", k)), []byte(texts[k]), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&src, "subroutine g%d\n  integer :: ios", k)
		for i := range vars {
			fmt.Fprintf(&src, ", v%d", i)
		}
		src.WriteString("\n  namelist /g/")
		for i := range vars {
			if i > 0 {
				src.WriteString(",")
			}
			fmt.Fprintf(&src, " v%d", i)
		}
		src.WriteString("\n")
		for i := range vars {
			fmt.Fprintf(&src, "  v%d = %d\n", i, 1000+i)
		}
		fmt.Fprintf(&src, "  open (unit=10, file='nml%d', status='old')\n  read (10, nml=g, iostat=ios)\n", k)
		src.WriteString("  if (ios /= 0) then\n    print '(a)', 'error'\n  else\n    print '(*(i0, 1x))'")
		for i := range vars {
			fmt.Fprintf(&src, ", v%d", i)
		}
		fmt.Fprintf(&src, "\n  end if\n  close (10)\nend subroutine g%d\n", k)
	}
	lines := gfortranLines(t, dir, "nml", src.String(), n)
	for k, text := range texts {
		got := "error"
		if items, _, ok := runenv.NamelistRead(runenv.Records(text), 1, "g"); ok {
			vals := make([]string, vars)
			for i := range vals {
				vals[i] = strconv.Itoa(1000 + i)
			}
			for _, it := range items {
				var i int
				if _, err := fmt.Sscanf(it.Name, "v%d", &i); err != nil || i >= vars || len(it.Values) > 1 {
					got = "unexpected " + it.Name
					break
				}
				if len(it.Values) == 1 && it.Values[0] != "" { // none, or a null: unchanged
					vals[i] = it.Values[0]
				}
			}
			if !strings.HasPrefix(got, "unexpected") {
				got = strings.Join(vals, " ")
			}
		}
		if want := strings.TrimSpace(lines[k]); got != want {
			t.Errorf("input %d:\n%s\nNamelistRead: %s\ngfortran:     %s", k, text, got, want)
		}
	}
}

// gfortranLines builds the program src with gfortran, runs it in dir and
// returns the n lines it prints.
func gfortranLines(t *testing.T, dir, name, src string, n int) []string {
	t.Helper()
	f := filepath.Join(dir, name+".f90")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, name)
	if out, err := exec.Command("gfortran", "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	cmd := exec.Command(exe)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines printed, want %d", len(lines), n)
	}
	return lines
}
