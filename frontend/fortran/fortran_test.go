package fortran

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const programsDir = "../../testdata/programs"

// programFiles lists the Fortran programs of testdata/programs in name order.
func programFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"*.f", "*.F", "*.f90", "*.F90"} {
		m, err := filepath.Glob(filepath.Join(programsDir, pat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no programs in " + programsDir)
	}
	return out
}

// render is the golden form of a parse: the tree, then the diagnostics.
func render(prog *apt.Program, diags []apt.Diagnostic) []byte {
	var b bytes.Buffer
	apt.Fprint(&b, prog)
	b.WriteString("-- diagnostics --\n")
	for _, d := range diags {
		fmt.Fprintln(&b, d)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, path := range programFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			prog, diags := ParseFiles([]string{path}, Config{})
			got := render(prog, diags)
			golden := filepath.Join("testdata", "golden", name+".apt")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("APT of %s differs from %s; run go test ./frontend/fortran -update and inspect the diff\n%s", name, golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, w, g)
		}
	}
	return ""
}

// TestProgramsClean checks that the testdata programs, written like NPB,
// Sweep3D and CloverLeaf, parse without errors and without Unknown nodes.
func TestProgramsClean(t *testing.T) {
	for _, path := range programFiles(t) {
		prog, diags := ParseFiles([]string{path}, Config{})
		for _, d := range diags {
			if d.Severity == apt.Error || d.Severity == apt.Warning {
				t.Errorf("%s", d)
			}
		}
		apt.Inspect(prog, func(n apt.Node) bool {
			if u, ok := n.(*apt.Unknown); ok {
				t.Errorf("%s: Unknown node %s: %s", u.Span.Start(), u.ID, u.Diag.Msg)
			}
			return true
		})
	}
}

// parse parses src as a file called name and fails on error diagnostics.
func parse(t *testing.T, name, src string) *apt.Program {
	t.Helper()
	prog, diags := ParseSource(name, []byte(src), Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("unexpected diagnostic %s", d)
		}
	}
	return prog
}

// nodes returns the nodes of type T in prog in walk order.
func nodes[T apt.Node](prog *apt.Program) []T {
	var out []T
	apt.Inspect(prog, func(n apt.Node) bool {
		if x, ok := n.(T); ok {
			out = append(out, x)
		}
		return true
	})
	return out
}

func stmts(prog *apt.Program) []*apt.Stmt {
	var out []*apt.Stmt
	for _, b := range nodes[*apt.Block](prog) {
		out = append(out, b.Stmts...)
	}
	return out
}

func TestFixedFormColumns(t *testing.T) {
	src := "" +
		"C comment in column 1\n" +
		"c lower-case comment\n" +
		"* star comment\n" +
		"! bang comment\n" +
		"      PROGRAM COLS\n" +
		"      INTEGER I, N\n" +
		"      N = 10\n" +
		"      !mk$ param n = 10\n" +
		"   10 I = N +\n" +
		"     &    1" + strings.Repeat(" ", 72-11) + "IGNORED\n" +
		"      I = I *\n" +
		"     1     2\n" +
		"      END\n"
	prog := parse(t, "cols.f", src)
	ss := stmts(prog)
	if len(ss) != 3 {
		t.Fatalf("got %d statements, want 3", len(ss))
	}
	if got := apt.FormatExpr(ss[1].Value); got != "n + 1" {
		t.Errorf("continued statement = %q, want n + 1 (text past column 72 ignored)", got)
	}
	if ss[1].Label != "10" {
		t.Errorf("label = %q, want 10", ss[1].Label)
	}
	if got := apt.FormatExpr(ss[2].Value); got != "i*2" {
		t.Errorf("digit continuation = %q, want i*2", got)
	}
	if ss[1].Span.Line != 9 || ss[1].Span.EndLine != 10 {
		t.Errorf("span lines %d-%d, want 9-10", ss[1].Span.Line, ss[1].Span.EndLine)
	}
	if ps := prog.Routines[0].Params; len(ps) != 1 || ps[0].Name != "n" {
		t.Errorf("indented !mk$ param not read: %v", ps)
	}
}

func TestFixedFormBlanks(t *testing.T) {
	src := "" +
		"      PROGRAM B\n" +
		"      DO 10 I = 1, N\n" +
		"   10 CONTINUE\n" +
		"      DO10I=1,N\n" +
		"   10 CONTINUE\n" +
		"      DO 20 I = 1. 5\n" +
		"   20 CONTINUE\n" +
		"      GO TO 30\n" +
		"      G O T O 30\n" +
		"   30 CONTINUE\n" +
		"      E N D\n"
	prog, _ := ParseSource("b.f", []byte(src), Config{})
	loops := nodes[*apt.Loop](prog)
	if len(loops) != 2 {
		t.Fatalf("got %d loops, want 2 (DO 20 I = 1. 5 is the assignment DO20I = 1.5)", len(loops))
	}
	for _, l := range loops {
		if l.Var != "i" || apt.FormatExpr(l.Lower) != "1" || apt.FormatExpr(l.Upper) != "n" || l.EndLabel != "10" {
			t.Errorf("loop %s: var %q bounds %s, %s end %s", l.ID, l.Var, apt.FormatExpr(l.Lower), apt.FormatExpr(l.Upper), l.EndLabel)
		}
	}
	var assigned bool
	for _, s := range stmts(prog) {
		if apt.FormatExpr(s.Target) == "do20i" && apt.FormatExpr(s.Value) == "1.5" {
			assigned = true
		}
	}
	if !assigned {
		t.Error("DO 20 I = 1. 5 not read as the assignment DO20I = 1.5")
	}
	if g := nodes[*apt.Goto](prog); len(g) != 2 || g[0].Targets[0] != "30" || g[1].Targets[0] != "30" {
		t.Errorf("GO TO forms: %v", g)
	}
}

func TestFixedFormSharedTermination(t *testing.T) {
	src := "" +
		"      SUBROUTINE S(A, N)\n" +
		"      DOUBLE PRECISION A(N, N)\n" +
		"      DO 10 J = 1, N\n" +
		"      DO 10 I = 1, N\n" +
		"         A(I, J) = 0.0D0\n" +
		"   10 CONTINUE\n" +
		"      A(1, 1) = 1.0D0\n" +
		"      END\n"
	prog := parse(t, "s.f", src)
	r := prog.Routines[0]
	if len(r.Body) != 2 {
		t.Fatalf("routine has %d top-level nodes, want loop and block", len(r.Body))
	}
	outer := r.Body[0].(*apt.Loop)
	inner := outer.Body[0].(*apt.Loop)
	if len(outer.Body) != 1 || inner.Var != "i" {
		t.Fatalf("outer body %d nodes, inner var %q", len(outer.Body), inner.Var)
	}
	if _, ok := inner.Body[len(inner.Body)-1].(*apt.Continue); !ok {
		t.Error("terminal CONTINUE not in the inner loop")
	}
	if outer.ID != "s/L1" || inner.ID != "s/L1/L1" {
		t.Errorf("IDs %s %s", outer.ID, inner.ID)
	}
}

func TestFreeForm(t *testing.T) {
	src := "" +
		"program Free   ! comment\n" +
		"  implicit none\n" +
		"  integer :: i, n; real(kind=8) :: x\n" +
		"  n = 3; x = 1.0d0 + &\n" +
		"      & 2.0d0 * &  ! comment after &\n" +
		"      n\n" +
		"  DO I = 1, N\n" +
		"    X = X + I\n" +
		"  End Do\n" +
		"end program free\n"
	prog := parse(t, "free.f90", src)
	ss := stmts(prog)
	if len(ss) != 3 {
		t.Fatalf("got %d statements, want 3", len(ss))
	}
	if got := apt.FormatExpr(ss[1].Value); got != "1.0d0 + 2.0d0*n" {
		t.Errorf("continued = %q", got)
	}
	if ss[1].Span.Line != 4 || ss[1].Span.Col != 10 {
		t.Errorf("statement after ; starts at %d:%d, want 4:10", ss[1].Span.Line, ss[1].Span.Col)
	}
	loops := nodes[*apt.Loop](prog)
	if len(loops) != 1 || loops[0].Var != "i" {
		t.Fatalf("loops %v", loops)
	}
	x := prog.Routines[0].Scope.Lookup("x")
	if x == nil || x.Type.Base != apt.TypeReal || x.Type.Kind != 8 {
		t.Errorf("x declared as %v", x)
	}
}

func TestOpCounts(t *testing.T) {
	src := "" +
		"      subroutine ops(a, b, n, m)\n" +
		"      integer n, m, k\n" +
		"      double precision a(n), b(n), s\n" +
		"      a(1) = a(2)*b(3) + sqrt(b(4)) - 2.0d0/s\n" +
		"      s = -s**2 + max(s, a(n-1))\n" +
		"      k = n/m + mod(n, m)\n" +
		"      a(2:n) = b(1:n-1)\n" +
		"      end\n"
	prog := parse(t, "ops.f", src)
	ss := stmts(prog)
	want := []string{
		"add=2 mul=1 div=1 load=3 store=1 sqrt=1",
		"add=1 pow=1 neg=1 subscript=1 load=1 max=1",
		"add=1 div=1 idiv=1 mod=1",
		"subscript=1 load=1 store=1 vector",
	}
	for i, w := range want {
		if got := apt.FormatOps(ss[i].Ops); got != w {
			t.Errorf("statement %d ops = %q, want %q", i+1, got, w)
		}
	}
	if b, ok := ss[2].Value.(*apt.Binary); !ok || !b.X.(*apt.Binary).IntDiv {
		t.Error("n/m on integers not marked IntDiv")
	}
	if b := ss[0].Value.(*apt.Binary).Y.(*apt.Binary); b.IntDiv {
		t.Error("2.0d0/s marked IntDiv")
	}
}

func TestCaseInsensitive(t *testing.T) {
	upper := parse(t, "u.f", "      PROGRAM P\n      INTEGER N\n      N = 1\n      IF (N .EQ. 1) N = 2\n      END\n")
	mixed := parse(t, "u.f", "      Program p\n      integer N\n      n = 1\n      iF (n .eq. 1) N = 2\n      eNd\n")
	if a, b := render(upper, nil), render(mixed, nil); !bytes.Equal(a, b) {
		t.Errorf("case changes the tree:\n%s\n%s", a, b)
	}
}

func TestMPIComm(t *testing.T) {
	src := "" +
		"program m\n" +
		"  include 'mpif.h'\n" +
		"  integer ierr, me, req, st(MPI_STATUS_SIZE)\n" +
		"  real x(10)\n" +
		"  integer k(4)\n" +
		"  double precision d, e\n" +
		"  call MPI_SEND(x, 10, MPI_REAL, me+1, 7, MPI_COMM_WORLD, ierr)\n" +
		"  call mpi_irecv(k, 4, MPI_INTEGER, me-1, 8, MPI_COMM_WORLD, req, ierr)\n" +
		"  call MPI_Reduce(d, e, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 3, MPI_COMM_WORLD, ierr)\n" +
		"  call MPI_SENDRECV(x, 2, MPI_REAL, 1, 5, k, 3, MPI_INTEGER, 2, 6, MPI_COMM_WORLD, st, ierr)\n" +
		"  call MPI_BCAST(d, 1, MPI_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD, ierr)\n" +
		"end\n"
	prog := parse(t, "m.f90", src)
	cs := nodes[*apt.Comm](prog)
	if len(cs) != 5 {
		t.Fatalf("got %d comm nodes, want 5", len(cs))
	}
	check := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	s := cs[0]
	check("send op", s.Op, apt.MPISend)
	check("send buffer", apt.FormatExpr(s.Send.Buffer), "x")
	check("send count", apt.FormatExpr(s.Send.Count), "10")
	check("send size", s.Send.TypeSize, 4)
	check("send peer", apt.FormatExpr(s.Send.Peer), "me + 1")
	check("send tag", apt.FormatExpr(s.Send.Tag), "7")
	check("send comm", apt.FormatExpr(s.Comm), "mpi_comm_world")
	check("send blocking", s.Blocking, true)
	r := cs[1]
	check("irecv op", r.Op, apt.MPIIrecv)
	check("irecv size", r.Recv.TypeSize, 4)
	check("irecv peer", apt.FormatExpr(r.Recv.Peer), "me - 1")
	check("irecv request", apt.FormatExpr(r.Request), "req")
	check("irecv blocking", r.Blocking, false)
	red := cs[2]
	check("reduce size", red.Send.TypeSize, 8)
	check("reduce root", apt.FormatExpr(red.Root), "3")
	check("reduce op", apt.FormatExpr(red.Reduce), "mpi_max")
	check("reduce recv buffer", apt.FormatExpr(red.Recv.Buffer), "e")
	sr := cs[3]
	check("sendrecv send", apt.FormatExpr(sr.Send.Peer)+"/"+apt.FormatExpr(sr.Send.Tag)+"/"+fmt.Sprint(sr.Send.TypeSize), "1/5/4")
	check("sendrecv recv", apt.FormatExpr(sr.Recv.Peer)+"/"+apt.FormatExpr(sr.Recv.Count)+"/"+apt.FormatExpr(sr.Recv.Tag), "2/3/6")
	check("bcast size", cs[4].Send.TypeSize, 16)
	st := prog.Routines[0].Scope.Lookup("st")
	if st == nil || len(st.Dims) != 1 || apt.FormatExpr(st.Dims[0].Hi) != "mpi_status_size" {
		t.Fatalf("st declared as %v", st)
	}
	if v := prog.Resolve(prog.Routines[0], "mpi_status_size"); v == nil || apt.FormatExpr(v.Param) != "6" {
		t.Errorf("mpi_status_size = %v", v)
	}
}

func TestDatatypeSizes(t *testing.T) {
	for name, want := range map[string]int{
		"MPI_DOUBLE_PRECISION": 8, "MPI_REAL": 4, "MPI_INTEGER": 4, "MPI_LOGICAL": 4,
		"MPI_COMPLEX": 8, "MPI_DOUBLE_COMPLEX": 16, "MPI_CHARACTER": 1, "MPI_BYTE": 1,
		"MPI_REAL8": 8, "MPI_INTEGER8": 8, "MPI_2DOUBLE_PRECISION": 16, "MPI_DOUBLE": 8,
	} {
		src := "program d\ninclude 'mpif.h'\nreal x\ncall MPI_SEND(x, 1, " + name + ", 0, 0, MPI_COMM_WORLD, i)\nend\n"
		cs := nodes[*apt.Comm](parse(t, "d.f90", src))
		if len(cs) != 1 || cs[0].Send.TypeSize != want {
			t.Errorf("%s: comm nodes %v, want one with size %d", name, cs, want)
		}
	}
}

func TestErrorRecovery(t *testing.T) {
	src := "" +
		"      program e\n" +
		"      x = (1 + \n" +
		"      y = 2\n" +
		"      call foo(\n" +
		"      if (x .gt. 1) then\n" +
		"      z = )\n" +
		"      endif\n" +
		"      end\n"
	prog, diags := ParseSource("e.f", []byte(src), Config{})
	re := regexp.MustCompile(`^e\.f:\d+:\d+: .+`)
	if len(diags) != 3 {
		t.Fatalf("got %d diagnostics, want 3: %v", len(diags), diags)
	}
	for _, d := range diags {
		if !re.MatchString(d.String()) {
			t.Errorf("diagnostic %q not of the form file:line:col: message", d)
		}
	}
	if diags[0].Pos.Line != 2 || diags[1].Pos.Line != 4 || diags[2].Pos.Line != 6 {
		t.Errorf("diagnostic lines %d %d %d, want 2 4 6", diags[0].Pos.Line, diags[1].Pos.Line, diags[2].Pos.Line)
	}
	if diags[2].Pos.Col != 11 {
		t.Errorf("column of the error in 'z = )' is %d, want 11", diags[2].Pos.Col)
	}
	unk := nodes[*apt.Unknown](prog)
	if len(unk) != 3 {
		t.Fatalf("got %d Unknown nodes, want 3", len(unk))
	}
	for _, u := range unk {
		if u.Diag.Msg == "" {
			t.Errorf("Unknown %s without a diagnostic", u.ID)
		}
	}
	// Parsing resumed: y = 2 and the IF construct are there.
	if len(nodes[*apt.If](prog)) != 1 || len(stmts(prog)) != 1 {
		t.Errorf("statements after the errors were not parsed")
	}
}

func TestIncludeAndPreprocessor(t *testing.T) {
	cfg := Config{
		Files: map[string][]byte{
			"sizes.h": []byte("      integer n\n      parameter (n = 100)\n"),
			"defs.h":  []byte("#define M 7\n"),
		},
		Defines: map[string]string{"USE_B": ""},
	}
	src := "" +
		"#include \"defs.h\"\n" +
		"      program inc\n" +
		"      include 'sizes.h'\n" +
		"      integer k\n" +
		"#ifdef USE_B\n" +
		"      k = n + M\n" +
		"#else\n" +
		"      k = 0\n" +
		"#endif\n" +
		"#if defined(USE_C) || M > 5\n" +
		"      k = k + 1\n" +
		"#endif\n" +
		"      end\n"
	prog, diags := ParseSource("inc.F", []byte(src), cfg)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	ss := stmts(prog)
	if len(ss) != 2 || apt.FormatExpr(ss[0].Value) != "n + 7" || apt.FormatExpr(ss[1].Value) != "k + 1" {
		t.Fatalf("statements: %v", ss)
	}
	if ss[0].Span.Line != 6 {
		t.Errorf("line numbers shifted by the preprocessor: %d, want 6", ss[0].Span.Line)
	}
	n := prog.Resolve(prog.Routines[0], "n")
	if n == nil || apt.FormatExpr(n.Param) != "100" {
		t.Errorf("PARAMETER from the INCLUDEd header not visible: %v", n)
	}
}

// TestReadFileHook: with Config.ReadFile every source and INCLUDE file is
// read through it under the names positions show, found by the usual
// search (the including file's directory, then -I), and the files on disk
// are not read.
func TestReadFileHook(t *testing.T) {
	files := map[string]string{
		filepath.Join("src", "main.f"): "      program m\n      include 'cfg.h'\n      integer k\n      k = np\n      end\n",
		filepath.Join("src", "cfg.h"):  "      integer np\n      parameter (np = 16)\n",
	}
	var read []string
	cfg := Config{ReadFile: func(name string) ([]byte, error) {
		read = append(read, name)
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}}
	prog, diags := ParseFiles([]string{filepath.Join("src", "main.f")}, cfg)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if want := []string{filepath.Join("src", "main.f"), filepath.Join("src", "cfg.h")}; strings.Join(read, " ") != strings.Join(want, " ") {
		t.Errorf("read %v, want %v", read, want)
	}
	np := prog.Resolve(prog.Routines[0], "np")
	if np == nil || apt.FormatExpr(np.Param) != "16" || np.Pos.File != filepath.Join("src", "cfg.h") {
		t.Errorf("PARAMETER from the header read through the hook: %+v", np)
	}
	if f := prog.Routines[0].Span.File; f != filepath.Join("src", "main.f") {
		t.Errorf("routine in %q, want src/main.f", f)
	}
}

func TestAnnotationsAndDirectives(t *testing.T) {
	src := "" +
		"program a\n" +
		"  integer :: n, i, x(100)\n" +
		"  !mk$ param n = 1000\n" +
		"  !mk$ assume n >= p\n" +
		"!hpf$ processors pr(4)\n" +
		"!hpf$ distribute x(cyclic(2)) onto pr\n" +
		"  !mk$ iterations n/2\n" +
		"  do while (n > 1)\n" +
		"    n = n/2\n" +
		"  end do\n" +
		"  !$omp parallel do\n" +
		"  do i = 1, 100\n" +
		"    x(i) = i\n" +
		"  end do\n" +
		"  !mk$ region begin solve\n" +
		"  !mk$ region end\n" +
		"end program\n"
	prog := parse(t, "a.f90", src)
	r := prog.Routines[0]
	if len(r.Params) != 1 || r.Params[0].Name != "n" || apt.FormatExpr(r.Params[0].Value) != "1000" {
		t.Errorf("params %v", r.Params)
	}
	if len(r.Assumes) != 1 || apt.FormatExpr(r.Assumes[0].Cond) != "n >= p" {
		t.Errorf("assumes %v", r.Assumes)
	}
	if r.Scope.Lookup("p") != nil {
		t.Error("a name only in an annotation became a variable")
	}
	x := r.Scope.Lookup("x")
	if x.Dist == nil || x.Dist.Onto != "pr" || x.Dist.Formats[0].Kind != apt.DistCyclic || apt.FormatExpr(x.Dist.Formats[0].Arg) != "2" {
		t.Errorf("distribution %+v", x.Dist)
	}
	loops := nodes[*apt.Loop](prog)
	if apt.FormatExpr(loops[0].Iterations) != "n/2" || loops[1].Iterations != nil {
		t.Error("!mk$ iterations not attached to exactly the next loop")
	}
	if loops[1].OMP != "parallel do" {
		t.Errorf("omp = %q", loops[1].OMP)
	}
	regs := nodes[*apt.Region](prog)
	if len(regs) != 2 || !regs[0].Begin || regs[0].Name != "solve" || regs[1].Begin {
		t.Errorf("regions %v", regs)
	}
}

func TestModulesAndTypes(t *testing.T) {
	src := "" +
		"module m\n" +
		"  integer, parameter :: dp = kind(1.0d0)\n" +
		"  type :: cell\n" +
		"    real(dp), allocatable :: v(:)\n" +
		"    integer :: n\n" +
		"  end type cell\n" +
		"end module m\n" +
		"subroutine s(c)\n" +
		"  use m\n" +
		"  type(cell), intent(inout) :: c\n" +
		"  c%v(1) = c%v(2) + c%n\n" +
		"  c%v = f(c%n)\n" +
		"end subroutine s\n"
	prog := parse(t, "m.f90", src)
	s := prog.Routine("s")
	dp := prog.Resolve(s, "dp")
	if dp == nil || dp.Param == nil {
		t.Fatal("dp from module m not visible in s")
	}
	ss := stmts(prog)
	if got := apt.FormatOps(ss[0].Ops); got != "add=1 load=1 store=1" {
		t.Errorf("component ops %q", got)
	}
	if tp := apt.TypeOf(ss[0].Target); tp.Base != apt.TypeReal || tp.Kind != 8 {
		t.Errorf("c%%v(1) has type %v", tp)
	}
	if f, ok := ss[1].Value.(*apt.FuncCall); !ok || f.Intrinsic || f.Type.Base != apt.TypeReal {
		t.Errorf("f(c%%n) = %#v", ss[1].Value)
	}
	if c := s.Scope.Lookup("c"); c.Intent != "inout" || c.Type.Derived != "cell" {
		t.Errorf("c declared as %+v", c)
	}
}

func TestIDsStableAcrossRoutines(t *testing.T) {
	a := "      subroutine a\n      call x\n      end\n      subroutine b\n      do 10 i = 1, 2\n      call y\n   10 continue\n      end\n"
	b := "      subroutine a\n      call x\n      call x\n      do 5 j = 1, 3\n    5 continue\n      end\n      subroutine b\n      do 10 i = 1, 2\n      call y\n   10 continue\n      end\n"
	ida := nodes[*apt.Call](parse(t, "a.f", a))
	idb := nodes[*apt.Call](parse(t, "b.f", b))
	if ida[1].ID != "b/L1/C1" || idb[2].ID != "b/L1/C1" {
		t.Errorf("IDs in b changed after editing a: %s vs %s", ida[1].ID, idb[2].ID)
	}
}

func TestNeverPanics(t *testing.T) {
	for _, src := range []string{
		"", "\n\n", "&", "      &", "     1x", "(((((((((((((", "x = ((((((((((", "program\nend", "end\nend\nend",
		"#if\n", "#endif\n", "#include\n", "      if (", "      do 10", "   10 continue", "'unterminated",
		"type t\n", "module\ncontains\nsubroutine\n", "x = 1.e", "x = .", "x=(/", "call mpi_send()",
		strings.Repeat("(", 10000), "!$omp parallel do\n!$omp& &\n", "select case (x)\ncase (1:)\nend select",
		// Deep nesting: hierarchical IDs would grow quadratically without the
		// nesting bounds.
		strings.Repeat("if (x) then\n", 5000), strings.Repeat("      do 10 i=1,2\n", 5000) + "   10 continue\n",
		strings.Repeat("subroutine a\ncontains\n", 5000), "x = a" + strings.Repeat("%a", 5000),
	} {
		for _, name := range []string{"f.f", "f.f90", "f.F", "f.F90"} {
			ParseSource(name, []byte(src), Config{})
		}
	}
}

func TestForall(t *testing.T) {
	src := "" +
		"program fa\n" +
		"  real :: a(10, 10)\n" +
		"  integer :: i, j\n" +
		"  forall (i = 1:10, j = 1:10:2, i /= j) a(i, j) = 1.0/(i + j)\n" +
		"end program fa\n"
	loops := nodes[*apt.Loop](parse(t, "fa.f90", src))
	if len(loops) != 2 || loops[0].Var != "i" || loops[1].Var != "j" || apt.FormatExpr(loops[1].Step) != "2" || !loops[1].Independent {
		t.Fatalf("FORALL nest: %v", loops)
	}
	st := loops[1].Body[0].(*apt.Block).Stmts[0]
	if apt.FormatExpr(st.Mask) != "i /= j" {
		t.Errorf("mask %q", apt.FormatExpr(st.Mask))
	}
}

func TestDoConcurrent(t *testing.T) {
	src := "" +
		"program dc\n" +
		"  real :: a(10, 10)\n" +
		"  integer :: i, j\n" +
		"  do concurrent (i = 1:10, j = 1:10, i > j)\n" +
		"    a(i, j) = 0.0\n" +
		"  end do\n" +
		"  a(1, 1) = 1.0\n" +
		"end program dc\n"
	prog := parse(t, "dc.f90", src)
	loops := nodes[*apt.Loop](prog)
	if len(loops) != 2 || !loops[0].Independent || !loops[1].Independent || loops[1].Var != "j" {
		t.Fatalf("DO CONCURRENT nest: %v", loops)
	}
	if len(prog.Routines[0].Body) != 2 || loops[0].Span.EndLine != 6 {
		t.Errorf("END DO did not close the whole nest")
	}
	if ifs := nodes[*apt.If](prog); len(ifs) != 1 || apt.FormatExpr(ifs[0].Branches[0].Cond) != "i > j" {
		t.Errorf("mask: %v", ifs)
	}
}

// TestFormatStatements: a FORMAT statement is kept by its routine under
// its label (leading zeros dropped, as a label's value), its text without
// the blanks and case that do not count, a character string as written;
// in fixed form too.
func TestFormatStatements(t *testing.T) {
	prog := parse(t, "f.f90", `subroutine s
  integer :: n
  read (5, 100) n
0100 format (I4, 2x, A 'Say "hi"', f8.3)
end subroutine s
`)
	r := prog.Routine("s")
	if got := r.Formats["100"]; got != `(I4,2X,A'Say "hi"',F8.3)` {
		t.Errorf("format 100: %q (all: %q)", got, r.Formats)
	}
	fixed := parse(t, "f.f", "      PROGRAM P\n      READ (5, 10) N\n   10 FORMAT (I5 /\n     &   2X, A)\n      END\n")
	if got := fixed.Routine("p").Formats["10"]; got != "(I5/2X,A)" {
		t.Errorf("fixed-form format 10: %q", got)
	}
}
