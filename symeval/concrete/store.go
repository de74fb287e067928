package concrete

import (
	"fmt"
	"math"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Store is the storage of one variable: its elements in column-major
// order, int64 (INTEGER, LOGICAL as 0 or 1) or float64 (REAL), with a
// known flag per element.
type Store struct {
	// Key names the storage for the caller (the evaluation's key); empty
	// for a local of the run.
	Key   string
	Real  bool
	I     []int64
	F     []float64
	Known []bool
	// Single marks REAL(4) storage: values are rounded to float32.
	Single bool
	// Written is set when the run stored into it.
	Written bool
	// WriteOnly marks a store the run may assign but not read (a C
	// temporary that holds an address, whose target the caller keeps):
	// a read stops the run.
	WriteOnly bool
}

// NewStore returns a store of n unknown elements.
func NewStore(key string, n int64, real bool) *Store {
	s := &Store{Key: key, Real: real, Known: make([]bool, n)}
	if real {
		s.F = make([]float64, n)
	} else {
		s.I = make([]int64, n)
	}
	return s
}

// Len is the number of elements.
func (s *Store) Len() int64 { return int64(len(s.Known)) }

// SetInt sets element i to the integer v (converted for a REAL store).
func (s *Store) SetInt(i, v int64) {
	if s.Real {
		s.F[i] = float64(v)
	} else {
		s.I[i] = v
	}
	s.Known[i] = true
}

// SetReal sets element i to v (truncated for an INTEGER store).
func (s *Store) SetReal(i int64, v float64) {
	if s.Real {
		if s.Single {
			v = float64(float32(v))
		}
		s.F[i] = v
	} else {
		s.I[i] = int64(v)
	}
	s.Known[i] = true
}

// Ref is element Off of a store: a scalar variable, or the first element
// of an array as a routine sees it (sequence association). Ext, where
// set, are the extents of the whole array it is (an allocated array's,
// an array passed whole), and Lo its lower bounds: what an ALLOCATABLE or
// an assumed-shape dummy (a(:)) bound to it takes its shape from.
type Ref struct {
	S   *Store
	Off int64
	Lo  []int64
	Ext []int64
}

// Context is the counts of one call path: how often each node of its
// routine ran, and each loop's body, on calls from one site.
type Context struct {
	Routine *apt.Routine
	// Calls is how often the routine was entered on this path.
	Calls int64
	Exec  map[apt.Node]int64
	Iter  map[*apt.Loop]int64
	// Elems is, for each array statement that ran, the elements it set
	// in all.
	Elems map[*apt.Stmt]int64
	// Children are the contexts of the routines called, by call site:
	// the Call node, or the Block whose statement references a function.
	Children map[Site]*Context
	// order keeps the children in the order first called.
	order []Site
	// counts and iters are the counts by the compiled routine's node
	// number, folded into Exec and Iter when the run ends.
	counts []int64
	iters  []int64
	elems  []int64
}

// Site is a call site: the node that calls and the routine called.
type Site struct {
	Node   apt.Node
	Callee *apt.Routine
}

// Sites returns the call sites of c's children in the order first called.
func (c *Context) Sites() []Site { return c.order }

func (c *Context) child(s Site) *Context {
	if c.Children == nil {
		c.Children = map[Site]*Context{}
	}
	k := c.Children[s]
	if k == nil {
		k = &Context{Routine: s.Callee}
		c.Children[s] = k
		c.order = append(c.order, s)
	}
	return k
}

// fold moves the numbered counts of c and its children into Exec and Iter.
func (c *Context) fold(code map[*apt.Routine]*routine) {
	rt := code[c.Routine]
	c.Exec = map[apt.Node]int64{}
	c.Iter = map[*apt.Loop]int64{}
	c.Elems = map[*apt.Stmt]int64{}
	if rt != nil {
		for i, n := range c.elems {
			if n > 0 {
				c.Elems[rt.stmts[i]] = n
			}
		}
		for i, n := range c.counts {
			if n > 0 {
				c.Exec[rt.nodes[i]] = n
			}
		}
		for i, n := range c.iters {
			if n > 0 {
				if l, ok := rt.nodes[i].(*apt.Loop); ok {
					c.Iter[l] = n
				}
			}
		}
	}
	for _, k := range c.Children {
		k.fold(code)
	}
}

// Stopped is why a run stopped before its routine returned: where, and
// what it met that it does not run or does not know.
type Stopped struct {
	Pos    apt.Pos
	Reason string
}

func (s *Stopped) Error() string { return fmt.Sprintf("%s: %s", s.Pos, s.Reason) }

// stop ends the run (recovered by Machine.Call).
func stop(pos apt.Pos, format string, args ...any) {
	panic(&Stopped{Pos: pos, Reason: fmt.Sprintf(format, args...)})
}

// round rounds a REAL(4) value as single precision arithmetic leaves it.
func round(v float64, single bool) float64 {
	if single {
		return float64(float32(v))
	}
	return v
}

// nint is Fortran's NINT: the nearest integer, halves away from zero.
func nint(v float64) int64 { return int64(math.Round(v)) }
