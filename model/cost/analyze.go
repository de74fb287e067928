package cost

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// Options control Analyze.
type Options struct {
	// Entry names the routine to start from; empty means the PROGRAM unit (or
	// the only routine).
	Entry string
	// Params names variables to treat as parameters wherever they are
	// assigned, like `!mk$ param name` in the source.
	Params []string
	// Assume adds relations between parameters (N >= P).
	Assume []symbolic.Relation
	// Weights are the operation weights; nil means DefaultWeights.
	Weights *Weights
	// Values evaluates at a point: P and parameters fixed to integers
	// (symeval.Options.Values). Counts are then closed forms in the rank.
	Values map[string]int64
	// Args are the program's command-line arguments (symeval.Options.Args).
	Args []string
	// Env are the environment variables set for the program
	// (symeval.Options.Env).
	Env map[string]string
	// Dir is the directory the program runs in, with its input files
	// (symeval.Options.Dir).
	Dir string
	// Stdin is the file the program's standard input comes from
	// (symeval.Options.Stdin).
	Stdin string
	// Budget, when positive, bounds the analysis's work deterministically:
	// the case-split cells of all its counts together (counting.Options.
	// Budget) and a hundred times as many node occurrences of its
	// evaluation. Counts beyond it, and closed forms of more than
	// budgetPieces cases, have no closed form within the limits
	// (Node.Missing); once it is spent the remaining counts are not
	// attempted.
	Budget int
}

// Analyze evaluates prog symbolically from its entry and counts every node.
func Analyze(prog *apt.Program, opt Options) (*Report, error) {
	res, err := evaluate(prog, opt)
	if err != nil {
		return nil, err
	}
	return analyzeResult(prog, opt, res), nil
}

// evaluate is the symbolic evaluation Analyze counts.
func evaluate(prog *apt.Program, opt Options) (*symeval.Result, error) {
	t0 := time.Now()
	sopt := symeval.Options{Entry: opt.Entry, Params: opt.Params, Assume: opt.Assume, Values: opt.Values, Args: opt.Args, Env: opt.Env, Dir: opt.Dir, Stdin: opt.Stdin}
	if opt.Budget > 0 {
		sopt.MaxOccs = 100 * opt.Budget
	}
	res, err := symeval.Evaluate(prog, sopt)
	if debugTimes {
		fmt.Fprintf(os.Stderr, "cost.Analyze: evaluate %v\n", time.Since(t0))
		if res != nil {
			fmt.Fprintf(os.Stderr, "cost.Analyze: occurrences %d visits %d in trial walks %d\n", res.Occurrences, res.Visits, res.TrialVisits)
		}
	}
	return res, err
}

// analyzeResult is Analyze of an evaluation of prog under opt: it counts
// every node.
func analyzeResult(prog *apt.Program, opt Options, res *symeval.Result) *Report {
	if debugTimes {
		defer func(t1 time.Time) {
			fmt.Fprintf(os.Stderr, "cost.Analyze: count and compose %v\n", time.Since(t1))
		}(time.Now())
	}
	w := DefaultWeights()
	if opt.Weights != nil {
		w = *opt.Weights
	}
	if res.ArgvUnknown && opt.Budget == 0 {
		// The program chooses what it does by the text of arguments not
		// given (-args): every choice is counted under branches nothing
		// decides, which only a budget keeps from growing without end.
		opt.Budget = budgetFor(prog)
	}
	an := &analysis{
		assume:     assumptions(res.Assume),
		counts:     map[string]countResult{},
		w:          w,
		rankTables: map[string][]bool{},
		budget:     opt.Budget,
		rep: &Report{
			Program:  prog,
			Entry:    res.Entry,
			Parallel: res.Parallel,
			ByID:     map[string]*Node{},
			Weights:  w,
			Diags:    slices.Clone(res.Diags),
		},
		byNode:   map[apt.Node]*Node{},
		budgeted: opt.Budget > 0,
		strict:   opt.Budget > 0 && LargeProgram(prog),
	}
	if an.strict {
		an.spare = opt.Budget
	}
	an.rep.Budget = opt.Budget
	if np, ok := opt.Values[Size]; ok && res.Parallel {
		if _, fixed := opt.Values[Rank]; !fixed && np >= 1 && np <= maxRankwiseP {
			an.np = np
		}
	}
	an.rep.Assumptions = an.assume
	an.rep.an = an
	root := an.occ(res.Root, nil, false)
	an.rep.Work, an.rep.WorkMissing = root.work, root.workMissing
	an.finish(res)
	return an.rep
}

type countResult struct {
	pw  symbolic.Piecewise
	err error
	// names are the canonical names of the symbols of the set counted
	// (shapeKey), for renaming pw to another set of the same shape.
	names map[string]string
}

// maxRankwiseP bounds the process counts at which counts are split by rank
// classes.
const maxRankwiseP = 1 << 16

type analysis struct {
	// path holds the APT nodes of the occurrences occ is inside, the
	// outermost first (Node.Contexts).
	path []apt.Node
	// transfers are the counts of the point-to-point transfers the
	// costing made (Report.Transfers), in the order it met them, and
	// transferErr the first that failed. Only a what-if reads them, from
	// an analysis without a budget: their simplification waits for
	// Report.Transfers, which check and annotate never call
	// (finishTransfers; transfersDone once made), and so does the
	// counting of the transfers of Comm nodes without a closed form
	// (pending), which therefore takes none of a budgeted analysis's
	// budget from the nodes' counts.
	transfers     []TransferCount
	pending       []bool // by transfer: counted by finishTransfers
	transferErr   error
	transferErrAt int // the place in transfers of transferErr's transfer
	transfersDone bool
	// np is P at a point where the rank is free (0 otherwise): counts are
	// then split by rank classes; rankTables memoizes the truth of
	// conditions on the rank at every rank.
	np         int64
	rankTables map[string][]bool
	// rankParts memoizes the partitions of the ranks by sets of those
	// relations (rankPartition), by their keys.
	rankParts map[string]*rankPartition
	// simpMemo holds each domain case as simplifyDomain rewrote it, split
	// by the remainders it tests (residueCases).
	simpMemo map[string][]counting.Formula
	// caseCounts holds the counts of countGuardCases by shape (shapeKey).
	caseCounts map[string]countResult
	// guardMemo holds the ranks each guard of a count holds at (merge).
	guardMemo map[guardID]rankKey
	// merged is the number of pieces of each figure accumulate gathers
	// at its last merge: the next merge waits for twice as many, so that
	// a figure with many rank classes is not merged again at every
	// occurrence (which made merging quadratic in the occurrences).
	merged map[*symbolic.Piecewise]int
	// guardKeys numbers the distinct keys of guardMemo ("" is 0, the
	// empty guard's).
	guardKeys map[string]int
	// valueSplits is the product of the values of the splits on a
	// variable's values around the count in progress (countByValues).
	valueSplits int64
	// budget is the case-split cells the counts may still spend when
	// budgeted (Options.Budget is positive).
	budget   int
	budgeted bool
	// spare is the cells a strict analysis has for cheap counts once its
	// budget is spent (spareCells each).
	spare int
	// strict is set for the budgeted analysis of a whole application
	// (LargeProgram): each count is bounded too (budgetCells, budgetAtoms,
	// budgetSize, budgetPieces), so that the budget spreads over many
	// nodes rather than going to a few hard ones.
	strict bool
	assume *symbolic.Assumptions
	// loopBodies are the blocks that are a DO loop's whole body
	// (recurrence), found on first use.
	loopBodies map[*apt.Block]bool
	counts     map[string]countResult
	byDomain   map[*symeval.Domain]countResult
	// varies marks the Comm nodes whose transfers do not share one message
	// size (varyBytes) or one peer (varyPeer).
	varies map[*Node]uint8
	w      Weights
	rep    *Report
	byNode map[apt.Node]*Node
}

// count returns how many points of d there are, times its factor, or with a
// weight the weighted sum over them. The domain is first split on the guards
// of conditional values (see cases), each relation of a case simplified
// under the case's other conditions; identical sets are counted once.
func (an *analysis) count(d *symeval.Domain, extra counting.Formula, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	if an.spent() {
		return symbolic.Piecewise{}, errSpent
	}
	if extra == nil && weight == nil {
		// Occurrences in an unchanged state share their Domain.
		if an.byDomain == nil {
			an.byDomain = map[*symeval.Domain]countResult{}
		}
		if r, ok := an.byDomain[d]; ok {
			return r.pw, r.err
		}
		pw, err := an.countUncached(d, nil, nil)
		an.byDomain[d] = countResult{pw: pw, err: err}
		return pw, err
	}
	return an.countUncached(d, extra, weight)
}

func (an *analysis) countUncached(d *symeval.Domain, extra counting.Formula, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	dd := *d
	if extra != nil {
		dd.Cond = append(slices.Clone(d.Cond), extra)
	}
	set := dd.Set()
	if weight != nil {
		// The weight's symbols are parameters of the set too.
		declared := map[string]bool{}
		for _, v := range append(slices.Clone(set.Params), set.Vars...) {
			declared[v] = true
		}
		for _, s := range weight.Symbols() {
			if !declared[s] {
				set.Params = append(set.Params, s)
				declared[s] = true
			}
		}
	}
	if an.strict {
		if n, size := setMeasure(set.Cond, weight); n > budgetAtoms || size > budgetSize {
			if debugBudget {
				fmt.Fprintf(os.Stderr, "cost: %d function atoms, size %d, beyond the limits: %s\n", n, size, set)
			}
			return symbolic.Piecewise{}, errTooManyAtoms
		} else if debugBudget {
			fmt.Fprintf(os.Stderr, "cost: counting %d function atoms, size %d: %s\n", n, size, set)
		}
	}
	var total symbolic.Piecewise
	var err error
	if an.rankwise() && onlyParam(set.Params, symeval.Rank) {
		total, err = an.countByRank(set, weight)
	} else {
		total, err = an.countCases(set, weight)
	}
	if err != nil && debugBudget {
		fmt.Fprintf(os.Stderr, "cost: countUncached np=%d rankwise=%v params=%v: %v\n%s\n", an.np, an.rankwise(), set.Params, err, set)
	}
	if err != nil {
		return symbolic.Piecewise{}, err
	}
	if d.Factor.NumTerms() > 0 {
		if c, ok := d.Factor.Int64(); !ok || c != 1 {
			total = total.Scale(d.Factor)
		}
	}
	if an.strict && len(total.Pieces) > budgetPieces {
		return symbolic.Piecewise{}, errTooManyCases
	}
	return total, nil
}

// budgetCells bounds the case-split cells of one count in a budgeted
// analysis (counting.Options.MaxCells): a count that needs more would
// spend the budget that many others need.
const budgetCells = 256

// budgetPieces bounds the cases of a closed form a budgeted analysis keeps
// (a count, a node's work): one of more cases has no closed form within
// the limits. Such forms (hundreds of cases over the guards of a process
// grid's subdomain bounds) are beyond reading, and composing them costs
// more than all the others together.
const budgetPieces = 24

// budgetAtoms bounds the distinct function atoms (floors, mods, mins,
// nested ones included) of a set a budgeted analysis counts. The prover's
// work on a set grows with them far faster than with its cells: a set over
// a process grid's subdomain bounds holds dozens of nested floors by
// parameters, and each of its cells costs milliseconds of witness searches
// where a loop nest's cells cost microseconds. Their closed forms, when the
// engine reaches them, run to hundreds of cases.
const budgetAtoms = 8

// budgetSize bounds the size of a set's conditions (symbolic.Expr.Size,
// summed) in a strict analysis: products of floors by parameters (a
// subdomain's bounds over a process grid found by a search) make sets whose
// every cell costs the prover milliseconds.
const budgetSize = 256

// setMeasure returns the number of distinct function atoms of f and
// weight, and the sum of the sizes of their expressions (symbolic.Expr.Size).
func setMeasure(f counting.Formula, weight *symbolic.Expr) (atoms, size int) {
	var s symbolic.AtomSet
	var walk func(counting.Formula)
	walk = func(f counting.Formula) {
		switch g := f.(type) {
		case counting.Rel:
			s.Add(g.R.E)
			size += g.R.E.Size()
		case counting.And:
			for _, x := range g {
				walk(x)
			}
		case counting.Or:
			for _, x := range g {
				walk(x)
			}
		case counting.Not:
			walk(g.F)
		}
	}
	walk(f)
	if weight != nil {
		s.Add(*weight)
		size += weight.Size()
	}
	return s.Len(), size
}

// errSpent, errTooManyCases and errTooManyAtoms are why a budgeted analysis leaves a count
// without a closed form.
var (
	errSpent        = fmt.Errorf("%w: the analysis's budget is spent", counting.ErrTooComplex)
	errTooManyCases = fmt.Errorf("%w: a closed form of more than %d cases", counting.ErrTooComplex, budgetPieces)
	errTooManyAtoms = fmt.Errorf("%w: more than %d floors, mods, mins and maxes", counting.ErrTooComplex, budgetAtoms)
)

// spent reports whether a budgeted analysis has spent its budget: no count
// is then attempted.
func (an *analysis) spent() bool {
	return an.budgeted && an.budget <= 0 && (!an.strict || an.spare <= 0)
}

// spareCells bounds the cells of one count a strict analysis makes once its
// budget is spent, from its spare cells (as many as its budget).
const spareCells = 12

// countCases counts set case by case of the guards of its conditional
// values, each relation of a case simplified under the case's other
// conditions (simplifyDomain).
func (an *analysis) countCases(set *counting.Set, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	pw, err := an.countGuardCases(set, weight)
	if err != nil && errors.Is(err, counting.ErrTooComplex) && !errors.Is(err, errSpent) {
		if pv, ok, e := an.countByValues(set, weight); ok {
			return pv, e
		}
	}
	return pw, err
}

// countGuardCases is countCases without the split on a variable's values.
// The same sets recur (a routine's loops in each calling context and rank
// class): each shape is split into cases once, and its count renamed
// (shapeKey), which on NPB LU cost less than the keys of its cases.
func (an *analysis) countGuardCases(set *counting.Set, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	key, names := an.shapeKey(set, weight)
	if r, ok := an.caseCounts[key]; ok {
		if r.err != nil {
			return symbolic.Piecewise{}, r.err
		}
		return renamePW(r.pw, r.names, names)
	}
	pw, err := an.countGuardCasesUncached(set, weight)
	if err == nil || !errors.Is(err, errSpent) {
		// A count refused for a spent budget may be had with another.
		if an.caseCounts == nil {
			an.caseCounts = map[string]countResult{}
		}
		an.caseCounts[key] = countResult{pw: pw, err: err, names: names}
	}
	return pw, err
}

func (an *analysis) countGuardCasesUncached(set *counting.Set, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	vars := map[string]bool{}
	for _, v := range set.Vars {
		vars[v] = true
	}
	var total symbolic.Piecewise
	vkey := strings.Join(set.Vars, ",") + "|"
	for _, c := range cases(set.Cond, maxGuardSplits) {
		cs := *set
		// The same cases recur across rank classes and calling
		// contexts: each is simplified once.
		k := vkey + counting.FormulaKey(c)
		scs, ok := an.simpMemo[k]
		if !ok {
			scs = an.residueCases(an.simplifyDomain(c, vars))
			if an.simpMemo == nil {
				an.simpMemo = map[string][]counting.Formula{}
			}
			an.simpMemo[k] = scs
		}
		for _, sc := range scs {
			cs.Cond = sc
			if isFalse(cs.Cond) {
				continue
			}
			pw, err := an.countSet(&cs, weight)
			if err != nil {
				return symbolic.Piecewise{}, err
			}
			total = total.Add(pw)
		}
	}
	return total, nil
}

// onlyParam reports whether params holds no symbol but s.
func onlyParam(params []string, s string) bool {
	for _, p := range params {
		if p != s {
			return false
		}
	}
	return true
}

func (an *analysis) countSet(set *counting.Set, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	key, names := an.shapeKey(set, weight)
	if r, ok := an.counts[key]; ok {
		if r.err != nil {
			return symbolic.Piecewise{}, r.err
		}
		return renamePW(r.pw, r.names, names)
	}
	var pw symbolic.Piecewise
	var err error
	if debugCounts {
		t0 := time.Now()
		defer func() { fmt.Fprintln(os.Stderr, "DEBUG", time.Since(t0), key, err) }()
	}
	copt := counting.Options{}
	if an.budgeted {
		if an.spent() {
			return symbolic.Piecewise{}, errSpent
		}
		copt.Budget = &an.budget
		if an.strict {
			copt.MaxCells = budgetCells
			if an.budget <= 0 {
				// The budget is spent: the counts that need only a few
				// cells (a call made once per rank) still get them, from
				// the spare cells.
				copt.Budget, copt.MaxCells = &an.spare, spareCells
			}
		}
	}
	w := symbolic.Int(1)
	if weight != nil {
		w = *weight
	}
	if len(set.Params) == 0 && len(set.Vars) >= boxVars {
		// Every value fixed and a small box: its points are counted
		// one by one, faster than eliminating the variables.
		if pb, ok, e := counting.SumBox(set, w, boxPoints); ok {
			an.counts[key] = countResult{pw: pb, err: e, names: names}
			return pb, e
		}
	}
	pw, err = counting.Sum(set, w, an.assume, copt)
	if err != nil && len(set.Params) == 0 && (errors.Is(err, counting.ErrNotExact) || errors.Is(err, counting.ErrTooComplex)) {
		// Every value fixed (a point, a rank): the set is finite and
		// enumerating its outer variables counts it exactly.
		if pe, e := counting.SumAtPoint(set, w, an.assume, copt); e == nil {
			pw, err = pe, nil
			an.rep.Enumerated++
		} else if debugBudget {
			fmt.Fprintf(os.Stderr, "cost: SumAtPoint %s: %v\n", set, e)
		}
	}
	an.counts[key] = countResult{pw: pw, err: err, names: names}
	return pw, err
}

// boxVars and boxPoints bound the sets without parameters countSet counts
// point by point (counting.SumBox): nests of at least boxVars variables,
// whose box holds at most boxPoints points (a millisecond's work).
const (
	boxVars   = 3
	boxPoints = 1 << 15
)

// shapeKey returns a key of the count of set (with weight, under the
// assumptions) that sets equal up to a renaming of their symbols share, and
// the renaming: the canonical name of each symbol of the set and of the
// assumptions that bear on them, in order of first appearance. The loop
// nests of a routine called for every cell of a grid count the same sets
// over parameters named per call (cell_size_200, cell_size_375): each shape
// is counted once and its closed form renamed (renamePW).
//
// The assumptions on the set's symbols are part of the key, renamed with
// them: those that mention a symbol of the set, and then those that mention
// a symbol of these, to a fixed point. The others say nothing about the
// set's symbols, so the count does not depend on them.
func (an *analysis) shapeKey(set *counting.Set, weight *symbolic.Expr) (string, map[string]string) {
	names := make(map[string]string, len(set.Params)+len(set.Vars))
	var b strings.Builder
	b.Grow(256)
	name := func(s string) string {
		if n, ok := names[s]; ok {
			return n
		}
		n := "#" + strconv.Itoa(len(names))
		names[s] = n
		return n
	}
	for _, v := range set.Vars {
		b.WriteString(name(v))
		b.WriteByte(',')
	}
	b.WriteByte('|')
	writeFormulaRenamed(&b, set.Cond, name)
	if weight != nil {
		b.WriteString("|w")
		weight.WriteKeyRenamed(&b, name)
	}
	b.WriteByte('|')
	for _, p := range set.Params {
		b.WriteString(name(p))
		b.WriteByte(',')
	}
	// The assumptions on these symbols, to a fixed point.
	rels := an.assume.Relations()
	used := make([]bool, len(rels))
	for grew := true; grew; {
		grew = false
		for i, r := range rels {
			if used[i] {
				continue
			}
			syms := r.E.Symbols()
			if !slices.ContainsFunc(syms, func(s string) bool { _, ok := names[s]; return ok }) {
				continue
			}
			used[i], grew = true, true
			for _, s := range syms {
				name(s)
			}
		}
	}
	b.WriteString("|a")
	for i, r := range rels {
		if used[i] {
			r.WriteKeyRenamed(&b, name)
			b.WriteByte(';')
		}
	}
	return b.String(), names
}

// writeFormulaRenamed writes f's key (counting.FormulaKey) with its symbols
// renamed.
func writeFormulaRenamed(b *strings.Builder, f counting.Formula, name func(string) string) {
	switch g := f.(type) {
	case nil:
		b.WriteByte('T')
	case counting.Rel:
		g.R.WriteKeyRenamed(b, name)
	case counting.And:
		b.WriteString("&(")
		for _, x := range g {
			writeFormulaRenamed(b, x, name)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case counting.Or:
		b.WriteString("|(")
		for _, x := range g {
			writeFormulaRenamed(b, x, name)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case counting.Not:
		b.WriteString("!(")
		writeFormulaRenamed(b, g.F, name)
		b.WriteByte(')')
	}
}

// renamePW returns pw, a count of a set whose symbols had the canonical
// names from, with each symbol renamed to the one that has the same
// canonical name in to (see shapeKey).
func renamePW(pw symbolic.Piecewise, from, to map[string]string) (symbolic.Piecewise, error) {
	inv := make(map[string]string, len(to))
	for s, c := range to {
		inv[c] = s
	}
	var sub map[string]symbolic.Expr
	for s, c := range from {
		if t, ok := inv[c]; ok && t != s {
			if sub == nil {
				sub = map[string]symbolic.Expr{}
			}
			sub[s] = symbolic.Sym(t)
		}
	}
	if sub == nil {
		return pw, nil
	}
	out := symbolic.Piecewise{Pieces: make([]symbolic.Piece, len(pw.Pieces))}
	for i, pc := range pw.Pieces {
		v, err := pc.Value.Subst(sub)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		g := make([]symbolic.Relation, len(pc.Guard))
		for j, r := range pc.Guard {
			e, err := r.E.Subst(sub)
			if err != nil {
				return symbolic.Piecewise{}, err
			}
			g[j] = symbolic.Relation{E: e, Op: r.Op}
		}
		out.Pieces[i] = symbolic.Piece{Guard: g, Value: v}
	}
	return out, nil
}

// node returns the report node of n, creating it on first sight.
func (an *analysis) node(o *symeval.Occ, parent *Node) *Node {
	if n, ok := an.byNode[o.Node]; ok {
		return n
	}
	n := &Node{Node: o.Node, Routine: o.Routine, Parent: parent, Depth: o.Depth, Exact: true}
	an.byNode[o.Node] = n
	an.rep.Nodes = append(an.rep.Nodes, n)
	an.rep.ByID[o.Node.Base().ID] = n
	return n
}

// failFig records that figure fig of n has no closed form: a count beyond
// the counting engine's limits or the analysis's budget leaves the figure
// missing (Node.Missing), never a part of it standing for the whole; other
// failures are reported too (fail).
func (an *analysis) failFig(n *Node, fig Figure, what string, err error) {
	n.Missing |= fig
	if debugBudget {
		fmt.Fprintf(os.Stderr, "cost: %s %s of %s missing: %v\n", n.Node.Base().Span.Start(), what, n.Node.Base().ID, err)
	}
	if errors.Is(err, counting.ErrTooComplex) {
		return
	}
	an.fail(n, what, err)
}

func (an *analysis) fail(n *Node, what string, err error) {
	n.Exact = false
	msg := fmt.Sprintf("%s not derived: %v", what, err)
	if errors.Is(err, counting.ErrTooComplex) || errors.Is(err, counting.ErrNotExact) {
		msg = fmt.Sprintf("%s not derived exactly: %v", what, err)
	}
	if n.Note == "" {
		n.Note = msg
	}
	an.rep.Diags = append(an.rep.Diags, apt.Diagnostic{Pos: n.Node.Base().Span.Start(), Severity: apt.Warning, Msg: msg})
}

// occ costs one occurrence and its subtree and returns its inclusive work
// (MK's composition, seed 000 §4: children's work already carries their own
// execution counts, so a loop's work is its body's, an IF's its arms', a
// CALL's its callee's in this context).
//
// It also returns the part of that work that lies in no loop nest below
// the occurrence, excl, and whether any nest below took a part (cut; excl
// is then not the whole work). inNest says whether the occurrence is inside
// a loop of its own routine. A loop nest (a loop with no enclosing loop in
// its routine) keeps its excl as its NestWork and passes nothing up: the
// nests of the routines a nest calls are nests of their own, and the
// routines' statements outside their nests are the calling nest's, context
// by context, which the aggregated nodes could not tell apart.
//
// A work with a part that has no closed form within the limits is missing
// (workMissing, exclMissing) and so are the works that include it.
func (an *analysis) occ(o *symeval.Occ, parent *Node, inNest bool) occResult {
	n := an.node(o, parent)
	n.doms = append(n.doms, o.Dom)
	if o.Inexact {
		n.Exact = false
		if n.Note == "" {
			n.Note = o.Note
		}
	}
	if debugSym != "" && strings.Contains(o.Dom.Set().String(), debugSym) {
		fmt.Fprintln(os.Stderr, "SYM", o.Node.Base().ID, o.Node.Base().Span.Start(), o.Dom.Set())
	}
	cnt, err := an.count(o.Dom, nil, nil)
	cntMissing := err != nil
	if err != nil {
		an.failFig(n, FigCount, "count", err)
	}
	an.accumulate(n, FigCount, &n.Count, cnt)
	var iters symbolic.Piecewise // this occurrence's body executions
	itersOK := true
	if o.Body != nil {
		it, err := an.count(o.Body, nil, nil)
		if err != nil {
			an.failFig(n, FigIterations, "iteration count", err)
			itersOK = false
		}
		an.accumulate(n, FigIterations, &n.Iterations, it)
		iters = it
	}
	if o.Iters != nil {
		// A loop that was run: one domain per iteration, often the same.
		n.hasIters = true
		var pieces []symbolic.Piece
		for _, d := range o.Iters {
			it, err := an.count(d, nil, nil)
			if err != nil {
				an.failFig(n, FigIterations, "iteration count", err)
				itersOK = false
			}
			pieces = append(pieces, it.Pieces...)
		}
		iters = symbolic.Piecewise{Pieces: pieces}
		an.accumulate(n, FigIterations, &n.Iterations, iters)
	}
	var streams []Stream
	if (o.Stream > 0 || len(o.Accesses) > 0) && itersOK && len(iters.Pieces) > 0 {
		core, kind := an.iterationWork(o.Node.(*apt.Loop))
		streams = []Stream{{Iterations: iters, Bytes: o.Stream, Footprint: nestFootprint(o), Accesses: o.Accesses,
			Core: core, Kind: kind}}
		n.Streams = append(n.Streams, streams...)
	}
	if _, isLoop := o.Node.(*apt.Loop); isLoop {
		ctx := Context{Enclosing: make([]apt.Node, len(an.path)), Streams: streams}
		for i, x := range an.path {
			ctx.Enclosing[len(an.path)-1-i] = x
		}
		if itersOK {
			ctx.Iterations = iters
		}
		n.Contexts = append(n.Contexts, ctx)
	}
	var self symbolic.Piecewise
	selfMissing := false
	switch x := o.Node.(type) {
	case *apt.Block:
		self, selfMissing = an.blockWork(x, o, n, cnt, cntMissing)
	case *apt.Call:
		if !an.w.Call.IsZero() {
			self, selfMissing = cnt.Scale(symbolic.Const(an.w.Call)), cntMissing
		}
	case *apt.Comm:
		an.comm(x, o, n)
	}
	if selfMissing {
		n.Missing |= FigSelf
		self = symbolic.Piecewise{}
	}
	an.accumulate(n, FigSelf, &n.Self, self)
	_, isLoop := o.Node.(*apt.Loop)
	if _, isRoutine := o.Node.(*apt.Routine); isRoutine {
		inNest = false // a called routine's loops start nests of their own
	}
	// The children's pieces are gathered and merged once: adding them one
	// by one would copy the growing sum for every child.
	pieces := slices.Clone(self.Pieces)
	var parts []symbolic.Piecewise // the children's excl, summed only when a nest cut some
	r := occResult{workMissing: selfMissing}
	partsMissing := selfMissing
	an.path = append(an.path, o.Node)
	for _, ch := range o.Children {
		c := an.occ(ch, n, inNest || isLoop)
		r.workMissing = r.workMissing || c.workMissing
		partsMissing = partsMissing || c.exclMissing
		if !r.workMissing {
			pieces = append(pieces, c.work.Pieces...)
		}
		parts = append(parts, c.excl)
		r.cut = r.cut || c.cut
	}
	an.path = an.path[:len(an.path)-1]
	if !r.workMissing {
		r.work = an.merge(symbolic.Piecewise{Pieces: pieces})
		if an.strict && len(r.work.Pieces) > budgetPieces {
			r.work, r.workMissing = symbolic.Piecewise{}, true
		}
	}
	if r.workMissing {
		n.Missing |= FigWork
	}
	if !slices.Contains(an.path, o.Node) {
		// An occurrence inside another of the same node (a recursive
		// routine's activations) is already in that one's inclusive work.
		an.accumulate(n, FigWork, &n.Work, r.work)
	}
	r.excl, r.exclMissing = r.work, r.workMissing
	if r.cut {
		r.exclMissing = partsMissing
		ps := slices.Clone(self.Pieces)
		for _, e := range parts {
			ps = append(ps, e.Pieces...)
		}
		r.excl = symbolic.Piecewise{}
		if !r.exclMissing {
			r.excl = an.merge(symbolic.Piecewise{Pieces: ps})
		}
	}
	if isLoop && !inNest {
		if r.exclMissing {
			n.Missing |= FigNestWork
		}
		an.accumulate(n, FigNestWork, &n.NestWork, r.excl)
		return occResult{work: r.work, workMissing: r.workMissing, cut: true}
	}
	return r
}

// occResult is what occ returns: an occurrence's inclusive work, the part
// of it in no loop nest below (excl), whether a nest below took a part
// (cut), and whether each has no closed form within the limits.
type occResult struct {
	work, excl               symbolic.Piecewise
	workMissing, exclMissing bool
	cut                      bool
}

// accumulate adds pw to figure fig of node n, which sums the node's
// occurrences (calling contexts, iterations of loops that were run): the
// pieces are appended in place and merged when they grow, so that a node
// met thousands of times costs linear time. finish merges what is left. A
// figure that is missing stays empty.
func (an *analysis) accumulate(n *Node, fig Figure, dst *symbolic.Piecewise, pw symbolic.Piecewise) {
	if n.Missing.Has(fig) {
		dst.Pieces = nil
		return
	}
	if len(pw.Pieces) == 0 {
		return
	}
	dst.Pieces = append(dst.Pieces, pw.Pieces...)
	if len(dst.Pieces) > max(accumulateMerge, 2*an.merged[dst]) || an.strict && len(dst.Pieces) > budgetPieces {
		*dst = an.merge(*dst)
		if an.merged == nil {
			an.merged = map[*symbolic.Piecewise]int{}
		}
		an.merged[dst] = len(dst.Pieces)
		if an.strict && len(dst.Pieces) > budgetPieces {
			n.Missing |= fig
			dst.Pieces = nil
		}
	}
}

// accumulateMerge is the number of pieces a node's figure gathers before
// accumulate merges them.
const accumulateMerge = 64

// blockWork is the work of a block's statements: each statement's weight
// times the block's count, or for an array statement the sum of its element
// counts over the domain.
// cntMissing says that the block's count has no closed form; the work
// returned is then missing too (missing) when the block has scalar work.
func (an *analysis) blockWork(b *apt.Block, o *symeval.Occ, n *Node, cnt symbolic.Piecewise, cntMissing bool) (out symbolic.Piecewise, missing bool) {
	scalar := symbolic.Rat{}
	for i, s := range b.Stmts {
		w := an.w.Of(s.Ops)
		if w.IsZero() {
			continue
		}
		if i < len(o.Sizes) && o.Sizes[i] != nil {
			for _, alt := range o.Sizes[i].Alts {
				if missing {
					break
				}
				weight := alt.E.Mul(symbolic.Const(w))
				pw, err := an.count(o.Dom, alt.Guard, &weight)
				if err != nil {
					an.failFig(n, FigSelf, "array statement work", err)
					missing = true
					continue
				}
				out = out.Add(pw)
			}
			continue
		}
		scalar = scalar.Add(w)
	}
	if an.loopBodies == nil {
		an.loopBodies = loopBodies(an.rep.Program)
	}
	if an.loopBodies[b] && !scalar.IsZero() {
		// A chain of dependent operations carried from one iteration to
		// the next bounds the loop's rate (recurrence).
		if rec, ok := an.w.recurrence(b.Stmts); ok && rec.Cmp(scalar) > 0 {
			scalar = rec
		}
	}
	if !scalar.IsZero() {
		missing = missing || cntMissing
		out = out.Add(cnt.Scale(symbolic.Const(scalar)))
	}
	if missing {
		return symbolic.Piecewise{}, true
	}
	return out, false
}

// comm counts a Comm's messages and bytes per rank (SCALA's number of
// transfers and data volume, seed 001 §4).
func (an *analysis) comm(c *apt.Comm, o *symeval.Occ, n *Node) {
	if n.Comm == nil {
		n.Comm = &Comm{Op: c.Op}
	}
	p2p := !c.Op.IsCollective()
	side := func(ts []symeval.Transfer, send bool, msgs, bytes *symbolic.Piecewise) {
		for _, t := range ts {
			if n.Missing.Has(FigComm) {
				*msgs, *bytes = symbolic.Piecewise{}, symbolic.Piecewise{}
				if p2p {
					// The node has no closed form, but each transfer
					// that counts still tells the phase analysis who
					// sends to whom.
					an.transferOnly(o, send, t)
				}
				continue
			}
			an.common(n, varyBytes, &n.Comm.MsgBytes, t.Bytes, o)
			an.common(n, varyPeer, &n.Comm.Peer, t.Peer, o)
			pw, err := an.count(o.Dom, t.Guard, nil)
			if err != nil {
				an.failFig(n, FigComm, "message count", err)
				if p2p {
					an.transferFailed(err)
				}
				continue
			}
			*msgs = msgs.Add(pw)
			var tc *TransferCount
			if p2p {
				an.transfers = append(an.transfers, TransferCount{Occ: o, Send: send, Transfer: t, Messages: pw})
				an.pending = append(an.pending, false)
				tc = &an.transfers[len(an.transfers)-1]
			}
			if t.Bytes == nil {
				n.Exact = false
				if n.Note == "" {
					n.Note = "the message size is unknown"
				}
				continue
			}
			bw, err := an.count(o.Dom, t.Guard, t.Bytes)
			if err != nil {
				an.failFig(n, FigComm, "data volume", err)
				if p2p {
					an.transferFailed(err)
				}
				continue
			}
			if tc != nil {
				tc.Volume = bw
			}
			*bytes = bytes.Add(bw)
		}
	}
	side(o.Sends, true, &n.Comm.Messages, &n.Comm.BytesSent)
	side(o.Recvs, false, &n.Comm.Received, &n.Comm.BytesReceived)
	if n.Missing.Has(FigComm) {
		n.Comm.Messages, n.Comm.Received = symbolic.Piecewise{}, symbolic.Piecewise{}
		n.Comm.BytesSent, n.Comm.BytesReceived = symbolic.Piecewise{}, symbolic.Piecewise{}
	}
}

// transferOnly records a point-to-point transfer of o for Report.Transfers
// alone, where its Comm node's totals have no closed form: finishTransfers
// counts it.
func (an *analysis) transferOnly(o *symeval.Occ, send bool, t symeval.Transfer) {
	an.transfers = append(an.transfers, TransferCount{Occ: o, Send: send, Transfer: t})
	an.pending = append(an.pending, true)
}

// countTransfer counts tc's messages and, when its size is known, its
// bytes, reporting failures to failed; it reports false when the message
// count failed (the transfer is then left out).
func (an *analysis) countTransfer(tc *TransferCount, failed func(error)) bool {
	pw, err := an.count(tc.Occ.Dom, tc.Guard, nil)
	if err != nil {
		failed(err)
		return false
	}
	tc.Messages = pw
	if tc.Bytes != nil {
		if bw, err := an.count(tc.Occ.Dom, tc.Guard, tc.Bytes); err != nil {
			failed(err)
		} else {
			tc.Volume = bw
		}
	}
	return true
}

// finishTransfers counts the pending transfers and simplifies the counts
// of every transfer, as the costing did before Report.Transfers waited for
// them. The first failure is the first in the transfers' order, as it was
// when all were counted during the costing.
func (an *analysis) finishTransfers() {
	an.transfersDone = true
	out := an.transfers[:0]
	for i, tc := range an.transfers {
		if an.pending[i] {
			failed := func(err error) {
				if an.transferErr == nil || i < an.transferErrAt {
					an.transferErr, an.transferErrAt = err, i
				}
			}
			if !an.countTransfer(&tc, failed) {
				continue
			}
		}
		tc.Messages = tc.Messages.SimplifyWithin(an.assume, simplifyBudget)
		if len(tc.Volume.Pieces) > 0 {
			tc.Volume = tc.Volume.SimplifyWithin(an.assume, simplifyBudget)
		}
		out = append(out, tc)
	}
	an.transfers, an.pending = out, nil
}

// Flags of analysis.varies.
const (
	varyBytes uint8 = 1 << iota
	varyPeer
)

// common keeps in *dst the one value e that every transfer of a Comm node
// has (its message size or peer), or nil once two transfers differ, one is
// unknown, or one depends on the occurrence's loop variables: a routine
// that sends a halo called at every level of a multigrid, or for each axis,
// sends another size to another neighbour each time, and the size of its
// first message must not stand for all of them (in annotate, MK2001's
// time, a collective's model).
func (an *analysis) common(n *Node, flag uint8, dst **symbolic.Expr, e *symbolic.Expr, o *symeval.Occ) {
	if an.varies[n]&flag != 0 {
		return
	}
	vary := e == nil || *dst != nil && !(*dst).Equal(*e)
	if !vary && o.Dom != nil {
		for _, s := range e.Symbols() {
			if slices.Contains(o.Dom.Vars, s) {
				vary = true
				break
			}
		}
	}
	if vary {
		if an.varies == nil {
			an.varies = map[*Node]uint8{}
		}
		an.varies[n] |= flag
		*dst = nil
		return
	}
	if *dst == nil {
		c := *e
		*dst = &c
	}
}

// simplifyBudget bounds the prover's steps per question when the final
// closed forms are simplified.
const simplifyBudget = 60

// strictTidyPieces bounds the pieces of the figures a strict analysis (a
// whole application with P symbolic) simplifies when it finishes: the
// hundreds of node figures of NPB SP would otherwise take most of its time
// to tidy, to little effect. The figures after them are merged only.
const strictTidyPieces = 200

// finish simplifies every closed form under the assumptions and keeps the
// parameters the counts depend on.
// keyedPieces bounds the pieces of a closed form finish looks up by its key
// at a point.
const keyedPieces = 64

func (an *analysis) finish(res *symeval.Result) {
	a := an.assume
	// Many nodes share a closed form (a block and its loop's iterations):
	// each distinct one is simplified once, with a small proof budget, since
	// a guard left unsimplified costs only readability.
	memo := map[string]symbolic.Piecewise{}
	tidyPieces := strictTidyPieces
	simp := func(pw *symbolic.Piecewise) {
		*pw = an.merge(*pw) // what accumulate left unmerged
		if len(pw.Pieces) <= 1 {
			// One piece came from counting, which simplified it under
			// the same assumptions; there is nothing to merge.
			return
		}
		if an.rankwise() && len(pw.Pieces) > keyedPieces {
			// At a point the simplification is cheaper than the key of
			// a form this long.
			*pw = an.simplifyAtPoint(*pw)
			return
		}
		k := pw.Key()
		if r, ok := memo[k]; ok {
			*pw = r
			return
		}
		if an.rankwise() {
			*pw = an.simplifyAtPoint(*pw)
			memo[k] = *pw
			return
		}
		if an.strict {
			if tidyPieces <= 0 {
				return
			}
			tidyPieces -= len(pw.Pieces)
		}
		*pw = pw.SimplifyWithin(a, simplifyBudget)
		memo[k] = *pw
	}
	// The work figures of a strict analysis are read only as shares of
	// one another; its counts are printed.
	simpWork := simp
	if an.strict {
		simpWork = func(pw *symbolic.Piecewise) { *pw = an.merge(*pw) }
	}
	used := map[string]bool{}
	use := func(s string) { used[s] = true }
	note := func(pw symbolic.Piecewise) {
		for _, p := range pw.Pieces {
			p.Value.VisitSymbols(use)
			for _, g := range p.Guard {
				g.E.VisitSymbols(use)
			}
		}
	}
	simpWork(&an.rep.Work)
	note(an.rep.Work)
	for _, n := range an.rep.Nodes {
		simp(&n.Count)
		simpWork(&n.Work)
		simpWork(&n.Self)
		if len(n.NestWork.Pieces) > 0 {
			simpWork(&n.NestWork)
		}
		if len(n.Iterations.Pieces) > 0 {
			simp(&n.Iterations)
		}
		note(n.Count)
		note(n.Iterations)
		// The work of nodes whose parents' work is missing (the program's,
		// in a budgeted analysis) is read on its own.
		note(n.Work)
		note(n.Self)
		note(n.NestWork)
		if n.Comm != nil {
			for _, pw := range []*symbolic.Piecewise{&n.Comm.Messages, &n.Comm.Received, &n.Comm.BytesSent, &n.Comm.BytesReceived} {
				simp(pw)
				note(*pw)
			}
		}
	}
	for _, r := range a.Relations() {
		for _, s := range r.E.Symbols() {
			used[s] = true
		}
	}
	// A kept parameter's default and bounds may name others (a counter
	// between 0 and a loop's trip count): those are kept too.
	for grew := true; grew; {
		grew = false
		for _, p := range res.Params {
			if !used[p.Name] && p.Default == nil && p.Value == nil {
				continue
			}
			for _, e := range []*symbolic.Expr{p.Default, p.Lo, p.Hi} {
				if e == nil {
					continue
				}
				for _, s := range e.Symbols() {
					if !used[s] {
						used[s], grew = true, true
					}
				}
			}
		}
	}
	for _, p := range res.Params {
		if !used[p.Name] && p.Default == nil && p.Value == nil {
			continue
		}
		an.rep.Params = append(an.rep.Params, &Param{
			Name: p.Name, Origin: origins[p.Origin], Pos: p.Pos, What: p.What, Default: p.Default, Value: p.Value, Defaulted: p.Defaulted,
			Lo: p.Lo, Hi: p.Hi,
		})
	}
	an.rep.Inputs = res.Inputs
	an.rep.Read = res.Read
	an.rep.Assumed = res.Assumed
	an.rep.Occurrences = res.Occurrences
	an.rep.Stopped = res.Stopped
	an.rep.Eval = res
	an.rep.RankwiseP = an.np
}

var origins = map[symeval.Origin]ParamOrigin{
	symeval.FromAnnotation:  FromAnnotation,
	symeval.FromRead:        FromRead,
	symeval.FromCommandLine: FromCommandLine,
	symeval.FromUnresolved:  FromUnresolved,
	symeval.FromFrequency:   FromFrequency,
	symeval.FromTripCount:   FromTripCount,
	symeval.FromArguments:   FromArguments,
}

// assumptions builds the assumption set, each relation simplified under the
// others (so that mod(n,P) == 0 with n >= P >= 1 reads with floor, not
// trunc, and the prover can use it), one at a time and never under itself
// (see simplifyDomain).
func assumptions(rels []symbolic.Relation) *symbolic.Assumptions {
	cur := slices.Clone(rels)
	all := symbolic.NewAssumptions(rels...)
	for i, r := range cur {
		if len(r.E.FuncAtoms()) == 0 || all.Simplify(r.E).Equal(r.E) {
			continue // nothing to decide, or nothing decided with all of them
		}
		others := symbolic.NewAssumptions(cur[:i]...)
		others.Assume(cur[i+1:]...)
		cur[i] = symbolic.Relation{E: others.Simplify(r.E), Op: r.Op}
	}
	var out []symbolic.Relation
	for _, r := range cur {
		out = append(out, r)
		if r.Op == symbolic.EQ {
			// e == 0 as two inequalities too, which bound propagation uses
			// (P*floor(n/P) == n gives P*floor(n/P) >= n).
			out = append(out, symbolic.Relation{E: r.E, Op: symbolic.GE}, symbolic.Relation{E: r.E.Neg(), Op: symbolic.GE})
		}
	}
	return symbolic.NewAssumptions(out...)
}

// local returns the assumptions with the top-level relations of a domain's
// condition added (the loop bounds), under which trunc((k-1)/m) of a loop
// variable k >= 1 reads as floor.
func (an *analysis) local(f counting.Formula) *symbolic.Assumptions {
	rels := counting.TopRels(f)
	if len(rels) == 0 {
		return an.assume
	}
	a := an.assume.Clone()
	a.Assume(rels...)
	return a
}

// simplifyDomain rewrites a domain's condition for counting (see simplify):
// the relations of its top-level conjunction (the loop bounds) one at a
// time, each under the assumptions and the others as they stand, those
// before it already rewritten; the rest (disjunctions, negations) under the
// assumptions and all the top-level relations.
//
// A relation must never be simplified under assumptions that hold it: under
// r, whatever r implies is true, so r would be rewritten into something it
// only implies, not something equivalent. With i >= k + 1, the bound i <=
// min(1, k + 1) implies k + 1 <= 1; under itself min(1, k + 1) is then k + 1
// and the bound becomes i <= k + 1, which holds for k >= 1 too, where the
// loop DO i = k + 1, min(1, k + 1) does not run: the rewritten domain has a
// point for every k. Under the other relation alone (i >= k + 1 says
// nothing of k) the min stays. Rewriting one relation at a time under the
// others keeps the conjunction equivalent at each step; rewriting all of
// them at once under the others as given would not (two copies of one bound
// would each justify the other's rewriting). The parts below the top level
// may use all the top-level relations: those hold wherever the domain does,
// and their rewritten forms are equivalent to them.
//
// A relation that all the top-level relations (itself included) leave
// unchanged is kept without building its own context: keeping a relation is
// always sound, and fewer assumptions rarely decide more.
func (an *analysis) simplifyDomain(f counting.Formula, vars map[string]bool) counting.Formula {
	var items []counting.Formula
	var flat func(f counting.Formula)
	flat = func(f counting.Formula) {
		if g, ok := f.(counting.And); ok {
			for _, x := range g {
				flat(x)
			}
			return
		}
		items = append(items, f)
	}
	flat(f)
	all := an.local(f)
	// held[j] are the relations item j requires, as rewritten so far.
	held := make([][]symbolic.Relation, len(items))
	for j, it := range items {
		if r, ok := it.(counting.Rel); ok {
			held[j] = []symbolic.Relation{r.R}
		}
	}
	out := make(counting.And, len(items))
	for j, it := range items {
		r, ok := it.(counting.Rel)
		if !ok {
			out[j] = an.simplify(it, vars, all)
			continue
		}
		g := an.simplify(r, vars, all)
		if gr, ok := g.(counting.Rel); ok && gr.R.Op == r.R.Op && gr.R.E.Equal(r.R.E) {
			out[j] = r
			continue
		}
		ctx := an.assume.Clone()
		for k, rels := range held {
			if k != j {
				ctx.Assume(rels...)
			}
		}
		g = an.simplify(r, vars, ctx)
		if isFalse(g) {
			return g
		}
		out[j] = g
		held[j] = counting.TopRels(g)
	}
	if _, ok := f.(counting.And); !ok && len(out) == 1 {
		return out[0]
	}
	return out
}

// simplify rewrites every relation of f under local (trunc of a
// non-negative value is floor, min and max decided by them), which the
// counting engine needs to know the signs of divisors. The result is
// equivalent to f wherever local holds, so local must not rest on f's own
// relations (see simplifyDomain).
func (an *analysis) simplify(f counting.Formula, vars map[string]bool, local *symbolic.Assumptions) counting.Formula {
	switch g := f.(type) {
	case counting.Rel:
		r := symbolic.Relation{E: local.Simplify(g.R.E), Op: g.R.Op}
		// A test of remainders (a parity, a place in a cycle) that the
		// others of its domain make always true or never true: a
		// domain's case that cannot hold is left out here, before the
		// counting engine splits it on every other test.
		if t, ok := local.ByResidues(r); ok {
			if t == symbolic.True {
				return counting.And{}
			}
			return counting.Or{}
		}
		if r.Op == symbolic.EQ && floorOverVars(r.E, vars) {
			// floor(x) == r is floor(x) >= r and floor(x) <= r.
			ge, ok1 := local.Unfloor(symbolic.Relation{E: r.E, Op: symbolic.GE})
			le, ok2 := local.Unfloor(symbolic.Relation{E: r.E.Neg(), Op: symbolic.GE})
			if ok1 && ok2 {
				return counting.And{counting.Rel{R: ge}, counting.Rel{R: le}}
			}
		}
		if !floorOverVars(r.E, vars) {
			return counting.Rel{R: r}
		}
		if u, ok := local.Unfloor(r); ok {
			r = u
		}
		if len(r.E.Symbols()) > 0 && !mentionsAny(r.E, vars) {
			switch an.assume.Prove(r) {
			case symbolic.True:
				return counting.And{}
			case symbolic.False:
				return counting.Or{}
			}
		}
		return counting.Rel{R: r}
	case counting.And:
		out := make(counting.And, len(g))
		for i, x := range g {
			out[i] = an.simplify(x, vars, local)
		}
		return out
	case counting.Or:
		out := make(counting.Or, len(g))
		for i, x := range g {
			out[i] = an.simplify(x, vars, local)
		}
		return out
	case counting.Not:
		return counting.Not{F: an.simplify(g.F, vars, local)}
	}
	return f
}

func mentionsAny(e symbolic.Expr, vars map[string]bool) bool {
	for _, s := range e.Symbols() {
		if vars[s] {
			return true
		}
	}
	return false
}

// floorOverVars reports whether e has a floor of an expression in the domain
// variables: only those are worth rewriting (a floor of parameters alone is
// an atom the counting engine keeps).
func floorOverVars(e symbolic.Expr, vars map[string]bool) bool {
	for _, at := range e.FuncAtoms() {
		if name, args, ok := at.AsFunc(); ok && name == "floor" && len(args) == 1 && mentionsAny(args[0], vars) {
			return true
		}
	}
	return false
}

var (
	debugTimes = os.Getenv("MKVET_DEBUG_TIMES") != ""
	debugSym   = os.Getenv("MKVET_DEBUG_SYM")
	// debugCounts prints each set counted with the time it took.
	debugCounts = os.Getenv("MKVET_DEBUG") != ""
	// debugBudget prints the sets a budgeted analysis leaves uncounted.
	debugBudget = os.Getenv("MKVET_DEBUG_BUDGET") != ""
)

// nestFootprint is the footprint of the loop nest an occurrence is in: the
// outermost loop around it in its routine.
func nestFootprint(o *symeval.Occ) *symeval.Footprint {
	for p := o; p != nil && p.Routine == o.Routine; p = p.Parent {
		if p.Footprint != nil {
			return p.Footprint
		}
	}
	return nil
}
