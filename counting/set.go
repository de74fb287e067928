package counting

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

// Set is an integer set in the notation of isl: the integer points of the
// variables Vars (outermost loop first) that satisfy Cond, for each value of
// the parameters Params.
type Set struct {
	Params []string
	Vars   []string
	Cond   Formula // nil means true
}

// Formula is a condition on variables and parameters: a relation, or And, Or,
// Not of formulas.
type Formula interface {
	isFormula()
	String() string
}

// Rel is a relation e >= 0, e > 0 or e == 0. Its expression may hold floor,
// ceil, mod (as trunc or floor), min and max of variables and parameters.
type Rel struct{ R symbolic.Relation }

// And holds when every formula holds (and when empty).
type And []Formula

// Or holds when some formula holds (never when empty).
type Or []Formula

// Not holds when F does not.
type Not struct{ F Formula }

func (Rel) isFormula() {}
func (And) isFormula() {}
func (Or) isFormula()  {}
func (Not) isFormula() {}

func (r Rel) String() string { return r.R.String() }

func (a And) String() string { return join([]Formula(a), " and ", "true") }
func (o Or) String() string  { return join([]Formula(o), " or ", "false") }
func (n Not) String() string { return "not (" + n.F.String() + ")" }

func join(fs []Formula, sep, empty string) string {
	if len(fs) == 0 {
		return empty
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
		if _, ok := f.(Rel); !ok {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, sep)
}

// Key returns a string that identifies s: sets with the same parameters,
// variables and condition (relation by relation, see symbolic.Relation.Key)
// have equal keys. It is meant for maps and much cheaper than String.
func (s *Set) Key() string {
	var b strings.Builder
	b.WriteString(strings.Join(s.Params, ","))
	b.WriteByte('|')
	b.WriteString(strings.Join(s.Vars, ","))
	b.WriteByte('|')
	writeFormulaKey(&b, s.Cond)
	return b.String()
}

// FormulaKey returns a string that identifies f among formulas; see Set.Key.
func FormulaKey(f Formula) string {
	var b strings.Builder
	writeFormulaKey(&b, f)
	return b.String()
}

// WriteFormulaKey writes f's FormulaKey to b: a key of several formulas
// is made in one buffer, and a buffer reused for map look-ups makes no
// string at all.
func WriteFormulaKey(b *strings.Builder, f Formula) { writeFormulaKey(b, f) }

func writeFormulaKey(b *strings.Builder, f Formula) {
	switch g := f.(type) {
	case nil:
		b.WriteByte('T')
	case Rel:
		g.R.WriteKey(b)
	case And:
		b.WriteString("&(")
		for _, x := range g {
			writeFormulaKey(b, x)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case Or:
		b.WriteString("|(")
		for _, x := range g {
			writeFormulaKey(b, x)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case Not:
		b.WriteString("!(")
		writeFormulaKey(b, g.F)
		b.WriteByte(')')
	}
}

// String prints s in isl notation.
func (s *Set) String() string {
	cond := ""
	if s.Cond != nil {
		cond = " : " + s.Cond.String()
	}
	return fmt.Sprintf("[%s] -> { [%s]%s }", strings.Join(s.Params, ", "), strings.Join(s.Vars, ", "), cond)
}

// check reports symbols of s's conditions that are neither parameters nor
// variables, and names declared twice.
func (s *Set) check() error {
	seen := map[string]bool{}
	for _, n := range append(slices.Clone(s.Params), s.Vars...) {
		if seen[n] {
			return fmt.Errorf("%s is declared twice", n)
		}
		seen[n] = true
	}
	var bad []string
	var walk func(Formula)
	walk = func(f Formula) {
		switch f := f.(type) {
		case Rel:
			for _, x := range f.R.E.Symbols() {
				if !seen[x] && !slices.Contains(bad, x) {
					bad = append(bad, x)
				}
			}
		case And:
			for _, g := range f {
				walk(g)
			}
		case Or:
			for _, g := range f {
				walk(g)
			}
		case Not:
			walk(f.F)
		}
	}
	if s.Cond != nil {
		walk(s.Cond)
	}
	if len(bad) > 0 {
		return fmt.Errorf("undeclared symbol(s) %s: add them to the parameters [...] or the variables", strings.Join(bad, ", "))
	}
	return nil
}

// gt returns e > 0 (symbolic.Rel writes it e - 1 >= 0 for integer-valued e).
func gt(e symbolic.Expr) symbolic.Relation { return symbolic.Rel(e, ">", symbolic.Int(0)) }

// negate returns the disjoint cases of not r.
func negate(r symbolic.Relation) [][]symbolic.Relation {
	switch r.Op {
	case symbolic.GE: // e < 0
		return [][]symbolic.Relation{{gt(r.E.Neg())}}
	case symbolic.GT: // e <= 0
		return [][]symbolic.Relation{{{E: r.E.Neg(), Op: symbolic.GE}}}
	}
	return [][]symbolic.Relation{{gt(r.E)}, {gt(r.E.Neg())}}
}

// maxConjunctions bounds the disjoint conjunctions a formula expands into.
const maxConjunctions = 512

// disjoint rewrites f as a union of pairwise disjoint conjunctions of
// relations: A or B = A or (B and not A); not (r1 and r2) = not r1 or (r1 and
// not r2). Counting each conjunction and adding counts f exactly.
func disjoint(f Formula) ([][]symbolic.Relation, error) {
	switch f := f.(type) {
	case nil:
		return [][]symbolic.Relation{nil}, nil
	case Rel:
		if c, ok := f.R.E.Const(); ok {
			// A relation between constants (a guard on an array element
			// whose index a split fixed) is decided here, before it
			// multiplies the cases of the formula around it.
			if f.R.Holds(c) {
				return [][]symbolic.Relation{nil}, nil
			}
			return nil, nil
		}
		return [][]symbolic.Relation{{f.R}}, nil
	case And:
		out := [][]symbolic.Relation{nil}
		for _, g := range f {
			gs, err := disjoint(g)
			if err != nil {
				return nil, err
			}
			if len(gs) == 1 {
				// No case split: extend each conjunction in place. Each
				// has an array of its own, or one without spare capacity
				// (a split's copy), so appending cannot reach another.
				for i := range out {
					out[i] = append(out[i], gs[0]...)
				}
				continue
			}
			var next [][]symbolic.Relation
			for _, a := range out {
				for _, b := range gs {
					next = append(next, append(slices.Clip(a), b...))
				}
			}
			if len(next) > maxConjunctions {
				return nil, fmt.Errorf("%w: condition expands into more than %d disjoint cases", ErrTooComplex, maxConjunctions)
			}
			out = next
		}
		return out, nil
	case Or:
		if len(f) == 0 {
			return nil, nil
		}
		first, err := disjoint(f[0])
		if err != nil {
			return nil, err
		}
		rest, err := disjoint(And{Or(f[1:]), Not{f[0]}})
		if err != nil {
			return nil, err
		}
		return append(first, rest...), nil
	case Not:
		inner, err := disjoint(f.F)
		if err != nil {
			return nil, err
		}
		// not (c1 or c2 ...) = not c1 and not c2 ...
		out := [][]symbolic.Relation{nil}
		for _, conj := range inner {
			neg := negateConj(conj)
			var next [][]symbolic.Relation
			for _, a := range out {
				for _, b := range neg {
					next = append(next, append(slices.Clip(a), b...))
				}
			}
			if len(next) > maxConjunctions {
				return nil, fmt.Errorf("%w: condition expands into more than %d disjoint cases", ErrTooComplex, maxConjunctions)
			}
			out = next
		}
		return out, nil
	}
	return nil, fmt.Errorf("counting: unknown formula %T", f)
}

// negateConj returns disjoint cases of not (r1 and r2 and ...):
// not r1, or r1 and not r2, or ...
func negateConj(conj []symbolic.Relation) [][]symbolic.Relation {
	if len(conj) == 0 {
		return nil // not true
	}
	var out [][]symbolic.Relation
	for i, r := range conj {
		for _, n := range negate(r) {
			out = append(out, append(slices.Clone(conj[:i]), n...))
		}
	}
	return out
}

// TopRels returns the relations of f's top-level conjunction: those every
// point of a set with condition f satisfies.
func TopRels(f Formula) []symbolic.Relation {
	var rels []symbolic.Relation
	var walk func(f Formula)
	walk = func(f Formula) {
		switch g := f.(type) {
		case Rel:
			rels = append(rels, g.R)
		case And:
			for _, x := range g {
				walk(x)
			}
		}
	}
	walk(f)
	return rels
}
