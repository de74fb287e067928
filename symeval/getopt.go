package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// A C program's option loop, while ((c = getopt(argc, argv, "n:i:v")) !=
// -1) switch (c) { case 'n': n = atoi(optarg); ... }, is evaluated as the C
// library runs it on the arguments Options.Args gives: each call returns
// the next option character and leaves its argument in optarg, and the
// last returns -1 with optind at the first operand. glibc's rules are
// followed (POSIX getopt, plus its reordering of operands after the
// options unless the option string starts with '+').

// getoptKey holds how many calls of getopt the run has made: the state
// lives in the environment, so that a probe or a branch has its own.
const getoptKey = "\x00getopt\x00calls"

// getoptStep is what one call of getopt returns and leaves.
type getoptStep struct {
	c      int64  // the option character, '?', ':' or 1 (an operand in '-' mode)
	optarg string // the option's argument
	hasArg bool   // optarg is set (else NULL)
	optind int64  // optind after the call
}

// getoptRun is the whole option scan of argv (argv[0] the program) under
// optstring: the calls' results in order, then argv as glibc leaves it
// (options first, operands after) and optind when it returns -1.
func getoptRun(argv []string, optstring string) (steps []getoptStep, permuted []string, optind int64) {
	mode := byte(0)
	if optstring != "" && (optstring[0] == '+' || optstring[0] == '-') {
		mode, optstring = optstring[0], optstring[1:]
	}
	colon := strings.HasPrefix(optstring, ":")
	var opts, operands []string
	i := 1
	for i < len(argv) {
		w := argv[i]
		if w == "--" {
			opts = append(opts, w)
			i++
			break
		}
		if len(w) < 2 || w[0] != '-' {
			if mode == '+' {
				break
			}
			i++
			if mode == '-' {
				opts = append(opts, w)
				steps = append(steps, getoptStep{c: 1, optarg: w, hasArg: true, optind: int64(i)})
				continue
			}
			operands = append(operands, w)
			continue
		}
		opts = append(opts, w)
		for j := 1; j < len(w); j++ {
			ch := w[j]
			last := j == len(w)-1
			k := strings.IndexByte(optstring, ch)
			if k < 0 || ch == ':' {
				if last {
					i++
				}
				steps = append(steps, getoptStep{c: '?', optind: int64(i)})
				continue
			}
			if k+1 >= len(optstring) || optstring[k+1] != ':' {
				if last {
					i++
				}
				steps = append(steps, getoptStep{c: int64(ch), optind: int64(i)})
				continue
			}
			optional := k+2 < len(optstring) && optstring[k+2] == ':'
			switch {
			case !last:
				steps = append(steps, getoptStep{c: int64(ch), optarg: w[j+1:], hasArg: true, optind: int64(i + 1)})
			case optional:
				steps = append(steps, getoptStep{c: int64(ch), optind: int64(i + 1)})
			case i+1 < len(argv):
				opts = append(opts, argv[i+1])
				i++
				steps = append(steps, getoptStep{c: int64(ch), optarg: argv[i], hasArg: true, optind: int64(i + 1)})
			default:
				c := int64('?')
				if colon {
					c = ':'
				}
				steps = append(steps, getoptStep{c: c, optind: int64(i + 1)})
			}
			i++
			break
		}
	}
	if mode == '+' {
		return steps, argv, int64(i)
	}
	permuted = append([]string{argv[0]}, opts...)
	optind = int64(len(permuted))
	permuted = append(permuted, operands...)
	permuted = append(permuted, argv[i:]...)
	return steps, permuted, optind
}

// getopt evaluates a call getopt(argc, argv, optstring) of the program's
// main arguments where they and the option string are known, and reports
// whether it did.
func (ev *evaluator) getopt(f *apt.FuncCall) (Value, bool) {
	if ev.args == nil || len(f.Args) != 3 || ev.argvKey == "" {
		return Value{}, false
	}
	if av, ok := f.Args[1].(*apt.Name); !ok || ev.key(av.Name) != ev.argvKey {
		return Value{}, false // a vector of the program's own making
	}
	if n, ok := ev.closedInt(ev.value(f.Args[0]), f.Pos).Single(); !ok || !n.Equal(symbolic.Int(int64(len(ev.args)+1))) {
		return Value{}, false
	}
	optstring, ok := ev.cString(f.Args[2])
	if !ok {
		return Value{}, false
	}
	argv := append([]string{"a.out"}, ev.args...)
	steps, permuted, optind := getoptRun(argv, optstring)
	k := int64(0)
	if v, ok := ev.env.lookup(getoptKey); ok {
		if e, ok := v.Single(); ok {
			k, _ = e.Int64()
		}
	}
	ev.assignKey(getoptKey, Known(symbolic.Int(k+1)))
	if k >= int64(len(steps)) {
		// The scan is over: the operands follow the options.
		ev.args = permuted[1:]
		ev.setGlobal("optind", Known(symbolic.Int(optind)))
		return Known(symbolic.Int(-1)), true
	}
	s := steps[k]
	ev.setGlobal("optind", Known(symbolic.Int(s.optind)))
	if s.hasArg {
		text := s.optarg
		ev.setGlobal("optarg", Value{str: &text})
	} else {
		ev.setGlobal("optarg", Known(symbolic.Int(0)))
	}
	return Known(symbolic.Int(s.c)), true
}

// setGlobal assigns a C library variable (optarg, optind) where the
// program declares it.
func (ev *evaluator) setGlobal(name string, v Value) {
	if ev.prog.Resolve(ev.frame().routine, name) != nil {
		ev.store(name, v)
	}
}
