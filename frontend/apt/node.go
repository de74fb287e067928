package apt

import (
	"strconv"
	"sync"
)

// Node is an APT node. It is a closed sum type: the implementations are Program,
// Routine, Loop, If, Branch, Call, Comm, Block, IO, Goto, Return, Stop, Exit,
// Cycle, Continue, Region and Unknown.
type Node interface {
	// Base returns the fields every node has: ID, span and statement label.
	Base() *NodeBase
	node()
}

// NodeBase holds the fields common to all nodes.
type NodeBase struct {
	// ID is stable and deterministic: a path within the routine, see AssignIDs.
	ID   string `json:"id"`
	Span Span   `json:"span"`
	// Label is the statement label of the node's first statement, if any; GOTO
	// targets and DO terminations refer to it.
	Label string `json:"label,omitempty"`
}

// Base returns b itself; embedding NodeBase gives every node its Base method.
func (b *NodeBase) Base() *NodeBase { return b }

// Program is the whole input: every program unit of every file.
type Program struct {
	NodeBase
	Files    []string   `json:"files"`
	Routines []*Routine `json:"routines"`
	// FromIR is set for a program lifted from LLVM IR (C, C++): it
	// carries no `!mk$` directives, which are Fortran comments.
	FromIR bool `json:"from_ir,omitempty"`

	routines map[string]*Routine
	hosts    map[*Routine]*Routine
	useCache sync.Map // useKey -> useHit (usesOf)
}

// RoutineKind is the kind of a program unit.
type RoutineKind int

// Program unit kinds.
const (
	KindProgram    RoutineKind = iota + 1 // program
	KindSubroutine                        // subroutine
	KindFunction                          // function
	KindModule                            // module
	KindBlockData                         // blockdata
)

var routineKindNames = [...]string{KindProgram: "program", KindSubroutine: "subroutine",
	KindFunction: "function", KindModule: "module", KindBlockData: "blockdata"}

// String returns the lower-case name of k.
func (k RoutineKind) String() string {
	if k > 0 && int(k) < len(routineKindNames) {
		return routineKindNames[k]
	}
	return "RoutineKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k RoutineKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Routine is MK's ROUTINE node: a program unit or contained procedure with its
// declarations and executable body.
type Routine struct {
	NodeBase
	Name string      `json:"name"` // lower case
	Kind RoutineKind `json:"kind"`
	// Display is the routine's name for messages where Name is a symbol
	// no user writes (a C++ function's mangled name, demangled).
	Display string `json:"display,omitempty"`
	// Formals are the dummy argument names in order ("*" for an alternate return).
	Formals []string `json:"formals,omitempty"`
	// Result is the result variable of a function (its own name by default).
	Result string `json:"result,omitempty"`
	// Elemental marks an ELEMENTAL procedure: given array arguments it runs
	// once per element.
	Elemental bool `json:"elemental,omitempty"`
	// Statement marks a statement function (f(x) = 2*x + 1 among the
	// declarations): a function of its host with no statement of its
	// own in the source but its definition.
	Statement bool   `json:"statement,omitempty"`
	Scope     *Scope `json:"scope"`
	// Params and Assumes are the `!mk$ param` and `!mk$ assume` annotations
	// written inside the routine.
	Params  []*Param  `json:"params,omitempty"`
	Assumes []*Assume `json:"assumes,omitempty"`
	Body    []Node    `json:"body"`
	// Contains are the internal or module procedures after CONTAINS.
	Contains []*Routine `json:"contains,omitempty"`
	// Formats are the routine's FORMAT statements by label: each one's
	// format specification, parenthesised, as the frontend's canonical
	// text has it (blanks and case outside character strings are not
	// significant in a format).
	Formats map[string]string `json:"formats,omitempty"`
}

// Loop is MK's LOOP node: a counted DO (Var = Lower, Upper, Step) or a
// DO WHILE (While set; Var empty). A DO without control is a While of nil with
// Forever set.
//
// A counted loop has Fortran's semantics, which symbolic evaluation must keep:
// the trip count max(0, floor((Upper - Lower + Step)/Step)) is computed once on
// entry (assigning to the bounds inside the body does not change it), and Var
// is not assigned by the body. Exit, Cycle, Goto and Return nodes inside the
// body can end iterations early; Iterations, when set, is the user's word for
// the trip count.
type Loop struct {
	NodeBase
	Var   string `json:"var,omitempty"`
	Lower Expr   `json:"lower,omitempty"`
	Upper Expr   `json:"upper,omitempty"`
	// Step is nil when not written (1).
	Step    Expr `json:"step,omitempty"`
	While   Expr `json:"while,omitempty"`
	Forever bool `json:"forever,omitempty"`
	// EndLabel is the label of the terminal statement of a labelled DO.
	EndLabel string `json:"end_label,omitempty"`
	// Construct is the construct name (outer: do i = ...).
	Construct string `json:"construct,omitempty"`
	// Independent is set by HPF INDEPENDENT; OMP holds the OpenMP directive that
	// workshares the loop ("parallel do", "do"), with its clauses in OMPClauses.
	Independent bool   `json:"independent,omitempty"`
	OMP         string `json:"omp,omitempty"`
	OMPClauses  string `json:"omp_clauses,omitempty"`
	// Iterations is the trip count given by `!mk$ iterations expr`.
	Iterations Expr   `json:"iterations,omitempty"`
	Body       []Node `json:"body"`
}

// IfKind says which source construct an If node came from.
type IfKind int

// Kinds of If nodes.
const (
	IfLogical    IfKind = iota + 1 // logical
	IfBlock                        // block
	IfArithmetic                   // arithmetic
	IfSelect                       // select
	// IfWhere is a WHERE construct: its branches are masks over the
	// elements of its array assignments, not paths of control.
	IfWhere // where
	// IfGoto is a computed GO TO (l1, ..., ln) k: branch i, taken where
	// k == i, holds the plain GO TO li; where no branch holds the program
	// goes on.
	IfGoto // computed goto
)

var ifKindNames = [...]string{IfLogical: "logical", IfBlock: "block", IfArithmetic: "arithmetic", IfSelect: "select", IfWhere: "where", IfGoto: "computed goto"}

// String returns the lower-case name of k.
func (k IfKind) String() string {
	if k > 0 && int(k) < len(ifKindNames) {
		return ifKindNames[k]
	}
	return "IfKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k IfKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// If is MK's IF node. Branches are tried in order; a Branch with a nil Cond and no
// Cases is the ELSE (CASE DEFAULT). An arithmetic IF (e) l1,l2,l3 has three
// branches with conditions e<0, e==0, e>0 each holding a Goto; a SELECT CASE keeps
// its Selector and each branch's case values.
type If struct {
	NodeBase
	Kind      IfKind    `json:"kind"`
	Selector  Expr      `json:"selector,omitempty"`
	Construct string    `json:"construct,omitempty"`
	Branches  []*Branch `json:"branches"`
	// Dispatch marks an IF the frontend made for a call on a polymorphic
	// object, one branch per procedure its dynamic type may bind: the
	// source has the call, not the branches.
	Dispatch bool `json:"dispatch,omitempty"`
}

// Branch is one arm of an If. Its own ID lets trace analysis attach branch
// frequencies, which MK derives from traces (seed 000, §2.1).
type Branch struct {
	NodeBase
	Cond  Expr        `json:"cond,omitempty"`
	Cases []CaseValue `json:"cases,omitempty"`
	Body  []Node      `json:"body"`
}

// CaseValue is one SELECT CASE value or range lo:hi (either bound may be nil in a
// range).
type CaseValue struct {
	Lo    Expr `json:"lo,omitempty"`
	Hi    Expr `json:"hi,omitempty"`
	Range bool `json:"range,omitempty"`
}

// Call is MK's CALL node: a call of a subroutine (a function reference inside an
// expression stays in the expression as a Call expression).
type Call struct {
	NodeBase
	Callee string `json:"callee"` // lower case
	// Display is the routine's name for messages where Callee is a
	// symbol no user writes (a C++ routine's mangled name, demangled), or
	// where a call through a pointer read it (table[k]); see Shown.
	Display string `json:"display,omitempty"`
	Args    []Expr `json:"args"`
	// Object is the object of a type-bound call obj%proc(args) the typer
	// could not bind (Callee is then the binding's name); once bound, the
	// call names the procedure and the object is among Args.
	Object Expr `json:"object,omitempty"`
}

// Block is a maximal run of straight-line statements, MK's basic block whose cost
// is the sum of its statements' operation counts.
type Block struct {
	NodeBase
	Stmts []*Stmt `json:"stmts"`
}

// StmtKind classifies a straight-line statement.
type StmtKind int

// Statement kinds.
const (
	StmtAssign        StmtKind = iota + 1 // assign
	StmtPointerAssign                     // pointer-assign
	StmtAllocate                          // allocate
	StmtDeallocate                        // deallocate
	StmtNullify                           // nullify
	StmtLabelAssign                       // label-assign
)

var stmtKindNames = [...]string{StmtAssign: "assign", StmtPointerAssign: "pointer-assign",
	StmtAllocate: "allocate", StmtDeallocate: "deallocate", StmtNullify: "nullify", StmtLabelAssign: "label-assign"}

// String returns the lower-case name of k.
func (k StmtKind) String() string {
	if k > 0 && int(k) < len(stmtKindNames) {
		return stmtKindNames[k]
	}
	return "StmtKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k StmtKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Stmt is one statement of a Block. An assignment has Target and Value; ALLOCATE,
// DEALLOCATE and NULLIFY list their objects in Args; ASSIGN 10 TO L has the label
// in Value and the variable in Target. A masked assignment (WHERE (m) a = b) keeps
// the mask in Mask.
type Stmt struct {
	ID     string   `json:"id"`
	Span   Span     `json:"span"`
	Label  string   `json:"label,omitempty"`
	Kind   StmtKind `json:"kind"`
	Target Expr     `json:"target,omitempty"`
	Value  Expr     `json:"value,omitempty"`
	Mask   Expr     `json:"mask,omitempty"`
	Args   []Expr   `json:"args,omitempty"`
	Ops    Ops      `json:"ops"`
	// Heap marks an allocation of objects that pointers refer to (C's
	// malloc of a struct, or of an array of pointers): the target holds
	// the new object's address, which other pointers may share, where a
	// Fortran ALLOCATE gives the array itself storage of its own.
	Heap bool `json:"heap,omitempty"`
	// Load marks an assignment to a C pointer of the pointer an element
	// holds (row = owner[i] of int **owner): the target receives the
	// element's value, where p = a[k] otherwise makes p point at the
	// element (&a[k]).
	Load bool `json:"load,omitempty"`
	// TypeSpec is the derived type an ALLOCATE gives its objects
	// (ALLOCATE(circle :: s)): their dynamic type.
	TypeSpec string `json:"type_spec,omitempty"`
}

// Ops counts the operations of one evaluation of a statement: Fortran's own
// arithmetic, intrinsic and function calls, and array element references (the
// counting statements of Pacheco, seed 004 §11.2, and MK's basic-block costs).
type Ops struct {
	Adds int `json:"adds,omitempty"` // binary + and -
	Muls int `json:"muls,omitempty"`
	Divs int `json:"divs,omitempty"`
	// IntDivs counts the divisions among Divs whose operands are integers
	// (truncating division, usually far cheaper to ignore or fold).
	IntDivs int `json:"int_divs,omitempty"`
	Pows    int `json:"pows,omitempty"`
	Negs    int `json:"negs,omitempty"`  // unary minus
	Cmps    int `json:"cmps,omitempty"`  // relational operators
	Logic   int `json:"logic,omitempty"` // .and. .or. .not. .eqv. .neqv.
	// Intrinsics counts intrinsic function calls by lower-case name; Calls counts
	// user and library function references (their cost is their routine's).
	Intrinsics map[string]int `json:"intrinsics,omitempty"`
	Calls      map[string]int `json:"calls,omitempty"`
	// Loads and Stores count array references read and written. A section or
	// whole-array reference counts once and sets Vector: its element count is the
	// section's size, which symbolic evaluation derives from the bounds.
	// SubscriptOps counts the arithmetic inside array subscripts (a(i+1)),
	// kept apart from Adds/Muls because compilers mostly strength-reduce it.
	SubscriptOps int  `json:"subscript_ops,omitempty"`
	Loads        int  `json:"loads,omitempty"`
	Stores       int  `json:"stores,omitempty"`
	Vector       bool `json:"vector,omitempty"`
}

// Add adds the counts of o to c.
func (c *Ops) Add(o Ops) {
	c.Adds += o.Adds
	c.Muls += o.Muls
	c.Divs += o.Divs
	c.IntDivs += o.IntDivs
	c.Pows += o.Pows
	c.Negs += o.Negs
	c.Cmps += o.Cmps
	c.Logic += o.Logic
	c.Loads += o.Loads
	c.SubscriptOps += o.SubscriptOps
	c.Stores += o.Stores
	c.Vector = c.Vector || o.Vector
	for k, v := range o.Intrinsics {
		if c.Intrinsics == nil {
			c.Intrinsics = map[string]int{}
		}
		c.Intrinsics[k] += v
	}
	for k, v := range o.Calls {
		if c.Calls == nil {
			c.Calls = map[string]int{}
		}
		c.Calls[k] += v
	}
}

// IOKind is the kind of an I/O statement.
type IOKind int

// I/O statement kinds.
const (
	IORead      IOKind = iota + 1 // read
	IOWrite                       // write
	IOPrint                       // print
	IOOpen                        // open
	IOClose                       // close
	IOInquire                     // inquire
	IORewind                      // rewind
	IOBackspace                   // backspace
	IOEndfile                     // endfile
	IOFlush                       // flush
)

var ioKindNames = [...]string{IORead: "read", IOWrite: "write", IOPrint: "print", IOOpen: "open",
	IOClose: "close", IOInquire: "inquire", IORewind: "rewind", IOBackspace: "backspace",
	IOEndfile: "endfile", IOFlush: "flush"}

// String returns the lower-case name of k.
func (k IOKind) String() string {
	if k > 0 && int(k) < len(ioKindNames) {
		return ioKindNames[k]
	}
	return "IOKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k IOKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// KeywordCxxString is the control keyword of a read into C++ std::string
// objects (their text, not characters of an array): getline, >> a word.
const KeywordCxxString = "cxxstring"

// KeywordGetline marks a line read by POSIX getline (a buffer it grows,
// the line's length or -1 as its result) rather than fgets (a buffer of
// the size given, the buffer or NULL).
const KeywordGetline = "getline"

// KeywordEndPtr is the control keyword of a C conversion (strtol) given an
// end pointer: its value is the pointer, set past the number read. (Not
// Fortran's END=, a label.)
const KeywordEndPtr = "endptr"

// IO is an I/O statement. Unit and Format are nil when absent (Star for *);
// Control keeps the other control items (Keyword expressions such as iostat=).
// For READ, Reads lists the names of the variables read into: later stages turn
// values read at run time into named parameters.
type IO struct {
	NodeBase
	Kind    IOKind   `json:"kind"`
	Unit    Expr     `json:"unit,omitempty"`
	Format  Expr     `json:"format,omitempty"`
	Control []Expr   `json:"control,omitempty"`
	Items   []Expr   `json:"items,omitempty"`
	Reads   []string `json:"reads,omitempty"`
	// Arg is set for a value a C program parses from a command-line
	// argument (atoi(argv[k]), atoi(*++argv)): the argument's index k as
	// an expression of the program's variables, else nil.
	Arg Expr `json:"arg,omitempty"`
	// ArgSkip, with Arg, is the number of the argument's characters before
	// the text parsed (atoi(argv[i] + 4) after "--n="), nil for none.
	ArgSkip Expr `json:"arg_skip,omitempty"`
	// From is set for a value a C program parses from text that is not a
	// command-line argument (atoi(optarg), strtol(word, ...)): the
	// character pointer's expression, whose text the evaluation may know.
	From Expr `json:"from,omitempty"`
	// As is the program's variable a C value parsed into a temporary goes
	// to (n = argc > 1 ? atoi(argv[1]) : 100): the parameter the value
	// becomes is named after it. Empty when Reads names the variable.
	As string `json:"as,omitempty"`
	// Result is the variable a C read function's return value goes to
	// (n = scanf(...)): the number of items it read, else nil.
	Result Expr `json:"result,omitempty"`
	// Stream marks a C read (the scanf family): it takes words from where
	// the last read stopped, across lines, not whole records.
	Stream bool `json:"stream,omitempty"`
	// Scan is the format of a C read of the scanf family, whose
	// conversions and literal characters say how the text is taken.
	Scan Expr `json:"scan,omitempty"`
	// Line marks C's fgets: the one item, a character buffer, takes the
	// rest of the current line as text, its newline included, at most
	// the control size less one characters.
	Line bool `json:"line,omitempty"`
}

// GotoKind is the form of a GO TO statement.
type GotoKind int

// GO TO forms.
const (
	GotoPlain    GotoKind = iota + 1 // plain
	GotoComputed                     // computed
	GotoAssigned                     // assigned
)

var gotoKindNames = [...]string{GotoPlain: "plain", GotoComputed: "computed", GotoAssigned: "assigned"}

// String returns the lower-case name of k.
func (k GotoKind) String() string {
	if k > 0 && int(k) < len(gotoKindNames) {
		return gotoKindNames[k]
	}
	return "GotoKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k by name.
func (k GotoKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Goto is a jump to one of Targets (statement labels). A computed GO TO selects
// Targets[Index-1] and falls through when Index is out of range; an assigned GO TO
// jumps to the label held in the variable Index.
type Goto struct {
	NodeBase
	Kind    GotoKind `json:"kind"`
	Targets []string `json:"targets"`
	Index   Expr     `json:"index,omitempty"`
}

// Return leaves the routine; Value is an alternate-return index if written.
type Return struct {
	NodeBase
	Value Expr `json:"value,omitempty"`
}

// Stop ends the program (ERROR STOP sets Error).
type Stop struct {
	NodeBase
	Code  Expr `json:"code,omitempty"`
	Error bool `json:"error,omitempty"`
}

// Exit leaves the innermost loop, or the one named Construct.
type Exit struct {
	NodeBase
	Construct string `json:"construct,omitempty"`
}

// Cycle starts the next iteration of the innermost loop, or the one named Construct.
type Cycle struct {
	NodeBase
	Construct string `json:"construct,omitempty"`
}

// Continue is a no-op statement, kept because its label may be a jump target.
type Continue struct {
	NodeBase
}

// Region marks the beginning (Begin set) or end of a `!mk$ region` annotation, a
// named parallel region as PerWiz (seed 003) defines it. Regions are marker pairs
// rather than containers because they need not nest with the control structure.
type Region struct {
	NodeBase
	Name  string `json:"name,omitempty"`
	Begin bool   `json:"begin"`
}

// Unknown is a statement the frontend did not model. Diag always says why.
type Unknown struct {
	NodeBase
	Text string     `json:"text"`
	Diag Diagnostic `json:"diag"`
	// Skips marks a jump the APT cannot write (out of several loops at
	// once): the code it reaches is left out, so what that code assigns
	// is not known after it.
	Skips bool `json:"skips,omitempty"`
}

func (*Program) node()  {}
func (*Routine) node()  {}
func (*Loop) node()     {}
func (*If) node()       {}
func (*Branch) node()   {}
func (*Call) node()     {}
func (*Comm) node()     {}
func (*Block) node()    {}
func (*IO) node()       {}
func (*Goto) node()     {}
func (*Return) node()   {}
func (*Stop) node()     {}
func (*Exit) node()     {}
func (*Cycle) node()    {}
func (*Continue) node() {}
func (*Region) node()   {}
func (*Unknown) node()  {}

// Shown is the routine's name for messages: Display where set, else Name.
func (r *Routine) Shown() string {
	if r.Display != "" {
		return r.Display
	}
	return r.Name
}

// Shown is the callee's name for messages: Display where set, else Callee.
func (c *Call) Shown() string {
	if c.Display != "" {
		return c.Display
	}
	return c.Callee
}
