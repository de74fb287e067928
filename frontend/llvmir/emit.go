package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// The structuring turns the CFG back into nested constructs (a structural
// analysis in the manner of decompilers): a loop becomes a Loop node at the
// place its header is reached; a conditional branch becomes an If whose arms
// run until the branch's immediate post-dominator at the current nesting
// level, where they meet again; an edge back to the loop's header ends an
// iteration (CYCLE inside an arm); an edge out of the loop is EXIT (RETURN
// when it goes to the function's return). Phi nodes become assignments on
// the edges that feed them (out of SSA), which vanish where the value and
// the phi share a name.

func (x *fn) budget() bool {
	x.nodes++
	if x.nodes > maxNodes {
		x.stopped = true
	}
	return x.stopped
}

func (x *fn) info(l *loop) *levelInfo {
	if l == nil {
		if x.top == nil {
			x.top = x.g.levelPostdom(nil)
		}
		return x.top
	}
	if l.level == nil {
		l.level = x.g.levelPostdom(l)
	}
	return l.level
}

// seq emits the blocks from b until stop (or the level's sink) at the
// nesting level of loop l (nil: the function's top level). arm is set
// inside an If's arm, where reaching the loop's header needs a CYCLE.
func (x *fn) seq(l *loop, b, stop int, arm bool) []apt.Node {
	var out []apt.Node
	sink := len(x.g.blocks)
	first := true
	for b != stop && b != sink && b >= 0 {
		if x.budget() {
			return out
		}
		if nl := x.g.header[b]; nl != nil && nl != l && !(first && l != nil && b == l.header) {
			nodes, next := x.loopNode(nl, stop)
			out = append(out, nodes...)
			first = false
			if next < 0 {
				return out
			}
			more, cont := x.arrive(l, next, stop, arm)
			out = append(out, more...)
			if !cont {
				return out
			}
			b = next
			continue
		}
		first = false
		out = append(out, x.blockNodes(b)...)
		switch t := x.g.blocks[b].Term.(type) {
		case *ir.TermRet:
			return append(out, x.ret(b, t)...)
		case *ir.TermBr:
			to := x.g.index[blockOf(t.Target)]
			nodes, cont := x.jump(l, b, to, stop, arm)
			out = append(out, nodes...)
			if !cont {
				return out
			}
			b = to
		case *ir.TermCondBr:
			if p := x.plans[l]; l != nil && p.kind == loopCounted && p.bottom && b == p.exitAt {
				nodes, _ := x.jump(l, b, l.header, stop, arm)
				return append(out, nodes...)
			}
			tt, ft := x.g.index[blockOf(t.TargetTrue)], x.g.index[blockOf(t.TargetFalse)]
			x.at = x.posOf(t)
			cond := x.condExpr(t.Cond)
			cond, tt, ft = x.shortCircuit(l, b, cond, tt, ft)
			node, next := x.branch(l, b, stop, arm, []int{tt, ft}, func(arms [][]apt.Node) *apt.If {
				return ifNode(x.posOf(t), cond, arms[0], arms[1])
			})
			out = append(out, guard(node)...)
			if next < 0 {
				return out
			}
			b = next
		case *ir.TermSwitch:
			targets := []int{x.g.index[blockOf(t.TargetDefault)]}
			for _, c := range t.Cases {
				targets = append(targets, x.g.index[blockOf(c.Target)])
			}
			sel := x.expr(t.X)
			node, next := x.branch(l, b, stop, arm, targets, func(arms [][]apt.Node) *apt.If {
				return x.selectNode(t, sel, arms)
			})
			out = append(out, node...)
			if next < 0 {
				return out
			}
			b = next
		case *ir.TermInvoke:
			// A call that goes on at its normal target (cfg.go).
			c := x.invokeCall(t)
			p := x.posOf(t)
			x.at = p
			st, nodes := x.call(c, p)
			if st != nil {
				out = append(out, block(st))
			}
			out = append(out, nodes...)
			to := x.g.index[blockOf(t.NormalRetTarget)]
			nodes, cont := x.jump(l, b, to, stop, arm)
			out = append(out, nodes...)
			if !cont {
				return out
			}
			b = to
		case *ir.TermUnreachable:
			if len(out) > 0 {
				if _, stopped := out[len(out)-1].(*apt.Stop); stopped {
					return out // exit() is the STOP already
				}
			}
			return append(out, &apt.Stop{NodeBase: apt.NodeBase{Span: spanAt(x.posOf(t))}})
		default:
			return append(out, x.unknown(x.posOf(t), t.LLString(), "this terminator (invoke, indirect branch) is not modelled"))
		}
	}
	return out
}

// branch emits the arms of a branch at b to targets and the If make
// builds from them; next is where the arms meet again (-1: they do not,
// at this level).
func (x *fn) branch(l *loop, b, stop int, arm bool, targets []int, build func([][]apt.Node) *apt.If) ([]apt.Node, int) {
	sink := len(x.g.blocks)
	m, ok := x.info(l).ipdom[b]
	if !ok {
		m = sink
	}
	merge := m
	if m == sink {
		merge = stop
	}
	arms := make([][]apt.Node, len(targets))
	for i, t := range targets {
		nodes, cont := x.jump(l, b, t, merge, true)
		if cont {
			nodes = append(nodes, x.seq(l, t, merge, true)...)
		}
		arms[i] = nodes
	}
	n := build(arms)
	var out []apt.Node
	if n != nil {
		out = append(out, n)
	}
	if m == sink || m == stop {
		return out, -1
	}
	return out, m
}

// ifNode builds IF (cond) THEN yes ELSE no, leaving out empty arms.
func ifNode(p apt.Pos, cond apt.Expr, yes, no []apt.Node) *apt.If {
	f := &apt.If{NodeBase: apt.NodeBase{Span: spanOf(p, yes, no)}, Kind: apt.IfBlock}
	switch {
	case len(yes) == 0 && len(no) == 0:
		return nil
	case len(yes) == 0:
		f.Branches = []*apt.Branch{{NodeBase: apt.NodeBase{Span: spanOf(p, no)}, Cond: not(cond), Body: no}}
	default:
		f.Branches = []*apt.Branch{{NodeBase: apt.NodeBase{Span: spanOf(p, yes)}, Cond: cond, Body: yes}}
		if inner, ok := elseIf(no); ok {
			// C's else if: the arms of one IF, as Fortran's ELSE IF
			// writes them, not an IF nested in each ELSE (whose arms'
			// frequencies would multiply: a ladder of k tests on data
			// gives 2^k terms, one arm each).
			f.Branches = append(f.Branches, inner.Branches...)
		} else if len(no) > 0 {
			f.Branches = append(f.Branches, &apt.Branch{NodeBase: apt.NodeBase{Span: spanOf(p, no)}, Body: no})
		}
	}
	return f
}

// guard writes IF (c) THEN A ELSE B END IF, where B always leaves the
// loop or the routine (EXIT, RETURN, STOP) and A does not (it may end in
// CYCLE), as IF (.not. c) B followed by A
// (and the same with the arms' roles swapped). The run is the same, but A
// is no longer under the test: an exit on data the evaluation cannot see
// is then an early exit, taken as never taken and said so, not a
// frequency that weights everything after it (clang writes the rest of a
// loop body, or of a function after an error return, inside the arm).
func guard(nodes []apt.Node) []apt.Node {
	if len(nodes) != 1 {
		return nodes
	}
	f, ok := nodes[0].(*apt.If)
	if !ok || f.Kind != apt.IfBlock || len(f.Branches) != 2 || f.Branches[0].Cond == nil || f.Branches[1].Cond != nil {
		return nodes
	}
	yes, no := f.Branches[0], f.Branches[1]
	switch {
	case leavesArm(no.Body) && !leavesArm(yes.Body):
		no.Cond = not(yes.Cond)
		f.Branches = []*apt.Branch{no}
		f.Span = no.Span
		return append([]apt.Node{f}, yes.Body...)
	case leavesArm(yes.Body) && !leavesArm(no.Body):
		f.Branches = []*apt.Branch{yes}
		f.Span = yes.Span
		return append([]apt.Node{f}, no.Body...)
	}
	return nodes
}

// leavesArm reports whether a statement list always leaves its loop or
// routine.
func leavesArm(body []apt.Node) bool {
	if len(body) == 0 {
		return false
	}
	switch body[len(body)-1].(type) {
	case *apt.Exit, *apt.Return, *apt.Stop:
		return true
	}
	return false
}

// elseIf returns the IF an ELSE arm consists of, where it is all the arm
// does and tests conditions (not a switch).
func elseIf(no []apt.Node) (*apt.If, bool) {
	if len(no) != 1 {
		return nil, false
	}
	inner, ok := no[0].(*apt.If)
	if !ok || inner.Kind != apt.IfBlock || inner.Selector != nil || inner.Label != "" || len(inner.Branches) == 0 {
		return nil, false
	}
	return inner, true
}

func not(e apt.Expr) apt.Expr {
	if u, ok := e.(*apt.Unary); ok && u.Op == apt.OpNot {
		return u.X
	}
	if b, ok := e.(*apt.Binary); ok {
		inv := map[apt.Op]apt.Op{apt.OpLt: apt.OpGe, apt.OpGe: apt.OpLt, apt.OpGt: apt.OpLe, apt.OpLe: apt.OpGt,
			apt.OpEq: apt.OpNe, apt.OpNe: apt.OpEq}
		if o, ok := inv[b.Op]; ok {
			c := *b
			c.Op = o
			return &c
		}
	}
	return &apt.Unary{Pos: e.At(), Op: apt.OpNot, X: e}
}

// selectNode is a switch as SELECT CASE: cases sharing a target share a
// branch; the default is CASE DEFAULT.
func (x *fn) selectNode(t *ir.TermSwitch, sel apt.Expr, arms [][]apt.Node) *apt.If {
	p := x.posOf(t)
	f := &apt.If{NodeBase: apt.NodeBase{Span: spanAt(p)}, Kind: apt.IfSelect, Selector: sel}
	byTarget := map[value.Value]*apt.Branch{}
	for i, c := range t.Cases {
		if br, ok := byTarget[c.Target]; ok {
			br.Cases = append(br.Cases, apt.CaseValue{Lo: x.expr(c.X)})
			continue
		}
		br := &apt.Branch{NodeBase: apt.NodeBase{Span: spanOf(p, arms[i+1])}, Cases: []apt.CaseValue{{Lo: x.expr(c.X)}}, Body: arms[i+1]}
		byTarget[c.Target] = br
		f.Branches = append(f.Branches, br)
	}
	if len(arms[0]) > 0 {
		f.Branches = append(f.Branches, &apt.Branch{NodeBase: apt.NodeBase{Span: spanOf(p, arms[0])}, Body: arms[0]})
	}
	return f
}

// jump emits the edge from -> to: the phi copies it carries, then what
// reaching to means at this level. cont says whether to goes on in the
// same sequence.
func (x *fn) jump(l *loop, from, to, stop int, arm bool) ([]apt.Node, bool) {
	out := x.copies(from, to)
	more, cont := x.arrive(l, to, stop, arm)
	return append(out, more...), cont
}

// arrive is what reaching block to means at level l.
func (x *fn) arrive(l *loop, to, stop int, arm bool) ([]apt.Node, bool) {
	if to == stop {
		return nil, false
	}
	if l != nil && to == l.header {
		if arm {
			return []apt.Node{&apt.Cycle{NodeBase: apt.NodeBase{Span: spanAt(x.blockPos(to))}}}, false
		}
		return nil, false
	}
	if l != nil && !l.blocks[to] {
		f := x.forward(to)
		if f == x.retB {
			nodes, _ := x.chain(to, -1)
			return append(nodes, x.retBlock(f)...), false
		}
		if p := x.plans[l]; p != nil && p.exit >= 0 && f == x.forward(p.exit) {
			// The copies along the way to where the code after the DO
			// starts, then EXIT.
			nodes, _ := x.chain(to, p.after)
			return append(nodes, &apt.Exit{NodeBase: apt.NodeBase{Span: spanAt(x.at)}}), false
		}
		if x.leavesBy(to, l, -1) {
			// A path that only returns or ends the program (a value
			// found, an error message and exit: clang places it after
			// the loops) is written where it is reached.
			return x.seq(nil, to, -1, true), false
		}
		if p := x.plans[l]; p != nil && p.exit >= 0 && p.after >= 0 && x.leavesBy(to, l, p.after) {
			// A break that does something first (a found value
			// recorded) before the code after the loop: that, then
			// EXIT.
			nodes := x.seq(l.parent, to, p.after, true)
			return append(nodes, &apt.Exit{NodeBase: apt.NodeBase{Span: spanAt(x.at)}}), false
		}
		u := x.unknown(x.blockPos(to), "goto",
			"a jump out of more than one loop (goto) is not modelled; what follows it is not counted")
		u.Skips = true
		return []apt.Node{u}, false
	}
	return nil, true
}

// chain emits the copies along the blocks that only jump on from b (see
// forward), up to stop at the latest, and returns them with the block the
// chain ends at.
func (x *fn) chain(b, stop int) ([]apt.Node, int) {
	var out []apt.Node
	for i := 0; i < 16; i++ {
		f := x.forward(b)
		if f == b || b == stop {
			return out, b
		}
		br := x.g.blocks[b].Term.(*ir.TermBr)
		next := x.g.index[blockOf(br.Target)]
		out = append(out, x.copies(b, next)...)
		b = next
	}
	return out, b
}

func block(stmts ...*apt.Stmt) *apt.Block {
	b := &apt.Block{Stmts: stmts}
	b.Span = stmts[0].Span
	for _, s := range stmts[1:] {
		if s.Span.File == b.Span.File && (s.Span.EndLine > b.Span.EndLine || s.Span.EndLine == b.Span.EndLine && s.Span.EndCol > b.Span.EndCol) {
			b.Span.EndLine, b.Span.EndCol = s.Span.EndLine, s.Span.EndCol
		}
		if b.Span.Line == 0 {
			b.Span = s.Span
		}
	}
	return b
}

// copies are the assignments of the phis of to on the edge from from, as
// a parallel copy: where one copy reads what another writes, every value
// goes through a fresh temporary first.
func (x *fn) copies(from, to int) []apt.Node {
	var targets []string
	var values []apt.Expr
	var opss []apt.Ops
	skipIV := value.Value(nil)
	var header []ir.Instruction
	if l := x.g.header[to]; l != nil {
		// A counted DO sets its variable itself, on entry and per step.
		if p := x.plans[l]; p.kind == loopCounted {
			skipIV = p.iv
		} else if p.kind == loopWhile && l.blocks[from] {
			header = p.header
		}
	}
	for _, phi := range phis(x.g.blocks[to]) {
		if value.Value(phi) == skipIV {
			continue
		}
		var in value.Value
		for _, inc := range phi.Incs {
			if x.g.index[blockOf(inc.Pred)] == from {
				in = unwrapArg(inc.X)
			}
		}
		if in == nil {
			continue
		}
		if n, ok := x.names[in]; ok && n == x.names[phi] && !x.inline[in] {
			continue
		}
		var ops apt.Ops
		targets = append(targets, x.names[phi])
		values = append(values, x.exprOps(in, &ops))
		opss = append(opss, ops)
		x.declare(x.names[phi], valueType(phi.Typ), x.dimsOf(phi))
		if n, ok := x.argvVars[phi]; ok {
			targets = append(targets, n)
			values = append(values, x.argvPos(in))
			opss = append(opss, apt.Ops{})
		}
	}
	var stmts []*apt.Stmt
	p := x.blockPos(from)
	x.at = p
	conflict := false
	for i := range values {
		for j, t := range targets {
			if j != i && reads(values[i], t) {
				conflict = true
			}
		}
	}
	if conflict {
		tmps := make([]string, len(values))
		for i, v := range values {
			tmps[i] = x.uniq(targets[i] + "_in")
			x.declare(tmps[i], x.vars[targets[i]].Type, nil)
			stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(tmps[i], x.vars[tmps[i]].Type), Value: v, Ops: opss[i]})
		}
		for i, t := range targets {
			stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(t, x.vars[t].Type), Value: x.nameExpr(tmps[i], x.vars[tmps[i]].Type)})
		}
	} else {
		for i, t := range targets {
			stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(t, x.vars[t].Type), Value: values[i], Ops: opss[i]})
		}
	}
	var out []apt.Node
	if len(stmts) > 0 {
		out = append(out, block(stmts...))
	}
	if len(header) > 0 {
		out = append(out, x.instNodes(header)...)
	}
	return out
}

func reads(e apt.Expr, name string) bool {
	found := false
	apt.InspectExpr(e, func(e apt.Expr) bool {
		switch n := e.(type) {
		case *apt.Name:
			found = found || n.Name == name
		case *apt.Index:
			found = found || n.Name == name
		}
		return !found
	})
	return found
}

// loopNode emits loop nl and returns the block after it (-1: none).
func (x *fn) loopNode(nl *loop, stop int) ([]apt.Node, int) {
	p := x.plans[nl]
	// Where the code after the loop starts: its exit block, or past the
	// blocks that only jump on, up to the end of the sequence it is in.
	if p.exit >= 0 {
		_, p.after = x.chain(p.exit, stop)
	}
	span := x.loopSpan(nl)
	x.at = span.Start()
	var out []apt.Node
	if p.kind == loopWhile && p.breaks {
		// The test's exit copies would also run after a break: where
		// there are some, the test stays inside, as an IF with its
		// copies and EXIT.
		more, _ := x.chain(p.exit, p.after)
		if len(x.copies(p.exitAt, p.exit))+len(more) > 0 {
			p.kind = loopGeneric
		}
	}
	switch p.kind {
	case loopCounted, loopWhile:
		pre := x.instNodes(p.header)
		out = append(out, pre...)
		var body []apt.Node
		if p.kind == loopCounted && !p.bottom {
			body = append(body, x.instNodes(p.header)...)
		}
		lp := &apt.Loop{NodeBase: apt.NodeBase{Span: span}}
		x.record(nl, lp, p.bottom)
		body = append(body, x.seq(nl, p.body, len(x.g.blocks), false)...)
		lp.Body = trimCycles(body)
		x.at = span.Start()
		if p.kind == loopCounted {
			lp.Var = x.names[p.iv]
			x.declare(lp.Var, valueType(p.iv.Typ), nil)
			lp.Lower, lp.Upper, lp.Step = x.expr(p.start), x.upper(p), x.stepExpr(p)
		} else {
			c := x.condExpr(p.cond)
			if p.exitOnTrue {
				c = not(c)
			}
			lp.While = c
		}
		out = append(out, lp)
		out = append(out, x.copies(p.exitAt, p.exit)...)
		more, next := x.chain(p.exit, p.after)
		return append(out, more...), next
	}
	next := x.joinExit(nl, stop)
	p.exit = next
	if next >= 0 {
		_, p.after = x.chain(next, stop)
		next = p.after
	}
	lp := &apt.Loop{NodeBase: apt.NodeBase{Span: span}, Forever: true}
	x.record(nl, lp, true)
	lp.Body = trimCycles(x.seq(nl, nl.header, len(x.g.blocks), false))
	out = append(out, lp)
	return out, next
}

// trimCycles drops the CYCLEs that end the last statement's arms: the
// iteration ends there anyway.
func trimCycles(body []apt.Node) []apt.Node {
	if len(body) == 0 {
		return body
	}
	switch n := body[len(body)-1].(type) {
	case *apt.Cycle:
		return body[:len(body)-1]
	case *apt.If:
		for _, b := range n.Branches {
			b.Body = trimCycles(b.Body)
		}
		if last := n.Branches[len(n.Branches)-1]; last.Cond == nil && len(last.Cases) == 0 && len(last.Body) == 0 {
			n.Branches = n.Branches[:len(n.Branches)-1]
		}
		if len(n.Branches) == 0 {
			return body[:len(body)-1]
		}
	}
	return body
}

// loopSpan is the loop's source extent: the !llvm.loop metadata clang
// attaches to the latch names its first and last positions.
func (x *fn) loopSpan(l *loop) apt.Span {
	for _, t := range l.latches {
		term, ok := x.g.blocks[t].Term.(interface {
			MDAttachments() []*metadata.Attachment
		})
		if !ok {
			continue
		}
		for _, a := range term.MDAttachments() {
			tup, ok := a.Node.(*metadata.Tuple)
			if a.Name != "llvm.loop" || !ok {
				continue
			}
			var locs []*metadata.DILocation
			for _, f := range tup.Fields {
				if loc, ok := f.(*metadata.DILocation); ok {
					locs = append(locs, loc)
				}
			}
			if len(locs) >= 1 {
				s := locs[0]
				e := locs[len(locs)-1]
				file := x.l.file(scopeFile(s.Scope))
				return apt.Span{File: file, Line: int(s.Line), Col: max(1, int(s.Column)), EndLine: int(e.Line), EndCol: max(1, int(e.Column))}
			}
		}
	}
	return spanAt(x.blockPos(l.header))
}

func (x *fn) posOf(v any) apt.Pos {
	if m, ok := v.(interface {
		MDAttachments() []*metadata.Attachment
	}); ok {
		if p := x.l.pos(m.MDAttachments()); p.IsValid() {
			return p
		}
	}
	return x.r.Span.Start()
}

// blockPos is the first known position in block b.
func (x *fn) blockPos(b int) apt.Pos {
	if b < 0 || b >= len(x.g.blocks) {
		return x.r.Span.Start()
	}
	for _, inst := range x.g.blocks[b].Insts {
		if isDbg(inst) {
			continue
		}
		if m, ok := inst.(interface {
			MDAttachments() []*metadata.Attachment
		}); ok {
			if p := x.l.pos(m.MDAttachments()); p.IsValid() {
				return p
			}
		}
	}
	return x.posOf(x.g.blocks[b].Term)
}

func spanOf(p apt.Pos, lists ...[]apt.Node) apt.Span {
	s := spanAt(p)
	for _, l := range lists {
		for _, n := range l {
			ns := n.Base().Span
			if ns.File == s.File && ns.EndLine > s.EndLine {
				s.EndLine, s.EndCol = ns.EndLine, ns.EndCol
			}
		}
	}
	return s
}

// blockNodes emits the instructions of block b.
func (x *fn) blockNodes(b int) []apt.Node {
	return x.instNodes(x.g.blocks[b].Insts)
}

// instNodes emits instructions: runs of assignments become Blocks; calls,
// communication and I/O become nodes of their own.
func (x *fn) instNodes(insts []ir.Instruction) []apt.Node {
	var out []apt.Node
	var stmts []*apt.Stmt
	flush := func() {
		if len(stmts) > 0 {
			out = append(out, block(stmts...))
			stmts = nil
		}
	}
	for _, inst := range insts {
		if isDbg(inst) {
			continue
		}
		if v, ok := inst.(value.Value); ok && (x.inline[v] || x.skip[v] || x.alias[v] != nil) {
			continue
		}
		p := x.posOf(inst)
		x.at = p
		if st := x.structCopyNode(inst, p); st != nil {
			stmts = append(stmts, st)
			continue
		}
		switch c := inst.(type) {
		case *ir.InstPhi:
			continue
		case *ir.InstAlloca:
			if st := x.vlaAllocate(c, p); st != nil {
				stmts = append(stmts, st)
			}
			continue
		case *ir.InstStore:
			if a, ok := stripCasts(c.Dst).(*ir.InstAlloca); ok && x.argvSlots[a] != 0 {
				if s := x.argvStmt(a, x.argvPos(c.Src)); s != nil {
					stmts = append(stmts, s)
				}
			}
			if x.skipStore[c] {
				continue
			}
			var ops apt.Ops
			if tag, ok := x.l.vtableTag(c.Src); ok {
				// A constructor's vtable pointer: the slot's tag in the
				// object's word of its own.
				stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign,
					Target: x.vtableWord(c.Dst), Value: intConst(tag), Ops: apt.Ops{Stores: 1}})
				continue
			}
			target, elem := x.location(c.Dst, &ops)
			if elem {
				ops.Stores++
			}
			val := x.exprOps(c.Src, &ops)
			l, isLoad := stripCasts(c.Src).(*ir.InstLoad)
			stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: target, Value: val, Ops: ops,
				Load: isLoad && x.pointerLoad(l)})
		case *ir.InstCall:
			s, nodes := x.call(c, p)
			if s != nil {
				stmts = append(stmts, s)
			}
			if len(nodes) > 0 {
				flush()
				out = append(out, nodes...)
			}
		case *ir.InstFence, *ir.InstCmpXchg, *ir.InstAtomicRMW, *ir.InstVAArg:
			continue
		case *ir.InstSelect:
			// x = c ? a : b is an IF assigning x on each arm, which the
			// evaluation keeps exact per path (a block size n/p + 1 on
			// the first ranks).
			flush()
			name := x.names[c]
			x.declare(name, valueType(c.Typ), x.dimsOf(c))
			arm := func(v value.Value) []apt.Node {
				var ops apt.Ops
				e := x.exprOps(v, &ops)
				return []apt.Node{block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(name, x.vars[name].Type), Value: e, Ops: ops})}
			}
			var ops apt.Ops
			cond := x.exprOps(c.Cond, &ops)
			if f := ifNode(p, cond, arm(c.ValueTrue), arm(c.ValueFalse)); f != nil {
				out = append(out, f)
			}
		default:
			v, ok := inst.(value.Value)
			if !ok {
				continue
			}
			var ops apt.Ops
			e := x.build(inst, &ops)
			name := x.names[v]
			x.declare(name, valueType(v.Type()), x.dimsOf(v))
			l, isLoad := inst.(*ir.InstLoad)
			stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(name, x.vars[name].Type), Value: e, Ops: ops,
				Load: isLoad && x.pointerLoad(l)})
			if s := x.argvStmt(v, x.argvDef(v)); s != nil {
				stmts = append(stmts, s)
			}
		}
	}
	flush()
	return out
}

// dimsOf gives a pointer-valued variable an assumed-size dimension: it
// is used as an array.
func (x *fn) dimsOf(v value.Value) []apt.Dim {
	if _, ok := v.Type().(interface{ IsPointer() }); ok {
		return nil
	}
	if isPointer(v.Type()) && !isFuncPointer(v.Type()) {
		return []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
	}
	return nil
}

// isFuncPointer reports whether t points to a function: a value (the
// function's number, valueType), not the address of data.
func isFuncPointer(t types.Type) bool {
	p, ok := t.(*types.PointerType)
	if !ok {
		return false
	}
	_, fn := p.ElemType.(*types.FuncType)
	return fn
}

func isConstZero(v value.Value) bool {
	c, ok := unwrapArg(v).(*constant.Int)
	return ok && c.X.Sign() == 0
}
