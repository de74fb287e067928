package symeval

import "github.com/mkvet/mkvet/frontend/apt"

// intrinsicSubs are Fortran's intrinsic subroutines (Fortran 2008 §13.7)
// whose results are data: the clock, the date, random numbers. A program
// that has no routine of the name calls the intrinsic; its outputs are
// values no run repeats, and its cost is the library's.
var intrinsicSubs = map[string]bool{
	"cpu_time": true, "system_clock": true, "date_and_time": true,
	"random_number": true, "random_seed": true, "get_command": true,
	"execute_command_line": true,
}

// extensionSubs are the GNU Fortran library's extension subroutines
// (gfortran's intrinsic procedures beyond the standard) that programs call:
// true for those whose arguments are all inputs (FLUSH(unit), SLEEP(s)),
// false for those that may set theirs (the time, a status). Their cost is
// the library's.
var extensionSubs = map[string]bool{
	"flush": true, "sleep": true, "perror": true,
	"system": false, "fdate": false, "getlog": false, "hostnm": false, "itime": false, "idate": false,
	"ltime": false, "gmtime": false, "dtime": false, "etime": false, "second": false, "chdir": false,
}

// intrinsicSub evaluates a call of an intrinsic subroutine: every variable
// passed to it may be set, to a value that varies from call to call. It
// reports whether c was one.
func (ev *evaluator) intrinsicSub(c *apt.Call) bool {
	if inputsOnly, ok := extensionSubs[c.Callee]; ok && ev.prog.Notation() == apt.Fortran && ev.prog.Routine(c.Callee) == nil {
		if inputsOnly {
			return true
		}
	} else if !intrinsicSubs[c.Callee] {
		return false
	}
	for _, a := range c.Args {
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		ev.touch(a)
		nm, ok := a.(*apt.Name)
		if !ok {
			continue
		}
		decl := ev.prog.Resolve(ev.frame().routine, nm.Name)
		v := unknownValue(nm.Name, "the value "+c.Callee+" gives "+nm.Name, decl == nil || decl.Type.Base != apt.TypeInteger)
		v.unk.varying = true
		ev.store(nm.Name, v)
	}
	return true
}
