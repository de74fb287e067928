package symeval

import "github.com/mkvet/mkvet/frontend/apt"

// exitsLoop reports whether a loop's body may leave it before its last
// trip: an EXIT of it (not of a loop inside), a RETURN or STOP, a GO TO
// to a label outside the body. A CYCLE, or a GO TO the loop's own last
// statement, does not.
func exitsLoop(body []apt.Node) bool {
	labels := map[string]bool{}
	for _, n := range body {
		apt.Inspect(n, func(y apt.Node) bool {
			if y == nil {
				return false
			}
			if l := y.Base().Label; l != "" {
				labels[l] = true
			}
			return true
		})
	}
	found := false
	var visit func(ns []apt.Node, inner bool)
	visit = func(ns []apt.Node, inner bool) {
		for _, n := range ns {
			apt.Inspect(n, func(y apt.Node) bool {
				switch x := y.(type) {
				case *apt.Loop:
					if y != n || inner {
						visit(x.Body, true)
						return false
					}
				case *apt.Exit:
					found = found || !inner
				case *apt.Return, *apt.Stop:
					found = true
				case *apt.Goto:
					for _, t := range x.Targets {
						found = found || !labels[t]
					}
				}
				return !found
			})
		}
	}
	visit(body, false)
	return found
}
