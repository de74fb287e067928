package apt

import (
	"strconv"
	"sync/atomic"
)

// Scope holds the declarations of one routine or module, in source order, with
// IMPLICIT typing already applied: every variable has a Type. Symbolic evaluation
// reads PARAMETER values, array bounds, DATA values and COMMON layout from here.
type Scope struct {
	Vars    []*Var    `json:"vars,omitempty"`
	Commons []*Common `json:"commons,omitempty"`
	// Namelists are the NAMELIST groups declared in the scope.
	Namelists []*Namelist `json:"namelists,omitempty"`
	// Generics are the generic interfaces declared in the scope.
	Generics []*Generic     `json:"generics,omitempty"`
	Types    []*DerivedType `json:"types,omitempty"`
	// Implicit lists the IMPLICIT rules in force, after the language default
	// (I-N integer, others real) unless IMPLICIT NONE.
	Implicit []ImplicitRule `json:"implicit,omitempty"`
	// ImplicitNone is set by IMPLICIT NONE.
	ImplicitNone bool `json:"implicit_none,omitempty"`
	// Uses lists the modules this scope USEs.
	Uses []*Use `json:"uses,omitempty"`
	// Processors lists HPF processor arrangements.
	Processors []*Processors `json:"processors,omitempty"`
	// Includes lists the files INCLUDEd into the scope, as written.
	Includes []string `json:"includes,omitempty"`
	// Equivalenced lists the variables an EQUIVALENCE statement of the
	// scope names: their storage is reached by another name too.
	Equivalenced []string `json:"equivalenced,omitempty"`

	// index maps names to Vars as they were when it was built (of the
	// first len(Vars)): analyses of several process counts read one
	// program at once (whatif's sweep), so it is replaced whole, never
	// written in place.
	index atomic.Pointer[scopeIndex]
}

// scopeIndex is a Scope's name index over its first n Vars.
type scopeIndex struct {
	n int
	m map[string]*Var
}

// Lookup returns the variable named name (lower case) declared in s, or nil.
// Where two have the name, the later one.
func (s *Scope) Lookup(name string) *Var {
	if s == nil {
		return nil
	}
	ix := s.index.Load()
	if ix == nil || ix.n != len(s.Vars) {
		ix = &scopeIndex{n: len(s.Vars), m: make(map[string]*Var, len(s.Vars))}
		for _, v := range s.Vars {
			ix.m[v.Name] = v
		}
		s.index.Store(ix)
	}
	return ix.m[name]
}

// Add appends v to the scope; a later Lookup finds it.
func (s *Scope) Add(v *Var) {
	scopeGen.Add(1)
	s.Vars = append(s.Vars, v)
}

// AddUse appends a USE of a module to the scope; a later Resolve sees it.
func (s *Scope) AddUse(u *Use) {
	scopeGen.Add(1)
	s.Uses = append(s.Uses, u)
}

// LookupType returns the derived type named name declared in s, or nil.
func (s *Scope) LookupType(name string) *DerivedType {
	if s == nil {
		return nil
	}
	for _, t := range s.Types {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Var is one declared (or implicitly typed) variable or named constant.
type Var struct {
	Name string `json:"name"` // lower case
	Pos  Pos    `json:"pos"`
	Type Type   `json:"type"`
	// Dims are the array bounds, empty for scalars.
	Dims []Dim `json:"dims,omitempty"`
	// Param is the value of a named constant (PARAMETER), as written.
	Param Expr `json:"param,omitempty"`
	// Init is an initial value given in a type declaration (x = 1.0) or DATA.
	Init []Expr `json:"init,omitempty"`
	// Data says Init holds the values of DATA statements: the elements in
	// array element order, r*c standing for r copies of c. A declaration's
	// one value is otherwise an expression (a scalar given to every
	// element, a constructor, RESHAPE of one).
	Data bool `json:"data,omitempty"`
	// Common names the COMMON block holding the variable ("" for blank common
	// when InCommon is set).
	Common   string `json:"common,omitempty"`
	InCommon bool   `json:"in_common,omitempty"`
	// Intent is "in", "out" or "inout" for dummy arguments that declare one.
	Intent string `json:"intent,omitempty"`
	// Attributes.
	Save        bool `json:"save,omitempty"`
	Allocatable bool `json:"allocatable,omitempty"`
	Pointer     bool `json:"pointer,omitempty"`
	Target      bool `json:"target,omitempty"`
	Optional    bool `json:"optional,omitempty"`
	External    bool `json:"external,omitempty"`
	Intrinsic   bool `json:"intrinsic,omitempty"`
	Dummy       bool `json:"dummy,omitempty"`
	// Procedure is set for a name a PROCEDURE([interface]) statement
	// declares: a procedure pointer when Pointer is set (its Init is the
	// routine it starts pointing to, or NULL()), else a dummy or external
	// procedure. Interface names the interface or routine whose
	// characteristics it has ("" for none).
	Procedure bool   `json:"procedure,omitempty"`
	Interface string `json:"interface,omitempty"`
	// Implicit is set when the type came from IMPLICIT rules, not a declaration.
	Implicit bool `json:"implicit,omitempty"`
	// Associate marks the variable holding the value of an ASSOCIATE name
	// bound to an expression: its type is the expression's.
	Associate bool `json:"associate,omitempty"`
	// Temp marks a variable the frontend made to hold a value the source
	// computes inside an expression (a dispatched function's result,
	// frontend/fortran/polymorph.go): the program's source has no such name.
	Temp bool `json:"temp,omitempty"`
	// Predefined names the source of a symbol the frontend defines itself, such as
	// "mpif.h" or "mpi" for MPI_COMM_WORLD.
	Predefined string `json:"predefined,omitempty"`
	// Dist is the HPF distribution of the array, if any.
	Dist *Distribution `json:"dist,omitempty"`
}

// IsArray reports whether v has dimensions.
func (v *Var) IsArray() bool { return len(v.Dims) > 0 }

// Dim is one array dimension Lo:Hi. A nil Lo is 1. A Star Hi is assumed size
// (a(*)); nil Lo and Hi with Deferred set is a deferred shape (a(:)).
type Dim struct {
	Lo       Expr `json:"lo,omitempty"`
	Hi       Expr `json:"hi,omitempty"`
	Deferred bool `json:"deferred,omitempty"`
}

// Common is a COMMON block: its members in storage order.
type Common struct {
	Name string   `json:"name"` // lower case, "" for blank common
	Vars []string `json:"vars"`
	Pos  Pos      `json:"pos"`
}

// Namelist is a NAMELIST group: the variables a READ or WRITE with NML=
// the group's name transfers, by name.
type Namelist struct {
	Name string   `json:"name"` // lower case
	Vars []string `json:"vars"`
	Pos  Pos      `json:"pos"`
}

// Generic is a generic interface: a name several specific procedures
// answer to, the one whose dummy arguments match a call's actual
// arguments (Fortran 2008 12.5.5.2).
type Generic struct {
	Name  string   `json:"name"` // lower case
	Procs []string `json:"procs"`
	Pos   Pos      `json:"pos"`
}

// FindGeneric returns the generic interface name declared in s, or nil.
func (s *Scope) FindGeneric(name string) *Generic {
	for _, g := range s.Generics {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// FindNamelist returns the group name declared in s, or nil.
func (s *Scope) FindNamelist(name string) *Namelist {
	for _, g := range s.Namelists {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// DerivedType is a derived TYPE definition.
type DerivedType struct {
	Name   string `json:"name"`
	Pos    Pos    `json:"pos"`
	Fields []*Var `json:"fields"`
	// Extends names the parent type (TYPE, EXTENDS(parent)); Bindings are
	// its type-bound procedures.
	Extends  string     `json:"extends,omitempty"`
	Bindings []*Binding `json:"bindings,omitempty"`
}

// Binding is a type-bound procedure (F2008 4.5.5): obj%Name(args) calls
// Procs[0], or for a GENERIC binding the one of the bindings Procs names
// whose dummies the actuals match, with obj as its dummy Pass (the first
// when Pass is ""), unless NoPass.
type Binding struct {
	Name    string   `json:"name"`
	Procs   []string `json:"procs"`
	Generic bool     `json:"generic,omitempty"`
	NoPass  bool     `json:"nopass,omitempty"`
	Pass    string   `json:"pass,omitempty"`
	// Pointer marks a procedure pointer component (PROCEDURE(iface),
	// POINTER :: b): obj%b(args) calls the procedure obj's component
	// points to, which the run sets (obj%b => proc); Procs holds its
	// default target, if it has one other than NULL().
	Pointer bool `json:"pointer,omitempty"`
}

// Binding returns the type's own binding named name, or nil.
func (t *DerivedType) Binding(name string) *Binding {
	for _, b := range t.Bindings {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// Field returns the component named name, or nil.
func (t *DerivedType) Field(name string) *Var {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ImplicitRule types the names starting with a letter in From..To.
type ImplicitRule struct {
	From byte `json:"-"`
	To   byte `json:"-"`
	Type Type `json:"type"`
}

// MarshalJSON encodes the letter range readably.
func (r ImplicitRule) MarshalJSON() ([]byte, error) {
	return []byte(`{"letters":"` + string(r.From) + "-" + string(r.To) + `","type":` +
		strconv.Quote(r.Type.String()) + `}`), nil
}

// Use is a USE statement. Resolved is set when the module was among the inputs (or
// is one the frontend knows, like mpi); its declarations are then visible through
// Program.Resolve.
type Use struct {
	Module   string            `json:"module"`
	Only     []string          `json:"only,omitempty"`
	Renames  map[string]string `json:"renames,omitempty"` // local -> module name
	Resolved bool              `json:"resolved"`
	// Via names the header that implied the USE (include 'mpif.h' makes the
	// predefined module mpi visible), or the module it stands for (use
	// mpi_f08, whose handles wrap mpi's integers in derived types), "" for
	// a USE statement of the module itself.
	Via string `json:"via,omitempty"`
	Pos Pos    `json:"pos"`
}

// Processors is an HPF PROCESSORS arrangement.
type Processors struct {
	Name  string `json:"name"`
	Shape []Expr `json:"shape"`
	Pos   Pos    `json:"pos"`
}

// DistKind is one HPF distribution format.
type DistKind int

// HPF distribution formats.
const (
	DistBlock  DistKind = iota + 1 // block
	DistCyclic                     // cyclic
	DistStar                       // *
)

var distKindNames = [...]string{DistBlock: "block", DistCyclic: "cyclic", DistStar: "*"}

// String returns the HPF spelling of k.
func (k DistKind) String() string {
	if k > 0 && int(k) < len(distKindNames) {
		return distKindNames[k]
	}
	return "DistKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k DistKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// DistFormat is the distribution of one array dimension: BLOCK, BLOCK(k),
// CYCLIC, CYCLIC(k) or *.
type DistFormat struct {
	Kind DistKind `json:"kind"`
	Arg  Expr     `json:"arg,omitempty"`
}

// Distribution is the HPF mapping of an array: DISTRIBUTE formats onto a
// processor arrangement, or ALIGN with another array.
type Distribution struct {
	Formats []DistFormat `json:"formats,omitempty"`
	Onto    string       `json:"onto,omitempty"`
	// AlignWith names the array this one is aligned with; AlignSource and
	// AlignTarget keep the subscripts as written (align a(i) with b(i+1)).
	AlignWith   string `json:"align_with,omitempty"`
	AlignSource []Expr `json:"align_source,omitempty"`
	AlignTarget []Expr `json:"align_target,omitempty"`
	Pos         Pos    `json:"pos"`
}

// Param is a `!mk$ param N = expr` annotation: it names a problem size and may give
// it a default value (Value nil when only the name is declared).
type Param struct {
	Name  string `json:"name"`
	Value Expr   `json:"value,omitempty"`
	Pos   Pos    `json:"pos"`
}

// Assume is a `!mk$ assume` annotation: a relation between parameters that
// symbolic evaluation may rely on (N >= P, mod(N,P) == 0).
type Assume struct {
	Cond Expr `json:"cond"`
	Pos  Pos  `json:"pos"`
}
