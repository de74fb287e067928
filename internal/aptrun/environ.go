package aptrun

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/runenv"
)

// The process the program runs in (internal/runenv, whose semantics the
// symbolic evaluation shares): GET_ENVIRONMENT_VARIABLE reads Config.Env,
// where every variable it does not set is unset; with Config.Args,
// COMMAND_ARGUMENT_COUNT is their number, GET_COMMAND_ARGUMENT (and GETARG)
// gives them, and an internal READ of their text reads it.

// argumentCount is COMMAND_ARGUMENT_COUNT(): the number of Config.Args
// when given, else Config.Params["command_argument_count"] (0 by default).
func (e *engine) argumentCount() value {
	if e.cfg.Args != nil {
		return intV(runenv.ArgumentCount(e.cfg.Args))
	}
	return intV(e.cfg.Params["command_argument_count"])
}

// process runs a call of GET_ENVIRONMENT_VARIABLE, or of
// GET_COMMAND_ARGUMENT or GETARG with Config.Args, and reports whether n
// was one.
func (e *engine) process(fr *frame, n *apt.Call) (bool, error) {
	var arg map[string]apt.Expr
	var res func(valueLen int64) (runenv.Result, error)
	switch n.Callee {
	case "get_environment_variable":
		arg = runenv.Actuals(n.Args, runenv.EnvironmentArgs)
		res = func(valueLen int64) (runenv.Result, error) {
			name, err := e.eval(fr, arg["name"])
			if err != nil {
				return runenv.Result{}, err
			}
			trim := true
			if a := arg["trim_name"]; a != nil {
				t, err := e.eval(fr, a)
				if err != nil {
					return runenv.Result{}, err
				}
				trim = t.k != kLog || t.i != 0
			}
			return runenv.Variable(e.cfg.Env, name.s, trim, valueLen), nil
		}
	case "get_command_argument", "getarg":
		if e.cfg.Args == nil {
			return false, nil
		}
		arg = runenv.Actuals(n.Args, runenv.CommandArgs)
		res = func(valueLen int64) (runenv.Result, error) {
			k, err := e.evalInt(fr, arg["number"])
			if err != nil {
				return runenv.Result{}, err
			}
			return runenv.Argument(e.cfg.Args, k, valueLen), nil
		}
	default:
		return false, nil
	}
	valueLen := int64(-1)
	var value loc
	if a := arg["value"]; a != nil {
		l, err := e.locate(fr, a)
		if err != nil {
			return true, err
		}
		value, valueLen = l, charLen(l)
	}
	r, err := res(valueLen)
	if err != nil {
		return true, err
	}
	pos := n.Span.Start()
	if arg["value"] != nil {
		if err := e.assignLoc(value, charV(r.Value), pos); err != nil {
			return true, err
		}
	}
	for _, out := range []struct {
		name string
		v    int64
	}{{"length", r.Length}, {"status", r.Status}} {
		if a := arg[out.name]; a != nil {
			l, err := e.locate(fr, a)
			if err != nil {
				return true, err
			}
			if err := e.assignLoc(l, intV(out.v), pos); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// charLen is the length of a character scalar location, -1 when it has no
// fixed length.
func charLen(l loc) int64 {
	switch {
	case l.c == nil:
		return -1
	case l.sub:
		return max(l.shi-l.slo+1, 0)
	}
	return l.c.clen
}

// readText runs an internal READ, list-directed from the text of a
// character value (READ (arg, *) n) into INTEGER scalars, and reports
// whether it did: a null value leaves its variable as it is, IOSTAT= is
// 0. A READ it does not run reads its variables from Config.Params.
func (e *engine) readText(fr *frame, n *apt.IO) (bool, error) {
	if _, star := n.Format.(*apt.Star); !star || n.Unit == nil || apt.TypeOf(n.Unit).Base != apt.TypeCharacter ||
		len(n.Items) != len(n.Reads) {
		return false, nil
	}
	text, err := e.eval(fr, n.Unit)
	if err != nil || text.k != kChar {
		return false, err
	}
	words := runenv.ListValues(text.s)
	if len(words) < len(n.Items) {
		return false, nil
	}
	vals := make([]*int64, len(n.Items))
	for i, it := range n.Items {
		nm, ok := it.(*apt.Name)
		if !ok || nm.Array || nm.Type.Base != apt.TypeInteger {
			return false, nil
		}
		if words[i] == "" {
			continue
		}
		x, ok := runenv.Integer(words[i])
		if !ok {
			return false, nil
		}
		vals[i] = &x
	}
	pos := n.Span.Start()
	for i, it := range n.Items {
		if vals[i] == nil {
			continue
		}
		c, err := e.cellOf(fr, it.(*apt.Name).Name, pos)
		if err != nil {
			return true, err
		}
		if err := e.store(c, intV(*vals[i]), pos); err != nil {
			return true, err
		}
	}
	return true, e.readOK(fr, n, pos)
}
