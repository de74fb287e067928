package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Dynamic types (F2008 4.3.1.3). A polymorphic object's dynamic type is
// the one its ALLOCATE gave it (ALLOCATE(circle :: s), or the type of
// SOURCE= or MOLD=), kept beside its storage under dynTypeKey as a number
// (typeCode); a TYPE(t) object's is t. SAME_TYPE_AS and EXTENDS_TYPE_OF,
// the tests of SELECT TYPE's guards and of a dispatch over the bindings
// of a family (frontend/fortran/polymorph.go), are decided where the
// types are known, and are a test on data otherwise.

// dynTypeKey is where the state keeps the dynamic type of the object at
// key.
func dynTypeKey(key string) string { return key + "#(type)" }

// typeCode is the number that stands for the derived type name: its
// place among the names met, from 1.
func (ev *evaluator) typeCode(name string) int64 {
	if i := slices.Index(ev.typeNames, name); i >= 0 {
		return int64(i + 1)
	}
	ev.typeNames = append(ev.typeNames, name)
	return int64(len(ev.typeNames))
}

// typeNamed returns the type name a code stands for.
func (ev *evaluator) typeNamed(code int64) (string, bool) {
	if code < 1 || code > int64(len(ev.typeNames)) {
		return "", false
	}
	return ev.typeNames[code-1], true
}

// lineage returns the type named typ and its ancestors (EXTENDS), nearest
// first; false where one is a type the routine cannot see.
func (ev *evaluator) lineage(typ string) ([]*apt.DerivedType, bool) {
	var out []*apt.DerivedType
	seen := map[string]bool{}
	for n := typ; n != "" && !seen[n]; {
		seen[n] = true
		dt := ev.prog.LookupType(ev.frame().routine, n)
		if dt == nil {
			return out, false
		}
		out = append(out, dt)
		n = dt.Extends
	}
	return out, true
}

// allocateTyped gives the objects of ALLOCATE s their dynamic type: the
// type-spec's, or SOURCE='s or MOLD='s.
func (ev *evaluator) allocateTyped(s *apt.Stmt) {
	typ := s.TypeSpec
	var code Value
	if typ != "" {
		code = Known(symbolic.Int(ev.typeCode(typ)))
	}
	var source apt.Expr
	for _, a := range s.Args {
		if kw, ok := a.(*apt.Keyword); ok && (kw.Name == "source" || kw.Name == "mold") && typ == "" {
			if kw.Name == "source" {
				source = kw.Value
			}
			if key, ok := ev.objectKeyOf(kw.Value); ok {
				code = ev.env.get(dynTypeKey(key))
			}
			if t, ok := ev.dynType(kw.Value); ok {
				code = Known(symbolic.Int(ev.typeCode(t)))
			}
		}
	}
	for _, a := range s.Args {
		if _, isKw := a.(*apt.Keyword); isKw {
			continue
		}
		key, ok := ev.objectKeyOf(a)
		if !ok {
			continue
		}
		if typ != "" || source != nil {
			// A new object: its components are its type's defaults, or
			// SOURCE='s values.
			for _, k := range ev.env.withPrefix(key + "%") {
				ev.env.del(k)
			}
		}
		if source != nil {
			if v := ev.value(source); v.Fields != nil {
				ev.assignKey(key, v)
			} else if sk, ok := ev.objectKeyOf(source); ok && apt.TypeOf(source).Base == apt.TypeDerived {
				for _, k := range ev.env.withPrefix(sk + "%") {
					ev.env.set(key+k[len(sk):], ev.env.get(k))
				}
			} else if _, isIx := a.(*apt.Index); !isIx && (v.IsKnown() || v.str != nil) {
				// A scalar of an intrinsic type (allocate(x, source=3)
				// of a CLASS(*) x): that value.
				ev.assignKey(key, v)
			}
		}
		if code.IsKnown() {
			ev.env.set(dynTypeKey(key), code)
		} else if typ != "" || source != nil {
			ev.env.del(dynTypeKey(key))
		}
	}
}

// fieldOfType returns the component field of the type named typ or of an
// ancestor (EXTENDS).
func (ev *evaluator) fieldOfType(typ, field string) *apt.Var {
	types, _ := ev.lineage(typ)
	for _, dt := range types {
		if f := dt.Field(field); f != nil {
			return f
		}
	}
	return nil
}

// objectKeyOf is the storage key of an allocated object: a variable, a
// component, or an array named by its bounds.
func (ev *evaluator) objectKeyOf(a apt.Expr) (string, bool) {
	if ix, ok := a.(*apt.Index); ok {
		return ev.allocKey(ix)
	}
	return ev.wholeKey(a)
}

// dynType returns the dynamic type of the object e, where it is one.
func (ev *evaluator) dynType(e apt.Expr) (string, bool) {
	ts, ok := ev.dynTypes(e)
	if !ok || len(ts) != 1 || ts[0].guard != nil {
		return "", false
	}
	return ts[0].name, true
}

// typeAlt is one dynamic type an object has under a guard (the ranks
// that allocated it so).
type typeAlt struct {
	guard counting.Formula
	name  string
}

// dynTypes returns the dynamic types of the object e, where known.
func (ev *evaluator) dynTypes(e apt.Expr) ([]typeAlt, bool) {
	if key, ok := ev.objectKeyOf(e); ok {
		if v, ok := ev.env.lookup(dynTypeKey(key)); ok {
			if !v.IsKnown() {
				return nil, false
			}
			var out []typeAlt
			for _, a := range v.Alts {
				c, isc := a.E.Int64()
				if !isc {
					return nil, false
				}
				n, ok := ev.typeNamed(c)
				if !ok {
					return nil, false
				}
				out = append(out, typeAlt{guard: a.Guard, name: n})
			}
			return out, true
		}
	}
	if t := apt.TypeOf(e); t.Base == apt.TypeDerived && !t.Class && t.Derived != "" && t.Derived != "*" {
		return []typeAlt{{name: t.Derived}}, true
	}
	if t := apt.TypeOf(e); t.Base != apt.TypeDerived && t.Base != apt.TypeUnknown && !isObject(e) {
		// A value of an intrinsic type (SOURCE=1 of a CLASS(*)
		// object): that type, as TYPE IS (integer) names it.
		return []typeAlt{{name: t.String()}}, true
	}
	return nil, false
}

// isObject reports whether e names a variable (whose dynamic type, for a
// CLASS(*) one, is what it was allocated with, not its declared type).
func isObject(e apt.Expr) bool {
	switch e.(type) {
	case *apt.Name, *apt.Index, *apt.Component:
		return apt.TypeOf(e).Class
	}
	return false
}

// noteActualType records, for an actual argument of type TYPE(t) bound to
// a dummy, that its dynamic type is t: a CLASS dummy then knows it.
func (ev *evaluator) noteActualType(a apt.Expr, key string) {
	t := apt.TypeOf(a)
	if t.Base != apt.TypeDerived || t.Class || t.Derived == "" || t.Derived == "*" {
		return
	}
	if _, had := ev.env.lookup(dynTypeKey(key)); !had {
		ev.env.set(dynTypeKey(key), Known(symbolic.Int(ev.typeCode(t.Derived))))
	}
}

// typeTestIntrinsic evaluates SAME_TYPE_AS(a, b) and EXTENDS_TYPE_OF(a,
// mold), b or mold an object or a type's name; false where a type is
// not known.
func (ev *evaluator) typeTestIntrinsic(f *apt.FuncCall) (Value, bool) {
	if f.Name != "same_type_as" && f.Name != "extends_type_of" || len(f.Args) != 2 {
		return Value{}, false
	}
	arg := func(i int) apt.Expr {
		if kw, ok := f.Args[i].(*apt.Keyword); ok {
			return kw.Value
		}
		return f.Args[i]
	}
	as, ok := ev.dynTypes(arg(0))
	if !ok {
		return Value{}, false
	}
	var b string
	if c, isConst := arg(1).(*apt.Const); isConst && c.Kind == apt.ConstChar {
		b = c.Text
	} else if b, ok = ev.dynType(arg(1)); !ok {
		return Value{}, false
	}
	var out []Alt
	for _, a := range as {
		is := a.name == b
		if f.Name == "extends_type_of" {
			if is, ok = ev.extendsType(a.name, b); !ok {
				return Value{}, false
			}
		}
		out = append(out, Alt{Guard: a.guard, E: symbolic.Int(b2i(is))})
	}
	return Value{Alts: mergeAlts(out)}, true
}

// extendsType reports whether the type a is b or extends it; false where
// a type on the way is one the routine cannot see.
func (ev *evaluator) extendsType(a, b string) (bool, bool) {
	types, ok := ev.lineage(a)
	for _, dt := range types {
		if dt.Name == b {
			return true, true
		}
	}
	return false, ok
}
