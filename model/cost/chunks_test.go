package cost_test

// chunkShapes are loops that hand a counter on from one trip to the next
// and wrap it (a position within a chunk of m cells, the chunk's number),
// with a loop inside the body: the branch that wraps the counter is taken
// once a chunk, and what the chunk number reaches decides later work.
var chunkShapes = []shape{
	{name: "wrap", add: chunkWrap},
	{name: "wrapafter", add: chunkWrapAfter},
}

// chunkBody is the loop over i# with its wrapping counter ic# (chunk size
// from the point) and an inner loop, work in the wrapping branch.
func chunkBody(g *gen, k int) {
	g.decl(k, "integer i#, j#, ic#, ich#, cs#")
	g.stmt(k,
		"cs# = "+g.pick("m", "m + 1", "np", "2"),
		"ic# = 0",
		"ich# = 1",
		"do i# = 1, "+g.pick("n", "n + m", "n*np"),
		"  ic# = ic# + 1",
		"  do j# = 1, "+g.pick("m", "ic#", "nl"),
		"    s = s + 1",
		"  enddo",
		"  if (ic# == cs#) then",
		"    ic# = 0",
		"    ich# = ich# + 1",
		"    s = s + 2",
		"  endif",
		"enddo")
}

// chunkWrap: the counters die with the loop.
func chunkWrap(g *gen, k int) { chunkBody(g, k) }

// chunkWrapAfter: the number of chunks bounds a loop after it.
func chunkWrapAfter(g *gen, k int) {
	chunkBody(g, k)
	g.stmt(k, "do j# = 1, ich# + ic#", "  s = s + 1", "enddo")
}
