package symbolic

import "sync"

// Evaluating an expression compiles it (Compile) and runs the compiled
// form once. Callers evaluate the same expression at many points: a loop
// nest's footprint and streams once per rank, a count at every process
// count of a sweep. The compiled forms of the expressions evaluated last
// are kept, so that a repeated evaluation costs what running the
// compiled form costs (at P = 1024, NPB MG's roofline compiled each
// footprint 1,024 times: three quarters of its check).

// evalMemoMax bounds the compiled forms kept; past it the memo starts
// afresh.
const evalMemoMax = 4096

// An Expr is immutable, so the first term's address and the number of
// terms identify its contents while the memo holds the expression (which
// keeps its terms from being collected and their memory reused).
type evalMemoKey struct {
	first *term
	n     int
}

type evalMemoEntry struct {
	e    Expr // held so that the key's address stays the expression's
	vars []string
	f    *Func
	err  error
}

var evalMemo = struct {
	sync.Mutex
	m map[evalMemoKey]*evalMemoEntry
}{}

// compiled returns e's symbols and e compiled over them, from the memo
// when e was compiled before.
func (e Expr) compiled() (vars []string, f *Func, err error) {
	if len(e.t) == 0 {
		return nil, nil, nil
	}
	key := evalMemoKey{first: &e.t[0], n: len(e.t)}
	evalMemo.Lock()
	ent, ok := evalMemo.m[key]
	evalMemo.Unlock()
	if ok {
		return ent.vars, ent.f, ent.err
	}
	vars = e.Symbols()
	f, err = e.Compile(vars)
	evalMemo.Lock()
	if evalMemo.m == nil || len(evalMemo.m) >= evalMemoMax {
		evalMemo.m = make(map[evalMemoKey]*evalMemoEntry)
	}
	evalMemo.m[key] = &evalMemoEntry{e: e, vars: vars, f: f, err: err}
	evalMemo.Unlock()
	return vars, f, err
}
