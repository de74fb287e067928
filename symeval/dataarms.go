package symeval

import "github.com/mkvet/mkvet/frontend/apt"

// feedsControl reports whether the arm b, taken on data with a frequency,
// may change a value the counts can depend on exactly: it assigns an
// INTEGER or LOGICAL variable that is control relevant, calls a routine or
// a function of the program, communicates or reads, or jumps out of itself.
// An arm that only computes the program's data (a flux fixed up where it
// turned negative, a count of the fixups nothing tests) does not: a run
// that takes it with a frequency still computes its loop's control values
// exactly, so it goes on (runCounted and the other runs stop at the arms
// that do, as at values they cannot derive). The DO variables of the arm's
// loops are set by their bounds, not by the data.
func (ev *evaluator) feedsControl(b *apt.Branch) bool {
	if f, ok := ev.feeds[b]; ok {
		return f
	}
	r := ev.frame().routine
	feeds := false
	for _, n := range b.Body {
		if !selfContained(n) {
			feeds = true
			break
		}
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if callsAny(s.Value) || callsAny(s.Mask) || callsAny(s.Target) {
						feeds = true
					}
					name := rootName(s.Target)
					if name == "" {
						feeds = feeds || s.Target != nil
						continue
					}
					d := ev.prog.Resolve(r, name)
					if d == nil || tracked(d.Type) && ev.relevant(r, name) {
						feeds = true
					}
				}
			case *apt.Call, *apt.Comm, *apt.Unknown:
				feeds = true
			case *apt.IO:
				feeds = feeds || len(x.Reads) > 0
			case *apt.Branch:
				feeds = feeds || callsAny(x.Cond)
			case *apt.Loop:
				feeds = feeds || callsAny(x.Lower) || callsAny(x.Upper) || callsAny(x.Step) || callsAny(x.While)
			}
			return !feeds
		})
		if feeds {
			break
		}
	}
	if ev.feeds == nil {
		ev.feeds = map[*apt.Branch]bool{}
	}
	ev.feeds[b] = feeds
	return feeds
}

// selfContained reports whether every jump inside n lands inside n.
func selfContained(n apt.Node) bool {
	labels := map[string]bool{}
	constructs := map[string]bool{}
	apt.Inspect(n, func(y apt.Node) bool {
		if y == nil {
			return false
		}
		if l := y.Base().Label; l != "" {
			labels[l] = true
		}
		if b, ok := y.(*apt.Block); ok {
			for _, s := range b.Stmts {
				if s.Label != "" {
					labels[s.Label] = true
				}
			}
		}
		if lp, ok := y.(*apt.Loop); ok {
			if lp.Construct != "" {
				constructs[lp.Construct] = true
			}
			if lp.EndLabel != "" {
				labels[lp.EndLabel] = true
			}
		}
		return true
	})
	ok := true
	var visit func(y apt.Node, depth int)
	visit = func(y apt.Node, depth int) {
		if !ok {
			return
		}
		switch x := y.(type) {
		case *apt.Goto:
			for _, t := range x.Targets {
				ok = ok && labels[t]
			}
		case *apt.Exit:
			ok = ok && (x.Construct == "" && depth > 0 || x.Construct != "" && constructs[x.Construct])
		case *apt.Cycle:
			ok = ok && (x.Construct == "" && depth > 0 || x.Construct != "" && constructs[x.Construct])
		case *apt.Loop:
			for _, c := range x.Body {
				visit(c, depth+1)
			}
		case *apt.If:
			for _, b := range x.Branches {
				for _, c := range b.Body {
					visit(c, depth)
				}
			}
		}
	}
	visit(n, 0)
	return ok
}
