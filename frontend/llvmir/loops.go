package llvmir

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

func (x *fn) planLoops() {
	for _, l := range x.g.loops {
		p := x.plan(l)
		x.plans[l] = p
		if p.kind == loopCounted {
			x.skip[p.cond] = true
			if p.next != nil {
				x.skip[p.next.(value.Value)] = true
			}
		}
	}
}

// plan classifies loop l. Loop-simplify has given it one preheader and one
// latch; the loop's own test is the conditional branch of the header (a
// for or while loop as clang writes it) or of the latch (a do-while, or a
// loop an optimiser rotated).
func (x *fn) plan(l *loop) *loopPlan {
	p := &loopPlan{kind: loopGeneric}
	if len(l.latches) != 1 {
		return p
	}
	h, t := l.header, l.latches[0]
	pre := -1
	for _, q := range x.g.pred[h] {
		if !l.blocks[q] {
			if pre >= 0 {
				return p
			}
			pre = q
		}
	}
	if pre < 0 {
		return p
	}
	test := func(b int) (cond value.Value, in, out int, exitOnTrue bool, ok bool) {
		br, isBr := x.g.blocks[b].Term.(*ir.TermCondBr)
		if !isBr {
			return nil, 0, 0, false, false
		}
		tt, ft := x.g.index[blockOf(br.TargetTrue)], x.g.index[blockOf(br.TargetFalse)]
		switch {
		case l.blocks[tt] && !l.blocks[ft]:
			return br.Cond, tt, ft, false, true
		case l.blocks[ft] && !l.blocks[tt]:
			return br.Cond, ft, tt, true, true
		}
		return nil, 0, 0, false, false
	}
	// Every exit must go to the test's exit block or to the return block
	// (directly, or through blocks that only jump on), or end the program
	// (an error check's exit, written in place).
	exitsOK := func(out int) bool {
		final := x.forward(out)
		for _, e := range l.exits {
			if f := x.forward(e.to); f != final && f != x.retB && !x.leavesBy(e.to, l, -1) &&
				!(!x.chainHasPhis(out, final) && x.leavesBy(e.to, l, final)) {
				// (A break that does something first and then goes
				// where the test goes is written in place, then EXIT:
				// nothing the test's edge brings runs after the DO.)
				return false
			}
		}
		return true
	}
	// breaks reports exits besides the test's own edge into a block with
	// phis: the copies of the test's edge, written after the DO, would
	// also run after a break's EXIT.
	breaks := func(at, out int) bool {
		final := x.forward(out)
		for _, e := range l.exits {
			if (e.from != at || e.to != out) && x.forward(e.to) == final && hasPhis(x.g.blocks[final]) {
				return true
			}
		}
		return false
	}
	// The header's test may follow C++ calls that can throw (an invoke
	// of i < numElem() in a constructor): their normal edges lead on to
	// the block that tests, which is then the loop's test block.
	chain := []int{h}
	for th := h; len(chain) < 8; {
		inv, isInv := x.g.blocks[th].Term.(*ir.TermInvoke)
		if !isInv {
			break
		}
		nx := x.g.index[blockOf(inv.NormalRetTarget)]
		if !l.blocks[nx] || nx == t || len(x.g.pred[nx]) != 1 || hasPhis(x.g.blocks[nx]) {
			break
		}
		th = nx
		chain = append(chain, th)
	}
	th := chain[len(chain)-1]
	if cond, in, out, onTrue, ok := test(th); ok && exitsOK(out) && x.rotatableHeader(chain) {
		p.exitAt, p.exit, p.body, p.cond, p.exitOnTrue = th, out, in, cond, onTrue
		p.kind = loopWhile
		for _, b := range chain {
			for _, inst := range x.g.blocks[b].Insts {
				if v, isVal := inst.(value.Value); isVal && v == cond && pureInst(inst) {
					continue // written into the test (a call stays a statement)
				}
				if _, phi := inst.(*ir.InstPhi); !phi && !isDbg(inst) {
					p.header = append(p.header, inst)
				}
			}
			if inv, isInv := x.g.blocks[b].Term.(*ir.TermInvoke); isInv {
				p.header = append(p.header, x.invokeCall(inv))
			}
		}
		if len(chain) == 1 && !breaks(h, out) {
			x.counted(l, p, h, pre, t, false)
		}
		p.breaks = breaks(th, out)
		return p
	}
	if cond, in, out, onTrue, ok := test(t); ok && in == h && exitsOK(out) && !breaks(t, out) {
		p.exitAt, p.exit, p.body, p.cond, p.exitOnTrue, p.bottom = t, out, h, cond, onTrue, true
		x.counted(l, p, h, pre, t, true)
	}
	return p
}

func hasPhis(b *ir.Block) bool {
	for _, inst := range b.Insts {
		if _, ok := inst.(*ir.InstPhi); ok {
			return true
		}
	}
	return false
}

// rotatableHeader reports whether the header's statements (of the blocks
// of chain, up to the test) may be written once before the loop and again
// on every edge back to it, as a DO WHILE
// over the test they compute (a for loop testing i < v.size(), a while
// loop testing what a call read). Running them in those places is what the
// run does; only an MPI call is kept in place, since its probes belong to
// its one instruction.
func (x *fn) rotatableHeader(chain []int) bool {
	for _, h := range chain {
		calls := []*ir.InstCall{}
		for _, inst := range x.g.blocks[h].Insts {
			if c, ok := inst.(*ir.InstCall); ok {
				calls = append(calls, c)
			}
		}
		if inv, ok := x.g.blocks[h].Term.(*ir.TermInvoke); ok {
			calls = append(calls, &ir.InstCall{Callee: inv.Invokee, Args: inv.Args, Typ: inv.Typ})
		}
		for _, c := range calls {
			if name, _ := calleeName(c); !pureCall(c) && strings.HasPrefix(strings.TrimPrefix(name, "P"), "MPI_") {
				return false
			}
		}
	}
	return true
}

// pureInst reports an instruction without side effects that evaluates to
// the same value wherever its operands have the same values (a load reads
// memory, so it is pure only where nothing stores in between).
func pureInst(inst ir.Instruction) bool {
	switch c := inst.(type) {
	case *ir.InstPhi, *ir.InstAdd, *ir.InstSub, *ir.InstMul, *ir.InstSDiv, *ir.InstUDiv, *ir.InstSRem,
		*ir.InstURem, *ir.InstShl, *ir.InstLShr, *ir.InstAShr, *ir.InstAnd, *ir.InstOr, *ir.InstXor,
		*ir.InstFAdd, *ir.InstFSub, *ir.InstFMul, *ir.InstFDiv, *ir.InstFRem, *ir.InstFNeg,
		*ir.InstTrunc, *ir.InstZExt, *ir.InstSExt, *ir.InstFPTrunc, *ir.InstFPExt, *ir.InstFPToUI,
		*ir.InstFPToSI, *ir.InstUIToFP, *ir.InstSIToFP, *ir.InstPtrToInt, *ir.InstIntToPtr,
		*ir.InstBitCast, *ir.InstAddrSpaceCast, *ir.InstICmp, *ir.InstFCmp, *ir.InstSelect,
		*ir.InstGetElementPtr, *ir.InstLoad, *ir.InstFreeze, *ir.InstExtractValue:
		return true
	case *ir.InstCall:
		return pureCall(c)
	}
	return false
}

// counted makes p a counted loop when its test compares an induction
// variable (a header phi stepped by a constant) with a loop-invariant
// bound. The bound becomes the DO's upper bound so that Fortran's trip
// count max(0, floor((U - L + S)/S)) is the C loop's: for i < B stepping
// by s > 0, U = B - 1; i <= B, U = B; i != B with s = 1, U = B - 1; and
// symmetrically for s < 0. A test in the latch runs the body once before
// it: U is then max(U, L) (min for s < 0), and a test of the value before
// the increment moves U by one step.
func (x *fn) counted(l *loop, p *loopPlan, h, pre, t int, bottom bool) {
	cmp, ok := p.cond.(*ir.InstICmp)
	if !ok || x.site[cmp].block != p.exitAt || len(x.uses[cmp]) != 1 {
		return
	}
	pred := cmp.Pred
	if p.exitOnTrue {
		pred = negate(pred)
	}
	a, b := stripIntCasts(cmp.X), stripIntCasts(cmp.Y)
	var phi *ir.InstPhi
	var next ir.Instruction
	var step int64
	var stepVal value.Value
	onNext := false
	find := func(v value.Value) bool {
		if ph, ok := v.(*ir.InstPhi); ok && x.site[ph].block == h {
			if n, s, sv, ok := x.step(ph, t, l); ok {
				phi, next, step, stepVal = ph, n, s, sv
				return true
			}
			return false
		}
		if !bottom {
			return false
		}
		for _, ph := range phis(x.g.blocks[h]) {
			if n, s, sv, ok := x.step(ph, t, l); ok && value.Value(n.(value.Value)) == v {
				phi, next, step, stepVal, onNext = ph, n, s, sv, true
				return true
			}
		}
		return false
	}
	boundOp := cmp.Y
	switch {
	case find(a):
	case find(b):
		pred, boundOp = swap(pred), cmp.X
	default:
		return
	}
	if !x.invariant(boundOp, l) {
		return
	}
	stepMul := int64(0)
	if stepVal != nil {
		// An invariant step goes the way the test lets the loop end: up
		// for < and <=, down for > and >=.
		stepMul = step
		switch pred {
		case enum.IPredSLT, enum.IPredSLE, enum.IPredULT, enum.IPredULE:
			step = 1
		case enum.IPredSGT, enum.IPredSGE, enum.IPredUGT, enum.IPredUGE:
			step = -1
		default:
			return
		}
	}
	if _, ok := upperOf(pred, step, intConst(0)); !ok {
		return
	}
	var start value.Value
	for _, inc := range phi.Incs {
		if x.g.index[blockOf(inc.Pred)] == pre {
			start = unwrapArg(inc.X)
		}
	}
	if start == nil {
		return
	}
	// The increment is implied by the DO unless something else reads it.
	for _, us := range x.uses[next.(value.Value)] {
		if us.user != phi && us.user != cmp {
			next = nil
			break
		}
	}
	p.kind, p.iv, p.next, p.step, p.start = loopCounted, phi, next, step, start
	p.pred, p.boundOp, p.onNext, p.stepVal, p.stepMul = pred, boundOp, onNext, stepVal, stepMul
}

// stepExpr is the DO's step: nil for 1.
func (x *fn) stepExpr(p *loopPlan) apt.Expr {
	if p.stepVal != nil {
		e := x.expr(p.stepVal)
		if p.stepMul < 0 {
			return &apt.Unary{Op: apt.OpNeg, X: e}
		}
		return e
	}
	if p.step == 1 {
		return nil
	}
	return intConst(p.step)
}

// upper is a counted loop's DO upper bound (see counted), built when the
// expressions are.
func (x *fn) upper(p *loopPlan) apt.Expr {
	u, _ := upperOf(p.pred, p.step, x.expr(p.boundOp))
	if p.bottom {
		if !p.onNext {
			if st := x.stepExpr(p); st == nil {
				u = add(u, intConst(1))
			} else if _, ok := constValue(st); ok {
				u = add(u, st)
			} else {
				u = &apt.Binary{Op: apt.OpAdd, X: u, Y: st}
			}
		}
		fn := "max"
		if p.step < 0 {
			fn = "min"
		}
		u = &apt.FuncCall{Name: fn, Intrinsic: true, Args: []apt.Expr{u, x.expr(p.start)}, Type: intType}
	}
	return u
}

var intType = apt.Type{Base: apt.TypeInteger, Kind: 4}

func phis(b *ir.Block) []*ir.InstPhi {
	var out []*ir.InstPhi
	for _, inst := range b.Insts {
		if p, ok := inst.(*ir.InstPhi); ok {
			out = append(out, p)
		}
	}
	return out
}

// step recognises phi as an induction variable: its value from the latch
// is phi plus or minus a constant, or a loop-invariant value sv (a cyclic
// distribution steps by P): k is then the sign it is added with.
func (x *fn) step(phi *ir.InstPhi, latch int, l *loop) (inst ir.Instruction, k int64, sv value.Value, ok bool) {
	inst, k, sv, ok = x.stepOf(phi, latch)
	if ok && sv != nil && !x.invariant(sv, l) {
		return nil, 0, nil, false
	}
	return inst, k, sv, ok
}

func (x *fn) stepOf(phi *ir.InstPhi, latch int) (ir.Instruction, int64, value.Value, bool) {
	if len(phi.Incs) != 2 {
		return nil, 0, nil, false
	}
	var from value.Value
	for _, inc := range phi.Incs {
		if x.g.index[blockOf(inc.Pred)] == latch {
			from = unwrapArg(inc.X)
		}
	}
	var self, c value.Value
	sign := int64(1)
	var inst ir.Instruction
	switch n := from.(type) {
	case *ir.InstAdd:
		inst = n
		self, c = n.X, n.Y
		if stripIntCasts(self) != value.Value(phi) {
			self, c = n.Y, n.X
		}
	case *ir.InstSub:
		inst = n
		self, c, sign = n.X, n.Y, -1
	default:
		return nil, 0, nil, false
	}
	if stripIntCasts(self) != value.Value(phi) {
		return nil, 0, nil, false
	}
	k, ok := unwrapArg(c).(*constant.Int)
	if !ok {
		return inst, sign, unwrapArg(c), true
	}
	if !k.X.IsInt64() || k.X.Int64() == 0 {
		return nil, 0, nil, false
	}
	return inst, sign * k.X.Int64(), nil, true
}

func stripIntCasts(v value.Value) value.Value {
	for i := 0; i < 16; i++ {
		switch c := unwrapArg(v).(type) {
		case *ir.InstSExt:
			v = c.From
		case *ir.InstZExt:
			v = c.From
		case *ir.InstTrunc:
			v = c.From
		default:
			return unwrapArg(v)
		}
	}
	return v
}

func negate(p enum.IPred) enum.IPred {
	switch p {
	case enum.IPredEQ:
		return enum.IPredNE
	case enum.IPredNE:
		return enum.IPredEQ
	case enum.IPredSLT:
		return enum.IPredSGE
	case enum.IPredSGE:
		return enum.IPredSLT
	case enum.IPredSGT:
		return enum.IPredSLE
	case enum.IPredSLE:
		return enum.IPredSGT
	case enum.IPredULT:
		return enum.IPredUGE
	case enum.IPredUGE:
		return enum.IPredULT
	case enum.IPredUGT:
		return enum.IPredULE
	case enum.IPredULE:
		return enum.IPredUGT
	}
	return p
}

// swap is the predicate with its operands exchanged.
func swap(p enum.IPred) enum.IPred {
	switch p {
	case enum.IPredSLT:
		return enum.IPredSGT
	case enum.IPredSGT:
		return enum.IPredSLT
	case enum.IPredSLE:
		return enum.IPredSGE
	case enum.IPredSGE:
		return enum.IPredSLE
	case enum.IPredULT:
		return enum.IPredUGT
	case enum.IPredUGT:
		return enum.IPredULT
	case enum.IPredULE:
		return enum.IPredUGE
	case enum.IPredUGE:
		return enum.IPredULE
	}
	return p
}

// upperOf is the inclusive last value of an induction variable stepping
// by s while `iv pred B` holds. Unsigned predicates are read as signed:
// loop variables and bounds are non-negative where C programs use them.
func upperOf(pred enum.IPred, s int64, b apt.Expr) (apt.Expr, bool) {
	switch {
	case s > 0 && (pred == enum.IPredSLT || pred == enum.IPredULT):
		return add(b, intConst(-1)), true
	case s > 0 && (pred == enum.IPredSLE || pred == enum.IPredULE):
		return b, true
	case s == 1 && pred == enum.IPredNE:
		return add(b, intConst(-1)), true
	case s < 0 && (pred == enum.IPredSGT || pred == enum.IPredUGT):
		return add(b, intConst(1)), true
	case s < 0 && (pred == enum.IPredSGE || pred == enum.IPredUGE):
		return b, true
	case s == -1 && pred == enum.IPredNE:
		return add(b, intConst(1)), true
	}
	return nil, false
}

// add is a + k for a constant k, folded when a is a constant.
func add(a, k apt.Expr) apt.Expr {
	kc, _ := constValue(k)
	if kc == 0 {
		return a
	}
	if ac, ok := constValue(a); ok {
		return intConst(ac + kc)
	}
	if kc < 0 {
		return &apt.Binary{Op: apt.OpSub, X: a, Y: intConst(-kc)}
	}
	return &apt.Binary{Op: apt.OpAdd, X: a, Y: k}
}

func constValue(e apt.Expr) (int64, bool) {
	switch c := e.(type) {
	case *apt.Const:
		if c.Kind != apt.ConstInt {
			return 0, false
		}
		var v int64
		for _, r := range c.Text {
			if r < '0' || r > '9' {
				return 0, false
			}
			v = v*10 + int64(r-'0')
		}
		return v, true
	case *apt.Unary:
		if c.Op == apt.OpNeg {
			v, ok := constValue(c.X)
			return -v, ok
		}
	}
	return 0, false
}

// invariant reports whether v has the same value in every iteration of l:
// constants, arguments, values defined before the loop, pure arithmetic of
// invariants, and loads from scalars nothing in the loop may store to.
func (x *fn) invariant(v value.Value, l *loop) bool {
	return x.invariantDepth(v, l, 0)
}

func (x *fn) invariantDepth(v value.Value, l *loop, depth int) bool {
	if depth > 64 {
		return false
	}
	v = unwrapArg(v)
	inst, ok := v.(ir.Instruction)
	if !ok {
		return true // constants, globals, arguments
	}
	s, ok := x.site[v]
	if !ok || !l.blocks[s.block] {
		return true
	}
	switch c := inst.(type) {
	case *ir.InstPhi, *ir.InstCall:
		return false
	case *ir.InstLoad:
		return x.unmodified(c.Src, l)
	}
	if !pureInst(inst) {
		return false
	}
	for _, op := range operands(inst) {
		if !x.invariantDepth(op, l, depth+1) {
			return false
		}
	}
	return true
}

// unmodified reports whether nothing in loop l may store to the scalar at
// address p: no store to it, no call given its address, and for a global
// no call of a function that stores to it.
func (x *fn) unmodified(p value.Value, l *loop) bool {
	root := rootOf(p)
	switch root.(type) {
	case *ir.InstAlloca, *ir.Global:
	default:
		// Memory reached through a pointer (blocks[i].cen[1], A->nrow
		// read on every trip): unchanged where its address is the same
		// on every trip and the loop stores only to scalars of the
		// function no pointer can reach, calling nothing.
		return x.privateStores(l) && x.invariant(p, l)
	}
	g, _ := root.(*ir.Global)
	for b := range l.blocks {
		for _, inst := range x.g.blocks[b].Insts {
			switch c := inst.(type) {
			case *ir.InstStore:
				if rootOf(c.Dst) == root {
					return false
				}
			case *ir.InstCall:
				if isDbg(c) {
					continue
				}
				for _, a := range c.Args {
					if rootOf(unwrapArg(a)) == root {
						return false
					}
				}
				if g != nil {
					if f, ok := stripCasts(c.Callee).(*ir.Func); ok && x.l.stores[f][g] {
						return false
					}
				}
			}
		}
	}
	return true
}

// privateStores reports whether every store in loop l is to a stack slot
// of the function that is only loaded from and stored to (its address
// never taken, so no pointer reaches it), and l calls nothing but debug
// intrinsics: no store of l reaches memory through a pointer.
func (x *fn) privateStores(l *loop) bool {
	for b := range l.blocks {
		for _, inst := range x.g.blocks[b].Insts {
			switch c := inst.(type) {
			case *ir.InstStore:
				a, ok := stripCasts(c.Dst).(*ir.InstAlloca)
				if !ok || !x.private(a) {
					return false
				}
			case *ir.InstCall:
				if !isDbg(c) {
					return false
				}
			}
		}
	}
	return true
}

// private reports whether the stack slot a is only loaded from and
// stored to: no use takes its address.
func (x *fn) private(a *ir.InstAlloca) bool {
	for _, u := range x.uses[a] {
		switch c := u.user.(type) {
		case *ir.InstLoad:
			if c.Src != a {
				return false
			}
		case *ir.InstStore:
			if c.Dst != a || c.Src == a {
				return false
			}
		case ir.Instruction:
			if !isDbg(c) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// rootOf is the object an address points into: an alloca, a global, an
// argument or the instruction that made the pointer.
func rootOf(v value.Value) value.Value {
	for i := 0; i < 64; i++ {
		switch c := stripCasts(v).(type) {
		case *ir.InstGetElementPtr:
			v = c.Src
		case *constant.ExprGetElementPtr:
			v = c.Src
		default:
			return c
		}
	}
	return v
}

// forward follows blocks that do nothing but jump on (loop-simplify's
// dedicated exits, a break's own block) to the block that does something.
func (x *fn) forward(b int) int {
	for i := 0; i < 16; i++ {
		if b < 0 || b >= len(x.g.blocks) || x.g.header[b] != nil {
			return b
		}
		blk := x.g.blocks[b]
		br, ok := blk.Term.(*ir.TermBr)
		if !ok {
			return b
		}
		for _, inst := range blk.Insts {
			if !isDbg(inst) {
				return b
			}
		}
		b = x.g.index[blockOf(br.Target)]
	}
	return b
}
