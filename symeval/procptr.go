package symeval

import (
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Procedure pointers. A name declared PROCEDURE(iface), POINTER holds a
// procedure, as the run holds its address: its value is the number of the
// routine it points to (procCode, from 1; 0 while it points nowhere),
// carried in the state like any value, so that the arms of an IF or a
// SELECT CASE that point it at different routines join into alternatives
// under their conditions. p => name, p => q and NULLIFY (p) change it; its
// declaration's => gives the first. CALL p(...) calls the routine it holds;
// where it may hold several, each is called under the condition that it
// holds that one, as the arms of a SELECT CASE on it would be, and where
// that is data, each at a frequency that is a parameter. The analyses
// that do not evaluate (what a call may assign, control relevance,
// slices) take a call through it for a call of any routine the program
// points it at (callees). internal/aptrun/procptr.go runs the same rules.

// procTable numbers the routines procedure pointers point to.
type procTable struct {
	code    map[*apt.Routine]int64
	routine []*apt.Routine // by code - 1
	targets map[*apt.Var][]*apt.Routine
	freq    map[procArm]*Param
	// taken are the procedures whose names the program uses as values
	// or hands over as arguments (addressTaken).
	taken *[]*apt.Routine
	// ext are the library functions pointers hold, by code - extCode.
	ext []string
	// compTargets are the routines procedure pointer components of each
	// name are pointed at (componentTargets).
	compTargets map[string][]*apt.Routine
}

// extCode numbers the library functions a pointer may hold (libstdc++'s
// std::stoi hands strtol to the routine that calls it): above any
// routine's number.
const extCode = 1 << 40

// libraryTargets are the library functions whose calls through a pointer
// the evaluation makes as the call by name would be: C's conversions.
var libraryTargets = map[string]bool{"atoi": true, "atol": true, "atoll": true, "atof": true, "strtol": true,
	"strtoll": true, "strtoul": true, "strtoull": true, "strtod": true, "strtof": true}

// libraryValue is the value of a library function's name the program
// uses as a value (its address): its number, for the functions calls
// through pointers are made to (libraryTargets); false for other names, and
// for a variable of the program's that has such a name.
func (ev *evaluator) libraryValue(x *apt.Name) (Value, bool) {
	if !libraryTargets[x.Name] {
		return Value{}, false
	}
	if d := ev.prog.Resolve(ev.frame().routine, x.Name); d != nil && !d.External {
		return Value{}, false
	}
	t := ev.procTab()
	i := slices.Index(t.ext, x.Name)
	if i < 0 {
		t.ext = append(t.ext, x.Name)
		i = len(t.ext) - 1
	}
	return Known(symbolic.Int(extCode + int64(i))), true
}

// heldLibrary is the library function the pointer name holds, "" where it
// holds none the evaluation knows.
func (ev *evaluator) heldLibrary(name string) string {
	e, ok := ev.load(name).Single()
	if !ok {
		return ""
	}
	code, _ := e.Int64()
	t := ev.procTab()
	if code < extCode || code >= extCode+int64(len(t.ext)) {
		return ""
	}
	return t.ext[code-extCode]
}

// libraryCall evaluates a call through a pointer holding the C conversion
// function name: the number its first argument's text spells (base 10),
// as the call by name reads it.
func (ev *evaluator) libraryCall(name string, f *apt.FuncCall) (Value, bool) {
	if len(f.Args) == 0 {
		return Value{}, false
	}
	if strings.HasPrefix(name, "strto") && name != "strtod" && name != "strtof" && len(f.Args) > 2 {
		if b, ok := valueInt(ev.value(f.Args[2])); !ok || b != 10 {
			return Value{}, false
		}
	}
	text, ok := ev.cString(f.Args[0])
	if !ok {
		return Value{}, false
	}
	real := name == "atof" || name == "strtod" || name == "strtof"
	if strings.HasPrefix(name, "strto") && len(f.Args) > 1 {
		// The end pointer, where the call is given one: the text after
		// the number it read.
		if nm, isName := f.Args[1].(*apt.Name); isName {
			rest := text[cNumberLen(text, real):]
			ev.store(nm.Name, Value{str: &rest})
		}
	}
	return cNumber(text, real), true
}

// procArm is a routine a call through a pointer may reach.
type procArm struct {
	call *apt.Call
	r    *apt.Routine
}

func (ev *evaluator) procTab() *procTable {
	if ev.procs == nil {
		ev.procs = &procTable{code: map[*apt.Routine]int64{}, targets: map[*apt.Var][]*apt.Routine{}, freq: map[procArm]*Param{}}
	}
	return ev.procs
}

// procCode returns the number that stands for r in a pointer's value.
func (ev *evaluator) procCode(r *apt.Routine) int64 {
	t := ev.procTab()
	if c, ok := t.code[r]; ok {
		return c
	}
	t.routine = append(t.routine, r)
	t.code[r] = int64(len(t.routine))
	return t.code[r]
}

// procOf returns the routine numbered c (nil for 0 or a number no
// routine has).
func (ev *evaluator) procOf(c int64) *apt.Routine {
	t := ev.procTab()
	if c < 1 || c > int64(len(t.routine)) {
		return nil
	}
	return t.routine[c-1]
}

// procVar returns the declaration of name seen from r when it is a
// procedure pointer.
func (ev *evaluator) procVar(r *apt.Routine, name string) *apt.Var {
	if v := ev.prog.Resolve(r, name); v != nil && (v.Procedure && (v.Pointer || v.Dummy) || v.External && v.Dummy) {
		// (A dummy procedure, PROCEDURE(iface) or EXTERNAL, holds the
		// procedure its actual names, as a pointer would.)
		return v
	}
	return nil
}

// procValue evaluates the target of a pointer assignment to a procedure
// pointer, or its declaration's initial target: NULL() is 0, a routine
// its number, another procedure pointer its value.
func (ev *evaluator) procValue(e apt.Expr) Value {
	switch x := e.(type) {
	case *apt.FuncCall:
		if x.Name == "null" && len(x.Args) == 0 {
			return Known(symbolic.Int(0))
		}
	case *apt.Name:
		if ev.procVar(ev.frame().routine, x.Name) != nil {
			return ev.load(x.Name)
		}
		if r := ev.routineNamed(x.Name); r != nil {
			return Known(symbolic.Int(ev.procCode(r)))
		}
		if v, ok := ev.libraryValue(x); ok {
			return v
		}
	}
	return unknownValue("", "the procedure "+ev.src(e), false)
}

// pointProc evaluates p => target and NULLIFY for the procedure pointers
// they name; it reports whether s was one of them.
func (ev *evaluator) pointProc(s *apt.Stmt) bool {
	switch s.Kind {
	case apt.StmtPointerAssign:
		if c, ok := s.Target.(*apt.Component); ok {
			if k, ok := ev.procComponent(c); ok {
				ev.env.set(k, ev.procValue(s.Value))
				return true
			}
			return false
		}
		nm, ok := s.Target.(*apt.Name)
		if !ok || ev.procVar(ev.frame().routine, nm.Name) == nil {
			return false
		}
		ev.store(nm.Name, ev.procValue(s.Value))
		return true
	case apt.StmtNullify:
		for _, a := range s.Args {
			if nm, ok := a.(*apt.Name); ok && ev.procVar(ev.frame().routine, nm.Name) != nil {
				ev.store(nm.Name, Known(symbolic.Int(0)))
			}
			if c, ok := a.(*apt.Component); ok {
				if k, ok := ev.procComponent(c); ok {
					ev.env.set(k, Known(symbolic.Int(0)))
				}
			}
		}
	}
	return false
}

// pointerBinding is the procedure pointer component name of obj's
// declared type or an ancestor's, nil where it has none.
func (ev *evaluator) pointerBinding(obj apt.Expr, name string) *apt.Binding {
	t := apt.TypeOf(obj)
	seen := map[string]bool{}
	for typ := t.Derived; t.Base == apt.TypeDerived && typ != "" && !seen[typ]; {
		seen[typ] = true
		dt := ev.prog.LookupType(ev.frame().routine, typ)
		if dt == nil {
			return nil
		}
		if b := dt.Binding(name); b != nil {
			if b.Pointer {
				return b
			}
			return nil
		}
		typ = dt.Extends
	}
	return nil
}

// procComponent is the storage key of a procedure pointer component
// (obj%run), where c is one.
func (ev *evaluator) procComponent(c *apt.Component) (string, bool) {
	if ev.pointerBinding(c.Base, c.Field) == nil {
		return "", false
	}
	return ev.refKey(c)
}

// componentProc is the value of the procedure pointer component c of
// binding b: what the run stored, else its default target (NULL() is 0).
func (ev *evaluator) componentProc(c *apt.Component, b *apt.Binding) Value {
	k, ok := ev.refKey(c)
	if !ok {
		return Value{}
	}
	if held, stored := ev.env.lookup(k); stored {
		return held
	}
	if len(b.Procs) > 0 {
		if r := ev.routineNamed(b.Procs[0]); r != nil {
			return Known(symbolic.Int(ev.procCode(r)))
		}
		return Value{}
	}
	return Known(symbolic.Int(0))
}

// associatedProc evaluates ASSOCIATED(p[, target]) of a procedure pointer
// or procedure pointer component: whether it holds a routine (the one
// target names), per alternative of what it holds.
func (ev *evaluator) associatedProc(f *apt.FuncCall) (Value, bool) {
	if f.Name != "associated" || len(f.Args) == 0 || len(f.Args) > 2 {
		return Value{}, false
	}
	var v Value
	switch x := argValue(f.Args[0]).(type) {
	case *apt.Name:
		if ev.procVar(ev.frame().routine, x.Name) == nil {
			return Value{}, false
		}
		v = ev.load(x.Name)
	case *apt.Component:
		b := ev.pointerBinding(x.Base, x.Field)
		if b == nil {
			return Value{}, false
		}
		v = ev.componentProc(x, b)
	default:
		return Value{}, false
	}
	want := int64(-1) // any routine
	if len(f.Args) == 2 {
		t, ok := ev.procValue(argValue(f.Args[1])).Single()
		if !ok {
			return Value{}, false
		}
		if want, ok = t.Int64(); !ok {
			return Value{}, false
		}
	}
	if !v.IsKnown() {
		return Value{}, false
	}
	out := Value{}
	for _, a := range v.Alts {
		code, ok := a.E.Int64()
		if !ok {
			return Value{}, false
		}
		held := code != 0 && (want < 0 || code == want)
		out.Alts = append(out.Alts, Alt{Guard: a.Guard, E: symbolic.Int(b2i(held))})
	}
	return out, true
}

// callComponent evaluates CALL obj%run(args) through a procedure pointer
// component: the routine the component points to (its default target
// until the run points it elsewhere), given obj as its PASS dummy unless
// the component is NOPASS; it reports whether c was one.
func (ev *evaluator) callComponent(c *apt.Call, o *Occ) bool {
	if c.Object == nil {
		return false
	}
	b := ev.pointerBinding(c.Object, c.Callee)
	if b == nil {
		return false
	}
	v := ev.componentProc(&apt.Component{Pos: c.Span.Start(), Base: c.Object, Field: c.Callee}, b)
	argsFor := func(r *apt.Routine) []apt.Expr {
		if b.NoPass {
			return c.Args
		}
		at := 0
		if b.Pass != "" {
			at = max(slices.Index(r.Formals, b.Pass), 0)
		}
		return slices.Insert(slices.Clone(c.Args), min(at, len(c.Args)), c.Object)
	}
	return ev.callHeld(c, o, v, ev.componentTargets(c.Callee, b), argsFor)
}

// componentTargets returns (once per name) the routines the program
// points procedure pointer components named name at: the binding's
// default target and the targets of every obj%name => proc.
func (ev *evaluator) componentTargets(name string, b *apt.Binding) []*apt.Routine {
	t := ev.procTab()
	if t.compTargets == nil {
		t.compTargets = map[string][]*apt.Routine{}
	}
	if ts, ok := t.compTargets[name]; ok {
		return ts
	}
	var out []*apt.Routine
	add := func(r *apt.Routine) {
		if r != nil && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(b.Procs) > 0 {
		add(ev.routineNamed(b.Procs[0]))
	}
	for _, r := range allRoutines(ev.prog) {
		for _, n := range r.Body {
			apt.Inspect(n, func(m apt.Node) bool {
				if blk, ok := m.(*apt.Block); ok {
					for _, s := range blk.Stmts {
						c, isComp := s.Target.(*apt.Component)
						v, isName := s.Value.(*apt.Name)
						if s.Kind == apt.StmtPointerAssign && isComp && isName && c.Field == name {
							add(ev.routineNamed(v.Name))
						}
					}
				}
				return true
			})
		}
	}
	t.compTargets[name] = out
	return out
}

// callees returns the routines a call of name from the current routine
// may reach (calleesIn).
func (ev *evaluator) callees(name string) []*apt.Routine {
	return ev.calleesIn(ev.frame().routine, name)
}

// calleesIn returns the routines a call of name from r may reach: the
// routine of that name, or every routine the program points the
// procedure pointer name at; none for a routine outside the program.
func (ev *evaluator) calleesIn(r *apt.Routine, name string) []*apt.Routine {
	if v := ev.procVar(r, name); v != nil {
		return ev.procTargets(v)
	}
	if c := ev.routineNamed(name); c != nil {
		return []*apt.Routine{c}
	}
	return nil
}

// procTargets returns (once) the routines the program points the
// procedure pointer v at: its initial target, and the targets of the
// pointer assignments to it anywhere, through other pointers.
func (ev *evaluator) procTargets(v *apt.Var) []*apt.Routine {
	t := ev.procTab()
	if ts, ok := t.targets[v]; ok {
		return ts
	}
	t.targets[v] = nil // a cycle of pointers adds nothing more
	var out []*apt.Routine
	add := func(r *apt.Routine, e apt.Expr) {
		nm, ok := e.(*apt.Name)
		if !ok {
			return
		}
		var more []*apt.Routine
		if w := ev.procVar(r, nm.Name); w != nil {
			more = ev.procTargets(w)
		} else if c := ev.routineNamed(nm.Name); c != nil {
			more = []*apt.Routine{c}
		}
		for _, c := range more {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	c := ev.cPointers()
	for _, r := range allRoutines(ev.prog) {
		if len(v.Init) > 0 && r.Scope != nil && r.Scope.Lookup(v.Name) == v {
			add(r, v.Init[0])
		}
		for _, n := range r.Body {
			apt.Inspect(n, func(m apt.Node) bool {
				if b, ok := m.(*apt.Block); ok {
					for _, s := range b.Stmts {
						nm, ok := s.Target.(*apt.Name)
						if ok && (s.Kind == apt.StmtPointerAssign || c && s.Kind == apt.StmtAssign) && ev.procVar(r, nm.Name) == v {
							add(r, s.Value)
						}
					}
				}
				return true
			})
		}
	}
	if c || v.Dummy {
		// C carries a function's address through any variable, field
		// or array on its way to the call, and a dummy procedure holds
		// whatever a caller hands over: any function whose address the
		// program takes, or passes as an argument, may be reached.
		for _, r := range ev.addressTaken() {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	t.targets[v] = out
	return out
}

// procedureNamed returns the subroutine or function of the program a name
// seen from r denotes as a value: one no variable declares (the name's
// type unknown), or one an EXTERNAL statement declares that is not a
// dummy; nil otherwise.
func (ev *evaluator) procedureNamed(r *apt.Routine, x *apt.Name) *apt.Routine {
	p := ev.routineNamed(x.Name) // first: most names are no routine's
	if p == nil {
		return nil
	}
	if v := ev.prog.Resolve(r, x.Name); v != nil {
		if !v.External || v.Dummy || v.Pointer {
			return nil
		}
	} else if x.Type.Base != apt.TypeUnknown {
		return nil
	}
	return p
}

// addressTaken returns (once) the procedures whose names the program uses
// as values or arguments, not as the callee of a call.
func (ev *evaluator) addressTaken() []*apt.Routine {
	t := ev.procTab()
	if t.taken != nil {
		return *t.taken
	}
	var out []*apt.Routine
	seen := map[*apt.Routine]bool{}
	for _, r := range allRoutines(ev.prog) {
		visit := func(e apt.Expr) bool {
			nm, ok := e.(*apt.Name)
			if !ok {
				return true
			}
			if f := ev.procedureNamed(r, nm); f != nil && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
			return true
		}
		for _, n := range r.Body {
			apt.Inspect(n, func(m apt.Node) bool {
				switch x := m.(type) {
				case *apt.Block:
					for _, s := range x.Stmts {
						apt.InspectExpr(s.Value, visit)
						for _, a := range s.Args {
							apt.InspectExpr(a, visit)
						}
					}
				case *apt.Call:
					// A function handed to another as an argument.
					for _, a := range x.Args {
						apt.InspectExpr(a, visit)
					}
				}
				return true
			})
		}
	}
	t.taken = &out
	return out
}

// heldProc returns the routine the procedure pointer name holds where it
// holds one routine on every path (a function called through it runs
// then; otherwise its result is not known).
func (ev *evaluator) heldProc(name string) *apt.Routine {
	e, ok := ev.load(name).Single()
	if !ok {
		return nil
	}
	code, _ := e.Int64()
	return ev.procOf(code)
}

// callThrough evaluates a CALL through a procedure pointer; it reports
// whether c was one.
func (ev *evaluator) callThrough(c *apt.Call, o *Occ) bool {
	if ev.procVar(ev.frame().routine, c.Callee) == nil {
		return false
	}
	v := ev.load(c.Callee)
	if _, ok := v.Single(); ok {
		if r := ev.heldProc(c.Callee); r != nil {
			ev.callRoutine(r, c.Args, o, nil)
		} else {
			ev.diag(c.Span.Start(), apt.Warning, "the call through "+c.Shown()+" is made where it points to no procedure")
		}
		return true
	}
	// Several routines: the arms of a SELECT CASE on the pointer.
	return ev.callHeld(c, o, v, slices.Clone(ev.callees(c.Callee)), func(*apt.Routine) []apt.Expr { return c.Args })
}

// callHeld makes the call c through a pointer whose value is v: to each
// routine it may hold (targets, and those v names), under the condition
// that it holds that one (an arm of a SELECT CASE on it), at a frequency
// where that is data; argsFor gives each routine's actuals.
func (ev *evaluator) callHeld(c *apt.Call, o *Occ, v Value, targets []*apt.Routine, argsFor func(*apt.Routine) []apt.Expr) bool {
	for _, a := range v.Alts {
		if code, ok := a.E.Int64(); ok {
			if r := ev.procOf(code); r != nil && !slices.Contains(targets, r) {
				targets = append(targets, r)
			}
		}
	}
	// A routine that cannot take the call's arguments is not what the
	// pointer holds (C: as many as its parameters; Fortran: no more).
	targets = slices.DeleteFunc(targets, func(r *apt.Routine) bool {
		n := len(argsFor(r))
		return len(r.Formals) < n || ev.cPointers() && len(r.Formals) != n
	})
	if len(targets) == 0 {
		ev.diag(c.Span.Start(), apt.Warning, "the program points "+c.Shown()+" at no routine of its own that the evaluation sees (a C++ virtual call, a function of a library): the call is not counted")
		return true
	}
	pre, saved := ev.env, ev.cur
	var outs []outcome
	var states []*domainState
	for _, r := range targets {
		cond, ok := ev.holdsProc(v, ev.procCode(r))
		if ok {
			if t, dec := ev.decideOnPath(cond, nil); dec && !t {
				continue
			}
		}
		ev.cur = saved.clone()
		ev.cur.pending = nil
		switch {
		case !ok:
			p := ev.procFreq(c, r, len(targets))
			ev.freqUses++
			ev.cur.factor = ev.cur.factor.Mul(p.expr().Div(symbolic.Int(100)))
			ev.cur.inexact = "under a call through a procedure pointer the evaluation cannot follow; its frequency is the parameter " + p.Name
		case !isTrue(cond):
			ev.cur.conds = append(ev.cur.conds, cond)
		}
		ev.env = pre.clone()
		ev.callRoutine(r, argsFor(r), o, nil)
		outs = append(outs, outcome{cond: cond, analysable: ok, env: ev.env, dead: ev.cur.dead, cycled: ev.cur.cycled})
		states = append(states, ev.cur)
	}
	if len(outs) > 0 {
		// The pointer holds one of them: the last is where none of the
		// others is held, as an ELSE.
		outs[len(outs)-1].cond = nil
	}
	ev.endArms(saved, pre, outs, states, len(outs) > 0)
	return true
}

// holdsProc returns the condition under which the pointer value v holds
// the routine numbered code; false where v is not known.
func (ev *evaluator) holdsProc(v Value, code int64) (counting.Formula, bool) {
	if !v.IsKnown() {
		return nil, false
	}
	var fs []counting.Formula
	for _, a := range v.Alts {
		c, ok := a.E.Int64()
		if !ok {
			return nil, false
		}
		if c != code {
			continue
		}
		if a.Guard == nil {
			return formulaTrue, true
		}
		fs = append(fs, a.Guard)
	}
	if len(fs) == 0 {
		return formulaFalse, true
	}
	return or(fs...), true
}

// procFreq returns the parameter for how often the call c through a
// pointer the evaluation cannot follow reaches r, in percent; by default
// each of the n routines it may reach as often.
func (ev *evaluator) procFreq(c *apt.Call, r *apt.Routine, n int) *Param {
	t := ev.procTab()
	if p, ok := t.freq[procArm{c, r}]; ok {
		return p
	}
	p := ev.newParam("pct_"+routineTag(ev.frame().routine)+"_"+itoa(c.Span.Line)+"_"+r.Name, FromFrequency, c.Span.Start(),
		"how often the call through "+c.Shown()+" at "+c.Span.Start().String()+" calls "+r.Name+", in percent", false)
	d := symbolic.Int(int64(100 / n))
	p.Default = &d
	t.freq[procArm{c, r}] = p
	return p
}
