package symeval

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
)

// Options control Evaluate.
type Options struct {
	// Entry names the routine to start from; empty means the PROGRAM unit, or
	// the only routine.
	Entry string
	// Params names variables to treat as parameters, as `!mk$ param name`
	// does in the source.
	Params []string
	// Assume adds relations the counts may rely on.
	Assume []symbolic.Relation
	// MaxOccs bounds the occurrences the walk creates (0: 200000), so that a
	// call tree that grows exponentially fails instead of exhausting memory.
	MaxOccs int
	// LeanVisits bounds the node visits of trial walks (probes of loops,
	// walks for the arrays a loop leaves alone) after which loops are no
	// longer run or probed (0: leanVisits).
	LeanVisits int64
	// Args are the program's command-line arguments, when given: a C
	// program's main then has argc = len(Args) + 1 and the strings in
	// argv, and what it parses from them (atoi(argv[1])) is a number; a
	// Fortran program's COMMAND_ARGUMENT_COUNT() is len(Args) and
	// GET_COMMAND_ARGUMENT gives them (environ.go).
	Args []string
	// Env is the program's environment: the variables set, by name.
	// GET_ENVIRONMENT_VARIABLE finds every other unset (nil: all), as a
	// user's normal run does, and Result.Inputs lists those it read.
	Env map[string]string
	// Dir is the directory the program runs in, where it finds its input
	// files: a list-directed READ of a file there takes the file's values
	// (readfile.go). Empty: no file is read, and every value read is a
	// parameter named after its variable.
	Dir string
	// Stdin names the file in Dir (or an absolute path) the program's
	// standard input comes from (mpirun ... < input): a READ of unit 5
	// or * and a C scanf take their values from it, as the run does.
	// Empty: nothing is read from standard input.
	Stdin string
	// Values fixes symbols to integers for an evaluation at a point: P (the
	// size of MPI_COMM_WORLD), the parameters by name and, for the
	// evaluation of one process, the rank. Parameters with a default take
	// it when Values does not name them. What the program computes from
	// these (process grids, block sizes, loops that search for a factor,
	// arrays of sizes) is then a number, and loops whose trip counts become
	// numbers are run when they compute values the counts need.
	Values map[string]int64
}

// ErrTooLarge is returned when the walk exceeds Options.MaxOccs.
var ErrTooLarge = errors.New("symeval: program too large to evaluate context by context")

// Evaluate walks prog from its entry and returns the occurrence tree.
func Evaluate(prog *apt.Program, opt Options) (*Result, error) {
	entry, err := findEntry(prog, opt.Entry)
	if err != nil {
		return nil, err
	}
	ev := &evaluator{
		prog:          prog,
		res:           &Result{Program: prog, Entry: entry},
		env:           newEnv(),
		params:        map[string]*Param{},
		used:          map[string]bool{Size: true, Rank: true},
		diagSeen:      map[string]bool{},
		summary:       map[*apt.Routine]*summary{},
		maxOccs:       opt.MaxOccs,
		leanAt:        opt.LeanVisits,
		values:        opt.Values,
		args:          opt.Args,
		environ:       opt.Env,
		dir:           opt.Dir,
		stdin:         opt.Stdin,
		sizes2:        map[*apt.Routine]int{},
		suffix:        map[string]int{},
		usedThrough:   map[string]int{},
		rankMemo:      map[string]rankAnswer{},
		freq:          map[*apt.Branch]*Param{},
		consts:        map[*apt.Const]Value{},
		unkElems:      map[string]*unknown{},
		storeOffs:     map[*apt.Index]Value{},
		counterStores: map[*apt.Loop]bool{},
		probedParams:  map[string]bool{},
		spans:         map[string]*Param{},
		sweeps:        map[string][]Alt{},
		tripParams:    map[apt.Node]*Param{},
		boundExits:    map[*apt.Exit]bool{},
		armConds:      map[*apt.Branch]counting.Formula{},
		realTables:    map[*apt.Var]bool{},
		reading:       map[*apt.Routine]bool{},
		readingFiles:  map[*apt.Routine]bool{},
		deckParams:    map[string]*Param{},
		stopping:      map[*apt.Routine]bool{},
		rankSets:      map[string][]bool{},
		rankReads:     map[rankRead][]Alt{},
		afterLoops:    map[string]*unknown{},
		readParams:    map[string]*Param{},
	}
	if ev.maxOccs == 0 {
		ev.maxOccs = 200000
	}
	if ev.leanAt <= 0 {
		ev.leanAt = leanVisits
	}
	ev.sizeVars, ev.rankVars = map[string]bool{}, map[string]bool{}
	ev.collectHPF()
	ev.res.Parallel = ev.hpf
	ev.collectAnnotations(opt)
	ev.res.Assume = append(ev.res.Assume, opt.Assume...)
	ev.cur = &domainState{factor: symbolic.Int(1)}
	// A module's annotations name module variables, which live as long as
	// the program.
	for _, r := range ev.prog.Routines {
		if r.Kind == apt.KindModule && len(ev.routineParams[r]) > 0 {
			ev.frames = []*frame{{routine: r, id: "m." + r.Name}}
			for _, name := range ev.routineParams[r] {
				ev.paramKeys[ev.key(name)] = name
			}
			ev.frames = nil
		}
	}
	if ev.stdin != "" {
		// Standard input is unit 5, at its first record.
		ev.setUnit(unitKey(stdinUnit), readpos.Opened(ev.stdin))
	}
	root := ev.callRoutine(entry, nil, nil, nil)
	if ev.err != nil {
		return nil, ev.err
	}
	ev.resolveSizes(root)
	ev.res.Root = root
	ev.res.Occurrences = ev.noccs
	ev.res.Visits, ev.res.TrialVisits = ev.visits, ev.trialVisits
	ev.res.LeanFrom = ev.leanFrom
	if ev.leanFrom != nil {
		ev.res.Assumed = append(ev.res.Assumed, Assumption{Pos: *ev.leanFrom, What: fmt.Sprintf(
			"%s: the evaluation's trial walks of loops passed %d node visits here: from this point on no loop is run trip by trip or probed, "+
				"so values that loops compute may stay parameters", ev.leanFrom, ev.leanAt)})
	}
	if e := ev.entryEnd; e != nil && e.dead && e.stopped {
		// Every path of the program stops before its end: at a point,
		// an error check the values fail (a build for another number of
		// processes, a subdomain too small).
		ev.res.Stopped = &Stopped{Pos: e.stopAt}
	}
	if e := ev.entryEnd; e != nil && ev.res.Stopped == nil {
		for _, c := range e.stopConds {
			syms := formulaSymbolsBut(c, nil, nil)
			if slices.Contains(syms, Size) && !slices.ContainsFunc(syms, func(s string) bool { return s != Size }) {
				ev.res.StopsOnP = true
				break
			}
		}
	}
	if ev.res.Parallel {
		ev.res.Assume = append([]symbolic.Relation{
			symbolic.Rel(symbolic.Sym(Size), ">=", symbolic.Int(1)),
			// MPI_Comm_size gives an int: a test of P against a bound
			// past it (a container's max_size()) is decided.
			symbolic.Rel(symbolic.Sym(Size), "<=", symbolic.Int(math.MaxInt32)),
			symbolic.Rel(symbolic.Sym(Rank), ">=", symbolic.Int(0)),
			symbolic.Rel(symbolic.Sym(Rank), "<=", symbolic.Sym(Size).Sub(symbolic.Int(1))),
		}, ev.res.Assume...)
	}
	ev.res.Assume = append(ev.res.Assume, ev.annotAssume...)
	if prog.Notation() == apt.C {
		ev.res.inC()
	}
	return ev.res, nil
}

// src writes e back in the notation of the program's source, for messages:
// argv[1] and nd->indegree for a C program, argv(1) and nd%indegree for
// Fortran.
func (ev *evaluator) src(e apt.Expr) string {
	return apt.FormatExprIn(e, ev.prog.Notation())
}

// say picks the words of the program's source language where cWords'
// keyword for keyword rewording would not read well.
func (ev *evaluator) say(fortran, c string) string {
	if ev.prog.Notation() == apt.C {
		return c
	}
	return fortran
}

// fieldWord names a member of a record the way the source language does.
func (ev *evaluator) fieldWord() string {
	if ev.prog.Notation() == apt.C {
		return "the field "
	}
	return "the component "
}

func findEntry(prog *apt.Program, name string) (*apt.Routine, error) {
	if name != "" {
		if r := prog.Routine(strings.ToLower(name)); r != nil {
			return r, nil
		}
		return nil, fmt.Errorf("no routine named %s", name)
	}
	var progs, others []*apt.Routine
	for _, r := range prog.Routines {
		switch r.Kind {
		case apt.KindProgram:
			progs = append(progs, r)
		case apt.KindSubroutine, apt.KindFunction:
			others = append(others, r)
		}
	}
	switch {
	case len(progs) == 1:
		return progs[0], nil
	case len(progs) > 1:
		return nil, fmt.Errorf("%d PROGRAM units (%s, %s); choose one with -entry", len(progs), progs[0].Name, progs[1].Name)
	case len(others) == 1:
		return others[0], nil
	}
	return nil, errors.New("no PROGRAM unit to start from; name the entry routine with -entry")
}

// evaluator holds the walk's state. Variables live in env under keys that
// identify storage: a frame's locals as "frame.name", COMMON members as
// "/block/#index", module and host variables by declaration; a derived-type
// variable's components as "key%field".
type evaluator struct {
	prog *apt.Program
	res  *Result
	env  *env
	// resultShape holds the bounds of the array result of the function
	// that returned last, for the allocatable it is assigned to
	// (reallocate).
	resultShape []bound
	// where is the control mask of the WHERE construct being walked
	// (whereNode), element by element.
	where *whereState
	// dataWhere counts the WHERE constructs over the program's data
	// being walked without a mask (whereNode): their assignments store
	// to some elements only.
	dataWhere int
	// equivNames are the variables EQUIVALENCE statements name
	// (uniformdata.go), built on first use.
	equivNames map[string]bool
	// params are the parameters by name; annotated names every variable of
	// that name is, wherever it is assigned.
	params    map[string]*Param
	annotated map[string]bool
	// paramKeys maps the storage of a variable annotated `!mk$ param` in
	// its routine to the parameter's name; routineParams lists each
	// routine's annotated names.
	paramKeys     map[string]string
	routineParams map[*apt.Routine][]string
	used          map[string]bool
	// sizeVars and rankVars name the variables that receive MPI_COMM_SIZE and
	// MPI_COMM_RANK anywhere, for reading annotations written in terms of them.
	sizeVars, rankVars map[string]bool
	annotAssume        []symbolic.Relation

	frames  []*frame
	nframe  int
	cur     *domainState
	stmtOcc *Occ // the occurrence function calls in expressions hang under
	// nodePos is the position of the node or statement being evaluated,
	// for a parameter made where an expression has none of its own.
	nodePos apt.Pos
	// probeSkip holds the statements and calls of a probed loop outside
	// its slice (probeSliceOf) while rankProbe runs it; localFx memoizes
	// localEffects.
	probeSkip map[any]bool
	// armsOnDomain is positive while a guess about a loop's trips is
	// checked (slotinduct.go): IF arms its domain excludes are not walked.
	armsOnDomain int
	localFx      map[*apt.Routine]bool
	// inert is positive while a value only a variable nothing control
	// relevant reads receives, or an arm on data that changes no control
	// value, is evaluated (Param.inert).
	inert int
	// freshMemo memoizes freshScalars.
	freshMemo map[*apt.Loop][]string
	// readsIn memoizes nodeReads of a routine's body or a loop's (readAfter).
	readsIn  map[any]map[string]int
	diagSeen map[string]bool
	summary  map[*apt.Routine]*summary
	// summarizing counts the summaries being computed (summarize).
	summarizing int
	// libPtrMemo holds libraryPointers' answers by routine.
	libPtrMemo map[*apt.Routine]map[string]bool
	// constStore is the store collectAssigned leaves out (storesOnly).
	constStore *constStore
	noccs      int
	maxOccs    int
	// recursiveCalls counts the recursive activations evaluated;
	// recursionLeft marks the routines a recursive call of which was not
	// (recursion.go).
	recursiveCalls int
	recursionLeft  map[*apt.Routine]bool
	err            error
	// nargs is the parameter for command_argument_count().
	nargs *Param
	// argParams are the parameters for numbers read from command-line
	// arguments the run is not given, by argument number.
	argParams map[int64]*Param
	// jumps counts the jumps met that the evaluation does not model, gotos
	// the GO TOs among them (which may jump anywhere in the routine; EXIT
	// and CYCLE stay within their loops).
	// hpf is set when the program distributes arrays over an HPF processor
	// arrangement, whose extent the variables in hpfSize give.
	hpf     bool
	hpfSize map[string]bool
	// ahead holds, for each statement list being walked, the labels of the
	// statements after the current one: the targets a forward GO TO may
	// take.
	ahead []map[string]bool
	// exitLoop is set while the top-level IF of a loop formed by GO TO is
	// evaluated: its arm that jumps out is the loop's exit.
	exitLoop *gotoLoopState
	// deckSeen is set when value meets a value computed from the
	// program's defaults for an input deck (Value.deck).
	deckSeen bool
	// doExit is the DO without control being evaluated symbolically,
	// whose first top-level `IF (c) EXIT` is taken on its last trip;
	// exitTaken tells the EXIT of that arm it is accounted for.
	doExit    *gotoLoopState
	exitTaken bool
	// boundExits are the EXITs of counted DOs whose bounds account for
	// them (boundedExit).
	boundExits map[*apt.Exit]bool
	// backLoop is set while the bottom test of a loop formed by GO TO
	// (`if (c) goto head`) is evaluated: its branch is taken on every run
	// but the last.
	backLoop *gotoLoopState
	// values are Options.Values: the point the evaluation is at, if any.
	values map[string]int64
	// runVisits counts the node visits of loops run so far; nrun numbers
	// the runs; sizes2 memoizes routine sizes for the run budgets.
	runVisits int64
	nrun      int
	// visits counts every occurrence made, never undone (Result.Visits),
	// trialVisits those made in probes and trial walks; leanFrom is where
	// trialVisits passed leanAt.
	visits      int64
	trialVisits int64
	leanAt      int64
	leanFrom    *apt.Pos
	sizes2      map[*apt.Routine]int
	// named memoizes the named constants whose values are numbers: a
	// loop run character by character reads its line length thousands
	// of times.
	named map[*apt.Var]Value
	// suffix is the next numeric suffix freshName tries for a base name.
	suffix map[string]int
	// usedThrough[base] = k says base_2 .. base_k are all in used
	// (loopVarName).
	usedThrough map[string]int
	// rankMemo holds the conditions on the rank decided at a point.
	rankMemo map[string]rankAnswer
	// freq holds the frequency parameter of each unanalysable arm.
	freq map[*apt.Branch]*Param
	// procs numbers the routines procedure pointers hold (procptr.go).
	procs *procTable
	// probing is set while a loop body is walked to find its increments.
	probing int
	// heap holds the heap objects by address (heap.go).
	heap         map[int64]*heapObj
	naddr        int64 // storages given an address (address.go)
	scalarAddrs  map[string]int64
	slots        map[string]bool     // the address slots ever set
	slotsAt      map[string][]string // the slots by the component prefixes of their keys
	scalarAt     map[int64]string
	heapRoutines map[*apt.Routine]bool
	// loopBoundNames memoizes boundNames: the variables DO loops take
	// their bounds from, per routine.
	loopBoundNames map[*apt.Routine]map[string]bool
	ptrWrites      map[string]bool     // what the loop being walked stores to through pointers (noteWrite)
	ranged         []*unknown          // the unknowns whose ranges name parameters (setRange)
	typeNames      []string            // derived types as dynamic types, by number (typeCode)
	storages       map[int64]storageAt // array storages by address (derefArray)
	hasHeap        int                 // heapProgram: 0 not yet known, 1 yes, -1 no
	// armsDecided counts the IFs collectAssigned took only the decided
	// arms of (decidedArms): a list of nodes with one is not kept.
	armsDecided int
	// initialised maps the storage keys of module variables with an
	// initialiser to their declarations (initialValue).
	initialised map[string]*apt.Var
	// initialArrays does the same for arrays of static storage (slotInit):
	// a dummy argument bound to one reads the actual's initial elements.
	initialArrays map[string]*apt.Var
	// args are the program's command-line arguments (Options.Args), argvKey
	// the storage of its main's argv (cstring.go).
	args []string
	// bufferLoad is set while a broadcast reads its buffer for the
	// root's value (staticZero notes no other rank's read).
	bufferLoad int
	argvKey    string
	// environ is Options.Env.
	environ map[string]string
	// dir is Options.Dir; inputs caches the records of the files read
	// there by name (nil: absent).
	dir    string
	inputs map[string][]string
	// openedAt is the OPEN that last connected each file by name.
	openedAt map[string]apt.Pos
	// strtokRest is the text strtok's next call with NULL goes on in.
	strtokRest *string
	// fieldAddrs are the addresses given to structures' array fields
	// passed whole, by storage key (fieldArrayAddr).
	fieldAddrs map[string]int64
	// textOrigins are where the text of a string object came from (the
	// file and line a getline read it from), by its text key, and where
	// each file textFile made from one did.
	textOrigins map[string]ReadValue
	// stdin is Options.Stdin.
	stdin string
	// freqUses counts the arms taken with a frequency parameter that may
	// change values the counts depend on (feedsControl).
	freqUses int
	// consts caches the values of literals.
	consts map[*apt.Const]Value
	// escapedText holds the buffers (key: name) a pointer into whose text
	// was handed out (strchr, strstr): see escapeText.
	escapedText map[string]string
	// skipped is set once the evaluation met a jump to code the APT leaves
	// out (apt.Unknown.Skips): whatever that code assigned, every count
	// after it may rest on a value it changed, and is marked.
	skipped string
	// byRankDepth is set while a loop is run rank by rank.
	byRankDepth int
	// mail keeps the point-to-point sends met at a point (p2p.go).
	mail *mailbox
	// colls counts the collective calls of the path, rootSent keeps what
	// roots broadcast by that count (collorder.go).
	colls    int
	rootSent map[int]rootBcast
	armPath  []armStep // the arms of the IFs being walked, outermost first
	// loopDepth counts the loops (DO or formed by GO TO, through calls)
	// being evaluated, run or symbolically: an occurrence's Depth, which
	// must not depend on which of the two a loop took.
	loopDepth int
	// lastTrips is the trip count of the last GO TO loop run
	// (runGotoLoop), tripRanges the least and largest trip counts over
	// the ranks of the DO WHILE loops whose runs the rank decides
	// (rankProbe), for their trip-count parameters.
	lastTrips  int64
	tripRanges map[*apt.Loop][2]int64
	// conc runs set-up calls concretely (concrete.go); sweeps memoizes
	// tableSweep's sums.
	conc   *concState
	sweeps map[string][]Alt
	// concTrial is positive while a call is evaluated symbolically to
	// learn whether it needs a run (concreteCall).
	concTrial int
	// runCap, when positive, bounds the node visits of one run below
	// runBudget (runLimit).
	runCap int64
	// overBudget says that the last run of unknown trip count to stop
	// stopped for its budget (openRunSpent), not on a test.
	overBudget bool
	// onData says that the last run of unknown trip count to stop stopped
	// at a test of REAL data the evaluation cannot see (a fixup repeated
	// while a flux is negative), which no rank decides either.
	onData bool
	// runStack holds the counted runs in progress, innermost last: the
	// runs inside them share their budgets (runshare.go).
	runStack []*runFrame
	// spentRuns holds, per loop of unknown trip count whose run stopped
	// for its budget, the largest limit it was given then: a run given no
	// more is not tried again (it would spend that much and stop again).
	spentRuns map[*apt.Loop]int64
	// armConds replace the conditions of IF arms the evaluation decides
	// another way (an exit on a REAL clock, by the DO variable).
	armConds map[*apt.Branch]counting.Formula
	// whileRuns holds the loops of unknown trip count being run
	// (runWhileOnce), marked once an exit of theirs met a test the
	// evaluation cannot decide: the run cannot say when it ends.
	whileRuns map[*apt.Loop]exitMark
	// feeds memoizes feedsControl by branch, carryMemo carrySliceOf by
	// loop.
	feeds     map[*apt.Branch]bool
	carryMemo map[*apt.Loop]*carryMemo
	// ranges holds the values of the domain variables of the loops whose
	// bodies are being walked, innermost last (ranged.go).
	ranges []varRange
	// probed is what the probe of a DO WHILE that runWhile could not run
	// found (rankProbe), for loop to apply.
	probed *rankProbeResult
	// rel holds the program's control-relevant variables (relevance.go).
	rel *relevance
	// running counts the loops being run, one inside the other.
	running int
	// arms counts the IF arms being walked, one inside the other (across
	// calls): a STOP under none of them is the program's normal end.
	arms int
	// entryEnd is the entry routine's state when its walk ended.
	entryEnd *domainState
	// rest holds the statements after the one being evaluated in its
	// statement list (what an OPEN's IOSTAT= is tested by).
	rest []apt.Node
	// follower is the label of the statement after the one being
	// evaluated, "" when it has none: a GO TO it from inside a loop is an
	// exit.
	follower string
	// unkElems holds the unknown value of each array element the
	// evaluation could not derive, by array state and offset; afterLoops
	// the unknown value of each variable after each loop.
	unkElems map[string]*unknown
	// storeOffs is the offset each element store inside a symbolic loop
	// was last evaluated at (rowsums.go).
	storeOffs map[*apt.Index]Value
	// counterStores caches storesCounter by loop; lastScan is the last
	// loop's stores (soleStore).
	counterStores map[*apt.Loop]bool
	lastScan      *storeScan
	// probedParams are the parameters of array elements a recurrence
	// probe read at its symbolic index (loadAt).
	probedParams map[string]bool
	// spans holds the parameter of each sum of row lengths (rows.go), by
	// array state and first and last row.
	spans map[string]*Param
	// tripParams holds the trip-count parameter of each loop that has one.
	tripParams map[apt.Node]*Param
	// realTables says which REAL arrays are small tables the evaluation
	// follows (realtable.go).
	realTables map[*apt.Var]bool
	// reading memoizes routineReads; deckParams holds the input
	// parameter of each variable an input deck sets (deck.go).
	reading map[*apt.Routine]bool
	// statics holds the storage keys of module, COMMON and SAVE
	// variables (static.go), nil for others seen.
	statics map[string]*apt.Var
	// commonInits are the COMMON members other units initialise (slotInit).
	commonInits map[string]*apt.Var
	// savedIn maps the storage key of a procedure's SAVE variable
	// (savedLocal) to the procedure that declares it.
	savedIn map[string]*apt.Routine
	// flagLoops memoizes storesFlag (peel.go).
	flagLoops map[*apt.Loop]bool
	// argVals holds the values of the arguments of the intrinsic being
	// evaluated (funcCall), nil outside one.
	argVals map[apt.Expr]Value
	// written holds the text of the files the program writes
	// (filetext.go), by name.
	written map[string]*writtenFile
	// readingFiles memoizes routineReadsFiles.
	readingFiles map[*apt.Routine]bool
	deckParams   map[string]*Param
	// stopping memoizes alwaysStops.
	stopping map[*apt.Routine]bool
	// rankSets memoizes the ranks conditions on the rank alone hold at,
	// at a point (rankAlts).
	rankSets map[string][]bool
	// formsMemo remembers rankForms's last tables (ranks.go).
	formsMemo map[formsKey]formsEntry
	// repointedDecls are the arrays the program assigns as a whole
	// (repointed).
	repointedDecls map[*apt.Var]bool
	// rankReads memoizes readOffsetByRank by array state and offset.
	rankReads  map[rankRead][]Alt
	afterLoops map[string]*unknown
	// readParams holds the parameter of each datum of an input file a
	// READ read (readpos.go).
	readParams map[string]*Param
	// streams memoizes streamBytes.
	streams map[*apt.Loop]int64
	// sizeSyms are the placeholders of unknowns in footprints and
	// streams (closedSize).
	sizeSyms map[*unknown]string
}

// frame is one activation of a routine.
type frame struct {
	routine *apt.Routine
	id      string
	alias   map[string]string // formal name -> key of the actual argument
	// present marks the dummies the call gave an actual (PRESENT).
	present map[string]bool
	// locals caches the keys of the frame's local variables (key);
	// assigned the storage lists may assign (collectAssigned), kept
	// while no IF's arms were decided by values (evaluator.armsDecided).
	locals map[string]string
	// globals caches the keys of the other storage the frame names
	// (module, COMMON, host and SAVE variables), found the same way on
	// every reference while the frame lives.
	globals  map[string]string
	assigned map[assignedKey][]string
	// allocs are the addresses of the storages malloc made under the
	// frame's keys, which outlive it (keepAllocs).
	allocs []int64
	// storage maps an array dummy argument to the first-touch identity of
	// its actual's array (freshID), where the actual names one.
	storage map[string]string
	// sharedStorage marks array dummies bound to an actual whose storage
	// may be another name's (arrayIdentity).
	sharedStorage map[string]bool
	loops         []*apt.Loop // the enclosing loops, innermost last
	// entries are the loops' body domains at the start of an iteration: the
	// terminal statement of a labelled DO runs on every iteration, also
	// those that jumped to it.
	entries []*domainState
	// aheadBase is the first entry of evaluator.ahead that belongs to this
	// frame: GO TO does not leave a routine.
	aheadBase int
	// runs holds the run state of each enclosing loop being run (nil for
	// one evaluated symbolically), as loops does.
	runs []*runState
	// loopFrames holds, as loops does, what each enclosing loop evaluated
	// symbolically leaves for the loops inside it (nil for others).
	loopFrames []*loopFrame
	// gotoHeads are the loops built from GO TO being evaluated, innermost
	// last.
	gotoHeads []gotoHead
	// gotos counts the jumps of the routine the evaluation does not
	// model: any statement of it may then repeat or be skipped. jumps
	// counts those and the exits and cycles of its loops it does not
	// model, which make the loop around them inexact.
	gotos, jumps int
	// charLens holds the length of the actual character value each
	// assumed-length dummy (CHARACTER(LEN=*)) is bound to, where known.
	charLens map[string]int64
	// elems holds the element count of the actual array each array dummy
	// argument is bound to, where the caller knows it; shapes the extents
	// of the actual of each assumed-shape dummy (shape.go).
	elems  map[string]symbolic.Expr
	shapes map[string][]Value
	// accesses are the streams of the innermost loops of the nest being
	// evaluated (nestAccesses), computed where the nest is entered.
	accesses map[*apt.Loop][]Access
	// entry is the path state where the routine's body starts; returns
	// the paths that reached a RETURN (returns.go).
	entry   *domainState
	returns []returnPath
}

// arrayElems returns how many elements the array name has in the current
// routine: the product of its extents (declared, or for a deferred-shape
// array its ALLOCATE's, for an assumed-shape dummy its actual's), or, for
// a dummy argument declared assumed-size (a(*)), its actual's, for a C
// pointer what it reaches of the storage it points into.
func (ev *evaluator) arrayElems(name string) (symbolic.Expr, bool) {
	d := ev.prog.Resolve(ev.frame().routine, name)
	if d == nil || !d.IsArray() {
		return symbolic.Expr{}, false
	}
	bs, _ := ev.arrayBounds(name, d)
	n := symbolic.Int(1)
	for _, b := range bs {
		e, single := b.ext.Single()
		if !single {
			if n, ok := ev.frame().elems[name]; ok {
				return n, true
			}
			return ev.pointeeElems(name, d)
		}
		n = n.Mul(e)
	}
	return n, true
}

// domainState is the current domain: the enclosing loops' variables and
// conditions, the path condition, and whether the walk is still live (no
// RETURN or STOP has ended every path).
type domainState struct {
	vars   []string
	conds  []counting.Formula
	factor symbolic.Expr
	dead   bool
	// cycled is set when the path ended by starting the next iteration of
	// the innermost loop (CYCLE, or GO TO its terminal statement) rather
	// than by leaving the routine.
	cycled bool
	// stopped is set when the path ended the program (STOP, MPI_ABORT),
	// at stopAt; stopConds are the conditions under which paths of this
	// state stopped, the live path being where none holds: a caller's
	// path goes on only there.
	stopped   bool
	stopAt    apt.Pos
	stopConds []counting.Formula
	// returned holds the values of the path that reached a RETURN (or the
	// routine's end) before forward GO TOs rejoined at a later label (an
	// error exit `9999 continue` after the RETURN).
	returned *env
	// halted is set when a STOP or MPI_ABORT ended the path, a failed
	// check or not.
	halted  bool
	inexact string
	// pending holds the forward GO TOs taken on paths of this state, by
	// target label: where the label is reached, those paths rejoin.
	pending map[string][]jump
	// snap is the last Domain handed out, with the slices it was taken from.
	snap      *Domain
	snapVars  *string
	snapConds *counting.Formula
}

// jump is a path that left by GO TO: its condition, factor and values.
type jump struct {
	conds  []counting.Formula
	factor symbolic.Expr
	env    *env
}

func (d *domainState) clone() *domainState {
	c := *d
	c.snap = nil
	c.vars = slices.Clone(d.vars)
	c.conds = slices.Clone(d.conds)
	c.stopConds = slices.Clone(d.stopConds)
	if d.pending != nil {
		c.pending = make(map[string][]jump, len(d.pending))
		for k, v := range d.pending {
			c.pending[k] = slices.Clone(v)
		}
	}
	return &c
}

// domain returns the current domain. Consecutive occurrences in an unchanged
// state share one Domain, so that later stages can count it once: the state
// changes only by appending (a longer slice) or by replacing its slices.
func (d *domainState) domain() *Domain {
	if s := d.snap; s != nil && len(d.vars) == len(s.Vars) && len(d.conds) == len(s.Cond) &&
		unsafe.SliceData(d.vars) == d.snapVars && unsafe.SliceData(d.conds) == d.snapConds &&
		symbolic.Equal(d.factor, s.Factor) {
		return s
	}
	d.snap = &Domain{Vars: slices.Clone(d.vars), Cond: slices.Clone(d.conds), Factor: d.factor}
	d.snapVars, d.snapConds = unsafe.SliceData(d.vars), unsafe.SliceData(d.conds)
	return d.snap
}

func (ev *evaluator) diag(pos apt.Pos, sev apt.Severity, msg string) {
	key := pos.String() + msg
	if ev.diagSeen[key] {
		return
	}
	ev.diagSeen[key] = true
	ev.res.Diags = append(ev.res.Diags, apt.Diagnostic{Pos: pos, Severity: sev, Msg: msg})
}

// loopVarName returns a name for a loop's index variable that no enclosing
// loop and no parameter uses. Sibling loops may share names, so that equal
// iteration domains print equally and are counted once.
func (ev *evaluator) loopVarName(base string) string {
	taken := func(n string) bool {
		return ev.used[n] || slices.Contains(ev.cur.vars, n)
	}
	if !taken(base) {
		return base
	}
	// The names base_2 .. base_k parameters hold are skipped at once
	// (usedThrough): a base many parameters were named after (one per
	// use of a value) made every loop named after it walk them all.
	i := max(2, ev.usedThrough[base]+1)
	for ev.used[base+"_"+strconv.Itoa(i)] {
		i++
	}
	ev.usedThrough[base] = i - 1
	name := base + "_" + strconv.Itoa(i)
	for taken(name) {
		i++
		name = base + "_" + strconv.Itoa(i)
	}
	return name
}

// freshName returns a symbol name based on base not used yet.
func (ev *evaluator) freshName(base string) string {
	if base == "" {
		base = "v"
	}
	taken := func(n string) bool {
		return ev.used[n] || ev.cur != nil && slices.Contains(ev.cur.vars, n)
	}
	name := base
	// The next suffix to try is remembered per base, so that naming many
	// values after one variable stays linear.
	for i := max(2, ev.suffix[base]); taken(name); i++ {
		name = base + "_" + strconv.Itoa(i)
		ev.suffix[base] = i + 1
	}
	ev.used[name] = true
	return name
}

// releaseName makes a name freshName gave free again (its parameter was
// discarded with an abandoned run).
func (ev *evaluator) releaseName(name string) {
	delete(ev.used, name)
	i := strings.LastIndexByte(name, '_')
	if i < 0 {
		return
	}
	if n, err := strconv.Atoi(name[i+1:]); err == nil {
		if n < ev.suffix[name[:i]] {
			ev.suffix[name[:i]] = n
		}
		if n <= ev.usedThrough[name[:i]] {
			ev.usedThrough[name[:i]] = n - 1
		}
	}
}

// newParam registers a parameter.
func (ev *evaluator) newParam(hint string, origin Origin, pos apt.Pos, what string, real bool) *Param {
	p := &Param{Name: ev.freshName(hint), Origin: origin, Pos: pos, What: what, Real: real, inert: ev.inert > 0}
	if debugRuns {
		fmt.Fprintf(os.Stderr, "newParam %s probing=%d byRank=%d: %s\n", p.Name, ev.probing, ev.byRankDepth, what)
		if os.Getenv("MKVET_DEBUG_STACK") == p.Name {
			debug.PrintStack()
		}
	}
	if v, ok := ev.values[p.Name]; ok {
		p.Value = &v
	}
	ev.params[p.Name] = p
	ev.res.Params = append(ev.res.Params, p)
	return p
}

// expr is the parameter's symbol, or its value at the point.
func (p *Param) expr() symbolic.Expr {
	if p.Value != nil {
		return symbolic.Int(*p.Value)
	}
	if p.Real {
		return symbolic.RealSym(p.Name)
	}
	return symbolic.Sym(p.Name)
}

// collectAnnotations reads `!mk$ param` and `!mk$ assume` from every routine
// and finds the variables that receive the size and rank.
func (ev *evaluator) collectAnnotations(opt Options) {
	ev.annotated = map[string]bool{}
	ev.paramKeys = map[string]string{}
	ev.routineParams = map[*apt.Routine][]string{}
	for _, r := range allRoutines(ev.prog) {
		apt.Inspect(r, func(n apt.Node) bool {
			if c, ok := n.(*apt.Comm); ok {
				if nm, ok := c.Result.(*apt.Name); ok {
					switch c.Op {
					case apt.MPICommSize:
						ev.sizeVars[nm.Name] = true
					case apt.MPICommRank:
						ev.rankVars[nm.Name] = true
					}
				}
			}
			return true
		})
	}
	add := func(name string, pos apt.Pos, def apt.Expr, r *apt.Routine) {
		name = strings.ToLower(name)
		if r != nil {
			ev.routineParams[r] = append(ev.routineParams[r], name)
		} else {
			ev.annotated[name] = true
		}
		if ev.params[name] != nil {
			return
		}
		ev.used[name] = true
		p := &Param{Name: name, Origin: FromAnnotation, Pos: pos, What: "the parameter " + name}
		self := false
		if def != nil {
			apt.InspectExpr(def, func(x apt.Expr) bool {
				if nm, ok := x.(*apt.Name); ok && strings.EqualFold(nm.Name, name) {
					self = true
				}
				return !self
			})
		}
		if self {
			ev.diag(pos, apt.Warning, "the default value of parameter "+name+" names "+name+" itself; it is ignored")
			def = nil
		}
		if def != nil {
			if e, ok := ev.annotationExpr(def, r); ok {
				p.Default = &e
			} else {
				ev.diag(pos, apt.Warning, "cannot read the default value of parameter "+name)
			}
		}
		if v, ok := ev.values[name]; ok {
			p.Value = &v
		} else if p.Default != nil && ev.values != nil {
			if c, ok := p.Default.Int64(); ok {
				p.Value = &c
			}
		}
		ev.params[name] = p
		ev.res.Params = append(ev.res.Params, p)
	}
	for _, r := range allRoutines(ev.prog) {
		for _, p := range r.Params {
			add(p.Name, p.Pos, p.Value, r)
		}
	}
	for _, n := range opt.Params {
		add(n, apt.Pos{}, nil, nil)
	}
	for _, r := range allRoutines(ev.prog) {
		for _, a := range r.Assumes {
			f, ok := ev.annotationCond(a.Cond, r)
			if !ok {
				ev.diag(a.Pos, apt.Warning, "cannot read the assumption "+ev.src(a.Cond)+" as relations between parameters")
				continue
			}
			ev.annotAssume = append(ev.annotAssume, f...)
		}
	}
}

func allRoutines(p *apt.Program) []*apt.Routine {
	var out []*apt.Routine
	var add func(rs []*apt.Routine)
	add = func(rs []*apt.Routine) {
		for _, r := range rs {
			out = append(out, r)
			add(r.Contains)
		}
	}
	add(p.Routines)
	return out
}

// annotationExpr reads an annotation's expression: names are parameters, the
// size and rank variables P and rank, PARAMETER constants their values.
func (ev *evaluator) annotationExpr(e apt.Expr, r *apt.Routine) (symbolic.Expr, bool) {
	saved := ev.frames
	defer func() { ev.frames = saved }()
	fr := &frame{routine: r, id: "annot"}
	if r == nil {
		fr.routine = &apt.Routine{Scope: &apt.Scope{}}
	}
	ev.frames = []*frame{fr}
	for _, n := range ev.routineParams[r] {
		if !ev.annotated[n] {
			ev.annotated[n] = true
			defer delete(ev.annotated, n)
		}
	}
	savedEnv := ev.env
	ev.env = newEnv()
	defer func() { ev.env = savedEnv }()
	for n := range ev.sizeVars {
		if !ev.annotated[n] {
			ev.env.set(ev.key(n), Known(symbolic.Sym(Size)))
		}
	}
	for n := range ev.rankVars {
		if !ev.annotated[n] {
			ev.env.set(ev.key(n), Known(symbolic.Sym(Rank)))
		}
	}
	v := ev.value(e)
	return v.Single()
}

func (ev *evaluator) annotationCond(e apt.Expr, r *apt.Routine) ([]symbolic.Relation, bool) {
	var rels []symbolic.Relation
	var walk func(e apt.Expr) bool
	walk = func(e apt.Expr) bool {
		b, ok := e.(*apt.Binary)
		if !ok {
			return false
		}
		if b.Op == apt.OpAnd {
			return walk(b.X) && walk(b.Y)
		}
		x, ok1 := ev.annotationExpr(b.X, r)
		y, ok2 := ev.annotationExpr(b.Y, r)
		if !ok1 || !ok2 {
			return false
		}
		op, ok := relOps[b.Op]
		if !ok {
			return false
		}
		rels = append(rels, symbolic.Rel(x, op, y))
		return true
	}
	return rels, walk(e)
}

var relOps = map[apt.Op]string{apt.OpGe: ">=", apt.OpGt: ">", apt.OpLe: "<=", apt.OpLt: "<", apt.OpEq: "=="}

func (ev *evaluator) frame() *frame { return ev.frames[len(ev.frames)-1] }

// key returns the storage key of name as seen from the current frame.
func (ev *evaluator) key(name string) string {
	fr := ev.frame()
	if k, ok := fr.alias[name]; ok {
		return k
	}
	if k, ok := fr.globals[name]; ok {
		return k
	}
	v := ev.prog.Resolve(fr.routine, name)
	if v == nil {
		return fr.id + "." + name
	}
	k := ev.storageKey(fr, v, name)
	if !strings.HasPrefix(k, fr.id+".") {
		if fr.globals == nil {
			fr.globals = map[string]string{}
		}
		fr.globals[name] = k
	}
	return k
}

// storageKey is key's answer for a name the frame's routine resolves to
// v: a local's key, or that of the storage it shares.
func (ev *evaluator) storageKey(fr *frame, v *apt.Var, name string) string {
	if v.InCommon {
		for _, c := range fr.routine.Scope.Commons {
			if c.Name == v.Common {
				if i := slices.Index(c.Vars, name); i >= 0 {
					k := "/" + c.Name + "/#" + strconv.Itoa(i)
					ev.noteStatic(k, v, true)
					return k
				}
			}
		}
	}
	if fr.routine.Kind != apt.KindModule && fr.routine.Scope.Lookup(name) == v && !ev.savedLocal(v) {
		// A local: its key is built once a frame (a loop run iteration
		// by iteration asks for it on every reference).
		k, ok := fr.locals[name]
		if !ok {
			k = fr.id + "." + name
			if fr.locals == nil {
				fr.locals = map[string]string{}
			}
			fr.locals[name] = k
		}
		return k
	}
	// A variable of a host routine (an internal procedure reading its
	// host's dummy n): the host's frame's storage.
	if k, ok := ev.hostKey(v, name); ok {
		return k
	}
	// A module or host variable, or a SAVE one: one storage for the
	// whole run.
	k := fmt.Sprintf("g%p.%s", v, name)
	if fr.routine.Kind != apt.KindModule && fr.routine.Scope.Lookup(name) == v {
		if ev.savedIn == nil {
			ev.savedIn = map[string]*apt.Routine{}
		}
		ev.savedIn[k] = fr.routine
	}
	if _, seen := ev.statics[k]; !seen {
		ev.noteStatic(k, v, ev.prog.Static(fr.routine, name))
	}
	if len(v.Init) == 1 && !v.IsArray() {
		if ev.initialised == nil {
			ev.initialised = map[string]*apt.Var{}
		}
		ev.initialised[k] = v
	}
	if len(v.Init) > 0 && v.IsArray() {
		if ev.initialArrays == nil {
			ev.initialArrays = map[string]*apt.Var{}
		}
		ev.initialArrays[k] = v
	}
	return k
}

// presentIntrinsic evaluates PRESENT(x) of a dummy of the current routine:
// whether its call gave x an actual argument.
func (ev *evaluator) presentIntrinsic(f *apt.FuncCall) (Value, bool) {
	if f.Name != "present" || len(f.Args) != 1 {
		return Value{}, false
	}
	nm, ok := f.Args[0].(*apt.Name)
	fr := ev.frame()
	if !ok || fr.present == nil || !slices.Contains(fr.routine.Formals, nm.Name) {
		return Value{}, false
	}
	return Known(symbolic.Int(b2i(fr.present[nm.Name]))), true
}

// absentOptional reports whether name is an optional dummy argument of
// the current routine that its call did not give.
func (ev *evaluator) absentOptional(name string) bool {
	if len(ev.frames) == 0 {
		return false
	}
	fr := ev.frame()
	if fr.present == nil || !slices.Contains(fr.routine.Formals, name) {
		return false
	}
	if d := fr.routine.Scope.Lookup(name); d == nil || !d.Optional {
		return false // (main's argc: a dummy no call gave, not an optional one)
	}
	return !fr.present[name]
}

// hostKey is the key of v, a variable of a routine (not a module) that
// hosts the current one, in the innermost frame of that routine: its
// argument's storage for a dummy, else its own local.
func (ev *evaluator) hostKey(v *apt.Var, name string) (string, bool) {
	if h := ev.prog.Host(ev.frame().routine); h == nil || h.Kind == apt.KindModule {
		return "", false // no routine hosts this one: module storage
	}
	for i := len(ev.frames) - 2; i >= 0; i-- {
		h := ev.frames[i]
		if h.routine.Kind == apt.KindModule || h.routine.Scope.Lookup(name) != v {
			continue
		}
		if k, ok := h.alias[name]; ok {
			return k, true
		}
		if k, ok := h.locals[name]; ok {
			return k, true
		}
		return h.id + "." + name, true
	}
	return "", false
}

// initialValue is the value a variable has before any assignment, read
// from its initialiser (a C global or static, Fortran's DATA or an
// initialised SAVE variable), for a storage key the state has no value
// for: a variable read for the first time in one arm of an IF holds it in
// the others.
func (ev *evaluator) initialValue(k string) (Value, bool) {
	if strings.HasPrefix(k, fileKey("")) {
		// A file the program has not made is taken as absent (files.go).
		return Known(symbolic.Int(0)), true
	}
	v := ev.initialised[k]
	if v == nil {
		return Value{}, false
	}
	if v.Procedure {
		iv := ev.procValue(v.Init[0])
		return iv, iv.IsKnown()
	}
	iv := ev.value(v.Init[0])
	return iv, iv.IsKnown()
}

// newOcc records an occurrence of n in the current domain.
func (ev *evaluator) newOcc(n apt.Node, parent *Occ) *Occ {
	ev.noccs++
	ev.visits++
	if ev.probing > 0 {
		ev.trialVisits++
	}
	if ev.running > 0 || ev.probing > 0 {
		// The work of runs and probes, against their budgets.
		ev.runVisits++
	}
	if ev.noccs > ev.maxOccs && ev.err == nil {
		ev.err = fmt.Errorf("%w (more than %d node occurrences)", ErrTooLarge, ev.maxOccs)
	}
	o := &Occ{Node: n, Routine: ev.frame().routine, Parent: parent, Dom: ev.cur.domain(), Depth: ev.loopDepth}
	switch {
	case ev.cur.inexact != "":
		o.Inexact, o.Note = true, ev.cur.inexact
	case ev.skipped != "":
		o.Inexact, o.Note = true, ev.skipped
	}
	if parent != nil {
		parent.Children = append(parent.Children, o)
	}
	return o
}

// actualsByFormal puts a call's actual arguments in the order of r's
// dummies: positional ones first, then those given by keyword
// (sweeps=2), by name; a dummy given none (OPTIONAL) has nil. Calls
// with no keyword are returned as they are.
func actualsByFormal(r *apt.Routine, args []apt.Expr) []apt.Expr {
	keyed := false
	for _, a := range args {
		if _, ok := a.(*apt.Keyword); ok {
			keyed = true
		}
	}
	if !keyed {
		return args
	}
	byName := runenv.Actuals(args, r.Formals)
	out := make([]apt.Expr, len(r.Formals))
	for i, formal := range r.Formals {
		out[i] = byName[formal]
	}
	return out
}

// callRoutine walks r's body in a new frame with the actual arguments bound
// and returns the routine's occurrence; result receives a function's value.
func (ev *evaluator) callRoutine(r *apt.Routine, args []apt.Expr, parent *Occ, result *Value) *Occ {
	if why := ev.recursionRefused(r); why != "" {
		at := r.Span.Start()
		if parent != nil {
			at = parent.Node.Base().Span.Start() // the call
		}
		ev.diag(at, apt.Warning, "recursive call of "+r.Name+" is not evaluated ("+why+"): its cost is left out")
		ev.leftOutRecursion(r)
		if result != nil {
			*result = unknownValue(r.Name, "the result of the recursive function "+r.Name, false)
		}
		return nil
	}
	ev.nframe++
	fr := &frame{routine: r, id: "f" + strconv.Itoa(ev.nframe), alias: map[string]string{}, aheadBase: len(ev.ahead)}
	// Bind actuals in the caller's frame before pushing the callee's.
	byValue := map[string]Value{}
	var byElement []string // arrays passed from an element the routine may assign
	var parts []partArg    // components of elements the routine may assign
	var sections []sectionArg
	var elemShapes []elemShapeArg // allocatable components of elements bound to dummies
	args = actualsByFormal(r, args)
	fr.present = map[string]bool{}
	for i, formal := range r.Formals {
		if i >= len(args) || formal == "*" || args[i] == nil {
			continue
		}
		a := args[i]
		if nm, isName := a.(*apt.Name); isName && ev.absentOptional(nm.Name) {
			// An optional dummy of the caller that is itself absent,
			// passed on: absent here too (Fortran 2018 15.5.2.12).
			continue
		}
		fr.present[formal] = true
		if n, ok := ev.charLen(a); ok {
			// An assumed-length character dummy has its actual's length.
			if fr.charLens == nil {
				fr.charLens = map[string]int64{}
			}
			fr.charLens[formal] = n
		}
		if d := r.Scope.Lookup(formal); d != nil && d.IsArray() {
			if id, ok := ev.freshID(a); ok {
				if fr.storage == nil {
					fr.storage = map[string]string{}
				}
				fr.storage[formal] = id
			}
		}
		if nm, isName := a.(*apt.Name); isName {
			if p := ev.procedureNamed(ev.frame().routine, nm); p != nil {
				// A procedure handed over as an argument: its number.
				byValue[formal] = Known(symbolic.Int(ev.procCode(p)))
				continue
			}
			if v, ok := ev.libraryValue(nm); ok {
				byValue[formal] = v
				continue
			}
		}
		if nm, isName := a.(*apt.Name); isName && ev.cPointers() && ev.addressOnly(nm) {
			if d := r.Scope.Lookup(formal); d != nil && d.IsArray() {
				// A dummy that holds only an address (&a[k], p + 1),
				// handed on: the callee's dummy gets the address too,
				// and reaches the storage through it.
				continue
			}
		}
		if nm, isName := a.(*apt.Name); isName && ev.cPointers() && ev.isPointerVar(nm) {
			if d := r.Scope.Lookup(formal); d != nil && !d.IsArray() && !d.Pointer && numeric(d.Type) {
				// A C pointer handed on to a function that reads or
				// writes what it points to (*p): the element there.
				a = pointedElement(nm)
			}
		}
		if c, isComp := a.(*apt.Component); isComp && ev.cPointers() {
			if v, ok := ev.subobjectAddr(c); ok {
				// A structure at the start of an element of an array
				// of structures (&blocks[k].hdr, a member function of
				// a base called on this->_M_impl): the dummy points
				// there, to that element, as the run's does.
				byValue[formal] = v
				continue
			}
		}
		if k, ok := ev.refKey(a); ok {
			fr.alias[formal] = k
			ev.noteActualType(a, k)
			if c, isComp := a.(*apt.Component); isComp {
				if _, had := ev.env.lookup(k); !had {
					// A component still at its default initialisation:
					// the dummy reads that value.
					if v, ok := ev.componentDefault(c); ok {
						ev.env.set(k, v)
					}
				}
			}
			if nm, isName := a.(*apt.Name); isName {
				if d := r.Scope.Lookup(formal); d != nil && d.IsArray() {
					if _, definite, ok := ev.arrayIdentity(nm.Name); !ok || !definite {
						if fr.sharedStorage == nil {
							fr.sharedStorage = map[string]bool{}
						}
						fr.sharedStorage[formal] = true
					}
				}
			}
			if nm, isName := a.(*apt.Name); isName && !nm.Array {
				// A variable still at its initial value (a module's
				// integer :: iunit = 10) holds it in its storage, where
				// the dummy finds it.
				if _, stored := ev.env.lookup(k); !stored {
					if d := ev.prog.Resolve(ev.frame().routine, nm.Name); d != nil && len(d.Init) == 1 && !d.IsArray() && d.Param == nil {
						if v := ev.value(d.Init[0]); v.IsKnown() || v.str != nil {
							ev.env.set(k, v)
						}
					}
				}
			}
			if d := r.Scope.Lookup(formal); d != nil && d.IsArray() && !d.Allocatable && !d.Pointer && needsShape(d.Dims) {
				// An assumed-shape dummy has its actual's extents.
				if exts, ok := ev.actualShape(a); ok {
					if fr.shapes == nil {
						fr.shapes = map[string][]Value{}
					}
					fr.shapes[formal] = exts
				}
			}
			if nm, isName := a.(*apt.Name); isName {
				// An assumed-size dummy has the elements of its actual.
				if n, ok := ev.arrayElems(nm.Name); ok {
					if fr.elems == nil {
						fr.elems = map[string]symbolic.Expr{}
					}
					fr.elems[formal] = n
				}
			}
			continue
		}
		if ix, isIx := a.(*apt.Index); isIx && (ev.cPointers() || ix.Type.Base == apt.TypeDerived) {
			if ev.cPointers() {
				if v, ok := ev.structAddr(ix); ok {
					// A pointer to an element of an array of structures
					// the evaluation follows: the dummy holds its address.
					byValue[formal] = v
					continue
				}
			}
			elemShapes = append(elemShapes, ev.elemShapeArgs(r, formal, ix)...)
			// An element of an array of structures bound to a dummy of
			// its type (C's &items[k], Fortran's relax(blocks(b))): the
			// dummy's scalar components are the element's.
			if v, ps, ok := ev.elementArg(r, formal, ix); ok {
				byValue[formal] = v
				if ev.summarize(r).formals[i] {
					parts = append(parts, ps...)
				}
				continue
			}
		}
		if ix, isIx := a.(*apt.Index); isIx {
			if d := r.Scope.Lookup(formal); d != nil && d.IsArray() && !d.Pointer && !d.Allocatable {
				if needsShape(d.Dims) && hasSection(ix) {
					// An assumed-shape dummy has the section's extents,
					// whether or not its values are carried.
					if exts, ok := ev.actualShape(a); ok {
						if fr.shapes == nil {
							fr.shapes = map[string][]Value{}
						}
						fr.shapes[formal] = exts
					}
				}
				if v, refs, ok := ev.sectionActual(ix); ok {
					byValue[formal] = v
					if ev.summarize(r).formals[i] {
						sections = append(sections, sectionArg{formal: formal, refs: refs})
					}
					continue
				}
			}
		}
		if ix, isIx := a.(*apt.Index); isIx && ev.summarize(r).formals[i] {
			if d := r.Scope.Lookup(formal); d != nil && !d.IsArray() && !d.Pointer && d.Type.Base != apt.TypeCharacter && d.Type.Base != apt.TypeDerived && !hasSection(ix) {
				// An element bound to a scalar dummy the routine may
				// assign (CALL get(n(k)), put(&a[k], v)): its value is
				// stored back where the call found it.
				if key, off, ok := ev.arrayRef(ix); key != "" && ok {
					parts = append(parts, partArg{formal: formal, key: key, off: off, ok: ok, t: ix.Type})
					byValue[formal] = ev.value(a)
					continue
				}
			}
			if k, ok := ev.arrayKey(ix); ok {
				byElement = append(byElement, k)
			}
		}
		if c, isComp := a.(*apt.Component); isComp {
			if d := r.Scope.Lookup(formal); d != nil && d.IsArray() && !d.Allocatable && !d.Pointer && needsShape(d.Dims) {
				// An array component of an element (lev(l)%r) bound to
				// an assumed-shape dummy: the element's extents.
				if exts, ok := ev.actualShape(a); ok {
					if fr.shapes == nil {
						fr.shapes = map[string][]Value{}
					}
					fr.shapes[formal] = exts
				}
			}
			if key, off, ok := ev.fieldRef(c); key != "" && ev.summarize(r).formals[i] {
				// A scalar component of an array element: the routine's
				// value is stored back where the call found it.
				parts = append(parts, partArg{formal: formal, key: key, off: off, ok: ok, t: c.Type})
			}
			if v, key, ok := ev.blockOf(c); ok {
				// A whole array component of an element of an array of
				// derived type (tiles(t)%neighbours): its elements, copied
				// in; what the routine may store there is not followed.
				byValue[formal] = v
				if ev.summarize(r).formals[i] {
					byElement = append(byElement, key)
				}
				continue
			}
		}
		byValue[formal] = ev.value(a)
	}
	defer func() {
		for _, k := range byElement {
			ev.clobber(k)
		}
	}()
	byAddr := ev.formalAddrs(r, args) // in the caller's frame
	var o *Occ
	if parent == nil {
		// The entry routine.
		ev.frames = append(ev.frames, fr)
		o = ev.newOcc(r, nil)
	} else {
		o = ev.newOcc(r, parent)
		ev.frames = append(ev.frames, fr)
	}
	for formal, v := range byValue {
		ev.assignKey(fr.id+"."+formal, v)
	}
	for formal, v := range byAddr {
		ev.setAddr(fr.id+"."+formal+addrSuffix, v)
	}
	ev.bindElemShapes(fr.id, elemShapes)
	if parent == nil {
		// The entry routine's arguments come from a caller the analysis
		// does not see.
		for _, formal := range r.Formals {
			if formal == "*" {
				continue
			}
			decl := r.Scope.Lookup(formal)
			real := decl == nil || decl.Type.Base != apt.TypeInteger
			u := &unknown{hint: formal, what: "the argument " + formal + " of " + r.Name, real: real}
			if len(r.Formals) >= 2 && formal == r.Formals[0] && !real && ev.args == nil && len(r.Body) > 0 && r.Kind == apt.KindProgram {
				// C's argc: how many arguments the program was given.
				k, looped := parsedArgs(ev.prog)
				if k == 0 && looped {
					// Its options are read in a loop over the arguments,
					// however many there are: without -args the run is
					// taken to be given none, so the program's defaults
					// hold, as they do for mpirun ... ./prog.
					ev.assignKey(fr.id+"."+formal, Known(symbolic.Int(1)))
					ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: r.Span.Start(),
						What: fmt.Sprintf("the program reads its arguments in a loop: it is taken to run with none, %s = 1, its defaults (-args gives the arguments)", formal), Args: true})
					continue
				}
				if k > 0 {
					// The program parses argv[1..k] into values the
					// point names (-D n=...): it is taken to run with
					// them, so a test such as argc > 1 picks them over
					// its own defaults.
					ev.assignKey(fr.id+"."+formal, Known(symbolic.Int(int64(k+1))))
					them, with := fmt.Sprintf("argv[1..%d]", k), "them"
					if k == 1 {
						them, with = "argv[1]", "it"
					}
					ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: r.Span.Start(),
						What: fmt.Sprintf("the program parses %s: it is taken to run with %s, %s = %d (-args gives the arguments)", them, with, formal, k+1), Args: true})
					continue
				}
				u.what, u.cmdline = formal+" (the argument count)", true
			}
			ev.assignKey(fr.id+"."+formal, Value{unk: u})
		}
		if ev.args != nil && len(r.Formals) >= 2 {
			// C's main(argc, argv) with the arguments given.
			ev.argvKey = fr.id + "." + r.Formals[1]
			ev.assignKey(fr.id+"."+r.Formals[0], Known(symbolic.Int(int64(len(ev.args)+1))))
		}
	}
	for _, name := range ev.routineParams[r] {
		ev.paramKeys[ev.key(name)] = name
	}
	if parent != nil {
		ev.initLocalComponents(r)
	}
	ev.initAllocStatus(r)
	saved := ev.cur
	ev.cur = ev.cur.clone()
	ev.cur.stopConds = nil
	fr.entry = ev.cur.clone()
	entryEnv := ev.env.clone()
	ev.walk(r.Body, o)
	ev.markLeftOutRecursion(r, o)
	ev.joinReturns(fr, entryEnv, !ev.cur.dead)
	if fr.gotos > 0 && o != nil {
		// A jump the evaluation does not model may repeat or skip any
		// statement of the routine.
		markInexact(o, "the routine has a jump (GO TO, EXIT, CYCLE) the evaluation does not model")
	}
	// A STOP in the routine ends the caller's path too: everywhere, or
	// where its conditions held (the caller goes on where none did).
	done := ev.cur
	ev.cur = saved
	if done.dead && done.halted && done.returned != nil {
		// The paths that jumped to an error exit stopped, after the
		// others had returned: the routine returns, with their values.
		ev.env = done.returned
		done.stopped = false
	} else if done.dead && done.stopped && len(fr.returns) > 0 && len(done.conds) > len(fr.entry.conds) {
		// Some paths returned before the rest stopped: the failures of a
		// check after an early return (if (n <= max) return new T[n];
		// then throw bad_alloc). As a check taken as passing, the routine
		// returns, with their values (joinReturns), and a note says so.
		done.stopped = false
		ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: done.stopAt,
			What: "the error exit at " + done.stopAt.String() + " is reached only where " + r.Shown() +
				" has not returned before it, which the evaluation cannot decide; the counts take the routine as returning"})
	}
	if done.dead && done.stopped {
		ev.cur.dead, ev.cur.cycled, ev.cur.stopped, ev.cur.stopAt = true, false, true, done.stopAt
	} else {
		for _, c := range done.stopConds {
			if formulaMentionsAny(c, done.vars[len(saved.vars):]) {
				ev.cur.inexact = "follows a routine that may stop under a condition on its own loop"
				continue
			}
			ev.cur.conds = append(ev.cur.conds, not(c))
			ev.cur.stopConds = append(ev.cur.stopConds, c)
		}
	}
	if parent == nil {
		ev.entryEnd = done
	}
	if result != nil && (r.Kind == apt.KindFunction) {
		res := r.Result
		if res == "" {
			res = r.Name
		}
		*result = ev.load(res)
		ev.resultShape = nil
		if d := r.Scope.Lookup(res); d != nil && d.IsArray() {
			if bs, ok := ev.arrayBounds(res, d); ok {
				ev.resultShape = bs
			}
		}
	}
	ev.frames = ev.frames[:len(ev.frames)-1]
	ev.returnElemShapes(fr.id, elemShapes)
	for _, p := range parts {
		ev.storeAt(p.key, p.off, p.ok, nil, p.t, ev.env.get(fr.id+"."+p.formal))
	}
	for _, s := range sections {
		ev.copyOut(fr.id+"."+s.formal, s.refs)
	}
	prefix := fr.id + "."
	ev.keepAllocs(fr)
	ev.env.dropFrame(prefix)
	return o
}

// refKey returns the storage key an actual argument passes by reference: a
// variable or a component of one. PARAMETER constants and parameters pass
// by value.
func (ev *evaluator) refKey(a apt.Expr) (string, bool) {
	switch x := a.(type) {
	case *apt.Name:
		if ev.annotated[x.Name] {
			return "", false
		}
		if v := ev.prog.Resolve(ev.frame().routine, x.Name); v != nil && v.Param != nil {
			return "", false
		}
		return ev.key(x.Name), true
	case *apt.Component:
		if k, ok := ev.objectKey(x.Base); ok {
			return k + "%" + x.Field, true
		}
		if k, ok := ev.refKey(x.Base); ok {
			return k + "%" + x.Field, true
		}
	}
	return "", false
}

// load returns the value of a variable, reading PARAMETER values and
// initialisers on first use.
func (ev *evaluator) load(name string) Value {
	if pn := ev.paramName(name); pn != "" {
		if p := ev.params[pn]; p != nil {
			return Known(p.expr())
		}
		// A parameter read while its own annotation is read (its default
		// names it): it has no value yet.
		return unknownValue(pn, "the parameter "+pn+" in its own default", false)
	}
	if ev.hpfSize[name] {
		return Known(symbolic.Sym(Size))
	}
	k := ev.key(name)
	if v, ok := ev.env.lookup(k); ok {
		return v
	}
	if fields := ev.loadFields(k); fields != nil {
		return Value{Fields: fields}
	}
	decl := ev.prog.Resolve(ev.frame().routine, name)
	if decl != nil {
		if decl.Param != nil {
			if v, ok := ev.named[decl]; ok {
				return v
			}
			v := ev.value(decl.Param)
			if x, ok := v.Single(); ok && v.Fields == nil {
				if _, ok := x.Const(); ok {
					if ev.named == nil {
						ev.named = map[*apt.Var]Value{}
					}
					ev.named[decl] = v
				}
			}
			return v
		}
		if decl.Procedure && decl.Pointer && len(decl.Init) == 1 {
			return ev.procValue(decl.Init[0])
		}
		if decl.Predefined != "" {
			if _, ok := apt.MPITypeSize(name); ok {
				return Value{dtype: name}
			}
			if len(decl.Init) == 0 && decl.Type.Base == apt.TypeInteger {
				// A handle MPI defines (MPI_IN_PLACE, MPI_DATATYPE_NULL):
				// a value of its own, equal to itself alone.
				return Known(symbolic.Int(handleValue(name)))
			}
		}
		if d := ev.slotInit(k, decl); len(d.Init) == 1 && !d.IsArray() {
			return ev.value(d.Init[0])
		}
	}
	if v, ok := ev.staticZero(k); ok {
		return v
	}
	return Value{unk: &unknown{hint: name, what: "the value of " + name + " before any assignment", real: decl != nil && decl.Type.Base != apt.TypeInteger, undef: true}}
}

func (ev *evaluator) loadFields(k string) map[string]Value {
	var out map[string]Value
	prefix := k + "%"
	for _, kk := range ev.env.withPrefix(prefix) {
		v, ok := ev.env.lookup(kk)
		if f := kk[len(prefix):]; ok {
			// Nested components too, by their paths (f%g): a structure
			// holding structures (a C++ object's members) copies whole.
			if out == nil {
				out = map[string]Value{}
			}
			out[f] = v
		}
	}
	return out
}

// paramName returns the parameter a variable stands for: a name given in
// Options.Params, or storage annotated `!mk$ param` by its routine.
func (ev *evaluator) paramName(name string) string {
	if ev.annotated[name] {
		return name
	}
	if len(ev.paramKeys) == 0 {
		return ""
	}
	return ev.paramKeys[ev.key(name)]
}

// store assigns v to the variable name, unless it is a parameter.
func (ev *evaluator) store(name string, v Value) {
	if ev.paramName(name) != "" {
		return
	}
	ev.assignKey(ev.key(name), v)
}

func (ev *evaluator) assignKey(k string, v Value) {
	if v.Fields != nil {
		prefix := k + "%"
		for _, kk := range ev.env.withPrefix(prefix) {
			ev.env.del(kk)
		}
		for f, fv := range v.Fields {
			ev.assignKey(k+"%"+f, fv)
		}
		ev.env.del(k)
		return
	}
	ev.noteHeapWrite(k)
	ev.env.set(k, ev.foldRanged(ev.pruneRanks(v)))
}

// parsedArgs is the highest k for which the program parses argv[k] into
// a value (apt.IO.Arg), in main or in a routine main passes argv to; 0
// when it parses none. looped is set when it parses arguments in a loop
// (an option loop).
func parsedArgs(p *apt.Program) (k int, looped bool) {
	// A read inside a loop (for (i = 1; i < argc; i++) ... argv[++i])
	// walks however many arguments there are: it says nothing of how
	// many the run has.
	inLoop := map[*apt.IO]bool{}
	apt.Inspect(p, func(n apt.Node) bool {
		if l, ok := n.(*apt.Loop); ok {
			apt.Inspect(l, func(m apt.Node) bool {
				if io, ok := m.(*apt.IO); ok {
					inLoop[io] = true
				}
				return true
			})
			return false
		}
		return true
	})
	walked := 0
	apt.Inspect(p, func(n apt.Node) bool {
		if io, ok := n.(*apt.IO); ok && io.Arg != nil {
			switch c, ok := constArg(io.Arg); {
			case ok:
				k = max(k, c)
			case inLoop[io]:
				looped = true
			default:
				// Read through a pointer the program moves (*++argv):
				// one argument each.
				walked++
			}
		}
		return true
	})
	return max(k, walked), looped
}

// initLocalComponents gives the scalar components with a default
// initialisation of a routine's local objects of derived type (a function's
// result among them) and of its INTENT(OUT) dummies their initial values,
// as each call does (Fortran 2018 7.5.4.6): a component assigned on some
// paths only (if (rank > 0) f%left = rank - 1) keeps its default on the
// others.
func (ev *evaluator) initLocalComponents(r *apt.Routine) {
	for _, v := range r.Scope.Vars {
		if v.Type.Base != apt.TypeDerived || v.Pointer || v.Allocatable || v.Save || len(v.Init) > 0 {
			continue
		}
		if v.IsArray() {
			if !v.Dummy {
				// A local array of the type: every element's
				// components start at their defaults.
				ev.initElemComponents(ev.key(v.Name), v.Type.Derived, 0)
			}
			continue
		}
		if v.Dummy && v.Intent != "out" {
			continue
		}
		key, ok := ev.refKey(&apt.Name{Name: v.Name, Type: v.Type})
		if !ok {
			continue
		}
		ev.initComponents(key, v.Type.Derived, 0)
	}
}

// initComponents sets the default-initialised scalar components of the
// object of type typ stored at key, through components of derived type.
func (ev *evaluator) initComponents(key, typ string, depth int) {
	ev.walkDefaults(key, typ, depth, func(k string, f *apt.Var, v Value) { ev.env.set(k, v) })
}

// initElemComponents sets, for an array of type typ stored at key (each
// component of its elements an array of its own at key%name), the
// default-initialised scalar components of every element: an ALLOCATE
// of the array, or a local array at each call, gives them (Fortran 2018
// 7.5.4.6), and an element the program never assigns keeps its default.
func (ev *evaluator) initElemComponents(key, typ string, depth int) {
	ev.walkDefaults(key, typ, depth, func(k string, f *apt.Var, v Value) {
		if e, single := v.Single(); single && tracked(f.Type) {
			b := Known(e)
			ev.env.set(k, Value{arr: &arrayState{base: &b}})
		}
	})
}

// walkDefaults calls set with the key and default value of each
// default-initialised scalar component of type typ under key, through
// components of derived type.
func (ev *evaluator) walkDefaults(key, typ string, depth int, set func(string, *apt.Var, Value)) {
	dt := ev.prog.LookupType(ev.frame().routine, typ)
	if dt == nil || depth > 8 {
		return
	}
	for _, f := range dt.Fields {
		if f.IsArray() || f.Pointer || f.Allocatable {
			continue
		}
		if f.Type.Base == apt.TypeDerived {
			ev.walkDefaults(key+"%"+f.Name, f.Type.Derived, depth+1, set)
			continue
		}
		if v, ok := ev.fieldDefault(f); ok {
			set(key+"%"+f.Name, f, v)
		}
	}
}

// componentDefault is the default initialisation of a scalar component
// the program has not assigned (type config_t; integer :: nx = 128): the
// value every object of the type starts with.
func (ev *evaluator) componentDefault(x *apt.Component) (Value, bool) {
	t := apt.TypeOf(x.Base)
	if t.Base != apt.TypeDerived {
		return Value{}, false
	}
	// A polymorphic object's components are its dynamic type's.
	types, ok := ev.dynTypes(x.Base)
	if !ok {
		types = []typeAlt{{name: t.Derived}}
	}
	var out []Alt
	for _, ta := range types {
		f := ev.fieldOfType(ta.name, x.Field)
		if f == nil {
			// A type without the component is not the one here (a
			// SELECT TYPE guard chose another).
			continue
		}
		v, ok := ev.fieldDefault(f)
		if !ok {
			return Value{}, false
		}
		for _, a := range v.Alts {
			out = append(out, Alt{Guard: and(ta.guard, a.Guard), E: a.E})
		}
	}
	return Value{Alts: mergeAlts(out)}, len(out) > 0
}

// fieldDefault is the value a scalar component's default initialisation
// gives, where it has one the evaluation knows.
func (ev *evaluator) fieldDefault(f *apt.Var) (Value, bool) {
	if len(f.Init) != 1 || f.IsArray() || f.Pointer || f.Allocatable {
		return Value{}, false
	}
	v := ev.value(f.Init[0])
	return v, v.IsKnown()
}

// unmodelledGoto notes a GO TO the evaluation does not follow: the path
// goes on as if it were not taken, and every count of the routine after
// it is approximate.
func (ev *evaluator) unmodelledGoto(n apt.Node) {
	ev.diag(n.Base().Span.Start(), apt.Warning, "GO TO is not modelled: counts after it assume the jump is not taken")
	ev.cur.inexact = "follows a GO TO the evaluation does not model"
	ev.frame().jumps++
	ev.frame().gotos++
}

// handleValue is a predefined MPI handle's value in the evaluation: a
// negative number of its own, apart from every constant mpif.h gives.
func handleValue(name string) int64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return -1_000_000 - int64(h.Sum32()%1_000_000)
}

// constArg is the index an apt.IO.Arg names when it is a literal.
func constArg(e apt.Expr) (int, bool) {
	c, ok := e.(*apt.Const)
	if !ok || c.Kind != apt.ConstInt {
		return 0, false
	}
	v, ok := constValue(c).Single()
	if !ok {
		return 0, false
	}
	k, ok := v.Int64()
	return int(k), ok
}

// paramOf returns the parameter an unknown value stands for where a closed
// form is needed, creating it on first use.
func (ev *evaluator) paramOf(u *unknown, pos apt.Pos) symbolic.Expr {
	if u.live() == nil {
		origin := FromUnresolved
		if u.cmdline {
			origin = FromArguments
		}
		if !pos.IsValid() {
			pos = ev.nodePos
		}
		u.param = ev.newParam(u.hint, origin, pos, u.what, u.real)
		if u.lo != nil && u.hi != nil {
			// A bounded value: the midpoint stands for it where it moves
			// the work too little to ask for (analyzer MK3001).
			u.param.Lo, u.param.Hi = u.lo, u.hi
			mid := symbolic.FloorDiv(u.lo.Add(*u.hi), symbolic.Int(2))
			u.param.Default = &mid
		}
	}
	if u.probed {
		ev.probedParams[u.param.Name] = true
	}
	return u.param.expr()
}

// walk evaluates a statement list.
func (ev *evaluator) walk(nodes []apt.Node, parent *Occ) { ev.walkSeq(nodes, parent, nil) }

// walkSeq is walk with visit, where given, evaluating each statement the
// list runs in sequence in place of node (the body of a loop built from GO
// TO marks its tests there).
func (ev *evaluator) walkSeq(nodes []apt.Node, parent *Occ, visit func(i int, n apt.Node)) {
	ahead := labelsAfter(nodes)
	ev.ahead = append(ev.ahead, nil)
	defer func() { ev.ahead = ev.ahead[:len(ev.ahead)-1] }()
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if ev.err != nil {
			return
		}
		ev.ahead[len(ev.ahead)-1] = ahead[i]
		lbl := n.Base().Label
		if lbl != "" {
			if js := ev.cur.pending[lbl]; len(js) > 0 {
				ev.rejoin(lbl)
			}
			if j := backJump(nodes, i, lbl); j >= i && !ev.cur.dead && !ev.atGotoHead(lbl) {
				ev.ahead[len(ev.ahead)-1] = ahead[j]
				ev.gotoLoop(nodes[i:j+1], parent, lbl)
				i = j
				continue
			}
		}
		fr := ev.frame()
		if rs := fr.running(); rs != nil && lbl != "" && fr.loops[len(fr.loops)-1].EndLabel == lbl {
			// The terminal statement of a DO being run: the paths that
			// cycled rejoin before it.
			if len(ev.cur.pending[rs.cycle]) > 0 {
				ev.rejoin(rs.cycle)
			}
		} else if lbl := n.Base().Label; lbl != "" && len(fr.loops) > 0 && fr.loops[len(fr.loops)-1].EndLabel == lbl &&
			(!ev.cur.dead || ev.cur.cycled) {
			// The DO's terminal statement: every iteration reaches it,
			// including those that jumped here.
			inexact, pending := ev.cur.inexact, ev.cur.pending
			ev.cur = fr.entries[len(fr.entries)-1].clone()
			if inexact != "" {
				ev.cur.inexact = inexact
			}
			// Paths that jumped out of the loop still wait at their labels.
			ev.cur.pending = pending
		}
		if ev.cur.dead {
			continue
		}
		ev.follower = ""
		if i+1 < len(nodes) {
			ev.follower = nodes[i+1].Base().Label
		}
		ev.rest = nodes[i+1:]
		if visit != nil {
			visit(i, n)
			continue
		}
		ev.node(n, parent)
	}
}

// jumpTo evaluates a jump of the current path to label from node n (a GO TO,
// an ERR= branch): to the innermost DO's terminal statement it is a CYCLE,
// forward it waits at its label, where the paths rejoin; any other jump is
// not modelled.
func (ev *evaluator) jumpTo(label string, n apt.Node) {
	if gh := ev.gotoHeadOf(label); gh != nil {
		// Back to the head of the loop built from GO TO: its next run.
		if gh.next != "" {
			ev.pendingJump(gh.next)
			return
		}
		ev.cur.dead, ev.cur.cycled = true, true
		return
	}
	if fl := ev.frame().loops; len(fl) > 0 && fl[len(fl)-1].EndLabel == label {
		if rs := ev.frame().running(); rs != nil {
			ev.pendingJump(rs.cycle)
			return
		}
		ev.cur.dead, ev.cur.cycled = true, true
		return
	}
	if ev.forward(label) {
		ev.pendingJump(label)
		return
	}
	ev.diag(n.Base().Span.Start(), apt.Warning, "GO TO is not modelled: counts after it assume the jump is not taken")
	ev.cur.inexact = "follows a GO TO the evaluation does not model"
	ev.frame().jumps++
	ev.frame().gotos++
}

func (ev *evaluator) node(n apt.Node, parent *Occ) {
	if ev.probeSkip != nil && ev.probeSkip[n] {
		return // outside the slice a probe or a slice run runs (probeSliceOf, carrySliceOf)
	}
	if p := n.Base().Span.Start(); p.IsValid() {
		ev.nodePos = p
	}
	switch n := n.(type) {
	case *apt.Block:
		ev.block(n, parent)
	case *apt.Loop:
		ev.loop(n, parent)
	case *apt.If:
		ev.ifNode(n, parent)
	case *apt.Call:
		o := ev.newOcc(n, parent)
		saved := ev.stmtOcc
		ev.stmtOcc = o
		ev.call(n, o)
		ev.stmtOcc = saved
	case *apt.Comm:
		ev.comm(n, parent)
		for _, a := range n.Args {
			ev.touch(a) // a message received into it (firsttouch.go)
		}
	case *apt.IO:
		if n.Kind == apt.IORead {
			for _, it := range n.Items {
				ev.touch(it)
			}
		}
		ev.newUnit(n)
		ev.closeFile(n)
		ev.followUnit(n)
		if ev.openInput(n, parent) {
			return
		}
		o := ev.newOcc(n, parent)
		saved := ev.stmtOcc
		ev.stmtOcc = o
		vals := make([]Value, len(n.Items))
		for i, it := range n.Items {
			if _, target := it.(*apt.Name); target && n.Kind == apt.IORead {
				continue // assigned, not read
			}
			vals[i] = ev.value(it) // once: a function among the items runs once
		}
		ev.stmtOcc = saved
		ev.writeFile(n, vals)
		if n.Kind == apt.IORead && (ev.readLine(n) || ev.scanString(n) || ev.scanStream(n) || ev.readText(n) || ev.readTextFormatted(n) || ev.readFile(n) || ev.readFormatted(n) || ev.readNamelist(n)) {
			return
		}
		ev.ioStatus(n)
		if n.Kind == apt.IORead && n.Result != nil {
			ev.assign(n.Result, unknownValue("items_read", "the number of items the read at "+n.Span.Start().String()+" assigned", false))
		}
		if n.Kind == apt.IORead {
			from := ev.readFrom(n)
			data := ev.readData(n)
			var endText *string // the text a conversion given an end pointer read
			endReal := false
			for _, name := range n.Reads {
				if pn := ev.paramName(name); pn != "" {
					// A parameter keeps its value; the datum is its.
					if d, once := data[name]; once && ev.readParams[d] == nil && ev.params[pn] != nil {
						ev.readParams[d] = ev.params[pn]
					}
					continue
				}
				decl := ev.prog.Resolve(ev.frame().routine, name)
				real := decl == nil || decl.Type.Base != apt.TypeInteger
				if u := ev.value(n.Unit).unk; internalUnit(n.Unit) && u != nil && u.argNum > 0 && len(n.Reads) == 1 {
					// A number on the command line the run is not
					// given: one value, the run's, as a size is.
					if p := ev.argParams[u.argNum]; p != nil {
						ev.store(name, Known(p.expr()))
						continue
					}
					p := ev.newParam(name, FromRead, n.Span.Start(),
						fmt.Sprintf("the value read into %s from command-line argument %d", name, u.argNum), real)
					if ev.argParams == nil {
						ev.argParams = map[int64]*Param{}
					}
					ev.argParams[u.argNum] = p
					ev.store(name, Known(p.expr()))
					continue
				}
				if internalUnit(n.Unit) {
					// Converted from a character value the program holds
					// (a word of a deck): data, another each time.
					v := unknownValue(name, "the value converted into "+name+" at "+n.Span.Start().String(), real)
					v.unk.varying = true
					ev.store(name, v)
					continue
				}
				if decl != nil && decl.IsArray() {
					ev.store(name, unknownValue(name, "an element of "+name, real))
					continue
				}
				arg, argKnown := 0, false
				if n.Arg != nil {
					if e, ok := ev.closedInt(ev.value(n.Arg), n.Span.Start()).Single(); ok {
						if k, ok := e.Int64(); ok && k > 0 && k < 1<<20 {
							arg, argKnown = int(k), true
						}
					}
				}
				if argKnown && arg <= len(ev.args) && len(n.Reads) == 1 {
					// Parsed from a command-line argument Options.Args
					// gives (past the characters it skips: --n=128).
					text, ok := ev.args[arg-1], true
					if n.ArgSkip != nil {
						k, isc := ev.closedInt(ev.value(n.ArgSkip), n.Span.Start()).Single()
						skip, ok2 := k.Int64()
						ok = isc && ok2 && skip >= 0 && skip <= int64(len(text))
						if ok {
							text = text[skip:]
						}
					}
					if ok {
						ev.store(name, cNumber(text, real))
						endText, endReal = &text, real
						continue
					}
				}
				if n.From != nil && len(n.Reads) == 1 {
					// Parsed from text the program holds (optarg, a
					// word it cut out), when the evaluation knows it.
					if text, ok := ev.cString(n.From); ok {
						ev.store(name, cNumber(text, real))
						endText, endReal = &text, real
						continue
					}
				}
				shown := name
				if n.As != "" && len(n.Reads) == 1 {
					// A temporary the program's variable takes its
					// value from: the parameter is the variable's.
					shown = n.As
				}
				what := "the value read into " + shown + from
				switch {
				case argKnown:
					what = fmt.Sprintf("the value parsed into %s from argv[%d]", shown, arg)
				case n.Arg != nil:
					what = fmt.Sprintf("the value parsed into %s from a command-line argument", shown)
				}
				datum, once := data[name]
				if p := ev.readParams[datum]; once && p != nil {
					// The datum an earlier READ read (readpos.go).
					ev.store(name, Known(p.expr()))
					continue
				}
				p := ev.newParam(shown, FromRead, n.Span.Start(), what, real)
				if once {
					ev.readParams[datum] = p
				}
				ev.store(name, Known(p.expr()))
			}
			if endText != nil {
				ev.endPointer(n, *endText, endReal)
			} else {
				ev.forgetEndPointer(n)
			}
		}
	case *apt.Return:
		ev.newOcc(n, parent)
		ev.noteReturn(ev.frame())
		ev.cur.dead, ev.cur.cycled = true, false
	case *apt.Stop:
		ev.newOcc(n, parent)
		ev.stop(n.Span.Start(), false)
	case *apt.Goto:
		ev.newOcc(n, parent)
		if n.Kind == apt.GotoPlain && len(n.Targets) == 1 {
			ev.jumpTo(n.Targets[0], n)
			return
		}

		ev.unmodelledGoto(n)
	case *apt.Cycle:
		ev.newOcc(n, parent)
		if rs := ev.frame().running(); rs != nil && (n.Construct == "" || n.Construct == rs.loop.Construct) {
			ev.pendingJump(rs.cycle)
			return
		}
		if fl := ev.frame().loops; len(fl) > 0 && (n.Construct == "" || n.Construct == fl[len(fl)-1].Construct) {
			ev.cur.dead, ev.cur.cycled = true, true
			return
		}
		ev.diag(n.Span.Start(), apt.Warning, "a CYCLE of an outer loop is not modelled: counts assume it is not taken")
		ev.cur.inexact = "follows a CYCLE the evaluation does not model"
		ev.frame().jumps++
	case *apt.Exit:
		ev.newOcc(n, parent)
		if rs := ev.frame().running(); rs != nil && (n.Construct == "" || n.Construct == rs.loop.Construct) {
			ev.pendingJump(rs.exit)
			return
		}
		if ev.boundExits[n] {
			// The exit a counted DO's bound accounts for: the rest of
			// this trip, its last, is skipped.
			ev.cur.dead, ev.cur.cycled = true, true
			return
		}
		if ev.exitTaken {
			// The exit of a DO without control, on its last trip: the
			// loop's trip count accounts for it.
			ev.exitTaken = false
			ev.cur.dead, ev.cur.cycled = true, true
			return
		}
		if fl := ev.frame().loops; len(fl) > 0 && (n.Construct == "" || n.Construct == fl[len(fl)-1].Construct) && fl[len(fl)-1].Iterations != nil {
			// The user's trip count already accounts for the exit; the
			// rest of this iteration is skipped.
			ev.cur.dead, ev.cur.cycled = true, true
			return
		}
		ev.diag(n.Span.Start(), apt.Warning, "EXIT is not modelled: counts assume the loop runs to its end")
		ev.cur.inexact = "follows an EXIT the evaluation does not model"
		ev.frame().jumps++
	case *apt.Unknown:
		ev.newOcc(n, parent)
		ev.diag(n.Span.Start(), apt.Warning, "statement not modelled: "+n.Diag.Msg)
		if n.Skips {
			// The code the jump reaches is not in the APT: what it
			// assigns (a setting parsed there) is not known, so every
			// count after it is marked.
			ev.cur.inexact = "follows a jump to code the evaluation does not model (" + n.Span.Start().String() + ")"
			ev.skipped = ev.cur.inexact
			ev.frame().jumps++
		}
	default:
		ev.newOcc(n, parent)
	}
}

// block evaluates straight-line statements.
func (ev *evaluator) block(b *apt.Block, parent *Occ) {
	o := ev.newOcc(b, parent)
	if f, ok := ev.ownerOf(b); ok {
		// HPF owner computes: the block runs where its element lives.
		// (A new Domain: the state's is shared with its other occurrences.)
		o.Dom = &Domain{Vars: o.Dom.Vars, Cond: append(slices.Clone(o.Dom.Cond), f), Factor: o.Dom.Factor}
	}
	o.Sizes = make([]*Value, len(b.Stmts))
	saved := ev.stmtOcc
	ev.stmtOcc = o
	defer func() { ev.stmtOcc = saved }()
	for i, s := range b.Stmts {
		if s.Span.Start().IsValid() {
			ev.nodePos = s.Span.Start()
		}
		var realloc *apt.Name // allocated by the assignment: sized after it
		if s.Kind == apt.StmtAssign && !ev.probeSkip[s] {
			realloc = ev.autoAllocTarget(s)
		}
		if s.Ops.Vector {
			if s.Kind == apt.StmtAssign && !ev.probeSkip[s] {
				ev.touch(s.Target) // a whole array written (firsttouch.go)
			}
			if sz, ok := ev.elements(s.Target); ok && realloc == nil {
				o.Sizes[i] = &sz
			} else if realloc == nil {
				ev.diag(s.Span.Start(), apt.Note, "the element count of this array statement is unknown: its work is counted once per execution")
			}
		}
		if ev.probeSkip[s] {
			continue // outside the slice a probe runs (probeSliceOf)
		}
		switch s.Kind {
		case apt.StmtAssign:
			if realloc != nil {
				ev.resultShape = nil
			}
			ev.assignStmt(s)
			if realloc != nil {
				ev.reallocate(realloc, s.Value)
				if s.Ops.Vector {
					if sz, ok := ev.elements(s.Target); ok {
						o.Sizes[i] = &sz
					} else {
						ev.diag(s.Span.Start(), apt.Note, "the element count of this array statement is unknown: its work is counted once per execution")
					}
				}
			}
		case apt.StmtAllocate:
			if s.Heap && len(s.Args) > 0 {
				var from apt.Expr // realloc's pointer
				if len(s.Args) > 1 {
					from = s.Args[1]
				}
				ev.allocHeap(s.Args[0], from)
				break
			}
			var src apt.Expr // SOURCE= or MOLD=
			for _, a := range s.Args {
				if kw, ok := a.(*apt.Keyword); ok && (kw.Name == "source" || kw.Name == "mold") {
					src = kw.Value
				}
			}
			for _, a := range s.Args {
				switch a.(type) {
				case *apt.Name, *apt.Component:
					if src != nil {
						ev.allocateMolded(a, src)
						continue
					}
				}
				ev.allocate(a)
				if src != nil {
					ev.allocateFilled(a, src)
				}
			}
			ev.allocateTyped(s)
		case apt.StmtDeallocate:
			for _, a := range s.Args {
				ev.deallocate(a)
			}
		case apt.StmtPointerAssign, apt.StmtNullify:
			if ev.pointElem(s) {
				break
			}
			if !ev.pointProc(s) {
				ev.pointArray(s)
			}
		}
	}
}

// untrackedArray reports whether an assignment's target is an element,
// section or whole of an array whose values the evaluation does not follow
// (REAL, COMPLEX, CHARACTER: the program's data).
func (ev *evaluator) untrackedArray(target apt.Expr) bool {
	switch t := target.(type) {
	case *apt.Index:
		if tracked(t.Type) || ev.substringTarget(t) {
			return false
		}
		if _, ok := ev.realTable(t); ok {
			return false
		}
		// A view of a small table the evaluation follows through another
		// name (an assumed-size dummy): its elements are no longer known.
		if k, ok := ev.arrayKey(t); ok && t.Type.Base == apt.TypeReal {
			if v, had := ev.env.lookup(k); had && v.arr != nil {
				ev.clobber(k)
			}
		}
		return true
	case *apt.Name:
		return t.Array && !tracked(t.Type) && !(t.Type.Base == apt.TypeReal && ev.paramName(t.Name) == "" && ev.realTableKey(ev.key(t.Name)))
	case *apt.Component:
		return t.Array && !tracked(t.Type)
	}
	return false
}

// evalCalls runs the routines an expression calls, without evaluating the
// rest of it.
func (ev *evaluator) evalCalls(e apt.Expr) {
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic && len(ev.callees(f.Name)) > 0 {
			ev.value(f)
			return false
		}
		return true
	})
}

// assignStmt evaluates an assignment statement.
func (ev *evaluator) assignStmt(s *apt.Stmt) {
	done, pre := ev.assignPointer(s) // (pre: a call in it runs once)
	if done {
		return
	}
	if pre == nil && ev.assignUniformData(s) {
		return
	}
	if pre == nil && s.Kind == apt.StmtAssign && s.Mask == nil && ev.where == nil && ev.objectsTarget(s.Target) {
		// A value of derived type into an element of an array of that
		// type, or into all of them: its components one by one.
		ev.assignObjects(s.Target, s.Value, ev.value(s.Value))
		return
	}
	if ev.untrackedArray(s.Target) {
		// An element of the program's data: its value is not
		// followed, only the routines the expression calls run.
		if pre != nil {
			return
		}
		ev.evalCalls(s.Value)
		if s.Mask != nil {
			ev.evalCalls(s.Mask)
		}
		return
	}
	if ev.assignSection(s) {
		return
	}
	if (s.Mask != nil || ev.where != nil) && ev.maskedUnknown(s) {
		return
	}
	inert := !ev.targetRelevant(s.Target)
	if inert {
		ev.inert++
	}
	var v Value
	if pre != nil {
		v = *pre
	} else if a, ok := ev.pointerValue(s); ok {
		v = a
	} else if o, ok := ev.wholeObjectValue(s); ok {
		v = o
	} else {
		v = ev.value(s.Value)
	}
	if s.Mask != nil {
		ev.value(s.Mask)
	}
	if inert {
		ev.inert--
	}
	if f, ok := s.Value.(*apt.FuncCall); ok && f.Intrinsic && v.unk != nil && v.unk.hint == f.Name {
		// The result of an intrinsic the evaluation cannot work out
		// (ntasks = COUNT(do_task > 0)) is named after the program's
		// variable that holds it, not after the intrinsic.
		if t, ok := s.Target.(*apt.Name); ok && !t.Array {
			u := *v.unk
			u.hint = t.Name
			v.unk = &u
		}
	}
	if s.Kind == apt.StmtAssign && apt.TypeOf(s.Target).Base == apt.TypeInteger {
		// An INTEGER receives the REAL value the run computed, truncated.
		if w, ok := ev.toIntegerAsRun(s.Value, v, math.Trunc); ok {
			v = w
		}
	}
	ev.assign(s.Target, v)
	if v.Fields != nil {
		ev.copyArrayComponents(s)
	}
}

// assign stores v into the target of an assignment, converted to the
// target's type: an INTEGER variable receives trunc(v), as Fortran's
// assignment of a real value does (ydim = sqrt(dble(num)) + 0.001d0).
func (ev *evaluator) assign(target apt.Expr, v Value) {
	switch t := target.(type) {
	case *apt.Name:
		if t.Array {
			if ev.paramName(t.Name) == "" {
				ev.assignWhole(ev.key(t.Name), t.Type, v)
			}
			return
		}
		if t.Type.Base == apt.TypeInteger {
			v = toInteger(v)
		}
		if t.Type.Base == apt.TypeDerived && v.Fields == nil && v.unk != nil && v.comm == nil && v.dtype == "" && v.dbytes == nil {
			// (The components a value of unknown parts replaces.)
			if u, ok := ev.unknownComponents(t.Type.Derived, t.Name, 0); ok {
				v = u
			}
		}
		ev.store(t.Name, v)
	case *apt.Component:
		if k, off, ok := ev.derefField(t); ok {
			ev.storeAt(k, off, true, nil, t.Type, v)
			return
		}
		if k, ok := ev.objectKey(t.Base); ok {
			if t.Array {
				// A whole array component (f%idx = 0): every element.
				ev.assignWhole(k+"%"+t.Field, t.Type, v)
				return
			}
			if t.Type.Base == apt.TypeInteger {
				v = toInteger(v)
			}
			ev.assignKey(k+"%"+t.Field, v)
			return
		}
		if t.Type.Base == apt.TypeInteger {
			if ev.storeObjectsField(t.Base, t.Field, toInteger(v)) {
				return
			}
		} else if ev.storeObjectsField(t.Base, t.Field, v) {
			return
		}
		if ev.storeField(t, v) || ev.storeBlock(t, v) {
			return
		}
		if k, ok := ev.refKey(t); ok {
			if t.Array {
				ev.assignWhole(k, t.Type, v)
			} else {
				ev.assignKey(k, v)
			}
		}
	case *apt.Index:
		if ev.storeSubstring(t, v) {
			return
		}
		if k, ok := ev.derefScalar(t); ok {
			ev.assignKey(k, v) // a scalar passed by reference
			return
		}
		ev.storeElement(t, v)
	}
}

// value evaluates an expression.
func (ev *evaluator) value(e apt.Expr) Value {
	if v, ok := ev.argVals[e]; ok {
		return v // an intrinsic's argument, evaluated once (funcCall)
	}
	v := ev.value1(e)
	if v.deck {
		ev.deckSeen = true
	}
	return v
}

func (ev *evaluator) value1(e apt.Expr) Value {
	switch x := e.(type) {
	case nil:
		return unknownValue("", "a missing value", false)
	case *apt.Const:
		if v, ok := ev.consts[x]; ok {
			return v
		}
		v := constValue(x)
		ev.consts[x] = v
		return v
	case *apt.Name:
		if ev.cPointers() && ev.isPointerRef(x) {
			if v, ok := ev.storedAddr(x); ok {
				return v // a pointer's value is its address
			}
		}
		if x.Array {
			return unknownValue(x.Name, "the array "+x.Name, true)
		}
		if r := ev.procedureNamed(ev.frame().routine, x); r != nil {
			// A C function's name as a value, its address: the number
			// a call through a pointer holding it calls (procptr.go).
			return Known(symbolic.Int(ev.procCode(r)))
		}
		if v, ok := ev.libraryValue(x); ok {
			return v
		}
		return ev.load(x.Name)
	case *apt.Component:
		if ev.isPointerRef(x) && ev.cPointers() {
			if v, ok := ev.storedAddr(x); ok {
				return v
			}
		}
		if k, off, ok := ev.derefField(x); ok {
			// Of an element of an array of structures, through a pointer.
			return ev.loadAt(k, off, true, nil, nil, x.Field, x.Type)
		}
		if k, ok := ev.objectKey(x.Base); ok {
			// A component of a heap object, through a pointer.
			if v, ok := ev.env.lookup(k + "%" + x.Field); ok {
				return v
			}
			return unknownValue(x.Field, ev.fieldWord()+ev.src(x), x.Type.Base != apt.TypeInteger)
		}
		if v, ok := ev.objectsField(x.Base, x.Field); ok {
			// Of one of several objects, by rank.
			return v
		}
		if x.Array {
			// A whole array component (size(blocks(b)%ids)'s argument):
			// no one number, and so no parameter, as for an array's name.
			if _, _, isEl := elementOf(x.Base); isEl {
				return unknownValue(x.Field, ev.fieldWord()+ev.src(x), true)
			}
		}
		if v, ok := ev.loadField(x); ok {
			return v
		}
		if k, ok := ev.refKey(x); ok {
			if v, ok := ev.env.lookup(k); ok {
				return v
			}
			if f := ev.loadFields(k); f != nil {
				return Value{Fields: f}
			}
			if v, ok := ev.componentDefault(x); ok {
				return v
			}
		}
		return unknownValue(x.Field, ev.fieldWord()+ev.src(x), x.Type.Base != apt.TypeInteger)
	case *apt.Index:
		if v, ok := ev.substring(x); ok {
			return v
		}
		if s, ok := ev.argvString(x); ok {
			return Value{str: &s} // a C program's argument, as text
		}
		if v, ok := ev.argvChar(x); ok {
			return v // a character of one
		}
		if v, ok := ev.textChar(x); ok {
			return v
		}
		if k, ok := ev.derefScalar(x); ok {
			return ev.env.get(k) // a scalar passed by reference
		}
		if v, ok := ev.derefScalars(x); ok {
			return v // one of several, by a condition
		}
		if v, ok := ev.structAddr(x); ok {
			return v // &p[k] of structures: an address
		}
		if v, ok := ev.refPointer(x); ok {
			return v // a pointer to structures, by reference
		}
		if tracked(x.Type) {
			return ev.loadElement(x)
		}
		if _, ok := ev.realTable(x); ok {
			return ev.loadElement(x)
		}
		for _, s := range x.Subs {
			ev.value(s)
		}
		if v, ok := ev.uniformDataValue(x); ok {
			return v
		}
		return unknownValue(x.Name, "an element of "+x.Name, x.Type.Base != apt.TypeInteger)
	case *apt.Unary:
		v := ev.value(x.X)
		switch x.Op {
		case apt.OpNeg:
			if r, ok := lift1(v, func(a symbolic.Expr) (symbolic.Expr, bool) { return a.Neg(), true }); ok {
				return r
			}
		case apt.OpPlus:
			return v
		case apt.OpNot:
			return ev.logicalValue(x)
		}
		return unknownValue(hintOf(x, v), "the value of "+ev.src(e), true)
	case *apt.Binary:
		if v, ok := ev.nullTest(x); ok {
			return v
		}
		return ev.binary(x)
	case *apt.FuncCall:
		return ev.funcCall(x)
	}
	return unknownValue("", "the value of "+ev.src(e), true)
}

// nullTest evaluates a C program's test of a pointer against NULL (p != 0,
// p == 0, !p) where the pointer holds text the evaluation knows, or an
// allocation the program made (malloc's elements, whose bounds the state
// keeps): not NULL, as an allocation that succeeds gives (the program's
// own check of it, an error exit, is taken as passing like any other).
func (ev *evaluator) nullTest(b *apt.Binary) (Value, bool) {
	if b.Op != apt.OpNe && b.Op != apt.OpEq || ev.prog.Notation() == apt.Fortran {
		return Value{}, false
	}
	x, y := b.X, b.Y
	if _, isConst := x.(*apt.Const); isConst {
		x, y = y, x
	}
	c, isConst := y.(*apt.Const)
	if !isConst || c.Kind != apt.ConstInt || c.Text != "0" {
		return Value{}, false
	}
	switch x.(type) {
	case *apt.Index, *apt.Component:
		// An element or field holding text (a table's name field, set
		// from a string literal): a string is never NULL.
		if ev.value(x).str == nil {
			return Value{}, false
		}
		return Known(symbolic.Int(boolInt(b.Op == apt.OpNe))), true
	}
	nm, ok := x.(*apt.Name)
	if !ok {
		return Value{}, false
	}
	// Text the program holds (a string getenv or strdup gave), or an
	// array it allocated.
	text := ev.load(nm.Name).str != nil
	if !text {
		d := ev.prog.Resolve(ev.frame().routine, nm.Name)
		if d == nil || !d.IsArray() {
			return Value{}, false
		}
		if _, allocated := ev.env.lookup(shapeKey(ev.key(nm.Name))); !allocated {
			return Value{}, false
		}
	}
	return Known(symbolic.Int(boolInt(b.Op == apt.OpNe))), true
}

// toInteger converts a value to INTEGER (truncation toward zero).
func toInteger(v Value) Value {
	if !v.IsKnown() {
		return v
	}
	if r, ok := lift1(v, func(a symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Trunc(a), true }); ok {
		return r
	}
	return v
}

// logicalValue is the value of a logical expression: 1 where its condition
// holds and 0 elsewhere, or unknown when the condition is not analysable.
func (ev *evaluator) logicalValue(e apt.Expr) Value {
	f, ok := ev.cond(e)
	if !ok {
		return unknownValue("", "the logical value "+ev.src(e), true)
	}
	return boolValue(f)
}

// boolValue is the logical value of a formula.
func boolValue(f counting.Formula) Value {
	switch {
	case isTrue(f):
		return Known(symbolic.Int(1))
	case isFalse(f):
		return Known(symbolic.Int(0))
	}
	return Value{Alts: []Alt{{Guard: f, E: symbolic.Int(1)}, {Guard: not(f), E: symbolic.Int(0)}}}
}

func lift1(v Value, op func(symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	return liftN([]Value{v}, func(a []symbolic.Expr) (symbolic.Expr, bool) { return op(a[0]) })
}

// constValue converts a literal exactly. A logical constant is 1 (true) or
// 0 (false), the encoding every logical value has in the evaluation.
func constValue(c *apt.Const) Value {
	switch c.Kind {
	case apt.ConstLogical:
		if strings.Contains(strings.ToUpper(c.Text), "TRUE") {
			return Known(symbolic.Int(1))
		}
		return Known(symbolic.Int(0))
	case apt.ConstInt:
		t := c.Text
		if i := strings.IndexByte(t, '_'); i >= 0 {
			t = t[:i]
		}
		if e, err := symbolic.Parse(t); err == nil {
			return Known(e)
		}
	case apt.ConstReal:
		t := strings.ToLower(c.Text)
		if i := strings.IndexByte(t, '_'); i >= 0 {
			t = t[:i]
		}
		t = strings.ReplaceAll(strings.ReplaceAll(t, "d", "e"), "q", "e")
		if r, ok := parseDecimal(t); ok {
			return Known(symbolic.Const(r))
		}
	}
	if c.Kind == apt.ConstChar {
		t := c.Text
		return Value{str: &t}
	}
	return unknownValue("", "the constant "+c.Text, c.Kind != apt.ConstInt)
}

// parseDecimal reads a decimal literal such as 1.5e-3 exactly.
func parseDecimal(s string) (symbolic.Rat, bool) {
	mant, exp, _ := strings.Cut(s, "e")
	e := 0
	if exp != "" {
		n, err := strconv.Atoi(exp)
		if err != nil || n > 400 || n < -400 {
			return symbolic.Rat{}, false
		}
		e = n
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := whole + frac
	if digits == "" {
		return symbolic.Rat{}, false
	}
	e -= len(frac)
	n, err := symbolic.Parse(strings.TrimLeft(digits, "0") + "0")
	if err != nil {
		return symbolic.Rat{}, false
	}
	r, ok := n.Const()
	if !ok {
		return symbolic.Rat{}, false
	}
	r = r.Quo(symbolic.RatInt(10))
	ten := symbolic.RatInt(10)
	if e >= 0 {
		r = r.Mul(ten.PowInt(e))
	} else {
		r = r.Quo(ten.PowInt(-e))
	}
	return r, true
}

func (ev *evaluator) binary(b *apt.Binary) Value {
	if v, ok := ev.concat(b); ok {
		return v
	}
	var x, y Value
	if px, py, ok, oneKnown := ev.pointerAddrs(b); ok {
		x, y = px, py
	} else if oneKnown {
		// The distance from an address the evaluation follows to one it
		// does not: not that address less what the other operand's
		// pointer points to.
		return unknownValue(keyName(refName(b.X)), "the distance between the addresses in "+ev.src(b), false)
	} else {
		x, y = ev.closedInt(ev.value(b.X), b.X.At()), ev.closedInt(ev.value(b.Y), b.Y.At())
	}
	if v, ok := varyingOf(x, y); ok {
		return v
	}
	var op func(a, c symbolic.Expr) (symbolic.Expr, bool)
	switch b.Op {
	case apt.OpAdd:
		op = func(a, c symbolic.Expr) (symbolic.Expr, bool) { return a.Add(c), true }
	case apt.OpSub:
		op = func(a, c symbolic.Expr) (symbolic.Expr, bool) {
			if otherStorages(a, c) {
				// Pointers into two storages: C gives their difference no
				// meaning, so an evaluation that finds one has lost track
				// of a pointer (it holds an address it was not given).
				return symbolic.Expr{}, false
			}
			return a.Sub(c), true
		}
	case apt.OpMul:
		op = func(a, c symbolic.Expr) (symbolic.Expr, bool) { return a.Mul(c), true }
	case apt.OpDiv:
		op = func(a, c symbolic.Expr) (symbolic.Expr, bool) {
			if c.IsZero() {
				return symbolic.Expr{}, false
			}
			if b.IntDiv {
				return symbolic.IDivNonNeg(a, c, nonNegSym), true
			}
			return a.Div(c), true
		}
	case apt.OpPow:
		op = func(a, c symbolic.Expr) (symbolic.Expr, bool) {
			k, ok := c.Int64()
			if r, isConst := c.Const(); !ok && isConst {
				// A fractional power of a constant (P**(1.0/3.0)).
				n, d := r.Big().Num(), r.Big().Denom()
				if n.IsInt64() && d.IsInt64() {
					return constRoot(a, n.Int64(), d.Int64())
				}
			}
			if !ok || k < -64 || k > 64 || (k < 0 && a.IsZero()) {
				return symbolic.Expr{}, false
			}
			return a.Pow(int(k)), true
		}
	default:
		return ev.logicalValue(b)
	}
	if v, ok := ev.lift2(x, y, op); ok {
		if apt.TypeOf(b).Base != apt.TypeInteger {
			// Real arithmetic whose exact value outgrows 64-bit
			// fractions is the program's data (a random number
			// generator's state), not a size: it is not followed.
			for _, a := range v.Alts {
				if a.E.HasBigCoefficient() {
					return unknownValue("", "the value of "+ev.src(b), true)
				}
			}
		}
		return v
	}
	return unknownValue(hintOf(b, x, y), "the value of "+ev.src(b), true)
}

// hintOf names the unknown value of an expression after the expression's
// first variable (else an unknown operand's own name), so that the
// parameter it may become reads as the program's variable.
func hintOf(e apt.Expr, operands ...Value) string {
	name := ""
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if nm, ok := x.(*apt.Name); ok && name == "" {
			name = nm.Name
		}
		return name == ""
	})
	for _, v := range operands {
		if name == "" && v.unk != nil {
			name = v.unk.hint
		}
	}
	return name
}

// funcCall evaluates an intrinsic or runs a user function.
func (ev *evaluator) funcCall(f *apt.FuncCall) Value {
	r := ev.routineNamed(f.Name)
	if ev.procVar(ev.frame().routine, f.Name) != nil {
		r = ev.heldProc(f.Name)
		if lib := ev.heldLibrary(f.Name); r == nil && lib != "" {
			if v, ok := ev.libraryCall(lib, f); ok {
				return v
			}
		}
		if r == nil {
			ev.diag(f.Pos, apt.Warning, "the function called through "+f.Shown()+" is not one value here: the call is not followed, its cost not counted")
		}
	}
	if r != nil && !f.Intrinsic {
		var res Value
		// A function of values that change from one iteration to the
		// next (a random number generator's seed) returns one that does.
		varying := false
		for _, a := range f.Args {
			switch a.(type) {
			case *apt.Name, *apt.Index:
				if v := ev.value(a); v.unk != nil && v.unk.varying {
					varying = true
				}
			}
		}
		defer ev.elemental(r, f.Args, f.Pos)()
		ev.callRoutine(r, f.Args, ev.stmtOcc, &res)
		if res.unk != nil {
			// A function that reads input returns what it read: data,
			// another value on each call (the status of the next line);
			// so does one whose result is such data (a word of a deck
			// converted by an internal READ).
			varying = varying || res.unk.varying || ev.routineReads(r)
			hint := f.Name
			if f.Display != "" {
				hint = displayHint(f.Display)
			}
			res.unk = &unknown{hint: hint, what: "the result of " + f.Shown(), real: f.Type.Base != apt.TypeInteger, varying: varying}
		}
		return res
	}
	if ev.routineNamed(f.Name) == nil && !f.Intrinsic {
		if v, ok := ev.structConstructor(f); ok {
			return v
		}
		if f.Name == "getopt" || f.Name == "getopt_long" {
			if v, ok := ev.getopt(f); ok {
				return v
			}
		}
		if v, ok := ev.stringCall(f); ok {
			return v
		}
		if copiesText[f.Name] && ev.copyText(f.Name, f.Args, f.Pos) {
			return ev.addrOf(f.Args[0]) // the destination
		}
		if v, ok := ev.cxxStringFunc(f); ok {
			return v
		}
		ev.externalWrites(f.Name, f.Args, f.Pos)
		if ev.readsArgv(f) {
			// Text of an argument not given: a value of the command line.
			ev.res.ArgvUnknown = true
			return Value{unk: &unknown{hint: f.Name, what: "the result of " + ev.src(f), cmdline: true}}
		}
	}
	args := make([]Value, len(f.Args))
	raw := make(map[apt.Expr]Value, len(f.Args))
	for i, a := range f.Args {
		v := ev.value(a)
		raw[a] = v
		if apt.TypeOf(a).Base == apt.TypeCharacter {
			args[i] = v // text: never a parameter
			continue
		}
		args[i] = ev.closedInt(v, a.At())
	}
	// The intrinsic's own evaluation reads its arguments again: from
	// these values, so that a function among them (one that consumes the
	// next word of a line) runs once, as in the run.
	saved := ev.argVals
	ev.argVals = raw
	defer func() { ev.argVals = saved }()
	if f.Intrinsic {
		if v, ok := ev.shapeIntrinsic(f); ok {
			return v
		}
		if v, ok := ev.storageSize(f); ok {
			return v
		}
		if v, ok := ev.associatedProc(f); ok {
			return v
		}
		if v, ok := ev.allocatedIntrinsic(f); ok {
			return v
		}
		if v, ok := ev.presentIntrinsic(f); ok {
			return v
		}
		if v, ok := ev.typeTestIntrinsic(f); ok {
			return v
		}
		if v, ok := ev.arrayReduction(f); ok {
			return v
		}
	}
	if v, ok := ev.textIntrinsic(f); ok {
		return v
	}
	if v, ok := ev.charIntrinsic(f); ok {
		if _, vary := varyingOf(args...); vary && v.unk != nil {
			v.unk.varying = true
		}
		return v
	}
	if v, ok := varyingOf(args...); ok {
		return v
	}
	name := f.Name
	switch name {
	case "command_argument_count", "iargc":
		if ev.args != nil {
			return Known(symbolic.Int(runenv.ArgumentCount(ev.args)))
		}
		if ev.nargs == nil {
			ev.nargs = ev.newParam("nargs", FromCommandLine, f.Pos, "the number of command-line arguments", false)
			ev.res.Assume = append(ev.res.Assume, symbolic.Rel(ev.nargs.expr(), ">=", symbolic.Int(0)))
		}
		return Known(ev.nargs.expr())
	}
	if v, ok := ev.signValue(f, args); ok {
		return v
	}
	if conv := realToInteger[name]; conv != nil && f.Intrinsic && len(f.Args) > 0 && len(args) > 0 {
		if v, ok := ev.toIntegerAsRun(f.Args[0], args[0], conv); ok {
			return v
		}
	}
	if fn, ok := intrinsics[name]; ok && len(args) >= fn.min {
		if v, ok := ev.liftN(args, fn.f); ok {
			return v
		}
	}
	if v, ok := ev.bitIntrinsic(name, args, f.Type.Kind); ok {
		return v
	}
	if f.Display != "" {
		name = displayHint(f.Display)
	}
	if isConversion(name) {
		// A conversion of unknown operands (int(x + 0.5), C's (int)):
		// named after what it converts, as the program's variable, not
		// the conversion.
		h := ""
		for _, v := range args {
			if v.unk != nil && v.unk.hint != "" && h == "" {
				h = v.unk.hint
			}
		}
		if h == "" {
			h = hintOf(f, args...)
		}
		if h != "" && (h[0] >= 'a' && h[0] <= 'z' || h[0] == '_') {
			name = h
		}
	}
	return unknownValue(name, "the result of "+ev.src(f), f.Type.Base != apt.TypeInteger)
}

// isConversion reports the intrinsic type conversions.
func isConversion(name string) bool {
	switch name {
	case "int", "real", "dble", "float", "nint", "ifix", "idint", "sngl", "dfloat", "aint", "anint":
		return true
	}
	return false
}

// displayHint names a parameter for the result of a C++ function after
// the function (std::vector::size: size), not its mangled symbol.
func displayHint(display string) string {
	if i := strings.LastIndex(display, "::"); i >= 0 {
		display = display[i+2:]
	}
	return keyName(strings.ToLower(display))
}

// charLen returns the length of a character expression: a constant
// declared length, an assumed-length dummy's actual's, a literal's.
func (ev *evaluator) charLen(e apt.Expr) (int64, bool) {
	if c, ok := e.(*apt.Const); ok && c.Kind == apt.ConstChar {
		return int64(len(c.Text)), true
	}
	t := apt.TypeOf(e)
	if t.Base != apt.TypeCharacter || t.Len == nil {
		return 0, false
	}
	if _, star := t.Len.(*apt.Star); star {
		if nm, ok := e.(*apt.Name); ok {
			n, ok := ev.frame().charLens[nm.Name]
			return n, ok
		}
		return 0, false
	}
	v, ok := ev.value(t.Len).Single()
	if !ok {
		return 0, false
	}
	return v.Int64()
}

// charIntrinsic evaluates an intrinsic that measures or searches character
// data (LEN_TRIM, INDEX, ICHAR of a line of input): a value of the data,
// another on each call, but within the bounds the intrinsic itself sets
// (0..the declared length, 0..255), so that a loop over the characters of a
// line is bounded and the analysis can tell whether it matters.
func (ev *evaluator) charIntrinsic(f *apt.FuncCall) (Value, bool) {
	if len(f.Args) == 0 || apt.TypeOf(f.Args[0]).Base != apt.TypeCharacter {
		return Value{}, false
	}
	var lo, hi symbolic.Expr
	switch f.Name {
	case "len", "len_trim", "index", "scan", "verify":
		n, ok := ev.charLen(f.Args[0])
		if !ok {
			return Value{}, false
		}
		if f.Name == "len" {
			return Known(symbolic.Int(n)), true
		}
		lo, hi = symbolic.Int(0), symbolic.Int(n)
	case "ichar", "iachar":
		lo, hi = symbolic.Int(0), symbolic.Int(255)
	default:
		return Value{}, false
	}
	u := &unknown{hint: f.Name, what: "the result of " + ev.src(f) + " (data)"}
	ev.setRange(u, lo, hi)
	return Value{unk: u}, true
}

// nonNegSym names the symbols every evaluation knows to be non-negative:
// P >= 1 and 0 <= rank <= P-1. Integer division and MOD of a dividend
// they make non-negative are floors (symbolic.IDivNonNeg), whose canonical
// forms stay small where truncations nest: a process's coordinate stepped
// round a ring, mod(mod(rank, p) + 1, p), is one remainder, not a tower.
// INT of a real value stays a truncation: converting it too (the square
// root of P a grid's side is taken from) made the counts with P symbolic
// slower by a fifth on NPB SP and helped nothing measured.
func nonNegSym(name string) bool { return name == Size || name == Rank }

type intrinsic struct {
	min int
	f   func([]symbolic.Expr) (symbolic.Expr, bool)
}

var intrinsics = map[string]intrinsic{
	"mod": {2, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		if a[1].IsZero() {
			return symbolic.Expr{}, false
		}
		return symbolic.ModNonNeg(a[0], a[1], nonNegSym), true
	}},
	"modulo": {2, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		if a[1].IsZero() {
			return symbolic.Expr{}, false
		}
		return symbolic.Modulo(a[0], a[1]), true
	}},
	"min":   {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Min(a...), true }},
	"max":   {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Max(a...), true }},
	"min0":  {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Min(a...), true }},
	"max0":  {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Max(a...), true }},
	"abs":   {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Abs(a[0]), true }},
	"iabs":  {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Abs(a[0]), true }},
	"int":   {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Trunc(a[0]), true }},
	"ifix":  {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Trunc(a[0]), true }},
	"floor": {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Floor(a[0]), true }},
	"ceiling": {1, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		return symbolic.Ceil(a[0]), true
	}},
	"real":  {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return a[0], true }},
	"dble":  {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return a[0], true }},
	"float": {1, func(a []symbolic.Expr) (symbolic.Expr, bool) { return a[0], true }},
	"sqrt":  {1, sqrtOf},
	// MERGE(t, f, mask) of scalars: t where the logical mask (1 or 0)
	// holds.
	"merge": {3, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		c, ok := a[2].Const()
		if !ok {
			return symbolic.Expr{}, false
		}
		if c.IsZero() {
			return a[1], true
		}
		return a[0], true
	}},
}

// More specific and generic names of the same functions, and the real
// functions whose values real programs turn into integers (a process grid
// side from SQRT, a dimension from LOG(x)/LOG(2)). Real arithmetic is taken
// exactly; where a constant REAL becomes an INTEGER it is computed as the
// run rounds it (toIntegerAsRun), and a floor of a closed form the algebra
// cannot decide stays symbolic.
func init() {
	alias := func(name, of string) { intrinsics[name] = intrinsics[of] }
	for _, n := range []string{"dsqrt", "csqrt"} {
		alias(n, "sqrt")
	}
	for _, n := range []string{"dfloat", "sngl", "dreal"} {
		alias(n, "real")
	}
	for _, n := range []string{"amax1", "dmax1", "max1", "amax0"} {
		alias(n, "max")
	}
	for _, n := range []string{"amin1", "dmin1", "min1", "amin0"} {
		alias(n, "min")
	}
	for _, n := range []string{"dabs"} {
		alias(n, "abs")
	}
	for _, n := range []string{"aint", "dint", "idint"} {
		alias(n, "int")
	}
	intrinsics["dmod"] = intrinsics["mod"]
	intrinsics["amod"] = intrinsics["mod"]
	ln := intrinsic{1, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		if c, ok := a[0].Const(); ok && c.Sign() <= 0 {
			return symbolic.Expr{}, false
		}
		return symbolic.Ln(a[0]), true
	}}
	for _, n := range []string{"log", "dlog", "alog"} {
		intrinsics[n] = ln
	}
	// C's log2 (the levels of a grid halved to one cell): exact at powers
	// of two, as the library's is.
	intrinsics["log2"] = intrinsic{1, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		if c, ok := a[0].Const(); ok && c.Sign() <= 0 {
			return symbolic.Expr{}, false
		}
		return symbolic.Log2(a[0]), true
	}}
	// NINT rounds half away from zero; only a constant argument is folded.
	round := intrinsic{1, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		if c, ok := a[0].Const(); ok {
			h := symbolic.Const(c).Add(symbolic.Const(symbolic.RatFrac(1, 2)))
			if c.Sign() < 0 {
				return symbolic.Ceil(symbolic.Const(c).Sub(symbolic.Const(symbolic.RatFrac(1, 2)))), true
			}
			return symbolic.Floor(h), true
		}
		return symbolic.Expr{}, false
	}}
	for _, n := range []string{"nint", "idnint", "anint", "dnint"} {
		intrinsics[n] = round
	}
}

func sqrtOf(a []symbolic.Expr) (symbolic.Expr, bool) {
	if c, ok := a[0].Const(); ok && c.Sign() < 0 {
		return symbolic.Expr{}, false
	}
	return symbolic.Sqrt(a[0]), true
}

func (ev *evaluator) routineNamed(name string) *apt.Routine {
	r := ev.prog.Routine(name)
	if r == nil || (r.Kind != apt.KindSubroutine && r.Kind != apt.KindFunction) {
		return nil
	}
	return r
}

// call evaluates a CALL statement.
func (ev *evaluator) call(c *apt.Call, o *Occ) {
	if ev.callThrough(c, o) || ev.callComponent(c, o) {
		return
	}
	if r := ev.routineNamed(c.Callee); r != nil {
		if ev.concreteCall(c, r, o) {
			return
		}
		defer ev.elemental(r, c.Args, c.Span.Start())()
		ev.callRoutine(r, c.Args, o, nil)
		return
	}
	if ev.mpiRoutine(c) {
		return
	}
	if (c.Callee == "sprintf" || c.Callee == "snprintf") && ev.sprintfCall(c) {
		return
	}
	if copiesText[c.Callee] && ev.copyText(c.Callee, c.Args, c.Span.Start()) {
		return
	}
	if ev.environment(c) || ev.commandArgument(c) || ev.intrinsicSub(c) || ev.moveAlloc(c) || ev.cxxStringCall(c.Callee, c.Args) {
		return
	}
	name := c.Shown()
	// An external routine may assign any variable passed to it, but no
	// named constant (a PARAMETER, MPI's handles: MPI_COMM_WORLD passed to
	// a routine the evaluation does not model is still the world).
	ev.externalWrites(c.Callee, c.Args, c.Span.Start())
	ev.forgetReached(c.Callee, name, c.Args, c.Span.Start())
	for _, a := range c.Args {
		nm, isName := a.(*apt.Name)
		var decl *apt.Var
		if isName {
			decl = ev.prog.Resolve(ev.frame().routine, nm.Name)
			if decl != nil && (decl.Param != nil || decl.Predefined != "") {
				continue
			}
		}
		ev.touch(a)
		if isName && decl != nil && decl.Allocatable {
			// It may allocate or deallocate it.
			ev.env.set(allocStatusKey(ev.key(nm.Name)), unknownValue(nm.Name, "whether "+nm.Name+" is allocated after the call of "+name, false))
		}
		if isName {
			ev.store(nm.Name, unknownValue(nm.Name, "the value of "+nm.Name+" after the call of "+name,
				decl == nil || decl.Type.Base != apt.TypeInteger))
		}
	}
	if localMPI[c.Callee] {
		// A local MPI call (MPI 4.0 §2.4.2): no message, a cost of
		// microseconds; its outputs are unknown, its error code success.
		if len(c.Args) > 0 {
			ev.mpiSuccess(c.Args[len(c.Args)-1], nil)
		}
		return
	}
	ev.diag(c.Span.Start(), apt.Note, "the routine "+name+" is not part of the program: its cost is not counted")
}

// localMPI are MPI routines that complete without communicating (handles,
// groups, attributes, names, queries of the library and of a status): the
// evaluation does not follow their outputs, and their cost is not a
// program's concern. An MPI routine that communicates and is not modelled
// is still reported.
var localMPI = map[string]bool{
	"mpi_comm_free": true, "mpi_comm_group": true, "mpi_group_incl": true, "mpi_group_excl": true,
	"mpi_group_free": true, "mpi_group_size": true, "mpi_group_rank": true, "mpi_group_translate_ranks": true,
	"mpi_comm_set_errhandler": true, "mpi_errhandler_set": true, "mpi_comm_set_name": true, "mpi_comm_get_name": true,
	"mpi_get_processor_name": true, "mpi_get_version": true, "mpi_get_library_version": true,
	"mpi_initialized": true, "mpi_finalized": true, "mpi_info_create": true, "mpi_info_set": true, "mpi_info_free": true,
	"mpi_get_count": true, "mpi_error_string": true, "mpi_error_class": true, "mpi_comm_test_inter": true,
	"mpi_topo_test": true, "mpi_op_create": true, "mpi_op_free": true, "mpi_buffer_attach": true,
	"mpi_buffer_detach": true, "mpi_comm_get_attr": true, "mpi_attr_get": true, "mpi_get_address": true,
	"mpi_address": true, "mpi_request_free": true, "mpi_pcontrol": true, "mpi_query_thread": true,
	"mpi_is_thread_main": true, "mpi_type_get_extent": true, "mpi_type_extent": true,
	"mpi_alloc_mem": true, "mpi_free_mem": true, "mpi_comm_compare": true, "mpi_type_get_true_extent": true,
	"mpi_info_get": true, "mpi_info_get_nkeys": true, "mpi_info_dup": true, "mpi_info_delete": true,
	"mpi_keyval_create": true, "mpi_keyval_free": true, "mpi_comm_create_keyval": true, "mpi_comm_free_keyval": true,
	"mpi_comm_set_attr": true, "mpi_comm_delete_attr": true, "mpi_attr_put": true, "mpi_attr_delete": true,
	"mpi_errhandler_free": true, "mpi_comm_get_errhandler": true, "mpi_comm_create_errhandler": true,
	"mpi_errhandler_create": true, "mpi_status_set_elements": true, "mpi_status_set_cancelled": true,
	"mpi_test_cancelled": true, "mpi_type_set_name": true, "mpi_type_get_name": true,
}

func extent(lo, hi symbolic.Expr) (symbolic.Expr, bool) {
	return symbolic.Max(hi.Sub(lo).Add(symbolic.Int(1)), symbolic.Int(0)), true
}

func mul(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Mul(b), true }

// elemental prepares a call of r: an ELEMENTAL procedure given array
// arguments runs once per element, so the state's count factor is
// multiplied by the element count of its first array argument (conforming
// arrays have equal counts) until the returned function restores it. An
// array argument of unknown size leaves the count at one call, and says so.
func (ev *evaluator) elemental(r *apt.Routine, args []apt.Expr, pos apt.Pos) func() {
	if !r.Elemental {
		return func() {}
	}
	for _, a := range args {
		var arr apt.Expr
		apt.InspectExpr(a, func(e apt.Expr) bool {
			if arr != nil {
				return false
			}
			switch x := e.(type) {
			case *apt.Name:
				if d := ev.prog.Resolve(ev.frame().routine, x.Name); d != nil && d.IsArray() {
					arr = x
				}
				return false
			case *apt.Index:
				if slices.ContainsFunc(x.Subs, func(s apt.Expr) bool { _, ok := s.(*apt.Section); return ok }) {
					arr = x
				}
				return false
			}
			return true
		})
		if arr == nil {
			continue
		}
		n, ok := ev.elements(arr)
		e, single := n.Single()
		if !ok || !single {
			ev.diag(pos, apt.Note, "the element count of the array argument of the elemental "+r.Name+
				" is unknown: it is counted as one call")
			return func() {}
		}
		saved := ev.cur.factor
		ev.cur.factor = ev.cur.factor.Mul(e)
		return func() { ev.cur.factor = saved }
	}
	return func() {}
}

// elements returns the number of elements an array statement's target
// assigns: a section's size, or the whole array's.
func (ev *evaluator) elements(target apt.Expr) (Value, bool) {
	product := func(bs []bound) (Value, bool) {
		n := Known(symbolic.Int(1))
		for _, b := range bs {
			var ok bool
			if n, ok = lift2(n, b.ext, mul); !ok {
				return Value{}, false
			}
		}
		return n, true
	}
	switch t := target.(type) {
	case *apt.Name:
		decl := ev.prog.Resolve(ev.frame().routine, t.Name)
		if decl != nil && !decl.IsArray() && decl.Type.Base != apt.TypeDerived {
			// A scalar assigned an expression over arrays (d =
			// sum(u), d = f(u)): one element.
			return Known(symbolic.Int(1)), true
		}
		if decl == nil || !decl.IsArray() {
			return Value{}, false
		}
		bs, ok := ev.arrayBounds(t.Name, decl)
		if !ok {
			return Value{}, false
		}
		return product(bs)
	case *apt.Component:
		bs, ok := ev.componentBounds(t)
		if ok {
			return product(bs)
		}
		// A scalar component of every element of an array of structures
		// or of a section of one (states(:)%energy = 0.0): the elements'.
		if dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(t.Base).Derived); dt != nil {
			if f := dt.Field(t.Field); f != nil && !f.IsArray() {
				switch b := t.Base.(type) {
				case *apt.Name:
					if b.Array {
						return ev.elements(b)
					}
				case *apt.Index:
					if hasSection(b) {
						return ev.elements(b)
					}
				}
			}
		}
		return Value{}, false
	case *apt.Index:
		exts, ok := ev.sectionShape(t)
		if !ok {
			return Value{}, false
		}
		n := Known(symbolic.Int(1))
		for _, ext := range exts {
			if n, ok = lift2(n, ext, mul); !ok {
				return Value{}, false
			}
		}
		return n, true
	}
	return Value{}, false
}

// sectionLimits returns the first and last subscript of the section sec
// in dimension i of an array declared decl with bounds bs (nil: not known,
// a missing lower limit is then 1): those written, else the array's own.
func (ev *evaluator) sectionLimits(sec *apt.Section, decl *apt.Var, bs []bound, i int) (lo, hi Value, ok bool) {
	switch {
	case sec.Lo != nil:
		lo = ev.value(sec.Lo)
	case bs != nil:
		lo = bs[i].lo
	default:
		lo = Known(symbolic.Int(1))
	}
	switch {
	case sec.Hi != nil:
		hi = ev.value(sec.Hi)
	case bs != nil && decl != nil && !decl.Dims[i].Deferred && decl.Dims[i].Hi != nil:
		hi = ev.value(decl.Dims[i].Hi)
	case bs != nil:
		// The array's own last index: its lower bound and extent.
		if hi, ok = lift2(bs[i].lo, bs[i].ext, func(l, e symbolic.Expr) (symbolic.Expr, bool) {
			return l.Add(e).Sub(symbolic.Int(1)), true
		}); !ok {
			return Value{}, Value{}, false
		}
	default:
		return Value{}, Value{}, false
	}
	return lo, hi, true
}

func (ev *evaluator) dimExtent(d apt.Dim) (Value, bool) {
	if d.Deferred || d.Hi == nil {
		return Value{}, false
	}
	if _, star := d.Hi.(*apt.Star); star {
		return Value{}, false
	}
	lo := Known(symbolic.Int(1))
	if d.Lo != nil {
		lo = ev.value(d.Lo)
	}
	return lift2(lo, ev.value(d.Hi), extent)
}

// varyingOf returns an unknown that changes between iterations when one of
// the operands does: what is computed from it changes too.
func varyingOf(vs ...Value) (Value, bool) {
	for _, v := range vs {
		if v.unk != nil && v.unk.varying {
			return v, true
		}
	}
	return Value{}, false
}

// markInexact marks o and every occurrence below it as resting on an
// approximation.
func markInexact(o *Occ, note string) {
	if !o.Inexact {
		o.Inexact, o.Note = true, note
	}
	for _, c := range o.Children {
		markInexact(c, note)
	}
}

// stop ends the current path by a STOP or MPI_ABORT (abort) at pos. Under
// a branch and outside the DO loops of its routine it is one of the
// program's own checks failing (stopped, which callers and the result see),
// whether or not it finalizes MPI first (`call mpi_finalize; stop` after an
// error message); elsewhere (the last statement, the end of a time loop) it
// is the program's normal end, and the path merely ends as at a RETURN.
// MPI_ABORT is never a normal end: under a branch inside loops that are all
// being run iteration by iteration (a check of each cell or subdomain in
// turn), where every condition is one of the iteration's, it is a failed
// check as well.
func (ev *evaluator) stop(pos apt.Pos, abort bool) {
	ev.cur.dead, ev.cur.cycled, ev.cur.halted = true, false, true
	if ev.arms > 0 && (len(ev.frame().loops) == 0 || abort && ev.frame().allRunning()) {
		ev.cur.stopped, ev.cur.stopAt = true, pos
	}
	if debugRuns {
		var names []string
		for _, fr := range ev.frames {
			names = append(names, fr.routine.Name)
		}
		fmt.Fprintf(os.Stderr, "stop at %s (stopped=%v) via %v conds=%v\n", pos, ev.cur.stopped, names, ev.cur.conds)
	}
}

// formulaMentionsAny reports whether f mentions any of the symbols.
func formulaMentionsAny(f counting.Formula, syms []string) bool {
	for _, s := range syms {
		if formulaMentions(f, s) {
			return true
		}
	}
	return false
}
