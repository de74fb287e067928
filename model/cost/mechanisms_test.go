package cost_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Property tests of issue 13: for each evaluation mechanism symeval relies
// on, random Fortran 77/90 MPI programs that exercise it are analysed at
// random points (cost.AnalyzeAt: P in 1..16 and the sizes n, m, nl fixed)
// and every rank is run by the APT interpreter (internal/aptrun); every
// node's count, loop iterations, messages and bytes must agree exactly, and
// every node must be exact (none of these programs is data-dependent: all
// their values follow from P, the rank and the sizes).
//
// A program is a main program that reads the sizes n (0..40), m (1..6) and
// nl (0..4) plus one to three fragments drawn from the mechanism's shapes;
// a fragment adds declarations, statements, and routines or modules. Each
// shape is a generator with random variants; the lists below say which
// shapes a mechanism draws from, so that a shape can be left out (or
// brought back) by editing a list.

// mechanism is one evaluation mechanism: how the main program gets the rank
// and P, and the shapes its fragments are drawn from.
type mechanism struct {
	name string
	// setup writes how the main program obtains me and np (nil: the
	// MPI_COMM_RANK and MPI_COMM_SIZE calls of the main program) and may
	// restrict P (the grid setups need powers of two or squares).
	setup  func(g *gen)
	shapes []shape
	// programs, fragments per program (at most) and points per program.
	programs, fragments, points int
}

// shape adds fragment number k to the program being generated. freeOnly
// shapes use modules or derived types and are drawn for free-form programs
// only.
type shape struct {
	name     string
	freeOnly bool
	add      func(g *gen, k int)
}

// mechanisms lists the mechanisms under test with their shapes.
var mechanisms = []mechanism{
	{name: "arrays", shapes: arrayShapes, programs: 40, fragments: 3, points: 4},
	{name: "wrappers", setup: wrapperSetup, shapes: wrapperShapes, programs: 60, fragments: 3, points: 4},
	{name: "steps", shapes: stepShapes, programs: 60, fragments: 3, points: 4},
	{name: "grids", setup: gridSetup, shapes: gridShapes, programs: 40, fragments: 3, points: 4},
	{name: "process", shapes: processShapes, programs: 10, fragments: 2, points: 3},
	{name: "saved", shapes: savedShapes, programs: 20, fragments: 3, points: 3},
	{name: "chunks", shapes: chunkShapes, programs: 30, fragments: 2, points: 3},
}

// generate draws a program of mech from rng: fixed or free form, the
// mechanism's setup and 1 to mech.fragments fragments.
func generate(mech mechanism, rng *rand.Rand) *gen {
	g := newGen(rng, rng.IntN(2) == 0)
	if mech.setup != nil {
		mech.setup(g)
	}
	nfrag := 1 + rng.IntN(mech.fragments)
	for k := 1; k <= nfrag; k++ {
		sh := mech.shapes[rng.IntN(len(mech.shapes))]
		for sh.freeOnly && !g.free {
			sh = mech.shapes[rng.IntN(len(mech.shapes))]
		}
		sh.add(g, k)
	}
	return g
}

// TestMechanismsAgainstExecution runs each mechanism's random programs
// (generated in order from a fixed seed, checked concurrently, each with
// its own seed for the points); a failure prints the program, the point,
// the discrepancies by rank and node, and the inexact nodes.
func TestMechanismsAgainstExecution(t *testing.T) {
	// MKVET_MECH_SEED and MKVET_MECH_PROGRAMS widen the search locally
	// (another seed, more programs); CI runs the fixed ones.
	seed, _ := strconv.ParseUint(os.Getenv("MKVET_MECH_SEED"), 10, 64)
	more, _ := strconv.Atoi(os.Getenv("MKVET_MECH_PROGRAMS"))
	for mi, mech := range mechanisms {
		t.Run(mech.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1+seed, uint64(mi+1)))
			if more > 0 {
				mech.programs = more
			}
			gens := make([]*gen, mech.programs)
			for i := range gens {
				gens[i] = generate(mech, rng)
			}
			type result struct {
				src    string
				probs  []string
				points int
			}
			results := make([]result, len(gens))
			var wg sync.WaitGroup
			next := make(chan int)
			for w := 0; w < runtime.GOMAXPROCS(0); w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						g := gens[i]
						src := g.source()
						prng := rand.New(rand.NewPCG(uint64(mi+1), uint64(i)))
						probs, n := checkProgram(src, g.free, g.pOK, prng, mech.points)
						results[i] = result{src, probs, n}
					}
				}()
			}
			for i := range gens {
				next <- i
			}
			close(next)
			wg.Wait()
			points := 0
			for i, r := range results {
				points += r.points
				if len(r.probs) > 0 {
					t.Errorf("program %d:\n%s\n%s", i, numbered(r.src), strings.Join(r.probs, "\n"))
				}
			}
			t.Logf("%d programs, %d points", mech.programs, points)
		})
	}
}

// checkProgram parses src, draws points (P among 1..16 where pOK holds:
// the largest such P first, then the smallest, then at random; the sizes
// at random) and compares the analysis at each point with the execution of
// every rank. It stops at the first point with a discrepancy and returns
// the discrepancies found and the number of points checked.
func checkProgram(src string, free bool, pOK func(int64) bool, rng *rand.Rand, npoints int) ([]string, int) {
	name := "mech.f"
	if free {
		name = "mech.f90"
	}
	prog, diags := fortran.ParseSource(name, []byte(src), fortran.Config{})
	var probs []string
	for _, d := range diags {
		if d.Severity == apt.Error {
			probs = append(probs, fmt.Sprintf("parse: %s", d))
		}
	}
	if len(probs) > 0 {
		return probs, 0
	}
	var ps []int64
	for p := int64(1); p <= 16; p++ {
		if pOK == nil || pOK(p) {
			ps = append(ps, p)
		}
	}
	for i := 0; i < npoints && len(probs) == 0; i++ {
		np := ps[len(ps)-1]
		switch {
		case i == 1:
			np = ps[0]
		case i > 1:
			np = ps[rng.IntN(len(ps))]
		}
		env := map[string]int64{cost.Size: np, "n": rng.Int64N(41), "m": 1 + rng.Int64N(6), "nl": rng.Int64N(5)}
		probs = checkPoint(prog, env)
		if len(probs) > 0 {
			probs = append([]string{"at " + pointString(env) + ":"}, probs...)
			return probs, i + 1
		}
	}
	return nil, npoints
}

// checkPoint compares the analysis at env with the execution of every rank
// and reports the discrepancies (at most 8) and the inexact nodes.
func checkPoint(prog *apt.Program, env map[string]int64) []string {
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
	if err != nil {
		return []string{"analysis: " + err.Error()}
	}
	pt, err := rep.At(env)
	if err != nil {
		return []string{"evaluation: " + err.Error()}
	}
	var probs []string
	for _, n := range rep.Nodes {
		if !n.Exact {
			probs = append(probs, fmt.Sprintf("%s inexact: %s", n.Node.Base().ID, n.Note))
		}
	}
	params := map[string]int64{}
	for k, v := range env {
		if k != cost.Size {
			params[k] = v
		}
	}
	aborted := true // every rank ends at an MPI_ABORT
	for rank := int64(0); rank < env[cost.Size] && len(probs) < 8; rank++ {
		got, err := aptrun.Run(prog, aptrun.Config{P: env[cost.Size], Rank: rank, Params: params})
		if err != nil {
			return append(probs, fmt.Sprintf("execution rank %d: %v", rank, err))
		}
		aborted = aborted && got.Aborted
		probs = append(probs, diffCounts(rep, pt, got, rank)...)
	}
	// A program that aborts on every rank is one the analysis says stops
	// there (whatif prints no time for it, but where it stops); one that
	// ends on some rank is not.
	if len(probs) == 0 && aborted != (rep.Stopped != nil) {
		probs = append(probs, fmt.Sprintf("every rank aborts: %v, but the analysis's Stopped is %v", aborted, rep.Stopped))
	}
	if len(probs) > 8 {
		probs = probs[:8]
	}
	return probs
}

// diffCounts lists the nodes whose figures at rank differ from the
// execution's (count, iterations, messages, bytes), and the executed nodes
// missing from the report.
func diffCounts(rep *cost.Report, pt *cost.Point, got *aptrun.Counts, rank int64) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range rep.Nodes {
		id := n.Node.Base().ID
		seen[id] = true
		v := pt.Nodes[n]
		check := func(what string, x float64, want int64) {
			if x != float64(want) {
				out = append(out, fmt.Sprintf("rank %d %s %s: mkvet %v, aptrun %d", rank, id, what, x, want))
			}
		}
		check("count", v.Count.PerRank[rank], got.Exec[id])
		if len(n.Iterations.Pieces) > 0 || got.Iter[id] != 0 {
			var x float64
			if len(v.Iterations.PerRank) > 0 {
				x = v.Iterations.PerRank[rank]
			}
			check("iterations", x, got.Iter[id])
		}
		if n.Comm != nil {
			check("messages", v.Messages.PerRank[rank], got.Msgs[id])
			check("bytes", v.BytesSent.PerRank[rank], got.Bytes[id])
			if n.Comm.MsgBytes != nil && got.Msgs[id] > 0 {
				// One message size stands for all the node's messages:
				// the execution's bytes are that many times it.
				env := map[string]symbolic.Rat{cost.Rank: symbolic.RatInt(rank)}
				for k, x := range pt.Env {
					env[k] = symbolic.RatInt(x)
				}
				if b, err := n.Comm.MsgBytes.Eval(env); err != nil || !b.IsInt() {
					out = append(out, fmt.Sprintf("rank %d %s message size %v: %v", rank, id, *n.Comm.MsgBytes, err))
				} else if m, _ := b.Int64(); m*got.Msgs[id] != got.Bytes[id] {
					out = append(out, fmt.Sprintf("rank %d %s message size %v = %d, but aptrun sends %d bytes in %d messages",
						rank, id, *n.Comm.MsgBytes, m, got.Bytes[id], got.Msgs[id]))
				}
			}
		}
	}
	var missing []string
	for id, c := range got.Exec {
		if c > 0 && !seen[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		out = append(out, fmt.Sprintf("rank %d executed but not in the report: %s", rank, strings.Join(missing, ", ")))
	}
	return out
}

func numbered(src string) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	for i, l := range lines {
		lines[i] = fmt.Sprintf("%3d %s", i+1, l)
	}
	return strings.Join(lines, "\n")
}

// gen builds one program. Statement lines are written with their nesting
// as leading spaces (two per level); a line that starts with a digit is
// labelled. source lays them out in fixed or free form.
type gen struct {
	r    *rand.Rand
	free bool
	// mods are module units (free form), placed before the program; uses
	// the modules the main program uses.
	mods  [][]string
	uses  []string
	decls []string
	// init obtains me and np (nil: the MPI calls in the main program).
	init []string
	// body holds the main program's statements after the sizes are read
	// (s accumulates the work), units the routines after it.
	body  []string
	units [][]string
	// have records what is added once: routines, modules, declarations.
	have map[string]bool
	// pOK says which P the program supports (nil: every P).
	pOK func(int64) bool
}

func newGen(r *rand.Rand, free bool) *gen {
	return &gen{r: r, free: free, have: map[string]bool{}}
}

// pick returns one of xs at random.
func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// sub replaces every # in s by the fragment number k.
func sub(s string, k int) string { return strings.ReplaceAll(s, "#", fmt.Sprint(k)) }

func (g *gen) decl(k int, lines ...string) {
	for _, l := range lines {
		g.decls = append(g.decls, sub(l, k))
	}
}

func (g *gen) stmt(k int, lines ...string) {
	for _, l := range lines {
		g.body = append(g.body, sub(l, k))
	}
}

// unit adds a routine once per name (several fragments may share it).
func (g *gen) unit(name string, k int, lines ...string) {
	name = sub(name, k)
	if g.have[name] {
		return
	}
	g.have[name] = true
	u := make([]string, len(lines))
	for i, l := range lines {
		u[i] = sub(l, k)
	}
	g.units = append(g.units, u)
}

// module adds a module once per name and makes the main program use it.
func (g *gen) module(name string, k int, lines ...string) {
	name = sub(name, k)
	if g.have[name] {
		return
	}
	g.have[name] = true
	u := make([]string, len(lines))
	for i, l := range lines {
		u[i] = sub(l, k)
	}
	g.mods = append(g.mods, u)
	g.uses = append(g.uses, "use "+name)
}

// restrict limits the process counts the program supports.
func (g *gen) restrict(ok func(int64) bool) {
	prev := g.pOK
	g.pOK = func(p int64) bool { return ok(p) && (prev == nil || prev(p)) }
}

// mpiHead stands for IMPLICIT NONE and the MPI constants in a routine:
// `use mpi` first in free form, `include 'mpif.h'` after it in fixed form.
const mpiHead = "  @mpi"

func (g *gen) source() string {
	var lines []string
	add := func(ls ...string) { lines = append(lines, ls...) }
	for _, m := range g.mods {
		add(m...)
	}
	add("program mech")
	if g.free {
		add("  use mpi")
		for _, u := range g.uses {
			add("  " + u)
		}
		add("  implicit none")
	} else {
		add("  implicit none", "  include 'mpif.h'")
	}
	add("  integer me, np, ierr, n, m, nl",
		"  integer status(MPI_STATUS_SIZE)",
		"  double precision s, buf(64), buf2(64)")
	for _, d := range g.decls {
		add("  " + d)
	}
	add("  call MPI_INIT(ierr)")
	if g.init == nil {
		add("  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)",
			"  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)")
	}
	for _, l := range g.init {
		add("  " + l)
	}
	add("  read *, n, m, nl", "  s = 0")
	for _, l := range g.body {
		add(indentStmt(l))
	}
	add("  call MPI_FINALIZE(ierr)", "end")
	for _, u := range g.units {
		for _, l := range u {
			if strings.TrimSpace(l) != "@mpi" {
				add(l)
			} else if ind := l[:strings.Index(l, "@")]; g.free {
				add(ind+"use mpi", ind+"implicit none")
			} else {
				add(ind+"implicit none", ind+"include 'mpif.h'")
			}
		}
	}
	return layout(lines, g.free)
}

// indentStmt indents a statement of the main program by one level (a
// labelled line keeps its label first).
func indentStmt(l string) string {
	if l != "" && (l[0] >= '0' && l[0] <= '9' || l[0] == '&') {
		return l
	}
	return "  " + l
}

// layout writes lines in fixed or free form: a line that starts with a
// digit is labelled, one that starts with & continues the previous line.
func layout(lines []string, free bool) string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "&") {
			if free {
				out[len(out)-1] += " &"
				out = append(out, "  "+strings.TrimLeft(l[1:], " "))
			} else {
				out = append(out, "     &"+l[1:])
			}
			continue
		}
		if free {
			out = append(out, l)
			continue
		}
		if l != "" && l[0] >= '0' && l[0] <= '9' {
			lab, rest, _ := strings.Cut(l, " ")
			out = append(out, fmt.Sprintf("%-5s %s", lab, strings.TrimLeft(rest, " ")))
			continue
		}
		out = append(out, "      "+l)
	}
	for _, l := range out {
		if !free && len(l) > 72 {
			panic("fixed-form line too long: " + l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// ---------------------------------------------------------------------
// 1. Arrays as values.

// arrayShapes are the fragments of the arrays mechanism: INTEGER arrays
// whose elements are filled from P, the rank and the sizes, read back as
// loop bounds and in conditions.
var arrayShapes = []shape{
	{name: "straight", add: arrayStraight},
	{name: "loopfill", add: arrayLoopFill},
	{name: "argument", add: arrayArgument},
	{name: "distribution", add: arrayDistribution},
	{name: "matrix", add: arrayMatrix},
	{name: "derived", freeOnly: true, add: arrayDerived},
	{name: "module", freeOnly: true, add: arrayModule},
	{name: "offset", add: arrayOffset},
	{name: "derivedarray", freeOnly: true, add: arrayDerivedArray},
	{name: "allocatable", freeOnly: true, add: arrayAllocatable},
}

// arrayValues are element values in terms of P (np), the rank (me) and the
// sizes.
var arrayValues = []string{"np", "me + 1", "n", "m", "n/np", "mod(n, np)", "2*m + me",
	"n - me", "np*m", "(n + np - 1)/np", "max(n - 2*me, 0)", "nl", "m*(me + 1)"}

// arrayStraight fills a(1..4) by four assignments.
func arrayStraight(g *gen, k int) {
	g.decl(k, "integer a#(4), i#, j#, k#")
	for c := 1; c <= 4; c++ {
		g.stmt(k, fmt.Sprintf("a#(%d) = %s", c, g.pick(arrayValues...)))
	}
	arrayUses(g, k, 4)
}

// arrayLoopFill fills a(1..L) in a DO loop with constant bounds, the
// element a function of the loop variable, optionally followed by a
// prefix sum.
func arrayLoopFill(g *gen, k int) {
	l := 3 + g.r.IntN(3)
	g.decl(k, fmt.Sprintf("integer a#(%d), i#, j#, k#", l))
	f := g.pick("n/(2**i#)", fmt.Sprintf("n*i#/%d", l), "np*i# + me", "mod(me + i#, np) + 1",
		"m*i# - me", "(n + i# - 1)/i#", "n/np + i#", "(n/np)/i#")
	g.stmt(k, fmt.Sprintf("do i# = 1, %d", l), "  a#(i#) = "+f, "enddo")
	if g.r.IntN(3) == 0 {
		g.stmt(k, fmt.Sprintf("do i# = 2, %d", l), "  a#(i#) = a#(i#) + a#(i# - 1)", "enddo")
	}
	arrayUses(g, k, l)
}

// arrayUses reads a#(1..l) back: as bounds indexed by constants, by a loop
// variable (do k = 1, nlev: do i = 1, a(k)), by the rank, in a condition,
// and as the counts of messages.
func arrayUses(g *gen, k, l int) {
	c := func() string { return fmt.Sprint(1 + g.r.IntN(l)) }
	uses := 1 + g.r.IntN(2)
	for u := 0; u < uses; u++ {
		switch g.r.IntN(8) {
		case 7:
			g.stmt(k, fmt.Sprintf("do k# = 1, %d", l),
				"  call MPI_SEND(buf, max(0, a#(k#)), MPI_DOUBLE_PRECISION,",
				"&   mod(me + 1, np), k#, MPI_COMM_WORLD, ierr)", "enddo")
		case 0:
			g.stmt(k, "do i# = 1, a#("+c()+")", "  s = s + 1", "enddo")
		case 1:
			g.stmt(k, "do k# = 1, "+g.pick("min(nl, "+fmt.Sprint(l)+")", fmt.Sprint(l)),
				"  do i# = 1, a#(k#)", "    s = s + i#", "  enddo", "enddo")
		case 2:
			g.stmt(k, "do i# = a#("+c()+"), a#("+c()+")", "  s = s + 1", "enddo")
		case 3:
			g.stmt(k, "if (a#("+c()+") .gt. a#("+c()+")) then", "  s = s + 1", "else", "  s = s - 1", "endif")
		case 4:
			g.stmt(k, "do i# = 1, a#("+c()+")", "  do j# = 1, a#("+c()+")", "    s = s + j#", "  enddo", "enddo")
		case 5:
			g.stmt(k, fmt.Sprintf("do k# = %d, 1, -1", l), "  do i# = k#, a#(k#)", "    s = s + 1", "  enddo", "enddo")
		case 6:
			g.stmt(k, fmt.Sprintf("do i# = 1, a#(mod(me, %d) + 1)", l), "  s = s + 1", "enddo")
		}
	}
}

// arrayArgument passes a filled array to a subroutine that uses its
// elements as bounds.
func arrayArgument(g *gen, k int) {
	l := 2 + g.r.IntN(3)
	g.decl(k, fmt.Sprintf("integer a#(%d), i#", l))
	if g.r.IntN(2) == 0 {
		for c := 1; c <= l; c++ {
			g.stmt(k, fmt.Sprintf("a#(%d) = %s", c, g.pick(arrayValues...)))
		}
	} else {
		g.stmt(k, fmt.Sprintf("do i# = 1, %d", l), "  a#(i#) = "+g.pick("n/(i# + 1)", "np + i#", "me*i#", "(m + i#)*np"), "enddo")
	}
	g.stmt(k, fmt.Sprintf("call wk#(a#, %d, s)", l))
	if g.r.IntN(2) == 0 {
		g.stmt(k, fmt.Sprintf("call wk#(a#, %d, s)", 1+g.r.IntN(l)))
	}
	g.unit("wk#", k,
		"subroutine wk#(a, na, s)",
		"  implicit none",
		"  integer na, a(na), i, j",
		"  double precision s",
		"  do j = 1, na",
		"    do i = 1, a(j)",
		"      s = s + 1",
		"    enddo",
		"  enddo",
		"end")
}

// arrayDistribution fills the per-rank counts of a block distribution of n
// over np (the first mod(n, np) ranks one more) in a loop over the ranks,
// and reads back the rank's own count or every count.
func arrayDistribution(g *gen, k int) {
	g.decl(k, "integer c#(16), i#, j#")
	g.stmt(k, "do i# = 1, np", "  c#(i#) = n/np", "  if (i# .le. mod(n, np)) c#(i#) = c#(i#) + 1", "enddo")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "do i# = 1, c#(me + 1)", "  s = s + 1", "enddo")
	} else {
		g.stmt(k, "do j# = 1, np", "  do i# = 1, c#(j#)", "    s = s + 1", "  enddo", "enddo")
	}
}

// arrayOffset sums the counts of the ranks below the rank (the offset of
// its block, as for MPI_GATHERV displacements) and loops over its block.
func arrayOffset(g *gen, k int) {
	g.decl(k, "integer c#(16), i#, j#, o#")
	g.stmt(k, "do i# = 1, "+g.pick("np", "16"), "  c#(i#) = "+g.pick("n/np", "i#", "m + i#"), "enddo")
	g.stmt(k, "o# = 0", "do j# = 1, me", "  o# = o# + c#(j#)", "enddo",
		"do i# = o# + 1, o# + c#(me + 1)", "  s = s + 1", "enddo")
}

// arrayMatrix fills a two-dimensional array in a nest with constant bounds
// and reads a row back as loop bounds.
func arrayMatrix(g *gen, k int) {
	g.decl(k, "integer a#(2, 3), i#, j#, k#")
	g.stmt(k, "do j# = 1, 3", "  do i# = 1, 2",
		"    a#(i#, j#) = "+g.pick("n/(i# + j#)", "np*i# + j#", "me*j# + i#", "(n/np)*i# - j#", "m*j#"),
		"  enddo", "enddo")
	r := fmt.Sprint(1 + g.r.IntN(2))
	switch g.r.IntN(3) {
	case 0:
		g.stmt(k, "do k# = 1, 3", "  do i# = 1, a#("+r+", k#)", "    s = s + 1", "  enddo", "enddo")
	case 1:
		g.stmt(k, "do i# = a#(1, "+fmt.Sprint(1+g.r.IntN(3))+"), a#(2, "+fmt.Sprint(1+g.r.IntN(3))+")", "  s = s + 1", "enddo")
	case 2:
		g.stmt(k, "do k# = 1, min(nl, 3)", "  do j# = 1, 2", "    do i# = 1, a#(j#, k#)", "      s = s + 1", "    enddo", "  enddo", "enddo")
	}
}

// arrayDerivedArray keeps per-level sizes in an array of derived type,
// filled in a loop with constant bounds, and loops over the levels.
func arrayDerivedArray(g *gen, k int) {
	g.module("lt#", k,
		"module lt#",
		"  implicit none",
		"  type lev#",
		"    integer :: cnt, off",
		"  end type lev#",
		"end module lt#")
	g.decl(k, "type(lev#) :: lv#(4)", "integer :: i#, k#")
	g.stmt(k, "do i# = 1, 4",
		"  lv#(i#)%cnt = "+g.pick("n/(2**i#)", "np*i#", "m + me*i#", "(n + np - 1)/np/i#"),
		"  lv#(i#)%off = "+g.pick("i#*me", "0", "np - i#"),
		"end do",
		"do k# = 1, "+g.pick("nl", "4", "min(nl, 4)"),
		"  do i# = lv#(k#)%off + 1, lv#(k#)%off + lv#(k#)%cnt",
		"    s = s + 1",
		"  end do",
		"end do")
}

// arrayDerived sets the components of a derived-type variable (scalars and
// an array) from P, the rank and the sizes, and loops over them in the
// main program and in a module procedure given the variable.
func arrayDerived(g *gen, k int) {
	g.module("ty#", k,
		"module ty#",
		"  implicit none",
		"  type gd#",
		"    integer :: nx, ny",
		"    integer :: lo(2), hi(2)",
		"  end type gd#",
		"contains",
		"  subroutine sweep#(g, s)",
		"    type(gd#), intent(in) :: g",
		"    double precision, intent(inout) :: s",
		"    integer :: i, j",
		"    do j = g%lo(2), g%hi(2)",
		"      do i = g%lo(1), g%hi(1)",
		"        s = s + 1",
		"      end do",
		"    end do",
		"  end subroutine sweep#",
		"end module ty#")
	g.decl(k, "type(gd#) :: g#", "integer :: i#, j#")
	g.stmt(k, "g#%nx = "+g.pick("n/np", "(n + np - 1)/np", "n", "m*np"),
		"g#%ny = "+g.pick("m", "m + me", "nl*np", "n - me"))
	if g.r.IntN(2) == 0 {
		g.stmt(k, "g#%lo(1) = me*g#%nx + 1", "g#%hi(1) = g#%lo(1) + g#%nx - 1", "g#%lo(2) = 1", "g#%hi(2) = g#%ny")
	} else {
		g.stmt(k, "do i# = 1, 2", "  g#%lo(i#) = i#", "  g#%hi(i#) = "+g.pick("g#%nx", "g#%ny", "i#*g#%nx", "g#%nx + g#%ny"), "end do")
	}
	if g.r.IntN(2) == 0 {
		g.stmt(k, "call sweep#(g#, s)")
	}
	g.stmt(k, "do j# = 1, g#%ny", "  do i# = g#%lo(1), g#%hi(1)", "    s = s + 1", "  end do", "end do")
}

// arrayModule keeps an array of level sizes and a level count in module
// variables, set by one module procedure and read by another and by the
// main program.
func arrayModule(g *gen, k int) {
	f := g.pick("n/(2**i)", "np*i", "m*i + me", "(n + np - 1)/np - i", "n/np/i")
	g.module("mv#", k,
		"module mv#",
		"  implicit none",
		"  integer :: lev#(4), nlv#",
		"contains",
		"  subroutine set#(n, m, np, me, nl)",
		"    integer, intent(in) :: n, m, np, me, nl",
		"    integer :: i",
		"    nlv# = min(nl, 4)",
		"    do i = 1, 4",
		"      lev#(i) = "+f,
		"    end do",
		"  end subroutine set#",
		"  subroutine run#(s)",
		"    double precision, intent(inout) :: s",
		"    integer :: i, kk",
		"    do kk = 1, nlv#",
		"      do i = 1, lev#(kk)",
		"        s = s + 1",
		"      end do",
		"    end do",
		"  end subroutine run#",
		"end module mv#")
	g.decl(k, "integer :: i#")
	g.stmt(k, "call set#(n, m, np, me, nl)", "call run#(s)")
	g.stmt(k, fmt.Sprintf("do i# = 1, lev#(%d)", 1+g.r.IntN(4)), "  s = s + 1", "end do")
}

// ---------------------------------------------------------------------
// 2. Wrappers.

// wrapperSetup chooses how the main program obtains me and np: through a
// subroutine returning them as arguments, a COMMON block (fixed form) or a
// module (free form) set by an initialising subroutine, or functions.
func wrapperSetup(g *gen) {
	modes := []string{"args", "common", "func"}
	if g.free {
		modes = []string{"args", "module", "func"}
	}
	switch g.pick(modes...) {
	case "args":
		g.init = []string{"call getmp(me, np)"}
		addGetmp(g)
	case "common":
		g.decl(0, "common /mpic/ me, np")
		g.init = []string{"call initc"}
		addInitc(g)
	case "module":
		addMpiMod(g)
		g.init = []string{"call mpm_init", "me = mrk", "np = msz"}
	case "func":
		g.have["decl myrk"] = true
		g.decl(0, "integer myrk, nprocs")
		g.init = []string{"me = myrk()", "np = nprocs()"}
		addFuncs(g)
	}
}

func addGetmp(g *gen) {
	g.unit("getmp", 0,
		"subroutine getmp(rk, sz)",
		mpiHead,
		"  integer rk, sz, ierr",
		"  call MPI_COMM_RANK(MPI_COMM_WORLD, rk, ierr)",
		"  call MPI_COMM_SIZE(MPI_COMM_WORLD, sz, ierr)",
		"end")
}

func addInitc(g *gen) {
	g.unit("initc", 0,
		"subroutine initc",
		mpiHead,
		"  integer cme, cnp, ierr",
		"  common /mpic/ cme, cnp",
		"  call MPI_COMM_RANK(MPI_COMM_WORLD, cme, ierr)",
		"  call MPI_COMM_SIZE(MPI_COMM_WORLD, cnp, ierr)",
		"end")
}

func addFuncs(g *gen) {
	g.unit("myrk", 0,
		"integer function myrk()",
		mpiHead,
		"  integer r, ierr",
		"  call MPI_COMM_RANK(MPI_COMM_WORLD, r, ierr)",
		"  myrk = r",
		"end")
	g.unit("nprocs", 0,
		"integer function nprocs()",
		mpiHead,
		"  integer p, ierr",
		"  call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)",
		"  nprocs = p",
		"end")
}

func addMpiMod(g *gen) {
	g.module("mpm", 0,
		"module mpm",
		"  implicit none",
		"  integer :: mrk, msz",
		"contains",
		"  subroutine mpm_init",
		"    use mpi",
		"    integer :: ierr",
		"    call MPI_COMM_RANK(MPI_COMM_WORLD, mrk, ierr)",
		"    call MPI_COMM_SIZE(MPI_COMM_WORLD, msz, ierr)",
		"  end subroutine mpm_init",
		"end module mpm")
}

// wrapperShapes are fragments whose routines get the rank and P again
// through the wrappers and use them as bounds and peers.
var wrapperShapes = []shape{
	{name: "args", add: wrapArgs},
	{name: "common", add: wrapCommon},
	{name: "blocksize", add: wrapBlockSize},
	{name: "bounds", add: wrapBounds},
	{name: "rankfunc", add: wrapRankFunc},
	{name: "send", add: wrapSend},
	{name: "collective", add: wrapCollective},
	{name: "module", freeOnly: true, add: wrapModule},
}

// wrapBlock are block bounds in terms of a rank r and size p.
var wrapBlock = [][2]string{
	{"r*(n/p) + 1", "(r + 1)*(n/p)"},
	{"1", "n/p + r"},
	{"r + 1", "n"},
	{"1", "(n + p - 1)/p"},
	{"r*(n/p) + min(r, mod(n, p)) + 1", "(r + 1)*(n/p) + min(r + 1, mod(n, p))"},
	{"r*((n + p - 1)/p) + 1", "n"},
}

// wrapArgs: a subroutine, called from the main program with different
// sizes and from a loop, gets the rank and P through getmp's arguments.
func wrapArgs(g *gen, k int) {
	addGetmp(g)
	b := wrapBlock[g.r.IntN(len(wrapBlock))]
	g.unit("wa#", k,
		"subroutine wa#(n, s)",
		"  implicit none",
		"  integer n, r, p, i",
		"  double precision s",
		"  call getmp(r, p)",
		"  do i = "+b[0]+",",
		"&   "+b[1],
		"    s = s + 1",
		"  enddo",
		"end")
	g.decl(k, "integer j#")
	g.stmt(k, "call wa#(n, s)")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "do j# = 1, m", "  call wa#(j#*np, s)", "enddo")
	} else {
		g.stmt(k, "call wa#(m + me, s)")
	}
}

// wrapCommon: a subroutine reads the rank and P from the COMMON block
// initc sets (initc is called once more if the main program does not).
func wrapCommon(g *gen, k int) {
	if !g.have["initc"] {
		addInitc(g)
		g.stmt(k, "call initc")
	}
	b := wrapBlock[g.r.IntN(len(wrapBlock))]
	g.unit("wc#", k,
		"subroutine wc#(n, s)",
		"  implicit none",
		"  integer n, r, p, i",
		"  common /mpic/ r, p",
		"  double precision s",
		"  do i = "+b[0]+",",
		"&   "+b[1],
		"    s = s + 1",
		"  enddo",
		"  if (r .eq. p - 1) s = s + 1",
		"end")
	g.stmt(k, "call wc#(n, s)", "call wc#(m, s)")
}

// wrapBlockSizeBounds are the bounds of wf#'s loop over the rank's block of
// size nblk#(n).
var wrapBlockSizeBounds = []string{
	"me*nblk#(n) + 1, (me + 1)*nblk#(n)",
	"1, nblk#(n) - me",
	"me*nblk#(n) + 1, n",
}

// wrapBlockSize: a function returning the block size from P, called from
// the main program (in a loop bound and an assignment) and from a
// subroutine.
func wrapBlockSize(g *gen, k int) {
	f := g.pick("(n + p - 1)/p", "n/p", "max(1, n/p)", "n/p + 1")
	g.unit("nblk#", k,
		"integer function nblk#(n)",
		mpiHead,
		"  integer n, p, ierr",
		"  call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)",
		"  nblk# = "+f,
		"end")
	g.unit("wf#", k,
		"subroutine wf#(n, me, s)",
		"  implicit none",
		"  integer n, me, i, nblk#",
		"  double precision s",
		"  do i = "+wrapBlockSizeBounds[g.r.IntN(len(wrapBlockSizeBounds))],
		"    s = s + 1",
		"  enddo",
		"end")
	g.decl(k, "integer nblk#, nb#, i#")
	g.stmt(k, "do i# = 1, nblk#(n)", "  s = s + 1", "enddo",
		"nb# = nblk#(m*np)", "do i# = 1, nb#", "  s = s + 1", "enddo",
		"call wf#(n, me, s)")
}

// wrapBounds: a subroutine returns the rank's block bounds through its
// arguments, computed from getmp's rank and P; the main program and a
// second subroutine loop over them.
func wrapBounds(g *gen, k int) {
	addGetmp(g)
	b := wrapBlock[g.r.IntN(len(wrapBlock))]
	g.unit("bnd#", k,
		"subroutine bnd#(n, lo, hi)",
		"  implicit none",
		"  integer n, lo, hi, r, p",
		"  call getmp(r, p)",
		"  lo = "+b[0],
		"  hi = "+b[1],
		"end")
	g.unit("ub#", k,
		"subroutine ub#(n, s)",
		"  implicit none",
		"  integer n, lo, hi, i, j",
		"  double precision s",
		"  call bnd#(n, lo, hi)",
		"  do j = 1, 2",
		"    do i = lo, hi",
		"      s = s + j",
		"    enddo",
		"  enddo",
		"end")
	g.decl(k, "integer lo#, hi#, i#")
	g.stmt(k, "call bnd#("+g.pick("n", "m*np", "n + m")+", lo#, hi#)", "do i# = lo#, hi#", "  s = s + 1", "enddo",
		"call ub#(n, s)", "call ub#(m, s)")
}

// wrapRankFunc: a function returning the rank bounds a loop of a
// subroutine and a branch of the main program.
func wrapRankFunc(g *gen, k int) {
	if !g.have["myrk"] {
		addFuncs(g)
	}
	g.unit("wr#", k,
		"subroutine wr#(n, s)",
		"  implicit none",
		"  integer n, i, myrk, nprocs",
		"  double precision s",
		"  do i = "+g.pick("myrk() + 1, n, nprocs()", "1, n - myrk()", "myrk()*n + 1, (myrk() + 1)*n", "1, nprocs() - myrk()"),
		"    s = s + 1",
		"  enddo",
		"end")
	if !g.have["decl myrk"] {
		g.have["decl myrk"] = true
		g.decl(k, "integer myrk")
	}
	g.stmt(k, "call wr#(n, s)", "if (myrk() .eq. 0) then", "  call wr#(m, s)", "endif")
}

// wrapSend: neighbours computed in a subroutine through getmp (MPI_PROC_NULL
// at the ends, or periodic), and send and receive wrappers that test the
// peer, called in a time loop.
func wrapSend(g *gen, k int) {
	addGetmp(g)
	var lr []string
	if g.r.IntN(2) == 0 {
		lr = []string{
			"  l = r - 1",
			"  if (r .eq. 0) l = MPI_PROC_NULL",
			"  rr = r + 1",
			"  if (r .eq. p - 1) rr = MPI_PROC_NULL",
		}
	} else {
		lr = []string{"  l = mod(r + p - 1, p)", "  rr = mod(r + 1, p)"}
	}
	g.unit("nb#", k, append(append([]string{
		"subroutine nb#(l, rr)",
		mpiHead,
		"  integer l, rr, r, p",
		"  call getmp(r, p)"}, lr...), "end")...)
	g.unit("snd#", k,
		"subroutine snd#(buf, cnt, dest)",
		mpiHead,
		"  integer cnt, dest, ierr",
		"  double precision buf(*)",
		"  if (dest .ne. MPI_PROC_NULL) then",
		"    call MPI_SEND(buf, cnt, MPI_DOUBLE_PRECISION, dest, 1,",
		"&     MPI_COMM_WORLD, ierr)",
		"  endif",
		"end")
	g.unit("rcv#", k,
		"subroutine rcv#(buf, cnt, src)",
		mpiHead,
		"  integer cnt, src, ierr, st(MPI_STATUS_SIZE)",
		"  double precision buf(*)",
		"  if (src .ne. MPI_PROC_NULL) then",
		"    call MPI_RECV(buf, cnt, MPI_DOUBLE_PRECISION, src, 1,",
		"&     MPI_COMM_WORLD, st, ierr)",
		"  endif",
		"end")
	g.decl(k, "integer l#, r#, it#")
	g.stmt(k, "call nb#(l#, r#)", "do it# = 1, nl",
		"  call snd#(buf, "+g.pick("m", "n/np", "me + 1")+", r#)",
		"  call rcv#(buf, m, l#)", "enddo")
}

// wrapCollective: a global-sum wrapper around MPI_ALLREDUCE whose count is
// a block size from P, called in a time loop and from a subroutine that
// gets P through getmp.
func wrapCollective(g *gen, k int) {
	addGetmp(g)
	g.unit("gsum#", k,
		"subroutine gsum#(x, y, cnt)",
		mpiHead,
		"  integer cnt, ierr",
		"  double precision x(*), y(*)",
		"  if (cnt .gt. 0) then",
		"    call MPI_ALLREDUCE(x, y, cnt, MPI_DOUBLE_PRECISION, MPI_SUM,",
		"&     MPI_COMM_WORLD, ierr)",
		"  endif",
		"end")
	g.unit("gs#", k,
		"subroutine gs#(n, x, y)",
		"  implicit none",
		"  integer n, r, p, j",
		"  double precision x(*), y(*)",
		"  call getmp(r, p)",
		"  do j = 1, "+g.pick("p", "n/p", "r + 1"),
		"    call gsum#(x, y, "+g.pick("n/p", "j", "n - j")+")",
		"  enddo",
		"end")
	g.decl(k, "integer it#")
	g.stmt(k, "do it# = 1, nl", "  call gsum#(buf, buf2, "+g.pick("m", "n/np", "np")+")", "enddo",
		"call gs#(n, buf, buf2)")
}

// wrapModule: module variables set by a module procedure that calls MPI,
// read by another module procedure and by the main program.
func wrapModule(g *gen, k int) {
	g.module("mw#", k,
		"module mw#",
		"  implicit none",
		"  integer :: wr#, ws#",
		"contains",
		"  subroutine mwinit#",
		"    use mpi",
		"    integer :: ierr",
		"    call MPI_COMM_RANK(MPI_COMM_WORLD, wr#, ierr)",
		"    call MPI_COMM_SIZE(MPI_COMM_WORLD, ws#, ierr)",
		"  end subroutine mwinit#",
		"  subroutine mwork#(n, s)",
		"    integer, intent(in) :: n",
		"    double precision, intent(inout) :: s",
		"    integer :: i",
		"    do i = "+g.pick("wr# + 1, n, ws#", "1, n/ws#", "wr#*(n/ws#) + 1, (wr# + 1)*(n/ws#)"),
		"      s = s + 1",
		"    end do",
		"  end subroutine mwork#",
		"end module mw#")
	g.decl(k, "integer :: i#")
	g.stmt(k, "call mwinit#", "call mwork#(n, s)", "do i# = 1, ws# - wr#", "  call mwork#(m, s)", "end do")
}

// ---------------------------------------------------------------------
// 3. Variable steps.

// stepShapes are DO loops whose step is a variable: the cyclic
// distribution DO I = ME+1, N, NP, negative steps, steps from the sizes and
// P, with loops nested inside them, and the DO variable's value after such
// a loop.
var stepShapes = []shape{
	{name: "cyclic", add: stepCyclic},
	{name: "negative", add: stepNegative},
	{name: "sizes", add: stepSizes},
	{name: "sendcyclic", add: stepSendCyclic},
	{name: "after", add: stepAfter},
	{name: "rankstep", add: stepRankDependent},
	{name: "outervar", add: stepOuterVar},
}

// stepPositive and stepNegatives are steps computed from P and the sizes
// (m >= 1), stepRank steps that depend on the rank too.
var (
	stepPositive  = []string{"np", "m", "2*np", "m*np", "n/np + 1", "max(1, (n + np - 1)/np)", "m + 1"}
	stepNegatives = []string{"-np", "-m", "-(m + 1)", "-2*np"}
	stepRank      = []string{"me + 1", "m + me"}
)

// stepInners are loops nested in a loop over i#: bounds from the outer
// variable, and a cyclic inner loop.
var stepInners = []string{"1, i#", "i#, n", "i#, n, np", "1, m", "i# + me, n, np"}

// stepBody is the body of a loop over i#: a nested loop or a statement.
func stepBody(g *gen) []string {
	if g.r.IntN(4) == 0 {
		return []string{"  s = s + i#"}
	}
	return []string{"  do j# = " + g.pick(stepInners...), "    s = s + 1", "  enddo"}
}

func stepLoop(g *gen, k int, head string) {
	g.stmt(k, head)
	g.stmt(k, stepBody(g)...)
	g.stmt(k, "enddo")
}

// stepCyclic: the cyclic distribution of 1..n over the ranks.
func stepCyclic(g *gen, k int) {
	g.decl(k, "integer i#, j#")
	stepLoop(g, k, "do i# = "+g.pick("me + 1, n, np", "1 + me, n, np", "me, n - 1, np", "me + 1, n + m, np", "1 + me*m, n, np*m"))
}

// stepNegative: loops that count down by a variable step.
func stepNegative(g *gen, k int) {
	g.decl(k, "integer i#, j#, st#")
	g.stmt(k, "st# = "+g.pick(stepNegatives...))
	stepLoop(g, k, "do i# = "+g.pick("n - me, 1, st#", "n, 1, st#", "n, m, st#", "n + me, 0, st#"))
}

// stepSizes: steps computed from the sizes and P, in a variable or
// written in the DO statement.
func stepSizes(g *gen, k int) {
	g.decl(k, "integer i#, j#, st#")
	st := g.pick(stepPositive...)
	if g.r.IntN(3) == 0 {
		stepLoop(g, k, "do i# = "+g.pick("1, n, ", "me + 1, n, ")+st)
		return
	}
	g.stmt(k, "st# = "+st)
	stepLoop(g, k, "do i# = "+g.pick("1, n, st#", "me + 1, n, st#", "1 + me*m, n, st#", "m, n + 3, st#"))
}

// stepRankDependent: steps that depend on the rank.
func stepRankDependent(g *gen, k int) {
	g.decl(k, "integer i#, j#, st#")
	g.stmt(k, "st# = "+g.pick(stepRank...))
	stepLoop(g, k, "do i# = "+g.pick("1, n, st#", "n, 1, -st#"))
}

// stepOuterVar: the step is an outer loop's variable (a sieve, a harmonic
// sum).
func stepOuterVar(g *gen, k int) {
	g.decl(k, "integer i#, j#, k#")
	switch g.r.IntN(4) {
	case 0:
		g.stmt(k, "do k# = 1, m", "  do i# = k#, n, k#")
	case 1:
		g.stmt(k, "do k# = 1, 3", "  do i# = 1 + me, n, k#*np")
	case 2:
		g.stmt(k, "do k# = 1, 3", "  do i# = n, 1, -k#")
	case 3:
		g.stmt(k, "do k# = 2, n", "  do i# = 2*k#, n, k#")
	}
	g.stmt(k, "    s = s + 1", "  enddo", "enddo")
}

// stepSendCyclic: sends and receives inside a cyclic loop, guarded by a
// test on the loop variable.
func stepSendCyclic(g *gen, k int) {
	g.decl(k, "integer i#")
	g.stmt(k, "do i# = "+g.pick("me + 1, n, np", "n - me, 1, -np", "1 + me, n, m*np"),
		"  if (i# + np .le. n) then",
		"    call MPI_SEND(buf, m, MPI_DOUBLE_PRECISION, mod(me + 1, np),",
		"&     1, MPI_COMM_WORLD, ierr)",
		"  endif",
		"  if (i# .gt. np) then",
		"    call MPI_RECV(buf, m, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,",
		"&     1, MPI_COMM_WORLD, status, ierr)",
		"  endif",
		"enddo")
}

// stepAfter: the value of the DO variable after a loop with a variable
// step bounds the next loop.
func stepAfter(g *gen, k int) {
	g.decl(k, "integer i#, j#, st#")
	g.stmt(k, "st# = "+g.pick(stepPositive...),
		"do i# = "+g.pick("1", "me + 1")+", n, st#", "  s = s + 1", "enddo",
		"do j# = 1, i#"+g.pick("", " - n", "/st#"), "  s = s + 1", "enddo")
}

// ---------------------------------------------------------------------
// 4. Process grids.

func isPow2(p int64) bool { return p&(p-1) == 0 }
func isSquare(p int64) bool {
	q := int64(1)
	for q*q < p {
		q++
	}
	return q*q == p
}

// gridSetup writes a hand-made two-dimensional process grid xd by yd (xd*yd
// = np) with coordinates row = mod(me, xd) and col = me/xd, in the main
// program or in a subroutine: xd = 2**(ndim/2) with ndim = log2(np)
// computed by a loop or by int(log(dble(np))/log(2.d0) + 0.00001), or xd
// an integer square root (a loop or int(sqrt(dble(np)) + 0.001)),
// possibly lowered to a divisor of np. MPI_DIMS_CREATE, MPI_CART_CREATE,
// MPI_CART_COORDS and MPI_CART_SHIFT are neither modelled by the frontend
// nor run by aptrun, so the grid is written out by hand.
func gridSetup(g *gen) {
	g.decl(0, "integer xd, yd, row, col, nd, q, ig")
	var lines []string
	byRoot := false
	switch g.r.IntN(8) {
	case 7:
		gridCart(g)
		return
	case 0:
		lines = []string{"q = 1", "nd = 0", "do while (q .lt. np)", "  q = 2*q", "  nd = nd + 1", "enddo"}
		g.restrict(isPow2)
	case 1:
		lines = []string{"nd = int(log(dble(np))/log(2.d0) + 0.00001)"}
		g.restrict(isPow2)
	case 2:
		lines = []string{"nd = 0", "do ig = 1, 20", "  if (2**nd .ge. np) exit", "  nd = nd + 1", "enddo"}
		g.restrict(isPow2)
	case 3:
		if g.free {
			lines = []string{"nd = 0", "q = np", "do while (q .gt. 1)", "  q = q/2", "  nd = nd + 1", "end do"}
		} else {
			lines = []string{"nd = 0", "q = 1", "10 if (q .ge. np) goto 20", "q = 2*q", "nd = nd + 1", "goto 10", "20 continue"}
		}
		g.restrict(isPow2)
	case 4:
		lines = []string{"q = 1", "do while ((q + 1)*(q + 1) .le. np)", "  q = q + 1", "enddo", "xd = q"}
		byRoot = true
		g.restrict(isSquare)
	case 5:
		lines = []string{"xd = int(sqrt(dble(np)) + 0.001)"}
		byRoot = true
		g.restrict(isSquare)
	case 6:
		lines = []string{"xd = int(sqrt(dble(np)) + 0.001)", "do while (mod(np, xd) .ne. 0)", "  xd = xd - 1", "enddo"}
		byRoot = true
	}
	if !byRoot {
		if g.r.IntN(2) == 0 {
			lines = append(lines, "xd = 2**(nd/2)")
		} else {
			lines = append(lines, "xd = 1", "do ig = 1, nd/2", "  xd = 2*xd", "enddo")
		}
	}
	lines = append(lines, "yd = np/xd", "row = mod(me, xd)", "col = me/xd")
	switch g.r.IntN(3) {
	case 0:
		g.stmt(0, lines...)
		return
	case 1:
		// The grid comes back through a COMMON block.
		u := []string{"subroutine gridc(np, me)", "  implicit none", "  integer np, me, xd, yd, row, col, nd, q, ig",
			"  common /gridv/ xd, yd, row, col"}
		for _, l := range lines {
			u = append(u, indentStmt(l))
		}
		g.unit("gridc", 0, append(u, "end")...)
		g.decl(0, "common /gridv/ xd, yd, row, col")
		g.stmt(0, "call gridc(np, me)")
		return
	}
	u := []string{"subroutine grid(np, me, xd, yd, row, col)", "  implicit none", "  integer np, me, xd, yd, row, col, nd, q, ig"}
	for _, l := range lines {
		u = append(u, indentStmt(l))
	}
	g.unit("grid", 0, append(u, "end")...)
	g.stmt(0, "call grid(np, me, xd, yd, row, col)")
}

// gridCart is the grid MPI_DIMS_CREATE, MPI_CART_CREATE and
// MPI_CART_COORDS would give, by hand: dims(1) >= dims(2) with dims(2) the
// largest divisor of np not above its square root, row-major coordinates
// in an array, and xd = dims(2) so that row = coords(2) = mod(me, xd) and
// col = coords(1) = me/xd as in the other setups.
func gridCart(g *gen) {
	g.decl(0, "integer dims(2), coords(2)")
	g.unit("dimsc", 0,
		"subroutine dimsc(np, dims)",
		"  implicit none",
		"  integer np, dims(2), q",
		"  q = int(sqrt(dble(np)) + 0.001)",
		"  do while (mod(np, q) .ne. 0)",
		"    q = q - 1",
		"  enddo",
		"  dims(1) = np/q",
		"  dims(2) = q",
		"end")
	g.unit("cartc", 0,
		"subroutine cartc(me, dims, coords)",
		"  implicit none",
		"  integer me, dims(2), coords(2)",
		"  coords(1) = me/dims(2)",
		"  coords(2) = mod(me, dims(2))",
		"end")
	g.stmt(0, "call dimsc(np, dims)", "call cartc(me, dims, coords)",
		"xd = dims(2)", "yd = dims(1)", "row = coords(2)", "col = coords(1)")
}

// gridShapes are fragments whose work and messages depend on the grid
// coordinates.
var gridShapes = []shape{
	{name: "block", add: gridBlock},
	{name: "neighbours", add: gridNeighbours},
	{name: "coordtests", add: gridCoordTests},
	{name: "periodic", add: gridPeriodic},
	{name: "wavefront", add: gridWavefront},
	{name: "doubling", add: gridDoubling},
	{name: "shift", add: gridShift},
	{name: "roots", add: gridRoots},
	{name: "cells", add: gridCells},
	{name: "subdomain", add: gridSubdomain},
	{name: "capture", add: gridCapture},
	{name: "pack", add: gridPack},
}

// gridPack: a halo packed element by element, the buffer's length counted
// in the innermost of three loops whose bounds follow the grid, then sent
// to the eastern neighbour and received from the western one, once per
// axis of a loop around it.
func gridPack(g *gen, k int) {
	g.decl(k, "integer ax#, bl#, i1#, i2#, i3#")
	g.stmt(k, "do ax# = 1, 2",
		"  bl# = 0",
		"  do i3# = 1, "+g.pick("n/yd + ax#", "m*ax#", "n/xd"),
		"    do i2# = 1, "+g.pick("m", "n/xd + 1", "col + 1"),
		"      do i1# = 1, "+g.pick("2", "ax#"),
		"        bl# = bl# + 1",
		"      enddo",
		"    enddo",
		"  enddo",
		"  if (row .lt. xd - 1) call MPI_SEND(buf, bl#,",
		"&   MPI_DOUBLE_PRECISION, me + 1, ax#, MPI_COMM_WORLD, ierr)",
		"  if (row .gt. 0) call MPI_RECV(buf, m,",
		"&   MPI_DOUBLE_PRECISION, me - 1, ax#, MPI_COMM_WORLD,",
		"&   status, ierr)",
		"enddo")
}

// gridSubdomain: a nest over the rank's block whose global indices are set
// inside IFs around the inner loops (jg = jpt + j tested before the loop
// over i sets ig = ipt + i), as NPB LU sets up its initial values, or a
// bound set by both arms of an IF: values the iteration sets anew, so the
// nest is evaluated once for all its iterations, not run; or indices set
// in the arms of the IFs that test them and read nowhere else.
func gridSubdomain(g *gen, k int) {
	g.decl(k, "integer i#, j#, l#, jg#, ig#, w#")
	if g.r.IntN(3) == 0 {
		// Indices set in the arms of the IFs that test them and read
		// nowhere else, as NPB FT's checksum picks its elements.
		g.stmt(k, "do i# = 1, "+g.pick("n", "4*m", "n + m"),
			"  jg# = mod(i#, xd)",
			"  if (jg# .eq. row) then",
			"    ig# = mod(3*i#, "+g.pick("yd", "m", "n + 1")+")",
			"    if (ig# .eq. col .or. ig# .gt. "+g.pick("1", "m")+") s = s + 1",
			"  endif",
			"enddo")
		return
	}
	g.stmt(k, "do l# = 1, "+g.pick("m", "2", "nl + 1"),
		"  do j# = 1, "+g.pick("n/yd", "n/yd + 1", "m"),
		"    jg# = col*(n/yd) + j#")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "    if (jg# .ne. 1 .and. jg# .ne. n) then",
			"      do i# = 1, "+g.pick("n/xd", "n/xd + 1"),
			"        ig# = row*(n/xd) + i#",
			"        if (ig# .ne. 1 .and. ig# .ne. "+g.pick("n", "n - 1")+") s = s + 1",
			"      enddo",
			"    endif")
	} else {
		g.stmt(k, "    if (mod(jg#, 2) .eq. 0) then",
			"      w# = jg#/2",
			"    else",
			"      w# = "+g.pick("row + 1", "m"),
			"    endif",
			"    do i# = 1, w#",
			"      s = s + 1",
			"    enddo")
	}
	g.stmt(k, "  enddo", "enddo")
}

// gridCapture: searches whose result the code after the loop uses: a value
// kept in an IF arm when the loop's variable matches the grid coordinate,
// directly in the loop or in a loop inside it. Only running the loop keeps
// them exact.
func gridCapture(g *gen, k int) {
	g.decl(k, "integer i#, j#, c#, v#")
	g.stmt(k, "v# = 0")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "do c# = 0, np - 1",
			"  if (c# .eq. me) then",
			"    v# = n/np",
			"    if (c# .lt. mod(n, np)) v# = v# + 1",
			"  endif",
			"enddo")
	} else {
		g.stmt(k, "do j# = 1, "+g.pick("m", "2"),
			"  do c# = 0, xd - 1",
			"    if (c# .eq. row) v# = (c# + 1)*j#",
			"  enddo",
			"enddo")
	}
	g.stmt(k, "do i# = 1, v#", "  s = s + 1", "enddo")
}

// gridCells: a multipartition by hand, as BT and SP set theirs up: the
// rank owns xd cells whose coordinates cycle along the row, each cell's
// size is n/xd plus one where its coordinate is within the remainder, and
// a cell too small stops the program with MPI_ABORT (checked for every
// cell in the loop that sizes them, on all ranks at once, or for the
// first cell only, on some ranks); the work sums the sizes of the cells
// off the first coordinate.
func gridCells(g *gen, k int) {
	g.decl(k, "integer c#, cc#(16), sz#(16), ex#, bs#, fs#, i#")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "cc#(1) = row", "do c# = 2, xd", "  cc#(c#) = mod(cc#(c# - 1) + 1, xd)", "enddo")
	} else {
		g.stmt(k, "do c# = 1, xd", "  cc#(c#) = mod(row + c# - 1, xd)", "enddo")
	}
	lim := g.pick("1", "2", "3")
	g.stmt(k, "do c# = 1, xd", "  cc#(c#) = cc#(c#) + 1", "enddo",
		"bs# = n/xd", "ex# = mod(n, xd)",
		"do c# = 1, xd",
		"  if (cc#(c#) .le. ex#) then",
		"    sz#(c#) = bs# + 1",
		"  else",
		"    sz#(c#) = bs#",
		"  endif")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "  if (sz#(c#) .lt. "+lim+") then", "    call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)", "  endif", "enddo")
	} else {
		g.stmt(k, "enddo", "if (sz#(1) .lt. "+lim+") then", "  call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)", "endif")
	}
	g.stmt(k, "fs# = 0", "do c# = 1, xd", "  if (cc#(c#) .ne. 1) fs# = fs# + sz#(c#)*m", "enddo",
		"do i# = 1, fs#", "  s = s + 1", "enddo")
}

// gridRoots: the integer log2 and square root of n computed by loops bound
// the work, divided over the grid.
func gridRoots(g *gen, k int) {
	g.decl(k, "integer i#, j#, q#")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "q# = 0", "do while ((q# + 1)*(q# + 1) .le. n)", "  q# = q# + 1", "enddo")
	} else {
		g.stmt(k, "q# = 0", "j# = 1", "do while (2*j# .le. n)", "  j# = 2*j#", "  q# = q# + 1", "enddo")
	}
	g.stmt(k, "do i# = 1, "+g.pick("q#", "q#*xd", "q# - col"), "  do j# = row + 1, "+g.pick("q#", "n", "q# + yd"), "    s = s + 1", "  enddo", "enddo")
}

// gridShift: MPI_CART_SHIFT by hand, a subroutine returning the source and
// destination one step along a dimension (MPI_PROC_NULL off the grid),
// called for both dimensions; sends and receives test the peers.
func gridShift(g *gen, k int) {
	g.unit("cshift", 0,
		"subroutine cshift(dir, me, xd, yd, src, dst)",
		mpiHead,
		"  integer dir, me, xd, yd, src, dst, row, col",
		"  row = mod(me, xd)",
		"  col = me/xd",
		"  src = MPI_PROC_NULL",
		"  dst = MPI_PROC_NULL",
		"  if (dir .eq. 1) then",
		"    if (col .gt. 0) src = me - xd",
		"    if (col .lt. yd - 1) dst = me + xd",
		"  else",
		"    if (row .gt. 0) src = me - 1",
		"    if (row .lt. xd - 1) dst = me + 1",
		"  endif",
		"end")
	g.decl(k, "integer sr#, ds#, d#, it#")
	g.stmt(k, "do d# = 1, 2", "  call cshift(d#, me, xd, yd, sr#, ds#)",
		"  do it# = 1, "+g.pick("nl", "m", "1"),
		"    if (ds# .ne. MPI_PROC_NULL) call MPI_SEND(buf, "+g.pick("m", "n/np", "n/xd")+",",
		"&     MPI_DOUBLE_PRECISION, ds#, d#, MPI_COMM_WORLD, ierr)",
		"    if (sr# .ne. MPI_PROC_NULL) call MPI_RECV(buf, m,",
		"&     MPI_DOUBLE_PRECISION, sr#, d#, MPI_COMM_WORLD, status, ierr)",
		"  enddo", "enddo")
}

// gridBlock: loops over the rank's block of an n by n grid, with the last
// row or column taking the remainder.
func gridBlock(g *gen, k int) {
	g.decl(k, "integer i#, j#, lo#, hi#")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "lo# = row*(n/xd) + 1", "hi# = (row + 1)*(n/xd)", "if (row .eq. xd - 1) hi# = n")
	} else {
		g.stmt(k, "lo# = col*(n/yd) + 1 + min(col, mod(n, yd))", "hi# = lo# + n/yd - 1",
			"if (col .lt. mod(n, yd)) hi# = hi# + 1")
	}
	g.stmt(k, "do j# = 1, "+g.pick("n/yd", "m*xd", "col + 1", "n/xd"),
		"  do i# = lo#, hi#", "    s = s + 1", "  enddo", "enddo")
}

// gridNeighbours: north, south, west and east, MPI_PROC_NULL at the
// border, and sends and receives guarded by `.ne. MPI_PROC_NULL` in a time
// loop.
func gridNeighbours(g *gen, k int) {
	g.decl(k, "integer no#, so#, we#, ea#, it#, c#")
	g.stmt(k,
		"no# = MPI_PROC_NULL", "so# = MPI_PROC_NULL", "we# = MPI_PROC_NULL", "ea# = MPI_PROC_NULL",
		"if (col .gt. 0) no# = me - xd", "if (col .lt. yd - 1) so# = me + xd",
		"if (row .gt. 0) we# = me - 1", "if (row .lt. xd - 1) ea# = me + 1",
		"c# = "+g.pick("n/xd", "n/yd", "m"),
		"do it# = 1, nl")
	for _, d := range []string{"no#", "so#", "we#", "ea#"} {
		if g.r.IntN(3) == 0 {
			continue
		}
		g.stmt(k,
			"  if ("+d+" .ne. MPI_PROC_NULL) then",
			"    call MPI_SEND(buf, c#, MPI_DOUBLE_PRECISION, "+d+", 1,",
			"&     MPI_COMM_WORLD, ierr)",
			"    call MPI_RECV(buf2, c#, MPI_DOUBLE_PRECISION, "+d+", 1,",
			"&     MPI_COMM_WORLD, status, ierr)",
			"  endif")
	}
	g.stmt(k, "enddo")
}

// gridCoordTests: sends and receives guarded by tests on the coordinates.
func gridCoordTests(g *gen, k int) {
	g.decl(k, "integer i#")
	g.stmt(k,
		"if (row .lt. xd - 1) call MPI_SEND(buf, n/xd + 1,",
		"&   MPI_DOUBLE_PRECISION, me + 1, 2, MPI_COMM_WORLD, ierr)",
		"if (row .gt. 0) call MPI_RECV(buf, n/xd + 1,",
		"&   MPI_DOUBLE_PRECISION, me - 1, 2, MPI_COMM_WORLD, status, ierr)",
		"if (col .eq. 0 .and. row .eq. 0) then",
		"  do i# = 1, "+g.pick("n", "np*m", "yd"),
		"    s = s + 1",
		"  enddo",
		"endif",
		"if (col .eq. yd - 1) then",
		"  call MPI_SEND(buf, m, MPI_DOUBLE_PRECISION, row, 3,",
		"&   MPI_COMM_WORLD, ierr)",
		"endif")
}

// gridPeriodic: a periodic shift along the row with MPI_SENDRECV.
func gridPeriodic(g *gen, k int) {
	g.decl(k, "integer ea#, we#, it#")
	g.stmt(k, "ea# = col*xd + mod(row + 1, xd)", "we# = col*xd + mod(row + xd - 1, xd)",
		"do it# = 1, "+g.pick("nl", "m", "yd"),
		"  call MPI_SENDRECV(buf, n/np + 1, MPI_DOUBLE_PRECISION, ea#, 4,",
		"&   buf2, n/np + 1, MPI_DOUBLE_PRECISION, we#, 4, MPI_COMM_WORLD,",
		"&   status, ierr)",
		"enddo")
}

// gridWavefront: loops whose trip counts are the coordinates themselves.
func gridWavefront(g *gen, k int) {
	g.decl(k, "integer i#, j#")
	g.stmt(k, "do i# = 1, "+g.pick("row + col + 1", "xd - row", "yd*(row + 1)"),
		"  do j# = "+g.pick("1, col + 1", "row + 1, n, xd", "1, m"), "    s = s + 1", "  enddo", "enddo")
}

// gridDoubling: x = 2*x recurrences bound loops: up to n, or nd times.
func gridDoubling(g *gen, k int) {
	g.decl(k, "integer i#, x#, l#")
	if g.r.IntN(2) == 0 {
		g.stmt(k, "x# = 1", "l# = 0", "do while (2*x# .le. n)", "  x# = 2*x#", "  l# = l# + 1", "enddo")
	} else {
		g.stmt(k, "x# = 1", "do l# = 1, yd", "  x# = 2*x#", "enddo")
	}
	g.stmt(k, "do i# = 1, "+g.pick("x#/xd", "x#", "l#*row", "x# - me"), "  s = s + 1", "enddo")
}

// TestCellChecksAtScale: testdata/programs/cellcheck.f90 (gridCells at
// the process counts of a real run: 8, 12 and 16 cells per rank, whose
// coordinates are nested MODs of the rank and whose size checks fail on
// some ranks in each iteration, on none, or on all). At P = 256 (16 cells
// of sizes 3 and 2 for n = 36) every rank aborts in some iteration of the loop that sizes its
// cells, which only the ranks that passed the earlier iterations reach;
// the analysis must say the program stops (before deciding each test on
// the ranks of its path, the sizes became unknowns there), and elsewhere
// agree with the execution of every rank.
func TestCellChecksAtScale(t *testing.T) {
	prog, diags := fortran.ParseFiles([]string{filepath.Join("..", "..", "testdata", "programs", "cellcheck.f90")}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	for _, pt := range []struct{ p, n int64 }{{256, 36}, {256, 48}, {144, 36}, {144, 30}, {64, 36}, {64, 20}} {
		env := map[string]int64{cost.Size: pt.p, "n": pt.n, "m": 2, "nl": 0}
		if probs := checkPoint(prog, env); len(probs) > 0 {
			t.Errorf("P=%d n=%d:\n%s", pt.p, pt.n, strings.Join(probs, "\n"))
		}
	}
}
