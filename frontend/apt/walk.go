package apt

import (
	"strconv"
	"strings"
	"sync/atomic"
)

// Children returns the direct children of n in source order.
func Children(n Node) []Node {
	switch n := n.(type) {
	case *Program:
		out := make([]Node, len(n.Routines))
		for i, r := range n.Routines {
			out[i] = r
		}
		return out
	case *Routine:
		out := make([]Node, 0, len(n.Body)+len(n.Contains))
		out = append(out, n.Body...)
		for _, r := range n.Contains {
			out = append(out, r)
		}
		return out
	case *Loop:
		return n.Body
	case *If:
		out := make([]Node, len(n.Branches))
		for i, b := range n.Branches {
			out[i] = b
		}
		return out
	case *Branch:
		return n.Body
	}
	return nil
}

// Visitor's Visit is called for each node by Walk. If it returns a non-nil w, Walk
// visits the children of n with w and then calls w.Visit(nil), as go/ast.Walk does.
type Visitor interface {
	Visit(n Node) (w Visitor)
}

// Walk traverses the tree rooted at n depth-first in source order.
func Walk(v Visitor, n Node) {
	if v = v.Visit(n); v == nil {
		return
	}
	for _, c := range Children(n) {
		Walk(v, c)
	}
	v.Visit(nil)
}

type inspector func(Node) bool

// Visit calls f and continues into the children when it returns true.
func (f inspector) Visit(n Node) Visitor {
	if f(n) {
		return f
	}
	return nil
}

// Inspect traverses the tree rooted at n depth-first, calling f for each node
// and, after its children, f(nil); f returning false skips the children.
func Inspect(n Node, f func(Node) bool) { Walk(inspector(f), n) }

// InspectExpr calls f for e and, when f returns true, for its subexpressions in
// order. Nil expressions are skipped.
func InspectExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Index:
		InspectExpr(e.Base, f)
		for _, s := range e.Subs {
			InspectExpr(s, f)
		}
	case *Section:
		InspectExpr(e.Lo, f)
		InspectExpr(e.Hi, f)
		InspectExpr(e.Stride, f)
	case *Component:
		InspectExpr(e.Base, f)
	case *FuncCall:
		for _, a := range e.Args {
			InspectExpr(a, f)
		}
	case *Unary:
		InspectExpr(e.X, f)
	case *Binary:
		InspectExpr(e.X, f)
		InspectExpr(e.Y, f)
	case *ArrayCons:
		for _, x := range e.Elems {
			InspectExpr(x, f)
		}
	case *ImpliedDo:
		for _, x := range e.Items {
			InspectExpr(x, f)
		}
		InspectExpr(e.Lo, f)
		InspectExpr(e.Hi, f)
		InspectExpr(e.Step, f)
	case *Keyword:
		InspectExpr(e.Value, f)
	}
}

// idPrefix is the letter each node kind contributes to an ID path.
func idPrefix(n Node) string {
	switch n.(type) {
	case *Loop:
		return "L"
	case *If:
		return "I"
	case *Branch:
		return "b"
	case *Call:
		return "C"
	case *Comm:
		return "M"
	case *Block:
		return "B"
	case *IO:
		return "O"
	case *Goto:
		return "G"
	case *Return:
		return "R"
	case *Stop:
		return "S"
	case *Exit:
		return "X"
	case *Cycle:
		return "Y"
	case *Continue:
		return "N"
	case *Region:
		return "P"
	case *Unknown:
		return "U"
	}
	return "Z"
}

// AssignIDs gives every node of p its stable ID. A routine's ID is its lower-case
// name, prefixed by its host's ID for contained procedures ("mod/proc"), with "#2",
// "#3" appended to later units of the same name. Below a routine, a node's ID is
// its parent's ID, a slash, the kind letter (L loop, I if, b branch, C call,
// M comm, B block, O io, G goto, R return, S stop, X exit, Y cycle, N continue,
// P region, U unknown) and its ordinal among the siblings of the same kind:
// "jacobi/L2/I1/b2/M1". Counting per kind means inserting a call does not
// renumber the loops around it, and paths restart in every routine, so editing one
// routine never changes the IDs of another. Block statements get "/s1", "/s2", ...
func AssignIDs(p *Program) {
	p.ID = "program"
	seen := map[string]int{}
	var routine func(r *Routine, host string)
	routine = func(r *Routine, host string) {
		id := r.Name
		if id == "" {
			id = r.Kind.String()
		}
		if host != "" {
			id = host + "/" + id
		}
		seen[id]++
		if k := seen[id]; k > 1 {
			id += "#" + strconv.Itoa(k)
		}
		r.ID = id
		assignChildren(id, r.Body)
		for _, c := range r.Contains {
			routine(c, id)
		}
	}
	for _, r := range p.Routines {
		routine(r, "")
	}
	// Rebuild the lookup index now, so that concurrent readers of a finished
	// Program never race to build it.
	p.routines, p.hosts = nil, nil
	scopeGen.Add(1)
	p.index()
}

func assignChildren(parent string, nodes []Node) {
	count := map[string]int{}
	for _, n := range nodes {
		pre := idPrefix(n)
		count[pre]++
		id := parent + "/" + pre + strconv.Itoa(count[pre])
		n.Base().ID = id
		switch n := n.(type) {
		case *Loop:
			assignChildren(id, n.Body)
		case *If:
			for i, b := range n.Branches {
				b.ID = id + "/b" + strconv.Itoa(i+1)
				assignChildren(b.ID, b.Body)
			}
		case *Block:
			for i, s := range n.Stmts {
				s.ID = id + "/s" + strconv.Itoa(i+1)
			}
		}
	}
}

func (p *Program) index() {
	if p.routines != nil {
		return
	}
	p.routines = map[string]*Routine{}
	p.hosts = map[*Routine]*Routine{}
	var add func(r, host *Routine)
	add = func(r, host *Routine) {
		if _, dup := p.routines[r.Name]; !dup {
			p.routines[r.Name] = r
		}
		if host != nil {
			p.hosts[r] = host
		}
		for _, c := range r.Contains {
			add(c, r)
		}
	}
	for _, r := range p.Routines {
		add(r, nil)
	}
}

// Routine returns the routine or module named name (case-insensitive), searching
// contained procedures too; the first one in input order wins. Lookups use an
// index built on first use and rebuilt by AssignIDs; a Program whose routines
// are changed afterwards needs AssignIDs again.
func (p *Program) Routine(name string) *Routine {
	p.index()
	return p.routines[strings.ToLower(name)]
}

// Host returns the routine containing r, or nil for a top-level unit.
func (p *Program) Host(r *Routine) *Routine {
	p.index()
	return p.hosts[r]
}

// LookupType returns the derived type named name (lower case) visible in
// routine r: defined in r, in the modules it USEs, or in its hosts, searched
// in that order; nil when there is none.
func (p *Program) LookupType(r *Routine, name string) *DerivedType {
	p.index()
	seen := map[*Routine]bool{}
	var search func(r *Routine) *DerivedType
	search = func(r *Routine) *DerivedType {
		if r == nil || seen[r] {
			return nil
		}
		seen[r] = true
		if r.Scope != nil {
			if dt := r.Scope.LookupType(name); dt != nil {
				return dt
			}
			for _, u := range r.Scope.Uses {
				if m := p.routines[u.Module]; m != nil && m.Kind == KindModule {
					if dt := search(m); dt != nil {
						return dt
					}
				}
			}
		}
		return search(p.hosts[r])
	}
	return search(r)
}

// Resolve returns the declaration of name (lower case) visible in routine r: its
// own scope, then the modules it USEs (honouring ONLY lists and renames), then its
// host's scope and the host's modules, recursively.
func (p *Program) Resolve(r *Routine, name string) *Var {
	p.index()
	for r != nil {
		if v := r.Scope.Lookup(name); v != nil {
			return v
		}
		if v := p.usesOf(r.Scope, name); v != nil {
			return v
		}
		r = p.hosts[r]
	}
	return nil
}

// scopeGen counts the changes to any scope or routine index: a cached
// resolution through USE is good while it is unchanged. The frontends add
// variables while they build a program; its evaluation, which resolves the
// same names millions of times, adds none.
var scopeGen atomic.Uint64

type useKey struct {
	s    *Scope
	name string
}

type useHit struct {
	v   *Var
	gen uint64
}

// usesOf is resolveUses from scope s, remembered per program (the
// evaluations of several process counts read it at once).
func (p *Program) usesOf(s *Scope, name string) *Var {
	if s == nil || len(s.Uses) == 0 {
		return nil
	}
	gen := scopeGen.Load()
	k := useKey{s, name}
	if h, ok := p.useCache.Load(k); ok && h.(useHit).gen == gen {
		return h.(useHit).v
	}
	v := p.resolveUses(s, name, map[string]bool{})
	p.useCache.Store(k, useHit{v, gen})
	return v
}

func (p *Program) resolveUses(s *Scope, name string, visiting map[string]bool) *Var {
	if s == nil {
		return nil
	}
	for _, u := range s.Uses {
		m := p.routines[u.Module]
		if m == nil || m.Kind != KindModule || visiting[u.Module] {
			continue
		}
		local := name
		if orig, ok := u.Renames[name]; ok {
			local = orig
		}
		if len(u.Only) > 0 && !containsString(u.Only, name) {
			continue
		}
		visiting[u.Module] = true
		if v := m.Scope.Lookup(local); v != nil {
			return v
		}
		if v := p.resolveUses(m.Scope, local, visiting); v != nil {
			return v
		}
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Static reports whether the variable name, as routine r sees it, has
// static storage: a COMMON member, a SAVE or initialised variable, or a
// module variable (implicitly SAVE, Fortran 2008 5.3.16), reached by host
// association or by USE. Compilers place such storage in the program's
// zero-filled data (.bss), so a program that reads one before assigning it
// reads zeros.
func (p *Program) Static(r *Routine, name string) bool {
	p.index()
	for x := r; x != nil; x = p.hosts[x] {
		if v := x.Scope.Lookup(name); v != nil {
			return v.InCommon || v.Save || len(v.Init) > 0 || x.Kind == KindModule
		}
		if v := p.usesOf(x.Scope, name); v != nil {
			return true
		}
	}
	return false
}

// FormatText returns the format specification a READ or WRITE in routine
// r names where the program writes it: a character constant, or the label
// of one of r's FORMAT statements. false for list-directed I/O, a format
// held in a variable, or a label r has no FORMAT for.
func (r *Routine) FormatText(f Expr) (string, bool) {
	c, ok := f.(*Const)
	if !ok {
		return "", false
	}
	switch c.Kind {
	case ConstChar:
		return c.Text, true
	case ConstInt:
		s, ok := r.Formats[strings.TrimLeft(c.Text, "0")]
		return s, ok
	}
	return "", false
}
