package cost

import (
	"fmt"
	"os"
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// symbolicBudget bounds the symbolic evaluation AnalyzeAt runs for closed
// forms (Options.Budget), and symbolicNodes and symbolicOccurrences the size
// of the programs it runs it for: the nodes of the APT and the node
// occurrences of the evaluation at the point. A whole application (thousands
// of nodes) keeps its closed forms in the rank; its closed forms in P would
// need values only the point derives (a process grid found by a search).
const (
	symbolicBudget      = 20000
	symbolicNodes       = 1000
	symbolicOccurrences = 5000
)

// largeBudget is the budget of the symbolic analysis of a whole application
// (LargeProgram; Options.Budget): the closed forms in P the counting engine
// reaches within it are kept, and the analysis takes a few tenths of a
// second where counting every node would take tens of seconds (NPB LU, SP,
// MG). Evaluating at a point derives every count.
const largeBudget = 2000

// budgetFor is the budget of a symbolic analysis of prog: largeBudget for a
// whole application, else symbolicBudget.
func budgetFor(prog *apt.Program) int {
	if LargeProgram(prog) {
		return largeBudget
	}
	return symbolicBudget
}

// AnalyzeAt costs prog at a point: P and parameters fixed to values (Options.
// Values), so that what the program computes from them is exact, with the
// symbolic closed forms of a budgeted symbolic evaluation where they agree
// with the point (ClosedForms). When values lack P for a parallel program
// the analysis is the symbolic one.
func AnalyzeAt(prog *apt.Program, opt Options, values map[string]int64) (*Report, error) {
	popt := opt
	popt.Values = values
	res, err := evaluate(prog, popt)
	if err != nil {
		return nil, err
	}
	if _, ok := values[Size]; res.Parallel && !ok {
		return AnalyzeSymbolic(prog, opt)
	}
	if m := missingInputs(res, values); len(m) > 0 {
		// Decided before counting: the counts of a point that lacks a
		// value only the user can give rest on symbols no budget bounds,
		// and the symbolic analysis's would replace them anyway.
		if debugTimes {
			for _, q := range m {
				fmt.Fprintf(os.Stderr, "cost.AnalyzeAt: no value for %s (%s) at %s\n", q.Name, q.What, q.Pos)
			}
		}
		sopt := opt
		sopt.Budget = budgetFor(prog)
		if sym, err := Analyze(prog, sopt); err == nil {
			return sym, nil
		}
	}
	pt := analyzeResult(prog, popt, res)
	if m := pt.MissingParams(values); len(m) > 0 && !pt.DataOnly(m) {
		if debugTimes {
			for _, q := range pt.Params {
				if slices.Contains(m, q.Name) {
					fmt.Fprintf(os.Stderr, "cost.AnalyzeAt: no value for %s (%s) at %s\n", q.Name, q.What, q.Pos)
				}
			}
		}
		// The point is not complete (a value only the user can give):
		// the results are symbolic, and the symbolic evaluation's are
		// the ones to show, where it finishes within its budget.
		sopt := opt
		sopt.Budget = budgetFor(prog)
		if sym, err := Analyze(prog, sopt); err == nil {
			return sym, nil
		}
		return pt, nil
	}
	if pt.Occurrences > symbolicOccurrences || LargeProgram(prog) {
		return pt, nil
	}
	sopt := opt
	sopt.Budget = symbolicBudget
	sym, err := Analyze(prog, sopt)
	if err != nil {
		return pt, nil
	}
	r, _ := ClosedForms(pt, sym, values)
	return r, nil
}

// AnalyzeSymbolic is Analyze for closed forms in P and the sizes. A whole
// application (LargeProgram) is analysed under a budget (Options.Budget,
// symbolicBudget when opt has none): its closed forms in P that the counting
// engine reaches within it are kept, the others are missing (Node.Missing),
// and evaluating at a point (AnalyzeAt) derives them all.
func AnalyzeSymbolic(prog *apt.Program, opt Options) (*Report, error) {
	if opt.Budget == 0 && opt.Values == nil && LargeProgram(prog) {
		opt.Budget = largeBudget
	}
	return Analyze(prog, opt)
}

// Two evaluations of one program. The evaluation at a point (Options.Values)
// derives what the program computes from P and its sizes — a process grid
// found by a search, an array of cell sizes, a loop that runs until a
// condition on them holds — and gives every node an exact count at that
// point, a closed form in the rank. The symbolic evaluation gives closed
// forms in the sizes and P where the counting engine reaches them within a
// budget, which say how a count scales. Closed forms shows each node with
// the symbolic closed form where that form is exact and equals the point's
// count at every rank (checked, never assumed), and with the point's closed
// form in the rank elsewhere; the values are the point's throughout.

// ClosedForms returns pt, the report of an evaluation at the point env, with
// the closed forms of sym substituted node by node where they are exact and
// agree with pt at env for every rank 0..P-1. It reports how many nodes took
// sym's forms. Parameters of sym's forms that pt lacks are added to pt's
// with their values in env.
func ClosedForms(pt, sym *Report, env map[string]int64) (*Report, int) {
	if sym == nil {
		return pt, 0
	}
	np := int64(1)
	if v, ok := env[Size]; ok && pt.Parallel {
		np = v
	}
	renv := ratEnv(env)
	// The symbols sym's forms may use: P, the rank and the parameters env
	// gives (or that have defaults); a form with any other symbol (a value
	// the point derived) cannot be checked and is not used.
	known := map[string]bool{Size: true, Rank: true}
	for k := range env {
		known[k] = true
	}
	ptHas := map[string]bool{}
	for _, p := range pt.Params {
		ptHas[p.Name] = true
	}
	for _, p := range sym.Params {
		if _, ok := env[p.Name]; ok {
			continue
		}
		// A default only where the point rests on it too: a value of
		// the data the point derived (a count its run gave) is no
		// default of the symbolic evaluation's, though the two may
		// agree by chance (the middle of its range).
		if p.Default != nil && ptHas[p.Name] {
			if v, err := p.Default.Eval(renv); err == nil {
				renv[p.Name] = v
				known[p.Name] = true
			}
		}
	}
	same := func(a, b symbolic.Piecewise) bool {
		for _, pc := range a.Pieces {
			for _, s := range pc.Value.Symbols() {
				if !known[s] {
					return false
				}
			}
			for _, g := range pc.Guard {
				for _, s := range g.E.Symbols() {
					if !known[s] {
						return false
					}
				}
			}
		}
		for rk := int64(0); rk < np; rk++ {
			renv[Rank] = symbolic.RatInt(rk)
			x, err1 := a.Eval(renv)
			y, err2 := b.Eval(renv)
			if err1 != nil || err2 != nil || !x.Equal(y) {
				return false
			}
		}
		return true
	}
	taken := 0
	used := map[string]bool{}
	for _, n := range pt.Nodes {
		s := sym.ByID[n.Node.Base().ID]
		// An approximate symbolic form may stand for an equally
		// approximate point (the same unmodelled jump), never for an
		// exact one; the node keeps the point's exactness and note.
		if s == nil || (!s.Exact && n.Exact) || (s.Comm == nil) != (n.Comm == nil) || s.Missing != 0 {
			continue
		}
		pairs := [][2]*symbolic.Piecewise{{&n.Count, &s.Count}, {&n.Work, &s.Work}, {&n.Self, &s.Self}}
		if len(n.Iterations.Pieces) > 0 || len(s.Iterations.Pieces) > 0 || n.hasIters {
			pairs = append(pairs, [2]*symbolic.Piecewise{&n.Iterations, &s.Iterations})
		}
		if n.Comm != nil {
			pairs = append(pairs,
				[2]*symbolic.Piecewise{&n.Comm.Messages, &s.Comm.Messages},
				[2]*symbolic.Piecewise{&n.Comm.Received, &s.Comm.Received},
				[2]*symbolic.Piecewise{&n.Comm.BytesSent, &s.Comm.BytesSent},
				[2]*symbolic.Piecewise{&n.Comm.BytesReceived, &s.Comm.BytesReceived})
		}
		// A nest's own work takes the symbolic form wherever the two
		// agree, whatever the node's other figures do: it is only read as
		// a share, and leaves them as they are.
		if (len(n.NestWork.Pieces) > 0 || len(s.NestWork.Pieces) > 0) && same(s.NestWork, n.NestWork) {
			n.NestWork = s.NestWork
			notePW(s.NestWork, used)
		}
		ok := true
		for _, p := range pairs {
			if !same(*p[1], *p[0]) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, p := range pairs {
			*p[0] = *p[1]
			notePW(*p[1], used)
		}
		if n.Comm != nil {
			n.Comm.MsgBytes, n.Comm.Peer = s.Comm.MsgBytes, s.Comm.Peer
		}
		streams := len(s.Streams) == len(n.Streams)
		if streams {
			// The traffic in the same closed forms as the counts.
			n.Streams = s.Streams
			for _, st := range s.Streams {
				notePW(st.Iterations, used)
				if st.Footprint != nil && st.Footprint.Unknown == "" {
					for _, x := range st.Footprint.Bytes.Symbols() {
						used[x] = true
					}
				}
			}
		}
		if len(s.Contexts) == len(n.Contexts) {
			// Context by context in the closed forms where they agree,
			// the streams as the node's.
			for i, c := range s.Contexts {
				if !same(c.Iterations, n.Contexts[i].Iterations) {
					continue
				}
				n.Contexts[i].Iterations = c.Iterations
				notePW(c.Iterations, used)
				if streams && len(c.Streams) == len(n.Contexts[i].Streams) {
					n.Contexts[i].Streams = c.Streams
				}
			}
		}
		taken++
	}
	if !sym.WorkMissing && same(sym.Work, pt.Work) {
		pt.Work = sym.Work
		notePW(sym.Work, used)
	}
	if taken > 0 {
		// The closed forms taken are simplified for display under the
		// symbolic assumptions (n >= P from an annotation, which the point
		// has turned into a fact about numbers); they hold at the point too.
		a := sym.Assumptions.Clone()
		a.Assume(pt.Assumptions.Relations()...)
		pt.Assumptions = a
	}
	have := map[string]bool{}
	for _, p := range pt.Params {
		have[p.Name] = true
	}
	// A parameter taken brings those its default and bounds name (a value
	// after a loop, the middle of a range in the loop's trip count).
	for grew := true; grew; {
		grew = false
		for _, p := range sym.Params {
			if !used[p.Name] || have[p.Name] {
				continue
			}
			pt.Params = append(pt.Params, p)
			have[p.Name], grew = true, true
			for _, e := range []*symbolic.Expr{p.Default, p.Lo, p.Hi} {
				if e != nil {
					for _, s := range e.Symbols() {
						used[s] = true
					}
				}
			}
		}
	}
	return pt, taken
}

func notePW(pw symbolic.Piecewise, used map[string]bool) {
	for _, s := range pw.Symbols() {
		used[s] = true
	}
}

// LargeProgram reports whether prog is a whole application rather than a
// kernel: more APT nodes than symbolicNodes. Its closed forms in P would
// need values only an evaluation at a point derives; commands evaluate it
// at each point instead of looking for them.
func LargeProgram(prog *apt.Program) bool { return programNodes(prog) > symbolicNodes }

func programNodes(prog *apt.Program) int {
	n := 0
	for _, r := range prog.Routines {
		apt.Inspect(r, func(apt.Node) bool { n++; return true })
	}
	return n
}
