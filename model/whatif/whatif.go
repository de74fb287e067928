package whatif

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

// TermKind classifies a term of a Model.
type TermKind int

const (
	// Compute is time spent computing.
	Compute TermKind = iota + 1 // compute
	// Comm is time spent communicating (messages, collectives, waiting).
	Comm // comm
	// IO is time spent reading and writing.
	IO // io
)

var termKindNames = [...]string{Compute: "compute", Comm: "comm", IO: "io"}

// String returns the kind's name as in its declaration's line comment.
func (k TermKind) String() string {
	if k >= 1 && int(k) < len(termKindNames) {
		return termKindNames[k]
	}
	return fmt.Sprintf("TermKind(%d)", int(k))
}

// Term is one named part of a program's predicted time, Pacheco's T_calc,
// T_comm or T_io (seed 004 §11.4).
type Term struct {
	Name string // "compute", "reduce", "io"
	Kind TermKind
	// T is the term's time in seconds, a closed form in the parameters
	// and the processor count.
	T symbolic.Piecewise
}

// Model is a program's predicted time as named terms, each a closed form in
// the parameters and P (seconds). The time is the sum of the terms.
type Model struct {
	Terms []Term
	// Size is the processor-count symbol, "P".
	Size string
}

// Total returns the model's time, the sum of its terms.
func (m Model) Total() symbolic.Piecewise {
	var t symbolic.Piecewise
	for _, term := range m.Terms {
		t = t.Add(term.T)
	}
	return t
}

// Symbols returns the names of the symbols the model depends on, sorted,
// including Size when it occurs.
func (m Model) Symbols() []string {
	var out []string
	for _, t := range m.Terms {
		out = append(out, t.T.Symbols()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (m Model) check() {
	if m.Size == "" {
		panic("whatif: Model.Size is empty")
	}
	for i, t := range m.Terms {
		if t.Kind < Compute || t.Kind > IO {
			panic(fmt.Sprintf("whatif: Model.Terms[%d] (%q) has invalid kind %v", i, t.Name, t.Kind))
		}
	}
}

// ModelFunc is a Model compiled for evaluation at many points.
type ModelFunc struct {
	m     Model
	vars  []string // the model's symbols plus Size, sorted
	size  int      // index of Size in vars
	terms [][]cpiece
}

// Compile prepares m for evaluation at many points. It panics if m.Size is
// empty or a term has an invalid kind.
func (m Model) Compile() (*ModelFunc, error) {
	m.check()
	vars := append(m.Symbols(), m.Size)
	slices.Sort(vars)
	vars = slices.Compact(vars)
	f := &ModelFunc{m: m, vars: vars, size: slices.Index(vars, m.Size)}
	for _, t := range m.Terms {
		ps, err := compilePiecewise(t.T, vars)
		if err != nil {
			return nil, fmt.Errorf("whatif: term %s: %w", t.Name, err)
		}
		f.terms = append(f.terms, ps)
	}
	return f, nil
}

// Model returns the model f was compiled from.
func (f *ModelFunc) Model() Model { return f.m }

// Row is a Model evaluated at one process count.
type Row struct {
	P    int64
	Time float64 // T(P), seconds
	// Speedup is T(1)/T(P) and Efficiency Speedup/P (seed 004 §11.4).
	// Pacheco divides the serial program's time T_sigma(n); T(1) is the
	// model's own time on one process, the same for his trapezoidal rule
	// (22.3n µs) and for every model whose overheads vanish at P = 1.
	Speedup, Efficiency float64
	// CommShare is the fraction of Time spent in Comm terms.
	CommShare float64
	// Dominant names the term with the largest time (the first of equals).
	Dominant string
	// Terms holds each term's time in seconds, in the order of Model.Terms.
	Terms []float64
	// Exact reports that Time, Speedup, Efficiency and CommShare were
	// computed in exact arithmetic and rounded once; otherwise some value
	// was irrational at this point (log2 of a non-power of two) and
	// float64 arithmetic was used.
	Exact bool
}

// Table evaluates m at every process count in ps, with the other symbols'
// values from env (a value for m.Size in env is ignored). Speedups are
// relative to T at P = 1, whether or not ps holds 1.
func Table(m Model, env map[string]float64, ps []int64) ([]Row, error) {
	f, err := m.Compile()
	if err != nil {
		return nil, err
	}
	return f.Table(env, ps)
}

// Table is the package function Table for a compiled model.
func (f *ModelFunc) Table(env map[string]float64, ps []int64) ([]Row, error) {
	pt, err := f.bind(env, true)
	if err != nil {
		return nil, err
	}
	t1, err := f.evalP(pt, 1, nil)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(ps))
	for _, p := range ps {
		row, err := f.row(pt, p, &t1)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// RowAt evaluates m at the one process count p, with the other symbols'
// values from env, without a speedup (NaN): a model valid at p alone (one
// evaluated at that process count, with values compiled in for it) has no
// time at P = 1 to divide.
func RowAt(m Model, env map[string]float64, p int64) (Row, error) {
	f, err := m.Compile()
	if err != nil {
		return Row{}, err
	}
	pt, err := f.bind(env, true)
	if err != nil {
		return Row{}, err
	}
	return f.row(pt, p, nil)
}

// row evaluates the model at p; the speedup and efficiency are relative
// to t1, NaN when t1 is nil.
func (f *ModelFunc) row(pt *point, p int64, t1 *value) (Row, error) {
	terms := make([]value, len(f.terms))
	t, err := f.evalP(pt, p, terms)
	if err != nil {
		return Row{}, err
	}
	row := Row{P: p, Terms: make([]float64, len(terms)), Time: t.float()}
	comm := value{exact: true}
	best := -1
	for i, v := range terms {
		row.Terms[i] = v.float()
		if best < 0 || row.Terms[i] > row.Terms[best] {
			best = i
		}
		if f.m.Terms[i].Kind == Comm {
			comm = comm.add(v)
		}
	}
	if best >= 0 {
		row.Dominant = f.m.Terms[best].Name
	}
	switch {
	case t1 == nil:
		row.Exact = t.exact && comm.exact
		row.Speedup, row.Efficiency = math.NaN(), math.NaN()
	case t.exact && t1.exact:
		row.Exact = comm.exact
		s := t1.r.Quo(t.r)
		row.Speedup, row.Efficiency = s.Float64(), s.Quo(symbolic.RatInt(p)).Float64()
	default:
		row.Speedup = t1.float() / row.Time
		row.Efficiency = row.Speedup / float64(p)
	}
	if t.exact && comm.exact {
		row.CommShare = comm.r.Quo(t.r).Float64()
	} else {
		row.CommShare = comm.float() / row.Time
	}
	return row, nil
}

// Time returns the model's time in seconds at env, which must give a value
// to every symbol, Size included; it is exact but for the one rounding to
// float64 wherever the closed form is rational at env.
func (f *ModelFunc) Time(env map[string]float64) (float64, error) {
	pt, err := f.bind(env, false)
	if err != nil {
		return 0, err
	}
	v, err := f.evalTerms(pt, true, nil)
	if err != nil {
		return 0, fmt.Errorf("whatif: %w", err)
	}
	return v.float(), nil
}

// evalP evaluates the time at process count p, exactly where possible,
// filling terms, if not nil, with each term's value. A time that is not
// positive and finite is an error.
func (f *ModelFunc) evalP(pt *point, p int64, terms []value) (value, error) {
	if p < 1 {
		return value{}, fmt.Errorf("whatif: %s = %d: process counts start at 1", f.m.Size, p)
	}
	pt.setInt(f.size, p)
	t, err := f.evalTerms(pt, true, terms)
	if err != nil {
		return value{}, fmt.Errorf("whatif: at %s = %d: %w", f.m.Size, p, err)
	}
	if x := t.float(); !(x > 0) || math.IsInf(x, 0) {
		return value{}, fmt.Errorf("whatif: at %s = %d: time %g is not positive and finite", f.m.Size, p, x)
	}
	return t, nil
}

// evalTerms returns the sum of the terms at pt, storing each term's value
// in terms when terms is long enough.
func (f *ModelFunc) evalTerms(pt *point, exact bool, terms []value) (value, error) {
	sum := value{exact: true}
	for i, pieces := range f.terms {
		v, err := evalPieces(pieces, pt, exact)
		if err != nil {
			return value{}, fmt.Errorf("term %s: %w", f.m.Terms[i].Name, err)
		}
		if i < len(terms) {
			terms[i] = v
		}
		sum = sum.add(v)
	}
	return sum, nil
}

// evalFloat returns the time at pt in float64 arithmetic only: the fast
// path for root finding.
func (f *ModelFunc) evalFloat(pt *point) (float64, error) {
	v, err := f.evalTerms(pt, false, nil)
	return v.float(), err
}

// bind returns a point with the model's symbols set from env. With
// sizeFree, Size need not be in env (it is set per evaluation); free lists
// other symbols that are set later.
func (f *ModelFunc) bind(env map[string]float64, sizeFree bool, free ...string) (*point, error) {
	return bindVars(f.vars, env, func(name string) bool {
		return sizeFree && name == f.m.Size || slices.Contains(free, name)
	})
}

func bindVars(vars []string, env map[string]float64, free func(string) bool) (*point, error) {
	pt := newPoint(len(vars))
	var missing []string
	for i, name := range vars {
		if free(name) {
			continue
		}
		v, ok := env[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("whatif: %s = %g is not a number", name, v)
		}
		pt.set(i, v)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("whatif: no value for %s", strings.Join(missing, ", "))
	}
	return pt, nil
}

// A point holds the values of a compiled function's variables twice: as
// float64, and as exact rationals read from the shortest decimal of each
// float64.
type point struct {
	f []float64
	r []symbolic.Rat
}

func newPoint(n int) *point {
	return &point{f: make([]float64, n), r: make([]symbolic.Rat, n)}
}

func (pt *point) set(i int, v float64) {
	pt.f[i] = v
	pt.r[i] = decimalRat(v)
}

func (pt *point) setInt(i int, v int64) {
	pt.f[i] = float64(v)
	pt.r[i] = symbolic.RatInt(v)
}

// decimalRat returns the shortest decimal that rounds to v, exactly: the
// number the user typed (22.3e-6 is 223/10^7, not the binary float64
// nearest to it).
func decimalRat(v float64) symbolic.Rat {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return symbolic.RatInt(int64(v))
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	if !ok {
		panic("whatif: cannot read back " + strconv.FormatFloat(v, 'g', -1, 64))
	}
	return symbolic.RatBig(r)
}

// value is a number computed exactly (r) or in float64 (f).
type value struct {
	r     symbolic.Rat
	f     float64
	exact bool
}

func (v value) float() float64 {
	if v.exact {
		return v.r.Float64()
	}
	return v.f
}

// add returns v + w, exact when both are.
func (v value) add(w value) value {
	if v.exact && w.exact {
		return value{r: v.r.Add(w.r), exact: true}
	}
	return value{f: v.float() + w.float()}
}

// cexpr is a compiled expression with what it takes to know, before
// evaluating exactly, that the value at a point is irrational: exact
// evaluation would then fail, slowly, with symbolic.ErrIrrational.
type cexpr struct {
	f      *symbolic.Func
	checks []irrCheck
	ln2    bool // the constant ln 2 occurs: never rational
}

// irrCheck is the argument of a log2 or sqrt in the expression.
type irrCheck struct {
	sqrt bool
	arg  *symbolic.Func
}

func compileExpr(e symbolic.Expr, vars []string) (cexpr, error) {
	f, err := e.Compile(vars)
	if err != nil {
		return cexpr{}, err
	}
	c := cexpr{f: f, ln2: !e.Replace(symbolic.Ln2, symbolic.Int(2)).Equal(e)}
	var walk func(symbolic.Expr) error
	walk = func(e symbolic.Expr) error {
		for _, a := range e.FuncAtoms() {
			name, args, _ := a.AsFunc()
			if name == "log2" || name == "sqrt" {
				g, err := args[0].Compile(vars)
				if err != nil {
					return err
				}
				c.checks = append(c.checks, irrCheck{sqrt: name == "sqrt", arg: g})
			}
			for _, x := range args {
				if err := walk(x); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return c, walk(e)
}

// rationalAt reports whether c is probably rational at pt: no ln 2, every
// log2 argument a power of two and every sqrt argument a square in float64.
// A wrong yes costs only a failed exact evaluation.
func (c *cexpr) rationalAt(pt *point) bool {
	if c.ln2 {
		return false
	}
	for _, ch := range c.checks {
		x := ch.arg.EvalFloat(pt.f)
		if ch.sqrt {
			if s := math.Sqrt(x); !(x >= 0 && s*s == x) {
				return false
			}
			continue
		}
		if frac, _ := math.Frexp(x); frac != 0.5 {
			return false
		}
	}
	return true
}

// eval evaluates c at pt, exactly when asked to and possible.
func (c *cexpr) eval(pt *point, exact bool) (value, error) {
	if exact && c.rationalAt(pt) {
		r, err := c.f.Eval(pt.r)
		if err == nil {
			return value{r: r, exact: true}, nil
		}
		if !errors.Is(err, symbolic.ErrIrrational) {
			return value{}, err
		}
	}
	return value{f: c.f.EvalFloat(pt.f)}, nil
}

// cpiece is a compiled symbolic.Piece.
type cpiece struct {
	guard []cexpr
	ops   []symbolic.RelOp
	value cexpr
}

func compilePiecewise(pw symbolic.Piecewise, vars []string) ([]cpiece, error) {
	var out []cpiece
	for _, p := range pw.Pieces {
		var cp cpiece
		for _, r := range p.Guard {
			g, err := compileExpr(r.E, vars)
			if err != nil {
				return nil, err
			}
			cp.guard = append(cp.guard, g)
			cp.ops = append(cp.ops, r.Op)
		}
		v, err := compileExpr(p.Value, vars)
		if err != nil {
			return nil, err
		}
		cp.value = v
		out = append(out, cp)
	}
	return out, nil
}

// evalPieces returns the value of a compiled Piecewise at pt: the sum of
// the values of the pieces whose guards hold (symbolic.Piecewise's meaning;
// model.EvalFloat takes the first such piece, the same for the disjoint
// guards of the machine models).
func evalPieces(pieces []cpiece, pt *point, exact bool) (value, error) {
	sum := value{exact: true}
next:
	for _, p := range pieces {
		for i := range p.guard {
			ok, err := p.guard[i].holds(pt, p.ops[i], exact)
			if err != nil {
				return value{}, err
			}
			if !ok {
				continue next
			}
		}
		v, err := p.value.eval(pt, exact)
		if err != nil {
			return value{}, err
		}
		sum = sum.add(v)
	}
	return sum, nil
}

// holds decides c op 0 at pt: exactly when possible, otherwise in float64
// with an absolute tolerance of 1e-9 for equality, as model.EvalFloat does,
// so that rounded integer arithmetic still selects the right piece.
func (c *cexpr) holds(pt *point, op symbolic.RelOp, exact bool) (bool, error) {
	v, err := c.eval(pt, exact)
	if err != nil {
		return false, err
	}
	if v.exact {
		return symbolic.Relation{Op: op}.Holds(v.r), nil
	}
	const eps = 1e-9
	switch op {
	case symbolic.GE:
		return v.f >= -eps, nil
	case symbolic.GT:
		return v.f > eps, nil
	case symbolic.EQ:
		return v.f >= -eps && v.f <= eps, nil
	}
	return false, nil
}

// SyntaxError is a problem in a sweep or range at a 1-based column.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// maxSweep bounds the number of values a sweep may hold.
const maxSweep = 1 << 24

// ParseSweep reads a list of values, ascending and without duplicates in
// the result, from comma-separated items:
//
//	8            one value
//	1..4096      lo, 2*lo, 4*lo, ... up to hi (lo >= 1)
//	1..4096:*4   lo, 4*lo, 16*lo, ... (any factor >= 2)
//	2..32:+2     lo, lo+2, lo+4, ... up to hi
//
// Values are non-negative integers. Errors name the 1-based column of the
// problem ("col 5: ...").
func ParseSweep(s string) ([]int64, error) {
	var out []int64
	start := 0
	for {
		end := strings.IndexByte(s[start:], ',')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		vals, err := parseItem(s, start, end)
		if err != nil {
			return nil, err
		}
		out = append(out, vals...)
		if len(out) > maxSweep {
			return nil, &SyntaxError{Col: start + 1, Msg: fmt.Sprintf("sweep has more than %d values", maxSweep)}
		}
		if end == len(s) {
			break
		}
		start = end + 1
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// ParseRange reads "lo..hi" (or a single value, lo = hi), as for -grain.
func ParseRange(s string) (lo, hi int64, err error) {
	sc := scanner{s: s, end: len(s)}
	sc.space()
	if lo, err = sc.int(); err != nil {
		return 0, 0, err
	}
	sc.space()
	hi = lo
	if sc.peek("..") {
		sc.i += 2
		sc.space()
		if hi, err = sc.int(); err != nil {
			return 0, 0, err
		}
		if hi < lo {
			return 0, 0, &SyntaxError{Col: 1, Msg: fmt.Sprintf("range %d..%d is empty", lo, hi)}
		}
		sc.space()
	}
	if sc.i < sc.end {
		return 0, 0, sc.errf("unexpected %q after range", s[sc.i:sc.end])
	}
	return lo, hi, nil
}

// parseItem reads the item s[start:end] of a sweep.
func parseItem(s string, start, end int) ([]int64, error) {
	sc := scanner{s: s, i: start, end: end}
	sc.space()
	if sc.i == end {
		return nil, sc.errf("empty item")
	}
	itemCol := sc.i + 1
	lo, err := sc.int()
	if err != nil {
		return nil, err
	}
	sc.space()
	if sc.i == end {
		return []int64{lo}, nil
	}
	if !sc.peek("..") {
		return nil, sc.errf("unexpected %q: want ',' or '..'", s[sc.i:sc.i+1])
	}
	sc.i += 2
	sc.space()
	hi, err := sc.int()
	if err != nil {
		return nil, err
	}
	if hi < lo {
		return nil, &SyntaxError{Col: itemCol, Msg: fmt.Sprintf("range %d..%d is empty", lo, hi)}
	}
	sc.space()
	op, step := byte('*'), int64(2)
	if sc.i < end {
		if s[sc.i] != ':' {
			return nil, sc.errf("unexpected %q after range: want ',' or ':'", s[sc.i:sc.i+1])
		}
		sc.i++
		sc.space()
		if sc.i == end || !strings.ContainsRune("+*x", rune(s[sc.i])) {
			return nil, sc.errf("want a step: +d or *k")
		}
		op = s[sc.i]
		if op == 'x' {
			op = '*'
		}
		sc.i++
		sc.space()
		stepCol := sc.i + 1
		if step, err = sc.int(); err != nil {
			return nil, err
		}
		switch {
		case op == '+' && step < 1:
			return nil, &SyntaxError{Col: stepCol, Msg: "step must be at least 1"}
		case op == '*' && step < 2:
			return nil, &SyntaxError{Col: stepCol, Msg: "factor must be at least 2"}
		}
		sc.space()
		if sc.i < end {
			return nil, sc.errf("unexpected %q after step", s[sc.i:end])
		}
	}
	if op == '*' && lo < 1 {
		return nil, &SyntaxError{Col: itemCol, Msg: fmt.Sprintf("geometric range starts at %d: want 1 or more", lo)}
	}
	if op == '+' && (hi-lo)/step >= maxSweep {
		return nil, &SyntaxError{Col: itemCol, Msg: fmt.Sprintf("range has more than %d values", maxSweep)}
	}
	var out []int64
	for v := lo; v <= hi; {
		out = append(out, v)
		if op == '+' {
			if v > hi-step {
				break
			}
			v += step
		} else {
			if v > hi/step {
				break
			}
			v *= step
		}
	}
	return out, nil
}

// scanner reads s[i:end].
type scanner struct {
	s      string
	i, end int
}

func (sc *scanner) errf(format string, args ...any) error {
	return &SyntaxError{Col: sc.i + 1, Msg: fmt.Sprintf(format, args...)}
}

func (sc *scanner) space() {
	for sc.i < sc.end && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

func (sc *scanner) peek(t string) bool { return strings.HasPrefix(sc.s[sc.i:sc.end], t) }

// int reads a non-negative decimal integer.
func (sc *scanner) int() (int64, error) {
	j := sc.i
	for j < sc.end && sc.s[j] >= '0' && sc.s[j] <= '9' {
		j++
	}
	if j == sc.i {
		if sc.i == sc.end {
			return 0, sc.errf("want an integer, found the end")
		}
		return 0, sc.errf("want an integer, found %q", sc.s[sc.i:sc.i+1])
	}
	v, err := strconv.ParseInt(sc.s[sc.i:j], 10, 64)
	if err != nil {
		return 0, sc.errf("%s is out of range", sc.s[sc.i:j])
	}
	sc.i = j
	return v, nil
}
