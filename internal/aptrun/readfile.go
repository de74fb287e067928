package aptrun

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
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
	u, ok := e.unitOf(fr, n.Unit)
	if !ok {
		return false, nil
	}
	at, ok := e.units[u]
	if !ok {
		return false, nil
	}
	recs, ok := e.records(at.File)
	if !ok {
		return false, nil
	}
	pos := n.Span.Start()
	cells := make([]*cell, len(n.Items))
	for i, it := range n.Items {
		nm, ok := it.(*apt.Name)
		if !ok || nm.Array {
			return false, nil
		}
		c, err := e.cellOf(fr, nm.Name, pos)
		if err != nil {
			return true, err
		}
		switch {
		case c.arr != nil:
			return false, nil
		case c.typ.Base == apt.TypeInteger, c.typ.Base == apt.TypeReal, c.typ.Base == apt.TypeLogical:
		default:
			return false, nil
		}
		cells[i] = c
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
		var v value
		switch c.typ.Base {
		case apt.TypeInteger:
			x, ok := runenv.Integer(words[i].Text)
			if !ok {
				return false, nil
			}
			v = intV(x)
		case apt.TypeLogical:
			b, ok := runenv.Logical(words[i].Text)
			if !ok {
				return false, nil
			}
			v = logV(b)
		default:
			r, ok := runenv.Real(words[i].Text)
			if !ok {
				return false, nil
			}
			f, _ := r.Float64()
			v = realV(f)
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
	for _, c := range n.Control {
		if k, ok := c.(*apt.Keyword); ok && k.Name == "iostat" {
			l, err := e.locate(fr, k.Value)
			if err != nil {
				return err
			}
			return e.assignLoc(l, intV(0), pos)
		}
	}
	return nil
}
