package llvmir

import (
	"slices"

	"github.com/llir/llvm/ir"

	"github.com/mkvet/mkvet/frontend/apt"
)

// The IR each node of the APT came from, for the instrumentation's probes
// (Site), and the calls invokes make.

// record makes the site of loop l, built as lp.
func (x *fn) record(l *loop, lp *apt.Loop, bottom bool) {
	site := Site{Node: lp, Func: x.f, Header: x.g.blocks[l.header], Body: x.g.blocks[l.header], Bottom: bottom}
	for _, q := range x.g.pred[l.header] {
		if !l.blocks[q] {
			site.Entry = x.g.blocks[q]
		}
	}
	if p := x.plans[l]; p.kind != loopGeneric && !p.bottom && len(x.g.pred[p.body]) == 1 {
		site.Body = x.g.blocks[p.body]
	}
	for _, e := range l.exits {
		if b := x.g.blocks[e.to]; !slices.Contains(site.Exits, b) {
			site.Exits = append(site.Exits, b)
		}
	}
	x.l.sites = append(x.l.sites, site)
}

// invokeCall is the call an invoke makes, as a call instruction sharing
// the invoke's name and uses.
func (x *fn) invokeCall(t *ir.TermInvoke) *ir.InstCall {
	c := &ir.InstCall{LocalIdent: t.LocalIdent, Callee: t.Invokee, Args: t.Args, Typ: t.Typ, Metadata: t.Metadata}
	x.names[c] = x.names[t]
	x.uses[c] = x.uses[t]
	if x.l.invokes == nil {
		x.l.invokes = map[*ir.InstCall]*ir.TermInvoke{}
	}
	x.l.invokes[c] = t
	return c
}
