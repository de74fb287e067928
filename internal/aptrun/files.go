package aptrun

import (
	"fmt"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/openfile"
)

// Files the run makes and finds (Config.NoInputFiles, Config.Dir). The
// directory holds no file at the start, or the files of Config.Dir; an OPEN that creates its file (internal/openfile) makes it
// exist, CLOSE(STATUS='DELETE') removes it, and an OPEN of a file that is
// there or not sets IOSTAT= as gfortran does, the rules symeval/files.go
// follows.

// fileEffects runs what an OPEN or CLOSE does to the files of the run; it
// runs before followUnit, which forgets a closed unit's file.
func (e *engine) fileEffects(fr *frame, n *apt.IO) error {
	switch n.Kind {
	case apt.IOOpen:
		return e.openFile(fr, n)
	case apt.IOClose:
		status, err := e.ioWord(fr, n, "status")
		if err != nil || !openfile.Deletes(status) {
			return err
		}
		if u, ok := e.unitOf(fr, n.Unit); ok {
			if at, known := e.units[u]; known {
				e.made[at.File] = false
			}
		}
	}
	return nil
}

// openFile runs an OPEN: its IOSTAT= variable gets openfile.Open's value;
// an OPEN that fails without IOSTAT= would stop the program, which is an
// error here.
func (e *engine) openFile(fr *frame, n *apt.IO) error {
	pos := n.Span.Start()
	status, err := e.ioWord(fr, n, "status")
	if err != nil {
		return err
	}
	action, err := e.ioWord(fr, n, "action")
	if err != nil {
		return err
	}
	name, err := e.ioWord(fr, n, "file")
	if err != nil {
		return err
	}
	name = openfile.Name(name)
	exists, made := e.made[name]
	if !made && name != "" && e.cfg.Dir != "" && !e.cfg.NoInputFiles {
		_, exists = e.records(name) // the run's directory holds it
	}
	code, after := openfile.Open(status, action, name != "" && exists)
	if name != "" {
		e.made[name] = after
	}
	iostat := ioKeyword(n, "iostat")
	if iostat == nil {
		if code != 0 {
			return fmt.Errorf("%s: OPEN fails (IOSTAT %d) without IOSTAT=: the run needs its input file", pos, code)
		}
		return nil
	}
	l, err := e.locate(fr, iostat)
	if err != nil {
		return err
	}
	return e.assignLoc(l, intV(code), pos)
}

// ioWord evaluates the character control item kw= of an I/O statement; ""
// where it is absent.
func (e *engine) ioWord(fr *frame, n *apt.IO, kw string) (string, error) {
	for _, c := range n.Control {
		k, ok := c.(*apt.Keyword)
		if !ok || k.Name != kw {
			continue
		}
		v, err := e.eval(fr, k.Value)
		if err != nil {
			return "", err
		}
		if v.k != kChar {
			return "", fmt.Errorf("%s: %s= is not a character value", n.Span.Start(), kw)
		}
		return v.s, nil
	}
	return "", nil
}
