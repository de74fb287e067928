package roofline

import (
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// Machine is what the memory term needs of a machine: its hierarchy, the
// seconds one work unit takes (the profile's add time, the unit of every
// predicted time in mkvet's messages) and the seconds of a work unit in
// innermost loops of each kind (model.Ops), the add time where the
// profile gives none.
type Machine struct {
	Mem  *model.Memory
	Unit float64

	Vector, Scalar, Chain, Complex float64
}

// For returns the memory model of prof, false when the profile has no
// memory hierarchy with times or no operation cost.
func For(prof *model.Profile) (Machine, bool) {
	if prof == nil || prof.Memory == nil || !prof.Memory.Measured() {
		return Machine{}, false
	}
	u := prof.Ops.Resolved().Add.Float64()
	if !(u > 0) {
		return Machine{}, false
	}
	kind := func(r symbolic.Rat) float64 {
		if x := r.Float64(); x > 0 {
			return x
		}
		return u
	}
	o := prof.Ops
	return Machine{Mem: prof.Memory, Unit: u,
		Vector: kind(o.Vector), Scalar: kind(o.Scalar), Chain: kind(o.Chain), Complex: kind(o.Complex)}, true
}

// unitOf is the seconds of a work unit in the loop of stream s: by the
// kind its statements make it (cost.LoopKind), else scalar where an
// access is indirect or strided (compilers at their usual options
// vectorise loops over consecutive elements only), else vectorised.
func (m Machine) unitOf(s cost.Stream) float64 {
	pick := func(x float64) float64 {
		if x > 0 {
			return x
		}
		return m.Unit // a Machine built by hand
	}
	switch s.Kind {
	case cost.LoopChain:
		return pick(m.Chain)
	case cost.LoopComplex:
		return pick(m.Complex)
	}
	for _, a := range s.Accesses {
		if a.Move {
			continue
		}
		if a.Kind == symeval.Indirect || a.Kind == symeval.Strided {
			return pick(m.Scalar)
		}
	}
	return pick(m.Vector)
}

// Loop is an innermost loop's memory term at a point.
type Loop struct {
	// Stall is, per rank, the loop's time beyond the work its statements
	// count, in work units: over its calling contexts, its iterations times
	// max(core time, data time) of one iteration less its counted work at
	// the add time. Less than zero where the loop runs faster than that:
	// a vectorised loop that computes more than it moves, a block move
	// (symeval.Access.Move: the library's move replaces its statements).
	Stall cost.Values
	// Data and Core are its data transfer and its computation (its work
	// at the work unit of its kind, Machine.unitOf) in seconds, summed
	// over ranks (a block move computes nothing).
	Data, Core float64
	// Level is the level most of the data time comes from, "" when no
	// access leaves the nearest cache; WorkingSet the largest working set
	// per process (bytes) of the accesses served there.
	Level      string
	WorkingSet float64
	// Unpriced says why an access of the loop has no price (neither a
	// footprint nor a reuse distance has a value), "" when all have one.
	Unpriced string
	// Touch is the seconds, summed over ranks, of the page faults of the
	// arrays the loop writes first (symeval.Access.Fresh), at the
	// machine's first-touch rate; Fresh the most bytes a process
	// touches so. Not in Data: a fault stops the loop, nothing overlaps it.
	Touch, Fresh float64
}

// MemoryBound reports whether the loop's data transfer (its first
// touches included) takes longer than its computation.
func (l *Loop) MemoryBound() bool { return l != nil && l.Data+l.Touch > l.Core }

// Result is the memory term of a report at a point.
type Result struct {
	// Loops holds the innermost loops with streams.
	Loops map[*cost.Node]*Loop
	// Inclusive holds, for every node around a loop with streams (through
	// calls) and the loop itself, the stalls of the loops it holds per rank,
	// the memory term of its inclusive time as Work is of its work.
	Inclusive map[apt.Node]*cost.Values
	// Stall is the whole program's stall per rank, in work units.
	Stall cost.Values
}

// iteration is one iteration's data transfer of a stream at one rank.
type iteration struct {
	trips   float64   // the loop's trips per entry it was priced with
	secs    float64   // data seconds
	byLevel []float64 // seconds by level
	ws      []float64 // the largest working set served by each level
	why     string    // why an access has no price
}

// At prices the streams of every innermost loop of r at the point pt, in
// each of its calling contexts.
func (m Machine) At(r *cost.Report, pt *cost.Point) *Result {
	np := int(pt.P)
	res := &Result{Loops: map[*cost.Node]*Loop{}, Inclusive: map[apt.Node]*cost.Values{},
		Stall: cost.Values{PerRank: make([]float64, np)}}
	procs := m.Mem.OnNode(np)
	env := make(map[string]symbolic.Rat, len(pt.Env)+1)
	for k, v := range pt.Env {
		env[k] = symbolic.RatInt(v)
	}
	nl := len(m.Mem.Levels)
	inclusive := func(x apt.Node, stall []float64) {
		v := res.Inclusive[x]
		if v == nil {
			v = &cost.Values{PerRank: make([]float64, np)}
			res.Inclusive[x] = v
		}
		for rk, s := range stall {
			v.PerRank[rk] += s
		}
	}
	for _, n := range r.Nodes {
		if len(n.Streams) == 0 || pt.Nodes[n] == nil {
			continue
		}
		lp := &Loop{Stall: cost.Values{PerRank: make([]float64, np)}}
		byLevel, ws := make([]float64, nl), make([]float64, nl)
		for _, ctx := range n.Contexts {
			stall := make([]float64, np)
			for _, s := range ctx.Streams {
				if len(s.Accesses) == 0 {
					continue
				}
				iters, err := pt.PerRank(s.Iterations)
				if err != nil {
					continue
				}
				// counted is what the loop's statements add to the work;
				// core what the processor computes (a block move: nothing).
				counted := s.Core.Float64() * m.Unit
				core := s.Core.Float64() * m.unitOf(s)
				if isMove(s) {
					core = 0
				}
				byRank := mentionsRank(s)
				nv := pt.Nodes[n]
				var it1 iteration
				for rk := range np {
					// The loop's trips per entry: how far a strided walk goes
					// before the enclosing loop moves it on.
					trips := 0.0
					if c := nv.Count.PerRank[rk]; c > 0 {
						trips = nv.Iterations.PerRank[rk] / c
					}
					if rk == 0 || byRank || trips != it1.trips {
						env[cost.Rank] = symbolic.RatInt(int64(rk))
						it1 = m.iteration(s, env, procs, trips)
						if it1.why != "" && lp.Unpriced == "" {
							lp.Unpriced = it1.why
						}
					}
					it := iters.PerRank[rk]
					if !(it > 0) {
						continue
					}
					if b := freshBytes(s, env, rk); b > 0 {
						secs := b * m.Mem.Touch(np)
						lp.Touch += secs
						lp.Fresh = max(lp.Fresh, b)
						stall[rk] += secs / m.Unit
					}
					lp.Data += it * it1.secs
					lp.Core += it * core
					stall[rk] += it * (max(core, it1.secs) - counted) / m.Unit
					for l := range nl {
						byLevel[l] += it * it1.byLevel[l]
						ws[l] = max(ws[l], it1.ws[l])
					}
				}
			}
			for rk, x := range stall {
				lp.Stall.PerRank[rk] += x
				res.Stall.PerRank[rk] += x
			}
			inclusive(n.Node, stall)
			for _, e := range ctx.Enclosing {
				inclusive(e, stall)
			}
		}
		lp.Stall.Summarise()
		if most := argmax(byLevel); most >= 0 {
			lp.Level, lp.WorkingSet = m.Mem.Levels[most].Name, ws[most]
		}
		res.Loops[n] = lp
	}
	res.Stall.Summarise()
	for _, v := range res.Inclusive {
		v.Summarise()
	}
	return res
}

// freshBytes is the bytes a stream's loop writes for the first time at
// rank rk (symeval.Access.Fresh), 0 when none or without a value there.
func freshBytes(s cost.Stream, env map[string]symbolic.Rat, rk int) float64 {
	total := 0.0
	for _, a := range s.Accesses {
		if a.Fresh == nil {
			continue
		}
		if a.Fresh.Has(cost.Rank) {
			env[cost.Rank] = symbolic.RatInt(int64(rk))
		}
		if v, err := a.Fresh.Eval(env); err == nil && v.Float64() > 0 {
			total += v.Float64()
		}
	}
	return total
}

// argmax is the index of the largest positive element, -1 when none is.
func argmax(xs []float64) int {
	best := -1
	for i, x := range xs {
		if x > 0 && (best < 0 || x >= xs[best]) {
			best = i
		}
	}
	return best
}

// isMove reports whether a stream is a block move's (symeval.Access.Move).
func isMove(s cost.Stream) bool {
	for _, a := range s.Accesses {
		if !a.Move {
			return false
		}
	}
	return len(s.Accesses) > 0
}

// mentionsRank reports whether a stream's working sets depend on the rank.
func mentionsRank(s cost.Stream) bool {
	if s.Footprint != nil && s.Footprint.Unknown == "" && s.Footprint.Bytes.Has(cost.Rank) {
		return true
	}
	for _, a := range s.Accesses {
		for _, e := range []*symbolic.Expr{a.Reuse, a.LineReuse} {
			if e != nil && e.Has(cost.Rank) {
				return true
			}
		}
		if a.StrideKnown && a.Stride.Has(cost.Rank) {
			return true
		}
	}
	return false
}

// iteration prices one iteration of a stream's accesses at env with procs
// processes on the node, each at the time membench measures for its
// pattern from the level its working set is in (a rate end to end, from
// that level to the processor): a stream that moves by less than a line
// costs its bytes at the level's streaming time; one that moves by a line
// or more costs a strided access (a walk's where the pages the loop's trips
// cross fit the TLB), or, when an enclosing loop comes back for the line's
// other elements while a nearer level holds it, its element at the far level's
// streaming time and a strided access at the near one; an indirect access
// costs a gathered access from the level its array fits in.
func (m Machine) iteration(s cost.Stream, env map[string]symbolic.Rat, procs int, trips float64) iteration {
	nl := len(m.Mem.Levels)
	out := iteration{trips: trips, byLevel: make([]float64, nl), ws: make([]float64, nl)}
	fp, fpOK := s.Footprint.FootprintBytes(env)
	line := float64(m.Mem.LineBytes())
	// Two classes of transfer: streams, which share the levels'
	// bandwidth and add up, and single-line accesses (strided, gathered),
	// which the processor's outstanding misses bound and which add up
	// among themselves; the two overlap, so an iteration takes the larger.
	var classes [2]struct {
		secs    float64
		byLevel []float64
	}
	for c := range classes {
		classes[c].byLevel = make([]float64, nl)
	}
	charge := func(pat model.Pattern, bytes, units float64, stride int64) {
		lvl := m.Mem.LevelStrided(bytes, procs, stride)
		t := m.Mem.TimeStrided(pat, bytes, procs, stride)
		if !(t > 0) {
			return
		}
		c := 0
		if pat != model.Stream && pat != model.Move {
			c = 1
		}
		classes[c].secs += units * t
		classes[c].byLevel[lvl] += units * t
		out.ws[lvl] = max(out.ws[lvl], bytes)
	}

	for _, a := range s.Accesses {
		ws, ok := fp, fpOK
		if a.Reuse != nil {
			if v, err := a.Reuse.Eval(env); err == nil {
				ws, ok = math.Abs(v.Float64()), true
			}
		}
		if !ok {
			if out.why == "" {
				out.why = "the working set of " + a.Array + " has no value here"
			}
			continue
		}
		stride := line
		if a.StrideKnown {
			if v, err := a.Stride.Eval(env); err == nil {
				stride = math.Abs(v.Float64())
			}
		}
		switch {
		case a.Move:
			charge(model.Move, ws, stride, 0)
		case a.Kind == symeval.Indirect:
			charge(model.Gather, ws, 1, 0)
		case a.Kind == symeval.Contiguous || stride < line:
			charge(model.Stream, ws, stride, 0)
		default:
			// A stride of whole lines reaches only some sets of a
			// cache (Conflict): the level it finds its lines in.
			s := int64(0)
			if a.StrideKnown && stride == math.Trunc(stride) && stride < 1<<62 {
				s = int64(stride)
			}
			// A walk whose pages the TLB holds before the enclosing loop
			// moves it on (trips of a few dozen planes) is a walk; one
			// that runs across more pages misses the TLB on every access.
			pat := model.Stride
			if trips > 0 && a.StrideKnown && trips*math.Max(1, stride/model.PageBytes) <= model.TLBPages {
				pat = model.Walk
			}
			if a.LineReuse != nil {
				if v, err := a.LineReuse.Eval(env); err == nil {
					near := math.Abs(v.Float64())
					if m.Mem.LevelStrided(near, procs, s) < m.Mem.LevelStrided(ws, procs, s) {
						charge(model.Stream, ws, float64(a.Elem), 0)
						charge(pat, near, 1, s)
						continue
					}
				}
			}
			charge(pat, ws, 1, s)
		}
	}
	c := 0
	if classes[1].secs > classes[0].secs {
		c = 1
	}
	out.secs = classes[c].secs
	copy(out.byLevel, classes[c].byLevel)
	return out
}

// Symbolic is the memory term of a report as the sizes grow.
type Symbolic struct {
	// Loops holds each innermost loop's stall in work units (Loop.Stall),
	// a closed form; Inclusive the stalls of the loops under every node
	// around them (through calls) and the loops themselves; Total the
	// program's.
	Loops     map[*cost.Node]symbolic.Piecewise
	Inclusive map[apt.Node]symbolic.Piecewise
	Total     symbolic.Piecewise
	// Bound holds the loops that move data for longer than they compute
	// in some calling context.
	Bound map[*cost.Node]bool
}

// Stalls returns the stalls of the innermost loops of r as the sizes grow,
// closed forms: each loop's iterations times the stall of one iteration
// with every working set that grows with the sizes in main memory (a
// working set that is a constant stays in the level it fits in), with the
// all-processor times of a parallel program (it fills the node) and the
// one-process times of a serial one. The stall of an iteration is rounded
// to three significant digits, a measured figure's precision, so that the
// closed forms print plainly.
func (m Machine) Stalls(r *cost.Report) *Symbolic {
	procs := 1
	if r.Parallel {
		procs = max(m.Mem.CPUs, 2)
	}
	out := &Symbolic{Loops: map[*cost.Node]symbolic.Piecewise{}, Inclusive: map[apt.Node]symbolic.Piecewise{},
		Bound: map[*cost.Node]bool{}}
	for _, n := range r.Nodes {
		for _, ctx := range n.Contexts {
			var sum symbolic.Piecewise
			for _, s := range ctx.Streams {
				if pw, bound, ok := m.limitStall(s, procs); ok {
					sum = sum.Add(pw)
					out.Bound[n] = out.Bound[n] || bound
				}
			}
			if len(sum.Pieces) == 0 {
				continue
			}
			// Appended in place: the sums are out's own (each grows its
			// own array; Add, which callers use, clips its receiver), and
			// Add copies, which made the program's total (thousands of
			// pieces where the counts rest on data) quadratic to build.
			grow := func(pw symbolic.Piecewise) symbolic.Piecewise {
				pw.Pieces = append(pw.Pieces, sum.Pieces...)
				return pw
			}
			out.Loops[n] = grow(out.Loops[n])
			out.Total = grow(out.Total)
			out.Inclusive[n.Node] = grow(out.Inclusive[n.Node])
			for _, e := range ctx.Enclosing {
				out.Inclusive[e] = grow(out.Inclusive[e])
			}
		}
	}
	return out
}

// limitStall is a stream's stall as the sizes grow (Stalls), and whether
// its data moves for longer than it computes; false when its time is its
// counted work.
func (m Machine) limitStall(s cost.Stream, procs int) (pw symbolic.Piecewise, bound, ok bool) {
	if len(s.Accesses) == 0 {
		return symbolic.Piecewise{}, false, false
	}
	huge := math.Inf(1)
	lim := s
	lim.Footprint = nil
	lim.Accesses = nil
	for _, a := range s.Accesses {
		a.Reuse = constOr(a.Reuse, huge)
		a.LineReuse = constOr(a.LineReuse, huge)
		if a.StrideKnown {
			if _, ok := a.Stride.Const(); !ok {
				a.StrideKnown = false // an extent: a line or more as the sizes grow
			}
		}
		lim.Accesses = append(lim.Accesses, a)
	}
	it := m.iteration(lim, nil, procs, 0) // walks as long as the sizes: the TLB misses
	core := s.Core.Float64() * m.unitOf(s)
	if isMove(s) {
		core = 0
	}
	stall := round3((max(core, it.secs) - s.Core.Float64()*m.Unit) / m.Unit)
	// The first touches: once, not per iteration.
	var touch symbolic.Piecewise
	if t := m.Mem.Touch(procs); t > 0 {
		per := round3(t / m.Unit)
		for _, a := range s.Accesses {
			if a.Fresh != nil && !per.IsZero() {
				touch = touch.Add(symbolic.Piecewise{Pieces: []symbolic.Piece{{Value: a.Fresh.Scale(per)}}})
			}
		}
	}
	if stall.IsZero() && len(touch.Pieces) == 0 {
		return symbolic.Piecewise{}, false, false
	}
	return s.Iterations.Scale(symbolic.Const(stall)).Add(touch), it.secs > core, true
}

// constOr is e where it is a constant, else the constant v (a working set
// that grows with the sizes, as large as any).
func constOr(e *symbolic.Expr, v float64) *symbolic.Expr {
	if e != nil {
		if _, ok := e.Const(); ok {
			return e
		}
	}
	c := symbolic.Const(ratOf(v))
	return &c
}

// ratOf is x as an exact rational; +Inf is taken as 2^62 bytes, beyond
// every level.
func ratOf(x float64) symbolic.Rat {
	if math.IsInf(x, 1) {
		return symbolic.RatInt(1 << 62)
	}
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	return symbolic.RatBig(r)
}

// round3 is x rounded to three significant digits, exactly.
func round3(x float64) symbolic.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', 3, 64))
	return symbolic.RatBig(r)
}

// NestOf returns the loop nest an innermost loop belongs to: its outermost
// enclosing loop in its routine (itself when it has none).
func NestOf(n *cost.Node) *cost.Node {
	nest := n
	for a := n.Parent; a != nil; a = a.Parent {
		switch a.Node.(type) {
		case *apt.Routine:
			return nest
		case *apt.Loop:
			nest = a
		}
	}
	return nest
}

// Nests sums the loops' stalls per nest (NestOf), in report order.
func (res *Result) Nests() map[*cost.Node]*cost.Values {
	out := map[*cost.Node]*cost.Values{}
	for n, lp := range res.Loops {
		nest := NestOf(n)
		v := out[nest]
		if v == nil {
			v = &cost.Values{PerRank: make([]float64, len(lp.Stall.PerRank))}
			out[nest] = v
		}
		for rk, x := range lp.Stall.PerRank {
			v.PerRank[rk] += x
		}
	}
	for _, v := range out {
		v.Summarise()
	}
	return out
}

// Sorted returns the loops of res in the report's order.
func (res *Result) Sorted(r *cost.Report) []*cost.Node {
	var out []*cost.Node
	for _, n := range r.Nodes {
		if _, ok := res.Loops[n]; ok {
			out = append(out, n)
		}
	}
	return slices.Clip(out)
}
