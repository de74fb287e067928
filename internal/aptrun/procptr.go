package aptrun

import (
	"fmt"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Procedure pointers. A name declared with PROCEDURE(iface), POINTER
// holds a procedure (a kProc value, proc nil while disassociated): its
// declaration's => gives the first one, p => name and NULLIFY change it,
// and CALL p(...) or p(...) calls the procedure it holds, as a dummy
// procedure's call does. symeval/procptr.go follows the same rules.

// procCell returns the storage of name when it is a procedure pointer or
// a dummy procedure seen from fr.
func (e *engine) procCell(fr *frame, name string, pos apt.Pos) (*cell, bool, error) {
	v := e.resolve(fr.r, name)
	if v == nil || !v.Dummy && !(v.Procedure && v.Pointer) {
		return nil, false, nil
	}
	c, err := e.cellOf(fr, name, pos)
	if err != nil {
		return nil, false, err
	}
	if c.v.k != kProc && v.Procedure && v.Pointer {
		// Never associated: no declaration's => gave it a target.
		c.v = value{k: kProc}
	}
	return c, c.v.k == kProc, nil
}

// procTarget evaluates the right side of p => target, or a procedure
// pointer's initial target: a routine, another procedure pointer or dummy
// procedure, or NULL() (nil).
func (e *engine) procTarget(fr *frame, x apt.Expr) (*apt.Routine, error) {
	switch t := x.(type) {
	case *apt.FuncCall:
		if t.Name == "null" && len(t.Args) == 0 {
			return nil, nil
		}
	case *apt.Name:
		if c, ok, err := e.procCell(fr, t.Name, t.Pos); err != nil || ok {
			if err != nil {
				return nil, err
			}
			return c.v.proc, nil
		}
		if r := e.findRoutine(fr.r, t.Name); r != nil {
			return r, nil
		}
	}
	return nil, fmt.Errorf("%s: %s is not a procedure", x.At(), exprString(x))
}

// pointProc runs p => target for a procedure pointer p; false when the
// statement's target is no procedure pointer.
func (e *engine) pointProc(fr *frame, s *apt.Stmt) (bool, error) {
	nm, ok := s.Target.(*apt.Name)
	if !ok {
		return false, nil
	}
	c, ok, err := e.procCell(fr, nm.Name, nm.Pos)
	if err != nil || !ok {
		return false, err
	}
	r, err := e.procTarget(fr, s.Value)
	if err != nil {
		return true, err
	}
	c.v = value{k: kProc, proc: r}
	return true, nil
}

// nullifyProcs disassociates the procedure pointers NULLIFY names.
func (e *engine) nullifyProcs(fr *frame, s *apt.Stmt) error {
	for _, a := range s.Args {
		nm, ok := a.(*apt.Name)
		if !ok {
			continue
		}
		c, ok, err := e.procCell(fr, nm.Name, nm.Pos)
		if err != nil {
			return err
		}
		if ok {
			c.v = value{k: kProc}
		}
	}
	return nil
}

// callThrough calls the procedure a procedure pointer or dummy procedure
// named name holds; false when name is neither.
func (e *engine) callThrough(fr *frame, name string, args []apt.Expr, pos apt.Pos) (value, bool, error) {
	c, ok, err := e.procCell(fr, name, pos)
	if err != nil || !ok {
		return value{}, false, err
	}
	if c.v.proc == nil {
		return value{}, true, fmt.Errorf("%s: call through %s, which is not associated with a procedure", pos, name)
	}
	v, err := e.callRoutine(fr, c.v.proc, args, pos)
	return v, true, err
}
