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
	f := filepath.Join(dir, "decks.f90")
	if err := os.WriteFile(f, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "decks")
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
