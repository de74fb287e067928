package llvmir

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// loopKind is how a natural loop becomes an APT Loop.
type loopKind int

const (
	// loopGeneric is a DO without control: the exit tests stay inside as
	// IFs holding EXIT.
	loopGeneric loopKind = iota
	// loopCounted has an induction variable with a constant step compared
	// with a loop-invariant bound: a counted DO with Fortran's trip count.
	loopCounted
	// loopWhile tests a condition of values the header computes without
	// side effects before each iteration: a DO WHILE.
	loopWhile
)

// loopPlan is what the analysis decided for one loop.
type loopPlan struct {
	kind   loopKind
	bottom bool // the test is in the latch (the body runs at least once)
	exitAt int  // the block holding the loop's own test
	exit   int  // the block the test leaves to
	// after is where the code after the loop starts: exit, or past the
	// blocks that only jump on from it (loopNode).
	after int
	body  int // the first block of the body (header-tested loops)
	cond  value.Value
	// exitOnTrue is set when the test's true target leaves the loop.
	exitOnTrue bool
	// breaks is set for a DO WHILE that other exits leave for the block
	// with phis its test leaves for (see plan).
	breaks bool
	// counted loops:
	iv      *ir.InstPhi
	next    ir.Instruction // the increment, not emitted
	start   value.Value
	step    int64
	pred    enum.IPred
	boundOp value.Value
	onNext  bool // a latch test compares the incremented value
	// stepVal is a loop-invariant step (stepMul its sign); step is then
	// the direction, +1 or -1.
	stepVal value.Value
	stepMul int64
	header  []ir.Instruction // header instructions materialised around the loop
}

// use is one use of a value: the user and where it sits. A phi's use is
// at the end of the incoming block.
type use struct {
	user  any // ir.Instruction or ir.Terminator
	block int
	index int // position in the block; len(Insts) for the terminator and phi uses
}

// fn lifts one function.
type fn struct {
	l *lifter
	f *ir.Func
	g *graph
	r *apt.Routine

	names   map[value.Value]string
	srcName map[value.Value]bool // the name is the source's (debug info)
	uses    map[value.Value][]use
	site    map[value.Value]use // definition site
	inline  map[value.Value]bool
	skip    map[value.Value]bool
	addr    map[value.Value]bool // integer arithmetic that only computes addresses
	plans   map[*loop]*loopPlan
	vars    map[string]*apt.Var
	scalarP map[*ir.Param]bool // pointer formals used as one scalar by reference
	retB    int                // the function's return block, -1 if none
	result  string
	nodes   int
	stopped bool
	// uniq makes a fresh name from a base.
	uniq func(string) string
	top  *levelInfo
	// alias maps a cast that only renames a value to that value (the
	// double* a a malloc result is cast to): they are one variable.
	alias map[value.Value]value.Value
	// skipStore are the stores of formals into their own stack slots
	// (clang's n.addr): the slot is the formal.
	skipStore map[*ir.InstStore]bool
	// structCopies are the caller's assignments of structures calls
	// return in registers, at the instruction each is written at.
	structCopies map[ir.Instruction]structCopy
	// argSlot is the argument number (from 1) of the variable debug info
	// says a value or slot holds, for formals.
	argSlot map[value.Value]int
	// lvNames and nameTypes keep apart source variables of one name
	// and different types (dbgnames.go).
	lvNames   map[*metadata.DILocalVariable]string
	nameTypes map[string]string
	// argvKinds, argvSlots and argvVars follow pointers into argv
	// (argv.go).
	argvKinds map[value.Value]argvKind
	argvSlots map[*ir.InstAlloca]argvKind
	argvVars  map[value.Value]string
	argvName  string // the formal that holds argv, "" if none
	// at is the position of the statement being built.
	at apt.Pos
}

func (l *lifter) function(f *ir.Func) (r *apt.Routine) {
	x := &fn{l: l, f: f, names: map[value.Value]string{}, srcName: map[value.Value]bool{},
		uses: map[value.Value][]use{}, site: map[value.Value]use{}, inline: map[value.Value]bool{},
		skip: map[value.Value]bool{}, addr: map[value.Value]bool{}, plans: map[*loop]*loopPlan{},
		vars: map[string]*apt.Var{}, scalarP: map[*ir.Param]bool{}, retB: -1,
		alias: map[value.Value]value.Value{}, skipStore: map[*ir.InstStore]bool{}, argSlot: map[value.Value]int{},
		lvNames: map[*metadata.DILocalVariable]string{}, nameTypes: map[string]string{}}
	name := l.fnames[f]
	kind := apt.KindFunction
	if types.Equal(f.Sig.RetType, types.Void) {
		kind = apt.KindSubroutine
	}
	if f.Name() == "main" {
		kind = apt.KindProgram
	}
	var sp *metadata.DISubprogram
	for _, a := range f.Metadata {
		if s, ok := a.Node.(*metadata.DISubprogram); ok {
			sp = s
		}
	}
	x.r = &apt.Routine{Name: name, Kind: kind, Display: l.display[f], Scope: &apt.Scope{Uses: []*apt.Use{{Module: globalsModule, Resolved: true}}}}
	if sp != nil {
		x.r.Span = apt.Span{File: l.file(sp.File), Line: int(sp.Line), Col: 1, EndLine: int(sp.Line), EndCol: 1}
	} else {
		x.r.Span = apt.Span{File: l.name, Line: 1, Col: 1, EndLine: 1, EndCol: 1}
	}
	if kind == apt.KindFunction {
		x.result = name
		x.r.Result = name
		t := valueType(f.Sig.RetType)
		if sr := l.returnedStruct(f); sr != nil {
			t = valueType(sr.typ)
		}
		x.declare(name, t, nil)
	}
	l.sites = append(l.sites, Site{Node: x.r, Func: f})
	x.g = threadShortCircuits(f)
	if x.g.irreducible {
		x.r.Body = []apt.Node{x.unknown(x.r.Span.Start(), "function "+name,
			"irreducible control flow (a goto into a loop) is not modelled; the function's cost is unknown")}
		return x.r
	}
	x.collect()
	x.nameValues()
	x.formals()
	x.planLoops()
	x.decideInline()
	x.resolveInterference()
	x.argvValues()
	x.planStructReturns()
	x.r.Body = x.seq(nil, 0, -1, false)
	if kind == apt.KindProgram {
		x.r.Body = append(l.staticConstructors(x.r.Span.Start()), x.r.Body...)
		if inits := l.aggregateInits(); len(inits) > 0 {
			x.r.Body = append([]apt.Node{&apt.Block{NodeBase: apt.NodeBase{Span: inits[0].Span}, Stmts: inits}}, x.r.Body...)
		}
	}
	if x.stopped {
		x.r.Body = []apt.Node{x.unknown(x.r.Span.Start(), "function "+name,
			fmt.Sprintf("the function's control flow would need more than %d APT nodes when structured; its cost is unknown", maxNodes))}
	}
	x.r.Span.EndLine, x.r.Span.EndCol = x.lastLine()
	return x.r
}

func (x *fn) lastLine() (int, int) {
	line, col := x.r.Span.Line, 1
	apt.Inspect(&apt.Routine{Body: x.r.Body}, func(n apt.Node) bool {
		if n == nil {
			return false
		}
		if s := n.Base().Span; s.EndLine > line && s.File == x.r.Span.File {
			line, col = s.EndLine, s.EndCol
		}
		return true
	})
	return line, col
}

func (x *fn) unknown(p apt.Pos, text, msg string) *apt.Unknown {
	d := apt.Diagnostic{Pos: p, Severity: apt.Warning, Msg: msg}
	x.l.diags = append(x.l.diags, d)
	return &apt.Unknown{NodeBase: apt.NodeBase{Span: spanAt(p)}, Text: text, Diag: d}
}

func spanAt(p apt.Pos) apt.Span {
	return apt.Span{File: p.File, Line: p.Line, Col: p.Col, EndLine: p.Line, EndCol: p.Col}
}

// unwrapArg strips llir's call-argument wrapper.
func unwrapArg(v value.Value) value.Value {
	for {
		a, ok := v.(*ir.Arg)
		if !ok {
			return v
		}
		v = a.Value
	}
}

// stripCasts strips pointer and integer casts (instructions and constant
// expressions) that do not change a value the analysis tracks.
func stripCasts(v value.Value) value.Value {
	for i := 0; i < 64; i++ {
		switch c := unwrapArg(v).(type) {
		case *ir.InstBitCast:
			v = c.From
		case *ir.InstAddrSpaceCast:
			v = c.From
		case *constant.ExprBitCast:
			v = c.From
		case *constant.ExprAddrSpaceCast:
			v = c.From
		case *ir.Alias:
			// Another name of its aliasee: clang emits a C++ class's
			// complete-object constructor and destructor (C1, D1) as
			// aliases of the base-object ones (C2, D2).
			v = c.Aliasee
		default:
			return unwrapArg(v)
		}
	}
	return v
}

// rootGlobal is the global variable an address points into, or nil.
func rootGlobal(v value.Value) *ir.Global {
	for i := 0; i < 64; i++ {
		switch c := stripCasts(v).(type) {
		case *ir.Global:
			return c
		case *ir.InstGetElementPtr:
			v = c.Src
		case *constant.ExprGetElementPtr:
			v = c.Src
		default:
			return nil
		}
	}
	return nil
}

func isDbg(inst ir.Instruction) bool {
	c, ok := inst.(*ir.InstCall)
	if !ok {
		return false
	}
	f, ok := stripCasts(c.Callee).(*ir.Func)
	if !ok {
		return false
	}
	n := f.Name()
	return strings.HasPrefix(n, "llvm.dbg.") || strings.HasPrefix(n, "llvm.lifetime.") ||
		n == "llvm.stacksave" || n == "llvm.stackrestore" || strings.HasPrefix(n, "llvm.experimental.noalias")
}

func operands(x any) []value.Value {
	o, ok := x.(interface{ Operands() []*value.Value })
	if !ok {
		return nil
	}
	var out []value.Value
	for _, p := range o.Operands() {
		if p == nil || *p == nil {
			continue
		}
		v := unwrapArg(*p)
		if _, ok := v.(*metadata.Value); ok {
			continue
		}
		out = append(out, v)
	}
	return out
}

// collect records every value's uses and definition site, and the names
// debug info gives.
func (x *fn) collect() {
	for bi, b := range x.g.blocks {
		if x.g.order[bi] < 0 {
			continue
		}
		for ii, inst := range b.Insts {
			if v, ok := inst.(value.Value); ok {
				x.site[v] = use{user: inst, block: bi, index: ii}
			}
			if isDbg(inst) {
				x.dbgName(inst.(*ir.InstCall))
				continue
			}
			if phi, ok := inst.(*ir.InstPhi); ok {
				x.site[phi] = use{user: inst, block: bi, index: -1}
				for _, inc := range phi.Incs {
					pb, ok := x.g.index[blockOf(inc.Pred)]
					if !ok {
						continue
					}
					x.addUse(unwrapArg(inc.X), use{user: inst, block: pb, index: len(x.g.blocks[pb].Insts)})
				}
				continue
			}
			for _, op := range operands(inst) {
				x.addUse(op, use{user: inst, block: bi, index: ii})
			}
		}
		for _, op := range operands(b.Term) {
			x.addUse(op, use{user: b.Term, block: bi, index: len(b.Insts)})
		}
		if inv, ok := b.Term.(*ir.TermInvoke); ok {
			x.site[inv] = use{user: inv, block: bi, index: len(b.Insts)}
		}
		if ret, ok := b.Term.(*ir.TermRet); ok && x.retB < 0 && onlyPhis(b) {
			_ = ret
			x.retB = bi
		}
	}
	// A return block only counts as one when it is the function's only
	// return.
	rets := 0
	for bi, b := range x.g.blocks {
		if _, ok := b.Term.(*ir.TermRet); ok && x.g.order[bi] >= 0 {
			rets++
		}
	}
	if rets != 1 {
		x.retB = -1
	}
}

func onlyPhis(b *ir.Block) bool {
	for _, inst := range b.Insts {
		if _, ok := inst.(*ir.InstPhi); !ok && !isDbg(inst) {
			return false
		}
	}
	return true
}

func (x *fn) addUse(v value.Value, u use) {
	switch v.(type) {
	case ir.Instruction, *ir.Param, *ir.TermInvoke:
		x.uses[v] = append(x.uses[v], u)
	}
}

// dbgName names a value after the source variable a dbg.value or
// dbg.declare call describes; the first description wins.
func (x *fn) dbgName(c *ir.InstCall) {
	if len(c.Args) < 2 {
		return
	}
	mv, ok := c.Args[0].(*metadata.Value)
	if !ok {
		return
	}
	vv, ok := c.Args[1].(*metadata.Value)
	if !ok {
		return
	}
	lv, ok := vv.Value.(*metadata.DILocalVariable)
	if !ok || lv.Name == "" {
		return
	}
	v, ok := mv.Value.(value.Value)
	if !ok {
		return
	}
	switch v.(type) {
	case ir.Instruction, *ir.Param:
	default:
		return
	}
	if _, done := x.names[v]; done {
		return
	}
	x.names[v] = x.srcVarName(lv)
	x.srcName[v] = true
	if lv.Arg > 0 {
		x.argSlot[v] = int(lv.Arg)
	}
}

// nameValues gives every value without a source name one of its own.
func (x *fn) nameValues() {
	used := map[string]bool{}
	for _, n := range x.names {
		used[n] = true
	}
	fresh := func(base string) string {
		base = strings.ToLower(cleanName(base))
		if base == "" || base[0] >= '0' && base[0] <= '9' {
			base = "t" + base
		}
		n := base
		for i := 2; used[n]; i++ {
			n = base + "_" + strconv.Itoa(i)
		}
		used[n] = true
		return n
	}
	// A formal whose address is taken lives in a stack slot clang names
	// after it; the slot is the formal.
	for i, p := range x.f.Params {
		us := x.uses[p]
		if len(us) != 1 {
			continue
		}
		st, ok := us[0].user.(*ir.InstStore)
		if !ok || unwrapArg(st.Src) != value.Value(p) {
			continue
		}
		if a, ok := stripCasts(st.Dst).(*ir.InstAlloca); ok && x.argSlot[a] == i+1 {
			x.names[p], x.srcName[p] = x.names[a], true
			x.skipStore[st] = true
		}
	}
	// Each formal is a variable of its own: the elements of a C++
	// parameter pack share one source name (__args) in their slots.
	formal := map[string]bool{}
	for _, p := range x.f.Params {
		if n, ok := x.names[p]; !ok || formal[n] {
			x.names[p] = fresh(p.LocalName)
		}
		formal[x.names[p]] = true
	}
	// A cast that gives a value its source name (double *a = malloc(...))
	// names the value itself.
	for v := range x.srcName {
		c, ok := v.(*ir.InstBitCast)
		if !ok {
			continue
		}
		from := unwrapArg(c.From)
		if _, isInst := from.(ir.Instruction); !isInst || x.srcName[from] || len(x.uses[from]) != 1 {
			continue
		}
		x.names[from], x.srcName[from] = x.names[v], true
		x.alias[v] = from
		x.declare(x.names[v], valueType(c.To), x.dimsOf(c))
	}
	// A value parsed from text and stored straight into a field
	// (cfg.nx = atoi(argv[1]), p->nx = ...) is named after the field: the
	// parameter it becomes is then nx, not the call's temporary.
	for _, b := range x.g.blocks {
		for _, inst := range b.Insts {
			c, ok := inst.(*ir.InstCall)
			if !ok {
				continue
			}
			if _, named := x.names[c]; named {
				continue
			}
			if name, _ := calleeName(c); !inputFuncs[name] {
				continue
			}
			if f := x.storedField(c); f != "" && !x.l.isGlobalName(f) {
				// (A global of the field's name would be hidden.)
				x.names[c] = fresh(f)
			}
		}
	}
	for bi, b := range x.g.blocks {
		if x.g.order[bi] < 0 {
			continue
		}
		for _, inst := range b.Insts {
			v, ok := inst.(value.Value)
			if !ok || isDbg(inst) {
				continue
			}
			if _, ok := x.names[v]; ok {
				continue
			}
			id, _ := inst.(interface{ Name() string })
			base := ""
			if id != nil {
				base = id.Name()
			}
			if _, num := strconv.Atoi(base); num == nil {
				base = ""
			}
			x.names[v] = fresh("t_" + base)
		}
		if inv, ok := b.Term.(*ir.TermInvoke); ok {
			if _, named := x.names[inv]; !named {
				x.names[inv] = fresh("t_" + inv.Name())
			}
		}
	}
	x.uniq = fresh
}

// chosenInto is the source variable a call's value becomes when it is one
// of the values a conditional chooses between (n = argc > 1 ?
// atoi(argv[1]) : 100, or if/else assignments joined by a phi), through
// conversions; "" when the call is a source variable itself or goes
// elsewhere.
func (x *fn) chosenInto(v value.Value) string {
	if x.srcName[v] {
		return ""
	}
	for range 4 {
		us := x.uses[v]
		if len(us) != 1 {
			return ""
		}
		if st, ok := us[0].user.(*ir.InstStore); ok && st.Src == v {
			// Stored into a global (max_blocks = atoi(argv[1])): the
			// value is the global's.
			if g, ok := stripCasts(st.Dst).(*ir.Global); ok {
				if gv := x.l.globals[g]; gv != nil && !gv.External {
					return gv.Name
				}
			}
			return ""
		}
		u, ok := us[0].user.(value.Value)
		if !ok {
			return ""
		}
		switch u.(type) {
		case *ir.InstPhi, *ir.InstSelect:
			if x.srcName[u] {
				return x.names[u]
			}
		case *ir.InstTrunc, *ir.InstSExt, *ir.InstZExt, *ir.InstFPToSI, *ir.InstSIToFP, *ir.InstFPTrunc, *ir.InstFPExt:
		default:
			return ""
		}
		v = u
	}
	return ""
}

// storedField is the name of the struct field v's only use stores it to
// (through one conversion), "" when it goes elsewhere.
func (x *fn) storedField(v value.Value) string {
	us := x.uses[v]
	if len(us) != 1 {
		return ""
	}
	if cv, ok := us[0].user.(value.Value); ok && stripCasts(cv) == v {
		us = x.uses[cv]
		if len(us) != 1 {
			return ""
		}
	}
	st, ok := us[0].user.(*ir.InstStore)
	if !ok {
		return ""
	}
	var elem types.Type
	var idx []value.Value
	switch g := stripCasts(st.Dst).(type) {
	case *ir.InstGetElementPtr:
		elem, idx = g.ElemType, g.Indices
	case *constant.ExprGetElementPtr:
		elem, idx = g.ElemType, constValues(g.Indices)
	default:
		return ""
	}
	field := ""
	cur := elem
	for _, ix := range idx[min(1, len(idx)):] {
		switch ct := cur.(type) {
		case *types.StructType:
			k, ok := unwrapArg(ix).(*constant.Int)
			if !ok || !k.X.IsInt64() || int(k.X.Int64()) >= len(ct.Fields) {
				return ""
			}
			field, cur = x.l.fieldName(ct, int(k.X.Int64())), ct.Fields[k.X.Int64()]
		case *types.ArrayType:
			field, cur = "", ct.ElemType
		default:
			return ""
		}
	}
	return field
}

// renameFormal gives the dummy argument p, declared as old, the name it
// has now: a C parameter named as its function (int count(int count))
// is renamed apart from the function's result, which formals found
// declared under that name.
func (x *fn) renameFormal(p *ir.Param, old string) {
	name := x.names[p]
	if v := x.vars[old]; v != nil && old == x.result {
		v.Dummy = false
	}
	if i := slices.Index(x.r.Formals, old); i >= 0 {
		x.r.Formals[i] = name
	}
	var d []apt.Dim
	if _, isPtr := p.Typ.(*types.PointerType); isPtr && !x.scalarP[p] {
		d = []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
	}
	x.declare(name, valueType(p.Typ), d).Dummy = true
}

// formals declares the dummy arguments. A pointer argument the function
// only loads from and stores to as one value (no indexing) is a scalar
// passed by reference, as every Fortran argument is; any other pointer is
// an array.
func (x *fn) formals() {
	for _, p := range x.f.Params {
		name := x.names[p]
		x.r.Formals = append(x.r.Formals, name)
		pt, isPtr := p.Typ.(*types.PointerType)
		scalar := isPtr
		if isPtr {
			for _, u := range x.uses[p] {
				switch w := u.user.(type) {
				case *ir.InstLoad:
				case *ir.InstStore:
					if stripCasts(w.Dst) != value.Value(p) {
						scalar = false
					}
				default:
					scalar = false
				}
			}
			if _, ok := pt.ElemType.(*types.StructType); ok {
				scalar = false
			}
		}
		var d []apt.Dim
		if isPtr && !scalar {
			d = []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
		}
		if scalar {
			x.scalarP[p] = true
		}
		v := x.declare(name, valueType(p.Typ), d)
		v.Dummy = true
	}
}

func (x *fn) declare(name string, t apt.Type, d []apt.Dim) *apt.Var {
	if v := x.vars[name]; v != nil {
		return v
	}
	v := &apt.Var{Name: name, Type: t, Dims: d}
	x.vars[name] = v
	x.r.Scope.Add(v)
	return v
}

// staticConstructors are calls, at the program's start (at), of the
// functions the C++ runtime runs before main: the module's
// llvm.global_ctors, by priority (C++ static objects, std::ios_base::Init).
// Each runs once per process, as every process's counts include.
func (l *lifter) staticConstructors(at apt.Pos) []apt.Node {
	type ctor struct {
		prio int64
		f    *ir.Func
	}
	var ctors []ctor
	for _, g := range l.m.Globals {
		if g.Name() != "llvm.global_ctors" {
			continue
		}
		arr, ok := g.Init.(*constant.Array)
		if !ok {
			continue
		}
		for _, e := range arr.Elems {
			st, ok := e.(*constant.Struct)
			if !ok || len(st.Fields) < 2 {
				continue
			}
			prio := int64(65535)
			if c, ok := st.Fields[0].(*constant.Int); ok && c.X.IsInt64() {
				prio = c.X.Int64()
			}
			var fv value.Value = st.Fields[1]
			if bc, ok := fv.(*constant.ExprBitCast); ok {
				fv = bc.From
			}
			if f, ok := fv.(*ir.Func); ok && len(f.Blocks) > 0 && l.fnames[f] != "" {
				ctors = append(ctors, ctor{prio, f})
			}
		}
	}
	slices.SortStableFunc(ctors, func(a, b ctor) int { return cmp.Compare(a.prio, b.prio) })
	var out []apt.Node
	for _, c := range ctors {
		out = append(out, &apt.Call{NodeBase: apt.NodeBase{Span: spanAt(at)}, Callee: l.fnames[c.f]})
	}
	return out
}
