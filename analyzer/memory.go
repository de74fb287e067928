package analyzer

import (
	"fmt"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/roofline"
	"github.com/mkvet/mkvet/symbolic"
)

// The memory term of the predicted time (issue 47): MK1001 ranks loop
// nests by their work plus the time their innermost loops wait for memory
// beyond their computation (roofline), priced on the machine's memory
// hierarchy: Options.Machine's, or the default profile's when none is
// given, so that the nests named do not depend on whether the user asked
// for seconds.

// memoryTerm is a pass's memory term, computed once.
type memoryTerm struct {
	m roofline.Machine
	// At the point: the loops' terms and each nest's stall per rank.
	at    *roofline.Result
	nests map[*cost.Node]*cost.Values
	// Without one: the stalls as the sizes grow, and each nest's.
	sym     *roofline.Symbolic
	nestSym map[*cost.Node]symbolic.Piecewise
}

// memory returns the pass's memory term, nil when the machine has no
// memory hierarchy.
func (p *pass) memory() *memoryTerm {
	if p.mem != nil || p.memDone {
		return p.mem
	}
	p.memDone = true
	prof := p.opt.Machine
	if prof == nil || prof.Memory == nil {
		prof = model.Default()
	}
	m, ok := roofline.For(prof)
	if !ok {
		return nil
	}
	t := &memoryTerm{m: m}
	if p.pt != nil {
		t.at = m.At(p.r, p.pt)
		t.nests = t.at.Nests()
	} else {
		t.sym = m.Stalls(p.r)
		t.nestSym = map[*cost.Node]symbolic.Piecewise{}
		for n, pw := range t.sym.Loops {
			nest := roofline.NestOf(n)
			t.nestSym[nest] = t.nestSym[nest].Add(pw)
		}
	}
	p.mem = t
	return t
}

// nodeTime is a loop's or call's inclusive predicted time in work units:
// its work and the stalls of the loops it holds (through calls).
func (p *pass) nodeTime(n *cost.Node, work symbolic.Piecewise, at *cost.Values) (symbolic.Piecewise, *cost.Values) {
	t := p.memory()
	if t == nil {
		return work, at
	}
	if p.pt != nil {
		if s := t.at.Inclusive[n.Node]; s != nil && at != nil {
			at = addValues(*at, *s)
		}
		return work, at
	}
	if s, ok := t.sym.Inclusive[n.Node]; ok {
		return work.Add(s), at
	}
	return work, at
}

// nestTime is a nest's predicted time in work units: its work and its
// loops' stalls, as a closed form and, at the point, per rank.
func (p *pass) nestTime(n *cost.Node) (symbolic.Piecewise, *cost.Values) {
	var nv *cost.Values
	if v := p.values(n); v != nil {
		nv = &v.NestWork
	}
	t := p.memory()
	if t == nil {
		return n.NestWork, nv
	}
	if p.pt != nil {
		if s := t.nests[n]; s != nil && nv != nil {
			nv = addValues(*nv, *s)
		}
		return n.NestWork, nv
	}
	if s, ok := t.nestSym[n]; ok {
		return n.NestWork.Add(s), nv
	}
	return n.NestWork, nv
}

// programTime is the reference of the nests' shares of the time: the
// program's work (or, at a partial point, the counted nests', refWork) and
// the stalls of the loops it holds.
func (p *pass) programTime() (symbolic.Piecewise, *cost.Values) {
	t := p.memory()
	if t == nil {
		return p.r.Work, p.ref
	}
	if p.pt != nil {
		if p.ref == nil {
			return p.r.Work, nil
		}
		if !p.counted {
			return p.r.Work, addValues(*p.ref, t.at.Stall)
		}
		sum := *p.ref
		for nest, s := range t.nests {
			if p.values(nest) != nil {
				sum = *addValues(sum, *s)
			}
		}
		return p.r.Work, &sum
	}
	return p.r.Work.Add(t.sym.Total), nil
}

// addValues returns a + b rank by rank.
func addValues(a, b cost.Values) *cost.Values {
	out := cost.Values{PerRank: make([]float64, len(a.PerRank))}
	for rk := range out.PerRank {
		out.PerRank[rk] = a.PerRank[rk]
		if rk < len(b.PerRank) {
			out.PerRank[rk] += b.PerRank[rk]
		}
	}
	out.Summarise()
	return &out
}

// memoryBound describes the memory term of nest n where its loops wait for
// memory beyond their computation: at the point, "memory-bound: its data
// comes from L3 (4.2 MiB per process)", as the sizes grow "memory-bound
// from main memory as the sizes grow"; "" where its loops are not, and
// sets the facts.
func (p *pass) memoryBound(n *cost.Node, facts map[string]any) string {
	t := p.memory()
	if t == nil {
		return ""
	}
	if p.pt == nil {
		bound := false
		for loop := range t.sym.Bound {
			bound = bound || roofline.NestOf(loop) == n
		}
		if !bound {
			return ""
		}
		facts["memory_bound"] = true
		facts["memory_level"] = t.m.Mem.Levels[len(t.m.Mem.Levels)-1].Name
		return "memory-bound from main memory as the sizes grow"
	}
	var data, core, touch, fresh float64
	byLevel := map[string]float64{}
	ws := map[string]float64{}
	for loop, lp := range t.at.Loops {
		if roofline.NestOf(loop) != n {
			continue
		}
		data += lp.Data
		core += lp.Core
		touch += lp.Touch
		fresh = max(fresh, lp.Fresh)
		if lp.Level != "" {
			byLevel[lp.Level] += lp.Data
			ws[lp.Level] = max(ws[lp.Level], lp.WorkingSet)
		}
	}
	if touch > core && touch >= data {
		// Its time is the kernel's, mapping the pages it writes first.
		facts["memory_bound"] = true
		facts["first_touch"] = round(fresh)
		return fmt.Sprintf("memory-bound: it writes %s per process for the first time (the kernel maps and clears each page)",
			model.FormatBytes(fresh))
	}
	if !(data > core) || len(byLevel) == 0 {
		return ""
	}
	nearest := t.m.Mem.Levels[0].Name
	level := ""
	for _, l := range t.m.Mem.Levels {
		if byLevel[l.Name] > 0 && (level == "" || byLevel[l.Name] >= byLevel[level]) {
			level = l.Name
		}
	}
	if level == nearest {
		return "" // the nearest cache's bandwidth bounds it: the processor's side
	}
	facts["memory_bound"] = true
	facts["memory_level"] = level
	facts["working_set"] = round(ws[level])
	where := "from main memory"
	if level != t.m.Mem.Levels[len(t.m.Mem.Levels)-1].Name {
		where = "from " + level
	}
	return fmt.Sprintf("memory-bound: its data comes %s (%s per process)", where, model.FormatBytes(ws[level]))
}

// measure names what the shares are of: "time" where the memory term is
// in, "work" otherwise.
func (p *pass) measure() string {
	if p.memory() != nil {
		return "time"
	}
	return "work"
}

// NestShare is a loop nest's share of the predicted time at a point, as
// MK1001 ranks it, with its memory term.
type NestShare struct {
	// Share is of the program's predicted time (work and stalls) summed
	// over ranks; Work is the share of the work alone.
	Share, Work float64
	// Bound is set when the nest's loops move data for longer than they
	// compute; Level is where most of it comes from.
	Bound bool
	Level string
}

// NestShares returns the share of every loop nest of r at the point pt,
// by the APT ID of its outermost loop: what MK1001 ranks.
func NestShares(r *cost.Report, pt *cost.Point, opt Options) map[string]NestShare {
	p := newPass(r, pt, opt.withDefaults())
	_, progV := p.programTime()
	out := map[string]NestShare{}
	if progV == nil || progV.Total <= 0 || pt.Work.Total <= 0 {
		return out
	}
	for _, n := range r.Nodes {
		if !isNest(n) || n.Missing.Has(cost.FigNestWork) {
			continue
		}
		_, tv := p.nestTime(n)
		if tv == nil {
			continue
		}
		facts := map[string]any{}
		bound := p.memoryBound(n, facts) != ""
		level, _ := facts["memory_level"].(string)
		if _, ok := facts["first_touch"]; ok {
			level = "first touch"
		}
		out[n.Node.Base().ID] = NestShare{Share: tv.Total / progV.Total, Work: p.values(n).NestWork.Total / pt.Work.Total,
			Bound: bound, Level: level}
	}
	return out
}
