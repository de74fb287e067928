package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/openfile"
	"github.com/mkvet/mkvet/symbolic"
)

// Input files read only when present. Real programs read an input deck when
// one exists and fall back to compiled-in defaults otherwise:
//
//	open (unit=3, file='inputlu.data', status='old', iostat=fstatus)
//	if (fstatus .eq. 0) then
//	   read (3, *) itmax ...
//	else
//	   itmax = itmax_default ...
//
// An OPEN with STATUS='OLD' that handles its own failure (IOSTAT= or ERR=),
// and INQUIRE(FILE=..., EXIST=...), find the file where the run would: in
// the run's directory (Options.Dir), where the OPEN succeeds and the READs
// after it read the file (readfile.go), or among the files the program made
// itself (files.go). A file in neither is absent: the program's own
// fallback is taken, its values are the defaults the source gives, and
// Result.Inputs says so. A program that opens a file without such a
// fallback needs it; what it reads is read from the file where the
// evaluation can, else stays parameters.

// missingIOStat is the IOSTAT= value of an OPEN of a missing file with
// STATUS='OLD' (internal/openfile).
const missingIOStat = openfile.Missing

// InputFile is a file the program reads only when it is present, which the
// evaluation took as absent, or an environment variable it reads, which the
// evaluation took as unset (environ.go).
type InputFile struct {
	Pos apt.Pos
	// Name is the file name as written (a constant, or the expression), or
	// the variable's name.
	Name string
	// How says what the program does when it is missing: "IOSTAT= fstatus",
	// "ERR= 100", "INQUIRE EXIST= found", "STATUS= ios".
	How string
	// Environment marks an environment variable.
	Environment bool
	// Required marks a file the program reads with no fallback (no
	// IOSTAT=, ERR= or END= for its absence) that the run's directory
	// does not hold: Pos is the OPEN that connects it, what is read from
	// it stays named values.
	Required bool
}

// keyword returns the value of the control item name= of an I/O statement.
func keyword(n *apt.IO, name string) apt.Expr {
	for _, c := range n.Control {
		if kw, ok := c.(*apt.Keyword); ok && kw.Name == name {
			return kw.Value
		}
	}
	return nil
}

func fileName(e apt.Expr) string {
	if c, ok := e.(*apt.Const); ok && c.Kind == apt.ConstChar {
		return c.Text
	}
	if e == nil {
		return "(no name)"
	}
	return apt.FormatExpr(e)
}

// openInput evaluates an OPEN or INQUIRE that tests whether an input file
// exists, and reports whether it was one.
func (ev *evaluator) openInput(n *apt.IO, parent *Occ) bool {
	switch n.Kind {
	case apt.IOOpen:
		if ev.openMade(n, parent) {
			return true
		}
		if ev.inRunDir(keyword(n, "file")) {
			// The file is there: the OPEN succeeds, as an OPEN without
			// a fallback (IOSTAT= 0, the unit at its first record).
			return false
		}
		st, ok := keyword(n, "status").(*apt.Const)
		if !ok || st.Kind != apt.ConstChar || !strings.EqualFold(strings.TrimSpace(st.Text), "old") {
			return false
		}
		iostat, errLabel := keyword(n, "iostat"), keyword(n, "err")
		if iostat == nil && errLabel == nil {
			return false
		}
		if iostat != nil && errLabel == nil && ev.failureStops(iostat, ev.rest) {
			// The program stops when the file is missing: it needs it
			// (an input deck the run must have), so it is taken as
			// present and what is read from it is input.
			ev.newOcc(n, parent)
			ev.assign(iostat, Known(symbolic.Int(0)))
			return true
		}
		in := InputFile{Pos: n.Span.Start(), Name: fileName(keyword(n, "file"))}
		ev.newOcc(n, parent)
		if iostat != nil {
			in.How = "IOSTAT= " + ev.src(iostat)
			ev.assign(iostat, Known(symbolic.Int(missingIOStat)))
		}
		if errLabel != nil {
			label := apt.FormatExpr(errLabel)
			if in.How == "" {
				in.How = "ERR= " + label
			}
			ev.addInput(in)
			ev.jumpTo(label, n)
			return true
		}
		ev.addInput(in)
		return true
	case apt.IOInquire:
		if op := keyword(n, "opened"); op != nil && keyword(n, "file") == nil {
			// INQUIRE(UNIT=u, OPENED=x): whether the program connected u
			// (a search for a free unit number).
			if u, ok := ev.unitOf(n.Unit); ok {
				if c, known := ev.connected(u); known {
					ev.newOcc(n, parent)
					ev.assign(op, Known(symbolic.Int(b2i(c))))
					return true
				}
			} else if !internalUnit(n.Unit) && n.Unit != nil {
				if v, ok := ev.openedValue(ev.value(n.Unit)); ok {
					ev.newOcc(n, parent)
					ev.assign(op, v)
					return true
				}
			}
		}
		exist, file := keyword(n, "exist"), keyword(n, "file")
		if exist == nil || file == nil {
			return false
		}
		if ev.inquireMade(n, parent) {
			return true
		}
		ev.newOcc(n, parent)
		if ev.inRunDir(file) {
			ev.assign(exist, Known(symbolic.Int(1)))
			return true
		}
		ev.assign(exist, Known(symbolic.Int(0)))
		how := "INQUIRE EXIST= " + ev.src(exist)
		if ev.prog.FromIR {
			// The frontend's INQUIRE stands for fopen's null result.
			how = "fopen returns NULL where it is missing"
		}
		name := fileName(file)
		if _, literal := file.(*apt.Const); !literal {
			name = "the file named by " + name
		}
		ev.addInput(InputFile{Pos: n.Span.Start(), Name: name, How: how})
		return true
	}
	return false
}

// inRunDir reports whether the file an OPEN or INQUIRE names is in the
// run's directory (Options.Dir), a deck-sized text the evaluation reads.
func (ev *evaluator) inRunDir(file apt.Expr) bool {
	if ev.dir == "" || file == nil {
		return false
	}
	name, ok := ev.cString(file)
	if !ok || strings.TrimSpace(name) == "" {
		return false
	}
	_, present := ev.fileRecords(strings.TrimSpace(name))
	return present
}

// failureStops reports whether the first statement of rest that tests the
// status variable st is an IF whose arm for a failure (st /= 0, st > 0,
// st .ne. 0) is an error exit of the program.
func (ev *evaluator) failureStops(st apt.Expr, rest []apt.Node) bool {
	name := apt.FormatExpr(st)
	for _, n := range rest {
		f, ok := n.(*apt.If)
		if !ok {
			if mentionsName(n, name) {
				return false
			}
			continue
		}
		for _, b := range f.Branches {
			bin, ok := b.Cond.(*apt.Binary)
			if !ok || apt.FormatExpr(bin.X) != name {
				continue
			}
			c, isConst := bin.Y.(*apt.Const)
			if !isConst || c.Text != "0" || (bin.Op != apt.OpNe && bin.Op != apt.OpGt) {
				continue
			}
			return ev.stops(b.Body) || ev.jumpsToStop(b.Body)
		}
		return false
	}
	return false
}

// mentionsName reports whether a statement mentions the variable name.
func mentionsName(n apt.Node, name string) bool {
	found := false
	apt.Inspect(n, func(m apt.Node) bool {
		if b, ok := m.(*apt.Block); ok {
			for _, st := range b.Stmts {
				for _, e := range append([]apt.Expr{st.Target, st.Value, st.Mask}, st.Args...) {
					apt.InspectExpr(e, func(x apt.Expr) bool {
						if nm, ok := x.(*apt.Name); ok && nm.Name == name {
							found = true
						}
						return !found
					})
				}
			}
		}
		return !found
	})
	return found
}

func (ev *evaluator) addInput(in InputFile) {
	for _, x := range ev.res.Inputs {
		if x.Pos == in.Pos || in.Required && x.Required && x.Name == in.Name {
			return
		}
	}
	ev.res.Inputs = append(ev.res.Inputs, in)
}

// b2i is 1 for true, 0 for false: a LOGICAL value.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
