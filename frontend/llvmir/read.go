package llvmir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/llir/llvm/asm"
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// globalsModule is the synthetic module holding the program's global
// variables; every routine USEs it, as Fortran routines use a module.
const globalsModule = "globals"

// maxNodes bounds the APT nodes one function may produce: structuring
// copies a block reached from several arms (goto-like sharing) once per
// arm, which pathological control flow could make exponential.
const maxNodes = 200000

// ParseIR reads LLVM 14 IR text (name is the file it came from) and builds
// the APT of its defined functions. files are the user's inputs: debug
// locations naming them become positions in them. Bad input is a
// diagnostic, never a panic.
func ParseIR(name string, src []byte, files []string) (*apt.Program, []apt.Diagnostic) {
	l, diags := lift(name, src, files)
	if l == nil {
		return &apt.Program{Files: files, FromIR: true}, diags
	}
	return l.Prog, diags
}

func lift(name string, src []byte, files []string) (out *Lifted, diags []apt.Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			out = nil
			diags = append(diags, apt.Diagnostic{Pos: apt.Pos{File: name, Line: 1, Col: 1}, Severity: apt.Error,
				Msg: fmt.Sprintf("internal error while analysing the IR (please report it): %v", r)})
		}
	}()
	return liftUnguarded(name, src, files)
}

// liftUnguarded is lift without the recover around the analysis (the
// fuzz target calls it, so that a panic of the lifter is found, not
// hidden); llir's own parser still runs under parse's recover.
func liftUnguarded(name string, src []byte, files []string) (*Lifted, []apt.Diagnostic) {
	if d, bad := unreadable(name, src); bad {
		return nil, []apt.Diagnostic{d}
	}
	m, err := parse(name, sanitize(src))
	if err != nil {
		return nil, []apt.Diagnostic{parseError(name, err)}
	}
	if d, bad := badBoolean(name, src, m); bad {
		return nil, []apt.Diagnostic{d}
	}
	if d, bad := badTypeDef(name, src, m); bad {
		return nil, []apt.Diagnostic{d}
	}
	if d, bad := selfUse(name, src, m); bad {
		return nil, []apt.Diagnostic{d}
	}
	if d, bad := mismatchedOperands(name, src, m); bad {
		return nil, []apt.Diagnostic{d}
	}
	if d, bad := badCallee(name, src, m); bad {
		return nil, []apt.Diagnostic{d}
	}
	baseSubobjects(m)
	l := newLifter(m, name, files)
	l.run()
	// A site whose IR was written into several nodes is shared.
	seen := map[any]int{}
	key := func(s Site) any {
		switch {
		case s.Call != nil:
			return s.Call
		case s.Body != nil:
			return s.Body
		}
		return s.Func
	}
	for _, s := range l.sites {
		seen[key(s)]++
	}
	for i := range l.sites {
		l.sites[i].Shared = seen[key(l.sites[i])] > 1
	}
	return &Lifted{Prog: l.prog, Module: m, Sites: l.sites}, l.diags
}

// sanitize removes what clang-14 writes and llir v0.3.6's grammar lacks,
// and the analysis does not need: the alignment among a function's or a
// call's return attributes (C++'s `define ... nonnull align 8
// dereferenceable(8) %T* @f(`). Line numbers do not change.
func sanitize(src []byte) []byte {
	if !bytes.Contains(src, []byte(" align ")) {
		return src
	}
	lines := bytes.Split(src, []byte("\n"))
	for i, line := range lines {
		t := bytes.TrimLeft(line, " \t")
		var head int // where the return attributes start
		switch {
		case bytes.HasPrefix(t, []byte("define ")), bytes.HasPrefix(t, []byte("declare ")):
			head = len(line) - len(t)
		default:
			j := bytes.Index(line, []byte("call "))
			if j < 0 {
				j = bytes.Index(line, []byte("invoke "))
			}
			if j < 0 {
				continue
			}
			head = j
		}
		at := bytes.IndexByte(line[head:], '@')
		if at < 0 {
			continue
		}
		lines[i] = append(returnAlign.ReplaceAll(line[head:head+at], nil), line[head+at:]...)
		lines[i] = append(append([]byte(nil), line[:head]...), lines[i]...)
	}
	return bytes.Join(lines, []byte("\n"))
}

var returnAlign = regexp.MustCompile(` align [0-9]+`)

// parse runs llir's parser; a panic in it (malformed input it does not
// expect) is an error like any other.
func parse(name string, src []byte) (m *ir.Module, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("%v", r)
		}
	}()
	return asm.ParseBytes(name, src)
}

var llirLine = regexp.MustCompile(`line (\d+)`)

// parseError turns llir's error into a positioned diagnostic.
func parseError(name string, err error) apt.Diagnostic {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, fmt.Sprintf("unable to parse %q into an AST: ", name))
	line := 1
	if m := llirLine.FindStringSubmatch(msg); m != nil {
		// (The words may be the module's own text, "line 0" in a string.)
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 {
			line = n
		}
	}
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: 1}, Severity: apt.Error,
		Msg: "the IR cannot be read: " + msg + "; " + howToIR}
}

// lifter builds the APT of one module.
type lifter struct {
	m     *ir.Module
	name  string
	files []string
	cwd   string
	prog  *apt.Program
	diags []apt.Diagnostic

	fileNames map[*metadata.DIFile]string
	routines  map[*ir.Func]*apt.Routine
	fnames    map[*ir.Func]string
	// display are the C++ names of routines outside the program whose
	// symbols are mangled (demangle), for messages.
	display map[*ir.Func]string
	globals map[*ir.Global]*apt.Var
	// globalScope is the module of globals' scope, where the views of a
	// global array of structures by field (opts%type of Opt opts[16])
	// are declared once for every function.
	globalScope *apt.Scope
	// stores are the globals each function may store to, itself or
	// through the functions it calls (for loop invariance).
	stores map[*ir.Func]map[*ir.Global]bool
	// argv are the formals that hold main's argv: main's second, and a
	// routine's formal every call passes argv to (parse_args(argc, argv)).
	argv map[*ir.Param]bool
	mpi  bool
	// fields are the member names of struct types, by type name.
	fields map[string][]string
	// sites are where each node's executions happen in the IR.
	sites []Site
	// invokes are the invoke instructions the calls built for them
	// stand for (invokeCall): a site is the invoke itself.
	invokes map[*ir.InstCall]*ir.TermInvoke
	// vtags are the C++ vtable slots constructors store (vtable.go).
	vtags []vtag
	// structRets are the functions returning a structure in registers
	// (structret.go), nil for the others.
	structRets map[*ir.Func]*structRet
	// refRets are whether functions return a reference to a field of
	// an argument (refreturn.go).
	refRets map[*ir.Func]*refRet
}

// Site is where an APT node's executions can be counted in the IR it was
// built from. Routine: Func's entry; Loop: Entry's end (each entry) and
// Body's start (each iteration, after its phis); Call and Comm: Call, or
// where the IR makes the call by an invoke (C++ code with cleanups), the
// Invoke terminator, Call then standing for it outside the IR.
// Shared is set when the structuring wrote the IR code at the site into
// more than one node (a block reached from two arms): a counter there
// would count them together.
type Site struct {
	Node   apt.Node
	Func   *ir.Func
	Call   *ir.InstCall
	Invoke *ir.TermInvoke
	// Header is a loop's header block; Bottom is set when the loop tests
	// at its end (a do-while or a DO without control): its body runs
	// once more than its back edge.
	Header, Entry, Body *ir.Block
	// Exits are the blocks outside a loop its edges lead to (after
	// loop-simplify only the loop's blocks lead there): a timer of the
	// loop stops at their start.
	Exits  []*ir.Block
	Bottom bool
	Shared bool
}

// Lifted is a program read from IR with what instrumentation needs: the
// module the APT was built from and the site of every node.
type Lifted struct {
	Prog   *apt.Program
	Module *ir.Module
	Sites  []Site
}

// Load is ParseFiles keeping the module and the sites.
func Load(paths []string, cfg Config) (*Lifted, []apt.Diagnostic) {
	text, name, diags := Compile(paths, cfg)
	if text == nil {
		return nil, diags
	}
	l, more := lift(name, text, paths)
	return l, append(diags, more...)
}

func newLifter(m *ir.Module, name string, files []string) *lifter {
	cwd, _ := os.Getwd()
	return &lifter{m: m, name: name, files: files, cwd: cwd,
		prog:      &apt.Program{Files: files, FromIR: true},
		fileNames: map[*metadata.DIFile]string{}, routines: map[*ir.Func]*apt.Routine{},
		fnames: map[*ir.Func]string{}, globals: map[*ir.Global]*apt.Var{}, stores: map[*ir.Func]map[*ir.Global]bool{}}
}

func (l *lifter) diag(p apt.Pos, sev apt.Severity, msg string) {
	l.diags = append(l.diags, apt.Diagnostic{Pos: p, Severity: sev, Msg: msg})
}

func (l *lifter) run() {
	if len(l.prog.Files) == 0 {
		l.prog.Files = []string{l.name}
	}
	// Routine names: the source name (debug info) where it is unique,
	// else the symbol; lower case like every APT name.
	// (Unique as APT names are, whatever their case: a C++ function
	// options and the constructor of a struct Options are two routines.)
	lower := func(n string) string { return strings.ToLower(cleanName(n)) }
	count := map[string]int{}
	for _, f := range l.m.Funcs {
		if len(f.Blocks) > 0 {
			count[lower(sourceName(f))]++
		}
	}
	taken := map[string]bool{}
	for _, f := range l.m.Funcs {
		n := sourceName(f)
		if count[lower(n)] > 1 || len(f.Blocks) == 0 {
			n = f.Name()
		}
		name := lower(n)
		for k := 2; taken[name]; k++ {
			name = lower(n) + "_" + strconv.Itoa(k)
		}
		taken[name] = true
		l.fnames[f] = name
	}
	// Routines named by their symbols (declarations; instances whose
	// source name is not unique, as std::vector<T>::size) are shown by
	// their C++ names.
	var mangled []string
	for _, f := range l.m.Funcs {
		if strings.HasPrefix(f.Name(), "_Z") && l.fnames[f] == strings.ToLower(cleanName(f.Name())) {
			mangled = append(mangled, f.Name())
		}
	}
	if names := demangle(mangled); names != nil {
		l.display = map[*ir.Func]string{}
		for _, f := range l.m.Funcs {
			if n, ok := names[f.Name()]; ok {
				l.display[f] = n
			}
		}
	}
	mod := &apt.Routine{Name: globalsModule, Kind: apt.KindModule, Scope: &apt.Scope{}}
	l.globalScope = mod.Scope
	for _, g := range l.m.Globals {
		if v := l.globalVar(g); v != nil {
			mod.Scope.Add(v)
			l.globals[g] = v
		}
	}
	l.globalStores()
	l.findArgv()
	l.vtableTags()
	for _, f := range l.m.Funcs {
		if len(f.Blocks) == 0 || strings.HasPrefix(f.Name(), "llvm.") {
			continue
		}
		r := l.function(f)
		if r != nil {
			l.routines[f] = r
			l.prog.Routines = append(l.prog.Routines, r)
		}
	}
	if len(mod.Scope.Vars) > 0 {
		l.prog.Routines = append(l.prog.Routines, mod)
	}
	if l.mpi {
		l.prog.Routines = append(l.prog.Routines, apt.MPIModule())
	}
	apt.AssignIDs(l.prog)
}

// sourceName is the function's name in the source: the debug info's (a
// C++ function's unmangled name), else the symbol.
func sourceName(f *ir.Func) string {
	for _, a := range f.Metadata {
		if sp, ok := a.Node.(*metadata.DISubprogram); ok && sp.Name != "" {
			return sp.Name
		}
	}
	return f.Name()
}

// globalVar declares a global variable of the program; nil for the
// library's objects, string literals and LLVM's own.
func (l *lifter) globalVar(g *ir.Global) *apt.Var {
	name := g.Name()
	if strings.HasPrefix(name, "ompi_") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "llvm.") {
		return nil
	}
	if g.Init == nil {
		// Another library's variable (stderr): known by name only.
		return &apt.Var{Name: strings.ToLower(cleanName(name)), Type: valueType(g.ContentType), External: true}
	}
	v := &apt.Var{Name: strings.ToLower(cleanName(name)), Type: valueType(g.ContentType), Save: true, Pos: l.globalPos(g)}
	v.Dims = dims(g.ContentType)
	if init := l.constInit(g.Init); init != nil {
		if g.Immutable {
			v.Param = init
		} else {
			v.Init = []apt.Expr{init}
		}
	}
	return v
}

func (l *lifter) globalPos(g *ir.Global) apt.Pos {
	for _, a := range g.Metadata {
		if e, ok := a.Node.(*metadata.DIGlobalVariableExpression); ok && e.Var != nil {
			return apt.Pos{File: l.file(e.Var.File), Line: int(e.Var.Line), Col: 1}
		}
	}
	return apt.Pos{}
}

// cleanName makes an LLVM or C++ name usable as an APT name and in -D:
// every character that is not a letter, digit or underscore becomes an
// underscore (static locals are func.var, linked duplicates var.1, C++
// names carry template arguments: __fill_a1<double *, double>).
func cleanName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// dims are the bounds of a C array type: 0:n-1 per dimension.
func dims(t types.Type) []apt.Dim {
	var out []apt.Dim
	for {
		at, ok := t.(*types.ArrayType)
		if !ok {
			return out
		}
		out = append(out, apt.Dim{Lo: intConst(0), Hi: intConst(int64(at.Len) - 1)})
		t = at.ElemType
	}
}

// allocaDims are the dimensions of a local's storage: its type's, after
// one of unknown extent where it holds a count of them (C's variable-length
// arrays, int a[n]: alloca i32, i64 %n), whose elements are then stored
// and read as any array's.
func allocaDims(a *ir.InstAlloca) []apt.Dim {
	d := dims(a.ElemType)
	if a.NElems == nil {
		return d
	}
	if c, ok := a.NElems.(*constant.Int); ok && c.X.IsInt64() && c.X.Int64() == 1 {
		return d
	}
	return append([]apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}, d...)
}

// vlaAllocate is the ALLOCATE a variable-length array's alloca makes
// where it runs (int a[n]: alloca i32, i64 %n): a(0:n-1), so that the
// array has the extent the program gave it, as malloc's arrays do.
func (x *fn) vlaAllocate(a *ir.InstAlloca, p apt.Pos) *apt.Stmt {
	d := allocaDims(a)
	n, named := x.names[a]
	if len(d) == 0 || !named {
		return nil
	}
	if _, star := d[0].Hi.(*apt.Star); !star {
		return nil
	}
	x.declare(n, valueType(a.ElemType), d)
	var ops apt.Ops
	subs := []apt.Expr{&apt.Section{Lo: intConst(0), Hi: &apt.Binary{Op: apt.OpSub, X: x.exprOps(a.NElems, &ops), Y: intConst(1)}}}
	for _, e := range d[1:] {
		subs = append(subs, &apt.Section{Lo: e.Lo, Hi: e.Hi})
	}
	return &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAllocate, Ops: ops,
		Args: []apt.Expr{&apt.Index{Pos: p, Name: n, Type: x.vars[n].Type, Subs: subs}}}
}

// valueType is the APT type of an LLVM type: integers and floating point
// by size, i1 logical, pointers and arrays their element's type.
func valueType(t types.Type) apt.Type {
	switch t := t.(type) {
	case *types.IntType:
		if t.BitSize == 1 {
			return apt.Type{Base: apt.TypeLogical, Kind: 4}
		}
		return apt.Type{Base: apt.TypeInteger, Kind: max(1, int(t.BitSize)/8)}
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindFloat:
			return apt.Type{Base: apt.TypeReal, Kind: 4}
		case types.FloatKindHalf:
			return apt.Type{Base: apt.TypeReal, Kind: 2}
		case types.FloatKindX86_FP80, types.FloatKindFP128, types.FloatKindPPC_FP128:
			return apt.Type{Base: apt.TypeReal, Kind: 16}
		}
		return apt.Type{Base: apt.TypeReal, Kind: 8}
	case *types.PointerType:
		return valueType(t.ElemType)
	case *types.ArrayType:
		return valueType(t.ElemType)
	case *types.VectorType:
		return valueType(t.ElemType)
	case *types.StructType:
		if t.Name() == "struct.ompi_request_t" {
			// An MPI_Request points to this opaque structure: a handle
			// the program compares with MPI_REQUEST_NULL, held as a
			// Fortran program holds it (an integer).
			return apt.Type{Base: apt.TypeInteger, Kind: 8}
		}
		// Kind is the structure's size in bytes, as it is a number's: the
		// stride of a pointer to structures (p + 1, end - begin).
		size, _, _ := typeSize(t)
		return apt.Type{Base: apt.TypeDerived, Kind: int(size), Derived: strings.ToLower(cleanName(strings.TrimPrefix(t.Name(), "struct.")))}
	case *types.FuncType:
		// A function's address, carried as the number a call through
		// a pointer holding it calls (symeval/procptr.go).
		return apt.Type{Base: apt.TypeInteger, Kind: 8}
	}
	return apt.Type{Base: apt.TypeUnknown}
}

// file maps a debug-info file to the name positions use: the user's path
// when it names one of the inputs, else the path as compiled.
func (l *lifter) file(f *metadata.DIFile) string {
	if f == nil {
		return l.name
	}
	if n, ok := l.fileNames[f]; ok {
		return n
	}
	name := f.Filename
	full := name
	if !filepath.IsAbs(full) && f.Directory != "" {
		full = filepath.Join(f.Directory, full)
	}
	for _, u := range l.files {
		abs, err := filepath.Abs(u)
		if err == nil && abs == filepath.Clean(full) {
			name = u
			break
		}
	}
	if name == f.Filename && f.Directory != "" && f.Directory != l.cwd && !filepath.IsAbs(name) {
		name = full
	}
	l.fileNames[f] = name
	return name
}

// scopeFile finds the file of a debug scope.
func scopeFile(s metadata.Field) *metadata.DIFile {
	for i := 0; i < 64 && s != nil; i++ {
		switch x := s.(type) {
		case *metadata.DISubprogram:
			return x.File
		case *metadata.DILexicalBlock:
			if x.File != nil {
				return x.File
			}
			s = x.Scope
		case *metadata.DILexicalBlockFile:
			if x.File != nil {
				return x.File
			}
			s = x.Scope
		case *metadata.DIFile:
			return x
		default:
			return nil
		}
	}
	return nil
}

// pos is the source position of an instruction (its !dbg location).
func (l *lifter) pos(md []*metadata.Attachment) apt.Pos {
	for _, a := range md {
		if loc, ok := a.Node.(*metadata.DILocation); ok && a.Name == "dbg" {
			for loc.InlinedAt != nil {
				loc = loc.InlinedAt
			}
			if loc.Line == 0 {
				return apt.Pos{}
			}
			return apt.Pos{File: l.file(scopeFile(loc.Scope)), Line: int(loc.Line), Col: max(1, int(loc.Column))}
		}
	}
	return apt.Pos{}
}

// globalStores computes, for every function, the globals it may store to,
// itself or through its callees (a fixed point over the call graph).
// maxInits bounds the initial values a global aggregate gives (a table
// of thousands of entries is not worth its statements).
const maxInits = 256

// aggregateInits are assignments that give the fields of global structs
// and the elements of small global arrays their static initial values
// (struct settings cfg = {0, 64, 4, 8}; int sizes[3] = {...}), to be run
// at main's start with no operations of their own: C initialises them
// before main, and a scalar global's initial value is its declaration's
// (apt.Var.Init), which has no form for fields or elements.
func (l *lifter) aggregateInits() []*apt.Stmt {
	var out []*apt.Stmt
	for _, g := range l.m.Globals {
		v := l.globals[g]
		if v == nil || v.External || g.Init == nil {
			continue
		}
		switch g.ContentType.(type) {
		case *types.StructType, *types.ArrayType:
		default:
			continue
		}
		n := 0
		l.initStmts(&out, &apt.Name{Name: v.Name, Type: v.Type}, g.ContentType, g.Init, l.globalPos(g), &n)
	}
	return out
}

// initStmts appends the assignments of constant c to the reference ref
// of type t: scalars directly, a struct field by field, a top-level array
// element by element; zero-filled arrays and arrays inside structs are
// left out.
func (l *lifter) initStmts(out *[]*apt.Stmt, ref apt.Expr, t types.Type, c constant.Constant, pos apt.Pos, n *int) {
	if *n >= maxInits {
		return
	}
	switch t := t.(type) {
	case *types.StructType:
		for k, ft := range t.Fields {
			var fc constant.Constant
			switch cc := c.(type) {
			case *constant.Struct:
				if k >= len(cc.Fields) {
					return
				}
				fc = cc.Fields[k]
			case *constant.ZeroInitializer:
				fc = constant.NewZeroInitializer(ft)
			default:
				return
			}
			l.initStmts(out, &apt.Component{Pos: pos, Base: ref, Field: l.fieldName(t, k), Type: valueType(ft)}, ft, fc, pos, n)
		}
	case *types.ArrayType:
		if ca, ok := c.(*constant.CharArray); ok && !isTopName(ref) {
			// A structure's character array initialised from a string
			// (Config c = {..., "jacobi"}): its text, up to the NUL.
			if text, ok := charArrayText(ca); ok && *n < maxInits {
				*n++
				*out = append(*out, &apt.Stmt{Span: spanAt(pos), Kind: apt.StmtAssign, Target: ref,
					Value: &apt.Const{Kind: apt.ConstChar, Text: text, Type: apt.Type{Base: apt.TypeCharacter}}})
			}
			return
		}
		if comp, ok := ref.(*apt.Component); ok {
			l.fieldArrayInits(out, comp, t, c, pos, n)
			return
		}
		name, top := ref.(*apt.Name)
		if _, zero := c.(*constant.ZeroInitializer); zero && top && *n < maxInits {
			// A global array of numbers with no initialiser (int
			// num_cases[3];): C's static storage starts at zero, every
			// element, whatever its extents.
			et := innermostElem(t)
			if _, ok := scalarBytes(et); ok {
				if _, isPtr := et.(*types.PointerType); !isPtr {
					*n++
					*out = append(*out, &apt.Stmt{Span: spanAt(pos), Kind: apt.StmtAssign, Value: l.constInit(constant.NewZeroInitializer(et)),
						Target: &apt.Name{Pos: pos, Name: name.Name, Type: valueType(et), Array: true}})
				}
			}
			return
		}
		if _, ok := c.(*constant.Array); !top || !ok {
			return
		}
		et := innermostElem(t)
		if stmts, ok := l.arrayInits(name.Name, valueType(et), t, c, pos, maxInits-*n, true); ok {
			*n += len(stmts)
			*out = append(*out, stmts...)
		}
	default:
		if _, top := ref.(*apt.Name); top {
			return // a scalar global: its Var.Init
		}
		if v := l.constInit(c); v != nil {
			*n++
			*out = append(*out, &apt.Stmt{Span: spanAt(pos), Kind: apt.StmtAssign, Target: ref, Value: v})
		}
	}
}

// fieldArrayInits appends the assignments of the constant c to the
// elements of a structure's one-dimensional array field of numbers
// (std::array<int, 3> {{5, 10, 20}}, struct grid {int dims[3];} g =
// {{4, 4, 2}}): g%dims(k) = c_k, C's subscripts from 0. A field of zeros
// is assigned 0 as a whole.
func (l *lifter) fieldArrayInits(out *[]*apt.Stmt, comp *apt.Component, t *types.ArrayType, c constant.Constant, pos apt.Pos, n *int) {
	if _, nested := t.ElemType.(*types.ArrayType); nested {
		return
	}
	if _, ok := scalarBytes(t.ElemType); !ok {
		return
	}
	if _, isPtr := t.ElemType.(*types.PointerType); isPtr {
		return
	}
	et := valueType(t.ElemType)
	switch cc := c.(type) {
	case *constant.ZeroInitializer:
		if *n < maxInits {
			*n++
			*out = append(*out, &apt.Stmt{Span: spanAt(pos), Kind: apt.StmtAssign, Value: l.constInit(constant.NewZeroInitializer(t.ElemType)),
				Target: &apt.Component{Pos: pos, Base: comp.Base, Field: comp.Field, Type: et, Array: true}})
		}
	case *constant.Array:
		if *n+len(cc.Elems) > maxInits {
			return
		}
		var stmts []*apt.Stmt
		for k, e := range cc.Elems {
			v := l.constInit(e)
			if v == nil {
				return
			}
			stmts = append(stmts, &apt.Stmt{Span: spanAt(pos), Kind: apt.StmtAssign, Value: v,
				Target: &apt.Index{Pos: pos, Base: comp.Base, Name: comp.Field, Type: et, Subs: []apt.Expr{intConst(int64(k))}}})
		}
		*n += len(stmts)
		*out = append(*out, stmts...)
	}
}

// innermostElem is the element type of an array of arrays, however
// deeply nested.
func innermostElem(t *types.ArrayType) types.Type {
	et := t.ElemType
	for {
		at, ok := et.(*types.ArrayType)
		if !ok {
			return et
		}
		et = at.ElemType
	}
}

// errnoRef is a reference to errno, declared once among the globals.
func (l *lifter) errnoRef(p apt.Pos) apt.Expr {
	t := apt.Type{Base: apt.TypeInteger, Kind: 4}
	if !slices.ContainsFunc(l.globalScope.Vars, func(v *apt.Var) bool { return v.Name == "errno" }) {
		l.globalScope.Add(&apt.Var{Name: "errno", Type: t, Save: true, Init: []apt.Expr{intConst(0)}})
	}
	return &apt.Name{Pos: p, Name: "errno", Type: t}
}

// globalView declares, once, the array name (a field path of a global)
// in the module of globals.
func (l *lifter) globalView(name string, t apt.Type, d []apt.Dim) {
	for _, v := range l.globalScope.Vars {
		if v.Name == name {
			return
		}
	}
	l.globalScope.Add(&apt.Var{Name: name, Type: t, Dims: d, Save: true})
}

// pointerGlobal makes the global pointer name (int *cells; block *blocks)
// what a C pointer is in the APT, an array of assumed size: every function
// that loads it reaches the one storage its address designates, which a
// function's local of the same name would hide.
func (l *lifter) pointerGlobal(name string) {
	for _, v := range l.globals {
		if v.Name == name && !v.External && len(v.Dims) == 0 {
			v.Dims = []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
		}
	}
}

// isGlobalName reports whether a global of the program is called name.
func (l *lifter) isGlobalName(name string) bool {
	for _, v := range l.globals {
		if v.Name == name {
			return true
		}
	}
	return false
}

// findArgv finds the formals that hold main's argv (lifter.argv).
func (l *lifter) findArgv() {
	l.argv = map[*ir.Param]bool{}
	for _, f := range l.m.Funcs {
		if f.Name() == "main" && len(f.Params) >= 2 && len(f.Blocks) > 0 {
			l.argv[f.Params[1]] = true
		}
	}
	if len(l.argv) == 0 {
		return
	}
	// isArgv: the formal itself, or a load of a stack slot that only
	// argv is stored to (main's argv lives in one when &argv goes to
	// MPI_Init).
	isArgv := func(slots map[value.Value]bool, v value.Value) bool {
		v = stripCasts(v)
		if p, ok := v.(*ir.Param); ok {
			return l.argv[p]
		}
		ld, ok := v.(*ir.InstLoad)
		return ok && slots[stripCasts(ld.Src)]
	}
	for changed := true; changed; {
		changed = false
		total, passed := map[*ir.Param]int{}, map[*ir.Param]int{}
		for _, f := range l.m.Funcs {
			slots := map[value.Value]bool{}
			for _, b := range f.Blocks {
				for _, inst := range b.Insts {
					st, ok := inst.(*ir.InstStore)
					if !ok {
						continue
					}
					if a, ok := stripCasts(st.Dst).(*ir.InstAlloca); ok {
						p, isP := stripCasts(st.Src).(*ir.Param)
						v, seen := slots[a]
						slots[a] = (v || !seen) && isP && l.argv[p]
					}
				}
			}
			for _, b := range f.Blocks {
				for _, inst := range b.Insts {
					c, ok := inst.(*ir.InstCall)
					if !ok {
						continue
					}
					g, ok := stripCasts(c.Callee).(*ir.Func)
					if !ok || len(g.Blocks) == 0 {
						continue
					}
					for i, a := range c.Args {
						if i >= len(g.Params) {
							break
						}
						total[g.Params[i]]++
						if isArgv(slots, unwrapArg(a)) {
							passed[g.Params[i]]++
						}
					}
				}
			}
		}
		for p, n := range passed {
			if n == total[p] && !l.argv[p] {
				l.argv[p], changed = true, true
			}
		}
	}
}

func (l *lifter) globalStores() {
	direct := map[*ir.Func]map[*ir.Global]bool{}
	calls := map[*ir.Func][]*ir.Func{}
	for _, f := range l.m.Funcs {
		set := map[*ir.Global]bool{}
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				switch x := inst.(type) {
				case *ir.InstStore:
					if g := rootGlobal(x.Dst); g != nil {
						set[g] = true
					}
				case *ir.InstCall:
					if c, ok := stripCasts(x.Callee).(*ir.Func); ok {
						calls[f] = append(calls[f], c)
					}
					for _, a := range x.Args {
						if g := rootGlobal(unwrapArg(a)); g != nil {
							set[g] = true // its address is passed on
						}
					}
				}
			}
		}
		direct[f] = set
	}
	for changed := true; changed; {
		changed = false
		for f, cs := range calls {
			for _, c := range cs {
				for g := range direct[c] {
					if !direct[f][g] {
						direct[f][g], changed = true, true
					}
				}
			}
		}
	}
	l.stores = direct
}

func intConst(v int64) apt.Expr {
	if v < 0 {
		return &apt.Unary{Op: apt.OpNeg, X: intConst(-v)}
	}
	return &apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(v, 10), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
}

// constInit is scalarInit, and a function of the program as its name (a
// table of kernels, a struct's callback): the value a call through a
// pointer holding it calls.
func (l *lifter) constInit(c constant.Constant) apt.Expr {
	if f, ok := stripCasts(c).(*ir.Func); ok && len(f.Blocks) > 0 && l.fnames[f] != "" {
		return l.funcRef(f)
	}
	if g, ok := stripCasts(c).(*ir.Global); ok {
		if h := mpiHandle(g); h != nil {
			return h // MPI_Request r[2] = {MPI_REQUEST_NULL, ...}
		}
	}
	if text, ok := literalText(c); ok {
		// A table's name field ({"fast", k_fast}): the text a strcmp
		// against an option compares.
		return &apt.Const{Kind: apt.ConstChar, Text: text, Type: apt.Type{Base: apt.TypeCharacter, Kind: 1}}
	}
	return scalarInit(c)
}

// literalText is the text of a constant pointer to the start of a string
// literal (getelementptr (@.str, 0, 0)), up to its NUL.
func literalText(c constant.Constant) (string, bool) {
	gep, ok := stripCasts(c).(*constant.ExprGetElementPtr)
	if !ok {
		return "", false
	}
	for _, ix := range gep.Indices {
		if in, ok := ix.(*constant.Index); ok {
			ix = in.Constant
		}
		if k, ok := ix.(*constant.Int); !ok || k.X.Sign() != 0 {
			return "", false
		}
	}
	g, ok := stripCasts(gep.Src).(*ir.Global)
	if !ok || !g.Immutable {
		return "", false
	}
	ca, ok := g.Init.(*constant.CharArray)
	if !ok {
		return "", false
	}
	text := string(ca.X)
	if i := strings.IndexByte(text, 0); i >= 0 {
		text = text[:i]
	}
	return text, true
}

// isTopName reports whether ref names a global itself, not a part of one.
func isTopName(ref apt.Expr) bool {
	_, ok := ref.(*apt.Name)
	return ok
}

// charArrayText is the text of a character array constant up to its NUL.
func charArrayText(c *constant.CharArray) (string, bool) {
	b := c.X
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	for _, ch := range b {
		if ch < 0x20 || ch > 0x7e {
			return "", false // text the program prints, not a word it tests
		}
	}
	return string(b), true
}

// funcRef is a function used as a value: its name, which the evaluation
// takes for the function's number (symeval/procptr.go).
func (l *lifter) funcRef(f *ir.Func) apt.Expr {
	return &apt.Name{Name: l.fnames[f], Type: apt.Type{Base: apt.TypeUnknown}}
}

// scalarInit is a scalar global's initial value, nil for aggregates and
// for what is not a number.
func scalarInit(c constant.Constant) apt.Expr {
	switch k := c.(type) {
	case *constant.Int:
		if k.Typ.BitSize == 1 {
			return logical(k.X.Sign() != 0)
		}
		return bigConst(k.X)
	case *constant.Float:
		return floatConst(k)
	case *constant.ZeroInitializer:
		if _, agg := k.Typ.(*types.ArrayType); agg {
			return nil
		}
		if _, agg := k.Typ.(*types.StructType); agg {
			return nil
		}
		return intConst(0)
	}
	return nil
}
