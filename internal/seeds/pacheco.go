package seeds

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// PachecoN are the problem sizes (trapezoids) of the columns of Pacheco's
// Table 11.2 (seed 004, §11.6).
var PachecoN = [4]int64{512, 1024, 1536, 2048}

// pachecoPred is the table's "Pred." columns: the predicted speedups of the
// parallel trapezoidal rule on the nCUBE 2, by process count, for PachecoN.
var pachecoPred = map[int64][4]string{
	2:  {"1.9", "2.0", "2.0", "2.0"},
	4:  {"3.6", "3.8", "3.8", "3.9"},
	8:  {"5.8", "6.8", "7.1", "7.3"},
	16: {"8.1", "10.7", "12.1", "12.8"},
	32: {"9.3", "14.4", "17.6", "19.8"},
}

// PachecoPred returns the "Pred." columns of Table 11.2 by process count.
// When the seed's text is found (shared/seeds/004_*.txt beside the
// repository), every row of the copy is checked against it and a
// difference fails the test; otherwise the test is told the copy is used.
func PachecoPred(t testing.TB) map[int64][4]string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "seeds", "004_*.txt"))
	if len(files) == 0 {
		t.Log("seed 004 not found; using the table copied from it")
		return pachecoPred
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	seen := map[int64]bool{}
	for inTable := false; sc.Scan(); {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 && fields[0] == "Processes" {
			inTable = true
			continue
		}
		if !inTable {
			continue
		}
		if len(fields) != 9 {
			break // the end of the table
		}
		p, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			break
		}
		// Columns: p, then Pred. and Act. for each n.
		if got := [4]string{fields[1], fields[3], fields[5], fields[7]}; got != pachecoPred[p] {
			t.Fatalf("seed 004 row p=%d reads %v, the copy %v", p, got, pachecoPred[p])
		}
		seen[p] = true
	}
	if len(seen) != len(pachecoPred) {
		t.Fatalf("seed 004: read rows for %v, want all of %v", seen, pachecoPred)
	}
	return pachecoPred
}
