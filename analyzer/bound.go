package analyzer

import (
	"math"
	"slices"
	"sync"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// ImpactBound bounds Impact from above where the work at pt rests on values
// of the data the point has none for (a partial point: an element of an
// array read from input, a sum of row lengths). Without it one such value
// would leave every branch frequency unmeasured, and MK3001 would ask for
// all of them.
//
// The work is a sum of pieces. Those that mention no missing value are the
// known work K; those that do are work the program does besides, never
// negative, so the work is at least K at every rank. The pieces that mention
// name must be known: then moving name changes the work by exactly their
// change D, and
//
//	|max W(hi) - max W(lo)| / max W  <=  max |D| / max K
//	|sum W(hi) - sum W(lo)| / sum W  <=  |sum D| / sum K
//
// (over the ranks), the larger of which is the bound. Where the whole work
// is known it is Impact itself.
func ImpactBound(r *cost.Report, pt *cost.Point, name string, lo, hi int64) (float64, bool) {
	if imp, ok := Impact(r, pt, name, lo, hi); ok || pt == nil || !pt.Partial() {
		return imp, ok
	}
	kw, ok := knownWorkFunc(r, pt)
	if !ok || kw.unknownHas(name) {
		return 0, false
	}
	d, known, ok := kw.part(name, pt.P)
	if !ok {
		return 0, false
	}
	var kMax, kSum float64
	for _, k := range known {
		kMax, kSum = max(kMax, k), kSum+k
	}
	if kMax <= 0 || kSum <= 0 {
		return 0, false
	}
	if d == nil {
		return 0, true
	}
	vals := slices.Clone(kw.vals)
	i := kw.index[name]
	var dMax, dSum float64
	for rk := int64(0); rk < pt.P; rk++ {
		vals[kw.rank] = rk
		vals[i] = lo
		w0, err0 := d.EvalInt(vals)
		vals[i] = hi
		w1, err1 := d.EvalInt(vals)
		if err0 != nil || err1 != nil {
			return 0, false
		}
		diff := w1.Float64() - w0.Float64()
		dMax, dSum = max(dMax, math.Abs(diff)), dSum+diff
	}
	return max(dMax/kMax, math.Abs(dSum)/kSum), true
}

// knownWork is the known part of a report's work at a partial point,
// compiled (compiledWork), with the pieces left out.
type knownWork struct {
	*compiledWork
	unknown symbolic.Piecewise
	// unknownSyms are the symbols of unknown's pieces: a program with
	// thousands of missing values asks for each (unknownHas).
	unknownSyms map[string]bool
}

// unknownHas reports whether a piece of the work that rests on a missing
// value mentions name.
func (k *knownWork) unknownHas(name string) bool { return k.unknownSyms[name] }

var (
	knownMu    sync.Mutex
	knownCache = map[workKey]*knownWork{}
)

// knownWorkFunc returns the known part of r's work at the partial point
// pt, compiled over the point's symbols.
func knownWorkFunc(r *cost.Report, pt *cost.Point) (*knownWork, bool) {
	knownMu.Lock()
	defer knownMu.Unlock()
	k := workKey{r, pt}
	if w, ok := knownCache[k]; ok {
		return w, w != nil
	}
	if len(knownCache) > 64 {
		clear(knownCache)
	}
	vars, index, vals := pointVars(pt)
	var known, unknown symbolic.Piecewise
	missing := map[string]bool{}
	for _, q := range pt.Unknown {
		missing[q] = true
	}
	for _, p := range r.Work.Pieces {
		one := symbolic.Piecewise{Pieces: []symbolic.Piece{p}}
		if one.HasAny(missing) {
			unknown.Pieces = append(unknown.Pieces, p)
		} else {
			known.Pieces = append(known.Pieces, p)
		}
	}
	syms := map[string]bool{}
	for _, q := range unknown.Symbols() {
		syms[q] = true
	}
	f, err := known.Compile(vars)
	if err != nil {
		knownCache[k] = nil
		return nil, false
	}
	w := &knownWork{compiledWork: &compiledWork{f: f, work: known, vars: vars, index: index, vals: vals, rank: 0}, unknown: unknown, unknownSyms: syms}
	knownCache[k] = w
	return w, true
}
