package analyzer

import (
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// The checks are tested on hand-built reports: a few APT nodes with their
// counts written as closed forms, so that each rule sees exactly the figures
// the test states.

const testFile = "t.f90"

// pw reads a closed form written "value" or "value if rel, rel; value if rel".
func pw(t testing.TB, s string) symbolic.Piecewise {
	t.Helper()
	var out symbolic.Piecewise
	if strings.TrimSpace(s) == "0" || s == "" {
		return out
	}
	for _, part := range strings.Split(s, ";") {
		val, guard, hasGuard := strings.Cut(part, " if ")
		e, err := symbolic.Parse(val)
		if err != nil {
			t.Fatalf("value %q: %v", val, err)
		}
		pc := symbolic.Piece{Value: e}
		if hasGuard {
			rels, err := symbolic.ParseRelations(guard)
			if err != nil {
				t.Fatalf("guard %q: %v", guard, err)
			}
			pc.Guard = rels
		}
		out.Pieces = append(out.Pieces, pc)
	}
	return out
}

// builder assembles a cost.Report.
type builder struct {
	t testing.TB
	r *cost.Report
}

func newBuilder(t testing.TB, parallel bool, work string, assume string) *builder {
	t.Helper()
	a := symbolic.NewAssumptions()
	if parallel {
		if err := a.AssumeText("P >= 1, 0 <= rank <= P - 1"); err != nil {
			t.Fatal(err)
		}
	}
	if assume != "" {
		if err := a.AssumeText(assume); err != nil {
			t.Fatal(err)
		}
	}
	main := &apt.Routine{NodeBase: apt.NodeBase{ID: "main", Span: apt.Span{File: testFile, Line: 1, Col: 1, EndLine: 100, EndCol: 3}},
		Name: "main", Kind: apt.KindProgram}
	r := &cost.Report{
		Program: &apt.Program{Files: []string{testFile}, Routines: []*apt.Routine{main}},
		Entry:   main, Parallel: parallel, Assumptions: a, ByID: map[string]*cost.Node{},
		Work: pw(t, work), Weights: cost.DefaultWeights(),
	}
	b := &builder{t: t, r: r}
	b.add(main, nil, "1", "", work)
	return b
}

func (b *builder) param(name string, origin cost.ParamOrigin, line int, what, def string) *builder {
	q := &cost.Param{Name: name, Origin: origin, Pos: apt.Pos{File: testFile, Line: line, Col: 3}, What: what}
	if def != "" {
		e := symbolic.MustParse(def)
		q.Default = &e
	}
	b.r.Params = append(b.r.Params, q)
	return b
}

func (b *builder) add(n apt.Node, parent *cost.Node, count, iters, work string) *cost.Node {
	cn := &cost.Node{Node: n, Routine: b.r.Entry, Parent: parent, Count: pw(b.t, count), Iterations: pw(b.t, iters),
		Work: pw(b.t, work), Self: symbolic.Piecewise{}, Exact: true}
	for a := parent; a != nil; a = a.Parent {
		if _, ok := a.Node.(*apt.Loop); ok {
			cn.Depth++
		}
	}
	if isNest(cn) {
		// A nest that calls no nests of other routines: its own work is
		// its work (nest sets it otherwise).
		cn.NestWork = cn.Work
	}
	b.r.Nodes = append(b.r.Nodes, cn)
	b.r.ByID[n.Base().ID] = cn
	return cn
}

// nest sets the own work of a loop nest whose calls reach nests of other
// routines (cost.Node.NestWork).
func (b *builder) nest(n *cost.Node, work string) *cost.Node {
	n.NestWork = pw(b.t, work)
	return n
}

// routine adds a called routine's node below the call that reaches it.
func (b *builder) routine(call *cost.Node, name string, line int, count, work string) *cost.Node {
	r := &apt.Routine{NodeBase: base(name, line), Name: name, Kind: apt.KindSubroutine}
	return b.add(r, call, count, "", work)
}

func base(id string, line int) apt.NodeBase {
	return apt.NodeBase{ID: id, Span: apt.Span{File: testFile, Line: line, Col: 3, EndLine: line + 1, EndCol: 8}}
}

func (b *builder) loop(parent *cost.Node, id string, line int, count, iters, work string) *cost.Node {
	return b.add(&apt.Loop{NodeBase: base(id, line), Var: "i"}, parent, count, iters, work)
}

func (b *builder) ifNode(parent *cost.Node, id string, line int, count, work string) *cost.Node {
	return b.add(&apt.If{NodeBase: base(id, line), Kind: apt.IfBlock}, parent, count, "", work)
}

func (b *builder) branch(parent *cost.Node, id string, line int, count, work string) *cost.Node {
	return b.add(&apt.Branch{NodeBase: base(id, line)}, parent, count, "", work)
}

func (b *builder) call(parent *cost.Node, id string, line int, count, work string) *cost.Node {
	return b.add(&apt.Call{NodeBase: base(id, line), Callee: "sub"}, parent, count, "", work)
}

func (b *builder) comm(parent *cost.Node, id string, line int, op apt.CommOp, count, messages, received, bytes string) *cost.Node {
	n := b.add(&apt.Comm{NodeBase: base(id, line), Op: op, Blocking: op.IsBlocking()}, parent, count, "", "0")
	n.Comm = &cost.Comm{Op: op, Messages: pw(b.t, messages), Received: pw(b.t, received)}
	if bytes != "" {
		e := symbolic.MustParse(bytes)
		n.Comm.MsgBytes = &e
		n.Comm.BytesSent = n.Comm.Messages.Scale(e)
		n.Comm.BytesReceived = n.Comm.Received.Scale(e)
	}
	return n
}

func (b *builder) root() *cost.Node { return b.r.Nodes[0] }

// at evaluates the report at env.
func (b *builder) at(env map[string]int64) *cost.Point {
	b.t.Helper()
	pt, err := b.r.At(env)
	if err != nil {
		b.t.Fatalf("At(%v): %v", env, err)
	}
	return pt
}

// only returns the diagnostics of one check.
func only(ds []Diagnostic, id string) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if d.ID == id {
			out = append(out, d)
		}
	}
	return out
}

// lines formats diagnostics as their String forms, one per line.
func lines(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// expect compares the diagnostics with the wanted lines, and checks that
// every fact they carry is documented in the catalogue.
func expect(t *testing.T, got []Diagnostic, want ...string) {
	t.Helper()
	for _, d := range got {
		c := Lookup(d.ID)
		for k := range d.Facts {
			if !slices.ContainsFunc(c.Facts, func(f Fact) bool { return f.Name == k }) {
				t.Errorf("%s: fact %q is not documented in the catalogue", d.ID, k)
			}
		}
	}
	g := lines(got)
	w := ""
	for _, s := range want {
		w += s + "\n"
	}
	if g != w {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", g, w)
	}
}
