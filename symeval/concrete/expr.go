package concrete

import (
	"math"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// num is a compiled numeric or logical expression: i for INTEGER and
// LOGICAL (0 or 1) values, f for REAL ones.
type num struct {
	i    ival
	f    fval
	real bool
}

// asInt is n as an integer (a REAL truncated, as INT does).
func (n num) asInt() ival {
	if !n.real {
		return n.i
	}
	f := n.f
	return func(a *act) (int64, bool) {
		v, ok := f(a)
		return int64(v), ok
	}
}

// asReal is n as a REAL.
func (n num) asReal() fval {
	if n.real {
		return n.f
	}
	i := n.i
	return func(a *act) (float64, bool) {
		v, ok := i(a)
		return float64(v), ok
	}
}

func intNum(f ival) num  { return num{i: f} }
func realNum(f fval) num { return num{f: f, real: true} }

func constInt(v int64) num {
	return intNum(func(*act) (int64, bool) { return v, true })
}

func constReal(v float64) num {
	return realNum(func(*act) (float64, bool) { return v, true })
}

// intExpr compiles e for an integer value.
func (c *compiler) intExpr(e apt.Expr) ival { return c.expr(e).asInt() }

// realExpr compiles e for a real value.
func (c *compiler) realExpr(e apt.Expr) fval { return c.expr(e).asReal() }

// cond compiles a logical expression for control: an unknown value stops
// the run there.
func (c *compiler) cond(e apt.Expr) func(a *act) bool {
	f := c.intExpr(e)
	pos := e.At()
	return func(a *act) bool {
		v, ok := f(a)
		if !ok {
			stop(pos, "the condition %s rests on a value the run does not know", apt.FormatExpr(e))
		}
		return v != 0
	}
}

// single reports whether t is REAL(4).
func single(t apt.Type) bool { return t.Base == apt.TypeReal && t.Kind == 4 }

// expr compiles e.
func (c *compiler) expr(e apt.Expr) num {
	pos := e.At()
	if t := apt.TypeOf(e); opaque(t) {
		return c.opaqueExpr(e, t)
	}
	switch e := e.(type) {
	case *apt.Const:
		return constant(e)
	case *apt.Name:
		return c.name(e)
	case *apt.Index:
		return c.element(e)
	case *apt.Component:
		if path, root, ok := fieldPath(e); ok {
			return c.scalar(c.rt.fieldSlot(c.m, e, path, root), e.Pos)
		}
		if i, ok := c.derefField(e); ok {
			return c.scalar(i, e.Pos)
		}
	case *apt.Unary:
		x := c.expr(e.X)
		switch e.Op {
		case apt.OpPlus:
			return x
		case apt.OpNeg:
			if x.real {
				f := x.f
				return realNum(func(a *act) (float64, bool) { v, ok := f(a); return -v, ok })
			}
			f := x.i
			return intNum(func(a *act) (int64, bool) { v, ok := f(a); return -v, ok })
		case apt.OpNot:
			f := x.i
			return intNum(func(a *act) (int64, bool) { v, ok := f(a); return b2i(v == 0), ok })
		}
	case *apt.Binary:
		return c.binary(e)
	case *apt.FuncCall:
		return c.funcCall(e)
	}
	stop(pos, "the expression %s is not one the run evaluates", apt.FormatExpr(e))
	return num{}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// constant compiles a literal.
func constant(k *apt.Const) num {
	switch k.Kind {
	case apt.ConstInt:
		t := stripKind(k.Text)
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			stop(k.Pos, "integer constant %s", k.Text)
		}
		return constInt(v)
	case apt.ConstReal:
		t := strings.Map(func(r rune) rune {
			switch r {
			case 'd', 'D', 'q', 'Q':
				return 'e'
			}
			return r
		}, stripKind(k.Text))
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			stop(k.Pos, "real constant %s", k.Text)
		}
		return constReal(round(v, single(k.Type)))
	case apt.ConstLogical:
		return constInt(b2i(strings.Contains(strings.ToLower(k.Text), "true")))
	}
	stop(k.Pos, "constant %s of a type the run does not follow", k.Text)
	return num{}
}

// stripKind drops a kind suffix (1.0_dp, 8_8).
func stripKind(t string) string {
	if i := strings.IndexByte(t, '_'); i > 0 {
		return t[:i]
	}
	return t
}

// name compiles a scalar variable or named constant.
func (c *compiler) name(e *apt.Name) num {
	v := c.m.prog.Resolve(c.rt.r, e.Name)
	if v != nil && v.Param != nil {
		x := c.expr(v.Param)
		if v.Type.Base == apt.TypeReal {
			return realNum(x.asReal())
		}
		if v.Type.Base == apt.TypeInteger {
			return intNum(x.asInt())
		}
		return x
	}
	return c.scalar(c.rt.slotOf(c.m, e.Name, e.Pos), e.Pos)
}

// scalar compiles the value of the scalar in slot i.
func (c *compiler) scalar(i int, pos apt.Pos) num {
	sl := c.rt.slots[i]
	name := sl.name
	if len(sl.lo) > 0 {
		stop(pos, "the whole array %s is used as a value", name)
	}
	if sl.real {
		return realNum(func(a *act) (float64, bool) {
			vw := a.view(i, pos)
			if vw.s.WriteOnly {
				stop(pos, "%s holds an address", name)
			}
			return vw.s.F[vw.off], vw.s.Known[vw.off]
		})
	}
	return intNum(func(a *act) (int64, bool) {
		vw := a.view(i, pos)
		if vw.s.WriteOnly {
			stop(pos, "%s holds an address", name)
		}
		return vw.s.I[vw.off], vw.s.Known[vw.off]
	})
}

// offset compiles the element offset of an array reference, within its
// store; the run stops on a subscript it does not know or out of bounds.
func (c *compiler) offset(ix *apt.Index) (slotIdx int, off func(a *act) int64) {
	return c.offsetTo(ix, 0)
}

// address compiles the offset of the element C's &a[k] takes: one past
// the last is an address the program may form (and not read).
func (c *compiler) address(ix *apt.Index) (slotIdx int, off func(a *act) int64) {
	return c.offsetTo(ix, 1)
}

// offsetTo compiles an element offset allowed up to past elements beyond
// the last.
func (c *compiler) offsetTo(ix *apt.Index, past int64) (slotIdx int, off func(a *act) int64) {
	name := ix.Name
	i := -1
	if b, ok := ix.Base.(*apt.Name); ok && !ix.Deref && c.m.prog.Resolve(c.rt.r, b.Name+"%"+ix.Name) != nil {
		// A field of an array of structures the C frontend declares as
		// an array of its own (blocks.level[i], bp->level with bp =
		// &blocks[i]: blocks%level).
		name = b.Name + "%" + ix.Name
	} else if ptr, root := c.pointeeOf(ix); ptr != nil {
		i = c.rt.pointeeSlot(ptr, root, ix.Type, ix.Pos)
	} else if ix.Base != nil || ix.Deref || ix.Substring || len(ix.FieldDims) > 0 {
		stop(ix.Pos, "%s is not a plain array element", apt.FormatExpr(ix))
	}
	if i < 0 {
		i = c.rt.slotOf(c.m, name, ix.Pos)
	}
	sl := c.rt.slots[i]
	if len(ix.Subs) != len(sl.lo) {
		stop(ix.Pos, "%s has %d subscripts for %d dimensions", ix.Name, len(ix.Subs), len(sl.lo))
	}
	subs := make([]ival, len(ix.Subs))
	for k, s := range ix.Subs {
		if _, sec := s.(*apt.Section); sec {
			stop(ix.Pos, "array section %s", apt.FormatExpr(ix))
		}
		subs[k] = c.intExpr(s)
	}
	pos := ix.Pos
	return i, func(a *act) int64 {
		vw := a.view(i, pos)
		o := int64(0)
		for k, s := range subs {
			x, ok := s(a)
			if !ok {
				stop(pos, "the subscript of %s is not known", apt.FormatExpr(ix))
			}
			o += (x - vw.lo[k]) * vw.stride[k]
		}
		if o < 0 || o >= vw.n+past {
			stop(pos, "%s is out of bounds", apt.FormatExpr(ix))
		}
		return vw.off + o
	}
}

// element compiles an array element's value.
func (c *compiler) element(ix *apt.Index) num {
	i, off := c.offset(ix)
	pos := ix.Pos
	if c.rt.slots[i].real {
		return realNum(func(a *act) (float64, bool) {
			o := off(a)
			s := a.vars[i].s
			if s.WriteOnly {
				stop(pos, "%s holds an address", ix.Name)
			}
			return s.F[o], s.Known[o]
		})
	}
	return intNum(func(a *act) (int64, bool) {
		o := off(a)
		s := a.vars[i].s
		if s.WriteOnly {
			stop(pos, "%s holds an address", ix.Name)
		}
		return s.I[o], s.Known[o]
	})
}

// binary compiles an arithmetic, relational or logical operation.
func (c *compiler) binary(b *apt.Binary) num {
	x, y := c.expr(b.X), c.expr(b.Y)
	pos := b.Pos
	switch {
	case b.Op.IsLogical():
		fx, fy := x.i, y.i
		var op func(p, q bool) bool
		switch b.Op {
		case apt.OpAnd:
			op = func(p, q bool) bool { return p && q }
		case apt.OpOr:
			op = func(p, q bool) bool { return p || q }
		case apt.OpEqv:
			op = func(p, q bool) bool { return p == q }
		case apt.OpNeqv:
			op = func(p, q bool) bool { return p != q }
		default:
			stop(pos, "operator %s", b.Op)
		}
		// C's && and || leave the right operand unevaluated where the
		// left settles the value (i < n && a[i] reads no a[n]).
		short := c.m.prog.Notation() != apt.Fortran && (b.Op == apt.OpAnd || b.Op == apt.OpOr)
		settles := b.Op == apt.OpOr
		return intNum(func(a *act) (int64, bool) {
			p, ok1 := fx(a)
			if short && ok1 && (p != 0) == settles {
				return b2i(settles), true
			}
			q, ok2 := fy(a)
			return b2i(op(p != 0, q != 0)), ok1 && ok2
		})
	case b.Op.IsRelational():
		if x.real || y.real {
			fx, fy := x.asReal(), y.asReal()
			cmp := relation[float64](b.Op, pos)
			return intNum(func(a *act) (int64, bool) {
				p, ok1 := fx(a)
				q, ok2 := fy(a)
				return b2i(cmp(p, q)), ok1 && ok2
			})
		}
		fx, fy := x.i, y.i
		cmp := relation[int64](b.Op, pos)
		return intNum(func(a *act) (int64, bool) {
			p, ok1 := fx(a)
			q, ok2 := fy(a)
			return b2i(cmp(p, q)), ok1 && ok2
		})
	}
	if x.real || y.real {
		fx, fy := x.asReal(), y.asReal()
		sg := single(apt.TypeOf(b))
		var op func(p, q float64) float64
		switch b.Op {
		case apt.OpAdd:
			op = func(p, q float64) float64 { return p + q }
		case apt.OpSub:
			op = func(p, q float64) float64 { return p - q }
		case apt.OpMul:
			op = func(p, q float64) float64 { return p * q }
		case apt.OpDiv:
			op = func(p, q float64) float64 { return p / q }
		case apt.OpPow:
			if !y.real {
				fy := y.i
				return realNum(func(a *act) (float64, bool) {
					p, ok1 := fx(a)
					q, ok2 := fy(a)
					return round(math.Pow(p, float64(q)), sg), ok1 && ok2
				})
			}
			op = math.Pow
		default:
			stop(pos, "operator %s", b.Op)
		}
		return realNum(func(a *act) (float64, bool) {
			p, ok1 := fx(a)
			q, ok2 := fy(a)
			return round(op(p, q), sg), ok1 && ok2
		})
	}
	fx, fy := x.i, y.i
	var op func(p, q int64) int64
	switch b.Op {
	case apt.OpAdd:
		op = func(p, q int64) int64 { return p + q }
	case apt.OpSub:
		op = func(p, q int64) int64 { return p - q }
	case apt.OpMul:
		op = func(p, q int64) int64 { return p * q }
	case apt.OpDiv:
		return intNum(func(a *act) (int64, bool) {
			p, ok1 := fx(a)
			q, ok2 := fy(a)
			if !ok1 || !ok2 {
				return 0, false
			}
			if q == 0 {
				stop(pos, "integer division by zero")
			}
			return p / q, true
		})
	case apt.OpPow:
		op = ipow
	default:
		stop(pos, "operator %s", b.Op)
	}
	return intNum(func(a *act) (int64, bool) {
		p, ok1 := fx(a)
		q, ok2 := fy(a)
		return op(p, q), ok1 && ok2
	})
}

// relation returns the comparison of op.
func relation[T int64 | float64](op apt.Op, pos apt.Pos) func(p, q T) bool {
	switch op {
	case apt.OpEq:
		return func(p, q T) bool { return p == q }
	case apt.OpNe:
		return func(p, q T) bool { return p != q }
	case apt.OpLt:
		return func(p, q T) bool { return p < q }
	case apt.OpLe:
		return func(p, q T) bool { return p <= q }
	case apt.OpGt:
		return func(p, q T) bool { return p > q }
	case apt.OpGe:
		return func(p, q T) bool { return p >= q }
	}
	stop(pos, "operator %s", op)
	return nil
}

// ipow is b**e in integers (0 for a negative e, but for b = +-1).
func ipow(b, e int64) int64 {
	if e < 0 {
		switch b {
		case 1:
			return 1
		case -1:
			if e%2 == 0 {
				return 1
			}
			return -1
		}
		return 0
	}
	r := int64(1)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r *= b
		}
		b *= b
	}
	return r
}

// opaqueExpr compiles an expression of a type the run does not follow
// (COMPLEX, CHARACTER) to an unknown value: a test that reads it stops
// the run where it is evaluated. A reference to a function of the program
// in it would run that function, which this does not: that stops the
// compilation.
func (c *compiler) opaqueExpr(e apt.Expr, t apt.Type) num {
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic && c.m.Routine(c.rt.r, f.Name) != nil {
			stop(f.Pos, "%s is called in an expression of a type the run does not follow", f.Name)
		}
		return true
	})
	if realStored(t) {
		return realNum(func(*act) (float64, bool) { return 0, false })
	}
	return intNum(func(*act) (int64, bool) { return 0, false })
}
