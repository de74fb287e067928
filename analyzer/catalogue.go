package analyzer

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
)

// Check is one entry of the catalogue: a rule with its stable ID and its
// documentation, kept together as data (the -json output, `mkvet help
// checks` and SARIF rule descriptions are generated from it).
type Check struct {
	// ID is stable: MK1xxx cost and complexity, MK2xxx communication and
	// scalability, MK3xxx input and annotation problems. IDs are never
	// renumbered or reused.
	ID string
	// Title is a short lower-case noun phrase.
	Title    string
	Severity apt.Severity
	// Doc explains what the check finds, why it matters and what to do.
	Doc string
	// Example is a complete free-form Fortran program that triggers the
	// check; ExampleAt is the -D point it needs, empty when the check fires
	// without one.
	Example   string
	ExampleAt string
	// Facts documents the keys of Diagnostic.Facts this check sets.
	Facts []Fact

	run func(*pass)
}

// Fact documents one key of Diagnostic.Facts.
type Fact struct {
	Name string
	Doc  string
}

// Diagnostic is one finding, reported at the loop, call or MPI call the user
// wrote.
type Diagnostic struct {
	Pos      apt.Pos
	ID       string
	Severity apt.Severity
	// Message is lower case with no trailing period, and carries the fact and
	// its size.
	Message string
	// Node is the APT ID of the node the diagnostic is about ("trap/L1"),
	// empty for a parameter or an evaluation problem.
	Node string
	// Facts are the figures behind the message by name, for JSON output:
	// closed forms as strings, values at the point as numbers. Each check
	// documents its keys.
	Facts map[string]any
}

// String formats d as vet does: file:line:col: ID message.
func (d Diagnostic) String() string { return d.Pos.String() + ": " + d.ID + " " + d.Message }

// Options tune the checks. The zero value means the defaults.
type Options struct {
	// Share is the share of the program's work from which a loop nest is hot
	// (MK1001) and from which serial work matters (MK1003); default 0.10.
	Share float64
	// Cover is the share of the work in loop nests that the nests MK1001
	// names hold at least; default 3/4. Half would name the nests holding
	// half of the predicted time, but the default weights count operations,
	// not cycles: against measured time per nest (NPB MG class S, mkvet's
	// own timers) a vectorised stencil runs at half its predicted share, a
	// recurrence the processor cannot overlap (a random-number generator)
	// and a buffer being cleared at two to three times theirs. Three
	// quarters of the predicted work covers the nests holding half of the
	// measured time across that spread.
	Cover float64
	// Imbalance is the max/mean ratio of per-rank work from which MK1002
	// reports at a point; default 1.05.
	Imbalance float64
	// ImbalanceShare is the smallest excess of the heaviest rank over the
	// mean, as a share of the heaviest rank's whole work, that MK1002
	// reports at a point; default 0.05.
	ImbalanceShare float64
	// Machine, when set, turns work at a point into predicted seconds in the
	// messages (one work unit costs the profile's add time).
	Machine *model.Profile
	// Given names the parameters the user gave values for (-D): MK3001 does
	// not ask for them again.
	Given []string
}

func (o Options) withDefaults() Options {
	if o.Share <= 0 {
		o.Share = 0.10
	}
	if o.Cover <= 0 || o.Cover > 1 {
		o.Cover = 0.75
	}
	if o.Imbalance <= 0 {
		o.Imbalance = 1.05
	}
	if o.ImbalanceShare <= 0 {
		o.ImbalanceShare = 0.05
	}
	return o
}

// Checks is the catalogue, sorted by ID.
var Checks = []*Check{
	{
		ID:       "MK1001",
		Title:    "hot loop nest",
		Severity: apt.Warning,
		Doc: `The loop nests that hold most of the program's predicted time: where time goes, and where
tuning, vectorization or a better distribution pays. A loop nest is a routine's outermost loop with
the loops inside it in that routine; its time is its own, less that of the nests of the routines it
calls, which are nests of their own (a time-step loop whose body calls the sweeps is not where the
time goes; the sweeps are). Calls without nests of their own count in the calling nest. A nest's time
is its work (operations at the machine's work unit) and the time its innermost loops wait for memory
beyond their computation: each iteration takes the larger of its computation and its data transfer,
the bytes or accesses of each stream (contiguous, strided, gathered) at the rate of the cache level or
memory its working set lives in (roofline; the machine's memory hierarchy from -machine, measured by
mkvet membench, or the default profile's). A nest whose data takes longer than its computation, most of
it from beyond the nearest cache, is said to be memory-bound, with the level and working set per
process. The share is of the time summed over all ranks at a point (-D), or without a point the limit
of the share as every problem size grows with P fixed, every growing working set then in main memory.
Every nest holding 10% (-share) or more is reported, with its outermost loop's closed-form iteration
count; when these together hold less than three quarters of the time in loop nests, the next largest
nests are added until they hold three quarters, so that the nests named account for most of the
loops' time even where the default weights misjudge a nest's cost two or three times (operations are
counted, not cycles: a vectorised stencil runs faster, a recurrence the processor cannot overlap
slower than its share). Three quarters of the nests' time, not of the program's: work outside every
DO loop, whole-array statements or loops built from GO TO, would otherwise make every nest hot; and
with the last one added every nest whose time is within 5% of it (the prediction does not order them:
sweeps along x, y and z with the same work are named together). A share that is a closed form in P is
reported when it is provably at least the threshold, and is not ranked with the others. At a point
where values of the program's data are missing (the keys a rank receives in a sort, an element
computed from input) and the program's work rests on them, the nests whose work rests on none of them
are ranked by their share of the loop time counted there, and the message names the nests left out: a
share of the counted time, never of the program's.
`,
		Example: `program hot
  implicit none
  integer :: n, i, j
  real(8) :: s
  !mk$ param n = 1000
  s = 0.0d0
  do j = 1, n
    do i = 1, n
      s = s + 1.0d0/(i + j)
    end do
  end do
  print *, s
end program hot
`,
		Facts: []Fact{
			{"iterations", "closed form: how many times each rank runs the loop body"},
			{"work", "closed form: the nest's own work per rank in operation units (without the nests of the routines it calls)"},
			{"share", "share of the predicted time (at the point, or its limit as the sizes grow when that is a number)"},
			{"share_expr", "the limit of the share as a closed form in P and rank, when it is not a number"},
			{"sizes", "the problem sizes whose growth the limit takes (symbolic share)"},
			{"iterations_max", "at a point: the most iterations any rank runs"},
			{"iterations_min", "at a point: the fewest iterations any rank runs"},
			{"max_ranks", "at a point: the ranks that run the most iterations (\"0-3\")"},
			{"seconds", "at a point with a machine: predicted time of the nest (its work and its loops' memory stalls) on its heaviest rank"},
			{"memory_bound", "set when the nest's loops move data for longer than they compute, most of it from beyond the nearest cache"},
			{"memory_level", "with memory_bound: the level most of the data comes from (\"L2\", \"L3\", \"memory\")"},
			{"working_set", "with memory_bound at a point: the largest working set per process served from that level, bytes"},
			{"share_of", "\"counted loop nests\" when the share is of the loop work counted at a point that lacks values of the data"},
			{"data_nests", "with share_of: the positions of the nests whose work rests on values of the data, not counted"},
		},
		run: hotLoops,
	},
	{
		ID:       "MK1002",
		Title:    "load imbalance across ranks",
		Severity: apt.Warning,
		Doc: `Work here differs from rank to rank: a loop whose trip count depends on the rank (a block
distribution that does not divide evenly, a triangular split), or a branch on the rank that gives
work to some ranks only. Every rank waits for the heaviest at the next synchronization, so the
program runs at the pace of the maximum, not the mean (SCALA's and PerWiz's imbalance max/mean).
The check reports where the difference starts (the branch or loop whose count first depends on the
rank), with the closed form. At a point it reports ratios from 1.05 (configurable) whose excess over
the mean is at least 5% of the heaviest rank's work. Without a point it reports a difference that
persists as the problem grows: the leading term of the work depends on the rank (rank*n^2/P^2 in a
triangular loop split in blocks, work on rank 0 only), not a remainder such as n/P + rank, in work
that grows as fast as the program's.`,
		Example: `program imbalance
  use mpi
  implicit none
  integer :: n, me, p, ierr, i, j, nb
  real(8) :: s
  !mk$ param n = 4000
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  nb = n/p
  s = 0.0d0
  do i = me*nb + 1, (me + 1)*nb
    do j = 1, i
      s = s + 1.0d0/(i + j)
    end do
  end do
  call MPI_Finalize(ierr)
end program imbalance
`,
		Facts: []Fact{
			{"quantity", "what depends on the rank: iterations (a loop) or count (a branch or call)"},
			{"closed_form", "that quantity per rank as a closed form in rank, P and the sizes"},
			{"work", "closed form: the node's work per rank"},
			{"imbalance", "at a point: max/mean of the per-rank work"},
			{"max_ranks", "at a point: the heaviest ranks (\"7\", \"0-3\")"},
			{"min_ranks", "at a point: the lightest ranks"},
			{"max_work", "at a point: the heaviest rank's work here"},
			{"mean_work", "at a point: the mean work here"},
		},
		run: imbalance,
	},
	{
		ID:       "MK1003",
		Title:    "serial work that does not shrink with P",
		Severity: apt.Warning,
		Doc: `In a parallel program, a loop does work whose amount per rank does not depend on P: every rank
repeats it (replicated work), or some ranks only do it (serial work on rank 0). Adding processes does
not make it faster, so it bounds the speedup (Amdahl). Distribute the loop over the ranks, or move it
out of the timed part. The check reports the outermost such loop whose work is at least 10% of the
heaviest rank's work at a point, or without a point grows as fast as the program's work. A program
none of whose work depends on P is taken as weak-scaling (its sizes are per rank) and not reported.`,
		Example: `program serial
  use mpi
  implicit none
  integer :: n, me, p, ierr, i
  real(8) :: s
  !mk$ param n = 100000
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  s = 0.0d0
  do i = me*(n/p) + 1, (me + 1)*(n/p)
    s = s + sqrt(dble(i))
  end do
  do i = 1, n
    s = s + 1.0d0/i
  end do
  call MPI_Finalize(ierr)
end program serial
`,
		Facts: []Fact{
			{"iterations", "closed form: the loop's iterations per rank, without the rank condition"},
			{"work", "closed form: the loop's work per rank"},
			{"ranks", "which ranks run it: \"every rank\", or a condition on rank (symbolic) or a rank list (at a point)"},
			{"share", "at a point: the loop's work on its heaviest rank over the heaviest rank's whole work"},
		},
		run: serialWork,
	},
	{
		ID:       "MK2001",
		Title:    "communication inside a loop",
		Severity: apt.Warning,
		Doc: `An MPI call sits inside a loop and the number of messages it passes grows with the loop's trip
count: each message pays the start-up latency (t_s, LogGP's o + L), so many small messages cost far
more than one large one. Aggregate the data into fewer, larger messages, or use a collective (a
receive loop at the root is an MPI_Reduce or MPI_Gather). The check reports point-to-point and
collective calls whose per-rank message count is a closed form in the problem sizes or P.`,
		Example: `program commloop
  use mpi
  implicit none
  integer :: me, p, ierr, src
  integer :: status(MPI_STATUS_SIZE)
  real(8) :: x, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  x = me
  if (me == 0) then
    total = x
    do src = 1, p - 1
      call MPI_Recv(x, 1, MPI_DOUBLE_PRECISION, src, 0, MPI_COMM_WORLD, status, ierr)
      total = total + x
    end do
  else
    call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program commloop
`,
		Facts: []Fact{
			{"op", "the MPI operation (send, recv, allreduce, ...)"},
			{"messages", "closed form: messages the rank sends (receives, for a receive; calls, for a collective)"},
			{"bytes", "closed form: the size of one message, when known"},
			{"messages_max", "at a point: the most messages any rank passes here"},
			{"max_ranks", "at a point: the ranks passing the most"},
			{"seconds", "at a point with a machine: predicted time of those messages on the busiest rank (point-to-point model, no contention)"},
		},
		run: commInLoop,
	},
	{
		ID:       "MK3001",
		Title:    "unresolved value turned into a parameter",
		Severity: apt.Note,
		Doc: `A value the counts depend on is not known from the source: it is read at run time (READ), taken
from the command line, or could not be derived (a DO WHILE's trip count, a function result used as
a bound). mkvet never guesses it; it becomes a named parameter of every closed form. Give its value
for one run with -D name=expr, or for good in the source with a "!mk$ param name = expr" line (or
"!mk$ iterations expr" before a loop whose trip count is unknown). Parameters given with -D are not
reported.`,
		Example: `program readsize
  implicit none
  integer :: n, i
  real(8) :: s
  read (*, *) n
  s = 0.0d0
  do i = 1, n
    s = s + i
  end do
  print *, s
end program readsize
`,
		Facts: []Fact{
			{"param", "the parameter's name"},
			{"origin", "read, command-line or unresolved"},
			{"what", "what the value is, in the program's terms"},
			{"default", "the value used when -D gives none, if any"},
			{"loop", "for a loop trip count: the loop's APT ID"},
		},
		run: unresolvedParams,
	},
	{
		ID:       "MK3002",
		Title:    "evaluation problem",
		Severity: apt.Warning,
		Doc: `Symbolic evaluation met something it does not model: an unmodelled construct, recursion, a
callee without source, a value it could not resolve. The affected counts are approximate or
parametric; the message says which and why. Supplying the missing value with -D or a !mk$
annotation, or the missing source file, usually removes it.`,
		Example: `program external
  implicit none
  integer :: n, i
  real(8) :: s
  external work
  !mk$ param n = 100
  s = 0.0d0
  do i = 1, n
    call work(s, i)
  end do
  print *, s
end program external
`,
		Facts: []Fact{
			{"severity", "the evaluation's own severity: error, warning or note"},
		},
		run: evaluationProblems,
	},
	{
		ID:       "MK3003",
		Title:    "approximate count",
		Severity: apt.Note,
		Doc: `A count rests on an approximation rather than exact counting: a branch whose condition cannot
be analysed is taken as a fraction of the time, or the counting engine gave up on a nest that was
too complex. The figures below this node are estimates; the note says why. Reported once, at the
outermost approximate node.`,
		Example: `program approx
  implicit none
  integer :: n, i
  real(8) :: s, x(1000)
  !mk$ param n = 1000
  call random_number(x)
  s = 0.0d0
  do i = 1, n
    if (x(i) > 0.5d0) s = s + x(i)
  end do
  print *, s
end program approx
`,
		Facts: []Fact{
			{"note", "why the count is approximate"},
		},
		run: approximate,
	},
}

// Lookup returns the check with the given ID, or nil.
func Lookup(id string) *Check {
	i, ok := slices.BinarySearchFunc(Checks, id, func(c *Check, id string) int { return cmp.Compare(c.ID, id) })
	if !ok {
		return nil
	}
	return Checks[i]
}

// Run applies every check of the catalogue to the report, at the point pt
// when it is not nil, and returns the diagnostics sorted by file, line,
// column and ID.
func Run(r *cost.Report, pt *cost.Point, opt Options) []Diagnostic {
	p := newPass(r, pt, opt.withDefaults())
	for _, c := range Checks {
		p.check = c
		c.run(p)
	}
	slices.SortStableFunc(p.out, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return p.out
}

// Describe formats one check's entry as text: its ID, title and severity,
// documentation, facts and example (mkvet check -list prints them all).
func Describe(c *Check) string {
	var b strings.Builder
	b.WriteString(c.ID + ": " + c.Title + " (" + c.Severity.String() + ")\n\n")
	b.WriteString(indent(c.Doc, "  ") + "\n\n")
	if len(c.Facts) > 0 {
		b.WriteString("  Facts (-json):\n")
		width := 0
		for _, f := range c.Facts {
			width = max(width, len(strconv.Quote(f.Name)))
		}
		for _, f := range c.Facts {
			q := strconv.Quote(f.Name)
			b.WriteString("    " + q + strings.Repeat(" ", width-len(q)+2) + f.Doc + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("  Example")
	if c.ExampleAt != "" {
		b.WriteString(" (at -D " + c.ExampleAt + ")")
	}
	b.WriteString(":\n\n" + indent(strings.TrimRight(c.Example, "\n"), "    ") + "\n")
	return b.String()
}

func indent(s, pre string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "\n")
}
