package symbolic

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"weak"
)

// Expr is an exact symbolic expression in canonical normal form: a sum of terms,
// each an exact rational coefficient times a monomial, a product of atoms raised to
// integer powers. Atoms are symbols and the non-polynomial functions (floor, trunc,
// min, max, log2, sqrt, and the reciprocal of a sum). Equal canonical forms mean
// equal values, so Equal and String are structural.
//
// Exprs are immutable values; the zero Expr is the number 0. Operations never
// modify their operands, and Exprs may be shared between goroutines.
type Expr struct {
	t []term // sorted by monomial order, most significant first; no zero coefficients
}

// term is c * m.
type term struct {
	c Rat
	m []factor // sorted by atom order; exponents non-zero
}

// factor is a^e.
type factor struct {
	a *atom
	e int32
}

// atomKind says what an atom is. The order of the constants is the order in
// which atoms print inside a monomial (symbols before functions).
type atomKind uint8

const (
	kSym   atomKind = iota + 1 // a named symbol
	kConst                     // a named irrational constant (ln 2)
	kFloor                     // floor(arg)
	kTrunc                     // trunc(arg): rounding toward zero
	kMin                       // min(args...)
	kMax                       // max(args...)
	kLog2                      // log2(arg)
	kSqrt                      // sqrt(arg); exponent 1 only (see fixTerm)
	kRecip                     // the sum arg as an atom; appears only with negative exponents
	// The remainders are display only: the printer writes x - y*trunc(x/y)
	// as mod(x, y) (Fortran's MOD) and x - y*floor(x/y) as modulo(x, y)
	// (MODULO) in expressions it builds to print (displayMods); no
	// computed expression holds them.
	kMod    // mod(x, y)
	kModulo // modulo(x, y)
)

// atom is an interned indivisible part of a monomial. Structurally equal atoms are
// the same pointer, so atom equality is pointer equality.
type atom struct {
	kind atomKind
	name string // kSym, kConst
	real bool   // kSym: a real-valued symbol (symbols are integer-valued by default)
	args []Expr // functions; canonical
	key  string // interning key
	// integer reports whether the atom always takes integer values (for
	// floor(x) = x and the integer-part extraction of floor).
	integer bool
	// self is the expression a^1, made once when the atom is interned:
	// symbols and atoms become expressions all the time (Sym("n"), the
	// prover's fresh symbols), and Exprs are immutable, so all share it.
	self Expr
}

// interned maps each atom's key to the atom, weakly: an atom no expression
// refers to any more is collected and its entry removed, so that a long run
// (a fuzzer, a server) does not keep every atom it ever made. While an atom
// lives it is the only one with its key, which keeps atom equality pointer
// equality.
var interned = struct {
	sync.Mutex
	m map[string]weak.Pointer[atom]
}{m: make(map[string]weak.Pointer[atom])}

// intern returns the unique atom equal to a.
func intern(a *atom) *atom {
	var b strings.Builder
	b.WriteByte(byte('0' + a.kind))
	switch a.kind {
	case kSym, kConst:
		b.WriteString(a.name)
		if a.real {
			b.WriteString("'r")
		}
	default:
		for _, x := range a.args {
			b.WriteByte('(')
			x.writeKey(&b)
			b.WriteByte(')')
		}
	}
	a.key = b.String()
	interned.Lock()
	defer interned.Unlock()
	if wp, ok := interned.m[a.key]; ok {
		if old := wp.Value(); old != nil {
			return old
		}
	}
	a.self = Expr{t: []term{{c: RatInt(1), m: []factor{{a: a, e: 1}}}}}
	interned.m[a.key] = weak.Make(a)
	runtime.AddCleanup(a, forget, a.key)
	return a
}

// forget removes a collected atom's entry, unless a new atom took the key.
func forget(key string) {
	interned.Lock()
	defer interned.Unlock()
	if wp, ok := interned.m[key]; ok && wp.Value() == nil {
		delete(interned.m, key)
	}
}

// lookupAtom returns the live atom with the key, if any.
func lookupAtom(key string) (*atom, bool) {
	interned.Lock()
	defer interned.Unlock()
	if wp, ok := interned.m[key]; ok {
		if a := wp.Value(); a != nil {
			return a, true
		}
	}
	return nil, false
}

// Key returns a string that identifies e among canonical expressions: equal
// expressions have equal keys. It is much cheaper than String (atoms are
// written by their interned keys) and meant for maps, not for people.
func (e Expr) Key() string {
	var b strings.Builder
	e.writeKey(&b)
	return b.String()
}

// keyWriter takes a key's text: a strings.Builder that keeps it, or the
// hashes of a Fingerprint that only digest it.
type keyWriter interface {
	Write([]byte) (int, error)
	WriteByte(byte) error
	WriteString(string) (int, error)
}

// writeKey writes a string that identifies e among canonical expressions.
func (e Expr) writeKey(b keyWriter) {
	var buf [48]byte // numbers are formatted here, not into new strings
	for i, t := range e.t {
		if i > 0 {
			b.WriteByte('+')
		}
		if t.c.b != nil {
			b.WriteString(t.c.String())
		} else {
			n := strconv.AppendInt(buf[:0], t.c.n, 10)
			if d := t.c.den(); d != 1 {
				n = strconv.AppendInt(append(n, '/'), d, 10)
			}
			b.Write(n)
		}
		for _, f := range t.m {
			b.WriteString("*{")
			b.WriteString(f.a.key)
			b.WriteByte('}')
			if f.e != 1 {
				b.WriteByte('^')
				b.Write(strconv.AppendInt(buf[:0], int64(f.e), 10))
			}
		}
	}
}

func itoa(n int64) string { return RatInt(n).String() }

// cmpAtom orders atoms: symbols by name, then constants, then functions by kind
// and arguments. It is a total order on interned atoms.
func cmpAtom(a, b *atom) int {
	if a == b {
		return 0
	}
	if a.kind != b.kind {
		if a.kind < b.kind {
			return -1
		}
		return 1
	}
	switch a.kind {
	case kSym, kConst:
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if a.real != b.real {
			if !a.real {
				return -1
			}
			return 1
		}
		return 0
	}
	if len(a.args) != len(b.args) {
		if len(a.args) < len(b.args) {
			return -1
		}
		return 1
	}
	for i := range a.args {
		if c := Compare(a.args[i], b.args[i]); c != 0 {
			return c
		}
	}
	return 0
}

// cmpMono orders monomials for the canonical term order: graded lexicographic,
// higher total degree first, then by the exponent of the earliest atom. It
// returns -1 when x comes before y.
func cmpMono(x, y []factor) int {
	if xdeg, ydeg := monoDeg(x), monoDeg(y); xdeg != ydeg {
		if xdeg > ydeg {
			return -1
		}
		return 1
	}
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		if x[i].a == y[j].a {
			if x[i].e != y[j].e {
				if x[i].e > y[j].e {
					return -1
				}
				return 1
			}
			i++
			j++
			continue
		}
		// The monomial holding the earlier atom differs there from the other's 0.
		if cmpAtom(x[i].a, y[j].a) < 0 {
			if x[i].e > 0 {
				return -1
			}
			return 1
		}
		if y[j].e > 0 {
			return 1
		}
		return -1
	}
	if i < len(x) {
		if x[i].e > 0 {
			return -1
		}
		return 1
	}
	if j < len(y) {
		if y[j].e > 0 {
			return 1
		}
		return -1
	}
	return 0
}

func monoEqual(x, y []factor) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// Compare orders expressions totally (for sorting and canonical argument order).
// It has no arithmetic meaning.
func Compare(a, b Expr) int {
	for i := 0; i < len(a.t) && i < len(b.t); i++ {
		x, y := a.t[i], b.t[i]
		if c := cmpMono(x.m, y.m); c != 0 {
			return c
		}
		if c := x.c.Cmp(y.c); c != 0 {
			return -c // larger coefficient first
		}
	}
	// A list that extends the other sorts first, so constants (and 0, no terms at
	// all) come after the expressions they are added to.
	switch {
	case len(a.t) > len(b.t):
		return -1
	case len(a.t) < len(b.t):
		return 1
	}
	return 0
}

// Equal reports whether a and b are the same canonical expression, and so the
// same value wherever both are defined.
func Equal(a, b Expr) bool {
	if len(a.t) != len(b.t) {
		return false
	}
	for i := range a.t {
		if !monoEqual(a.t[i].m, b.t[i].m) || !a.t[i].c.Equal(b.t[i].c) {
			return false
		}
	}
	return true
}

// Equal reports whether e and f are the same canonical expression.
func (e Expr) Equal(f Expr) bool { return Equal(e, f) }

// Int returns the integer n.
func Int(n int64) Expr { return Const(RatInt(n)) }

// Frac returns the rational n/d. It panics if d is zero.
func Frac(n, d int64) Expr { return Const(RatFrac(n, d)) }

// Const returns the rational constant r.
func Const(r Rat) Expr {
	if r.IsZero() {
		return Expr{}
	}
	return Expr{t: []term{{c: r}}}
}

// Sym returns the integer-valued symbol name. Problem sizes, processor counts,
// ranks and loop variables are integers, which is what lets floor(N) = N.
func Sym(name string) Expr { return atomExpr(intern(&atom{kind: kSym, name: name, integer: true})) }

// RealSym returns the real-valued symbol name (machine constants, times).
func RealSym(name string) Expr { return atomExpr(intern(&atom{kind: kSym, name: name, real: true})) }

// Ln2 is the natural logarithm of 2, kept exact as a named constant.
var Ln2 = atomExpr(intern(&atom{kind: kConst, name: "ln2"}))

func atomExpr(a *atom) Expr {
	if a.self.t != nil {
		return a.self
	}
	return Expr{t: []term{{c: RatInt(1), m: []factor{{a: a, e: 1}}}}}
}

// IsZero reports whether e is the number 0.
func (e Expr) IsZero() bool { return len(e.t) == 0 }

// Const returns the value of e and true when e is a rational constant.
func (e Expr) Const() (Rat, bool) {
	switch {
	case len(e.t) == 0:
		return Rat{}, true
	case len(e.t) == 1 && len(e.t[0].m) == 0:
		return e.t[0].c, true
	}
	return Rat{}, false
}

// Int64 returns e as an int64 when it is an integer constant that fits.
func (e Expr) Int64() (int64, bool) {
	r, ok := e.Const()
	if !ok {
		return 0, false
	}
	return r.Int64()
}

// SymName returns the name of e and true when e is a single symbol.
func (e Expr) SymName() (string, bool) {
	if len(e.t) == 1 && len(e.t[0].m) == 1 && e.t[0].c.IsOne() && e.t[0].m[0].e == 1 && e.t[0].m[0].a.kind == kSym {
		return e.t[0].m[0].a.name, true
	}
	return "", false
}

// SplitConst returns e's terms other than its constant one, and its
// constant term: e = rest + c.
func (e Expr) SplitConst() (rest Expr, c Rat) {
	for i, t := range e.t {
		if len(t.m) > 0 {
			continue
		}
		if i == len(e.t)-1 {
			return Expr{t: e.t[:i:i]}, t.c
		}
		out := make([]term, 0, len(e.t)-1)
		return Expr{t: append(append(out, e.t[:i]...), e.t[i+1:]...)}, t.c
	}
	return e, RatInt(0)
}

// NumTerms returns the number of terms of e.
func (e Expr) NumTerms() int { return len(e.t) }

// Terms returns the terms of e in canonical order, each as an expression.
func (e Expr) Terms() []Expr {
	out := make([]Expr, len(e.t))
	for i, t := range e.t {
		out[i] = Expr{t: []term{t}}
	}
	return out
}

// isIntegerValued reports whether every term of e is an integer coefficient
// times integer atoms with non-negative exponents, so e is an integer wherever
// its symbols are.
func (e Expr) isIntegerValued() bool {
	for _, t := range e.t {
		if !t.c.IsInt() || !monoIntegral(t.m) {
			return false
		}
	}
	return true
}

// IsIntegerValued reports whether e takes integer values at every point where it
// is defined, as seen from its form (integer coefficients, integer atoms,
// non-negative exponents). False means "not known", not "never integer".
func (e Expr) IsIntegerValued() bool { return e.isIntegerValued() }

func monoIntegral(m []factor) bool {
	for _, f := range m {
		if f.e < 0 || !f.a.integer {
			return false
		}
	}
	return true
}

// Symbols returns the names of the symbols e depends on, sorted, including
// those inside function arguments.
func (e Expr) Symbols() []string {
	return e.appendSymbols(make([]string, 0, 4))
}

// VisitSymbols calls f with the name of each occurrence of a symbol in e
// (in any term, inside functions too; a name may come more than once). It
// makes no slice, for callers that gather the symbols of many forms.
func (e Expr) VisitSymbols(f func(string)) {
	e.visitAtoms(func(a *atom) {
		if a.kind == kSym {
			f(a.name)
		}
	})
}

// appendSymbols appends e's distinct symbols to dst, which must be sorted and
// distinct, and returns the sorted union. Expressions mention few symbols, so
// a sorted slice beats a set.
func (e Expr) appendSymbols(dst []string) []string {
	e.visitAtoms(func(a *atom) {
		if a.kind != kSym {
			return
		}
		if i, found := slices.BinarySearch(dst, a.name); !found {
			dst = slices.Insert(dst, i, a.name)
		}
	})
	return dst
}

// SingleSymbol returns e's one symbol when it has exactly one (in any
// term, inside functions too). It makes no slice: it is asked of many
// relations in the evaluation's hot paths.
func (e Expr) SingleSymbol() (string, bool) {
	name, n := "", 0
	e.countSymbols(&name, &n)
	return name, n == 1
}

// OnlySymbol reports whether every symbol of e is name (a constant has
// none, and passes).
func (e Expr) OnlySymbol(name string) bool {
	got, n := name, 1
	e.countSymbols(&got, &n)
	return n == 1
}

// countSymbols counts the distinct symbols of e into *n, up to 2, *name
// being the first; it stops at the second.
func (e Expr) countSymbols(name *string, n *int) {
	for _, t := range e.t {
		for _, fa := range t.m {
			if *n > 1 {
				return
			}
			a := fa.a
			if a.kind == kSym {
				if *n == 0 {
					*name, *n = a.name, 1
				} else if a.name != *name {
					*n = 2
					return
				}
			}
			for _, x := range a.args {
				x.countSymbols(name, n)
			}
		}
	}
}

// LinearOne returns x, a and b with e == a*x + b, when e has one symbol x,
// occurring only as x itself (not in a power or a function), and a and b
// are constants.
func (e Expr) LinearOne() (x string, a, b Rat, ok bool) {
	a, b = RatInt(0), RatInt(0)
	for _, t := range e.t {
		switch {
		case len(t.m) == 0:
			b = t.c
		case len(t.m) == 1 && t.m[0].e == 1 && t.m[0].a.kind == kSym && (x == "" || x == t.m[0].a.name):
			x, a = t.m[0].a.name, t.c
		default:
			return "", Rat{}, Rat{}, false
		}
	}
	return x, a, b, x != ""
}

// Has reports whether e depends on the symbol name.
func (e Expr) Has(name string) bool {
	found := false
	e.visitAtoms(func(a *atom) {
		if a.kind == kSym && a.name == name {
			found = true
		}
	})
	return found
}

// HasAny reports whether e mentions a symbol of names: one walk of e,
// where a Has per name would make one each.
func (e Expr) HasAny(names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	e.visitAtoms(func(a *atom) {
		if !found && a.kind == kSym && names[a.name] {
			found = true
		}
	})
	return found
}

// HasBigCoefficient reports whether a coefficient of e (at its top level)
// is a rational whose numerator or denominator does not fit in 64 bits: a
// value computed by long chains of real arithmetic (a random number
// generator's state) rather than a size.
func (e Expr) HasBigCoefficient() bool {
	for _, t := range e.t {
		if t.c.b != nil {
			return true
		}
	}
	return false
}

// Size returns the size of e's tree: its terms and their factors, with the
// factors of function arguments counted where they occur. It measures how
// large an expression has grown (a value recomputed in every iteration of a
// loop), not its cost to evaluate.
func (e Expr) Size() int {
	n := len(e.t)
	for _, t := range e.t {
		n += len(t.m)
		for _, fa := range t.m {
			for _, x := range fa.a.args {
				n += x.Size()
			}
		}
	}
	return n
}

// visitAtoms calls f for every atom of e, recursively through function arguments.
func (e Expr) visitAtoms(f func(*atom)) {
	for _, t := range e.t {
		for _, fa := range t.m {
			f(fa.a)
			for _, x := range fa.a.args {
				x.visitAtoms(f)
			}
		}
	}
}

// sortTerms puts ts into canonical order and merges equal monomials.
func sortTerms(ts []term) []term {
	slices.SortFunc(ts, func(x, y term) int { return cmpMono(x.m, y.m) })
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && monoEqual(out[n-1].m, t.m) {
			out[n-1].c = out[n-1].c.Add(t.c)
			if out[n-1].c.IsZero() {
				out = out[:n-1]
			}
			continue
		}
		if !t.c.IsZero() {
			out = append(out, t)
		}
	}
	return out
}

func monoDeg(m []factor) int32 {
	var d int32
	for _, f := range m {
		d += f.e
	}
	return d
}

// FuncAtoms returns the function atoms of e's terms (floor, trunc, min, max,
// log2, sqrt, reciprocals; not symbols), each once, as single-atom expressions,
// in canonical order. Atoms nested in arguments are not included.
func (e Expr) FuncAtoms() []Expr {
	var out []*atom
	for _, t := range e.t {
		for _, f := range t.m {
			if f.a.kind != kSym && f.a.kind != kConst && !slices.Contains(out, f.a) {
				out = append(out, f.a)
			}
		}
	}
	slices.SortFunc(out, cmpAtom)
	res := make([]Expr, len(out))
	for i, a := range out {
		res[i] = atomExpr(a)
	}
	return res
}

// AsFunc returns the function name and arguments of a single-atom expression
// ("floor", "trunc", "min", "max", "log2", "sqrt", "recip").
func (e Expr) AsFunc() (name string, args []Expr, ok bool) {
	a, ok := singleAtom(e)
	if !ok {
		return "", nil, false
	}
	name, ok = map[atomKind]string{kFloor: "floor", kTrunc: "trunc", kMin: "min", kMax: "max",
		kLog2: "log2", kSqrt: "sqrt", kRecip: "recip"}[a.kind]
	return name, slices.Clone(a.args), ok
}

// Replace returns e with every occurrence of the atom old (a single-atom
// expression such as floor(N/P)) replaced by v, inside function arguments too.
func (e Expr) Replace(old, v Expr) Expr {
	a, ok := singleAtom(old)
	if !ok {
		panic("symbolic: Replace of a non-atom " + old.String())
	}
	return e.mapAtoms(func(b *atom) (Expr, bool) {
		if b == a {
			return v, true
		}
		return Expr{}, false
	})
}

// mapAtoms rebuilds e with atoms replaced where f says so; function atoms are
// rebuilt from their mapped arguments.
func (e Expr) mapAtoms(f func(*atom) (Expr, bool)) Expr {
	memo := map[*atom]Expr{}
	var atomValue func(a *atom) (Expr, bool)
	var walk func(x Expr) Expr
	atomValue = func(a *atom) (Expr, bool) {
		if v, ok := memo[a]; ok {
			return v, true
		}
		if v, ok := f(a); ok {
			memo[a] = v
			return v, true
		}
		if len(a.args) == 0 {
			return Expr{}, false
		}
		args := make([]Expr, len(a.args))
		changed := false
		for i, x := range a.args {
			args[i] = walk(x)
			if !Equal(args[i], x) {
				changed = true
			}
		}
		if !changed {
			return Expr{}, false
		}
		v, err := rebuild(a.kind, args)
		if err != nil {
			return Expr{}, false
		}
		memo[a] = v
		return v, true
	}
	walk = func(x Expr) Expr { return mustSubstTerms(x, atomValue) }
	return walk(e)
}

// Coeff returns the coefficient of a single-term expression; ok is false for
// sums and 0.
func (e Expr) Coeff() (c Rat, ok bool) {
	if len(e.t) != 1 {
		return Rat{}, false
	}
	return e.t[0].c, true
}

// AtomSet gathers the distinct function atoms (floor, trunc, min, max,
// log2, sqrt, reciprocals) of expressions, nested ones included: a measure
// of how hard a set of constraints is to count, without building keys.
type AtomSet struct{ m map[*atom]struct{} }

// Add adds e's function atoms to s.
func (s *AtomSet) Add(e Expr) {
	e.visitAtoms(func(a *atom) {
		if a.kind == kSym || a.kind == kConst {
			return
		}
		if s.m == nil {
			s.m = map[*atom]struct{}{}
		}
		s.m[a] = struct{}{}
	})
}

// Len returns the number of distinct atoms added.
func (s *AtomSet) Len() int { return len(s.m) }

// WriteKeyRenamed writes e's key (Key) with every symbol s written as
// name(s): expressions equal up to a renaming of their symbols (a loop nest
// over cell_size_200 and one over cell_size_375) get equal keys under
// renamings that map them to the same names. The terms are in e's own
// canonical order, which depends on the names: equal keys mean equal
// expressions up to the renamings, while unequal keys may still be such.
func (e Expr) WriteKeyRenamed(b *strings.Builder, name func(string) string) {
	var buf [48]byte
	for i, t := range e.t {
		if i > 0 {
			b.WriteByte('+')
		}
		if t.c.b != nil {
			b.WriteString(t.c.String())
		} else {
			n := strconv.AppendInt(buf[:0], t.c.n, 10)
			if d := t.c.den(); d != 1 {
				n = strconv.AppendInt(append(n, '/'), d, 10)
			}
			b.Write(n)
		}
		for _, f := range t.m {
			b.WriteString("*{")
			writeAtomRenamed(b, f.a, name)
			b.WriteByte('}')
			if f.e != 1 {
				b.WriteByte('^')
				b.Write(strconv.AppendInt(buf[:0], int64(f.e), 10))
			}
		}
	}
}

// writeAtomRenamed writes a's interning key with its symbols renamed.
func writeAtomRenamed(b *strings.Builder, a *atom, name func(string) string) {
	b.WriteByte(byte('0' + a.kind))
	switch a.kind {
	case kSym:
		b.WriteString(name(a.name))
		if a.real {
			b.WriteString("'r")
		}
	case kConst:
		b.WriteString(a.name)
	default:
		for _, x := range a.args {
			b.WriteByte('(')
			x.WriteKeyRenamed(b, name)
			b.WriteByte(')')
		}
	}
}

// WriteKeyRenamed writes r's key (Key) with its symbols renamed; see
// Expr.WriteKeyRenamed.
func (r Relation) WriteKeyRenamed(b *strings.Builder, name func(string) string) {
	b.WriteByte(byte('0' + r.Op))
	r.E.WriteKeyRenamed(b, name)
}
