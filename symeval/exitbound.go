package symeval

import (
	"fmt"
	"os"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Exit bounds a loop recomputes. A DO without control that ends on a
// counter (counterExit) needs its bound fixed over the loop; programs
// often compute it again on every trip, with a call that gives the same
// value each time: C++'s for (i = 0; i + 1 < v.size(); i++) calls size()
// before each test, a Fortran loop sets m = ncells(n) and tests i + 1 > m.
// The bound is then the expression, where nothing the loop changes feeds
// it and its calls change nothing, and a counter with an offset is the
// counter against the bound moved by the offset.

// offsetCounter reads v + c (or c + v, v - c) for an INTEGER variable v
// and a constant c: the variable and the constant to move the bound by.
func offsetCounter(e apt.Expr) (*apt.Name, apt.Expr, bool) {
	b, ok := e.(*apt.Binary)
	if !ok || b.Op != apt.OpAdd && b.Op != apt.OpSub {
		return nil, nil, false
	}
	x, y := b.X, b.Y
	if _, isName := x.(*apt.Name); !isName && b.Op == apt.OpAdd {
		x, y = y, x
	}
	nm, isName := x.(*apt.Name)
	c, isConst := y.(*apt.Const)
	if !isName || !isConst || c.Kind != apt.ConstInt || nm.Type.Base != apt.TypeInteger {
		return nil, nil, false
	}
	if b.Op == apt.OpSub {
		return nm, &apt.Unary{Op: apt.OpNeg, X: c}, true
	}
	return nm, c, true
}

// invariantBound makes a loop's exit bound one the loop does not change
// where the body recomputes it on every trip: each variable the body sets,
// at its top level before the test (testAt), from an expression is
// replaced by that expression (t = v.size(), then i >= t: the bound is the
// call's), and the bound is invariant where nothing it then reads changes
// in the body and its calls change nothing (the same call gives the same
// bound on every trip: i >= ncells(n) - 1 too); recomputed is set then.
// maxBoundDefs bounds the temporaries deep a recomputed bound is
// followed.
const maxBoundDefs = 4

func (ev *evaluator) invariantBound(l *apt.Loop, testAt int, bound apt.Expr) (apt.Expr, bool) {
	mod := map[string]bool{}
	ev.collectAssigned(l.Body, mod)
	if !ev.exprMentions(bound, mod) {
		return bound, false
	}
	defs := map[string]*apt.Stmt{}
	count := map[string]int{}
	for i, n := range l.Body {
		apt.Inspect(n, func(m apt.Node) bool {
			if b, ok := m.(*apt.Block); ok {
				for _, st := range b.Stmts {
					if nm, ok := st.Target.(*apt.Name); ok {
						count[nm.Name]++
						if i < testAt && st.Kind == apt.StmtAssign && n == m {
							defs[nm.Name] = st
						}
					}
				}
			}
			return true
		})
	}
	// Through the temporaries the bound's recomputation goes through
	// (t8 = size(t7) after t7 = operator[](rows, 1)): each one's
	// definition, a few levels deep.
	// (Into the arguments of the calls too: the expression is only
	// checked, for what it reads and what its calls change.)
	if c, ok := bound.(*apt.Component); ok && ev.invariantField(c, l.Body, defs, count, mod) {
		return bound, true
	}
	out := bound
	for range maxBoundDefs {
		next := substNamesInCalls(out, func(nm *apt.Name) apt.Expr {
			if st := defs[nm.Name]; st != nil && count[nm.Name] == 1 && mod[ev.key(nm.Name)] && !exprMentionsName(st.Value, nm.Name) {
				return st.Value
			}
			return nm
		})
		if apt.FormatExpr(next) == apt.FormatExpr(out) {
			break
		}
		out = next
	}
	if ev.readsChanged(out, mod) {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "invariantBound %s: %s reads what the loop changes\n", l.Span.Start(), ev.src(out))
		}
		return bound, false
	}
	calls := map[string]bool{}
	ev.collectAssigned([]apt.Node{&apt.Block{Stmts: []*apt.Stmt{{Kind: apt.StmtAssign, Value: out}}}}, calls)
	for k := range calls {
		if !strings.HasSuffix(k, addrSuffix) {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "invariantBound %s: %s changes %s\n", l.Span.Start(), ev.src(out), k)
			}
			return bound, false // a call changes something
		}
	}
	return out, true
}

// readsChanged reports whether e reads a variable, component or array
// that keys holds, its calls' arguments included (what the calls read
// besides is their own: invariantBound has them change nothing).
func (ev *evaluator) readsChanged(e apt.Expr, keys map[string]bool) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			found = keys[ev.key(y.Name)]
		case *apt.Component:
			if k, ok := ev.refKey(y); ok {
				found = keys[k] || keys[strings.SplitN(k, "%", 2)[0]]
			}
		case *apt.Index:
			if k, ok := ev.arrayKey(y); !ok || keys[k] {
				found = true
			}
		}
		return !found
	})
	return found
}

// substNamesInCalls is substNames into the arguments of function calls
// as well.
func substNamesInCalls(e apt.Expr, f func(*apt.Name) apt.Expr) apt.Expr {
	return substNamesIn(e, f, true)
}

// exprMentionsName reports whether e reads the variable name.
func exprMentionsName(e apt.Expr, name string) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if nm, ok := x.(*apt.Name); ok && nm.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// substNames is e with each name f replaces replaced, through the
// arithmetic around it (a bound is a name, or a name and a constant).
func substNames(e apt.Expr, f func(*apt.Name) apt.Expr) apt.Expr {
	return substNamesIn(e, f, false)
}

// substNamesIn is substNames, into calls' arguments where calls is set.
func substNamesIn(e apt.Expr, f func(*apt.Name) apt.Expr, calls bool) apt.Expr {
	switch x := e.(type) {
	case *apt.Name:
		return f(x)
	case *apt.Binary:
		y := *x
		y.X, y.Y = substNamesIn(x.X, f, calls), substNamesIn(x.Y, f, calls)
		return &y
	case *apt.Unary:
		y := *x
		y.X = substNamesIn(x.X, f, calls)
		return &y
	case *apt.FuncCall:
		if !calls {
			return e
		}
		y := *x
		y.Args = make([]apt.Expr, len(x.Args))
		for i, a := range x.Args {
			y.Args[i] = substNamesIn(a, f, calls)
		}
		return &y
	}
	return e
}

// invariantField reports whether the bound t->f (t%f) is one the loop
// does not change where the body recomputes the pointer t on every trip
// from an expression that gives the same address each time (t =
// v[k] in for (i = 0; i < v[k].count; i++), operator[] called again
// before each test): t's one definition in the body reads nothing the
// loop changes and its calls change nothing, and the body stores no
// field nor any element other than real numbers' (none can be f). The
// bound is then t%f as it is before the loop, where the same call set t.
func (ev *evaluator) invariantField(c *apt.Component, body []apt.Node, defs map[string]*apt.Stmt, count map[string]int, mod map[string]bool) bool {
	nm, ok := c.Base.(*apt.Name)
	if !ok {
		return false
	}
	st := defs[nm.Name]
	k := ev.key(nm.Name)
	if st == nil || count[nm.Name] != 1 || !mod[k] && !mod[k+addrSuffix] || exprMentionsName(st.Value, nm.Name) {
		return false
	}
	if ev.readsChanged(st.Value, mod) {
		return false
	}
	calls := map[string]bool{}
	ev.collectAssigned([]apt.Node{&apt.Block{Stmts: []*apt.Stmt{{Kind: apt.StmtAssign, Value: st.Value}}}}, calls)
	for key := range calls {
		if !strings.HasSuffix(key, addrSuffix) {
			return false
		}
	}
	for key := range mod {
		if strings.Contains(key, "%") || strings.HasPrefix(key, "&") {
			return false
		}
	}
	stores := false
	for _, n := range body {
		apt.Inspect(n, func(m apt.Node) bool {
			b, ok := m.(*apt.Block)
			if !ok {
				return !stores
			}
			for _, s := range b.Stmts {
				switch t := s.Target.(type) {
				case *apt.Component:
					stores = true
				case *apt.Index:
					if base := t.Type.Base; base != apt.TypeReal && base != apt.TypeComplex || t.Base != nil {
						stores = true
					}
				}
			}
			return !stores
		})
	}
	return !stores
}
