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
	// A long option (getopt_long) that has a flag variable sets it to
	// flagVal (and the call returns 0); index is the option's place in
	// the table, -1 for a short option or an error.
	flag    string
	flagVal int64
	index   int64
}

// findLong is the entry a --name selects: its exact name, else the one
// option it abbreviates (several that agree in everything are one); -1
// where none or several do.
func findLong(longs []apt.LongOption, name string) int {
	k := -1
	for i, o := range longs {
		if o.Name == name {
			return i
		}
		if strings.HasPrefix(o.Name, name) {
			switch {
			case k < 0:
				k = i
			case longs[k].HasArg != o.HasArg || longs[k].Flag != o.Flag || longs[k].Val != o.Val:
				return -2 // ambiguous
			}
		}
	}
	return k
}

// getoptRun is the whole option scan of argv (argv[0] the program) under
// optstring: the calls' results in order, then argv as glibc leaves it
// (options first, operands after) and optind when it returns -1.
func getoptRun(argv []string, optstring string, longs []apt.LongOption) (steps []getoptStep, permuted []string, optind int64) {
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
		if longs != nil && len(w) > 2 && strings.HasPrefix(w, "--") {
			name, arg, eq := strings.Cut(w[2:], "=")
			opts = append(opts, w)
			i++
			k := findLong(longs, name)
			if k < 0 {
				steps = append(steps, getoptStep{c: '?', optind: int64(i), index: -1})
				continue
			}
			o := longs[k]
			st := getoptStep{c: o.Val, index: int64(k)}
			switch {
			case o.HasArg == 0 && eq:
				steps = append(steps, getoptStep{c: '?', optind: int64(i), index: -1})
				continue
			case o.HasArg != 0 && eq:
				st.optarg, st.hasArg = arg, true
			case o.HasArg == 1 && i < len(argv):
				st.optarg, st.hasArg = argv[i], true
				opts = append(opts, argv[i])
				i++
			case o.HasArg == 1:
				c := int64('?')
				if colon {
					c = ':'
				}
				steps = append(steps, getoptStep{c: c, optind: int64(i), index: -1})
				continue
			}
			if o.Flag != "" {
				st.c, st.flag, st.flagVal = 0, o.Flag, o.Val
			}
			st.optind = int64(i)
			steps = append(steps, st)
			continue
		}
		if len(w) < 2 || w[0] != '-' {
			if mode == '+' {
				break
			}
			i++
			if mode == '-' {
				opts = append(opts, w)
				steps = append(steps, getoptStep{c: 1, optarg: w, hasArg: true, optind: int64(i), index: -1})
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
				steps = append(steps, getoptStep{c: '?', optind: int64(i), index: -1})
				continue
			}
			if k+1 >= len(optstring) || optstring[k+1] != ':' {
				if last {
					i++
				}
				steps = append(steps, getoptStep{c: int64(ch), optind: int64(i), index: -1})
				continue
			}
			optional := k+2 < len(optstring) && optstring[k+2] == ':'
			switch {
			case !last:
				steps = append(steps, getoptStep{c: int64(ch), optarg: w[j+1:], hasArg: true, optind: int64(i + 1), index: -1})
			case optional:
				steps = append(steps, getoptStep{c: int64(ch), optind: int64(i + 1), index: -1})
			case i+1 < len(argv):
				opts = append(opts, argv[i+1])
				i++
				steps = append(steps, getoptStep{c: int64(ch), optarg: argv[i], hasArg: true, optind: int64(i + 1), index: -1})
			default:
				c := int64('?')
				if colon {
					c = ':'
				}
				steps = append(steps, getoptStep{c: c, optind: int64(i + 1), index: -1})
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
	var longs []apt.LongOption
	switch {
	case f.Name == "getopt" && len(f.Args) == 3:
	case f.Name == "getopt_long" && len(f.Args) == 5:
		t, ok := f.Args[3].(*apt.Const)
		if !ok || t.Kind != apt.ConstChar {
			return Value{}, false // a table the frontend could not read
		}
		if longs, ok = apt.ParseLongOptions(t.Text); !ok {
			return Value{}, false
		}
	default:
		return Value{}, false
	}
	if ev.args == nil || ev.argvKey == "" {
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
	steps, permuted, optind := getoptRun(argv, optstring, longs)
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
	if s.flag != "" {
		ev.setGlobal(s.flag, Known(symbolic.Int(s.flagVal)))
	}
	if s.index >= 0 && len(f.Args) == 5 {
		if _, null := f.Args[4].(*apt.Const); !null {
			ev.assign(f.Args[4], Known(symbolic.Int(s.index)))
		}
	}
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
