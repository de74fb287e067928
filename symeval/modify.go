package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// summary is what a routine may assign that its callers can see: formal
// arguments by position and variables with global storage (COMMON, module,
// host) by key.
type summary struct {
	formals map[int]bool
	globals map[string]bool
}

// modified returns the storage keys of the scalar variables nodes may assign,
// as seen from the current frame, sorted.
func (ev *evaluator) modified(nodes []apt.Node) []string {
	set := map[string]bool{}
	ev.collectAssigned(nodes, set)
	return slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
}

func (ev *evaluator) collectAssigned(nodes []apt.Node, set map[string]bool) {
	addName := func(name string) {
		if ev.paramName(name) == "" {
			set[ev.key(name)] = true
		}
	}
	addExpr := func(e apt.Expr) {
		switch t := e.(type) {
		case *apt.Name:
			addName(t.Name)
		case *apt.Component:
			if k, ok := ev.refKey(t); ok {
				set[k] = true
			}
		case *apt.Index:
			if k, ok := ev.arrayKey(t); ok {
				set[k] = true
			}
		}
	}
	calls := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
				if r := ev.routineNamed(f.Name); r != nil {
					ev.applySummary(r, f.Args, set)
				}
			}
			return true
		})
	}
	for _, n := range nodes {
		apt.Inspect(n, func(n apt.Node) bool {
			switch x := n.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if s.Kind == apt.StmtAssign {
						addExpr(s.Target)
						calls(s.Value)
					}
				}
			case *apt.Loop:
				if x.Var != "" {
					addName(x.Var)
				}
			case *apt.IO:
				for _, r := range x.Reads {
					addName(r)
				}
			case *apt.Comm:
				if x.Result != nil {
					addExpr(x.Result)
				}
				if x.Recv != nil && x.Recv.Buffer != nil {
					addExpr(x.Recv.Buffer)
				}
				if x.Op == apt.MPIBcast && x.Send != nil {
					addExpr(x.Send.Buffer)
				}
			case *apt.Call:
				if r := ev.routineNamed(x.Callee); r != nil {
					ev.applySummary(r, x.Args, set)
				} else {
					for _, a := range x.Args {
						addExpr(a)
					}
				}
			case *apt.If:
				for _, b := range x.Branches {
					if b.Cond != nil {
						calls(b.Cond)
					}
				}
			}
			return true
		})
	}
}

// applySummary adds what a call of r with args may assign.
func (ev *evaluator) applySummary(r *apt.Routine, args []apt.Expr, set map[string]bool) {
	s := ev.summarize(r)
	for i := range s.formals {
		if i < len(args) {
			if k, ok := ev.refKey(args[i]); ok {
				set[k] = true
			} else if ix, isIx := args[i].(*apt.Index); isIx {
				// An element passed by reference: the routine may assign
				// it, or the array from it on.
				if k, ok := ev.arrayKey(ix); ok {
					set[k] = true
				}
			}
		}
	}
	for k := range s.globals {
		set[k] = true
	}
}

// summarize computes (once) what r may assign that is visible to callers.
func (ev *evaluator) summarize(r *apt.Routine) *summary {
	if s, ok := ev.summary[r]; ok {
		return s
	}
	s := &summary{formals: map[int]bool{}, globals: map[string]bool{}}
	ev.summary[r] = s // a recursive call sees the partial summary
	ev.nframe++
	fr := &frame{routine: r, id: "s" + strconv.Itoa(ev.nframe), alias: map[string]string{}}
	for i, f := range r.Formals {
		fr.alias[f] = "#formal" + strconv.Itoa(i)
	}
	ev.frames = append(ev.frames, fr)
	set := map[string]bool{}
	ev.collectAssigned(r.Body, set)
	ev.frames = ev.frames[:len(ev.frames)-1]
	for k := range set {
		switch {
		case strings.HasPrefix(k, "#formal"):
			rest := strings.TrimPrefix(k, "#formal")
			num, _, _ := strings.Cut(rest, "%")
			if i, err := strconv.Atoi(num); err == nil {
				s.formals[i] = true
			}
		case strings.HasPrefix(k, fr.id+"."):
			// a local
		default:
			s.globals[k] = true
		}
	}
	return s
}
