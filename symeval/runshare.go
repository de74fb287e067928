package symeval

// Nested runs. A run inside a run is paid for by the one around it: each
// iteration of the outer run may spend about its share of what that run
// has left, and an inner run that would cost more is not started (its loop
// is evaluated symbolically, or by its carried slice) rather than spending
// the outer run's budget and making it fail, which threw the work of both
// away. A run's own estimate (iterations times the size of its body) counts
// no run inside it; the shares bound those as they come.

// A runFrame is a counted run in progress, for the runs inside it.
type runFrame struct {
	start int64 // runVisits when the run began
	limit int64 // the node visits it may make
	trips int64 // its iterations
	k     int64 // the iteration it is in
}

// runLimit is the node visits a run started now may make: runBudget and
// what the point's process count adds (or runCap, while the ranks of a
// point share a run), and within each run around it, what that run has left over its iterations still to go, the
// current one included.
func (ev *evaluator) runLimit() int64 {
	lim := runBudget + ev.processRuns()
	if ev.runCap > 0 {
		lim = ev.runCap
	}
	for _, f := range ev.runStack {
		left := f.limit - (ev.runVisits - f.start)
		lim = min(lim, left/max(f.trips-f.k, 1))
	}
	return max(lim, 0)
}

// pushRun records a counted run that started at visits start, may make
// limit visits and has trips iterations; the function it returns ends it.
func (ev *evaluator) pushRun(start, limit, trips int64) func() {
	ev.runStack = append(ev.runStack, &runFrame{start: start, limit: limit, trips: trips})
	n := len(ev.runStack)
	return func() { ev.runStack = ev.runStack[:n-1] }
}

// runTop is the innermost counted run in progress.
func (ev *evaluator) runTop() *runFrame { return ev.runStack[len(ev.runStack)-1] }
