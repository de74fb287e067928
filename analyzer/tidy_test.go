package analyzer

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// TestTidiedFormsAgainstRaw: every closed form check and annotate print for
// testdata's programs (each node's count, iterations and work as the
// analyzer tidies them, printed and read back) has the value of the form the
// analysis derived, at random points that satisfy the report's
// assumptions. The raw form is the oracle here: its exactness against
// enumeration and real runs is tested where it is made (model/cost).
func TestTidiedFormsAgainstRaw(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "programs", "*.[fF]*"))
	r := rand.New(rand.NewPCG(15, 3))
	forms, points := 0, 0
	for _, f := range files {
		prog, diags := fortran.ParseFiles([]string{f}, fortran.Config{IncludeDirs: []string{filepath.Dir(f)}})
		if prog == nil || hasError(diags) {
			continue
		}
		rep, err := cost.Analyze(prog, cost.Options{})
		if err != nil {
			continue // programs with several main programs need -entry
		}
		p := newPass(rep, nil, Options{}.withDefaults())
		for _, n := range rep.Nodes {
			for _, raw := range []symbolic.Piecewise{n.Count, n.Iterations, n.Work} {
				if len(raw.Pieces) == 0 {
					continue
				}
				tidy := reread(t, p.tidy(raw))
				forms++
				syms := map[string]bool{}
				for _, s := range append(raw.Symbols(), tidy.Symbols()...) {
					syms[s] = true
				}
				for range 40 {
					env := randomPoint(r, syms)
					if ok, err := rep.Assumptions.Holds(env); err != nil || !ok {
						continue
					}
					want, err := raw.Eval(env)
					if err != nil {
						continue
					}
					got, err := tidy.Eval(env)
					if err != nil || !got.Equal(want) {
						t.Fatalf("%s %s at %v: tidied %s (%v), raw %s\nraw:\n%s\ntidied:\n%s", f, n.Node.Base().ID, env, got, err, want, raw, tidy)
					}
					points++
				}
			}
		}
	}
	if forms < 200 || points < 2000 {
		t.Fatalf("only %d forms at %d points checked", forms, points)
	}
	t.Logf("%d closed forms of %d programs, %d points", forms, len(files), points)
}

func hasError(ds []apt.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == apt.Error {
			return true
		}
	}
	return false
}

// reread prints pw and parses it back, as a user copying it would.
func reread(t *testing.T, pw symbolic.Piecewise) symbolic.Piecewise {
	t.Helper()
	var out symbolic.Piecewise
	for _, pc := range pw.Pieces {
		v, err := symbolic.Parse(pc.Value.String())
		if err != nil {
			t.Fatalf("Parse(%q): %v", pc.Value, err)
		}
		q := symbolic.Piece{Value: v}
		for _, g := range pc.Guard {
			rs, err := symbolic.ParseRelations(g.String())
			if err != nil {
				t.Fatalf("ParseRelations(%q): %v", g, err)
			}
			q.Guard = append(q.Guard, rs...)
		}
		out.Pieces = append(out.Pieces, q)
	}
	return out
}

// randomPoint draws P in 1..9, rank in 0..P-1 and every other symbol in
// -2..60 (the assumptions then filter).
func randomPoint(r *rand.Rand, syms map[string]bool) map[string]symbolic.Rat {
	env := map[string]symbolic.Rat{}
	p := 1 + r.Int64N(9)
	for s := range syms {
		switch s {
		case cost.Size:
			env[s] = symbolic.RatInt(p)
		case cost.Rank:
			env[s] = symbolic.RatInt(r.Int64N(p))
		default:
			env[s] = symbolic.RatInt(r.Int64N(63) - 2)
		}
	}
	return env
}
