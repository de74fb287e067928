package symbolic

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
)

// Simplify rewrites e with facts that hold only under the assumptions:
//
//	floor(x)       = c           where c <= x < c + 1
//	trunc(x)       = floor(x)    where x >= 0
//	trunc(x)       = -floor(-x)  where x <= 0
//	min(.., a, b ..) drops b     where a <= b   (max: where a >= b)
//
// applied inside function arguments too.
func (a *Assumptions) Simplify(e Expr) Expr {
	memo := map[*atom]Expr{}
	var walk func(Expr) Expr
	walk = func(e Expr) Expr {
		v, err := e.substTerms(func(at *atom) (Expr, bool, error) {
			v, ok := memo[at]
			if !ok {
				v = a.simplifyAtom(at, walk)
				memo[at] = v
			}
			s, isSame := singleAtom(v)
			return v, !isSame || s != at, nil
		})
		if err != nil {
			// A rule made a divisor zero: where the assumptions hold, e
			// divides by zero (a value of a path they rule out). e is
			// left as it is.
			return e
		}
		return v
	}
	return walk(e)
}

func (a *Assumptions) simplifyAtom(at *atom, walk func(Expr) Expr) Expr {
	if at.kind == kSym || at.kind == kConst {
		return atomExpr(at)
	}
	args := make([]Expr, len(at.args))
	for i, x := range at.args {
		args[i] = walk(x)
	}
	switch at.kind {
	case kFloor:
		// floor(x) = c where c <= x < c + 1, c read off x's interval.
		x := args[0]
		// floor(x) = c needs floor(x) = c at every witness: witnesses that
		// disagree rule every c out (the interval is then not needed), and
		// ones that agree name the only candidate (see witness.go).
		only, tryOnly, constant := Rat{}, false, true
		candidates := int64(3)
		if useWitnesses {
			ws := a.witnesses()
			if len(ws.pts) == 0 {
				// A set whose points the search did not find is most often
				// empty; only the interval's own candidate is worth proofs.
				candidates = 1
			}
			if vs, ok := ws.values(x); ok {
				only, tryOnly = vs[0].Floor(), true
				for _, v := range vs[1:] {
					if v.Floor().Cmp(only) != 0 {
						constant = false // no constant value: nothing to try
					}
				}
			}
		}
		if !constant {
			break
		}
		if iv := a.baseBounds().interval(x); iv.lo.finite {
			// Intervals are loose (k/p with 1 <= k <= p bounds from 0 only via
			// the relation k <= p): try the first few integers above the bound.
			for d := range candidates {
				cv := iv.lo.v.Floor().Add(RatInt(d))
				if tryOnly && cv.Cmp(only) != 0 {
					continue
				}
				c := Const(cv)
				if a.Prove(Relation{E: c.Add(Int(1)).Sub(x), Op: GT}) != True {
					continue
				}
				if a.ProveGE(x.Sub(c)) == True {
					return c
				}
				break
			}
		}
	case kTrunc:
		x := args[0]
		if a.ProveGE(x) == True {
			return Floor(x)
		}
		if a.ProveGE(x.Neg()) == True {
			return Floor(x.Neg()).Neg()
		}
	case kMin, kMax:
		var kept []Expr
		for i, x := range args {
			dominated := false
			for j, y := range args {
				if i == j {
					continue
				}
				// For min, x is redundant when some y <= x (ties: keep the first).
				d := x.Sub(y)
				if at.kind == kMax {
					d = d.Neg()
				}
				if a.ProveGE(d) == True && (j < i || a.ProveGE(d.Neg()) != True) {
					dominated = true
					break
				}
			}
			if !dominated {
				kept = append(kept, x)
			}
		}
		if len(kept) == 0 {
			kept = args[:1]
		}
		args = kept
	}
	if at.kind == kRecip {
		return args[0] // the atom stands for its sum; the factor's exponent divides
	}
	v, err := rebuild(at.kind, args)
	if err != nil {
		return atomExpr(at)
	}
	return v
}

// Piece is one guarded term of a Piecewise value: Value where every relation of
// Guard holds, nothing elsewhere.
type Piece struct {
	Guard []Relation
	Value Expr
}

// Piecewise is a sum of guarded terms: its value at a point is the sum of the
// values of the pieces whose guards hold there, and 0 where none holds (an
// empty iteration space counts nothing). Guards are conjunctions of relations
// over the parameters. Pieces with pairwise disjoint guards are the common
// case of a value defined by cases; counting produces overlapping pieces too,
// when the cases of an inner loop split on an outer loop variable that is then
// summed away.
type Piecewise struct {
	Pieces []Piece
}

// PiecewiseOf returns the single-piece value e with no guard.
func PiecewiseOf(e Expr) Piecewise { return Piecewise{Pieces: []Piece{{Value: e}}} }

// Symbols lists the symbols of the pieces' values and guards, in order of
// appearance, repeats included.
func (pw Piecewise) Symbols() []string {
	var out []string
	for _, pc := range pw.Pieces {
		out = append(out, pc.Value.Symbols()...)
		for _, g := range pc.Guard {
			out = append(out, g.E.Symbols()...)
		}
	}
	return out
}

// Has reports whether name occurs in a piece's value or guard.
func (pw Piecewise) Has(name string) bool {
	return pw.anyExpr(func(e Expr) bool { return e.Has(name) })
}

// HasAny reports whether a piece's value or guard mentions a symbol of
// names (Expr.HasAny).
func (pw Piecewise) HasAny(names map[string]bool) bool {
	return pw.anyExpr(func(e Expr) bool { return e.HasAny(names) })
}

// anyExpr reports whether f holds for a piece's value or a guard's
// expression.
func (pw Piecewise) anyExpr(f func(Expr) bool) bool {
	for _, pc := range pw.Pieces {
		if f(pc.Value) {
			return true
		}
		for _, g := range pc.Guard {
			if f(g.E) {
				return true
			}
		}
	}
	return false
}

// Eval returns the exact value at env: the sum of the values of the pieces
// whose guards hold.
func (pw Piecewise) Eval(env map[string]Rat) (Rat, error) {
	var sum Rat
	for _, p := range pw.Pieces {
		ok, err := NewAssumptions(p.Guard...).Holds(env)
		if err != nil {
			return Rat{}, err
		}
		if ok {
			v, err := p.Value.Eval(env)
			if err != nil {
				return Rat{}, err
			}
			sum = sum.Add(v)
		}
	}
	return sum, nil
}

// Add returns the piecewise sum of pw and qw.
func (pw Piecewise) Add(qw Piecewise) Piecewise {
	return Piecewise{Pieces: append(slices.Clip(pw.Pieces), qw.Pieces...)}
}

// ParsePiece reads a piece back from its printed value and guard relations
// (check -json's {value, guard}; Expr.String and Relation.String print
// them).
func ParsePiece(value string, guard []string) (Piece, error) {
	v, err := Parse(value)
	if err != nil {
		return Piece{}, err
	}
	p := Piece{Value: v}
	for _, g := range guard {
		rs, err := ParseRelations(g)
		if err != nil {
			return Piece{}, err
		}
		p.Guard = append(p.Guard, rs...)
	}
	return p, nil
}

// Merge returns pw with the values of pieces whose guards are the same
// relations in the same order added into one piece, and pieces whose value
// is 0 dropped. It proves nothing, so it is cheap enough to keep sums of
// many pieces (a routine's work, added up from its statements) small.
func (pw Piecewise) Merge() Piecewise {
	if len(pw.Pieces) < 2 {
		return pw
	}
	out := make([]Piece, 0, len(pw.Pieces))
	index := make(map[string]int, len(pw.Pieces))
	for _, p := range pw.Pieces {
		if p.Value.IsZero() {
			continue
		}
		key := guardKey(p.Guard)
		if i, ok := index[key]; ok {
			out[i].Value = out[i].Value.Add(p.Value)
			continue
		}
		index[key] = len(out)
		out = append(out, p)
	}
	res := out[:0]
	for _, p := range out {
		if !p.Value.IsZero() {
			res = append(res, p)
		}
	}
	return Piecewise{Pieces: res}
}

// Key returns a string that identifies pw as written (pieces in order,
// guards relation by relation): equal keys mean equal values. It is meant
// for memo maps and much cheaper than String.
func (pw Piecewise) Key() string {
	var b strings.Builder
	pw.writeKey(&b)
	return b.String()
}

func (pw Piecewise) writeKey(b keyWriter) {
	for _, p := range pw.Pieces {
		writeGuardKey(b, p.Guard)
		b.WriteByte('=')
		p.Value.writeKey(b)
		b.WriteByte('\n')
	}
}

// A Fingerprint identifies a form as its Key does, in 16 bytes: two 64-bit
// hashes of the key's text under independent seeds, taken without building
// the text. Where forms run to thousands of pieces (a program whose loops
// rest on unknown trip counts) their keys were megabytes each, and making
// them the largest cost of a report.
type Fingerprint [2]uint64

// fingerprintSeeds are the seeds of every Fingerprint of the process.
var fingerprintSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// Fingerprint returns pw's fingerprint: equal for equal keys, and, for
// different keys, equal with probability 2^-128.
func (pw Piecewise) Fingerprint() Fingerprint {
	var h twoHashes
	h[0].SetSeed(fingerprintSeeds[0])
	h[1].SetSeed(fingerprintSeeds[1])
	pw.writeKey(&h)
	return Fingerprint{h[0].Sum64(), h[1].Sum64()}
}

// twoHashes is a keyWriter that digests the text twice.
type twoHashes [2]maphash.Hash

func (h *twoHashes) Write(b []byte) (int, error) {
	h[0].Write(b)
	return h[1].Write(b)
}

func (h *twoHashes) WriteByte(c byte) error {
	h[0].WriteByte(c)
	return h[1].WriteByte(c)
}

func (h *twoHashes) WriteString(s string) (int, error) {
	h[0].WriteString(s)
	return h[1].WriteString(s)
}

// Scale returns c*pw.
func (pw Piecewise) Scale(c Expr) Piecewise {
	out := make([]Piece, len(pw.Pieces))
	for i, p := range pw.Pieces {
		out[i] = Piece{Guard: p.Guard, Value: p.Value.Mul(c)}
	}
	return Piecewise{Pieces: out}
}

// Simplify drops pieces whose guard is provably false under a, drops guard
// relations that are provably true, adds the values of pieces with the same
// guard, drops pieces whose value is 0, and simplifies each value under its
// guard. Guards are put in a canonical order.
func (pw Piecewise) Simplify(a *Assumptions) Piecewise { return pw.SimplifyWithin(a, proofBudget) }

// SimplifyWithin is Simplify with the prover's work per question bounded (see
// Assumptions.ProveWithin).
func (pw Piecewise) SimplifyWithin(a *Assumptions, budget int) Piecewise {
	a = a.rebudget(budget)
	var out []Piece
	index := map[string]int{}
	for _, p := range pw.Pieces {
		if p.Value.IsZero() {
			continue
		}
		simple := make([]Relation, len(p.Guard))
		for i, r := range p.Guard {
			simple[i] = Relation{E: a.Simplify(r.E), Op: r.Op}
		}
		guard, ok := a.reduceGuard(simple)
		if !ok {
			continue
		}
		slices.SortFunc(guard, func(x, y Relation) int {
			if c := Compare(x.E, y.E); c != 0 {
				return c
			}
			return int(x.Op) - int(y.Op)
		})
		guard = slices.CompactFunc(guard, func(x, y Relation) bool { return x.Op == y.Op && Equal(x.E, y.E) })
		key := guardKey(guard)
		if i, ok := index[key]; ok {
			out[i].Value = out[i].Value.Add(p.Value)
			continue
		}
		index[key] = len(out)
		out = append(out, Piece{Guard: guard, Value: p.Value})
	}
	res := out[:0]
	for _, p := range out {
		if p.Value.IsZero() {
			continue
		}
		p.Value = a.with(p.Guard).Simplify(p.Value)
		res = append(res, p)
	}
	return Piecewise{Pieces: res}
}

func guardKey(g []Relation) string {
	var b strings.Builder
	writeGuardKey(&b, g)
	return b.String()
}

func writeGuardKey(b keyWriter, g []Relation) {
	for _, r := range g {
		b.WriteByte(byte('0' + r.Op))
		r.E.writeKey(b)
		b.WriteByte(';')
	}
}

// reduceGuard removes relations of g that a proves and reports false when g is
// provably infeasible under a.
func (a *Assumptions) reduceGuard(g []Relation) ([]Relation, bool) {
	var guard []Relation
	for _, r := range g {
		switch a.Prove(r) {
		case True:
			continue
		case False:
			return nil, false
		}
		guard = append(guard, r)
	}
	return guard, a.feasible(guard)
}

// with returns a copy of a with more relations.
func (a *Assumptions) with(rels []Relation) *Assumptions {
	b := a.Clone()
	b.Assume(rels...)
	return b
}

// feasible reports false when the relations together with a are provably
// contradictory: some relation's negation follows from the rest.
func (a *Assumptions) feasible(rels []Relation) bool {
	if len(rels) == 0 {
		return true
	}
	// Two relations that add up to a false one refute the case at once.
	if opposedPairContradicts(a.rels, rels) {
		return false
	}
	// A point satisfying them all shows they are not contradictory: no
	// relation's negation can follow from the others (see witness.go).
	if useWitnesses && len(a.with(rels).witnesses().pts) > 0 {
		return true
	}
	for i, r := range rels {
		rest := a.with(slices.Delete(slices.Clone(rels), i, i+1))
		if rest.Prove(r) == False {
			return false
		}
	}
	return true
}

// Single returns the value when pw has exactly one piece with no guard.
func (pw Piecewise) Single() (Expr, bool) {
	if len(pw.Pieces) == 1 && len(pw.Pieces[0].Guard) == 0 {
		return pw.Pieces[0].Value, true
	}
	if len(pw.Pieces) == 0 {
		return Expr{}, true
	}
	return Expr{}, false
}

// String prints one piece per line, "value    if guard"; the value at a point
// is the sum of the lines whose guards hold.
func (pw Piecewise) String() string {
	if len(pw.Pieces) == 0 {
		return "0"
	}
	if v, ok := pw.Single(); ok {
		return v.String()
	}
	var b strings.Builder
	for i, p := range pw.Pieces {
		if i > 0 {
			b.WriteByte('\n')
		}
		g := make([]string, len(p.Guard))
		for j, r := range p.Guard {
			g[j] = r.String()
		}
		guard := "always"
		if len(g) > 0 {
			guard = strings.Join(g, " and ")
		}
		fmt.Fprintf(&b, "%s    if %s", p.Value, guard)
	}
	return b.String()
}

// PiecewiseFunc is a Piecewise compiled for repeated evaluation.
type PiecewiseFunc struct {
	pieces []compiledPiece
}

type compiledPiece struct {
	guard []*Func
	ops   []RelOp
	value *Func
}

// Compile prepares pw for evaluation at points whose coordinates are the
// values of vars, in order.
func (pw Piecewise) Compile(vars []string) (*PiecewiseFunc, error) {
	out := &PiecewiseFunc{}
	for _, p := range pw.Pieces {
		var cp compiledPiece
		for _, g := range p.Guard {
			f, err := g.E.Compile(vars)
			if err != nil {
				return nil, err
			}
			cp.guard = append(cp.guard, f)
			cp.ops = append(cp.ops, g.Op)
		}
		v, err := p.Value.Compile(vars)
		if err != nil {
			return nil, err
		}
		cp.value = v
		out.pieces = append(out.pieces, cp)
	}
	// The pieces share their atoms' values during one evaluation.
	var all []*Func
	for _, cp := range out.pieces {
		all = append(append(all, cp.guard...), cp.value)
	}
	numberAtoms(all...)
	return out, nil
}

// EvalInt returns the exact value at an integer point.
func (f *PiecewiseFunc) EvalInt(vals []int64) (Rat, error) {
	if v, ok := f.evalQ64(vals); ok {
		return v, nil
	}
	var sum Rat
	for _, p := range f.pieces {
		holds := true
		var guardErr error // matters only if no guard is false
		for i, g := range p.guard {
			v, err := g.EvalInt(vals)
			if err != nil {
				guardErr = err
				continue
			}
			if !(Relation{Op: p.ops[i]}).Holds(v) {
				holds = false
				break
			}
		}
		if !holds {
			continue
		}
		if guardErr != nil {
			return Rat{}, guardErr
		}
		v, err := p.value.EvalInt(vals)
		if err != nil {
			return Rat{}, err
		}
		sum = sum.Add(v)
	}
	return sum, nil
}

// evalQ64 is EvalInt in int64 fractions (see Func.evalQ64): a guard needs
// only its sign, and the pieces' values add up over common denominators.
// ok is false when any guard or value leaves the int64 path.
func (f *PiecewiseFunc) evalQ64(vals []int64) (Rat, bool) {
	var c q64cache
	sum := q64{0, 1}
	for _, p := range f.pieces {
		holds := true
		for i, g := range p.guard {
			n, _, ok := g.evalQ64(vals, &c)
			if !ok {
				return Rat{}, false
			}
			switch p.ops[i] {
			case GE:
				holds = n >= 0
			case GT:
				holds = n > 0
			default:
				holds = n == 0
			}
			if !holds {
				break
			}
		}
		if !holds {
			continue
		}
		n, d, ok := p.value.evalQ64(vals, &c)
		if !ok {
			return Rat{}, false
		}
		if sum, ok = sum.add(q64{n, d}); !ok {
			return Rat{}, false
		}
	}
	if sum.d == 1 {
		return RatInt(sum.n), true
	}
	return RatFrac(sum.n, sum.d), true
}
