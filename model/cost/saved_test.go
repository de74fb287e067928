package cost_test

// savedShapes are procedures with SAVE variables called from loops: the
// storage lasts from one call to the next (Fortran 2008 5.3.16; an initial
// value implies SAVE), so what a call does can depend on the calls before
// it. Each is written with the SAVE attribute, a SAVE statement or DATA,
// the forms programs use.
var savedShapes = []shape{
	{name: "once", add: savedOnce},
	{name: "oncelong", add: savedOnceLong},
	{name: "counter", add: savedCounter},
	{name: "alternate", add: savedAlternate},
}

// savedDecl declares the SAVE variable v# of type typ with initial value
// init in one of the forms a program writes it.
func savedDecl(g *gen, typ, v, init string) []string {
	if g.free && g.r.IntN(2) == 0 {
		return []string{"  " + typ + ", save :: " + v + " = " + init}
	}
	switch g.r.IntN(3) {
	case 0:
		return []string{"  " + typ + " " + v, "  save " + v, "  data " + v + " /" + init + "/"}
	case 1:
		return []string{"  " + typ + " " + v, "  save", "  data " + v + " /" + init + "/"}
	}
	return []string{"  " + typ + " " + v, "  data " + v + " /" + init + "/"}
}

// savedCalls calls the routine from a loop whose trip count the point
// gives.
func savedCalls(g *gen, k int, call string) {
	g.decl(k, "integer it#")
	g.stmt(k, "do it# = 1, "+g.pick("m", "nl + 1", "m + nl", "np"), "  "+call, "enddo")
}

// savedOnce: a run-once set-up guarded by a flag the first call clears,
// under a condition on the rank or not.
func savedOnce(g *gen, k int) { savedOnceFrom(g, k, "") }

// savedOnceLong: the same, called from a loop of more trips than a run
// takes (maxRunTrips): its first trip is peeled.
func savedOnceLong(g *gen, k int) { savedOnceFrom(g, k, g.pick("4100", "4097 + m", "5000 + n")) }

func savedOnceFrom(g *gen, k int, trips string) {
	guard := g.pick("first#", "first# .and. me == 0", "first# .or. me > n")
	if trips != "" {
		// A flag some ranks never clear is not peeled: on those the
		// later trips could still clear it.
		guard = g.pick("first#", "first# .or. me > n")
	}
	lines := []string{"subroutine once#(n, me, s)", "  implicit none", "  integer n, me, i, j", "  double precision s"}
	lines = append(lines, savedDecl(g, "logical", "first#", ".true.")...)
	lines = append(lines,
		"  if ("+guard+") then",
		"    do i = 1, n",
		"      do j = 1, i",
		"        s = s + 1",
		"      enddo",
		"    enddo",
		"    first# = .false.",
		"  endif",
		"  do i = 1, n",
		"    s = s + 2",
		"  enddo",
		"end")
	g.unit("once#", k, lines...)
	if trips != "" {
		g.decl(k, "integer it#")
		g.stmt(k, "do it# = 1, "+trips, "  call once#(n, me, s)", "enddo")
		return
	}
	savedCalls(g, k, "call once#(n, me, s)")
}

// savedCounter: a count of the calls made so far, used as a loop bound.
func savedCounter(g *gen, k int) {
	lines := []string{"subroutine cnt#(n, s)", "  implicit none", "  integer n, i", "  double precision s"}
	lines = append(lines, savedDecl(g, "integer", "ncall#", "0")...)
	lines = append(lines,
		"  ncall# = ncall# + "+g.pick("1", "2"),
		"  do i = 1, ncall# + n",
		"    s = s + 1",
		"  enddo",
		"end")
	g.unit("cnt#", k, lines...)
	savedCalls(g, k, "call cnt#(n, s)")
}

// savedAlternate: a flag flipped at each call chooses the branch taken.
func savedAlternate(g *gen, k int) {
	lines := []string{"subroutine alt#(n, s)", "  implicit none", "  integer n, i", "  double precision s"}
	lines = append(lines, savedDecl(g, "logical", "odd#", g.pick(".true.", ".false."))...)
	lines = append(lines,
		"  if (odd#) then",
		"    do i = 1, n",
		"      s = s + 1",
		"    enddo",
		"  else",
		"    s = s - 1",
		"  endif",
		"  odd# = .not. odd#",
		"end")
	g.unit("alt#", k, lines...)
	savedCalls(g, k, "call alt#(n, s)")
}
