package symeval

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Footprint is the data a loop nest touches: the arrays its statements
// refer to, by their declared sizes in the calling context, and what one
// iteration of an innermost loop reads and writes.
//
// The memory level a nest runs from depends on how much data it touches
// between two uses of the same element; for a nest that sweeps its arrays
// (the stencils, transposes and vector updates of the NPB kernels) that is
// the arrays' size, which the declarations give as a closed form in the
// parameters. Calibration runs in small sizes fit in the caches; a target
// may not, and a per-iteration cost calibrated in L2 then says little
// (issue 14, item 3).
type Footprint struct {
	// Bytes is the sum of the declared sizes of the distinct arrays the
	// nest's statements refer to (calls not followed: a callee's nests
	// have footprints of their own), valid when Unknown is "".
	Bytes symbolic.Expr
	// Arrays is the number of those arrays.
	Arrays int
	// Unknown names the first array whose size the evaluation cannot
	// tell (a pointer, a deferred shape, an array of derived type) and why.
	Unknown string
}

// elemBytes is the storage size of one element of type t (gfortran's kind
// numbers are byte sizes), false when the kind is not known.
func (ev *evaluator) elemBytes(t apt.Type) (int64, bool) {
	// The frontend keeps a complex type's storage size in Kind
	// (COMPLEX*16, DOUBLE COMPLEX, COMPLEX(8) are all 16 bytes); a kind
	// named by a constant is the kind number, half the size.
	kind := int64(t.Kind)
	if kind == 0 && t.KindExpr != nil {
		if e, ok := ev.value(t.KindExpr).Single(); ok {
			if k, isInt := e.Int64(); isInt {
				kind = k
				if t.Base == apt.TypeComplex {
					kind *= 2
				}
			}
		}
	}
	switch t.Base {
	case apt.TypeInteger, apt.TypeReal, apt.TypeLogical:
		if kind == 0 {
			kind = 4
		}
		return kind, true
	case apt.TypeComplex:
		if kind == 0 {
			kind = 8
		}
		return kind, true
	case apt.TypeCharacter:
		if t.Len == nil {
			return 1, true
		}
		if e, ok := ev.value(t.Len).Single(); ok {
			if k, isInt := e.Int64(); isInt && k >= 0 {
				return k, true
			}
		}
	}
	return 0, false
}

// arrayRefs lists the element references and whole-array names of the
// statements of body, its loops' and branches' included, not its calls'.
func arrayRefs(body []apt.Node, f func(e apt.Expr)) {
	exprs := func(es ...apt.Expr) {
		for _, e := range es {
			if e == nil {
				continue
			}
			apt.InspectExpr(e, func(x apt.Expr) bool {
				switch y := x.(type) {
				case *apt.Index:
					f(y)
				case *apt.Name:
					if y.Array {
						f(y)
					}
				}
				return true
			})
		}
	}
	for _, n := range body {
		apt.Inspect(n, func(m apt.Node) bool {
			switch x := m.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					exprs(s.Target, s.Value, s.Mask)
					exprs(s.Args...)
				}
			case *apt.If:
				exprs(x.Selector)
				for _, b := range x.Branches {
					exprs(b.Cond)
				}
			case *apt.Loop:
				exprs(x.Lower, x.Upper, x.Step, x.While)
			case *apt.Call:
				exprs(x.Args...)
				return false
			case *apt.Comm:
				return false
			}
			return true
		})
	}
}

// footprint is the footprint of the loop nest l in the current context:
// the declared sizes of the arrays its statements refer to.
func (ev *evaluator) footprint(l *apt.Loop) *Footprint {
	fp := &Footprint{Bytes: symbolic.Int(0)}
	seen := map[string]bool{}
	arrayRefs([]apt.Node{l}, func(e apt.Expr) {
		if fp.Unknown != "" {
			return
		}
		var name string
		var t apt.Type
		switch x := e.(type) {
		case *apt.Index:
			if x.Base != nil {
				fp.Unknown = x.Name + " is a component of a derived-type value"
				return
			}
			name, t = x.Name, x.Type
		case *apt.Name:
			name, t = x.Name, x.Type
		}
		d := ev.prog.Resolve(ev.frame().routine, name)
		if d == nil || !d.IsArray() {
			return // a function reference or a character substring
		}
		key := ev.key(name)
		if seen[key] {
			return
		}
		seen[key] = true
		size, ok := ev.elemBytes(d.Type)
		if !ok {
			size, ok = ev.elemBytes(t)
		}
		if !ok {
			fp.Unknown = name + " has an element type of unknown size"
			return
		}
		n, ok := ev.arrayElemsClosed(name)
		if !ok {
			fp.Unknown = "the size of " + name + " is not known in this context"
			return
		}
		fp.Arrays++
		fp.Bytes = fp.Bytes.Add(n.Mul(symbolic.Int(size)))
	})
	return fp
}

// streamBytes is what one iteration of the innermost loop l reads and
// writes, counted once per distinct element: references that differ only
// by a constant offset along l's variable (a(i-1), a(i), a(i+1)) are one
// stream, as the elements one iteration reads the next reuses from L1.
// 0 when l has a loop inside it or the size of an element is unknown.
func (ev *evaluator) streamBytes(l *apt.Loop) int64 {
	if b, ok := ev.streams[l]; ok {
		return b
	}
	inner := false
	for _, n := range l.Body {
		apt.Inspect(n, func(m apt.Node) bool {
			if _, ok := m.(*apt.Loop); ok {
				inner = true
			}
			return !inner
		})
	}
	var total int64
	if !inner {
		seen := map[string]bool{}
		arrayRefs(l.Body, func(e apt.Expr) {
			x, ok := e.(*apt.Index)
			if !ok || x.Base != nil {
				return
			}
			d := ev.prog.Resolve(ev.frame().routine, x.Name)
			if d == nil || !d.IsArray() {
				return
			}
			k := x.Name + "(" + canonicalSubs(x.Subs, l.Var) + ")"
			if seen[k] {
				return
			}
			seen[k] = true
			if b, ok := ev.elemBytes(d.Type); ok {
				total += b
			}
		})
	}
	if ev.streams == nil {
		ev.streams = map[*apt.Loop]int64{}
	}
	ev.streams[l] = total
	return total
}

// canonicalSubs formats subscripts with constant offsets along v dropped.
func canonicalSubs(subs []apt.Expr, v string) string {
	out := make([]string, len(subs))
	for i, s := range subs {
		out[i] = apt.FormatExpr(s)
		if v == "" {
			continue
		}
		if b, ok := s.(*apt.Binary); ok && (b.Op == apt.OpAdd || b.Op == apt.OpSub) {
			_, lc := b.X.(*apt.Const)
			_, rc := b.Y.(*apt.Const)
			ln, lIsName := b.X.(*apt.Name)
			rn, rIsName := b.Y.(*apt.Name)
			if lIsName && ln.Name == v && rc || rIsName && rn.Name == v && lc && b.Op == apt.OpAdd {
				out[i] = v
			}
		}
	}
	return strings.Join(out, ",")
}

// FootprintBytes evaluates a footprint's bytes at env, false when unknown.
func (fp *Footprint) FootprintBytes(env map[string]symbolic.Rat) (float64, bool) {
	if fp == nil || fp.Unknown != "" {
		return 0, false
	}
	v, err := fp.Bytes.Eval(env)
	if err != nil {
		return 0, false
	}
	return v.Float64(), true
}

// arrayElemsClosed is arrayElems where a bound the evaluation has no value
// for stands for the parameter the counts name it by (the value read into
// n, bounding the loops over the array too), as the loop bounds take them
// (closedInt): a footprint in the parameters, not unknown.
func (ev *evaluator) arrayElemsClosed(name string) (symbolic.Expr, bool) {
	d := ev.prog.Resolve(ev.frame().routine, name)
	if d == nil || !d.IsArray() {
		return symbolic.Expr{}, false
	}
	n := symbolic.Int(1)
	for _, dim := range d.Dims {
		e, ok := ev.closedExtent(dim)
		if !ok {
			return ev.arrayElems(name)
		}
		n = n.Mul(e)
	}
	return n, true
}

// closedSize is closedInt for a bound of a declared extent or an offset
// of a subscript: a value the evaluation has no value for, even one
// converted from text (varying: another at each conversion, but one once
// stored and used as a bound), is the parameter the counts name it by.
// The footprints and streams are computed where a nest is entered, before
// its loops' bounds make that parameter: the value stands for a
// placeholder (sizeSym) that the parameter replaces once the evaluation
// is over (resolveSizes), which leaves the parameters as the counts make
// them.
func (ev *evaluator) closedSize(v Value, pos apt.Pos) Value {
	if v.unk == nil || v.unk.real || v.Fields != nil {
		return v
	}
	if v.unk.live() != nil {
		return Known(v.unk.param.expr())
	}
	return Known(symbolic.Sym(ev.sizeSym(v.unk)))
}

// sizeSym names the placeholder of an unknown in footprints and streams.
func (ev *evaluator) sizeSym(u *unknown) string {
	if s, ok := ev.sizeSyms[u]; ok {
		return s
	}
	if ev.sizeSyms == nil {
		ev.sizeSyms = map[*unknown]string{}
	}
	s := "?size" + strconv.Itoa(len(ev.sizeSyms))
	ev.sizeSyms[u] = s
	return s
}

// resolveSizes replaces, in every footprint and stream of the evaluation,
// the placeholder of each unknown the counts made a parameter of by that
// parameter; the others stay, and what mentions them has no value.
func (ev *evaluator) resolveSizes(root *Occ) {
	sub := map[string]symbolic.Expr{}
	for u, s := range ev.sizeSyms {
		if u.live() != nil {
			sub[s] = u.param.expr()
		}
	}
	if len(sub) == 0 {
		return
	}
	fix := func(e *symbolic.Expr) {
		if e == nil {
			return
		}
		for _, x := range e.Symbols() {
			if _, ok := sub[x]; ok {
				if v, err := e.Subst(sub); err == nil {
					*e = v
				}
				return
			}
		}
	}
	done := map[*Footprint]bool{}
	var walk func(o *Occ)
	walk = func(o *Occ) {
		if fp := o.Footprint; fp != nil && !done[fp] {
			done[fp] = true
			fix(&fp.Bytes)
		}
		for i := range o.Accesses {
			a := &o.Accesses[i]
			fix(&a.Stride)
			fix(a.Reuse)
			fix(a.LineReuse)
			fix(a.Fresh)
		}
		for _, c := range o.Children {
			walk(c)
		}
	}
	walk(root)
}

// closedExtent is a dimension's extent with its bounds closed (closedSize).
func (ev *evaluator) closedExtent(d apt.Dim) (symbolic.Expr, bool) {
	if d.Deferred || d.Hi == nil {
		return symbolic.Expr{}, false
	}
	if _, star := d.Hi.(*apt.Star); star {
		return symbolic.Expr{}, false
	}
	lo := Known(symbolic.Int(1))
	if d.Lo != nil {
		lo = ev.closedSize(ev.value(d.Lo), d.Lo.At())
	}
	v, ok := lift2(lo, ev.closedSize(ev.value(d.Hi), d.Hi.At()), extent)
	if !ok {
		return symbolic.Expr{}, false
	}
	return v.Single()
}
