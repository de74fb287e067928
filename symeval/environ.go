package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
)

// The process a program runs in: its environment variables and its
// command line, read through Fortran's intrinsic procedures with the
// semantics internal/runenv gives both this evaluation and aptrun.
//
// GET_ENVIRONMENT_VARIABLE reads Options.Env. A variable it does not set
// is unset, as in the run a user starts normally: STATUS 1, LENGTH 0,
// VALUE blank, and the program takes its own fallback (NPB's timers are
// off unless NPB_TIMER_FLAG is set), as it does for an optional input file
// that is absent (io.go); Result.Inputs says so. A program whose check of
// STATUS stops it when the variable is unset needs it: the variable is
// then taken as set, to a value the evaluation does not know.
//
// With Options.Args, COMMAND_ARGUMENT_COUNT is their number and
// GET_COMMAND_ARGUMENT gives them, and an internal READ of a value the
// evaluation knows (READ (arg, *) n) reads it. Without them the count is
// the parameter nargs and the arguments are values of the run.

// environment evaluates a call of GET_ENVIRONMENT_VARIABLE, and reports
// whether c was one.
func (ev *evaluator) environment(c *apt.Call) bool {
	if c.Callee != "get_environment_variable" {
		return false
	}
	arg := runenv.Actuals(c.Args, runenv.EnvironmentArgs)
	name, known := "", false
	if a := arg["name"]; a != nil {
		if v := ev.value(a); v.str != nil {
			name, known = *v.str, true
		}
	}
	trim := true
	if a := arg["trim_name"]; a != nil {
		if e, ok := ev.value(a).Single(); ok {
			trim = !e.IsZero()
		}
	}
	valueLen := int64(-1)
	if a := arg["value"]; a != nil {
		if n, ok := ev.charLen(a); ok {
			valueLen = n
		}
	}
	r := runenv.Variable(ev.environ, name, trim, valueLen)
	st := arg["status"]
	switch {
	case known && r.Status != runenv.StatusUnset:
		// A variable Options.Env sets: its value.
	case !known && len(ev.environ) > 0:
		// A variable of an environment that sets some, named by a value
		// the evaluation does not know: what it reads is of the run.
		ev.unknownResults(arg, "the environment variable "+ev.src(arg["name"]))
		return true
	case st != nil && ev.failureStops(st, ev.rest):
		// The program stops without it: it is taken as set, to a value
		// of the run.
		ev.unknownResults(arg, "the environment variable "+strings.TrimRight(name, " "))
		ev.assign(st, Known(symbolic.Int(runenv.StatusOK)))
		return true
	default:
		// Unset, as every variable Options.Env does not set.
		what := strings.TrimRight(name, " ")
		if !known {
			what = ev.src(arg["name"])
		}
		how := ""
		for _, out := range []string{"status", "length", "value"} {
			if a := arg[out]; a != nil {
				how = strings.ToUpper(out) + "= " + ev.src(a)
				break
			}
		}
		ev.addInput(InputFile{Pos: c.Span.Start(), Name: what, How: how, Environment: true})
	}
	ev.assignResult(arg, r)
	return true
}

// unknownResults assigns the outputs of a call of one of the intrinsic
// subroutines of runenv values of the run it reads what from.
func (ev *evaluator) unknownResults(arg map[string]apt.Expr, what string) {
	for _, out := range []string{"value", "length", "status"} {
		if a := arg[out]; a != nil {
			ev.assign(a, unknownValue(keyName(apt.FormatExpr(a)), "the "+out+" of "+what, false))
		}
	}
}

// assignResult assigns what one of the intrinsic subroutines of runenv
// returns to the actuals bound to VALUE, LENGTH and STATUS.
func (ev *evaluator) assignResult(arg map[string]apt.Expr, r runenv.Result) {
	if a := arg["value"]; a != nil {
		text := r.Value
		ev.assign(a, Value{str: &text})
	}
	if a := arg["length"]; a != nil {
		ev.assign(a, Known(symbolic.Int(r.Length)))
	}
	if a := arg["status"]; a != nil {
		ev.assign(a, Known(symbolic.Int(r.Status)))
	}
}

// commandArgument evaluates a call of GET_COMMAND_ARGUMENT (or GETARG),
// and reports whether c was one. Without the arguments (Options.Args), or
// with a NUMBER the evaluation does not know, what it returns is a value of
// the run; NUMBER is the program's own.
func (ev *evaluator) commandArgument(c *apt.Call) bool {
	var arg map[string]apt.Expr
	switch c.Callee {
	case "get_command_argument":
		arg = runenv.Actuals(c.Args, runenv.CommandArgs)
	case "getarg":
		arg = runenv.Actuals(c.Args, []string{"number", "value"})
	default:
		return false
	}
	unknown := func() bool {
		for _, out := range []string{"value", "length", "status"} {
			if a := arg[out]; a != nil {
				name := keyName(apt.FormatExpr(a))
				v := unknownValue(name, "the value of "+ev.src(a)+" after the call of "+c.Callee, out == "value")
				if out == "value" {
					if num, ok := ev.value(arg["number"]).Single(); ok {
						if k, ok := num.Int64(); ok && k > 0 {
							v.unk.argNum = k
						}
					}
				}
				ev.assign(a, v)
			}
		}
		return true
	}
	if ev.args == nil {
		return unknown()
	}
	num, ok := ev.value(arg["number"]).Single()
	if !ok {
		return unknown()
	}
	k, ok := num.Int64()
	if !ok {
		return unknown()
	}
	valueLen := int64(-1)
	if a := arg["value"]; a != nil {
		if n, ok := ev.charLen(a); ok {
			valueLen = n
		}
	}
	ev.assignResult(arg, runenv.Argument(ev.args, k, valueLen))
	return true
}

// readText evaluates an internal READ whose text the evaluation knows (a
// command-line argument, a constant, a line read from a file),
// list-directed, and reports whether it did: each item takes its datum as
// from a file (numbers, logicals, text cut or padded to its length, array
// elements and implied DOs), a null value leaves it as it is, IOSTAT= is
// 0.
func (ev *evaluator) readText(n *apt.IO) bool {
	if !internalUnit(n.Unit) || !listDirected(n.Format) {
		return false
	}
	text := ev.value(n.Unit).str
	if text == nil {
		return false
	}
	// The text is the internal file's one record (Fortran 2008 9.4):
	// its items as a file's, of any type input sets.
	steps, items, ok := ev.listItems(n)
	if !ok {
		return false
	}
	words, _, ok := runenv.ListRead([]string{*text}, 1, len(items))
	if !ok {
		return false // the end of the record: an error the program handles
	}
	vals, _, keep, ok := ev.listItemValues(n, items, words)
	if !ok {
		return false
	}
	ev.storeSteps(steps, vals, keep)
	if st := keyword(n, "iostat"); st != nil {
		ev.assign(st, Known(symbolic.Int(0)))
	}
	return true
}

// listDirected reports whether a READ's format is list-directed (*).
func listDirected(f apt.Expr) bool {
	_, star := f.(*apt.Star)
	return star
}
