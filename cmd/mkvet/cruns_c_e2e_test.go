package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// loopValuesAt runs check -json on a C test program at P = 4 with args and
// returns the per-rank counts of the loop at file:line:col, and the names
// of the values the check asks for.
func loopValuesAt(t *testing.T, name, args, pos string) ([]float64, []string) {
	t.Helper()
	src := filepath.Join(programsDir, name)
	out, errs, code := runMkvet(t, "check", "-json", "-D", "P=4", "-args", args, src)
	if code > 1 {
		t.Fatalf("check %s: exit %d\n%s", name, code, errs)
	}
	var r checkJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("check -json %s: %v", name, err)
	}
	var asked []string
	for _, p := range r.Params {
		asked = append(asked, p.Name)
	}
	for _, n := range r.Nodes {
		if (n.Pos == pos || strings.HasSuffix(n.Pos, "/"+pos)) && n.What == "loop" {
			if n.At == nil || n.At.Count == nil {
				return nil, asked
			}
			return n.At.Count.Values, asked
		}
	}
	t.Fatalf("%s: no loop at %s", name, pos)
	return nil, nil
}

// TestStructFieldRowsE2E: a CSR matrix whose arrays a structure
// variable's pointer fields hold (A.rowptr = malloc(...)), built by a loop
// the evaluation runs (its counter stepped under boundary tests) and swept
// in an iteration loop of main. The run reaches the field's storage as it
// reaches p->f's (structrows.c: before, it stopped on "A.rowptr[row + 1]
// is not a plain array element" and the sweep's trips were asked), and a
// loop that reads the built arrays through fields (A.val[k] *
// x[A.col[k]]) is run as one reading named arrays is (csrfields.c:
// before, the sweep was walked without the arrays and its trips asked).
// The counts are the rows' entries: 4*400 + 400 less the boundary
// entries, 60 times.
func TestStructFieldRowsE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	want := []float64{116400, 118800, 118800, 116400}
	for _, tc := range []struct{ name, pos string }{
		{"structrows.c", "structrows.c:48:13"},
		{"csrfields.c", "csrfields.c:50:13"},
	} {
		got, asked := loopValuesAt(t, tc.name, "40 60", tc.pos)
		if !slices.Equal(got, want) || len(asked) > 0 {
			t.Errorf("%s: the sweep over the rows runs %v times per rank, asking %v: want %v, nothing asked", tc.name, got, asked, want)
		}
	}
}

// TestRankSizedBufferE2E: a buffer malloc'd by a count each rank finds
// for itself in a loop over a table (rankalloc.c: mine, 572, 571, 571 and
// 286 keys at P = 4), packed with a cursor in a loop over the table's
// buckets each step. The run binds the buffer with its extent at the rank
// although no one closed form holds it; before, it had one element, the
// run stopped on "buf(k) is out of bounds" and the packing loop's trips
// were asked.
func TestRankSizedBufferE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	got, asked := loopValuesAt(t, "rankalloc.c", "2000 3", "rankalloc.c:30:13")
	if want := []float64{1716, 1713, 1713, 858}; !slices.Equal(got, want) || len(asked) > 0 {
		t.Errorf("the packing loop runs %v times per rank, asking %v: want %v, nothing asked", got, asked, want)
	}
}
