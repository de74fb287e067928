package symeval

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/symbolic"
)

// The same datum read twice. A program may read one value of its input
// file twice, on one process to size its process grid and again with the
// rest of its settings: the READ items that read the same datum (the same
// file, record and item, internal/readpos) get the same parameter. Where
// each unit is in its file is kept in the environment under unitKey, so
// that the arms of an IF, the ranks of a run and the probes of a loop each
// move their own copy; where the arms disagree, or a READ runs in a loop
// evaluated for all its iterations at once, the position is lost.

// unitKey is the environment key of the position of unit n.
func unitKey(n int64) string { return "#unit:" + strconv.FormatInt(n, 10) }

// connKey is the environment key that says whether unit n is connected
// (1) or not (0), after an OPEN or CLOSE of it; connSomeKey is set once an
// OPEN connected a unit whose number the evaluation does not know.
func connKey(n int64) string { return "#conn:" + strconv.FormatInt(n, 10) }

const connSomeKey = "#conn:?"

// connected reports whether unit n is connected, where the evaluation
// knows: after an OPEN or CLOSE of it, else not unless preconnected
// (gfortran's 0, 5 and 6) and no OPEN of an unknown unit came before.
func (ev *evaluator) connected(n int64) (bool, bool) {
	if v, ok := ev.env.lookup(connKey(n)); ok {
		c, known := v.Single()
		if !known {
			return false, false
		}
		return !c.IsZero(), true
	}
	if _, some := ev.env.lookup(connSomeKey); some {
		return false, false
	}
	return n == 0 || n == 5 || n == 6, true
}

// openedValue is the value INQUIRE(UNIT=u, OPENED=x) gives x, for a unit
// number u the evaluation may know only as an expression (the variable of
// a DO over unit numbers, looking for a free one): 1 where u is one of the
// units connected, 0 elsewhere; false where some OPEN connected a unit
// the evaluation does not know, or one's state is not known.
func (ev *evaluator) openedValue(u Value) (Value, bool) {
	if _, some := ev.env.lookup(connSomeKey); some || !u.IsKnown() {
		return Value{}, false
	}
	conn := map[int64]bool{0: true, 5: true, 6: true} // preconnected
	for _, k := range ev.env.withPrefix("#conn:") {
		if k == connSomeKey {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(k, "#conn:"), 10, 64)
		if err != nil {
			return Value{}, false
		}
		c, known := ev.env.get(k).Single()
		if !known {
			return Value{}, false
		}
		conn[n] = !c.IsZero()
	}
	var alts []Alt
	for _, a := range u.Alts {
		var is []counting.Formula
		for n, c := range conn {
			if c {
				is = append(is, rel(a.E, "==", symbolic.Int(n)))
			}
		}
		in := or(is...)
		alts = append(alts, Alt{Guard: and(a.Guard, in), E: symbolic.Int(1)}, Alt{Guard: and(a.Guard, not(in)), E: symbolic.Int(0)})
	}
	return Value{Alts: alts}, true
}

// stdinUnit is the unit standard input is preconnected to.
const stdinUnit = 5

// readUnit is the unit a READ reads: its UNIT=, where * is standard
// input, unit 5, when the run is given one (Options.Stdin).
func (ev *evaluator) readUnit(n *apt.IO) apt.Expr {
	if _, star := n.Unit.(*apt.Star); star && n.Kind == apt.IORead && ev.stdin != "" {
		return &apt.Const{Kind: apt.ConstInt, Text: strconv.Itoa(stdinUnit), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
	}
	return n.Unit
}

// unitOf returns the number of an external unit.
func (ev *evaluator) unitOf(e apt.Expr) (int64, bool) {
	if e == nil || internalUnit(e) {
		return 0, false
	}
	v, ok := ev.value(e).Single()
	if !ok {
		return 0, false
	}
	return v.Int64()
}

// unitAt returns the position of the unit whose key is k, where known.
func (ev *evaluator) unitAt(k string) (readpos.Unit, bool) {
	v, ok := ev.env.lookup(k)
	if !ok || v.str == nil {
		return readpos.Unit{}, false
	}
	return readpos.Decode(*v.str)
}

func (ev *evaluator) setUnit(k string, u readpos.Unit) {
	s := u.Encode()
	ev.env.set(k, Value{str: &s})
}

// loseUnit forgets where the unit whose key is k is.
func (ev *evaluator) loseUnit(k string) {
	ev.env.set(k, unknownValue("", "the position of a unit", false))
}

// newUnitKey counts the units OPEN(NEWUNIT=) connected.
const newUnitKey = "#newunit"

// newUnit gives the variable of an OPEN's NEWUNIT= a unit number of its
// own, as the run does: gfortran's, negative from -10 down, one per OPEN.
func (ev *evaluator) newUnit(n *apt.IO) {
	nu := keyword(n, "newunit")
	if n.Kind != apt.IOOpen || nu == nil || n.Unit != nil {
		return
	}
	k := int64(0)
	if v, ok := ev.env.lookup(newUnitKey); ok {
		if c, ok := v.Single(); ok {
			k, _ = c.Int64()
		}
	}
	ev.env.set(newUnitKey, Known(symbolic.Int(k+1)))
	ev.assign(nu, Known(symbolic.Int(-10-k)))
}

// followUnit evaluates what an OPEN, CLOSE, REWIND or BACKSPACE does to
// the position of its unit.
func (ev *evaluator) followUnit(n *apt.IO) {
	switch n.Kind {
	case apt.IOOpen, apt.IOClose, apt.IORewind, apt.IOBackspace:
	default:
		return
	}
	unit := n.Unit
	if unit == nil && n.Kind == apt.IOOpen {
		unit = keyword(n, "newunit") // the number newUnit gave it
	}
	u, ok := ev.unitOf(unit)
	if !ok {
		if n.Kind == apt.IOOpen && keyword(n, "newunit") == nil {
			// Some unit is connected: which, the evaluation does not
			// know (INQUIRE OPENED= no longer answers).
			ev.env.set(connSomeKey, Known(symbolic.Int(1)))
		}
		return
	}
	k := unitKey(u)
	at, known := ev.unitAt(k)
	switch n.Kind {
	case apt.IOOpen:
		ev.env.set(connKey(u), Known(symbolic.Int(1)))
	case apt.IOClose:
		ev.env.set(connKey(u), Known(symbolic.Int(0)))
	}
	switch n.Kind {
	case apt.IOOpen:
		if t := keyword(n, "text"); t != nil {
			// A C++ string stream: the string's text, a file of its own.
			if f, ok := ev.textFile(t); ok {
				ev.setUnit(k, readpos.Opened(f))
			} else {
				ev.loseUnit(k)
			}
		} else if f, ok := readpos.File(n); ok {
			ev.opened(n, readpos.Opened(f))
			ev.setUnit(k, readpos.Opened(f))
		} else if f, ok := ev.openedName(n); ok {
			ev.opened(n, readpos.Opened(f))
			ev.setUnit(k, readpos.Opened(f))
		} else {
			ev.loseUnit(k)
		}
	case apt.IOClose:
		if known {
			ev.loseUnit(k)
		}
	case apt.IORewind:
		if known {
			ev.setUnit(k, at.Rewound())
		}
	case apt.IOBackspace:
		if known {
			ev.setUnit(k, at.Backspaced())
		}
	}
}

// readData returns the datum each leading scalar item of a READ reads, by
// the name of its variable, and moves the unit past the record; nil where
// the unit's position is not known.
func (ev *evaluator) readData(n *apt.IO) map[string]string {
	u, ok := ev.unitOf(ev.readUnit(n))
	if !ok {
		return nil
	}
	k := unitKey(u)
	at, ok := ev.unitAt(k)
	if !ok {
		return nil
	}
	if len(ev.cur.vars) > 0 {
		// Another record on each iteration.
		ev.loseUnit(k)
		return nil
	}
	ev.setUnit(k, at.Next())
	isArray := func(name string) bool {
		d := ev.prog.Resolve(ev.frame().routine, name)
		return d == nil || d.IsArray() || d.Type.Base == apt.TypeDerived
	}
	out := map[string]string{}
	for i, name := range readpos.Items(n, isArray) {
		out[name] = at.Datum(i) // read twice in one READ: the last
	}
	return out
}

// readFrom says which file a READ reads where its unit is connected to a
// named one (" from params.dat"), and that the run's folder lacks it
// when it does: what a value the READ leaves unknown would have come
// from.
func (ev *evaluator) readFrom(n *apt.IO) string {
	u, ok := ev.unitOf(ev.readUnit(n))
	if !ok {
		return ""
	}
	at, ok := ev.unitAt(unitKey(u))
	if !ok || at.File == "" {
		return ""
	}
	if ev.dir != "" {
		if _, err := os.Stat(filepath.Join(ev.dir, at.File)); err != nil {
			return " from " + at.File + " (missing from the run's folder)"
		}
	}
	return " from " + at.File
}

// openedName is the file an OPEN names by a character value the
// evaluation knows (a name taken from the command line, passed to a
// routine that opens files), where FILE= is no constant.
func (ev *evaluator) openedName(n *apt.IO) (string, bool) {
	f := keyword(n, "file")
	if f == nil {
		return "", false
	}
	v := ev.value(f)
	if v.str == nil || strings.TrimSpace(*v.str) == "" {
		return "", false
	}
	return strings.TrimSpace(*v.str), true
}

// opened notes the OPEN n that connects the file of u, for the note on a
// file the run's directory does not hold (requireFile).
func (ev *evaluator) opened(n *apt.IO, u readpos.Unit) {
	if ev.openedAt == nil {
		ev.openedAt = map[string]apt.Pos{}
	}
	ev.openedAt[u.File] = n.Span.Start()
}
