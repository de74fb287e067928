package fortran

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// gType is one type and kind a generated dummy or actual has. Its variables
// in the main program are s<tag> (scalar), v<tag>(4) and a<tag>(3,3).
type gType struct {
	tag     string
	dummy   []string // spellings in a dummy's declaration
	local   []string // spellings in the main program's declarations
	init    [3]string
	actuals [3][]string // actuals of rank 0, 1, 2 besides the variables
}

// gTypes covers every type and kind, each spelled with literal kinds, named
// kinds and old forms. Actuals with an array argument of rank 1 have at
// least 2 elements, so that an explicit-shape dummy x(n) with n <= 2 fits.
var gTypes = []*gType{{
	tag:   "i4",
	dummy: []string{"integer", "integer(4)", "integer(kind=4)", "integer(ik4)", "integer(kind=ik4)", "integer(kind(1))"},
	init:  [3]string{"1", "2", "3"},
	actuals: [3][]string{
		{"3", "3_4", "-2", "3_ik4", "si4+1", "2*si4", "-si4", "(si4)", "int(sr8)", "size(vr4)", "nint(sr4)",
			"len(sch)", "kind(sr8)", "max(si4, 2)", "abs(si4)", "mod(si4, 2)", "ichar('a')", "si4/2", "int(sc4)", "int(si8)"},
		{"[1, 2, 3]", "(/ 1, 2 /)", "vi4+1", "abs(vi4)", "int(vr8)", "2*vi4", "vi4*si4", "max(vi4, 0)", "shape(ai4)",
			"sum(ai4, dim=1)", "maxloc(ai4)", "ubound(ai4)", "pack(ai4, al4)"},
		{"ai4*2", "abs(ai4)", "transpose(ai4)", "ai4+si4", "int(ar4)", "reshape(vi4, [2, 2])", "spread(vi4, 1, 2)",
			"matmul(ai4, ai4)"},
	},
}, {
	tag:   "i8",
	dummy: []string{"integer(8)", "integer(kind=8)", "integer(ik8)", "integer(kind=ik8)", "integer*8", "integer(kind(1_8))"},
	init:  [3]string{"1", "2", "3"},
	actuals: [3][]string{
		{"3_8", "3_ik8", "si8+1", "si4+1_8", "int(sr8, 8)", "int(si4, kind=ik8)", "size(vi4, kind=8)", "max(si8, 1_8)",
			"abs(si8)", "si8*si4", "huge(si8)", "-si8", "int(sr4, ik8)", "nint(sr8, kind=8)", "sum(vi8)", "kind(si4)*1_8"},
		{"[1_8, 2_8]", "vi8*2", "int(vr4, 8)", "vi4+1_8", "abs(vi8)", "vi8+si8", "ai8(:, 1)*si8", "shape(ai8, kind=ik8)"},
		{"ai8+1", "int(ar8, 8)", "transpose(ai8)", "ai4*si8"},
	},
}, {
	tag:   "r4",
	dummy: []string{"real", "real(4)", "real(rk4)", "real(kind=rk4)", "real*4", "real(kind(1.0))"},
	init:  [3]string{"1.5", "2.0", "3.0"},
	actuals: [3][]string{
		{"1.0", "1.5e0", "1.0_4", "1.0_rk4", "sr4*2.0", "sr4+si4", "real(si4)", "real(sr8)", "abs(sr4)", "sqrt(sr4)",
			"real(sc4)", "aimag(sc4)", "si4*0.5", "float(si4)", "abs(sc4)", "sr4**2", "max(sr4, 1.0)", "real(si8)",
			"sum(vr4)", "maxval(ar4)", "-1.0e-3"},
		{"[1.0, 2.0]", "vr4*2.0", "real(vi4)", "sqrt(vr4)", "real(vr8)", "vr4+si4", "abs(vc4)", "sum(ar4, 2)",
			"ar4(1, :)**2"},
		{"ar4*2.0", "real(ai4)", "transpose(ar4)", "sqrt(ar4)", "matmul(ar4, ar4)"},
	},
}, {
	tag:   "r8",
	dummy: []string{"double precision", "real(8)", "real(rk8)", "real(kind=rk8)", "real*8", "real(kind(1.0d0))"},
	init:  [3]string{"2.0d0", "2.0d0", "3.0d0"},
	actuals: [3][]string{
		{"2.0d0", "1.0_8", "1.0_rk8", "sr8*2.0d0", "sr4*2.0d0", "si4+1.0d0", "dble(si4)", "real(si4, 8)",
			"real(si4, rk8)", "real(si4, kind=rk8)", "sqrt(sr8)", "abs(sc8)", "real(sc8)", "aimag(sc8)", "dble(sr4)",
			"sr8+sr4", "-sr8", "max(sr8, 1.0d0)", "sr4**2.0d0", "real(sc4, 8)", "1.5d-3", "dot_product(vr8, vr8)"},
		{"[1.0d0, 2.0d0]", "(/ 1.0_rk8, 2.0_rk8 /)", "vr8*2.0d0", "dble(vi4)", "real(vi4, 8)", "vr4*1.0d0",
			"sqrt(vr8)", "real(vc8)", "matmul(ar8, vr8(1:3))"},
		{"ar8*2.0d0", "dble(ai4)", "real(ai4, rk8)", "ar4*1.0d0", "reshape(vr8, [2, 2])"},
	},
}, {
	tag:   "l4",
	dummy: []string{"logical", "logical(4)", "logical(kind=4)"},
	init:  [3]string{".true.", ".true.", ".false."},
	actuals: [3][]string{
		{".true.", ".false.", ".not. sl4", "si4 > 0", "sl4 .and. .true.", "any(vl4)", "all(vl4)", "btest(si4, 0)",
			"sr4 >= 1.0", "sch == 'x'", "sl4 .eqv. .false."},
		{"[.true., .false.]", ".not. vl4", "vi4 > 0", "vl4 .and. sl4", "any(al4, dim=2)"},
		{".not. al4", "ai4 > 1", "al4 .or. sl4"},
	},
}, {
	tag:   "c4",
	dummy: []string{"complex", "complex(4)", "complex(rk4)", "complex*8", "complex(kind=4)"},
	init:  [3]string{"(1.0, 2.0)", "(0.0, 1.0)", "(1.0, 0.0)"},
	actuals: [3][]string{
		{"(1.0,2.0)", "(1,2)", "(1.0_rk4, -2)", "sc4*2.0", "sc4+sr4", "cmplx(sr4, sr4)", "cmplx(sr8)", "conjg(sc4)",
			"sc4*si4", "-sc4", "cmplx(si4, 0)", "sum(vc4)"},
		{"[(1.0,2.0), (0.0,1.0)]", "vc4*2.0", "conjg(vc4)", "cmplx(vr4, vr4)", "vc4+vr4"},
		{"ac4*2.0", "conjg(ac4)", "cmplx(ar4, ar4)"},
	},
}, {
	tag:   "c8",
	dummy: []string{"complex(8)", "double complex", "complex(kind=rk8)", "complex*16", "complex(rk8)"},
	init:  [3]string{"(1.0d0, 2.0d0)", "(0.0d0, 1.0d0)", "(1.0d0, 0.0d0)"},
	actuals: [3][]string{
		{"(1.0d0,2.0d0)", "(1.0_rk8, 0.0_rk8)", "(1.0d0, 0)", "(-1, 2.0_8)", "sc8+sr8", "sc4*1.0d0",
			"cmplx(sr8, sr8, kind=8)", "cmplx(sr4, 0.0, rk8)", "dcmplx(sr8)", "conjg(sc8)", "sc8*sc4", "sc4+sr8"},
		{"[(1.0d0,2.0d0), (0.0d0,1.0d0)]", "vc8*sr8", "cmplx(vr8, 0.0d0, kind=rk8)", "vc4*1.0d0", "conjg(vc8)"},
		{"ac8+sc8", "conjg(ac8)", "ac4*(1.0d0,0.0d0)"},
	},
}, {
	tag:   "ch",
	dummy: []string{"character(len=*)", "character(*)", "character*(*)"},
	local: []string{"character(len=6)", "character(6)", "character*6"},
	init:  [3]string{"'hello'", "'abc'", "'xy'"},
	actuals: [3][]string{
		{"'ab'", `"xyz"`, "sch//'x'", "trim(sch)", "repeat('a', 2)", "char(65)", "adjustl(sch)", "sch(1:2)",
			"vch(2)(1:3)", "sch(2:)", "achar(66)"},
		{"['ab', 'cd']", "vch//'x'", "adjustl(vch)", "vch(2:3)(1:2)", "ach(:, 2)(2:)"},
		{"ach//'x'", "transpose(ach)"},
	},
}}

// init: a type with no spellings of its own for locals uses its dummies'.
func init() {
	for _, t := range gTypes {
		if t.local == nil {
			t.local = t.dummy
		}
	}
}

// gSpecific is one specific procedure of a generated generic: its first
// dummy of type typ and rank rank tells it from the others.
type gSpecific struct {
	name     string
	typ      *gType
	rank     int
	explicit bool   // rank 1 declared x(n), not x(:)
	arg      string // the first dummy's name
	n        string // "" or the type of a second, integer dummy n
	opt      string // "" or the type of an optional last dummy opt
}

func (s *gSpecific) dummies() []string {
	d := []string{s.arg}
	if s.n != "" {
		d = append(d, "n")
	}
	if s.opt != "" {
		d = append(d, "opt")
	}
	return d
}

// gCase is one module m<k> with generic g<k>.
type gCase struct {
	k     int
	specs []*gSpecific
}

// genGen writes the random program and remembers, for each CALL, its line.
type genGen struct {
	r     *rand.Rand
	b     strings.Builder
	line  int
	calls map[int]string // line -> call statement
}

func (g *genGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *genGen) emit(format string, args ...any) {
	fmt.Fprintf(&g.b, format+"\n", args...)
	g.line++
}

// newCase draws 2..5 specifics with distinct (type, rank) first dummies,
// which makes the generic unambiguous (F2008 12.4.3.4.5): the first dummy
// tells any two apart by position, and by name too, since the only other
// names (n, opt) never belong to a first dummy.
func (g *genGen) newCase(k int) *gCase {
	c := &gCase{k: k}
	type tr struct{ t, r int }
	var all []tr
	for t := range gTypes {
		for r := range 3 {
			all = append(all, tr{t, r})
		}
	}
	g.r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	renamed := g.r.IntN(4) == 0
	for i, p := range all[:2+g.r.IntN(4)] {
		s := &gSpecific{typ: gTypes[p.t], rank: p.r, arg: "x"}
		s.name = fmt.Sprintf("g%d_%s_%d", k, s.typ.tag, s.rank)
		if renamed && i > 0 && g.r.IntN(2) == 0 {
			s.arg = g.pick([]string{"y", "val", "buf"})
		}
		s.explicit = s.rank == 1 && g.r.IntN(2) == 0
		if s.explicit || g.r.IntN(3) == 0 {
			s.n = g.pick([]string{"integer", "integer(ik8)", "integer(8)", "integer(kind=4)"})
		}
		if g.r.IntN(3) == 0 {
			s.opt = g.pick([]string{"integer", "logical"})
		}
		c.specs = append(c.specs, s)
	}
	if g.r.IntN(6) == 0 {
		// A generic may share its name with one of its specifics.
		c.specs[g.r.IntN(len(c.specs))].name = fmt.Sprintf("g%d", k)
	}
	return c
}

func (g *genGen) module(c *gCase) {
	g.emit("module m%d", c.k)
	g.emit("  use kinds")
	g.emit("  implicit none")
	names := make([]string, len(c.specs))
	for i, s := range c.specs {
		names[i] = s.name
	}
	// Either one interface block or two of the same name (F2008 12.4.3.4.1);
	// a block lists its specifics on one line or several.
	var blocks [][]string
	if cut := 1 + g.r.IntN(len(names)-1); g.r.IntN(3) == 0 {
		blocks = [][]string{names[:cut], names[cut:]}
	} else {
		blocks = [][]string{names}
	}
	for _, blk := range blocks {
		g.emit("  %s g%d", g.pick([]string{"interface", "INTERFACE", "Interface"}), c.k)
		colons := g.pick([]string{"", " ::"})
		if g.r.IntN(2) == 0 {
			g.emit("    module procedure%s %s", colons, strings.Join(blk, ", "))
		} else {
			for _, n := range blk {
				g.emit("    module procedure%s %s", colons, n)
			}
		}
		g.emit("  end interface%s", g.pick([]string{"", fmt.Sprintf(" g%d", c.k)}))
	}
	g.emit("contains")
	for _, s := range c.specs {
		g.emit("  subroutine %s(%s)", s.name, strings.Join(s.dummies(), ", "))
		if s.n != "" {
			g.emit("    %s, intent(in) :: n", s.n) // before x(n), which needs its type
		}
		typ := g.pick(s.typ.dummy)
		switch {
		case s.explicit:
			g.emit("    %s :: %s(n)", typ, s.arg)
		case s.rank == 1 && g.r.IntN(2) == 0:
			g.emit("    %s, dimension(:) :: %s", typ, s.arg)
		case s.rank == 1:
			g.emit("    %s :: %s(:)", typ, s.arg)
		case s.rank == 2:
			g.emit("    %s, intent(in) :: %s(:, :)", typ, s.arg)
		default:
			g.emit("    %s, intent(in) :: %s", typ, s.arg)
		}
		if s.opt != "" {
			g.emit("    %s, optional, intent(in) :: opt", s.opt)
		}
		g.emit("    print '(a)', '%s'", s.name)
		g.emit("  end subroutine %s", s.name)
	}
	g.emit("end module m%d", c.k)
	g.emit("")
}

// actual is an actual argument of type t and rank rank, variables in a
// third of the draws.
func (g *genGen) actual(t *gType, rank int) string {
	if g.r.IntN(3) == 0 {
		return g.pick(t.actuals[rank])
	}
	s, v, a := "s"+t.tag, "v"+t.tag, "a"+t.tag
	switch rank {
	case 0:
		return g.pick([]string{s, v + "(2)", a + "(1, 2)", v + "(si4)", a + "(2, si4+1)", s})
	case 1:
		return g.pick([]string{v, a + "(:, 1)", a + "(2, :)", v + "(2:3)", v + "(::2)", v + "(1::2)", a + "(1:2, si4)", v + "(:)"})
	}
	return g.pick([]string{a, a + "(1:2, :)", a + "(:, :)", a + "(::2, 2:3)"})
}

// scalarOf is an actual of type spelling typ (an n or opt dummy's), with a
// value of at most 2 (the size of the smallest array actual).
func (g *genGen) scalarOf(typ string) string {
	switch typ {
	case "integer", "integer(kind=4)":
		return g.pick([]string{"1", "2", "si4", "si4+1", "int(sr4)", "nint(sr8)", "max(si4, 2)", "size(vi4(2:3))", "2_ik4"})
	case "logical":
		return g.pick([]string{".true.", "sl4", "si4 > 0", ".not. sl4"})
	}
	return g.pick([]string{"1_8", "2_ik8", "si8", "si8+1", "int(si4, 8)", "int(sr8, kind=ik8)", "si4+1_8",
		"max(si8, 1_8)", "size(vi4(2:3), kind=8)"})
}

// call writes a CALL of c's generic aimed at specific s: positional
// arguments, then maybe keyword ones in any order, for names every specific
// has, so that the keyword itself never tells the specifics apart.
func (g *genGen) call(c *gCase, s *gSpecific) {
	type arg struct{ name, val string }
	args := []arg{{s.arg, g.actual(s.typ, s.rank)}}
	if s.n != "" {
		args = append(args, arg{"n", g.scalarOf(s.n)})
	}
	if s.opt != "" && g.r.IntN(2) == 0 {
		args = append(args, arg{"opt", g.scalarOf(s.opt)})
	}
	shared := func(name string) bool {
		for _, o := range c.specs {
			if !slices.Contains(o.dummies(), name) {
				return false
			}
		}
		return true
	}
	cut := len(args)
	if g.r.IntN(5) < 2 {
		cut = g.r.IntN(len(args))
		for cut < len(args) && !shared(args[cut].name) {
			cut++
		}
		for i := cut; i < len(args); i++ {
			if !shared(args[i].name) {
				cut = len(args)
			}
		}
	}
	kw := args[cut:]
	g.r.Shuffle(len(kw), func(i, j int) { kw[i], kw[j] = kw[j], kw[i] })
	text := make([]string, len(args))
	for i, a := range args {
		text[i] = a.val
		if i >= cut {
			text[i] = a.name + "=" + a.val
		}
	}
	name := fmt.Sprintf("g%d", c.k)
	if g.r.IntN(5) == 0 {
		name = strings.ToUpper(name)
	}
	stmt := fmt.Sprintf("call %s(%s)", name, strings.Join(text, ", "))
	g.calls[g.line+1] = stmt + " ! " + s.name
	g.emit("  %s", stmt)
}

// randomGenericProgram is a module of kind constants, n modules with a
// generic each, and a program calling every specific of each 1..3 times.
func randomGenericProgram(seed uint64, n int) (string, map[int]string) {
	g := &genGen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), calls: map[int]string{}}
	g.emit("module kinds")
	g.emit("  implicit none")
	g.emit("  integer, parameter :: ik4 = %s, ik8 = selected_int_kind(15)", g.pick([]string{"selected_int_kind(8)", "kind(1)", "4"}))
	g.emit("  integer, parameter :: rk4 = %s, rk8 = %s", g.pick([]string{"selected_real_kind(6)", "kind(1.0)"}),
		g.pick([]string{"selected_real_kind(15)", "kind(1.0d0)", "selected_real_kind(12, 100)"}))
	g.emit("end module kinds")
	g.emit("")
	cases := make([]*gCase, n)
	for k := range cases {
		cases[k] = g.newCase(k + 1)
		g.module(cases[k])
	}
	g.emit("program gprop")
	g.emit("  use kinds")
	for _, c := range cases {
		g.emit("  use m%d", c.k)
	}
	g.emit("  implicit none")
	for _, t := range gTypes {
		typ := g.pick(t.local)
		g.emit("  %s :: s%s, v%s(4), a%s(3, 3)", typ, t.tag, t.tag, t.tag)
	}
	for _, t := range gTypes {
		g.emit("  s%s = %s; v%s = %s; a%s = %s", t.tag, t.init[0], t.tag, t.init[1], t.tag, t.init[2])
	}
	var plan [][2]int
	for ci, c := range cases {
		for si := range c.specs {
			for range 1 + g.r.IntN(3) {
				plan = append(plan, [2]int{ci, si})
			}
		}
	}
	g.r.Shuffle(len(plan), func(i, j int) { plan[i], plan[j] = plan[j], plan[i] })
	for _, p := range plan {
		g.call(cases[p[0]], cases[p[0]].specs[p[1]])
	}
	g.emit("end program gprop")
	return g.b.String(), g.calls
}

// TestRandomGenericResolutionAgainstGfortranE2E: in random programs, every
// CALL of a generic names the specific gfortran's run calls.
func TestRandomGenericResolutionAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	const cases = 30
	src, calls := randomGenericProgram(20240611, cases)
	dir := t.TempDir()
	f := filepath.Join(dir, "gprop.f90")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "gprop")
	// -J: gfortran writes the modules' .mod files there, not in the package.
	if out, err := exec.Command("gfortran", "-J", dir, "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran rejects the program, a generator bug: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	prog, diags := ParseSource("gprop.f90", []byte(src), Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %v", d)
		}
	}
	var got []*apt.Call
	apt.Inspect(prog.Routine("gprop"), func(n apt.Node) bool {
		if c, ok := n.(*apt.Call); ok {
			got = append(got, c)
		}
		return true
	})
	if len(got) != len(want) || len(got) != len(calls) {
		t.Fatalf("mkvet has %d calls, gfortran's run %d, the generator wrote %d", len(got), len(want), len(calls))
	}
	bad := 0
	for i, c := range got {
		if c.Callee != want[i] {
			bad++
			line := c.Span.Start().Line
			t.Errorf("line %d: %s\n  mkvet: %s, gfortran: %s", line, calls[line], c.Callee, want[i])
		}
	}
	t.Logf("%d calls of %d generics checked, %d wrong", len(got), cases, bad)
}
