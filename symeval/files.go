package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/openfile"
	"github.com/mkvet/mkvet/symbolic"
)

// Files the program makes. A program may write a file and open it again to
// read it: an input deck it writes with its defaults when none is there,
// then opens with STATUS='OLD' as it would the user's. Which files exist is
// part of the state the evaluation carries, as the run carries it: the key
// fileKey(name) holds 1 for a file the program has made (an OPEN that
// creates it, internal/openfile) and 0 for one it has deleted, and the arms
// of an IF and the ranks of a run each carry their own copy. A file the
// program has not made is not read from disk: it is taken as absent, as
// io.go takes the program's optional inputs.

// fileKey is the environment key that says whether the file name exists.
func fileKey(name string) string { return "#file:" + openfile.Name(name) }

// ioWord returns the text of the control item kw= of an I/O statement:
// "" where it is absent, false where its value is not known.
func (ev *evaluator) ioWord(n *apt.IO, kw string) (string, bool) {
	e := keyword(n, kw)
	if e == nil {
		return "", true
	}
	return ev.cString(e)
}

// openMade evaluates an OPEN whose FILE=, STATUS= and ACTION= are known:
// one that creates a file records it (and is otherwise left to the
// caller, false), one of a file the program has made or deleted sets
// IOSTAT= as gfortran would there and takes ERR= when it fails (true).
func (ev *evaluator) openMade(n *apt.IO, parent *Occ) bool {
	file := keyword(n, "file")
	if file == nil {
		return false
	}
	name, ok1 := ev.cString(file)
	status, ok2 := ev.ioWord(n, "status")
	action, ok3 := ev.ioWord(n, "action")
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	k := fileKey(name)
	exists, made := ev.env.lookup(k)
	if replaces(status) || !made && openfile.Creates(status, action) && !ev.inRunDir(file) {
		// A new text: the file emptied, or made where there was none (an
		// OPEN of a file that is there leaves its text as it is).
		ev.startWrite(name)
	}
	if !made {
		if openfile.Creates(status, action) {
			ev.env.set(k, Known(symbolic.Int(1)))
		}
		return false
	}
	open := func(after bool) func(symbolic.Expr) (symbolic.Expr, bool) {
		return func(e symbolic.Expr) (symbolic.Expr, bool) {
			x, ok := e.Int64()
			if !ok {
				return symbolic.Expr{}, false
			}
			st, now := openfile.Open(status, action, x == 1)
			if after {
				return symbolic.Int(boolInt(now)), true
			}
			return symbolic.Int(st), true
		}
	}
	st, ok1 := lift1(exists, open(false))
	now, ok2 := lift1(exists, open(true))
	errLabel := keyword(n, "err")
	code, single := st.Single()
	if !ok1 || !ok2 || errLabel != nil && !single {
		return false // whether it is there depends on data: io.go's rule
	}
	ev.newOcc(n, parent)
	ev.env.set(k, now)
	if is := keyword(n, "iostat"); is != nil {
		ev.assign(is, st)
	}
	if errLabel != nil && !code.IsZero() {
		ev.jumpTo(apt.FormatExpr(errLabel), n)
	}
	return true
}

// inquireMade evaluates INQUIRE(FILE=, EXIST=) of a file the program has
// made or deleted.
func (ev *evaluator) inquireMade(n *apt.IO, parent *Occ) bool {
	exist, file := keyword(n, "exist"), keyword(n, "file")
	if exist == nil || file == nil {
		return false
	}
	name, ok := ev.cString(file)
	if !ok {
		return false
	}
	v, made := ev.env.lookup(fileKey(name))
	if !made {
		return false
	}
	ev.newOcc(n, parent)
	ev.assign(exist, v)
	return true
}

// closeFile evaluates what CLOSE(STATUS='DELETE') does to the file its
// unit is connected to; it runs before followUnit forgets the unit.
func (ev *evaluator) closeFile(n *apt.IO) {
	if n.Kind != apt.IOClose {
		return
	}
	status, ok := ev.ioWord(n, "status")
	if !ok || !openfile.Deletes(status) {
		return
	}
	u, ok := ev.unitOf(n.Unit)
	if !ok {
		return
	}
	if at, known := ev.unitAt(unitKey(u)); known {
		ev.env.set(fileKey(at.File), Known(symbolic.Int(0)))
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// replaces reports whether an OPEN with STATUS= status empties the file
// (REPLACE, NEW, SCRATCH), whether or not it was there.
func replaces(status string) bool {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "replace", "new", "scratch":
		return true
	}
	return false
}
