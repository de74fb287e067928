package fit

import (
	"errors"
	"math"
	"sort"
)

// Space is the set of terms a PMNF search draws from (Extra-P's
// performance model normal form, f = c0 + Σ ck·Π x^i·log2(x)^j), widened in
// two ways Extra-P's default modeler does not allow: several terms may use
// the same parameter (c1·N²/P + c2·log2 P), and process counts take
// negative exponents, since work divided among P processes goes as 1/P.
type Space struct {
	Params   []string
	Features []string
	// Procs[i] marks parameter i as a process count.
	Procs []bool
	// Exps and Logs make the one-parameter terms x^e·log2(x)^l of a size;
	// ProcExps and ProcLogs those of a process count. Pairs multiply one
	// factor of each of two parameters, from the coarser PairExps,
	// PairProcExps and PairLogs.
	Exps, ProcExps, PairExps, PairProcExps []Exponent
	Logs, ProcLogs, PairLogs               []int
	// MaxTerms bounds the terms besides the constant.
	MaxTerms int
	// UseFeatures makes each count feature a candidate term.
	UseFeatures bool
	// MinGain is the relative improvement of the cross-validated SMAPE a
	// new term must bring (0.1 is 10%).
	MinGain float64
	// NonNegative requires the constant to be >= 0 too (the other terms
	// always are), so that the model stays a time as the sizes grow.
	NonNegative bool
	// MaxExp caps the exponent of a parameter (by index) in every term: a
	// factor x^e·log2(x)^l is allowed when e < cap, or e == cap and l == 0.
	MaxExp map[int]float64
}

func ex(n, d int) Exponent { return Exponent{n, d} }

// DefaultSpace returns the search space for the given parameters, those
// named in procs counting processes: Extra-P's exponents {1/4, 1/3, 1/2,
// 2/3, 3/4, 1, 5/4, 4/3, 3/2, 5/3, 7/4, 2, 9/4, 7/3, 5/2, 8/3, 11/4, 3} and
// log powers {0, 1, 2} for sizes, -2..2 for process counts, up to three
// terms.
func DefaultSpace(params, features []string, procs ...string) Space {
	sp := Space{Params: params, Features: features, Procs: make([]bool, len(params)), MaxTerms: 3, MinGain: 0.1}
	for i, p := range params {
		for _, q := range procs {
			if p == q {
				sp.Procs[i] = true
			}
		}
	}
	sp.Exps = []Exponent{ex(0, 1), ex(1, 4), ex(1, 3), ex(1, 2), ex(2, 3), ex(3, 4), ex(1, 1), ex(5, 4), ex(4, 3),
		ex(3, 2), ex(5, 3), ex(7, 4), ex(2, 1), ex(9, 4), ex(7, 3), ex(5, 2), ex(8, 3), ex(11, 4), ex(3, 1)}
	sp.Logs = []int{0, 1, 2}
	sp.ProcExps = []Exponent{ex(-2, 1), ex(-3, 2), ex(-1, 1), ex(-1, 2), ex(-1, 4), ex(0, 1), ex(1, 4), ex(1, 3),
		ex(1, 2), ex(2, 3), ex(3, 4), ex(1, 1), ex(3, 2), ex(2, 1)}
	sp.ProcLogs = []int{0, 1, 2}
	sp.PairExps = []Exponent{ex(0, 1), ex(1, 2), ex(1, 1), ex(3, 2), ex(2, 1), ex(5, 2), ex(3, 1)}
	sp.PairProcExps = []Exponent{ex(-2, 1), ex(-1, 1), ex(-1, 2), ex(0, 1), ex(1, 2), ex(1, 1)}
	sp.PairLogs = []int{0, 1}
	return sp
}

// candidates lists the terms over the parameters that vary.
func (sp *Space) candidates(vary []bool) []Term {
	var out []Term
	factors := func(i int, pair bool) []Factor {
		exps, logs := sp.Exps, sp.Logs
		if sp.Procs[i] {
			exps, logs = sp.ProcExps, sp.ProcLogs
		}
		if pair {
			exps, logs = sp.PairExps, sp.PairLogs
			if sp.Procs[i] {
				exps = sp.PairProcExps
			}
		}
		var fs []Factor
		for _, e := range exps {
			for _, l := range logs {
				if e.Num == 0 && l == 0 {
					continue
				}
				if c, ok := sp.MaxExp[i]; ok && (e.Float() > c+1e-9 || e.Float() > c-1e-9 && l > 0) {
					continue
				}
				fs = append(fs, Factor{Param: i, Exp: e, Log: l})
			}
		}
		return fs
	}
	for i := range sp.Params {
		if !vary[i] {
			continue
		}
		for _, f := range factors(i, false) {
			out = append(out, Term{Factors: []Factor{f}, Feature: -1})
		}
	}
	for i := range sp.Params {
		for j := i + 1; j < len(sp.Params); j++ {
			if !vary[i] || !vary[j] {
				continue
			}
			for _, f := range factors(i, true) {
				for _, g := range factors(j, true) {
					out = append(out, Term{Factors: []Factor{f, g}, Feature: -1})
				}
			}
		}
	}
	if sp.UseFeatures {
		for k := range sp.Features {
			out = append(out, FeatureTerm(k))
		}
	}
	return out
}

// scored is a candidate model during the search: its in-sample error and
// its cross-validated SMAPE with the standard error of that mean.
type scored struct {
	terms  []Term
	rss    float64
	cv, se float64
	errs   []float64
}

// gain reports whether b's cross-validated errors are lower than a's by
// more than twice the standard error of the paired differences.
func gain(a, b scored) bool {
	if a.errs == nil {
		return b.errs != nil
	}
	if b.errs == nil {
		return false
	}
	d := make([]float64, len(a.errs))
	for i := range d {
		d[i] = a.errs[i] - b.errs[i]
	}
	m, se := meanSE(d)
	return m > 2*se
}

// valid reports whether every term but the constant has a coefficient >= 0
// and all are finite: a cost term with a negative coefficient fits noise.
func valid(terms []Term, coef []float64, nonneg bool) bool {
	for i, c := range coef {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
		if (nonneg || !terms[i].IsConstant()) && c < 0 {
			return false
		}
	}
	return true
}

func rss(obs []Obs, terms []Term, w []float64, nonneg bool) (float64, bool) {
	sol, err := solve(obs, terms, w)
	if err != nil || sol.rank < len(terms) || !valid(terms, sol.coef, nonneg) {
		return 0, false
	}
	s := 0.0
	for i, o := range obs {
		y := 0.0
		for j, t := range terms {
			y += sol.coef[j] * t.Eval(o.Params, o.Features)
		}
		r := (y - o.Y) * w[i]
		s += r * r
	}
	return s, true
}

// shortlist is how many candidates, best by in-sample error, are
// cross-validated at each step.
const shortlist = 24

// Search finds a model in the space by forward selection with
// cross-validation, then improves it by swapping and dropping terms. Every
// choice follows the one-standard-error rule: among models whose
// leave-one-group-out SMAPE is within one standard error of the best, the
// simplest wins; a term is added only when it lowers the SMAPE by MinGain
// and by more than twice the standard error of the paired differences. Parameters that take a single value
// in the data are left out.
func Search(obs []Obs, sp Space) (*Model, error) {
	if len(obs) < 3 {
		return nil, errors.New("fit: too few observations to search for a model")
	}
	vary := make([]bool, len(sp.Params))
	for i := range sp.Params {
		for _, o := range obs {
			if o.Params[i] != obs[0].Params[i] {
				vary[i] = true
				break
			}
		}
		for _, o := range obs {
			if o.Params[i] <= 0 {
				vary[i] = false // logs and negative powers need x > 0
			}
		}
	}
	cands := sp.candidates(vary)
	w := weights(obs)
	score := func(ts []Term) scored {
		s := scored{terms: ts, cv: math.Inf(1)}
		if errs := cvErrors(obs, ts); errs != nil {
			s.cv, s.se = meanSE(errs)
			s.errs = errs
		}
		return s
	}
	has := func(ts []Term, t Term) bool {
		for _, u := range ts {
			if u.key() == t.key() {
				return true
			}
		}
		return false
	}
	// pick applies the one-standard-error rule to scored models.
	pick := func(list []scored) scored {
		out := scored{cv: math.Inf(1)}
		for _, s := range list {
			if s.cv < out.cv {
				out = s
			}
		}
		limit := out.cv + out.se
		for _, s := range list {
			if s.cv <= limit && (complexity(s.terms) < complexity(out.terms) ||
				complexity(s.terms) == complexity(out.terms) && s.cv < out.cv) {
				out = s
			}
		}
		return out
	}
	// extend returns the best model that replaces term at of base with a
	// candidate, or appends one when at < 0.
	extend := func(base []Term, at int) scored {
		var list []scored
		for _, c := range cands {
			if has(base, c) {
				continue
			}
			ts := append([]Term(nil), base...)
			if at >= 0 {
				ts[at] = c
			} else {
				ts = append(ts, c)
			}
			if r, ok := rss(obs, ts, w, sp.NonNegative); ok {
				list = append(list, scored{terms: ts, rss: r})
			}
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].rss < list[j].rss })
		list = list[:min(len(list), shortlist)]
		for i := range list {
			list[i] = score(list[i].terms)
		}
		return pick(list)
	}
	cur := score([]Term{Constant})
	for len(cur.terms)-1 < sp.MaxTerms && len(cur.terms)+2 < len(obs) {
		b := extend(cur.terms, -1)
		if !(gain(cur, b) && b.cv < cur.cv*(1-sp.MinGain)) {
			break
		}
		cur = b
	}
	// Swap terms while that helps, then drop terms that do not help.
	for pass := 0; pass < 3; pass++ {
		improved := false
		for i := 1; i < len(cur.terms); i++ {
			b := extend(cur.terms, i)
			if gain(cur, b) || (b.cv <= cur.cv+cur.se && complexity(b.terms) < complexity(cur.terms)) {
				cur = b
				improved = true
			}
		}
		if !improved {
			break
		}
	}
	for i := len(cur.terms) - 1; i >= 1; i-- {
		ts := append(append([]Term(nil), cur.terms[:i]...), cur.terms[i+1:]...)
		if _, ok := rss(obs, ts, w, sp.NonNegative); !ok {
			continue
		}
		if s := score(ts); s.cv <= cur.cv+cur.se {
			cur = s
		}
	}
	return Fit(obs, cur.terms, sp.Params, sp.Features)
}

// complexity measures how elaborate terms are: the absolute exponents,
// half a point per log power, and half a point per fractional exponent, so
// that log2(p) is plainer than p^(1/4) and both than log2(p)^2/p^(1/4).
func complexity(ts []Term) float64 {
	c := 0.0
	for _, t := range ts {
		for _, f := range t.Factors {
			c += math.Abs(f.Exp.Float()) + 0.5*float64(f.Log)
			if f.Exp.Den > 1 {
				c += 0.5
			}
		}
	}
	return c
}
