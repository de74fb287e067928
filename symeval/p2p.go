package symeval

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Values through point-to-point messages. At a point (P a number) every
// send the evaluation meets is kept with what it knows of it: the path's
// conditions and loop variables, the sender's rank as the evaluation has
// it (the rank symbol, or a number when run rank by rank), the
// destination, the tag and the value sent. A receive then finds, for each
// rank of its path, the rank it receives from, and the first send kept
// that rank makes to it with a matching tag and that rank has not
// received yet (MPI's order between two ranks): the rank symbol set to the
// sender, a loop variable of the send solved from the destination, its
// conditions decided. The value received is that send's value there; the
// ranks' values become one value (closed forms in the rank where they
// differ). A receive from a rank whose send the evaluation has not met
// (a receive written before the send), from MPI_ANY_SOURCE, or where a
// send's conditions cannot be decided, is unknown, as before.

// maxSent bounds the sends kept: past it later receives are unknown (a
// program exchanging data for many steps has no set-up values left to
// carry, and matching would cost more than it gives).
const maxSent = 512

// sent is one send as the evaluation met it.
type sent struct {
	sender    symbolic.Expr
	conds     []counting.Formula
	vars      []string
	dest, tag Value
	// vals are the values sent, an element each (one for a scalar);
	// unknown where the value is not known, nil when none was kept.
	vals []Value
	// uncertain marks a send on a path taken with a frequency (a
	// condition on data): a receive it may match is not known.
	uncertain bool
	// count is the number of elements sent, tsize the bytes of one (0:
	// not known), for the status of the receive or probe that finds it.
	count Value
	tsize int64
	// destIdx is, where dest is a value per rank, the alternative each
	// rank takes; memo keeps what matching computed for each sending rank.
	destIdx []int32
	memo    *sentMemo
}

// mailbox holds the sends kept and which rank received each (taken, by
// index, sending rank and receiving rank: a send in a loop walked
// symbolically is one entry for every rank and trip; log in the order
// taken, for runs that are
// undone).
type mailbox struct {
	sent     []sent
	taken    map[[4]int64]bool
	log      [][4]int64
	poisoned map[[2]int64]bool // by (source, receiver)
	plog     [][2]int64
	full     bool
	// pending are the nonblocking receives posted (irecv.go), matched
	// those matched (mlog in that order).
	pending []pendingRecv
	matched map[int]bool
	mlog    []int
}

func newMailbox() *mailbox {
	return &mailbox{taken: map[[4]int64]bool{}, poisoned: map[[2]int64]bool{}, matched: map[int]bool{}}
}

// mailState is what a run snapshot keeps of the mailbox.
type mailState struct{ sent, log, plog, pending, mlog int }

func (ev *evaluator) mailState() mailState {
	if ev.mail == nil {
		return mailState{}
	}
	m := ev.mail
	return mailState{len(m.sent), len(m.log), len(m.plog), len(m.pending), len(m.mlog)}
}

func (ev *evaluator) restoreMail(s mailState) {
	m := ev.mail
	if m == nil {
		return
	}
	for _, k := range m.log[s.log:] {
		delete(m.taken, k)
	}
	for _, k := range m.plog[s.plog:] {
		delete(m.poisoned, k)
	}
	for _, i := range m.mlog[s.mlog:] {
		delete(m.matched, i)
	}
	m.sent, m.log, m.plog = m.sent[:s.sent], m.log[:s.log], m.plog[:s.plog]
	m.pending, m.mlog = m.pending[:s.pending], m.mlog[:s.mlog]
}

// keepSend records a point-to-point send of one element.
func (ev *evaluator) keepSend(c *apt.Comm) {
	if _, ok := ev.values[Size]; !ok || ev.probing > 0 || c.Send == nil || c.Send.Peer == nil {
		return
	}
	if ev.mail == nil {
		ev.mail = newMailbox()
	}
	m := ev.mail
	if m.full || len(m.sent) >= maxSent {
		m.full = true
		return
	}
	s := sent{sender: ev.world().rank.Alts[0].E, conds: slices.Clone(ev.cur.conds),
		vars: slices.Clone(ev.cur.vars), dest: ev.value(c.Send.Peer), tag: ev.tagValue(c.Send.Tag)}
	s.count, s.tsize = ev.value(c.Send.Count), int64(c.Send.TypeSize)
	if np := ev.values[Size]; len(s.dest.Alts) > 1 && rankGuards(s.dest) && np <= maxTabulatedP {
		if _, fixed := ev.values[Rank]; !fixed {
			s.destIdx, _ = ev.altsByRank(s.dest, np)
		}
	}
	if f, ok := ev.cur.factor.Int64(); !ok || f != 1 || ev.cur.inexact != "" || ev.inert > 0 {
		// Under a condition on data: whether it is made is not known.
		s.uncertain = true
	}
	if n, ok := ev.constCount(c.Send.Count); ok && n == 1 && integerType(c.Send.TypeName) {
		if v := ev.value(c.Send.Buffer); v.arr == nil && v.Fields == nil {
			s.vals = []Value{v}
		}
	} else if ok && n > 1 && n <= maxMessageElems && integerType(c.Send.TypeName) {
		if refs, ok := ev.elementRefs(c.Send.Buffer, n); ok {
			for _, ix := range refs {
				s.vals = append(s.vals, ev.value(ix))
			}
		}
	}
	s.memo = &sentMemo{}
	m.sent = append(m.sent, s)
}

// maxMessageElems bounds the elements of a message whose values are
// carried: a packed set-up message (sizes, a neighbour list), not data.
const maxMessageElems = 64

// elementRefs returns the n elements a message buffer holds from its
// start, where the buffer is a one-dimensional array (from its first
// element) or an element of one (from that element); false otherwise.
func (ev *evaluator) elementRefs(b apt.Expr, n int64) ([]*apt.Index, bool) {
	var name string
	var start apt.Expr
	var typ apt.Type
	var pos apt.Pos
	switch x := b.(type) {
	case *apt.Name:
		d := ev.prog.Resolve(ev.frame().routine, x.Name)
		if d == nil || len(d.Dims) != 1 || d.Dims[0].Deferred {
			return nil, false
		}
		name, start, typ, pos = x.Name, d.Dims[0].Lo, d.Type, x.Pos
		if start == nil {
			start = &apt.Const{Kind: apt.ConstInt, Text: "1", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
		}
	case *apt.Index:
		if x.Base != nil || len(x.Subs) != 1 {
			return nil, false
		}
		name, start, typ, pos = x.Name, x.Subs[0], x.Type, x.Pos
	default:
		return nil, false
	}
	out := make([]*apt.Index, n)
	for k := range n {
		off := &apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(k, 10), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
		out[k] = &apt.Index{Pos: pos, Name: name, Type: typ,
			Subs: []apt.Expr{&apt.Binary{Op: apt.OpAdd, X: start, Y: off}}}
	}
	return out, true
}

// integerType reports whether an MPI datatype holds integers or
// logicals: the values counts and control depend on (reals are the
// program's data, carried as unknowns).
func integerType(name string) bool {
	for _, p := range []string{"mpi_integer", "mpi_int", "mpi_long", "mpi_short", "mpi_unsigned", "mpi_logical", "mpi_c_bool", "mpi_2int"} {
		if strings.HasPrefix(name, p) && name != "mpi_long_double" {
			return true
		}
	}
	return false
}

func (ev *evaluator) tagValue(x apt.Expr) Value {
	if x == nil {
		return Known(symbolic.Int(0))
	}
	return ev.value(x)
}

// constCount returns a message count that is a number.
func (ev *evaluator) constCount(x apt.Expr) (int64, bool) {
	if x == nil {
		return 0, false
	}
	e, ok := ev.value(x).Single()
	if !ok {
		return 0, false
	}
	return e.Int64()
}

// receiveSent takes, for each rank of a receive's path, the first send
// kept that its source makes it, and returns the values a receive of
// INTEGER elements gets, one an element (false where any rank's is not
// known). Every receive at a point takes its sends, whatever it receives,
// so that the sends a later receive finds are the ones MPI's order gives
// it; a rank whose send is not found (not met yet, or its conditions not
// decided) makes later receives from that source unknown (poisoned), as
// the send it took may still be kept.
func (ev *evaluator) receiveSent(c *apt.Comm) ([]Value, bool) {
	sp, ok := ev.recvSpecOf(c)
	if !ok {
		return nil, false
	}
	out, ok, _, envs := ev.matchRecv(sp, false)
	if ok && debugRuns {
		fmt.Fprintf(os.Stderr, "receiveSent %s: %v (sent %d)\n", c.Span.Start(), out, len(ev.mail.sent))
	}
	ev.setStatus(c.Status, envs)
	return out, ok
}

// recvSpec is what a receive matches with: the ranks that make it, its
// source and tag, and how many elements it carries (want: the values are
// carried, a count of a few integers).
type recvSpec struct {
	ranks    []int64
	src, tag Value
	n        int64
	want     bool
}

// recvSpecOf is the receive c's spec on the current path; false where the
// evaluation does not match receives with sends here.
func (ev *evaluator) recvSpecOf(c *apt.Comm) (recvSpec, bool) {
	np, ok := ev.values[Size]
	if !ok || ev.probing > 0 || c.Recv == nil || np > maxTabulatedP {
		return recvSpec{}, false
	}
	if ev.mail == nil {
		ev.mail = newMailbox()
	}
	ranks, ok := ev.pathRanks(np)
	if !ok {
		ev.mail.full = true // which ranks receive is not known: stop matching
		return recvSpec{}, false
	}
	n, counted := ev.constCount(c.Recv.Count)
	return recvSpec{ranks: ranks, src: ev.value(c.Recv.Peer), tag: ev.tagValue(c.Recv.Tag), n: n,
		want: counted && n >= 1 && n <= maxMessageElems}, true
}

// matchRecv matches a receive's spec with the sends kept. With try set it
// changes nothing unless every rank's send is found (found false
// otherwise: a receive whose sends may still come).
func (ev *evaluator) matchRecv(sp recvSpec, try bool) (out []Value, ok, found bool, envs []envelope) {
	m := ev.mail
	np := ev.values[Size]
	want := sp.want && !m.full
	if try {
		for _, r := range sp.ranks {
			sub := map[string]symbolic.Expr{Rank: symbolic.Int(r)}
			s, ok1 := numberAt(sp.src, sub)
			t, ok2 := numberAt(sp.tag, sub)
			if ok1 && s == procNull {
				continue
			}
			if !ok1 || !ok2 || s < 0 || s >= np {
				return nil, false, false, nil
			}
			if _, f := m.first(s, r, t); !f {
				return nil, false, false, nil
			}
		}
	}
	// envs become nil once a rank's envelope is not known.
	envs = make([]envelope, 0, len(sp.ranks))
	var alts [][]Alt // by element
	if want {
		alts = make([][]Alt, sp.n)
	}
	sets := make([][]bool, 0, len(sp.ranks))
	for _, r := range sp.ranks {
		sub := map[string]symbolic.Expr{Rank: symbolic.Int(r)}
		s, ok1 := numberAt(sp.src, sub)
		t, ok2 := numberAt(sp.tag, sub)
		if ok1 && s == procNull {
			want = false // the buffer keeps its value there
			if envs != nil {
				zero := symbolic.Int(0)
				envs = append(envs, envelope{rank: r, src: procNull, tag: -1, bytes: &zero})
			}
			continue
		}
		if !ok1 || !ok2 || s < 0 || s >= np {
			// MPI_ANY_SOURCE, or a source not known: any sender's
			// next message to r may be the one taken.
			m.poison(-1, r)
			want, envs = false, nil
			continue
		}
		mt, found := m.first(s, r, t)
		if !found {
			m.poison(s, r)
			want, envs = false, nil
			continue
		}
		m.take(mt.i, s, r, mt.trip)
		if envs != nil {
			envs = append(envs, envelope{rank: r, src: s, tag: mt.tag, bytes: mt.bytes})
		}
		es, known := mt.vals, mt.known
		if !known || !want || int64(len(es)) != sp.n {
			want = false
			continue
		}
		set := make([]bool, np)
		set[r] = true
		for k, e := range es {
			alts[k] = append(alts[k], Alt{Guard: counting.Rel{R: symbolic.Rel(symbolic.Sym(Rank), "==", symbolic.Int(r))}, E: e})
		}
		sets = append(sets, set)
	}
	if !want || len(sets) == 0 {
		return nil, false, true, envs
	}
	out = make([]Value, sp.n)
	for k := range out {
		if _, fixed := ev.values[Rank]; fixed {
			out[k] = Known(alts[k][0].E)
			continue
		}
		out[k] = Value{Alts: ev.rankAltsOn(alts[k], sets, np)}
		if len(out[k].Alts) > maxAlts {
			return nil, false, true, envs
		}
	}
	return out, true, true, envs
}

// pathRanks returns the ranks the current path holds at (the conditions
// on the rank alone; the rank itself when run rank by rank).
func (ev *evaluator) pathRanks(np int64) ([]int64, bool) {
	if r, fixed := ev.values[Rank]; fixed {
		return []int64{r}, true
	}
	var dom counting.And
	for _, f := range ev.cur.conds {
		if onlyRank(f) {
			dom = append(dom, f)
		}
	}
	var ranks []int64
	if len(dom) == 0 {
		for r := range np {
			ranks = append(ranks, r)
		}
		return ranks, true
	}
	in, ok := ev.rankSet(dom, np)
	if !ok {
		return nil, false
	}
	for r, h := range in {
		if h {
			ranks = append(ranks, int64(r))
		}
	}
	return ranks, true
}

func (m *mailbox) take(i int, s, r, trip int64) {
	k := [4]int64{int64(i), s, r, trip}
	m.taken[k] = true
	m.log = append(m.log, k)
}

// poison makes later receives of r from s (-1: any) unknown.
func (m *mailbox) poison(s, r int64) {
	k := [2]int64{s, r}
	if !m.poisoned[k] {
		m.poisoned[k] = true
		m.plog = append(m.plog, k)
	}
}

// match is the send a receive or probe finds: its index among the sends
// kept, the trip of its loop (0 outside one), its values (known false where
// they are not), its tag, and its size in bytes where known.
type match struct {
	i     int
	trip  int64
	vals  []symbolic.Expr
	known bool
	tag   int64
	bytes *symbolic.Expr
}

// first returns the first send kept that rank s makes to rank r with tag
// t (-1: any) and r has not taken; found is false where no send is known
// to be it.
func (m *mailbox) first(s, r, t int64) (mt match, found bool) {
	if m.full || m.poisoned[[2]int64{s, r}] || m.poisoned[[2]int64{-1, r}] {
		return match{}, false
	}
	for i, x := range m.sent {
		taken := func(trip int64) bool { return m.taken[[4]int64{int64(i), s, r, trip}] }
		mt, applies, decided := x.at(s, r, t, taken)
		if !decided {
			return match{}, false
		}
		if applies {
			mt.i = i
			return mt, true
		}
	}
	return match{}, false
}

// at decides whether rank s makes this send to rank r with tag t (-1:
// any) on a trip taken does not hold (trip 0 outside a loop; in a loop
// the first such trip, as MPI matches in order), and returns what it
// sends there.
func (x *sent) at(s, r, t int64, taken func(int64) bool) (mt match, applies, decided bool) {
	fr := x.fromRank(s)
	if !fr.decided {
		return mt, false, false
	} else if !fr.sends {
		return mt, false, true
	}
	if !x.dest.IsKnown() {
		return mt, false, false
	}
	var sub map[string]symbolic.Expr
	for ai, d := range x.dest.Alts {
		e := fr.dests[ai]
		if fr.off[ai] || fr.isNum[ai] && fr.num[ai] != r && len(x.vars) != 1 {
			// Not this alternative, or a destination other than r
			// (the trips of a loop over one variable are scanned below).
			continue
		}
		if !fr.ok[ai] {
			return mt, false, false
		}
		if sub == nil {
			sub = map[string]symbolic.Expr{Rank: symbolic.Int(s)}
		}
		free := fr.free[ai]
		var trips []int64 // the loop variable's values that send to r
		switch {
		case len(free) > 1:
			return mt, false, false
		case len(free) == 1:
			// The destination a loop variable plus what does not change
			// with it (a loop over the destinations): the trip to r.
			rest := e.Sub(symbolic.Sym(free[0]))
			if k, ok := rest.Int64(); ok {
				trips = []int64{r - k}
				break
			}
			// Another form of it (mod(rank - k, np)): the trips of the
			// loop's range whose destination is r, in order.
			var ok bool
			if trips, ok = x.tripsTo(e, free[0], sub, r); !ok {
				return mt, false, false
			}
		default:
			n, ok := e.Int64()
			if !ok {
				return mt, false, false
			}
			if n != r {
				continue
			}
			trips = []int64{0}
			if len(x.vars) == 1 {
				// Every trip of a loop sends to r (its tag or value may
				// differ by trip): in order.
				if lo, hi, ok := x.rangeOf(x.vars[0], sub); ok && hi-lo < maxTripScan {
					free, trips = x.vars, nil
					for k := lo; k <= hi; k++ {
						trips = append(trips, k)
					}
				}
			}
		}
		for _, k := range trips {
			if taken(k) {
				continue
			}
			at := sub
			if len(free) == 1 {
				at = map[string]symbolic.Expr{Rank: symbolic.Int(s), free[0]: symbolic.Int(k)}
			}
			holds, ok := x.holdsAt(s, ai, k, d.Guard, at)
			if !ok {
				return mt, false, false
			}
			if !holds {
				continue
			}
			tg, ok := numberAt(x.tag, at)
			if !ok {
				return mt, false, false
			} else if t != -1 && tg != t {
				continue
			}
			if x.uncertain {
				return mt, false, false
			}
			mt = match{trip: k, tag: tg}
			if n, ok := valueAt(x.count, at, x.vars); ok && x.tsize > 0 {
				b := n.Mul(symbolic.Int(x.tsize))
				mt.bytes = &b
			}
			if x.vals == nil {
				return mt, true, true
			}
			vals := make([]symbolic.Expr, len(x.vals))
			for j, v := range x.vals {
				e, known := valueAt(v, at, x.vars)
				if !known {
					return mt, true, true
				}
				vals[j] = e
			}
			mt.vals, mt.known = vals, true
			return mt, true, true
		}
	}
	return mt, false, true
}

// maxTripScan bounds the trips of a loop scanned for the one that sends
// to a rank.
const maxTripScan = 4096

// tripsTo are the values of the loop variable v, in the range the send's
// conditions give it (constant bounds once sub is applied) and in order,
// at which the destination dest is rank r.
func (x *sent) tripsTo(dest symbolic.Expr, v string, sub map[string]symbolic.Expr, r int64) ([]int64, bool) {
	lo, hi, ok := x.rangeOf(v, sub)
	if !ok || hi-lo >= maxTripScan {
		return nil, false
	}
	var out []int64
	for k := lo; k <= hi; k++ {
		d, err := dest.Subst(map[string]symbolic.Expr{Rank: sub[Rank], v: symbolic.Int(k)})
		if err != nil {
			return nil, false
		}
		got, ok := d.Int64()
		if !ok {
			return nil, false
		}
		if got == r {
			out = append(out, k)
		}
	}
	return out, true
}

// rangeOf is the least and largest value the send's conditions allow v,
// where relations a*v + b >= 0 (b a number once sub is applied) give both.
func (x *sent) rangeOf(v string, sub map[string]symbolic.Expr) (lo, hi int64, ok bool) {
	haveLo, haveHi := false, false
	for _, f := range x.conds {
		rel, isRel := f.(counting.Rel)
		if !isRel || rel.R.Op != symbolic.GE {
			continue
		}
		e, err := rel.R.E.Subst(sub)
		if err != nil {
			continue
		}
		name, a, b, lin := e.LinearOne()
		if !lin || name != v {
			continue
		}
		bound := b.Neg().Quo(a) // a*v + b >= 0
		if a.Sign() > 0 {
			if c, ok := bound.Neg().Floor().Neg().Int64(); ok && (!haveLo || c > lo) {
				lo, haveLo = c, true
			}
		} else if c, ok := bound.Floor().Int64(); ok && (!haveHi || c < hi) {
			hi, haveHi = c, true
		}
	}
	return lo, hi, haveLo && haveHi && lo <= hi
}

// allHold decides the conjunction of fs with sub applied.
func allHold(fs []counting.Formula, sub map[string]symbolic.Expr) (holds, ok bool) {
	return allHoldAt(fs, sub, pointOf(sub))
}

func allHoldAt(fs []counting.Formula, sub map[string]symbolic.Expr, pt map[string]symbolic.Rat) (holds, ok bool) {
	for _, f := range fs {
		if f == nil {
			continue
		}
		t, ok := formulaAt(f, pt)
		if !ok {
			g, err := substFormula(f, sub)
			if err != nil {
				return false, false
			}
			if t, ok = decide(g); !ok {
				return false, false
			}
		}
		if !t {
			return false, true
		}
	}
	return true, true
}

// pointOf is sub as numbers, nil unless every value it gives is one. At
// a point, the sends matched and the values carried are evaluated rank
// by rank (1,024 times at P = 1,024): evaluating the compiled expression
// (symbolic.Expr.Eval keeps it) costs far less than substituting.
func pointOf(sub map[string]symbolic.Expr) map[string]symbolic.Rat {
	pt := make(map[string]symbolic.Rat, len(sub))
	for k, e := range sub {
		c, ok := e.Const()
		if !ok {
			return nil
		}
		pt[k] = c
	}
	return pt
}

// formulaAt decides f at the point pt; false where some relation of f has a
// symbol pt gives no value (or pt is nil), which substFormula and decide
// then judge.
func formulaAt(f counting.Formula, pt map[string]symbolic.Rat) (holds, ok bool) {
	if pt == nil {
		return false, false
	}
	switch g := f.(type) {
	case nil:
		return true, true
	case counting.Rel:
		v, err := g.R.E.Eval(pt)
		if err != nil {
			return false, false
		}
		return constTruth(symbolic.Relation{E: symbolic.Const(v), Op: g.R.Op})
	case counting.And:
		for _, x := range g {
			t, ok := formulaAt(x, pt)
			if !ok {
				return false, false
			}
			if !t {
				return false, true
			}
		}
		return true, true
	case counting.Or:
		for _, x := range g {
			t, ok := formulaAt(x, pt)
			if !ok {
				return false, false
			}
			if t {
				return true, true
			}
		}
		return false, true
	case counting.Not:
		t, ok := formulaAt(g.F, pt)
		return !t, ok
	}
	return false, false
}

// numberAt returns v at sub when it is a number there.
func numberAt(v Value, sub map[string]symbolic.Expr) (int64, bool) {
	e, ok := valueAt(v, sub, nil)
	if !ok {
		return 0, false
	}
	return e.Int64()
}

func substNumber(e symbolic.Expr, sub map[string]symbolic.Expr) (int64, bool) {
	x, err := e.Subst(sub)
	if err != nil {
		return 0, false
	}
	return x.Int64()
}

// valueAt returns the alternative of v whose guard holds at sub, with sub
// applied; false where none is decided to, or the value still has one of
// the symbols banned.
func valueAt(v Value, sub map[string]symbolic.Expr, banned []string) (symbolic.Expr, bool) {
	pt := pointOf(sub)
	for _, a := range v.Alts {
		if a.Guard != nil {
			holds, ok := allHoldAt([]counting.Formula{a.Guard}, sub, pt)
			if !ok {
				return symbolic.Expr{}, false
			}
			if !holds {
				continue
			}
		}
		if pt != nil {
			if x, err := a.E.Eval(pt); err == nil {
				return symbolic.Const(x), true
			}
		}
		e, err := a.E.Subst(sub)
		if err != nil {
			return symbolic.Expr{}, false
		}
		for _, b := range banned {
			if e.Has(b) {
				return symbolic.Expr{}, false
			}
		}
		return e, true
	}
	return symbolic.Expr{}, false
}

// armOrder returns the order to walk an IF's arms in: as written, except
// that an ELSE that sends point-to-point is walked before a THEN that
// receives (IF (me /= root) THEN receive ELSE send), so that the receive
// finds the send. Only a two-arm IF whose test is not decided at the point
// is reordered (special: its test is a loop's exit or back edge).
func (ev *evaluator) armOrder(n *apt.If, conds []counting.Formula, oks []bool, special bool) ([]int, bool) {
	order := make([]int, len(n.Branches))
	for i := range order {
		order[i] = i
	}
	if _, ok := ev.values[Size]; !ok || special || ev.probing > 0 || len(n.Branches) != 2 ||
		n.Branches[1].Cond != nil || !oks[0] || conds[0] == nil {
		return order, false
	}
	if _, dec := ev.decideOnPath(conds[0], ev.cur.conds); dec {
		return order, false
	}
	if hasP2P(n.Branches[0].Body, false) && hasP2P(n.Branches[1].Body, true) || ev.rootArmFirst(n, conds[0]) {
		return []int{1, 0}, true
	}
	return order, false
}

// hasP2P reports whether nodes make a point-to-point send (send) or
// receive (!send) themselves.
func hasP2P(nodes []apt.Node, send bool) bool {
	found := false
	for _, n := range nodes {
		apt.Inspect(n, func(x apt.Node) bool {
			c, ok := x.(*apt.Comm)
			if !ok || c.Op.IsCollective() || found {
				return !found
			}
			if send && c.Send != nil && sends(c.Op) || !send && c.Recv != nil {
				found = true
			}
			return !found
		})
	}
	return found
}
