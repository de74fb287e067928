package cost

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// maxGuardSplits bounds how many guards cases splits on (2^n cases at most).
const maxGuardSplits = 4

// cases splits a domain condition on the guards of its conditional values.
// A value assigned under a condition holds alternatives guarded by g and
// not g (symeval); where several such values meet in one domain the
// condition is a conjunction of disjunctions over the same guards, which the
// counting engine would expand into every combination. Deciding g first
// (f with g true, and f with g false) leaves each case with only the
// alternatives that can hold together, usually pure conjunctions. The cases
// are disjoint and cover f.
func cases(f counting.Formula, depth int) []counting.Formula {
	if depth == 0 {
		return []counting.Formula{f}
	}
	g, ok := pickGuard(f, false)
	if !ok {
		return []counting.Formula{f}
	}
	var out []counting.Formula
	for _, truth := range []bool{true, false} {
		h := decide(f, g.R, truth)
		if isFalse(h) {
			continue
		}
		var lit counting.Formula = g
		if !truth {
			lit = counting.Not{F: g}
		}
		for _, c := range cases(h, depth-1) {
			out = append(out, conj(lit, c))
		}
	}
	return out
}

// pickGuard finds a relation that appears inside a disjunction of f: the
// guard of an alternative.
func pickGuard(f counting.Formula, inOr bool) (counting.Rel, bool) {
	switch g := f.(type) {
	case counting.Rel:
		if inOr {
			return g, true
		}
	case counting.And:
		for _, x := range g {
			if r, ok := pickGuard(x, inOr); ok {
				return r, true
			}
		}
	case counting.Or:
		for _, x := range g {
			if r, ok := pickGuard(x, true); ok {
				return r, true
			}
		}
	case counting.Not:
		return pickGuard(g.F, inOr)
	}
	return counting.Rel{}, false
}

// decide replaces the relation r by truth and folds constants. Relations
// are canonical, so r is found by comparing them term by term (building
// each one's printed key took a fifth of the analysis of NPB LU).
func decide(f counting.Formula, r symbolic.Relation, truth bool) counting.Formula {
	switch g := f.(type) {
	case counting.Rel:
		if g.R.Op == r.Op && g.R.E.Equal(r.E) {
			return constant(truth)
		}
		return g
	case counting.And:
		var out counting.And
		for _, x := range g {
			y := decide(x, r, truth)
			if isFalse(y) {
				return constant(false)
			}
			if isTrue(y) {
				continue
			}
			out = append(out, y)
		}
		if len(out) == 1 {
			return out[0]
		}
		return out
	case counting.Or:
		var out counting.Or
		for _, x := range g {
			y := decide(x, r, truth)
			if isTrue(y) {
				return constant(true)
			}
			if isFalse(y) {
				continue
			}
			out = append(out, y)
		}
		if len(out) == 1 {
			return out[0]
		}
		return out
	case counting.Not:
		y := decide(g.F, r, truth)
		switch {
		case isTrue(y):
			return constant(false)
		case isFalse(y):
			return constant(true)
		}
		return counting.Not{F: y}
	}
	return f
}

func constant(b bool) counting.Formula {
	if b {
		return formulaTrue
	}
	return formulaFalse
}

// The constants, boxed once: deciding a domain's relations class by class
// returns them thousands of times.
var (
	formulaTrue  counting.Formula = counting.And{}
	formulaFalse counting.Formula = counting.Or{}
)

func isTrue(f counting.Formula) bool {
	a, ok := f.(counting.And)
	return f == nil || ok && len(a) == 0
}

func isFalse(f counting.Formula) bool {
	o, ok := f.(counting.Or)
	return ok && len(o) == 0
}

func conj(a, b counting.Formula) counting.Formula {
	if isTrue(b) {
		return a
	}
	if x, ok := b.(counting.And); ok {
		return append(counting.And{a}, x...)
	}
	return counting.And{a, b}
}
