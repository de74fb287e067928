package symeval

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Running loops. A loop whose trip count is a number (at a point, or a
// constant in the source) and that computes values the counts need (a
// process-grid side found by a search, a level size halved step by step, an
// array of cell sizes, an integer log2 by repeated doubling) is run: its body
// is walked once per iteration with the DO variable a number, so every
// value it computes is exact afterwards and the conditions on the iteration
// are decided where they become constants. A DO WHILE is run while its
// condition is decided at each test. Every iteration adds its occurrences,
// so running is bounded by the size of the work (iterations times the nodes
// the body reaches); a loop beyond the bounds is evaluated symbolically, its
// body once with the iteration as a domain variable.
//
// Inside a running loop, EXIT and CYCLE are jumps to the loop's end and to
// the end of the iteration, and a forward GO TO out of the loop waits at its
// label as any forward GO TO does: the paths that took them rejoin there, so
// a search loop that exits under a condition on the rank stays exact.

const (
	// maxRunTrips bounds the iterations of a loop that is run.
	maxRunTrips = 4096
	// runBudget bounds the node visits one loop run may cost, and
	// totalRunBudget those of all runs of an evaluation.
	runBudget      = 50000
	totalRunBudget = 500000
	// perProcessRun is what both budgets grow by per process at a point:
	// set-up that walks every process (a decomposition's loop over the
	// chunks, neighbour and displacement tables) costs each rank work in
	// proportion to P, and must run at P = 1024 as it does at 4.
	perProcessRun = 64
)

// processRuns is the budget a point's process count adds (perProcessRun).
func (ev *evaluator) processRuns() int64 {
	np, ok := ev.values[Size]
	if !ok || np < 1 {
		return 0
	}
	return perProcessRun * min(np, 1<<20)
}

// totalRuns bounds the node visits of all runs of an evaluation.
func (ev *evaluator) totalRuns() int64 { return totalRunBudget + ev.processRuns() }

// runState marks a loop being run in its frame: the synthetic labels its
// EXIT and CYCLE jump to.
type runState struct {
	loop        *apt.Loop
	exit, cycle string
}

// running returns the run state of the innermost loop of the frame, nil when
// it is not being run.
func (fr *frame) running() *runState {
	if len(fr.runs) == 0 || len(fr.loops) == 0 {
		return nil
	}
	r := fr.runs[len(fr.runs)-1]
	if r == nil || r.loop != fr.loops[len(fr.loops)-1] {
		return nil
	}
	return r
}

// allRunning reports whether every DO loop the frame is inside is being
// run, so that each loop variable has one value on the current path.
func (fr *frame) allRunning() bool {
	for _, l := range fr.loops {
		if !slices.ContainsFunc(fr.runs, func(r *runState) bool { return r != nil && r.loop == l }) {
			return false
		}
	}
	return true
}

// freshScalars returns the variables the body of l sets anew on every
// iteration from the DO variable and values the loop does not change
// (iglob = ipt + i), before any read of them in the body: their value is a
// closed form in the iteration, so evaluating the body once for all
// iterations keeps them exact and the loop need not be run for them.
//
// The body is scanned construct by construct with the variables set so far
// on every path of the iteration (avail). A read of a changed variable that
// is not available reads a value carried from an earlier iteration (or left
// by a call or an inner loop), which only a run keeps exact. A variable set
// in an arm of an IF stays available after it when every arm (an absent
// ELSE keeps the value before) leaves it so: the evaluation joins the arms'
// closed forms. Inside an inner DO loop what the outer iteration set is
// available, and the inner loop's own variable is a closed form; after it,
// what it set is not (the loop may not run, and its last iteration's values
// are not kept). So a subdomain index set inside an IF around an inner
// loop (jglob and iglob of a process's part of a global grid) no longer
// makes every loop around it run: NPB LU's initial values at P = 1 were
// run for 31 x 33 iterations of six calls each, 1.5 s of a 1.6 s analysis.
//
// What l leaves for the code after it stays a reason to run: a value l's
// own statements set on some paths only (a search keeping the element that
// matches the rank), or one a loop inside sets without setting it anew on
// each of its iterations, is not fresh. A body with GO TOs is scanned in
// statement order instead (freshScalarsLinear).
//
// The answer is kept per loop, by variable name (freshMemo), and read in
// the storage of each activation of the routine: a loop run around l, and
// the probes, ask again on every trip and every call, and the scan walks
// l's body and those of the loops inside it. What differs between
// activations (an arm decided by a value another trip of a loop around l
// changes, collectAssigned taking only the arms decided; a routine called
// with one variable for two arguments) is then the first activation's: that
// can only leave to the symbolic evaluation a loop that a run would have
// kept exact, or a counter to the value the loop changes without its
// increment, never make a count wrong.
func (ev *evaluator) freshScalars(l *apt.Loop, mod []string) map[string]bool {
	if names, ok := ev.freshMemo[l]; ok {
		f := make(map[string]bool, len(names))
		for _, n := range names {
			f[ev.key(n)] = true
		}
		return f
	}
	var f map[string]bool
	if hasGoto(l.Body) {
		f = ev.freshScalarsLinear(l, mod)
	} else {
		f = ev.freshScalarsScan(l, mod)
	}
	if ev.freshMemo == nil {
		ev.freshMemo = map[*apt.Loop][]string{}
	}
	fr := ev.frame()
	names := make([]string, 0, len(f))
	for k := range f {
		name := ""
		for a, ak := range fr.alias {
			if ak == k {
				name = a
				break
			}
		}
		if name == "" {
			name = ev.nameOfKey(k)
		}
		if ev.key(name) == k {
			names = append(names, name)
		}
	}
	ev.freshMemo[l] = names
	return f
}

// freshScalarsScan is freshScalars for a body without GO TOs.
func (ev *evaluator) freshScalarsScan(l *apt.Loop, mod []string) map[string]bool {
	changed := map[string]bool{}
	for _, k := range mod {
		changed[k] = true
	}
	bad := map[string]bool{}      // read where not available, or set from such a value
	assigned := map[string]bool{} // set anew somewhere in the body
	level := map[string]bool{}    // set by a statement of l's own, not of a loop inside
	notInner := map[string]bool{} // set by a loop inside that does not set it anew
	// note records the reads of e where avail holds what is set on this
	// iteration; it reports whether every value e reads is a closed form
	// of the iteration.
	note := func(e apt.Expr, avail map[string]bool) bool {
		ok := true
		for _, k := range ev.readKeys(e) {
			switch {
			case k == "#call":
				ok = false
			case changed[k] && !avail[k]:
				bad[k] = true
				ok = false
			}
		}
		return ok
	}
	unset := func(n apt.Node, avail map[string]bool) {
		set := map[string]bool{}
		ev.collectAssigned([]apt.Node{n}, set)
		for k := range set {
			delete(avail, k)
		}
	}
	var scan func(nodes []apt.Node, avail map[string]bool, depth int)
	scan = func(nodes []apt.Node, avail map[string]bool, depth int) {
		for _, n := range nodes {
			switch x := n.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					ok := note(st.Value, avail)
					if st.Mask != nil {
						note(st.Mask, avail)
						ok = false
					}
					for _, a := range st.Args {
						note(a, avail)
					}
					switch t := st.Target.(type) {
					case *apt.Name:
						k := ev.key(t.Name)
						if st.Kind == apt.StmtAssign && ok {
							avail[k] = true
							assigned[k] = true
							if depth == 0 {
								level[k] = true
							}
						} else {
							delete(avail, k)
							bad[k] = true
						}
					case nil:
					default:
						// An element, a section or a component: the
						// variable is not set anew as a whole.
						note(t, avail)
						set := map[string]bool{}
						ev.collectAssigned([]apt.Node{&apt.Block{Stmts: []*apt.Stmt{st}}}, set)
						for k := range set {
							delete(avail, k)
							bad[k] = true
						}
					}
				}
			case *apt.Loop:
				ok := true
				for _, e := range []apt.Expr{x.Lower, x.Upper, x.Step, x.While} {
					if e != nil && !note(e, avail) {
						ok = false
					}
				}
				inner := maps.Clone(avail)
				if x.Var != "" {
					k := ev.key(x.Var)
					if ok {
						inner[k] = true
						assigned[k] = true
					} else {
						delete(inner, k)
						bad[k] = true
					}
				}
				if depth == 0 {
					// A value a loop inside leaves is kept exact by
					// running l only where that loop does not set it
					// anew on each of its own iterations (a search in
					// it).
					innerFresh := ev.freshScalars(x, ev.modified(x.Body))
					set := map[string]bool{}
					ev.collectAssigned(x.Body, set)
					for k := range set {
						if !innerFresh[k] {
							notInner[k] = true
						}
					}
				}
				scan(x.Body, inner, depth+1)
				if x.While != nil {
					note(x.While, inner) // tested again after each trip
				}
				unset(x, avail)
				if x.Var != "" && ok {
					avail[ev.key(x.Var)] = true
				}
			case *apt.If:
				if x.Selector != nil {
					note(x.Selector, avail)
				}
				var after map[string]bool
				hasElse := false
				for _, b := range x.Branches {
					if b.Cond != nil {
						note(b.Cond, avail)
					}
					for _, c := range b.Cases {
						if c.Lo != nil {
							note(c.Lo, avail)
						}
						if c.Hi != nil {
							note(c.Hi, avail)
						}
					}
					if b.Cond == nil && len(b.Cases) == 0 {
						hasElse = true
					}
					arm := maps.Clone(avail)
					scan(b.Body, arm, depth)
					if after == nil {
						after = arm
					} else {
						maps.DeleteFunc(after, func(k string, _ bool) bool { return !arm[k] })
					}
				}
				// What an arm sets is available after the IF when every
				// arm leaves it so, the missing ELSE by keeping it; what
				// no arm sets stays as it was.
				set := map[string]bool{}
				ev.collectAssigned([]apt.Node{x}, set)
				for k := range set {
					if after[k] && (hasElse || avail[k]) {
						avail[k] = true
					} else {
						delete(avail, k)
					}
				}
			case *apt.Call:
				for _, a := range x.Args {
					note(a, avail)
				}
				set := map[string]bool{}
				ev.collectAssigned([]apt.Node{x}, set)
				for k := range set {
					delete(avail, k)
					bad[k] = true
				}
			default:
				// Anything else reads what its blocks read and sets what it
				// sets from values not followed here.
				apt.Inspect(n, func(y apt.Node) bool {
					if bb, ok := y.(*apt.Block); ok {
						for _, st := range bb.Stmts {
							for _, e := range append([]apt.Expr{st.Value, st.Mask}, st.Args...) {
								note(e, avail)
							}
						}
					}
					return true
				})
				set := map[string]bool{}
				ev.collectAssigned([]apt.Node{n}, set)
				for k := range set {
					delete(avail, k)
					bad[k] = true
				}
			}
		}
	}
	avail := map[string]bool{}
	if l.Var != "" {
		avail[ev.key(l.Var)] = true
	}
	scan(l.Body, avail, 0)
	// A value l's own statements set only on some paths (a search that
	// keeps the element matching the rank) is what l leaves for the code
	// after it: a run keeps it.
	fresh := map[string]bool{}
	for k := range assigned {
		if !bad[k] && !notInner[k] && (!level[k] || avail[k] || !ev.readAfter(l, k)) {
			fresh[k] = true
		}
	}
	return fresh
}

// readAfter reports whether the value key holds when loop l ends may be
// read: key is not a plain local of the current routine (it is in COMMON
// or a module, a dummy argument, SAVEd or initialised, or the routine
// contains procedures that may see it), or a statement of the routine
// outside l reads the variable (before l too: a loop around l, or a GO TO
// back, runs it again). A local that only l reads is set and used within
// each iteration (FT's checksum indices r and s, set in the arms of the
// IFs that test them), however the IFs around its assignments go.
func (ev *evaluator) readAfter(l *apt.Loop, key string) bool {
	fr := ev.frame()
	name := keyName(key)
	r := fr.routine
	if key != fr.id+"."+name || r.Kind == apt.KindModule || len(r.Contains) > 0 {
		return true
	}
	if _, aliased := fr.alias[name]; aliased {
		return true
	}
	if v := ev.prog.Resolve(r, name); v != nil && (v.InCommon || v.Save || len(v.Init) > 0) {
		return true
	}
	if ev.readsIn == nil {
		ev.readsIn = map[any]map[string]int{}
	}
	reads := func(x any, nodes []apt.Node) map[string]int {
		if m, ok := ev.readsIn[x]; ok {
			return m
		}
		m := nodeReads(nodes)
		ev.readsIn[x] = m
		return m
	}
	all := reads(r, r.Body)
	return all["*"] > 0 || all[name] > reads(l, []apt.Node{l})[name]
}

// readKeys returns the storage keys of the variables e reads, and "#call"
// for a call of one of the program's functions, which may read anything.
// A component array x%a(i) reads x (its Base, visited as a name), not a
// variable named a.
func (ev *evaluator) readKeys(e apt.Expr) []string {
	var out []string
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			out = append(out, ev.key(y.Name))
		case *apt.Index:
			if y.Base == nil {
				out = append(out, ev.key(y.Name))
			}
		case *apt.FuncCall:
			if ev.routineNamed(y.Name) != nil {
				out = append(out, "#call")
			}
		}
		return true
	})
	return out
}

// nodeReads counts, for each variable name, the places nodes read it: every
// expression of every statement, but not the variable an assignment or a DO
// loop sets. A statement the frontend did not model may read anything:
// "*" counts those, and readAfter then takes every name as read.
func nodeReads(nodes []apt.Node) map[string]int {
	m := map[string]int{}
	eachReadExpr(nodes, func(e apt.Expr) { countNames(e, m) }, func() { m["*"]++ })
	return m
}

// eachReadExpr calls read with every expression nodes read (nodeReads'
// places) and unmodelled for each statement the frontend did not model.
func eachReadExpr(nodes []apt.Node, read func(apt.Expr), unmodelled func()) {
	for _, n := range nodes {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					if _, plain := st.Target.(*apt.Name); !plain || st.Kind != apt.StmtAssign {
						read(st.Target)
					}
					read(st.Value)
					read(st.Mask)
					for _, a := range st.Args {
						read(a)
					}
				}
			case *apt.Loop:
				for _, e := range []apt.Expr{x.Lower, x.Upper, x.Step, x.While, x.Iterations} {
					read(e)
				}
			case *apt.If:
				read(x.Selector)
			case *apt.Branch:
				read(x.Cond)
				for _, c := range x.Cases {
					read(c.Lo)
					read(c.Hi)
				}
			case *apt.Call:
				for _, a := range x.Args {
					read(a)
				}
			case *apt.Comm:
				for _, a := range x.Args {
					read(a)
				}
			case *apt.IO:
				read(x.Unit)
				read(x.Format)
				for _, e := range x.Control {
					read(e)
				}
				for _, e := range x.Items {
					read(e)
				}
			case *apt.Goto:
				read(x.Index)
			case *apt.Return:
				read(x.Value)
			case *apt.Stop:
				read(x.Code)
			case *apt.Unknown:
				unmodelled()
			}
			return true
		})
	}
}

// countNames adds the names e mentions to m.
func countNames(e apt.Expr, m map[string]int) {
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			m[y.Name]++
		case *apt.Index:
			m[y.Name]++
		case *apt.FuncCall:
			m[y.Name]++
		case *apt.ImpliedDo:
			m[y.Var]++
		}
		return true
	})
}

// hasGoto reports whether body holds a GO TO.
func hasGoto(body []apt.Node) bool {
	found := false
	for _, n := range body {
		apt.Inspect(n, func(n apt.Node) bool {
			if _, ok := n.(*apt.Goto); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// freshScalarsLinear is freshScalars for a body with GO TOs, whose paths
// the scan by construct below does not follow: it takes the statements in
// order and treats what an IF or a call sets as carried. It returns the variables the body of l sets anew on every
// iteration from the DO variable and values the loop does not change
// (iglob = ipt + i), before any read of them in the body: their value is a
// closed form in the iteration, so evaluating the body once for all
// iterations keeps them exact and the loop need not be run for them.
func (ev *evaluator) freshScalarsLinear(l *apt.Loop, mod []string) map[string]bool {
	changed := map[string]bool{}
	for _, k := range mod {
		changed[k] = true
	}
	fresh := map[string]bool{}
	read := map[string]bool{} // read before being set on this iteration
	reads := ev.readKeys
	loopVar := ""
	if l.Var != "" {
		loopVar = ev.key(l.Var)
	}
	ok := func(e apt.Expr) bool {
		for _, k := range reads(e) {
			if k == "#call" || changed[k] && k != loopVar && !fresh[k] {
				return false
			}
		}
		return true
	}
	for _, n := range l.Body {
		if inner, isLoop := n.(*apt.Loop); isLoop && inner.Var != "" {
			// A loop inside: what it sets anew on each of its own
			// iterations before reading it needs no run of this loop
			// either, unless this loop reads it after the inner one.
			innerFresh := ev.freshScalars(inner, ev.modified(inner.Body))
			apt.Inspect(inner, func(y apt.Node) bool {
				if bb, ok := y.(*apt.Block); ok {
					for _, st := range bb.Stmts {
						for _, e := range append([]apt.Expr{st.Value, st.Mask}, st.Args...) {
							for _, k := range reads(e) {
								if !innerFresh[k] {
									read[k] = true
								}
							}
						}
					}
				}
				return true
			})
			mod := map[string]bool{}
			ev.collectAssigned([]apt.Node{n}, mod)
			for k := range mod {
				if innerFresh[k] && !read[k] {
					fresh[k] = true
				} else {
					delete(fresh, k)
					read[k] = true
				}
			}
			continue
		}
		b, isBlock := n.(*apt.Block)
		if !isBlock {
			// Anything else may read or set them: what is fresh so far
			// stays so, what is read there is read.
			apt.Inspect(n, func(y apt.Node) bool {
				if bb, ok := y.(*apt.Block); ok {
					for _, st := range bb.Stmts {
						for _, e := range append([]apt.Expr{st.Value, st.Mask}, st.Args...) {
							for _, k := range reads(e) {
								read[k] = true
							}
						}
					}
				}
				return true
			})
			mod := map[string]bool{}
			ev.collectAssigned([]apt.Node{n}, mod)
			for k := range mod {
				delete(fresh, k)
				read[k] = true
			}
			continue
		}
		for _, st := range b.Stmts {
			for _, k := range reads(st.Value) {
				read[k] = true
			}
			for _, k := range reads(st.Mask) {
				read[k] = true
			}
			nm, isName := st.Target.(*apt.Name)
			if !isName || st.Kind != apt.StmtAssign {
				continue
			}
			k := ev.key(nm.Name)
			if read[k] && !fresh[k] {
				continue // read before this iteration set it: carried
			}
			if ok(st.Value) {
				fresh[k] = true
			} else {
				delete(fresh, k)
				read[k] = true
			}
		}
	}
	return fresh
}

// runOK reports whether a loop of trips iterations may be run within the
// budgets, and reserves the budget when it may.
func (ev *evaluator) runOK(l *apt.Loop, trips int64) bool {
	if trips < 0 || trips > maxRunTrips {
		return false
	}
	cost := trips * int64(ev.bodySize(l.Body))
	if debugRuns {
		fmt.Fprintf(os.Stderr, "runOK %s trips=%d cost=%d total=%d\n", l.Span.Start(), trips, cost, ev.runVisits)
	}
	return cost <= ev.runLimit() && ev.runVisits+cost <= ev.totalRuns() && ev.roomForRun(cost)
}

// roomForRun reports whether a run that makes about n more occurrences
// leaves the evaluation half its occurrences (Options.MaxOccs) for the
// rest of the program: a run is for exactness, and a program whose runs
// took every occurrence could not be evaluated at all.
func (ev *evaluator) roomForRun(n int64) bool {
	return int64(ev.noccs)+n <= int64(ev.maxOccs)/2 && !ev.lean()
}

// bodySize counts the nodes a walk of nodes visits, callees included once
// per call.
func (ev *evaluator) bodySize(nodes []apt.Node) int {
	n := 0
	for _, x := range nodes {
		apt.Inspect(x, func(y apt.Node) bool {
			n++
			if c, ok := y.(*apt.Call); ok {
				for _, r := range ev.callees(c.Callee) {
					n += ev.routineSize(r)
				}
			}
			return true
		})
	}
	return n
}

func (ev *evaluator) routineSize(r *apt.Routine) int {
	if n, ok := ev.sizes2[r]; ok {
		return n
	}
	ev.sizes2[r] = runBudget + 1 // a recursive call is too large to run
	n := ev.bodySize(r.Body)
	ev.sizes2[r] = n
	return n
}

// boundsPowerOf reports whether a loop in l's body has a bound or step
// with a power whose exponent reads l's variable.
func (ev *evaluator) boundsPowerOf(l *apt.Loop) bool {
	found := false
	powOfVar := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if b, ok := x.(*apt.Binary); ok && b.Op == apt.OpPow {
				apt.InspectExpr(b.Y, func(y apt.Expr) bool {
					if nm, ok := y.(*apt.Name); ok && nm.Name == l.Var {
						found = true
					}
					return !found
				})
			}
			return !found
		})
	}
	for _, n := range l.Body {
		apt.Inspect(n, func(y apt.Node) bool {
			if x, ok := y.(*apt.Loop); ok {
				powOfVar(x.Lower)
				powOfVar(x.Upper)
				powOfVar(x.Step)
			}
			return !found
		})
	}
	return found
}

// computesControl reports whether running l may make values exact that the
// symbolic evaluation of its body would lose: it assigns elements of
// INTEGER or LOGICAL arrays, its variable selects array elements or is
// passed to a routine (arrays reports these), or it assigns INTEGER or
// LOGICAL variables other than by x = x + c at the top of the body (their
// storage keys are in scalars: an increment deeper in the body may still
// have a closed form, see probeIncrements).
// keyDecl is the declaration of what the storage key k holds, seen from r,
// and the name of the variable whose relevance decides it: for a scalar
// component (s%first, accumulated over the ranks before this one) the
// field's declaration and the object's name.
func (ev *evaluator) keyDecl(r *apt.Routine, k string) (*apt.Var, string) {
	base, path, comp := strings.Cut(k, "%")
	// A dummy names its actual's storage (px bound to a COMMON member of
	// the caller): the routine knows it by the dummy's name.
	name := ""
	for n, a := range ev.frame().alias {
		if a == base && (name == "" || n < name) {
			name = n
		}
	}
	if name == "" {
		name = ev.nameOfKey(base)
	}
	r = ev.keyRoutine(r, k)
	if !comp {
		return ev.prog.Resolve(r, name), name
	}
	return ev.fieldDecl(r, name, strings.Split(path, "%")), name
}

// keyRoutine is the routine in which the variable at storage key k is
// declared and relevant or not, seen from r: r itself, but for the SAVE
// variable of another procedure (a call in r changes it), that procedure.
func (ev *evaluator) keyRoutine(r *apt.Routine, k string) *apt.Routine {
	base, _, _ := strings.Cut(k, "%")
	if owner, ok := ev.savedIn[base]; ok {
		return owner
	}
	return r
}

// fieldDecl is the declaration of the component path of the variable base
// in r (s, [first] for s%first), nil where a type or field is not found.
func (ev *evaluator) fieldDecl(r *apt.Routine, base string, path []string) *apt.Var {
	d := ev.prog.Resolve(r, base)
	for _, f := range path {
		if d == nil || d.Type.Base != apt.TypeDerived {
			return nil
		}
		dt := ev.prog.LookupType(r, d.Type.Derived)
		if dt == nil {
			return nil
		}
		d = dt.Field(f)
	}
	return d
}

func (ev *evaluator) computesControl(l *apt.Loop) (scalars []string, arrays bool) {
	mod := ev.modified(l.Body)
	recs := map[string]Value{}
	var wraps map[string]*wrapCounter
	if !hasJumps(l.Body) {
		recs = ev.recurrences(l, mod)
		wraps = ev.wrapCounters(l, mod, ev.env)
	}
	// The variables of the DO loops inside are set by those loops.
	inner := map[string]bool{}
	for _, n := range l.Body {
		apt.Inspect(n, func(y apt.Node) bool {
			if x, ok := y.(*apt.Loop); ok && x.Var != "" {
				inner[ev.key(x.Var)] = true
			}
			return true
		})
	}
	r := ev.frame().routine
	fresh := ev.freshScalars(l, mod)
	// A value set afresh on each trip carries nothing to the next, but
	// where the body can leave the loop it may decide on which trip (a
	// search for a free unit, EXIT on a flag): a run finds it.
	leaves := exitsLoop(l.Body)
	for _, k := range mod {
		if _, ok := recs[k]; ok || wraps[k] != nil || inner[k] || fresh[k] && !leaves {
			continue
		}
		if base, isAddr := strings.CutSuffix(k, addrSuffix); isAddr {
			// A pointer the loop moves from a known address (a buffer
			// swapped each step): only a run follows where it points.
			if v, ok := ev.env.lookup(k); ok && v.IsKnown() && !(fresh[base] && !leaves) {
				arrays = true
			}
			continue
		}
		d, name := ev.keyDecl(r, k)
		r := ev.keyRoutine(r, k)
		if isElemShapeKey(k) {
			// The bounds of an allocatable component of array elements,
			// one set per element (elemshape.go): a run gives each
			// element's.
			if ev.relevant(r, name) {
				arrays = true
			}
			continue
		}
		if d != nil && d.Type.Base == apt.TypeDerived && d.Type.Kind > 0 && unsized(d.Dims) && ev.cPointers() {
			// A pointer stepped through an array of structures (a
			// constructor called on each element of a std::vector's
			// storage, for (p = first; p != last; ++p)): only a run
			// follows what each element receives.
			if v, ok := ev.env.lookup(k); ok {
				if _, _, on := ev.heapAt(v, int64(d.Type.Kind)); on && !(fresh[k] && !leaves) {
					arrays = true
				}
			}
			continue
		}
		if d != nil && d.IsArray() && d.Type.Base == apt.TypeDerived && !ev.cPointers() && ev.relevant(r, name) {
			// An array of objects whose components the counts read
			// (blocks(b)%nx set per block): only a run gives each
			// element's.
			arrays = true
			continue
		}
		if d != nil &&
			(d.Type.Base == apt.TypeInteger || d.Type.Base == apt.TypeLogical ||
				d.Type.Base == apt.TypeCharacter && !d.IsArray() && ev.env.get(k).str != nil) && ev.relevant(r, name) {
			// (A character variable changed a character at a time, a
			// line being cleaned or lowered, is known only by a run,
			// and only where its text is known before it.)
			if d.IsArray() {
				arrays = true
			} else {
				scalars = append(scalars, k)
			}
		}
	}
	if leaves && l.Var != "" && ev.relevant(r, l.Var) {
		// The DO variable of a search (do k = 1, np / if (k*k >= np)
		// exit): the trip the EXIT leaves on is its value after the
		// loop, which only a run finds.
		if k := ev.key(l.Var); !slices.Contains(scalars, k) {
			scalars = append(scalars, k)
		}
	}
	if l.Var != "" && ev.boundsPowerOf(l) {
		// A loop inside whose bounds or step raise a number to a power
		// of the DO variable (do i = 1, n, 2**(lev-1)): no closed form in
		// the variable holds them, a run gives each trip's.
		if k := ev.key(l.Var); !slices.Contains(scalars, k) {
			scalars = append(scalars, k)
		}
	}
	for _, n := range l.Body {
		apt.Inspect(n, func(y apt.Node) bool {
			// A call through a pointer the loop sets (a table of kernels
			// it walks): which routine each trip calls only a run knows.
			if c, ok := y.(*apt.Call); ok && ev.procVar(r, c.Callee) != nil {
				if k := ev.key(c.Callee); slices.Contains(mod, k) && !slices.Contains(scalars, k) {
					scalars = append(scalars, k)
				}
			}
			// So does a call through a procedure pointer component the
			// loop points elsewhere (a reporter switched half way).
			if c, ok := y.(*apt.Call); ok && c.Object != nil && ev.pointerBinding(c.Object, c.Callee) != nil {
				if k, ok := ev.refKey(&apt.Component{Base: c.Object, Field: c.Callee}); ok && slices.Contains(mod, k) && !slices.Contains(scalars, k) {
					scalars = append(scalars, k)
				}
			}
			return true
		})
	}
	if arrays || ev.heapProgram() && ev.allocatesHeap(l.Body) {
		// (A loop that allocates heap objects makes one per iteration.)
		return scalars, true
	}
	usesVar := func(e apt.Expr) bool {
		hit := false
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if nm, ok := x.(*apt.Name); ok && nm.Name == l.Var {
				hit = true
			}
			return !hit
		})
		return hit
	}
	visitExpr := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if ix, ok := x.(*apt.Index); ok && l.Var != "" && tracked(ix.Type) && (ix.Base != nil || ev.relevant(r, ix.Name)) && !ev.tableArray(ix) {
				for _, s := range ix.Subs {
					if usesVar(s) {
						arrays = true
					}
				}
			}
			// A field of an element of an array of derived type selected
			// by the loop's variable (levels(k)%n as a bound).
			if c, ok := x.(*apt.Component); ok && l.Var != "" && tracked(c.Type) {
				if bi, isIx := c.Base.(*apt.Index); isIx {
					for _, s := range bi.Subs {
						if usesVar(s) {
							arrays = true
						}
					}
				}
			}
			return !arrays
		})
	}
	calledPointers := map[string]bool{} // pointers the body sets to a call's result
	for _, n := range l.Body {
		apt.Inspect(n, func(y apt.Node) bool {
			if b, ok := y.(*apt.Block); ok {
				for _, s := range b.Stmts {
					if nm, ok := s.Target.(*apt.Name); ok {
						if _, isCall := s.Value.(*apt.FuncCall); isCall {
							calledPointers[nm.Name] = true
						}
					}
				}
			}
			return true
		})
	}
	for _, n := range l.Body {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if ix, ok := s.Target.(*apt.Index); ok && tracked(ix.Type) && (ix.Base != nil || ev.relevant(r, ix.Name)) && !fillsConst(s) {
						arrays = true
					}
					if ix, ok := s.Target.(*apt.Index); ok && tracked(ix.Type) && ix.Base == nil && ev.cPointers() && calledPointers[ix.Name] {
						// Integers stored through a pointer a call of the
						// body returned (local[d] = ... through
						// std::array's operator[]): another storage's
						// elements, which only a run places.
						arrays = true
					}
					if c, ok := s.Target.(*apt.Component); ok && tracked(c.Type) {
						if _, isIx := c.Base.(*apt.Index); isIx {
							arrays = true // fields of an array of derived type
						}
						if c.ThroughPointer() && !fillsConst(s) {
							// A field stored through a pointer (p->count,
							// a reference to an element): a walk of all
							// the iterations at once forgets what it
							// stores into the objects (forgetPointerWrites).
							arrays = true
						}
					}
					visitExpr(s.Value)
				}
			case *apt.Call:
				for _, a := range x.Args {
					if nm, ok := a.(*apt.Name); ok && calledPointers[nm.Name] && nm.Type.Base == apt.TypeDerived && ev.cPointers() {
						// A structure a call of the body points to (the
						// element operator[] returns) handed to a routine
						// that stores into it (rows[r].resize(n)): only a
						// run places what each element receives.
						set := map[string]bool{}
						ev.collectAssigned([]apt.Node{x}, set)
						if set[ev.key(nm.Name)] {
							arrays = true
						}
					}
					if ix, ok := a.(*apt.Index); ok && ix.Base == nil && !tracked(ix.Type) {
						// An element of a REAL array passed by reference
						// (the start of a row to fill): the loop's
						// variable selects data the evaluation does not
						// follow, not a value the callee computes with.
						visitExpr(a)
						continue
					}
					if l.Var != "" && usesVar(a) && ev.relevant(r, l.Var) {
						arrays = true
					}
					visitExpr(a)
				}
			case *apt.Loop:
				visitExpr(x.Lower)
				visitExpr(x.Upper)
				visitExpr(x.Step)
			case *apt.Branch:
				visitExpr(x.Cond)
			}
			return !arrays
		})
	}
	return scalars, arrays
}

// runCounted runs a counted DO of trips iterations (a number), its variable
// lo + k*step in iteration k = 0, 1, ..., and stores the variable's value
// after the loop. It reports false, with the state as it found it, when the
// values the loop computes grow instead of staying numbers or small closed
// forms (a loop over the bits of a value that varies with an enclosing
// loop), which symbolic evaluation handles better.
func (ev *evaluator) runCounted(l *apt.Loop, o *Occ, lo Value, step symbolic.Expr, trips int64) bool {
	snap := ev.snapshot(o)
	mod := ev.modified(l.Body)
	ok := true
	limit := ev.runLimit()
	pop := ev.pushRun(snap.visits, limit, trips)
	ev.runIterations(l, o, trips, func(k int64) bool {
		ev.runTop().k = k
		if ev.runVisits > ev.totalRuns() || !ev.roomForRun(0) || ev.runVisits-snap.visits > limit {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "run over budget %s at k=%d: visits=%d/%d total=%d/%d room=%v\n", l.Span.Start(), k, ev.runVisits-snap.visits, limit, ev.runVisits, ev.totalRuns(), ev.roomForRun(0))
			}
			ok = false
			return false
		}
		if k > 0 && (!ev.smallValues(mod) || len(ev.cur.conds) > snap.conds+runConds ||
			ev.paramsSince(snap.params) > runParams || ev.freqUses > snap.freqUses) {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "run stopped %s at k=%d: small=%v conds=%d params=%d freq=%d\n", l.Span.Start(), k, ev.smallValues(mod), len(ev.cur.conds)-snap.conds, ev.paramsSince(snap.params), ev.freqUses-snap.freqUses)
			}
			ok = false
			return false
		}
		if l.Var != "" {
			v, _ := lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) {
				return a.Add(step.Mul(symbolic.Int(k))), true
			})
			ev.store(l.Var, v)
		}
		return true
	}, func() {
		// Where the last iteration ends (not where an EXIT left).
		if l.Var != "" {
			after, _ := lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) {
				return a.Add(step.Mul(symbolic.Int(trips))), true
			})
			ev.store(l.Var, after)
		}
	})
	pop()
	if !ok || !ev.smallValues(mod) || ev.paramsSince(snap.params) > runParams || ev.freqUses > snap.freqUses {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "run abandoned %s: ok=%v small=%v params=%d conds=%d freq=%d\n", l.Span.Start(), ok, ev.smallValues(mod), len(ev.res.Params)-snap.params, len(ev.cur.conds)-snap.conds, ev.freqUses-snap.freqUses)
			for _, k := range mod {
				if v := ev.env.get(k); v.IsKnown() && (len(v.Alts) > runValueAlts || v.Alts[0].E.Size() > runValueSize) {
					fmt.Fprintf(os.Stderr, "   %s = %v\n", k, v.Alts)
				}
			}
			for _, p := range ev.res.Params[snap.params:] {
				fmt.Fprintf(os.Stderr, "   param %s: %s\n", p.Name, p.What)
			}
		}
		snap.restore(ev, o)
		return false
	}
	return true
}

// Limits on what a run may compute: values of at most runValueSize (the
// tree size of each alternative) and runValueAlts alternatives, and at most
// runConds conditions added to the domain.
const (
	runValueSize = 48
	runValueAlts = 8
	runConds     = 24
	// runParams bounds the parameters a run may create: a loop whose
	// iterations keep meeting values the evaluation cannot derive computes
	// nothing a run would make exact. For the same reason a run stops at
	// the first branch on data it takes with a frequency.
	runParams = 4
)

// paramsSince counts the parameters created since the first from that may
// move a count (not Param.inert): the ones a run is bounded by.
func (ev *evaluator) paramsSince(from int) int {
	n := 0
	for _, p := range ev.res.Params[from:] {
		if !p.inert {
			n++
		}
	}
	return n
}

// targetRelevant reports whether an assignment's target is a variable
// that is control relevant, or one whose variable is not known.
func (ev *evaluator) targetRelevant(target apt.Expr) bool {
	name := rootName(target)
	return name == "" || ev.relevant(ev.frame().routine, name)
}

// smallValues reports whether the values stored at keys stay within the
// run limits.
func (ev *evaluator) smallValues(keys []string) bool {
	for _, k := range keys {
		v, ok := ev.env.lookup(k)
		if !ok || !v.IsKnown() {
			continue
		}
		if !ev.smallValue(v) {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "   %s not small: %v\n", k, v.Alts)
			}
			return false
		}
		if v.arr != nil && len(v.arr.stores) > 0 {
			// The newest store too (each iteration checks its
			// predecessor's): a run whose stores land at offsets or hold
			// values that grow with each iteration (cases a comparison
			// of offsets left undecided) leaves a state no later load
			// reads exactly.
			s := v.arr.stores[len(v.arr.stores)-1]
			if s.off.Size() > runValueSize || s.val.IsKnown() && (!ev.smallValue(s.val) || guardsExprSize(s.val.Alts) > 2*runValueSize) {
				if debugRuns {
					fmt.Fprintf(os.Stderr, "   store of %s not small: off=%v val=%v\n", k, s.off, s.val.Alts)
				}
				return false
			}
		}
	}
	return true
}

// smallValue reports whether v is within the limits a run's values keep:
// at most runValueAlts alternatives (or one per rank, or pieces), each of
// at most runValueSize.
func (ev *evaluator) smallValue(v Value) bool {
	if len(v.Alts) > runValueAlts && !ev.rankTable(v) && !pieceTable(v.Alts) {
		return false
	}
	for _, a := range v.Alts {
		if a.E.Size() > runValueSize {
			return false
		}
	}
	return true
}

// rankTable reports whether v, at a point (P a number), is a value per
// rank: at most maxRankAlts alternatives, each a number or a closed form
// in the rank where a condition on the rank alone holds. Such a value is
// as exact as a number, and operations on it go rank by rank
// (tabulateByRank).
func (ev *evaluator) rankTable(v Value) bool {
	np, ok := ev.values[Size]
	if !ok || len(v.Alts) > maxRankAlts || int64(len(v.Alts)) > np || !guardsSmall(v.Alts) {
		return false
	}
	for _, a := range v.Alts {
		if a.Guard == nil || !onlyRank(a.Guard) {
			return false
		}
		for _, s := range a.E.Symbols() {
			if s != Rank {
				return false
			}
		}
	}
	return true
}

// runSnapshot is the evaluation state before a run, to return to when the
// run is abandoned.
type runSnapshot struct {
	env               *env
	cur               *domainState
	kids, occs, diags int
	params, inputs    int
	conds             int
	freqUses          int
	visits            int64
	assumed           int
	written           map[string]writtenFile
	mail              mailState
	colls             int
	// the frame's jumps the walk did not model (a probe's EXIT is not the
	// loop's)
	jumps, gotos int
	// iters is how many trips o had been run (a first trip peeled off,
	// peel.go), which a failed run keeps.
	iters int
}

func (ev *evaluator) snapshot(o *Occ) *runSnapshot {
	s := &runSnapshot{env: ev.env, cur: ev.cur.clone(), kids: len(o.Children), occs: ev.noccs,
		diags: len(ev.res.Diags), params: len(ev.res.Params), inputs: len(ev.res.Inputs), conds: len(ev.cur.conds),
		freqUses: ev.freqUses, visits: ev.runVisits, assumed: len(ev.res.Assumed), written: ev.writtenState(), mail: ev.mailState(),
		colls: ev.colls, jumps: ev.frame().jumps, gotos: ev.frame().gotos, iters: len(o.Iters)}
	ev.env = ev.env.clone()
	return s
}

func (s *runSnapshot) restore(ev *evaluator, o *Occ) {
	ev.env, ev.cur, o.Children, ev.noccs = s.env, s.cur, o.Children[:s.kids], s.occs
	ev.frame().jumps, ev.frame().gotos = s.jumps, s.gotos
	ev.restoreWritten(s.written)
	ev.restoreMail(s.mail)
	ev.colls = s.colls
	ev.dropRootSent(s.colls)
	for _, d := range ev.res.Diags[s.diags:] {
		delete(ev.diagSeen, d.Pos.String()+d.Msg)
	}
	ev.res.Diags = ev.res.Diags[:s.diags]
	dropped := map[*Param]bool{}
	for _, p := range ev.res.Params[s.params:] {
		dropped[p] = true
		delete(ev.params, p.Name)
		ev.releaseName(p.Name)
		for b, q := range ev.freq {
			if q == p {
				delete(ev.freq, b)
			}
		}
		if ev.procs != nil {
			for a, q := range ev.procs.freq {
				if q == p {
					delete(ev.procs.freq, a)
				}
			}
		}
	}
	if len(dropped) > 0 {
		ev.forgetParams(dropped)
	}
	ev.res.Params = ev.res.Params[:s.params]
	ev.res.Inputs = ev.res.Inputs[:s.inputs]
	ev.res.Assumed = ev.res.Assumed[:s.assumed]
	if s.iters == 0 {
		o.Iters = nil
	} else {
		o.Iters = o.Iters[:s.iters]
	}
}

// forgetParams unlinks the parameters a failed run created from the
// unknowns and memos that outlive the run (unknowns are shared by pointer,
// so restoring the environment does not undo their parameters): the next
// use creates them again. An unknown's link is dropped where it is next
// used (unknown.live), not looked for through the whole environment; the
// ranges that name the run's parameters, whose names may be reused, are
// forgotten from the list setRange keeps.
func (ev *evaluator) forgetParams(dropped map[*Param]bool) {
	names := map[string]bool{}
	for p := range dropped {
		names[p.Name] = true
		p.dropped = true
	}
	mentions := func(e *symbolic.Expr) bool {
		if e == nil {
			return false
		}
		for _, s := range e.Symbols() {
			if names[s] {
				return true
			}
		}
		return false
	}
	kept := ev.ranged[:0]
	for _, u := range ev.ranged {
		if mentions(u.lo) || mentions(u.hi) {
			u.lo, u.hi = nil, nil
			continue
		}
		kept = append(kept, u)
	}
	clear(ev.ranged[len(kept):])
	ev.ranged = kept
	for k, p := range ev.spans {
		if dropped[p] {
			delete(ev.spans, k)
		}
	}
	for k, p := range ev.deckParams {
		if dropped[p] {
			delete(ev.deckParams, k)
		}
	}
	for k, p := range ev.tripParams {
		if dropped[p] {
			delete(ev.tripParams, k)
		}
	}
	for k, p := range ev.readParams {
		if dropped[p] {
			delete(ev.readParams, k)
		}
	}
}

// runWhile runs a DO WHILE (or a DO without control that EXITs) while its
// condition is decided; it reports false, with the state as it found it,
// when a test is not decided, the values it computes grow, or the budgets
// are exceeded.
func (ev *evaluator) runWhile(l *apt.Loop, o *Occ) bool {
	if ev.runWhileOnce(l, o) {
		return true
	}
	// A run over its budget for every rank at once is no cheaper rank by
	// rank: the ranks would spend P times what it did and fail the same.
	if debugRuns {
		fmt.Fprintf(os.Stderr, "runWhile %s: over budget %v\n", l.Span.Start(), ev.overBudget)
	}
	if !ev.overBudget && !ev.onData && ev.byRank([]apt.Expr{l.While}, l.Body, l.Span.Start(), o, func() bool { return ev.runWhileOnce(l, o) }) {
		return true
	}
	if !ev.lean() && ev.concreteLoop(l, o) {
		// Tests on what the data holds (a row's columns read back
		// through the pointer an array of pointers keeps): the
		// concrete machine runs the program's code at the point.
		return true
	}
	keys := ev.modified(l.Body)
	if pr := ev.rankProbe([]apt.Expr{l.While}, l.Body, o, keys, func() bool { return ev.runWhileOnce(l, o) },
		func() int64 { return int64(len(o.Iters)) }); pr != nil {
		// The loop's trip-count parameter (one per loop) ranges over
		// the trip counts of every context; the values it leaves are
		// set once it is evaluated (loop).
		lo, hi := pr.lo, pr.hi
		if r, seen := ev.tripRanges[l]; seen {
			lo, hi = min(lo, r[0]), max(hi, r[1])
		}
		if ev.tripRanges == nil {
			ev.tripRanges = map[*apt.Loop][2]int64{}
		}
		ev.tripRanges[l] = [2]int64{lo, hi}
		if p, ok := ev.tripParams[l]; ok {
			setTripRange(p, lo, hi)
		}
		ev.probed = pr
	}
	return false
}

// maxRankSplit bounds the process counts at which a loop whose exit depends
// on the rank is run rank by rank.
const maxRankSplit = 16

// byRank runs a loop (run does it; header and body are its control
// expressions and statements) once per rank where P is a number: each time
// with the domain restricted to rank == r and the values the loop reads
// taken at that rank, so that every test is decided (a loop over the bits
// of a rank-dependent offset, a search that stops at a different step on
// each process). The values it leaves are joined, one alternative per rank
// where they differ; a loop every rank leaves by a forward GO TO leaves its
// paths waiting at the label, where they rejoin. It reports false, with the
// state as it found it, where P is not a number, is beyond maxRankSplit, or
// a rank's run fails.
func (ev *evaluator) byRank(header []apt.Expr, body []apt.Node, pos apt.Pos, o *Occ, run func() bool) bool {
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np < 1 || np > maxRankSplit || ev.byRankDepth > 0 {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "byRank %s refused: P=%d depth=%d\n", pos, np, ev.byRankDepth)
		}
		return false
	}
	ev.byRankDepth++
	defer func() { ev.byRankDepth-- }()
	snap := ev.snapshot(o)
	baseEnv, baseCur := ev.env, ev.cur.clone()
	read := ev.keysRead(header, body)
	mod := ev.modified(body)
	envs := make([]*env, np)
	made := make([][2]int64, np) // the heap objects each rank's run made
	var pending map[string][]jump
	alive := 0
	for r := int64(0); r < np; r++ {
		ev.enterRank(baseEnv, baseCur, read, r)
		made[r][0] = int64(len(ev.heap))
		ok := run()
		made[r][1] = int64(len(ev.heap))
		if !ok {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "byRank %s: rank %d failed\n", pos, r)
			}
			snap.restore(ev, o)
			return false
		}
		switch {
		case !ev.cur.dead && len(ev.cur.pending) == 0:
			alive++
			envs[r] = ev.env
		case ev.cur.dead && !ev.cur.cycled && len(ev.cur.pending) > 0:
			if pending == nil {
				pending = map[string][]jump{}
			}
			for l, js := range ev.cur.pending {
				pending[l] = append(pending[l], js...)
			}
		default:
			if debugRuns {
				fmt.Fprintf(os.Stderr, "byRank %s: rank %d ends dead=%v cycled=%v pending=%d\n", pos, r, ev.cur.dead, ev.cur.cycled, len(ev.cur.pending))
			}
			snap.restore(ev, o)
			return false
		}
	}
	if alive != 0 && alive != int(np) {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "byRank %s: %d of %d ranks alive\n", pos, alive, np)
		}
		snap.restore(ev, o)
		return false
	}
	ev.env, ev.cur = baseEnv.clone(), baseCur
	if alive == 0 {
		// Every rank left by a forward GO TO: the paths wait at their
		// labels, with the rank's values.
		ev.cur.dead, ev.cur.cycled = true, false
		if ev.cur.pending == nil {
			ev.cur.pending = map[string][]jump{}
		}
		for l, js := range pending {
			ev.cur.pending[l] = append(ev.cur.pending[l], js...)
		}
		return true
	}
	rank := symbolic.Sym(Rank)
	for _, k := range mod {
		if st, ok := mergeArrayByRank(envs, k); ok {
			ev.env.set(k, Value{arr: st})
			continue
		}
		var alts []Alt
		ok := true
		for r, e := range envs {
			v, has := e.lookup(k)
			if !has || v.arr != nil || v.comm != nil || v.Fields != nil || !v.IsKnown() {
				ok = false
				break
			}
			for _, a := range v.Alts {
				alts = append(alts, Alt{Guard: onRank(rank, r, len(envs), a.Guard), E: a.E})
			}
		}
		if ok {
			if merged := mergeAlts(alts); len(merged) <= maxAlts {
				ev.env.set(k, Value{Alts: merged})
				continue
			}
		}
		ev.env.set(k, ev.changedBy(k, "the value of %s after the loop at "+pos.String(), false))
	}
	ev.keepThroughPointers(baseEnv, envs, append(mod, read...), made, pos)
	return true
}

// mergeArrayByRank joins the states of the array at key that the runs of
// a loop, one per rank, left: the stores they share (those from before
// the loop) as they were, each rank's own under rank == r. False where
// a rank's elements not stored are unknown (clobbered) or its base
// differs, or the stores would be too many.
func mergeArrayByRank(envs []*env, key string) (*arrayState, bool) {
	var first *arrayState
	for _, e := range envs {
		v, has := e.lookup(key)
		if !has || v.arr == nil || v.arr.clobbered {
			return nil, false
		}
		if first == nil {
			first = v.arr
		} else if v.arr.base != first.base {
			return nil, false
		}
	}
	if first == nil {
		return nil, false
	}
	// The prefix every rank's stores share (the same stores: the
	// states are copies of one before the loop).
	common := len(first.stores)
	for _, e := range envs {
		st := e.get(key).arr
		n := 0
		for n < common && n < len(st.stores) && st.stores[n] == first.stores[n] {
			n++
		}
		common = n
	}
	out := &arrayState{base: first.base, stores: slices.Clone(first.stores[:common])}
	for r, e := range envs {
		for _, st := range e.get(key).arr.stores[common:] {
			g := onRank(symbolic.Sym(Rank), r, len(envs), st.guard)
			out.stores = append(out.stores, &arrayStore{off: st.off, upTo: st.upTo, guard: g, val: st.val})
		}
		if len(out.stores) > maxArrayStores {
			return nil, false
		}
	}
	return out, true
}

// keepThroughPointers takes, after a loop run rank by rank, what the runs
// changed that the body does not name (stored through pointers: heap
// objects, another storage's elements, an element's address slot): the
// value all the ranks left where they agree, unknown where not, never the
// value from before the loop. named are the keys the body assigns (merged
// by rank already) and those it reads (each run took them at its rank).
// An object a rank's run allocated (made[r], the range of its ids) is
// that rank's alone, whose address no other rank holds: its storage is
// what that run left (a list each rank builds of a length of its own).
func (ev *evaluator) keepThroughPointers(baseEnv *env, envs []*env, mod []string, made [][2]int64, pos apt.Pos) {
	named := make(map[string]bool, len(mod))
	for _, k := range mod {
		named[k] = true
	}
	changed := map[string]bool{}
	for _, e := range envs {
		if e != nil {
			e.changedKeys(baseEnv, func(k string) {
				if !named[k] {
					changed[k] = true
				}
			})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(changed)) {
		if id, ok := heapKeyID(k); ok {
			if r := slices.IndexFunc(made, func(m [2]int64) bool { return m[0] <= id && id < m[1] }); r >= 0 && envs[r] != nil {
				if v, has := envs[r].lookup(k); has {
					ev.env.set(k, v)
					continue
				}
			}
		}
		var first Value
		same, seen := true, false
		for _, e := range envs {
			if e == nil {
				continue
			}
			v, _ := e.lookup(k)
			if !seen {
				first, seen = v, true
			} else if !sameValue(first, v) {
				same = false
				break
			}
		}
		switch {
		case same && seen:
			ev.env.set(k, first)
		case first.arr != nil:
			ev.clobber(k)
		default:
			ev.env.set(k, ev.changedBy(k, "the value of %s after the loop at "+pos.String(), false))
		}
	}
}

// enterRank sets the state for a run of a loop at rank r: the values the
// loop reads (the storage keys read) taken at that rank, and the domain
// restricted to rank == r.
func (ev *evaluator) enterRank(baseEnv *env, baseCur *domainState, read []string, r int64) {
	sub := map[string]symbolic.Expr{Rank: symbolic.Int(r)}
	ev.env = baseEnv.clone()
	for _, k := range read {
		v, ok := ev.env.lookup(k)
		switch {
		case !ok:
		case v.IsKnown():
			if w, ok := substValue(v, sub); ok {
				ev.env.set(k, w)
			}
		case v.arr != nil:
			// An array's elements at the rank: the stores other ranks
			// made dropped, the values the rank's (a work list set from
			// values received, one per rank).
			if st, ok := substArray(v.arr, sub); ok {
				ev.env.set(k, Value{arr: st})
			}
		}
	}
	ev.cur = baseCur.clone()
	ev.cur.pending = nil
	ev.cur.conds = append(ev.cur.conds, rel(symbolic.Sym(Rank), "==", symbolic.Int(r)))
}

// Loops at more ranks than maxRankSplit. Running a loop rank by rank keeps
// each rank's occurrences, which costs too much beyond a few ranks; a loop
// whose tests depend on the rank (binary powering of a rank-dependent
// exponent, a search per process, a choice of tiles by the shape of the
// process's subdomain) still has, at each rank, a run that decides every
// test. rankProbe runs it at every rank, undoing each run, and keeps what
// the runs say in few words: the least and the largest trip count, and
// the values the loop leaves where few values or closed forms in the rank
// give them, each on runs of consecutive ranks (joinRanks). The loop is then evaluated
// symbolically for its counts (its trip-count parameter ranging over the
// trip counts, MK3001 asking for it only where the range moves the work,
// the counts marked approximate), and the values it leaves are the ranks'.
const (
	// maxProbeP bounds the process counts at which loops are probed rank
	// by rank.
	maxProbeP = 1 << 12
	// probeBudget bounds the node visits of all the runs of one probe.
	probeBudget = 1 << 21
)

// rankProbeResult is what a probe keeps of the runs: the least and largest
// trip counts, and the values left, joined over the ranks, by storage key.
type rankProbeResult struct {
	lo, hi int64
	values map[string]Value
}

// rankProbe runs a loop (run does it, trips reads the trip count of a run
// that finished) at every rank where P is a number beyond maxRankSplit,
// each run undone, and returns the range of its trip counts and the values
// of keys (storage keys) that every rank's run leaves a number or a closed
// form in the parameters, where joinRanks joins them in at most maxAlts
// alternatives with small guards. It returns nil, with the state as it
// found it, where P is not such a number, a rank's run fails, or the runs
// exceed probeBudget.
func (ev *evaluator) rankProbe(header []apt.Expr, body []apt.Node, o *Occ, keys []string, run func() bool, trips func() int64) *rankProbeResult {
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np <= maxRankSplit || np > maxProbeP || ev.byRankDepth > 0 || o == nil {
		return nil
	}
	ev.byRankDepth++
	defer func() { ev.byRankDepth-- }()
	visits := ev.runVisits
	defer func() { ev.runVisits = visits }()
	snap := ev.snapshot(o)
	defer snap.restore(ev, o)
	baseEnv, baseCur := ev.env, ev.cur.clone()
	read := ev.keysRead(header, body)
	if sl := ev.probeSliceOf(header, body); sl != nil {
		// The runs compute the trip count and the slice's values only.
		saved := ev.probeSkip
		ev.probeSkip = sl.skip
		defer func() { ev.probeSkip = saved }()
		keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return !sl.keys[k] })
		if debugRuns {
			fmt.Fprintf(os.Stderr, "rankProbe: %d statements and calls outside the slice are not run\n", len(sl.skip))
		}
	}
	res := &rankProbeResult{}
	left := make(map[string][]symbolic.Expr, len(keys)) // by key, the value at each rank
	for _, k := range keys {
		left[k] = make([]symbolic.Expr, np)
	}
	spent := int64(0)
	for r := int64(0); r < np; r++ {
		ev.enterRank(baseEnv, baseCur, read, r)
		ev.runVisits = visits
		if !run() {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "rankProbe: the run at rank %d failed\n", r)
			}
			return nil
		}
		t := trips()
		spent += ev.runVisits - visits
		alive := !ev.cur.dead && len(ev.cur.pending) == 0
		for k, vals := range left {
			v := ev.env.get(k)
			e, single := v.Single()
			if !alive || !single || v.arr != nil || v.comm != nil || v.Fields != nil || e.Has(Rank) {
				delete(left, k)
				continue
			}
			vals[r] = e
		}
		snap.restore(ev, o) // every run is undone; restoring twice is harmless
		if spent > probeBudget {
			return nil
		}
		if r == 0 || t < res.lo {
			res.lo = t
		}
		if r == 0 || t > res.hi {
			res.hi = t
		}
	}
	res.values = map[string]Value{}
	for k, vals := range left {
		if v, ok := ev.joinRanks(vals); ok {
			res.values[k] = v
		}
	}
	return res
}

// joinRanks makes one value of the values at each rank 0..len(vals)-1:
// rankAltsOn groups the ranks by value, or by closed form in the rank
// where the values are too many, each group guarded by its runs of ranks.
func (ev *evaluator) joinRanks(vals []symbolic.Expr) (Value, bool) {
	np := int64(len(vals))
	var alts []Alt
	var sets [][]bool
	byKey := map[string]int{}
	for r, e := range vals {
		i, ok := byKey[e.Key()]
		if !ok {
			if len(alts) == maxCombos {
				return Value{}, false
			}
			i = len(alts)
			byKey[e.Key()] = i
			alts, sets = append(alts, Alt{E: e}), append(sets, make([]bool, np))
		}
		sets[i][r] = true
	}
	out := ev.rankAltsOn(alts, sets, np)
	if len(out) > maxAlts || !guardsSmall(out) {
		return Value{}, false
	}
	return Value{Alts: out}, true
}

// applyProbe sets the values a probe joined over the ranks, after the loop
// was evaluated symbolically.
func (ev *evaluator) applyProbe(pr *rankProbeResult) {
	if pr == nil {
		return
	}
	for k, v := range pr.values {
		ev.assignKey(k, v)
	}
}

// tripRangeNote is what setTripRange adds to a parameter's description.
const tripRangeNote = " (a run at each rank decides it)"

// setTripRange gives a trip-count parameter the range rankProbe found.
func setTripRange(p *Param, lo, hi int64) {
	l, h := symbolic.Int(lo), symbolic.Int(hi)
	mid := symbolic.Int((lo + hi) / 2)
	p.Lo, p.Hi, p.Default, p.ByRank = &l, &h, &mid, true
	if !strings.HasSuffix(p.What, tripRangeNote) {
		p.What += tripRangeNote
	}
}

// keysRead returns the storage keys of the variables a loop's control
// expressions and body mention.
func (ev *evaluator) keysRead(header []apt.Expr, body []apt.Node) []string {
	seen := map[string]bool{}
	var out []string
	add := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			name := ""
			switch y := x.(type) {
			case *apt.Name:
				name = y.Name
			case *apt.Index:
				if y.Base == nil {
					name = y.Name // an array's elements
				}
			}
			if name != "" {
				for _, k := range ev.elementKeys(name) {
					if !seen[k] {
						seen[k] = true
						out = append(out, k)
					}
				}
			}
			return true
		})
	}
	for _, e := range header {
		add(e)
	}
	for _, n := range body {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					add(s.Value)
					add(s.Target)
				}
			case *apt.Branch:
				add(x.Cond)
			case *apt.Loop:
				add(x.Lower)
				add(x.Upper)
				add(x.Step)
				add(x.While)
			case *apt.Call:
				for _, a := range x.Args {
					add(a)
				}
			}
			return true
		})
	}
	if ev.cPointers() {
		// The addresses the pointers read hold (address.go): a
		// variable's own, its pointer components'.
		for _, k := range out[:len(out):len(out)] {
			for _, a := range ev.slotsUnder(k, true) {
				if !seen[a] {
					seen[a] = true
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// substValue replaces symbols in every alternative of v, guards included,
// dropping alternatives whose guards become false.
func substValue(v Value, sub map[string]symbolic.Expr) (Value, bool) {
	var out []Alt
	for _, a := range v.Alts {
		e, err := a.E.Subst(sub)
		if err != nil {
			return Value{}, false
		}
		g, err := substFormula(a.Guard, sub)
		if err != nil {
			return Value{}, false
		}
		if isFalse(g) {
			continue
		}
		if isTrue(g) {
			g = nil
		}
		out = append(out, Alt{Guard: g, E: e})
	}
	if len(out) == 0 {
		return Value{}, false
	}
	return Value{Alts: mergeAlts(out)}, true
}

// substArray is an array's state with sub applied: its stores' guards,
// offsets and values, the stores whose guard no longer holds dropped.
func substArray(st *arrayState, sub map[string]symbolic.Expr) (*arrayState, bool) {
	out := &arrayState{clobbered: st.clobbered, base: st.base, tab: st.tab}
	if st.base != nil && st.base.IsKnown() {
		b, ok := substValue(*st.base, sub)
		if !ok {
			return nil, false
		}
		out.base = &b
	}
	for _, s := range st.stores {
		g, err := substFormula(s.guard, sub)
		if err != nil {
			return nil, false
		}
		if isFalse(g) {
			continue
		}
		if isTrue(g) {
			g = nil
		}
		off, err := s.off.Subst(sub)
		if err != nil {
			return nil, false
		}
		ns := &arrayStore{off: off, guard: g, val: s.val}
		if s.upTo != nil {
			u, err := s.upTo.Subst(sub)
			if err != nil {
				return nil, false
			}
			ns.upTo = &u
		}
		if s.val.IsKnown() {
			v, ok := substValue(s.val, sub)
			if !ok {
				return nil, false
			}
			ns.val = v
		}
		out.stores = append(out.stores, ns)
	}
	return out, true
}

// openRunSpent reports whether a run of unknown trip count that began at
// visits start, may make limit visits and is about to start iteration k
// must stop for its budget: past maxRunTrips, its visits, the whole
// evaluation's, the occurrences' room, or an iteration like the mean of
// those made would take it past its limit (the run would be thrown away
// one iteration later). It records the answer in ev.overBudget, which the
// failures of the run's other tests clear.
func (ev *evaluator) openRunSpent(start, limit, k int64) bool {
	spent := ev.runVisits - start
	over := k > maxRunTrips || spent > limit || ev.runVisits > ev.totalRuns() || !ev.roomForRun(0) ||
		(k > 0 && spent+spent/k > limit)
	ev.overBudget = over
	return over
}

// runWhileOnce is runWhile with every test decided in the current state.
func (ev *evaluator) runWhileOnce(l *apt.Loop, o *Occ) bool {
	ev.overBudget, ev.onData = false, false // not a nested run's
	limit := ev.runLimit()
	if spent, seen := ev.spentRuns[l]; seen && limit <= spent {
		ev.overBudget = true
		return false
	}
	snap := ev.snapshot(o)
	mod := ev.modified(l.Body)
	ok := true
	if ev.whileRuns == nil {
		ev.whileRuns = map[*apt.Loop]exitMark{}
	}
	outer, nested := ev.whileRuns[l]
	ev.whileRuns[l] = exitNone
	defer func() {
		if nested {
			ev.whileRuns[l] = outer
		} else {
			delete(ev.whileRuns, l)
		}
	}()
	ev.runIterations(l, o, -1, func(k int64) bool {
		if mark := ev.whileRuns[l]; mark != exitNone {
			// Its exit is on data (a convergence test on the values
			// computed): run on, the loop would never be seen to end.
			ev.overBudget, ev.onData = false, mark == exitOnReal
			ok = false
			return false
		}
		if ev.openRunSpent(snap.visits, limit, k) || !ev.smallValues(mod) || len(ev.cur.conds) > snap.conds ||
			ev.paramsSince(snap.params) > runParams || ev.freqUses > snap.freqUses {
			// Every test must be decided: a loop whose exit depends on
			// the rank is left to the symbolic evaluation.
			ok = false
			return false
		}
		if l.While != nil {
			c, analysable := ev.cond(l.While)
			t, dec := ev.decideHere(c)
			if !analysable || !dec {
				if debugRuns {
					fmt.Fprintf(os.Stderr, "while test at %s not decided (analysable %v): %v\n", l.Span.Start(), analysable, c)
				}
				ev.overBudget, ev.onData = false, !analysable && testsData(l.While)
				ok = false
				return false
			}
			if !t {
				return false
			}
		}
		return true
	}, nil)
	if !ok {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "while run abandoned %s: iters=%d limit=%d spent=%d visits=%d small=%v params=%d conds=%d freq=%d\n", l.Span.Start(), len(o.Iters), limit, ev.runVisits-snap.visits, ev.runVisits, ev.smallValues(mod),
				len(ev.res.Params)-snap.params, len(ev.cur.conds)-snap.conds, ev.freqUses-snap.freqUses)
			for _, p := range ev.res.Params[snap.params:] {
				fmt.Fprintf(os.Stderr, "   param %s: %s\n", p.Name, p.What)
			}
		}
		if ev.overBudget {
			if ev.spentRuns == nil {
				ev.spentRuns = map[*apt.Loop]int64{}
			}
			ev.spentRuns[l] = max(ev.spentRuns[l], limit, ev.runVisits-snap.visits)
		}
		snap.restore(ev, o)
		return false
	}
	return true
}

// runIterations walks l's body once per iteration while next(k) allows it
// (at most trips times when trips >= 0), with EXIT and CYCLE as jumps to the
// loop's end and the iteration's. The loop's iterations are the domains the
// iterations started in (Occ.Iters): earlier iterations may have narrowed
// them, a path that left the loop taking no further iterations. ended, if
// not nil, runs on the paths that finished every iteration, before those
// an EXIT took rejoin them (a DO variable is lo + trips*step there, and
// where it was on the others).
func (ev *evaluator) runIterations(l *apt.Loop, o *Occ, trips int64, next func(k int64) bool, ended func()) {
	ev.running++
	defer func() { ev.running-- }()
	if o.Iters == nil {
		o.Iters = []*Domain{}
	}
	fr := ev.frame()
	ev.nrun++
	rs := &runState{loop: l, exit: "exit#" + strconv.Itoa(ev.nrun), cycle: "cycle#" + strconv.Itoa(ev.nrun)}
	fr.loops = append(fr.loops, l)
	fr.entries = append(fr.entries, nil)
	fr.loopFrames = append(fr.loopFrames, nil)
	fr.runs = append(fr.runs, rs)
	nj := ev.frame().jumps
	defer func() {
		if ev.frame().jumps > nj {
			markInexact(o, "the loop holds a jump (EXIT, CYCLE of an outer loop, GO TO) the evaluation does not model")
		}
	}()
	k := int64(0)
	for ; (trips < 0 || k < trips) && ev.err == nil; k++ {
		if ev.cur.dead || !next(k) {
			break
		}
		o.Iters = append(o.Iters, ev.cur.domain())
		ev.walk(l.Body, o)
		if len(ev.cur.pending[rs.cycle]) > 0 {
			ev.rejoin(rs.cycle)
		}
		if ev.cur.dead && ev.cur.cycled {
			ev.cur.dead, ev.cur.cycled = false, false
		}
	}
	fr.loops = fr.loops[:len(fr.loops)-1]
	fr.entries = fr.entries[:len(fr.entries)-1]
	fr.loopFrames = fr.loopFrames[:len(fr.loopFrames)-1]
	fr.runs = fr.runs[:len(fr.runs)-1]
	if ended != nil && !ev.cur.dead {
		ended()
	}
	if len(ev.cur.pending[rs.exit]) > 0 {
		ev.rejoin(rs.exit)
	}
}

// pendingJump makes the current path wait at label, where rejoin merges it
// with the others.
func (ev *evaluator) pendingJump(label string) {
	if ev.cur.pending == nil {
		ev.cur.pending = map[string][]jump{}
	}
	ev.cur.pending[label] = append(ev.cur.pending[label],
		jump{conds: slices.Clone(ev.cur.conds), factor: ev.cur.factor, env: ev.env})
	ev.cur.dead, ev.cur.cycled = true, false
}

// runGotoLoop runs a loop built from a label and a GO TO back to it, seg
// being the statements from the label to the GO TO: the statements before
// the GO TO are walked once per iteration while some path goes on, the
// paths that jump forward out of it waiting at their labels as any forward
// GO TO does. It reports false, with the state as it found it, when the
// iterations exceed the budgets, meet a branch on data, or compute values
// that grow.
func (ev *evaluator) runGotoLoop(seg []apt.Node, parent *Occ) bool {
	ev.overBudget, ev.onData = false, false // not a nested run's
	if parent == nil {
		return false
	}
	snap := ev.snapshot(parent)
	mod := ev.modified(seg)
	limit := ev.runLimit()
	ev.running++
	defer func() { ev.running-- }()
	var k int64
	// The first statement runs once per pass: k+1 times when the run
	// ends in pass k (rankProbe reads it).
	defer func() { ev.lastTrips = k + 1 }()
	for k = 0; ; k++ {
		if ev.openRunSpent(snap.visits, limit, k) || !ev.smallValues(mod) || len(ev.cur.conds) > snap.conds ||
			ev.paramsSince(snap.params) > runParams || ev.freqUses > snap.freqUses || ev.err != nil {
			// A loop whose exit is not decided at each test (it depends
			// on the rank) is left to the symbolic evaluation.
			if debugRuns {
				fmt.Fprintf(os.Stderr, "runGotoLoop %s: k=%d visits=%d small=%v conds=%d/%d params=%d/%d freq=%d/%d err=%v\n",
					seg[0].Base().Span.Start(), k, ev.runVisits-snap.visits, ev.smallValues(mod), len(ev.cur.conds), snap.conds,
					len(ev.res.Params), snap.params, ev.freqUses, snap.freqUses, ev.err)
			}
			snap.restore(ev, parent)
			return false
		}
		// The body as a statement list (walkGotoLoop): jumps forward within
		// it rejoin at their labels, an inner loop built from GO TO is
		// one, and a GO TO back to the head (a comment line skipped in a
		// deck) starts the next pass.
		fr := ev.frame()
		ev.nrun++
		next := "next#" + strconv.Itoa(ev.nrun)
		waiting := pendingJumps(ev.cur.pending)
		fr.gotoHeads = append(fr.gotoHeads, gotoHead{label: seg[0].Base().Label, depth: len(fr.loops), next: next})
		ev.walk(seg[:len(seg)-1], parent)
		fr.gotoHeads = fr.gotoHeads[:len(fr.gotoHeads)-1]
		if js := ev.cur.pending[next]; len(js) > 0 {
			delete(ev.cur.pending, next)
			if !ev.cur.dead || len(js) > 1 || pendingJumps(ev.cur.pending) > waiting {
				// Some paths go back, others on: a test not decided.
				ev.overBudget = false
				snap.restore(ev, parent)
				return false
			}
			// The one path goes on with the next pass (a path's conditions
			// grown by a test not decided end the run as it starts).
			ev.cur.conds, ev.cur.factor, ev.env = slices.Clone(js[0].conds), js[0].factor, js[0].env
			ev.cur.dead, ev.cur.cycled = false, false
			continue
		}
		if ev.cur.dead {
			// An exit (or a CYCLE of an enclosing DO) ended every path.
			return true
		}
		last := seg[len(seg)-1]
		b := condJumpTo(last, seg[0].Base().Label)
		if b == nil {
			ev.newOcc(last, parent) // the GO TO back
			continue
		}
		// A test at the bottom: back to the head while it holds.
		f, ok := ev.cond(b.Cond)
		t, dec := false, false
		if ok {
			t, dec = ev.decideHere(f)
		}
		if !dec {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "runGotoLoop %s: bottom test %s not decided (%v)\n", seg[0].Base().Span.Start(), apt.FormatExpr(b.Cond), f)
			}
			ev.overBudget, ev.onData = false, !ok && testsData(b.Cond)
			snap.restore(ev, parent)
			return false
		}
		o := ev.newOcc(last, parent)
		if !t {
			return true
		}
		bo := ev.newOcc(b, o)
		ev.walk(b.Body[:len(b.Body)-1], bo)
		if ev.cur.dead {
			return true
		}
		ev.newOcc(b.Body[len(b.Body)-1], bo)
	}
}

// pendingJumps counts the paths waiting at labels.
func pendingJumps(pending map[string][]jump) int {
	n := 0
	for _, js := range pending {
		n += len(js)
	}
	return n
}

// fillsConst reports whether s stores a constant (blocks[n].number = -1):
// a walk of the loop for all its iterations at once stores it exactly, at
// every offset the loop's variable gives, so no run is needed for it.
func fillsConst(s *apt.Stmt) bool {
	_, ok := constInt(s.Value)
	return ok
}
