package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Positions in argv. A C program reads its command line through pointers
// into argv however it likes: argv[k], argv[i+1] in an option loop,
// *++argv, p = argv + 1 and p++ in a walk. The lifter keeps, for every
// value that points into argv, the index it points at as an integer
// expression of the program's own variables, so the evaluation reads the
// argument the run reads (atoi(*++argv) three times reads argv[1], [2]
// and [3]). A value is a cursor (char**: argv + pos) or an element
// (char*: argv[pos], what atoi parses); a stack slot every store of which
// stores a cursor (main's argv when &argv goes to MPI_Init) or an element
// is one too, and holds its position in an integer variable of its own,
// as do the values the function names (phis and values used more than
// once): the position is taken when the pointer is, not when it is used.

type argvKind int8

const (
	argvCursor  argvKind = 1 // argv + pos
	argvElement argvKind = 2 // argv[pos]
)

// argvValues finds the cursors, the elements and the slots holding them.
func (x *fn) argvValues() {
	x.argvKinds = map[value.Value]argvKind{}
	x.argvSlots = map[*ir.InstAlloca]argvKind{}
	x.argvVars = map[value.Value]string{}
	for _, p := range x.f.Params {
		if x.l.argv[p] {
			x.argvName = x.names[p]
		}
	}
	if x.argvName == "" {
		return
	}
	stores := map[*ir.InstAlloca][]*ir.InstStore{}
	escapes := map[*ir.InstAlloca]bool{}
	var insts []ir.Instruction
	for bi, b := range x.g.blocks {
		if x.g.order[bi] < 0 {
			continue
		}
		for _, inst := range b.Insts {
			insts = append(insts, inst)
			switch c := inst.(type) {
			case *ir.InstStore:
				if a, ok := stripCasts(c.Dst).(*ir.InstAlloca); ok {
					stores[a] = append(stores[a], c)
				}
				if a, ok := stripCasts(c.Src).(*ir.InstAlloca); ok {
					escapes[a] = true // its address is kept somewhere
				}
			case *ir.InstCall:
				// A slot passed to the program's own routine may be
				// moved by it (parse(&argc, &argv)); a library call such
				// as MPI_Init leaves the program's arguments in place.
				if f, ok := stripCasts(c.Callee).(*ir.Func); !ok || len(f.Blocks) > 0 {
					for _, a := range c.Args {
						if s, ok := stripCasts(unwrapArg(a)).(*ir.InstAlloca); ok {
							escapes[s] = true
						}
					}
				}
			}
		}
	}
	// The greatest fixed point: slots are grown from the stores of known
	// kinds, then a slot any store of which stores something else is
	// dropped, until nothing changes.
	kinds := func() map[value.Value]argvKind {
		k := map[value.Value]argvKind{}
		for _, p := range x.f.Params {
			if x.l.argv[p] {
				k[p] = argvCursor
			}
		}
		for changed := true; changed; {
			changed = false
			for _, inst := range insts {
				v, ok := inst.(value.Value)
				if !ok || k[v] != 0 {
					continue
				}
				var kind argvKind
				switch c := inst.(type) {
				case *ir.InstLoad:
					if a, ok := stripCasts(c.Src).(*ir.InstAlloca); ok {
						kind = x.argvSlots[a]
					} else if k[stripCasts(c.Src)] == argvCursor {
						kind = argvElement
					}
				case *ir.InstGetElementPtr:
					if len(c.Indices) == 1 && k[stripCasts(c.Src)] == argvCursor {
						kind = argvCursor
					}
				case *ir.InstPhi:
					for i, inc := range c.Incs {
						ik := k[stripCasts(unwrapArg(inc.X))]
						if i == 0 {
							kind = ik
						} else if ik != kind {
							kind = 0
						}
					}
				case *ir.InstBitCast:
					kind = k[stripCasts(c.From)]
				}
				if kind != 0 {
					k[v], changed = kind, true
				}
			}
		}
		return k
	}
	for grow := true; grow; {
		grow = false
		k := kinds()
		for a, ss := range stores {
			if x.argvSlots[a] != 0 || escapes[a] {
				continue
			}
			for _, st := range ss {
				if sk := k[stripCasts(st.Src)]; sk != 0 {
					x.argvSlots[a], grow = sk, true
					break
				}
			}
		}
	}
	for shrink := true; shrink; {
		shrink = false
		k := kinds()
		for a, kind := range x.argvSlots {
			for _, st := range stores[a] {
				if k[stripCasts(st.Src)] != kind {
					delete(x.argvSlots, a)
					shrink = true
					break
				}
			}
		}
		x.argvKinds = k
	}
	for _, inst := range insts {
		if a, ok := inst.(*ir.InstAlloca); ok && x.argvSlots[a] != 0 {
			x.argvStores(a, stores[a])
		}
	}
	// The values the function names (phis, values used more than once)
	// keep the position they were made with.
	byName := map[string]string{}
	for _, inst := range insts {
		v, ok := inst.(value.Value)
		if !ok || x.argvKinds[v] == 0 || x.inline[v] || x.skip[v] || x.alias[v] != nil {
			continue
		}
		if _, isSlot := inst.(*ir.InstAlloca); isSlot {
			continue
		}
		if _, named := x.names[v]; !named {
			continue
		}
		// Values the function gives one name (a phi and what flows
		// into it) are one variable, and so is their position.
		n, ok := byName[x.names[v]]
		if !ok {
			n = x.uniq(x.names[v] + "_pos")
			byName[x.names[v]] = n
			x.declare(n, argvPosType, nil)
		}
		x.argvVars[v] = n
	}
}

// argvStores leaves a slot whose every store stores argv itself without a
// variable of its own: its position is 0 wherever it is read.
func (x *fn) argvStores(a *ir.InstAlloca, ss []*ir.InstStore) {
	for _, st := range ss {
		if p, ok := stripCasts(st.Src).(*ir.Param); !ok || !x.l.argv[p] {
			x.argvVars[a] = x.uniq(x.names[a] + "_pos")
			x.declare(x.argvVars[a], argvPosType, nil)
			return
		}
	}
}

var argvPosType = apt.Type{Base: apt.TypeInteger, Kind: 4}

// argvKindOf is the kind of v: a cursor, an element or neither (0).
func (x *fn) argvKindOf(v value.Value) argvKind {
	if x.argvKinds == nil {
		return 0
	}
	return x.argvKinds[stripCasts(unwrapArg(v))]
}

// argvPos is the position v points at (a cursor) or was read from (an
// element), as the function's statements see it where v is used.
func (x *fn) argvPos(v value.Value) apt.Expr {
	v = stripCasts(unwrapArg(v))
	if n, ok := x.argvVars[v]; ok {
		return x.nameExpr(n, argvPosType)
	}
	return x.argvDef(v)
}

// argvDef is the position v holds computed from its operands: its
// definition.
func (x *fn) argvDef(v value.Value) apt.Expr {
	switch c := v.(type) {
	case *ir.Param:
		if x.l.argv[c] {
			return intConst(0)
		}
	case *ir.InstLoad:
		src := stripCasts(c.Src)
		if a, ok := src.(*ir.InstAlloca); ok && x.argvSlots[a] != 0 {
			if n, ok := x.argvVars[a]; ok {
				return x.nameExpr(n, argvPosType)
			}
			return intConst(0)
		}
		return x.argvPos(src)
	case *ir.InstGetElementPtr:
		base := x.argvPos(c.Src)
		if len(c.Indices) == 0 {
			return base // (a GEP of no index is its base)
		}
		idx := unwrapArg(c.Indices[0])
		if k, ok := idx.(*constant.Int); ok && k.X.IsInt64() {
			if k.X.Sign() == 0 {
				return base
			}
			if b, ok := constValue(base); ok {
				return intConst(b + k.X.Int64())
			}
		}
		return &apt.Binary{Op: apt.OpAdd, X: base, Y: x.expr(idx)}
	}
	// A phi the function does not name, or no pointer into argv.
	return unknownExpr("position in argv")
}

// argvStmt is the statement that sets the position variable of a slot
// stored to, or of a value the function names; nil when there is none.
func (x *fn) argvStmt(target value.Value, def apt.Expr) *apt.Stmt {
	n, ok := x.argvVars[target]
	if !ok {
		return nil
	}
	return &apt.Stmt{Span: spanAt(x.at), Kind: apt.StmtAssign, Target: x.nameExpr(n, argvPosType), Value: def}
}

// argvIndexOf is the argument a string value is, argv[k], for the
// functions that parse one (atoi(*++argv)): nil when it is no element
// of argv or is argv[0], the program's name.
func (x *fn) argvIndexOf(v value.Value) apt.Expr {
	if x.argvKindOf(v) != argvElement {
		return nil
	}
	e := x.argvPos(v)
	if k, ok := constValue(e); ok && k <= 0 {
		return nil
	}
	return e
}
