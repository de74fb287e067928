package symeval

import (
	"fmt"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Input decks. Applications read their settings from a deck of keywords and
// values, parsed by a loop over its lines:
//
//	grid%x_cells = 10                  ! the default
//	do
//	   stat = parse_getline(dummy)
//	   if (stat /= 0) exit
//	   select case (word)
//	   case ('x_cells')
//	      grid%x_cells = parse_getival(parse_getword(.true.))
//	   ...
//
// What the deck holds is input, as a value READ is: after such a loop, a
// variable assigned under a test of a character value against a literal
// (SELECT CASE or IF word == 'x_cells') holds an input parameter named
// after the variable, whose default is the variable's value before the loop
// (the program's own default when the deck leaves the keyword out). The
// loop is recognised by its structure (it reads, and dispatches on
// character literals), never by a name.

// deckKeyword is a variable a deck loop sets by keyword.
type deckKeyword struct {
	keyword string  // the literal it is set under
	pos     apt.Pos // the assignment
	integer bool    // an INTEGER (or LOGICAL) variable: its default is kept
}

// deckKeys returns the storage keys the loop l sets from an input deck by
// keyword, or nil when l is no deck loop.
func (ev *evaluator) deckKeys(l *apt.Loop) map[string]deckKeyword {
	if !ev.readsInput(l.Body) {
		return nil
	}
	out := map[string]deckKeyword{}
	twice := map[string]bool{}
	add := func(key string, kw deckKeyword) {
		if prev, ok := out[key]; ok && prev.keyword != kw.keyword {
			twice[key] = true
		}
		if _, ok := out[key]; !ok {
			out[key] = kw
		}
	}
	apt.Inspect(&apt.Loop{Body: l.Body}, func(n apt.Node) bool {
		f, ok := n.(*apt.If)
		if !ok {
			return true
		}
		for _, b := range f.Branches {
			kw, ok := keywordOf(f, b)
			if !ok {
				continue
			}
			for _, m := range b.Body {
				blk, isBlock := m.(*apt.Block)
				if !isBlock {
					continue
				}
				for _, st := range blk.Stmts {
					if st.Kind != apt.StmtAssign || st.Target == nil {
						continue
					}
					key, ok := ev.refKey(st.Target)
					if !ok {
						continue
					}
					t := apt.TypeOf(st.Target).Base
					add(key, deckKeyword{keyword: kw, pos: st.Span.Start(), integer: t == apt.TypeInteger || t == apt.TypeLogical})
				}
			}
		}
		return true
	})
	for k := range twice {
		kw := out[k]
		kw.keyword = "" // set under several keywords: named after itself
		out[k] = kw
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// keywordOf returns the literal an arm tests a character value against:
// a CASE ('x_cells') of a character selector, or IF (word == 'x_cells').
func keywordOf(f *apt.If, b *apt.Branch) (string, bool) {
	if f.Selector != nil && apt.TypeOf(f.Selector).Base == apt.TypeCharacter && len(b.Cases) > 0 {
		if c, ok := b.Cases[0].Lo.(*apt.Const); ok && c.Kind == apt.ConstChar && !b.Cases[0].Range && isKeyword(c.Text) {
			return c.Text, true
		}
		return "", false
	}
	bin, ok := b.Cond.(*apt.Binary)
	if !ok || bin.Op != apt.OpEq {
		return "", false
	}
	for _, pair := range [][2]apt.Expr{{bin.X, bin.Y}, {bin.Y, bin.X}} {
		if c, ok := pair[1].(*apt.Const); ok && c.Kind == apt.ConstChar && isKeyword(c.Text) && apt.TypeOf(pair[0]).Base == apt.TypeCharacter {
			if _, lit := pair[0].(*apt.Const); !lit {
				return c.Text, true
			}
		}
	}
	return "", false
}

// isKeyword reports whether a literal reads as a keyword of a deck: a
// name of two or more letters, digits and underscores starting with a
// letter (not a delimiter such as '*' or '!' a parser tests for).
func isKeyword(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '_'):
		default:
			return false
		}
	}
	return true
}

// readsInput reports whether nodes read input: a READ from a unit (not an
// internal file), or a call of a routine that does.
func (ev *evaluator) readsInput(nodes []apt.Node) bool {
	found := false
	apt.Inspect(&apt.Loop{Body: nodes}, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.IO:
			if x.Kind == apt.IORead && !converts(x) {
				found = true
			}
		case *apt.Call:
			for _, r := range ev.callees(x.Callee) {
				found = found || ev.routineReads(r)
			}
		case *apt.Block:
			for _, st := range x.Stmts {
				for _, e := range append([]apt.Expr{st.Target, st.Value, st.Mask}, st.Args...) {
					apt.InspectExpr(e, func(y apt.Expr) bool {
						if fc, ok := y.(*apt.FuncCall); ok {
							if r := ev.routineNamed(fc.Name); r != nil && ev.routineReads(r) {
								found = true
							}
						}
						return !found
					})
				}
			}
		}
		return !found
	})
	return found
}

// readsFiles reports whether every READ of input in nodes, and in the
// routines they call (subroutines and function references), is one the
// evaluation takes from the run's files: list-directed (readfile.go),
// NAMELIST (namelist.go), formatted with a format written in the program
// (readformat.go), or C's (readfile.go, cscan.go). A run of a loop reading so can decide its
// tests; a run of one reading otherwise (a format computed at run time)
// cannot, and is not tried.
func (ev *evaluator) readsFiles(nodes []apt.Node) bool {
	if ev.dir == "" {
		return false
	}
	return ev.nodesReadFiles(ev.frame().routine, nodes)
}

func (ev *evaluator) nodesReadFiles(r *apt.Routine, nodes []apt.Node) bool {
	ok := true
	calls := func(e apt.Expr) {
		apt.InspectExpr(e, func(y apt.Expr) bool {
			if fc, isCall := y.(*apt.FuncCall); isCall && !fc.Intrinsic {
				if c := ev.routineNamed(fc.Name); c != nil {
					ok = ok && ev.routineReadsFiles(c)
				}
			}
			return ok
		})
	}
	for _, n := range nodes {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.IO:
				// C's reads (scanf's words, fgets's lines) are the
				// stream's, their formats the program's literals.
				cRead := x.Stream || x.Line || x.Scan != nil || converts(x)
				if _, written := r.FormatText(x.Format); x.Kind == apt.IORead && !internalUnit(x.Unit) &&
					!listDirected(x.Format) && keyword(x, "nml") == nil && !written && !cRead {
					ok = false
				}
				for _, e := range append(append([]apt.Expr{x.Unit}, x.Control...), x.Items...) {
					calls(e)
				}
			case *apt.Call:
				for _, c := range ev.callees(x.Callee) {
					ok = ok && ev.routineReadsFiles(c)
				}
				for _, e := range x.Args {
					calls(e)
				}
			case *apt.Loop:
				for _, e := range []apt.Expr{x.Lower, x.Upper, x.Step, x.While} {
					calls(e)
				}
			case *apt.If:
				calls(x.Selector)
			case *apt.Branch:
				calls(x.Cond)
			case *apt.Block:
				for _, st := range x.Stmts {
					for _, e := range append([]apt.Expr{st.Target, st.Value, st.Mask}, st.Args...) {
						calls(e)
					}
				}
			}
			return ok
		})
	}
	return ok
}

// routineReadsFiles memoizes nodesReadFiles over a routine's body.
func (ev *evaluator) routineReadsFiles(r *apt.Routine) bool {
	if v, ok := ev.readingFiles[r]; ok {
		return v
	}
	ev.readingFiles[r] = true // recursion: the other calls decide
	v := ev.nodesReadFiles(r, r.Body)
	ev.readingFiles[r] = v
	return v
}

// routineReads memoizes readsInput over a routine's body.
func (ev *evaluator) routineReads(r *apt.Routine) bool {
	if v, ok := ev.reading[r]; ok {
		return v
	}
	ev.reading[r] = false // recursion
	v := ev.readsInput(r.Body)
	ev.reading[r] = v
	return v
}

// converts reports whether a READ converts text the program holds rather
// than reads input: an internal READ, or a C conversion (atoi) of a
// command-line argument or of another string.
func converts(x *apt.IO) bool {
	return internalUnit(x.Unit) || x.Arg != nil || x.From != nil
}

// internalUnit reports whether a READ's unit is a character variable (an
// internal file: converting a word of the deck, not reading input).
func internalUnit(u apt.Expr) bool {
	return u != nil && apt.TypeOf(u).Base == apt.TypeCharacter
}

// deckValue returns the input parameter a deck loop at pos leaves in the
// variable stored at key, with the value before the loop as its default.
func (ev *evaluator) deckValue(key string, kw deckKeyword, before Value) Value {
	if p, ok := ev.deckParams[key]; ok {
		v := Known(p.expr())
		v.deck = p.Defaulted
		return v
	}
	name := ev.nameOfKey(key)
	what := fmt.Sprintf("the value of %s the input deck sets", name)
	if kw.keyword != "" {
		what = fmt.Sprintf("the value of %s the input deck sets with the keyword %s", name, strings.TrimSpace(kw.keyword))
	}
	p := ev.newParam(keyName(key), FromRead, kw.pos, what, !kw.integer)
	deck := false
	if e, ok := before.Single(); ok && kw.integer {
		// The program's own default, when the deck leaves it out.
		p.Default = &e
		p.What += fmt.Sprintf(" (the program's default: %s)", e)
		if c, isConst := e.Int64(); isConst && p.Value == nil {
			if _, point := ev.values[Size]; point {
				// At a point the deck's values are those given, or the
				// program's defaults: what the program computes from
				// them (how the grid is split, which kernels run) is
				// then exact. The values computed from a default carry
				// a mark, so that a check the defaults fail is known
				// for what it is; the notes list the defaults taken.
				p.Value, p.Defaulted, deck = &c, true, true
			}
		}
	}
	ev.deckParams[key] = p
	v := Known(p.expr())
	v.deck = deck
	return v
}

// ioStatus evaluates the IOSTAT= of an I/O statement other than an input
// file's OPEN: an OPEN, WRITE or CLOSE is taken to succeed (0; an error
// check on it then passes), a READ's status depends on the data it meets
// (the end of a deck), another value on each execution.
func (ev *evaluator) ioStatus(n *apt.IO) {
	st := keyword(n, "iostat")
	if st == nil {
		return
	}
	if n.Kind != apt.IORead {
		ev.assign(st, Known(symbolic.Int(0)))
		return
	}
	v := unknownValue(keyName(apt.FormatExpr(st)), "the status of the READ at "+n.Span.Start().String(), false)
	v.unk.varying = true
	ev.assign(st, v)
}
