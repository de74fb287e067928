package llvmir

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// Which values are written into the one expression that uses them and
// which are statements of their own, and the names SSA values of one C
// variable share where their lives would interfere.

// decideInline marks the instructions whose expression is written into
// their one user instead of a statement of their own: pure, used once in
// their own block, without a source name (a C variable stays visible),
// and, for loads, with nothing between that may store.
func (x *fn) decideInline() {
	x.skipViews()
	for bi, b := range x.g.blocks {
		if x.g.order[bi] < 0 {
			continue
		}
		for ii, inst := range b.Insts {
			v, ok := inst.(value.Value)
			if !ok || isDbg(inst) || x.srcName[v] {
				continue
			}
			if _, sel := inst.(*ir.InstSelect); sel {
				continue // an IF of its own (instNodes)
			}
			if _, phi := inst.(*ir.InstPhi); phi || !pureInst(inst) {
				if c, ok := inst.(*ir.InstCall); !ok || !pureCall(c) {
					continue
				}
			}
			us := x.uses[v]
			if len(us) != 1 || us[0].block != bi {
				continue
			}
			if _, phi := us[0].user.(*ir.InstPhi); phi {
				continue
			}
			if _, isLoad := inst.(*ir.InstLoad); isLoad && !x.quiet(b, ii, us[0].index) {
				continue
			}
			if l, isLoad := inst.(*ir.InstLoad); isLoad && x.pointerLoad(l) {
				continue
			}
			x.inline[v] = true
		}
	}
	// Integer arithmetic that only feeds addresses is subscript work.
	for changed := true; changed; {
		changed = false
		for v, us := range x.uses {
			if x.addr[v] || !isIntArith(v) || len(us) == 0 {
				continue
			}
			all := true
			for _, u := range us {
				switch w := u.user.(type) {
				case *ir.InstGetElementPtr:
				case value.Value:
					if !x.addr[w] {
						all = false
					}
				default:
					all = false
				}
			}
			if all {
				x.addr[v], changed = true, true
			}
		}
	}
}

func isIntArith(v value.Value) bool {
	switch v.(type) {
	case *ir.InstAdd, *ir.InstSub, *ir.InstMul, *ir.InstShl, *ir.InstSExt, *ir.InstZExt, *ir.InstTrunc,
		*ir.InstSDiv, *ir.InstUDiv, *ir.InstSRem, *ir.InstURem, *ir.InstAShr, *ir.InstLShr:
		return true
	}
	return false
}

// quiet reports whether nothing between instructions from and to of b
// may store to memory.
func (x *fn) quiet(b *ir.Block, from, to int) bool {
	for i := from + 1; i < to && i < len(b.Insts); i++ {
		switch c := b.Insts[i].(type) {
		case *ir.InstStore:
			return false
		case *ir.InstCall:
			if !isDbg(c) && !pureCall(c) {
				return false
			}
		}
	}
	return true
}

// resolveInterference keeps one name per storage: values sharing a source
// name (a C variable's successive SSA values) keep it where their live
// ranges are disjoint, so out-of-SSA copies disappear and the APT reads
// like the source; where two overlap, the later one is renamed. Formals,
// the result and counted loops' variables are never shared.
func (x *fn) resolveInterference() {
	groups := map[string][]value.Value{}
	var order []value.Value
	for _, p := range x.f.Params {
		order = append(order, p)
	}
	for _, b := range x.g.rpo {
		for _, inst := range x.g.blocks[b].Insts {
			if v, ok := inst.(value.Value); ok && !isDbg(inst) {
				if _, named := x.names[v]; named && !x.inline[v] {
					order = append(order, v)
				}
			}
		}
	}
	for _, v := range order {
		groups[x.names[v]] = append(groups[x.names[v]], v)
	}
	// Formals are never shared (a C argument is a value: assigning its
	// name would write the caller's variable through Fortran's by-reference
	// binding), nor are variables that live in memory.
	reserved := map[string]value.Value{}
	for _, b := range x.g.rpo {
		for _, inst := range x.g.blocks[b].Insts {
			if a, ok := inst.(*ir.InstAlloca); ok {
				reserved[x.names[a]] = a
			}
		}
	}
	for _, p := range x.f.Params {
		reserved[x.names[p]] = p
	}
	for l, p := range x.plans {
		if p.kind == loopCounted {
			for _, v := range groups[x.names[p.iv]] {
				if v == value.Value(p.iv) || p.next != nil && v == value.Value(p.next.(value.Value)) {
					continue
				}
				if s, ok := x.site[v]; ok && l.blocks[s.block] {
					x.names[v] = x.uniq(x.names[v])
				}
			}
		}
	}
	live := map[value.Value]*liveness{}
	lv := func(v value.Value) *liveness {
		if r, ok := live[v]; ok {
			return r
		}
		r := x.liveness(v)
		live[v] = r
		return r
	}
	for _, v := range order {
		name := x.names[v]
		if x.result != "" && name == x.result {
			x.names[v] = x.uniq(name)
			if p, ok := v.(*ir.Param); ok {
				x.renameFormal(p, name)
			}
			continue
		}
		if _, mem := v.(*ir.InstAlloca); mem {
			continue
		}
		if r, ok := reserved[name]; ok && r != v && !x.aliasOf(v, r) {
			x.names[v] = x.uniq(name)
		}
	}
	groups = map[string][]value.Value{}
	for _, v := range order {
		if _, mem := v.(*ir.InstAlloca); !mem {
			groups[x.names[v]] = append(groups[x.names[v]], v)
		}
	}
	for _, name := range sortedNames(groups) {
		vs := groups[name]
		if len(vs) < 2 {
			continue
		}
		var kept []value.Value
		for _, v := range vs {
			clash := false
			for _, w := range kept {
				if x.interfere(v, w, lv) {
					clash = true
					break
				}
			}
			if clash {
				x.names[v] = x.uniq(name)
				continue
			}
			kept = append(kept, v)
		}
	}
}

func sortedNames(m map[string][]value.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// aliasOf reports whether v is the formal stored into the stack slot r.
func (x *fn) aliasOf(v, r value.Value) bool {
	p, ok := v.(*ir.Param)
	if !ok {
		return false
	}
	for _, u := range x.uses[p] {
		if st, ok := u.user.(*ir.InstStore); ok && x.skipStore[st] && stripCasts(st.Dst) == r {
			return true
		}
	}
	return false
}
