package symeval

import (
	"fmt"
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// The symbols of the SPMD structure.
const (
	Size = "P"    // MPI_COMM_SIZE
	Rank = "rank" // MPI_COMM_RANK, 0 <= rank <= P-1
)

// Result is a symbolically evaluated program.
type Result struct {
	Program *apt.Program
	Entry   *apt.Routine
	// Parallel is set when the program asks for its size or rank.
	Parallel bool
	// Root is the entry routine's occurrence; every other occurrence hangs
	// below it in execution order, callees below their call.
	Root *Occ
	// Params are the parameters the evaluation created or was given, in order
	// of creation. Not every one need appear in a count.
	Params []*Param
	// Assume holds the relations the counts may rely on: P >= 1,
	// 0 <= rank <= P-1, `!mk$ assume` annotations and the caller's.
	Assume []symbolic.Relation
	// Diags are problems met, each once.
	Diags []apt.Diagnostic
	// Inputs are the files the program reads only when present, which the
	// evaluation took as absent (the program's own defaults), and the
	// environment variables it reads that Options.Env does not set, taken
	// as unset (its own fallback).
	Inputs []InputFile
	// Read are the values READ statements took from the program's input
	// files (Options.Dir), each with the file and record it came from.
	Read []ReadValue
	// Stopped is set when every path of the program stops (STOP,
	// MPI_ABORT) before its end.
	Stopped *Stopped
	// StopsOnP is set when paths of the program stop (an error check, an
	// MPI_ABORT) under a condition on the process count alone that the
	// evaluation left open (P symbolic): the counts are those of the
	// process counts where none holds (a process grid read from a deck
	// fits one P), and elsewhere the program stops.
	StopsOnP bool
	// Occurrences is the number of node occurrences the evaluation made: a
	// measure of the program's size as evaluated (calling contexts and run
	// iterations included).
	Occurrences int
	// Visits counts every node the evaluation walked, those of runs,
	// probes and trial walks it threw away included: its work.
	Visits int64
	// TrialVisits are those of Visits made in probes of loops and trial
	// walks of their bodies, whose results are kept only as findings.
	TrialVisits int64
	// LeanFrom, when set, is the loop (or routine) the evaluation was in
	// when its trial walks passed their bound: from there on no loop was
	// run or probed (leanVisits).
	LeanFrom *apt.Pos
	// Assumed are the choices the evaluation made where the program
	// depends on data it cannot see and one choice is neutral (an exit on
	// convergence taken as never taken), each once.
	Assumed []Assumption
	// ArgvUnknown is set when the program's control reads the text of its
	// command-line arguments (strcmp on argv[1]) and none were given
	// (Options.Args): its counts then branch on unknown comparisons.
	ArgvUnknown bool
}

// Stopped says where every path of the program ends by STOP or MPI_ABORT
// before its end.
type Stopped struct {
	Pos apt.Pos
}

// Assumption is a stated choice the counts rest on.
type Assumption struct {
	Pos  apt.Pos
	What string
	// Args marks the choice of the command line the run is taken to
	// have, where -args does not give it.
	Args bool
}

// Origin says where a parameter came from.
type Origin int

// Parameter origins.
const (
	FromAnnotation  Origin = iota + 1 // `!mk$ param` or Options.Params
	FromRead                          // a READ statement
	FromCommandLine                   // command_argument_count, get_command_argument
	FromUnresolved                    // a value the evaluation could not derive
	FromFrequency                     // how often an unanalysable branch is taken, in percent
	FromTripCount                     // the trip count of a loop the evaluation cannot bound
	FromArguments                     // a C program's argc or a result from the text of argv, not given (Options.Args)
)

// Param is a symbol that stands for a value the program does not fix
// statically.
type Param struct {
	// dropped marks a parameter a failed run created and its restore
	// took back: the unknowns still linked to it create theirs anew
	// (unknown.live).
	dropped bool
	Name    string
	Origin  Origin
	Pos     apt.Pos
	What    string
	// Default is the annotation's value (`!mk$ param n = 1024`), nil if none.
	Default *symbolic.Expr
	// Real is set for a real-valued parameter.
	Real bool
	// Value is the parameter's value in an evaluation at a point
	// (Options.Values, or the default there), nil when it stays a symbol.
	Value *int64
	// Defaulted is set when Value is the program's own default for an
	// input the point does not give (an input deck's keyword left out).
	Defaulted bool
	// Lo and Hi bound the values the parameter can take, where the
	// evaluation knows them (a branch frequency is 0..100); nil otherwise.
	Lo, Hi *symbolic.Expr
	// ByRank is set for a trip count that differs from rank to rank,
	// each rank's run deciding it, beyond the process counts at which
	// loops are run rank by rank: Lo and Hi are its least and largest
	// values over the ranks, and one value stands for all of them, so
	// the counts resting on it are approximate.
	ByRank bool
	// inert is set for a parameter created while evaluating a value only
	// a variable nothing control relevant reads receives (a message tag
	// kept for a request's bookkeeping), or inside an arm taken on data
	// that changes no control value (feedsControl): it cannot move the
	// values a run computes, so a run does not give up for it
	// (paramsSince).
	inert bool
}

// byRankNote is why a count resting on a ByRank trip count is approximate.
func byRankNote(p *Param) string {
	return fmt.Sprintf("its trip count differs from rank to rank (%s, between %s and %s); one value stands for every rank", p.Name, p.Lo, p.Hi)
}

// Domain is where an occurrence executes: the integer points of Vars (the
// enclosing loops' index variables, outermost first) satisfying Cond, for each
// value of the parameters, P and rank; Factor multiplies the count (the
// frequency parameters of unanalysable branches; 1 otherwise). Occurrences
// met in one unchanged state share their Domain: treat it as immutable.
type Domain struct {
	Vars   []string
	Cond   []counting.Formula
	Factor symbolic.Expr
}

// Set returns the domain as a counting set whose parameters are every other
// symbol its condition mentions.
func (d *Domain) Set() *counting.Set {
	vars := map[string]bool{}
	for _, v := range d.Vars {
		vars[v] = true
	}
	seen := map[string]bool{}
	var params []string
	var visit func(f counting.Formula)
	visit = func(f counting.Formula) {
		switch g := f.(type) {
		case counting.Rel:
			for _, s := range g.R.E.Symbols() {
				if !vars[s] && !seen[s] {
					seen[s] = true
					params = append(params, s)
				}
			}
		case counting.And:
			for _, x := range g {
				visit(x)
			}
		case counting.Or:
			for _, x := range g {
				visit(x)
			}
		case counting.Not:
			visit(g.F)
		}
	}
	for _, f := range d.Cond {
		visit(f)
	}
	var cond counting.Formula
	if len(d.Cond) == 1 {
		cond = d.Cond[0]
	} else if len(d.Cond) > 1 {
		cond = counting.And(append([]counting.Formula(nil), d.Cond...))
	}
	return &counting.Set{Params: params, Vars: append([]string(nil), d.Vars...), Cond: cond}
}

// Occ is one occurrence of an APT node in the evaluation: the node in one
// calling context. A node inside a routine called from two places has two
// occurrences.
type Occ struct {
	Node    apt.Node
	Routine *apt.Routine
	Parent  *Occ
	// Depth counts the enclosing loops, through calls.
	Depth int
	// Dom is where the node executes; for a Loop, Body is where its body
	// executes (Dom plus the loop's index variable).
	Dom  *Domain
	Body *Domain
	// Iters, for a loop that was run iteration by iteration, holds the
	// domain each iteration started in (Body is then nil): the loop's
	// iterations are the sum of their counts.
	Iters []*Domain
	// Children are the occurrences of the node's children, a Call's being
	// the callee routine's occurrence, a Block's the function routines its
	// statements call.
	Children []*Occ
	// Sizes holds, for a Block, each statement's element count (an array
	// statement's section size; nil for a scalar statement).
	Sizes []*Value
	// Sends and Recvs are a Comm node's transfers, one per combination of
	// alternatives of its peer and size; a transfer to MPI_PROC_NULL has none.
	Sends, Recvs []Transfer
	// Inexact is set when the domain rests on an approximation; Note says
	// which.
	Inexact bool
	Note    string
	// Footprint is, for a loop with no enclosing loop in its routine (a
	// nest), the data its statements touch in this context; the loops
	// inside the nest have none of their own.
	Footprint *Footprint
	// Stream is, for an innermost loop (no loop in its body), the bytes
	// one iteration reads and writes, 0 when unknown.
	Stream int64
	// Accesses are, for an innermost loop, its streams of array data in
	// this context: how each walks memory and where it finds its data.
	Accesses []Access
}

// Transfer is one side of a Comm under one guard: Bytes bytes to or from
// Peer (nil for a collective or an unresolved peer) where Guard holds.
type Transfer struct {
	Guard counting.Formula
	Bytes *symbolic.Expr // nil when the size is unknown
	Peer  *symbolic.Expr
}
