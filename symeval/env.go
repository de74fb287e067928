package symeval

import "strings"

// env is the evaluation's state: the value at each storage key. The
// evaluation copies it all the time (each arm of an IF walks a copy of
// the state before it, each run and probe works on a copy it throws
// away, each rank of a probe starts from a copy) and most copies change a
// few keys of the hundreds a whole program has. A copy is therefore a
// layer of its own over the state it was taken from, which is frozen and
// shared: taking one costs nothing, and its writes cost what they change.
//
// An *env behaves as a map would: aliases of the same *env see each
// other's writes, and clone gives an independent copy. Reads walk the
// layers down; past maxEnvDepth layers, those above the bottom one are
// merged (compact), so a read costs a few map lookups at most.
type env struct {
	top   map[string]envSlot // the writes since the last clone
	below *envLayer          // frozen; nil for a state with one layer
	// locals is shared by the copies of one evaluation's state: the
	// keys of each call's own variables (prefix "f<n>."), so that the
	// return deletes them without reading every key of the program.
	locals *frameKeys
	// bases, shared the same way, holds every key that some copy has
	// written a component under ("a" and "a%b" for "a%b%c"): withPrefix
	// of a key that is not among them has nothing to find, and a load of
	// a plain variable need not read every key of the state to learn it.
	bases map[string]bool
}

// frameKeys records, by call, the keys of the call's variables that any
// copy of the state has written.
type frameKeys map[string]map[string]bool

// note records k when it is a key of a call's variable.
func (f frameKeys) note(k string) {
	if len(k) < 3 || k[0] != 'f' || k[1] < '0' || k[1] > '9' {
		return
	}
	i := strings.IndexByte(k, '.')
	if i < 0 {
		return
	}
	m := f[k[:i+1]]
	if m == nil {
		m = map[string]bool{}
		f[k[:i+1]] = m
	}
	m[k] = true
}

// envSlot is a key's entry in a layer; gone marks a key deleted over a
// layer below that still has it.
type envSlot struct {
	v    Value
	gone bool
}

// envLayer is a frozen layer: never written again, shared by the copies
// taken over it.
type envLayer struct {
	m     map[string]envSlot
	below *envLayer
	depth int // layers under this one
}

// maxEnvDepth bounds the frozen layers under an env.
const maxEnvDepth = 6

func newEnv() *env {
	return &env{top: map[string]envSlot{}, locals: &frameKeys{}, bases: map[string]bool{}}
}

// empty returns an empty state that records the calls' keys with e.
func (e *env) empty() *env {
	return &env{top: map[string]envSlot{}, locals: e.locals, bases: e.bases}
}

// dropFrame deletes the keys of the call whose keys start with prefix
// ("f<n>."), which any copy of the state may have written.
func (e *env) dropFrame(prefix string) {
	for k := range (*e.locals)[prefix] {
		e.del(k)
	}
	delete(*e.locals, prefix)
}

// lookup is v, ok := m[k] of a map.
func (e *env) lookup(k string) (Value, bool) {
	if s, ok := e.top[k]; ok {
		return s.v, !s.gone
	}
	for l := e.below; l != nil; l = l.below {
		if s, ok := l.m[k]; ok {
			return s.v, !s.gone
		}
	}
	return Value{}, false
}

// get is m[k] of a map: the zero Value where k has none.
func (e *env) get(k string) Value {
	v, _ := e.lookup(k)
	return v
}

func (e *env) set(k string, v Value) {
	if _, ok := e.top[k]; !ok {
		e.locals.note(k)
		for i := strings.LastIndexByte(k, '%'); i > 0 && !e.bases[k[:i]]; i = strings.LastIndexByte(k[:i], '%') {
			e.bases[k[:i]] = true
		}
	}
	e.top[k] = envSlot{v: v}
}

func (e *env) del(k string) {
	if e.below == nil {
		delete(e.top, k)
		return
	}
	// Over layers that still have k, a mark; over layers that do not,
	// nothing.
	under := false
	for l := e.below; l != nil; l = l.below {
		if s, ok := l.m[k]; ok {
			under = !s.gone
			break
		}
	}
	if under {
		e.top[k] = envSlot{gone: true}
	} else {
		delete(e.top, k)
	}
}

// clone returns a copy of e. Both go on over the frozen layer that e's
// writes so far become.
func (e *env) clone() *env {
	if len(e.top) > 0 {
		depth := 0
		if e.below != nil {
			depth = e.below.depth + 1
		}
		l := &envLayer{m: e.top, below: e.below, depth: depth}
		if depth >= maxEnvDepth {
			l = l.compact()
		}
		e.top, e.below = map[string]envSlot{}, l
	}
	return &env{top: map[string]envSlot{}, below: e.below, locals: e.locals, bases: e.bases}
}

// compact returns a layer with l's entries and fewer layers under it.
// The layers on top are merged into one, down to at most half the depth
// and then on while the merged layer holds more keys than half the next
// one: the older, larger layers stay shared with the copies taken before
// (and changedKeys finds them in common with those copies, so a join
// reads only what the arms wrote), while the small recent ones cost one
// lookup together. Merging everything, the bottom included, once the top
// outgrew it, made every later join with an older copy read the whole
// state.
func (l *envLayer) compact() *envLayer {
	var ls []*envLayer
	for x := l; x != nil; x = x.below {
		ls = append(ls, x)
	}
	j := len(ls) - 1 - maxEnvDepth/2 // merge ls[0..j]
	n := 0
	for i := 0; i <= j; i++ {
		n += len(ls[i].m)
	}
	for j+2 < len(ls) && 2*n > len(ls[j+1].m) {
		j++
		n += len(ls[j].m)
	}
	if j+1 >= len(ls) {
		return &envLayer{m: l.flatten()}
	}
	m := make(map[string]envSlot, n)
	for i := 0; i <= j; i++ {
		for k, s := range ls[i].m {
			if _, ok := m[k]; !ok {
				m[k] = s
			}
		}
	}
	return &envLayer{m: m, below: ls[j+1], depth: ls[j+1].depth + 1}
}

// flatten is the keys l and the layers under it hold, in one map.
func (l *envLayer) flatten() map[string]envSlot {
	n := 0
	for x := l; x != nil; x = x.below {
		n = max(n, len(x.m))
	}
	out := make(map[string]envSlot, n)
	for x := l; x != nil; x = x.below {
		for k, s := range x.m {
			if _, ok := out[k]; !ok {
				out[k] = s
			}
		}
	}
	for k, s := range out {
		if s.gone {
			delete(out, k)
		}
	}
	return out
}

// all calls f on every key and its value, in no particular order, until f
// returns false. f may set or delete the key it is called on.
func (e *env) all(f func(k string, v Value) bool) {
	if e.below == nil {
		for k, s := range e.top {
			if !f(k, s.v) {
				return
			}
		}
		return
	}
	seen := map[string]bool{}
	visit := func(m map[string]envSlot) bool {
		for k, s := range m {
			if seen[k] {
				continue
			}
			seen[k] = true
			if !s.gone && !f(k, s.v) {
				return false
			}
		}
		return true
	}
	// The keys of the top layer are read first: f's writes go there.
	top := make([]string, 0, len(e.top))
	for k := range e.top {
		top = append(top, k)
	}
	for _, k := range top {
		s := e.top[k]
		seen[k] = true
		if !s.gone && !f(k, s.v) {
			return
		}
	}
	for l := e.below; l != nil; l = l.below {
		if !visit(l.m) {
			return
		}
	}
}

// withPrefix returns the keys that start with prefix, each once, in no
// particular order; a key deleted since may be among them.
func (e *env) withPrefix(prefix string) []string {
	if base, ok := strings.CutSuffix(prefix, "%"); ok && !e.bases[base] {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(m map[string]envSlot) {
		for k := range m {
			if strings.HasPrefix(k, prefix) && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	add(e.top)
	for l := e.below; l != nil; l = l.below {
		add(l.m)
	}
	return out
}

// changedKeys calls f on each key whose entry in e may differ from its
// entry in base (some more than once): the keys written in either above
// the layers they share, or where they share none every key of both.
func (e *env) changedKeys(base *env, f func(k string)) {
	// The layers they share: a layer's depth is the number under it, so
	// walking the deeper chain down meets the first common layer.
	x, y := e.below, base.below
	for x != y {
		switch {
		case x == nil:
			y = y.below
		case y == nil:
			x = x.below
		case x.depth > y.depth:
			x = x.below
		case y.depth > x.depth:
			y = y.below
		default:
			x, y = x.below, y.below
		}
	}
	common := x
	for _, v := range []*env{e, base} {
		for k := range v.top {
			f(k)
		}
		for l := v.below; l != common; l = l.below {
			for k := range l.m {
				f(k)
			}
		}
	}
}
