package cost

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// The symbols every report uses for the SPMD structure. MPI_COMM_SIZE defines
// Size and MPI_COMM_RANK defines Rank, whatever the program calls its
// variables; a serial program has neither.
const (
	Size = "P"    // number of processes
	Rank = "rank" // the calling process, 0 <= rank <= P-1
)

// Report is a costed APT: for every node of the program reachable from its
// entry, how often each rank executes it and what it costs, as closed forms in
// the parameters, P and rank.
type Report struct {
	Program *apt.Program
	Entry   *apt.Routine
	// Parallel is set when the program calls MPI_COMM_SIZE or MPI_COMM_RANK:
	// only then are P and rank free symbols of the counts.
	Parallel bool
	// Params are the free symbols of the report besides P and rank, in order of
	// first appearance: problem sizes, values read at run time, unresolved
	// values. Each is reported once.
	Params []*Param
	// Assumptions holds the facts the counts rely on: P >= 1, 0 <= rank <= P-1,
	// the `!mk$ assume` annotations, -assume relations, parameter lower bounds.
	Assumptions *symbolic.Assumptions
	// Nodes lists the costed nodes in preorder (routines in the order the entry
	// reaches them, a callee after its first caller); ByID finds one by APT ID.
	Nodes []*Node
	ByID  map[string]*Node
	// Work is the whole program's work per rank in operation units (the entry
	// routine's Work); Weights are the operation weights used.
	Work    symbolic.Piecewise
	Weights Weights
	// WorkMissing is set when Work has no closed form within the
	// analysis's limits (see Node.Missing): Work is then empty and unknown.
	WorkMissing bool
	// Budget is the analysis's budget (Options.Budget), 0 when unbounded.
	Budget int
	// Diags are problems met during evaluation (unmodelled constructs,
	// recursion, unresolved values), each once.
	Diags []apt.Diagnostic
	// Inputs are the files the program reads only when present, taken as
	// absent; Assumed the stated choices the counts rest on (symeval).
	Inputs  []symeval.InputFile
	Assumed []symeval.Assumption
	// Read are the values the program's READ statements took from its
	// input files (symeval.Result.Read).
	Read []symeval.ReadValue
	// Occurrences is the number of node occurrences of the evaluation
	// (symeval.Result.Occurrences).
	Occurrences int
	// Enumerated counts the sets the analysis counted by enumerating
	// their outer variables at the point (counting.SumAtPoint), having no
	// closed form within the counting engine's reach.
	Enumerated int
	// Stopped is set when every path of the program stops (STOP,
	// MPI_ABORT) before its end: at a point, an error check the values
	// fail.
	Stopped *symeval.Stopped
	// Eval is the symbolic evaluation the report counts.
	Eval *symeval.Result
	// RankwiseP is P of an evaluation at a point where the rank is free
	// (the closed forms are then in the rank alone), 0 otherwise.
	RankwiseP int64

	an *analysis // for closed forms computed on demand (TotalCount)
}

// NoClosedForm returns the nodes one of whose counts has no closed form
// within the analysis's limits (Node.CountMissing), in report order.
func (r *Report) NoClosedForm() []*Node {
	var out []*Node
	for _, n := range r.Nodes {
		if n.CountMissing() {
			out = append(out, n)
		}
	}
	return out
}

// ParamOrigin says where a parameter came from.
type ParamOrigin int

// Origins of parameters.
const (
	FromAnnotation  ParamOrigin = iota + 1 // `!mk$ param` or -D
	FromRead                               // a READ statement
	FromCommandLine                        // get_command_argument / command_argument_count
	FromUnresolved                         // a value the evaluation could not derive (a data-dependent bound, a function result)
	FromFrequency                          // how often a branch with an unanalysable condition is taken, in percent
	FromTripCount                          // the trip count of a loop the evaluation cannot bound (DO WHILE, endless DO)
	FromArguments                          // a C program's argc, or a result from the text of its argv: -args gives them
)

// Param is a named symbol the counts depend on besides P and rank.
type Param struct {
	Name   string
	Origin ParamOrigin
	// Pos is where the value enters the program (the READ, the annotation, the
	// unresolved bound).
	Pos apt.Pos
	// What describes the value in the user's terms ("the value read into n",
	// "the trip count of the DO WHILE loop at jacobi/L3").
	What string
	// Default is the value from `!mk$ param name = value`, or the constant the
	// program assigns before overwriting it from input; nil when there is none.
	Default *symbolic.Expr
	// Value is the parameter's value in a report evaluated at a point
	// (Options.Values): the counts have it built in. Nil otherwise.
	Value *int64
	// Defaulted is set when Value is the program's own default for an
	// input the point does not give (an input deck's keyword left out):
	// the notes list these, MK3001 does not ask for them one by one.
	Defaulted bool
	// Lo and Hi bound the values it can take where the evaluation knows
	// them (a counter a loop changes at most once per iteration); the
	// analysis then tells whether it matters. A branch frequency's range,
	// 0..100, is implied.
	Lo, Hi *symbolic.Expr
}

// Node is one APT node with its counts and costs. All Piecewise values are
// per rank: functions of the parameters, P and rank.
type Node struct {
	Node    apt.Node
	Routine *apt.Routine
	Parent  *Node // nil for a routine
	// Depth is the number of enclosing loops, calls counted through.
	Depth int
	// Count is how many times a rank executes the node (for a Loop: enters it;
	// for a Routine: is called). Summed over every calling context.
	Count symbolic.Piecewise
	// Iterations is, for a Loop, how many times a rank executes its body.
	Iterations symbolic.Piecewise
	// Self is the work of the node's own statements per rank (a Block's
	// operations times its count, a Comm's per-call overhead is not work);
	// Work is MK's inclusive composition: Self plus the children's Work, a
	// Call's callee work in the call's context.
	Self, Work symbolic.Piecewise
	// NestWork is, for a loop nest (a loop with no enclosing loop in its
	// routine, with the loops inside it there), the nest's own work: Work
	// less the work of the loop nests of the routines it calls, which are
	// nests of their own. The statements of those routines outside their
	// nests count here, in the context of each call. Empty for other nodes.
	// The nests' NestWork and the work outside every nest add up to the
	// program's Work, so a nest's share says where the time goes without
	// counting a driver loop around the nests it calls.
	NestWork symbolic.Piecewise
	// Comm holds the communication of a Comm node (nil otherwise).
	Comm *Comm
	// Exact is false when a count rests on an approximation (an unanalysable
	// branch taken as a parameter fraction, a count the engine gave up on);
	// Note then says why.
	Exact bool
	Note  string
	// Missing names the figures that have no closed form within the
	// analysis's limits (the counting engine's work limits, Options.Budget):
	// they are left empty, and an empty figure named here is unknown, never
	// 0. A node's Work (and its parents') is missing when any part of it
	// is. Figures at a point (Options.Values) are always derived.
	Missing Figure

	// Streams are, for an innermost loop, its memory traffic in each
	// calling context: the body executions, the bytes one reads and
	// writes, and the footprint of the nest around it, which says the
	// memory level the bytes come from.
	Streams []Stream

	// Contexts are, for a loop, its calling contexts one by one: what
	// encloses it in each, through calls, and its body executions and
	// streams there. Iterations and Streams add them up, and Parent
	// follows the first context only, so a reader that splits the program
	// into regions (calibration's timed regions) needs these to give a
	// loop of a routine called from two regions to both, each its share.
	Contexts []Context

	doms []*symeval.Domain // the node's domains, one per calling context
	// hasIters is set for a loop that was run iteration by iteration: its
	// Iterations are a sum even where it ran no iteration.
	hasIters bool
}

// Context is one calling context of a loop.
type Context struct {
	// Enclosing are the APT nodes around the loop in this context, the
	// innermost first, through calls (a call, then the routine holding it)
	// up to the entry routine.
	Enclosing []apt.Node
	// Iterations are the loop's body executions in this context; empty
	// when they have no closed form (the node's Missing says so).
	Iterations symbolic.Piecewise
	// Streams are the loop's memory traffic in this context (an innermost
	// loop only).
	Streams []Stream
}

// Figure names figures of a node, for Node.Missing.
type Figure uint8

// The figures of a node.
const (
	FigCount      Figure = 1 << iota // Count
	FigIterations                    // Iterations
	FigSelf                          // Self
	FigWork                          // Work
	FigNestWork                      // NestWork
	FigComm                          // Comm's messages and bytes
)

// Has reports whether f names any of the figures of g.
func (f Figure) Has(g Figure) bool { return f&g != 0 }

// CountMissing reports whether one of n's counts (its count, a loop's
// iterations, a Comm's messages) has no closed form within the analysis's
// limits.
func (n *Node) CountMissing() bool { return n.Missing.Has(FigCount | FigIterations | FigComm) }

// Comm is the communication of one MPI call, per rank.
type Comm struct {
	Op apt.CommOp
	// Messages is the number of point-to-point messages the rank sends
	// (collectives: the number of calls); Received the number it receives.
	Messages, Received symbolic.Piecewise
	// BytesSent and BytesReceived are the data volume (SCALA's) per rank.
	BytesSent, BytesReceived symbolic.Piecewise
	// MsgBytes is the size of one message in bytes, when it is a closed form.
	MsgBytes *symbolic.Expr
	// Peer is the destination (send) or source (receive) rank as a closed form
	// in rank and P, nil when not derived or for collectives.
	Peer *symbolic.Expr
}

// Stream is the memory traffic of an innermost loop in one calling context.
type Stream struct {
	Iterations symbolic.Piecewise
	Bytes      int64
	// Footprint is the data of the nest the loop is in (nil when the
	// evaluation has none).
	Footprint *symeval.Footprint
	// Accesses are the loop's streams of array data: how each walks
	// memory and where it finds its data (the memory term of its cost).
	Accesses []symeval.Access
	// Core is the work of one iteration of the loop's own statements in
	// work units, a branch's costliest arm counted: what the processor
	// does while the data moves (the roofline's computation, ECM's core
	// time).
	Core symbolic.Rat
	// Kind is how the processor runs the loop's statements, which sets
	// the time of a work unit in it (model.Ops' loop kinds).
	Kind LoopKind
}

// LoopKind is how a processor runs an innermost loop's statements. The
// stream's accesses tell a vectorised loop from a scalar one (a strided
// or indirect access keeps compilers from vectorising it); the statements
// tell the other two.
type LoopKind uint8

const (
	// Independent iterations: the roofline decides from the accesses.
	LoopPlain LoopKind = iota
	// A chain of dependent floating-point operations carried from one
	// iteration to the next bounds the rate (the recurrence; a dot
	// product).
	LoopChain
	// The statements compute in complex arithmetic, each complex
	// operation counted as one (an FFT butterfly).
	LoopComplex
)
