package apt

import "strconv"

// Expr is a frontend-neutral expression tree. It is a closed sum type: the
// implementations are Const, Name, Index, Section, Component, FuncCall, Unary, Binary,
// ArrayCons, ImpliedDo, Keyword and Star.
type Expr interface {
	// At returns the source position of the expression's first character.
	At() Pos
	expr()
}

// BaseType is the intrinsic category of a value.
type BaseType int

// Base types. Fortran's DOUBLE PRECISION is Real with Kind 8.
const (
	TypeUnknown   BaseType = iota + 1 // unknown
	TypeInteger                       // integer
	TypeReal                          // real
	TypeComplex                       // complex
	TypeLogical                       // logical
	TypeCharacter                     // character
	TypeDerived                       // type
)

var baseTypeNames = [...]string{
	TypeUnknown: "unknown", TypeInteger: "integer", TypeReal: "real", TypeComplex: "complex",
	TypeLogical: "logical", TypeCharacter: "character", TypeDerived: "type",
}

// String returns the lower-case name of t.
func (t BaseType) String() string {
	if t > 0 && int(t) < len(baseTypeNames) {
		return baseTypeNames[t]
	}
	return "BaseType(" + strconv.Itoa(int(t)) + ")"
}

// MarshalText encodes t by name.
func (t BaseType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// Type is the declared (or implied) type of a variable or expression.
type Type struct {
	Base BaseType `json:"base"`
	// Kind is the storage size in bytes (Fortran kind numbers of gfortran, which
	// equal byte sizes: integer 4, real 4, double precision 8, complex(8) 16).
	// Zero means the kind is given by KindExpr or is unknown.
	Kind int `json:"kind,omitempty"`
	// KindExpr is a kind given by a named constant not yet evaluated, e.g. real(dp).
	KindExpr Expr `json:"kind_expr,omitempty"`
	// Len is the length of a character type; nil for non-character types, a Star
	// for assumed length.
	Len Expr `json:"len,omitempty"`
	// Derived names the derived type for Base == TypeDerived.
	Derived string `json:"derived,omitempty"`
	// Class marks CLASS(Derived): a polymorphic object, whose dynamic type
	// is Derived or a type that extends it (F2008 4.3.1.3).
	Class bool `json:"class,omitempty"`
}

// String formats t as e.g. "real(8)", "character(len=8)" or "type(field)".
func (t Type) String() string {
	switch {
	case t.Base == TypeDerived && t.Class:
		return "class(" + t.Derived + ")"
	case t.Base == TypeDerived:
		return "type(" + t.Derived + ")"
	case t.Base == TypeCharacter && t.Len != nil:
		return "character(len=" + FormatExpr(t.Len) + ")"
	case t.Kind != 0:
		return t.Base.String() + "(" + strconv.Itoa(t.Kind) + ")"
	case t.KindExpr != nil:
		return t.Base.String() + "(" + FormatExpr(t.KindExpr) + ")"
	}
	return t.Base.String()
}

// ConstKind classifies a literal constant.
type ConstKind int

// Literal kinds.
const (
	ConstInt     ConstKind = iota + 1 // int
	ConstReal                         // real
	ConstLogical                      // logical
	ConstChar                         // char
	ConstComplex                      // complex
	ConstBOZ                          // boz
)

var constKindNames = [...]string{ConstInt: "int", ConstReal: "real", ConstLogical: "logical",
	ConstChar: "char", ConstComplex: "complex", ConstBOZ: "boz"}

// String returns the lower-case name of k.
func (k ConstKind) String() string {
	if k > 0 && int(k) < len(constKindNames) {
		return constKindNames[k]
	}
	return "ConstKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k ConstKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Const is a literal. Text is the literal exactly as written (upper-cased outside
// character constants), including any kind suffix ("1.0_8", "2.5d-3", ".TRUE.");
// for character constants it is the value without quotes. Keeping the text, not a
// float64, lets symbolic evaluation convert it exactly to a big.Rat.
type Const struct {
	Pos  Pos       `json:"pos"`
	Kind ConstKind `json:"kind"`
	Text string    `json:"text"`
	// Type is the literal's type: a d exponent makes a real of kind 8.
	Type Type `json:"type"`
}

// Name is a reference to a variable, named constant or whole array.
type Name struct {
	Pos  Pos    `json:"pos"`
	Name string `json:"name"` // lower case
	// Type is the declared type, or the one implied by IMPLICIT rules.
	Type Type `json:"type"`
	// Array is set when the name denotes a whole array (array syntax).
	Array bool `json:"array,omitempty"`
}

// Index is an array element or array section reference: Name(Subs...). A
// subscript that is a Section selects a range.
type Index struct {
	Pos  Pos    `json:"pos"`
	Name string `json:"name"` // lower case array name
	Subs []Expr `json:"subs"`
	Type Type   `json:"type"` // element type
	// Base is set for a component array such as x%a(i): the object whose
	// component is indexed. Name is then the component name.
	Base Expr `json:"base,omitempty"`
	// Deref is set when Base is a pointer to the object (C's p->a[i]).
	Deref bool `json:"deref,omitempty"`
	// FieldDims are the bounds of a C structure's array field indexed
	// through a pointer to the structure (p->cells[j] of int cells[3]:
	// 0:2), which no declared type gives: the C frontend declares none.
	FieldDims []Dim `json:"field_dims,omitempty"`
	// Substring is set on a substring of a scalar character variable
	// (line(2:)): its section selects characters, not array elements.
	Substring bool `json:"substring,omitempty"`
}

// Section is a subscript triplet lo:hi:stride inside an Index; a nil bound is the
// array's own bound, a nil Stride is 1.
type Section struct {
	Pos    Pos  `json:"pos"`
	Lo     Expr `json:"lo,omitempty"`
	Hi     Expr `json:"hi,omitempty"`
	Stride Expr `json:"stride,omitempty"`
}

// Component is a derived-type component reference Base%Field.
type Component struct {
	Pos   Pos    `json:"pos"`
	Base  Expr   `json:"base"`
	Field string `json:"field"` // lower case
	Type  Type   `json:"type"`
	// Array is set when the component is a whole array (array syntax).
	Array bool `json:"array,omitempty"`
	// Deref is set when Base is a pointer to the object (C's p->f).
	Deref bool `json:"deref,omitempty"`
	// First is set when the field is its structure's first member, at
	// the structure's own address (C, C++): a pointer to a structure so
	// placed (a base class's part, this->_M_impl) points where the
	// enclosing one does.
	First bool `json:"first,omitempty"`
}

// ThroughPointer reports whether the component path starts at a pointer
// (C's p->f, p->a.b).
func (c *Component) ThroughPointer() bool {
	for e := Expr(c); ; {
		x, ok := e.(*Component)
		if !ok {
			return false
		}
		if x.Deref {
			return true
		}
		e = x.Base
	}
}

// FuncCall is a function reference. Intrinsic is set for the language's intrinsic
// functions (MIN, MAX, MOD, SQRT, ...); everything else is a user or library
// function whose cost is that of its routine.
type FuncCall struct {
	Pos       Pos    `json:"pos"`
	Name      string `json:"name"` // lower case
	Args      []Expr `json:"args"`
	Intrinsic bool   `json:"intrinsic,omitempty"`
	Type      Type   `json:"type"`
	// Display is the function's name for messages where Name is a symbol
	// no user writes (a C++ function's mangled name, demangled).
	Display string `json:"display,omitempty"`
}

// Shown is the function's name for messages: Display where set, else
// Name.
func (f *FuncCall) Shown() string {
	if f.Display != "" {
		return f.Display
	}
	return f.Name
}

// Op is a unary or binary operator.
type Op int

// Operators. Relational operators compare; logical operators combine logicals.
const (
	OpAdd    Op = iota + 1 // +
	OpSub                  // -
	OpMul                  // *
	OpDiv                  // /
	OpPow                  // **
	OpConcat               // //
	OpEq                   // ==
	OpNe                   // /=
	OpLt                   // <
	OpLe                   // <=
	OpGt                   // >
	OpGe                   // >=
	OpAnd                  // .and.
	OpOr                   // .or.
	OpNot                  // .not.
	OpEqv                  // .eqv.
	OpNeqv                 // .neqv.
	OpNeg                  // -x
	OpPlus                 // +x
)

var opNames = [...]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpPow: "**", OpConcat: "//",
	OpEq: "==", OpNe: "/=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpAnd: ".and.", OpOr: ".or.", OpNot: ".not.", OpEqv: ".eqv.", OpNeqv: ".neqv.",
	OpNeg: "-", OpPlus: "+",
}

// String returns the operator's Fortran spelling.
func (o Op) String() string {
	if o > 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// MarshalText encodes o by its spelling.
func (o Op) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// IsRelational reports whether o compares two values.
func (o Op) IsRelational() bool { return o >= OpEq && o <= OpGe }

// IsLogical reports whether o combines logical values.
func (o Op) IsLogical() bool { return o >= OpAnd && o <= OpNeqv }

// Unary is a prefix operation: -X, +X or .not.X.
type Unary struct {
	Pos Pos  `json:"pos"`
	Op  Op   `json:"op"`
	X   Expr `json:"x"`
}

// Binary is an infix operation X Op Y.
type Binary struct {
	Pos Pos  `json:"pos"`
	Op  Op   `json:"op"`
	X   Expr `json:"x"`
	Y   Expr `json:"y"`
	// IntDiv is set for OpDiv when both operands are integers: the quotient
	// truncates toward zero (n/p on integers is trunc(n/p), floor for n,p >= 0).
	IntDiv bool `json:"int_div,omitempty"`
}

// ArrayCons is an array constructor (/ e1, e2, ... /) or [e1, e2, ...].
type ArrayCons struct {
	Pos   Pos    `json:"pos"`
	Elems []Expr `json:"elems"`
}

// ImpliedDo is an implied DO list (items, var = lo, hi[, step]) in an I/O list,
// DATA statement or array constructor.
type ImpliedDo struct {
	Pos   Pos    `json:"pos"`
	Items []Expr `json:"items"`
	Var   string `json:"var"`
	Lo    Expr   `json:"lo"`
	Hi    Expr   `json:"hi"`
	Step  Expr   `json:"step,omitempty"`
}

// Keyword is a keyword argument name=value in a call or I/O control list.
type Keyword struct {
	Pos   Pos    `json:"pos"`
	Name  string `json:"name"` // lower case
	Value Expr   `json:"value"`
}

// Star is the * of list-directed I/O, an assumed size or an assumed length.
type Star struct {
	Pos Pos `json:"pos"`
}

func (*Const) expr()     {}
func (*Name) expr()      {}
func (*Index) expr()     {}
func (*Section) expr()   {}
func (*Component) expr() {}
func (*FuncCall) expr()  {}
func (*Unary) expr()     {}
func (*Binary) expr()    {}
func (*ArrayCons) expr() {}
func (*ImpliedDo) expr() {}
func (*Keyword) expr()   {}
func (*Star) expr()      {}

// At returns the position of the literal.
func (e *Const) At() Pos { return e.Pos }

// At returns the position of the name.
func (e *Name) At() Pos { return e.Pos }

// At returns the position of the array name.
func (e *Index) At() Pos { return e.Pos }

// At returns the position of the triplet.
func (e *Section) At() Pos { return e.Pos }

// At returns the position of the base object.
func (e *Component) At() Pos { return e.Pos }

// At returns the position of the function name.
func (e *FuncCall) At() Pos { return e.Pos }

// At returns the position of the operator.
func (e *Unary) At() Pos { return e.Pos }

// At returns the position of the left operand.
func (e *Binary) At() Pos { return e.Pos }

// At returns the position of the opening bracket.
func (e *ArrayCons) At() Pos { return e.Pos }

// At returns the position of the opening parenthesis.
func (e *ImpliedDo) At() Pos { return e.Pos }

// At returns the position of the keyword.
func (e *Keyword) At() Pos { return e.Pos }

// At returns the position of the star.
func (e *Star) At() Pos { return e.Pos }

// TypeOf returns the type of e as far as the frontend knows it. Arithmetic follows
// Fortran's promotion rules (integer < real < complex, the larger kind wins);
// relational and logical operations are logical.
func TypeOf(e Expr) Type {
	switch e := e.(type) {
	case *Const:
		return e.Type
	case *Name:
		return e.Type
	case *Index:
		return e.Type
	case *Component:
		return e.Type
	case *FuncCall:
		return e.Type
	case *Unary:
		if e.Op == OpNot {
			return Type{Base: TypeLogical, Kind: 4}
		}
		return TypeOf(e.X)
	case *Binary:
		switch {
		case e.Op.IsRelational(), e.Op.IsLogical():
			return Type{Base: TypeLogical, Kind: 4}
		case e.Op == OpConcat:
			return Type{Base: TypeCharacter}
		}
		return promote(TypeOf(e.X), TypeOf(e.Y))
	case *ArrayCons:
		if len(e.Elems) > 0 {
			return TypeOf(e.Elems[0])
		}
	case *ImpliedDo:
		if len(e.Items) > 0 {
			return TypeOf(e.Items[0])
		}
	case *Keyword:
		return TypeOf(e.Value)
	}
	return Type{Base: TypeUnknown}
}

func promote(a, b Type) Type {
	rank := func(t BaseType) int {
		switch t {
		case TypeInteger:
			return 1
		case TypeReal:
			return 2
		case TypeComplex:
			return 3
		}
		return 0
	}
	ra, rb := rank(a.Base), rank(b.Base)
	if ra == 0 || rb == 0 {
		if ra == 0 && rb == 0 {
			return a
		}
		if ra == 0 {
			return b
		}
		return a
	}
	switch {
	case ra > rb:
		return widen(a, b)
	case rb > ra:
		return widen(b, a)
	case b.Kind > a.Kind:
		return b
	}
	return a
}

// widen is t, the complex operand of a complex and a real, with the real's
// kind when that is more precise: complex times real(8) is complex(8).
func widen(t, real Type) Type {
	if t.Base == TypeComplex && real.Base == TypeReal && t.Kind > 0 && 2*real.Kind > t.Kind {
		t.Kind = 2 * real.Kind // a complex's Kind counts both parts' bytes
	}
	return t
}

// IsInteger reports whether e has integer type.
func IsInteger(e Expr) bool { return TypeOf(e).Base == TypeInteger }
