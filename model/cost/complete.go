package cost

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// missingInputs returns the parameters of an evaluation at a point that
// its counts can mention and only the user can give (an input read, an
// annotated size without a default) and values does not: the point is
// then not complete. The counts can mention the symbols of the
// occurrences' domains and factors, their statements' element counts and
// their transfers' sizes; a parameter nothing counted mentions (an
// annotation's, read by no count) does not make the point incomplete,
// and neither does a value of the program's data the analysis could not
// derive (ParamOrigin.Data), which no point of the sizes gives.
func missingInputs(res *symeval.Result, values map[string]int64) []*symeval.Param {
	used := countSymbols(res.Root)
	var out []*symeval.Param
	for _, p := range res.Params {
		if !used[p.Name] || p.Value != nil || p.Default != nil {
			continue
		}
		if _, given := values[p.Name]; given {
			continue
		}
		switch p.Origin {
		case symeval.FromUnresolved, symeval.FromFrequency, symeval.FromTripCount:
			continue
		}
		out = append(out, p)
	}
	return out
}

// countSymbols returns the symbols the counts of the occurrences under
// root can mention (missingInputs).
func countSymbols(root *symeval.Occ) map[string]bool {
	used := map[string]bool{}
	expr := func(e *symbolic.Expr) {
		if e == nil {
			return
		}
		for _, s := range e.Symbols() {
			used[s] = true
		}
	}
	var formula func(f counting.Formula)
	formula = func(f counting.Formula) {
		switch g := f.(type) {
		case counting.Rel:
			expr(&g.R.E)
		case counting.And:
			for _, x := range g {
				formula(x)
			}
		case counting.Or:
			for _, x := range g {
				formula(x)
			}
		case counting.Not:
			formula(g.F)
		}
	}
	// Occurrences met in one state share their domain: each is read once.
	seen := map[*symeval.Domain]bool{}
	dom := func(d *symeval.Domain) {
		if d == nil || seen[d] {
			return
		}
		seen[d] = true
		for _, f := range d.Cond {
			formula(f)
		}
		expr(&d.Factor)
	}
	var walk func(o *symeval.Occ)
	walk = func(o *symeval.Occ) {
		dom(o.Dom)
		dom(o.Body)
		for _, d := range o.Iters {
			dom(d)
		}
		for _, v := range o.Sizes {
			if v == nil {
				continue
			}
			for _, a := range v.Alts {
				expr(&a.E)
			}
		}
		for _, ts := range [][]symeval.Transfer{o.Sends, o.Recvs} {
			for _, t := range ts {
				expr(t.Bytes)
				formula(t.Guard)
			}
		}
		for _, c := range o.Children {
			walk(c)
		}
	}
	if root != nil {
		walk(root)
	}
	return used // domain variables too: only parameters' names are looked up
}
