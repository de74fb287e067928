package aptrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/internal/runenv"
)

// readFile runs a list-directed READ of scalar variables from a unit
// connected to a file in Config.Dir, as the run does: the values of the
// record the unit is at and of the records after it while the items want
// values and no slash ended the input (runenv.ListRead), a null value
// leaving its item as it was; the unit then stands at the next record. It
// reports false, changing nothing, for every other READ, and for one the
// file cannot satisfy (the end of the file, a value not of the item's
// type): the values then come from Config.Params, as without a file.
func (e *engine) readFile(fr *frame, n *apt.IO) (bool, error) {
	if _, star := n.Format.(*apt.Star); !star || e.cfg.Dir == "" || len(n.Items) == 0 || len(n.Items) != len(n.Reads) {
		return false, nil
	}
	u, at, recs, ok := e.unitFile(fr, n)
	if !ok {
		return false, nil
	}
	pos := n.Span.Start()
	cells, ok, err := e.scalarCells(fr, n, pos)
	if !ok || err != nil {
		return err != nil, err
	}
	for _, c := range cells {
		switch c.typ.Base {
		case apt.TypeInteger, apt.TypeReal, apt.TypeLogical:
		case apt.TypeCharacter:
			if c.clen < 0 {
				return false, nil
			}
		default:
			return false, nil
		}
	}
	if at.Record > int64(len(recs)) {
		// Past the last record: with IOSTAT=, gfortran's end of file
		// (-1), the items unchanged; without, the run would stop.
		return e.readStatus(fr, n, pos, -1)
	}
	words, next, ok := runenv.ListRead(recs, int(at.Record), len(n.Items))
	if !ok {
		return false, nil
	}
	vals := make([]*value, len(cells))
	for i, c := range cells {
		if i >= len(words) || words[i].Text == "" {
			continue
		}
		v, ok := listDatum(words[i].Text, c.typ.Base)
		if !ok {
			return false, nil
		}
		vals[i] = &v
	}
	for i, c := range cells {
		if vals[i] == nil || c.fixed {
			continue // null, after a slash, or a parameter's value
		}
		if err := e.store(c, *vals[i], pos); err != nil {
			return true, err
		}
	}
	at.Record = int64(next)
	e.units[u] = at
	return true, e.readOK(fr, n, pos)
}

// unitFile returns the unit a READ reads, where it is and the records of
// its file in Config.Dir; false when any is not known.
func (e *engine) unitFile(fr *frame, n *apt.IO) (u int64, at readpos.Unit, recs []string, ok bool) {
	if u, ok = e.readUnit(fr, n); !ok {
		return 0, at, nil, false
	}
	if at, ok = e.units[u]; !ok {
		return 0, at, nil, false
	}
	recs, ok = e.records(at.File)
	return u, at, recs, ok
}

// maxInputBytes bounds an input file the run reads (symeval's bound).
const maxInputBytes = 1 << 20

// records returns the records of the input file name in Config.Dir.
func (e *engine) records(name string) ([]string, bool) {
	if recs, seen := e.inputs[name]; seen {
		return recs, recs != nil
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.cfg.Dir, name)
	}
	var recs []string
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= maxInputBytes {
		if b, err := os.ReadFile(path); err == nil {
			if recs = runenv.Records(string(b)); recs == nil {
				recs = []string{}
			}
		}
	}
	if e.inputs == nil {
		e.inputs = map[string][]string{}
	}
	e.inputs[name] = recs
	return recs, recs != nil
}

// openedName is the file an OPEN names by a character value, where FILE=
// is no constant (symeval's openedName).
func (e *engine) openedName(fr *frame, n *apt.IO) (string, bool) {
	for _, c := range n.Control {
		if k, ok := c.(*apt.Keyword); ok && k.Name == "file" {
			v, err := e.eval(fr, k.Value)
			if err != nil || v.k != kChar || strings.TrimSpace(v.s) == "" {
				return "", false
			}
			return strings.TrimSpace(v.s), true
		}
	}
	return "", false
}

// readOK sets the IOSTAT= variable of a READ that read what it asked for
// to 0, when it has one.
func (e *engine) readOK(fr *frame, n *apt.IO, pos apt.Pos) error {
	_, err := e.readStatus(fr, n, pos, 0)
	return err
}

// readStatus sets a READ's IOSTAT= variable to code and reports whether
// the READ has one (an end of file without it is not run here).
func (e *engine) readStatus(fr *frame, n *apt.IO, pos apt.Pos, code int64) (bool, error) {
	for _, c := range n.Control {
		if k, ok := c.(*apt.Keyword); ok && k.Name == "iostat" {
			l, err := e.locate(fr, k.Value)
			if err != nil {
				return true, err
			}
			return true, e.assignLoc(l, intV(code), pos)
		}
	}
	return false, nil
}

// readNamelist runs a READ with NML=group from a unit connected to a file
// in Config.Dir (runenv.NamelistRead): each scalar the input names takes
// its value, the others keep theirs. Without the file, each variable of
// the group Config.Params names takes that value (symeval makes them
// parameters). It reports false for a READ without NML=.
func (e *engine) readNamelist(fr *frame, n *apt.IO) (bool, error) {
	var group string
	for _, c := range n.Control {
		if k, ok := c.(*apt.Keyword); ok && k.Name == "nml" {
			if nm, ok := k.Value.(*apt.Name); ok {
				group = nm.Name
			}
		}
	}
	if group == "" {
		return false, nil
	}
	g := e.namelist(fr, group)
	if g == nil {
		return false, nil
	}
	pos := n.Span.Start()
	if done, err := e.readNamelistFile(fr, n, g); done || err != nil {
		return true, err
	}
	for _, name := range g.Vars {
		c, err := e.cellOf(fr, name, pos)
		if err != nil {
			return true, err
		}
		if c.fixed || c.arr != nil {
			continue
		}
		x, ok := e.cfg.Params[name]
		if !ok {
			return true, fmt.Errorf("%s: READ of namelist %s: no value for %s in Config.Params", pos, group, name)
		}
		if err := e.store(c, intV(x), pos); err != nil {
			return true, err
		}
	}
	return true, nil
}

// namelist finds a group in the routine running or a module.
func (e *engine) namelist(fr *frame, name string) *apt.Namelist {
	if fr.r != nil && fr.r.Scope != nil {
		if g := fr.r.Scope.FindNamelist(name); g != nil {
			return g
		}
	}
	for _, r := range e.prog.Routines {
		if r.Kind == apt.KindModule && r.Scope != nil {
			if g := r.Scope.FindNamelist(name); g != nil {
				return g
			}
		}
	}
	return nil
}

// readNamelistFile reads the group's input from the file of the unit,
// false (changing nothing) when there is none or it names what the
// interpreter does not set by name (an element, a component, an array).
func (e *engine) readNamelistFile(fr *frame, n *apt.IO, g *apt.Namelist) (bool, error) {
	if e.cfg.Dir == "" {
		return false, nil
	}
	u, at, recs, ok := e.unitFile(fr, n)
	if !ok {
		return false, nil
	}
	items, next, ok := runenv.NamelistRead(recs, int(at.Record), g.Name)
	if !ok {
		return false, nil
	}
	pos := n.Span.Start()
	inGroup := map[string]bool{}
	for _, v := range g.Vars {
		inGroup[v] = true
	}
	cells := make([]*cell, len(items))
	offs := make([][]int64, len(items))
	for i, it := range items {
		name, subs, isElem := strings.Cut(it.Name, "(")
		if !inGroup[name] || strings.Contains(it.Name, "%") {
			return false, nil
		}
		c, err := e.cellOf(fr, name, pos)
		if err != nil {
			return true, err
		}
		if c.arr == nil && (isElem || len(it.Values) > 1) {
			return false, nil
		}
		switch {
		case c.arr != nil:
			// The elements the object designates, in array element
			// order, take the values in turn (Fortran 2008 10.11.3.3).
			a := c.arr
			if !a.alloc || a.dt != nil || (a.elem.Base != apt.TypeInteger && a.elem.Base != apt.TypeLogical && a.elem.Base != apt.TypeReal) {
				return false, nil
			}
			o, ok := nmlOffsets(a, subs, isElem)
			if !ok || len(it.Values) > len(o) {
				return false, nil
			}
			offs[i] = o
		case c.typ.Base == apt.TypeCharacter:
			if c.clen < 0 {
				return false, nil
			}
		case c.typ.Base != apt.TypeInteger && c.typ.Base != apt.TypeReal && c.typ.Base != apt.TypeLogical:
			return false, nil
		}
		cells[i] = c
	}
	for i, it := range items {
		c := cells[i]
		if c.arr != nil {
			for k, text := range it.Values {
				if text == "" {
					continue
				}
				v, ok := listDatum(text, c.arr.elem.Base)
				if !ok {
					return false, nil
				}
				if err := e.storeArray(c.arr, offs[i][k:k+1], v, pos); err != nil {
					return true, err
				}
			}
			continue
		}
		if len(it.Values) == 0 || it.Values[0] == "" || c.fixed {
			continue
		}
		v, ok := listDatum(it.Values[0], c.typ.Base)
		if !ok {
			return false, nil
		}
		if err := e.store(c, v, pos); err != nil {
			return true, err
		}
	}
	at.Record = int64(next)
	e.units[u] = at
	return true, e.readOK(fr, n, pos)
}

// nmlOffsets is the offsets of the elements a namelist object designates
// in array a, in array element order: every element for the array's name,
// else those its subscripts select (integers, or lo:hi[:stride] of them
// with either bound left out).
func nmlOffsets(a *array, subs string, isElem bool) ([]int64, bool) {
	n := len(a.lo)
	sel := make([][]int64, n)
	parts := make([]string, n)
	if isElem {
		s, closed := strings.CutSuffix(subs, ")")
		parts = strings.Split(s, ",")
		if !closed || len(parts) != n {
			return nil, false
		}
	}
	total := int64(1)
	for d := range n {
		if a.ext[d] < 0 {
			return nil, false
		}
		lo, hi, st := a.lo[d], a.lo[d]+a.ext[d]-1, int64(1)
		f := strings.Split(parts[d], ":")
		if isElem {
			var vals []int64
			for k, t := range f {
				if t == "" {
					vals = append(vals, []int64{lo, hi, 1}[k])
					continue
				}
				x, err := strconv.ParseInt(t, 10, 64)
				if err != nil {
					return nil, false
				}
				vals = append(vals, x)
			}
			switch len(vals) {
			case 1:
				lo, hi = vals[0], vals[0]
			case 2:
				lo, hi = vals[0], vals[1]
			case 3:
				lo, hi, st = vals[0], vals[1], vals[2]
			default:
				return nil, false
			}
		}
		if st == 0 {
			return nil, false
		}
		for x := lo; st > 0 && x <= hi || st < 0 && x >= hi; x += st {
			if x < a.lo[d] || x >= a.lo[d]+a.ext[d] {
				return nil, false
			}
			sel[d] = append(sel[d], x-a.lo[d])
		}
		total *= int64(len(sel[d]))
		if total > 1<<16 {
			return nil, false
		}
	}
	// Column-major: the first subscript varies fastest.
	out := make([]int64, 0, total)
	at := make([]int, n)
	for range total {
		off, stride := int64(0), int64(1)
		for d := range n {
			off += sel[d][at[d]] * stride
			stride *= a.ext[d]
		}
		out = append(out, off)
		for d := range n {
			if at[d]++; at[d] < len(sel[d]) {
				break
			}
			at[d] = 0
		}
	}
	return out, true
}

// listDatum is the value a list-directed datum gives a variable of type
// base (a character datum's text, which the store pads or cuts to the
// variable's length).
func listDatum(text string, base apt.BaseType) (value, bool) {
	switch base {
	case apt.TypeCharacter:
		return charV(text), true
	case apt.TypeInteger:
		x, ok := runenv.Integer(text)
		return intV(x), ok
	case apt.TypeLogical:
		b, ok := runenv.Logical(text)
		return logV(b), ok
	}
	r, ok := runenv.Real(text)
	if !ok {
		return value{}, false
	}
	f, _ := r.Float64()
	return realV(f), true
}

// readFormatted runs a formatted READ of scalar variables under a format
// written in the program (a character constant, a FORMAT statement's
// label), as the run does (runenv.FormattedRead): from a unit connected to
// a file in Config.Dir, the unit then at the record after the last one
// read, or from the text of a character value (an internal file of one
// record). It reports false, changing nothing, for every other READ and
// for one the input cannot satisfy: the values then come from
// Config.Params, as without a file.
func (e *engine) readFormatted(fr *frame, n *apt.IO) (bool, error) {
	if len(n.Items) == 0 || len(n.Items) != len(n.Reads) {
		return false, nil
	}
	fm, ok := formatOf(fr, n)
	if !ok {
		return false, nil
	}
	pos := n.Span.Start()
	cells, ok, err := e.scalarCells(fr, n, pos)
	if !ok || err != nil {
		return err != nil, err
	}
	items := make([]runenv.Item, len(n.Items))
	for i, c := range cells {
		switch c.typ.Base {
		case apt.TypeInteger:
			items[i].Kind = runenv.KindInteger
		case apt.TypeReal:
			items[i].Kind = runenv.KindReal
		case apt.TypeLogical:
			items[i].Kind = runenv.KindLogical
		case apt.TypeCharacter:
			if c.clen < 0 {
				return false, nil
			}
			items[i] = runenv.Item{Kind: runenv.KindCharacter, Len: int(c.clen)}
		default:
			return false, nil
		}
	}
	var fields []runenv.Field
	if n.Unit != nil && apt.TypeOf(n.Unit).Base == apt.TypeCharacter {
		text, err := e.eval(fr, n.Unit)
		if err != nil || text.k != kChar {
			return false, err
		}
		if fields, _, ok = runenv.FormattedRead([]string{text.s}, 1, fm, items); !ok {
			return false, nil
		}
	} else {
		if e.cfg.Dir == "" {
			return false, nil
		}
		u, at, recs, ok := e.unitFile(fr, n)
		if !ok {
			return false, nil
		}
		if at.Record > int64(len(recs)) {
			return e.readStatus(fr, n, pos, -1) // gfortran's end of file
		}
		var next int
		if fields, next, ok = runenv.FormattedRead(recs, int(at.Record), fm, items); !ok {
			return false, nil
		}
		at.Record = int64(next)
		e.units[u] = at
	}
	for i, c := range cells {
		if c.fixed {
			continue // a parameter's value
		}
		var v value
		switch items[i].Kind {
		case runenv.KindInteger:
			v = intV(fields[i].Int)
		case runenv.KindReal:
			f, _ := fields[i].Real.Float64()
			v = realV(f)
		case runenv.KindLogical:
			v = logV(fields[i].Bool)
		default:
			v = charV(fields[i].Str)
		}
		if err := e.store(c, v, pos); err != nil {
			return true, err
		}
	}
	return true, e.readOK(fr, n, pos)
}

// formatOf is a READ's format where the program writes it (a character
// constant, a FORMAT statement's label: apt.Routine.FormatText).
func formatOf(fr *frame, n *apt.IO) (*runenv.Format, bool) {
	text, ok := fr.r.FormatText(n.Format)
	if !ok {
		return nil, false
	}
	fm, err := runenv.ParseFormat(text)
	return fm, err == nil
}

// scalarCells returns the cells of a READ's items, false (changing
// nothing) unless every item is a scalar variable.
func (e *engine) scalarCells(fr *frame, n *apt.IO, pos apt.Pos) ([]*cell, bool, error) {
	cells := make([]*cell, len(n.Items))
	for i, it := range n.Items {
		nm, ok := it.(*apt.Name)
		if !ok || nm.Array {
			return nil, false, nil
		}
		c, err := e.cellOf(fr, nm.Name, pos)
		if err != nil {
			return nil, false, err
		}
		if c.arr != nil {
			return nil, false, nil
		}
		cells[i] = c
	}
	return cells, true, nil
}
