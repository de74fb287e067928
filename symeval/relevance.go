package symeval

import (
	"fmt"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Control relevance. Running a loop pays only for the values the counts
// need: those that reach a loop bound or step, a branch condition, a
// message's size, peer or root, an allocation's bounds, or the subscript of
// an array whose elements do. The relevant variables are found once per
// program, as the least fixed point of "appears where control is decided, or
// is assigned from, passed to or passed from one that does". Variables are
// identified by storage: a routine's local by routine and name, a COMMON
// member by block and position, a module variable by its declaration, a
// dummy argument through its actual arguments at every call. A loop that
// only computes values nothing relevant reads (an index into a table of
// twiddle factors) is then left to the symbolic evaluation, whatever its
// INTEGER assignments.

// relevance holds the control-relevant storage identities of a program.
type relevance struct {
	prog *apt.Program
	set  map[string]bool
}

// ident returns the storage identity of name as seen from routine r.
func (rv *relevance) ident(r *apt.Routine, name string) string {
	v := rv.prog.Resolve(r, name)
	if v == nil {
		return r.Name + "." + name
	}
	// A host's variable seen from an internal procedure is the host's: the
	// identity is taken in the routine that declares it.
	for h := r; h != nil && h.Kind != apt.KindModule && h.Scope != nil; h = rv.prog.Host(h) {
		if h.Scope.Lookup(name) == v {
			r = h
			break
		}
	}
	if v.InCommon {
		for _, c := range r.Scope.Commons {
			if c.Name == v.Common {
				for i, m := range c.Vars {
					if m == name {
						return "/" + c.Name + "/#" + strconv.Itoa(i)
					}
				}
			}
		}
	}
	if r.Scope != nil && r.Scope.Lookup(name) == v && r.Kind != apt.KindModule {
		return r.Name + "." + name
	}
	return fmt.Sprintf("%p", v)
}

// relevant reports whether the variable name of routine r is control
// relevant.
func (ev *evaluator) relevant(r *apt.Routine, name string) bool {
	rv := ev.controlSet()
	return rv.set[rv.ident(r, name)]
}

// controlSet computes (once) the program's control-relevant variables.
func (ev *evaluator) controlSet() *relevance {
	if ev.rel != nil {
		return ev.rel
	}
	rv := &relevance{prog: ev.prog, set: map[string]bool{}}
	ev.rel = rv
	routines := allRoutines(ev.prog)
	// names adds the identities of the variables e reads in r; it reports
	// whether one was new.
	names := func(r *apt.Routine, e apt.Expr) bool {
		changed := false
		apt.InspectExpr(e, func(x apt.Expr) bool {
			switch y := x.(type) {
			case *apt.Name:
				if id := rv.ident(r, y.Name); !rv.set[id] {
					rv.set[id] = true
					changed = true
				}
			case *apt.Index:
				if y.Base == nil {
					if id := rv.ident(r, y.Name); !rv.set[id] {
						rv.set[id] = true
						changed = true
					}
				}
			case *apt.FuncCall:
				// A function's result: related to its result variable
				// by bindRelevance.
				if !y.Intrinsic {
					if id := rv.ident(r, y.Name); !rv.set[id] {
						rv.set[id] = true
						changed = true
					}
				}
			}
			return true
		})
		return changed
	}
	// target returns the identity an assignment stores to.
	var target func(r *apt.Routine, e apt.Expr) (string, bool)
	target = func(r *apt.Routine, e apt.Expr) (string, bool) {
		switch t := e.(type) {
		case *apt.Name:
			return rv.ident(r, t.Name), true
		case *apt.Index:
			if t.Base == nil {
				return rv.ident(r, t.Name), true
			}
			return target(r, t.Base)
		case *apt.Component:
			// A component is as relevant as its whole object.
			return target(r, t.Base)
		}
		return "", false
	}
	// Seeds: the expressions that decide control.
	for _, r := range routines {
		for _, n := range r.Body {
			apt.Inspect(n, func(y apt.Node) bool {
				switch x := y.(type) {
				case *apt.Loop:
					names(r, x.Lower)
					names(r, x.Upper)
					names(r, x.Step)
					names(r, x.While)
					names(r, x.Iterations)
				case *apt.Branch:
					names(r, x.Cond)
					for _, c := range x.Cases {
						names(r, c.Lo)
						names(r, c.Hi)
					}
				case *apt.If:
					names(r, x.Selector)
				case *apt.Comm:
					for _, m := range []*apt.Msg{x.Send, x.Recv} {
						if m != nil {
							names(r, m.Count)
							names(r, m.Peer)
							names(r, m.Datatype)
						}
					}
					names(r, x.Root)
					names(r, x.Comm)
				case *apt.Goto:
					names(r, x.Index)
				case *apt.IO:
					// Which command-line argument a C program parses
					// decides the value.
					names(r, x.Arg)
					names(r, x.From)
					// The file a unit is connected to decides what its
					// READs give, where input files are read.
					if ev.dir != "" && (x.Kind == apt.IOOpen || x.Kind == apt.IORead) {
						names(r, x.Unit)
						if f := keyword(x, "file"); f != nil {
							names(r, f)
						}
					}
				case *apt.Block:
					for _, s := range x.Stmts {
						if s.Kind == apt.StmtAllocate {
							for _, a := range s.Args {
								if ix, ok := a.(*apt.Index); ok {
									for _, sub := range ix.Subs {
										names(r, sub)
									}
								}
							}
						}
					}
				}
				return true
			})
		}
	}
	// Propagate to what those variables are computed from, through calls
	// both ways, until nothing changes.
	for changed := true; changed; {
		changed = false
		for _, r := range routines {
			for _, n := range r.Body {
				apt.Inspect(n, func(y apt.Node) bool {
					switch x := y.(type) {
					case *apt.Block:
						for _, s := range x.Stmts {
							if s.Kind != apt.StmtAssign {
								continue
							}
							id, ok := target(r, s.Target)
							if ok && !rv.set[id] && ev.copiesPointer(r, s) && rv.readsRelevant(r, s.Value) {
								// p = owner(i): what is stored through
								// p is what owner's rows hold.
								rv.set[id] = true
								changed = true
							}
							if !ok || !rv.set[id] {
								continue
							}
							if names(r, s.Value) {
								changed = true
							}
							if ix, ok := s.Target.(*apt.Index); ok {
								for _, sub := range ix.Subs {
									if names(r, sub) {
										changed = true
									}
								}
							}
						}
					case *apt.Call:
						if outs, ins, ok := packFlow(x.Callee); ok {
							// What MPI_PACK and MPI_UNPACK write is
							// computed from what they read.
							for _, o := range outs {
								if o >= len(x.Args) {
									continue
								}
								if id, ok := target(r, argValue(x.Args[o])); !ok || !rv.set[id] {
									continue
								}
								for _, i := range ins {
									if i < len(x.Args) && names(r, argValue(x.Args[i])) {
										changed = true
									}
								}
							}
						}
						if ev.bindRelevance(rv, r, x.Callee, x.Args, names, target) {
							changed = true
						}
					case *apt.Comm:
						// What a call receives is what it sends (a
						// scatter of counts rank 0 computed, an
						// allreduce): where the received value decides
						// control, so does the sent one, and so do the
						// displacements that say where each block
						// lands (an alltoallv of keys).
						if x.Send != nil && x.Recv != nil && x.Send.Buffer != nil && x.Recv.Buffer != nil {
							if id, ok := target(r, argValue(x.Recv.Buffer)); ok && rv.set[id] {
								for _, e := range []apt.Expr{argValue(x.Send.Buffer), x.Send.Displs, x.Recv.Displs} {
									if names(r, e) {
										changed = true
									}
								}
							}
						}
					case *apt.Loop:
						// A DO variable takes its values from the bounds.
						if x.Var != "" && rv.set[rv.ident(r, x.Var)] {
							for _, e := range []apt.Expr{x.Lower, x.Upper, x.Step} {
								if names(r, e) {
									changed = true
								}
							}
						}
					}
					return true
				})
				var calls func(e apt.Expr)
				calls = func(e apt.Expr) {
					apt.InspectExpr(e, func(x apt.Expr) bool {
						if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
							if ev.bindRelevance(rv, r, f.Name, f.Args, names, target) {
								changed = true
							}
						}
						return true
					})
				}
				apt.Inspect(n, func(y apt.Node) bool {
					if b, ok := y.(*apt.Block); ok {
						for _, s := range b.Stmts {
							calls(s.Value)
						}
					}
					return true
				})
			}
		}
	}
	return rv
}

// bindRelevance relates the actual arguments of a call in r to the callee's
// dummies: a relevant dummy makes its actual's variables relevant, and a
// relevant variable passed by reference makes its dummy relevant. A
// function whose result is relevant where it is used makes its result
// variable relevant too (through the caller's assignment, handled as a
// read of the function's name).
func (ev *evaluator) bindRelevance(rv *relevance, r *apt.Routine, callee string, args []apt.Expr,
	names func(*apt.Routine, apt.Expr) bool, target func(*apt.Routine, apt.Expr) (string, bool)) bool {
	changed := false
	for _, c := range ev.calleesIn(r, callee) {
		if ev.bindCallee(rv, r, c, callee, args, names, target) {
			changed = true
		}
	}
	return changed
}

// bindCallee is bindRelevance for one routine c the call may reach.
func (ev *evaluator) bindCallee(rv *relevance, r, c *apt.Routine, callee string, args []apt.Expr,
	names func(*apt.Routine, apt.Expr) bool, target func(*apt.Routine, apt.Expr) (string, bool)) bool {
	changed := false
	for i, formal := range c.Formals {
		if i >= len(args) || formal == "*" {
			continue
		}
		a := args[i]
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		fid := rv.ident(c, formal)
		if rv.set[fid] {
			if names(r, a) {
				changed = true
			}
		} else if aid, ok := target(r, a); ok && rv.set[aid] {
			rv.set[fid] = true
			changed = true
		}
	}
	if c.Kind == apt.KindFunction {
		res := c.Result
		if res == "" {
			res = c.Name
		}
		fid := rv.ident(r, callee)
		if rv.set[fid] {
			if id := rv.ident(c, res); !rv.set[id] {
				rv.set[id] = true
				changed = true
			}
		}
	}
	return changed
}

// copiesPointer reports whether s copies a C pointer into a pointer
// variable (row = owner(i)): the two then reach the same storage, so that
// a store through either is one to what the other reaches.
func (ev *evaluator) copiesPointer(r *apt.Routine, s *apt.Stmt) bool {
	if !ev.cPointers() {
		return false
	}
	nm, ok := s.Target.(*apt.Name)
	if !ok {
		return false
	}
	d := ev.prog.Resolve(r, nm.Name)
	if d == nil || !unsized(d.Dims) {
		return false
	}
	switch s.Value.(type) {
	case *apt.Name, *apt.Index, *apt.Component:
		return true
	}
	return false
}

// readsRelevant reports whether e reads a relevant variable's storage.
func (rv *relevance) readsRelevant(r *apt.Routine, e apt.Expr) bool {
	hit := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			hit = hit || rv.set[rv.ident(r, y.Name)]
		case *apt.Index:
			if y.Base == nil {
				hit = hit || rv.set[rv.ident(r, y.Name)]
			}
		}
		return !hit
	})
	return hit
}
