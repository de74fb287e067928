package analyzer

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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
	forms, points, tables := 0, 0, 0
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
				var table symbolic.Piecewise
				if s, ok := rankTable(p.tidy(raw)); ok {
					table = readTable(t, s)
					tables++
				}
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
					if len(table.Pieces) > 0 {
						if got, err := table.Eval(env); err != nil || !got.Equal(want) {
							t.Fatalf("%s %s at %v: case table %s (%v), raw %s\nraw:\n%s", f, n.Node.Base().ID, env, got, err, want, raw)
						}
					}
					points++
				}
			}
		}
	}
	if forms < 200 || points < 2000 {
		t.Fatalf("only %d forms at %d points checked", forms, points)
	}
	if tables == 0 {
		t.Error("no form printed as a case table over ranks")
	}
	t.Logf("%d closed forms of %d programs (%d as case tables over ranks), %d points", forms, len(files), tables, points)
}

func hasError(ds []apt.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == apt.Error {
			return true
		}
	}
	return false
}

// readTable reads a case table over ranks back as a person would:
// "(if C: A on ranks < X, B on the others)" is A where rank < X and B
// elsewhere, both where C holds.
func readTable(t *testing.T, s string) symbolic.Piecewise {
	t.Helper()
	m := regexp.MustCompile(`^\((?:if (.*): )?(.*) on ranks < (.*) on the others\)$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("case table %q does not read", s)
	}
	// The bound ends at the first comma outside parentheses (it may be
	// modulo(ny, P)); the others' value follows.
	depth, cut := 0, -1
	for i, c := range m[3] {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 && cut < 0 {
				cut = i
			}
		}
	}
	if cut < 0 {
		t.Fatalf("case table %q does not read", s)
	}
	m = append(m[:3], m[3][:cut], strings.TrimSpace(m[3][cut+1:]))
	var common []symbolic.Relation
	if m[1] != "" {
		for _, g := range strings.Split(m[1], " and ") {
			rs, err := symbolic.ParseRelations(g)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			common = append(common, rs...)
		}
	}
	parse := func(x string) symbolic.Expr {
		e, err := symbolic.Parse(x)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return e
	}
	rank, x := symbolic.Sym(cost.Rank), parse(m[3])
	return symbolic.Piecewise{Pieces: []symbolic.Piece{
		{Guard: append(slices.Clone(common), symbolic.Rel(rank, "<", x)), Value: parse(m[2])},
		{Guard: append(slices.Clone(common), symbolic.Rel(rank, ">=", x)), Value: parse(m[4])},
	}}
}

// reread prints pw and parses it back, as a user copying it would.
func reread(t *testing.T, pw symbolic.Piecewise) symbolic.Piecewise {
	t.Helper()
	var out symbolic.Piecewise
	for _, pc := range pw.Pieces {
		var guard []string
		for _, g := range pc.Guard {
			guard = append(guard, g.String())
		}
		q, err := symbolic.ParsePiece(pc.Value.String(), guard)
		if err != nil {
			t.Fatalf("%s if %v: %v", pc.Value, guard, err)
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
