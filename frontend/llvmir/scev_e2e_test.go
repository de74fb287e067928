package llvmir

import (
	"bufio"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/llir/llvm/asm"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestTripCountsAgainstSCEV is the differential test of the loop analysis:
// at random sizes, the trip count every Loop node of testdata/loops.c
// implies (Fortran's max(0, floor((U - L + S)/S)) with the bounds the
// frontend derived) must equal what opt-14's scalar evolution computes for
// the same IR loop: its backedge-taken count, plus one where the test is at
// the bottom (the body runs once more than the back edge). SCEV's count of
// an inner loop may be an add recurrence {A,+,B} over an outer loop: it is
// compared at the outer loops' first iterations, A.
func TestTripCountsAgainstSCEV(t *testing.T) {
	tools := e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	rng := rand.New(rand.NewSource(17))
	points := []map[string]int64{{"N": 0, "M": 0, "S": 1, "K": 0}, {"N": 1, "M": 1, "S": 1, "K": 0}}
	for len(points) < 8 {
		points = append(points, map[string]int64{"N": 2 + rng.Int63n(60), "M": 1 + rng.Int63n(40),
			"S": 1 + rng.Int63n(6), "K": rng.Int63n(5)})
	}
	compared := 0
	for _, pt := range points {
		defs := map[string]string{}
		for k, v := range pt {
			defs[k] = strconv.FormatInt(v, 10)
		}
		ir, name, diags := Compile([]string{"testdata/loops.c"}, Config{Defines: defs, Clang: tools[0], Opt: tools[1], Link: tools[2]})
		if ir == nil {
			t.Fatalf("%v: %v", pt, diags)
		}
		scev := scevCounts(t, tools[1], name, ir)
		m, err := asm.ParseBytes(name, ir)
		if err != nil {
			t.Fatal(err)
		}
		l := newLifter(m, name, []string{"testdata/loops.c"})
		l.run()
		for _, d := range l.diags {
			t.Errorf("%v: %v", pt, d)
		}
		compared += compareWithSCEV(t, l, scev, nil, fmt.Sprint(pt))
	}
	if compared < 8*15 {
		t.Errorf("compared %d loops, want every loop of the kernels at every point", compared)
	}
	t.Logf("%d loop trip counts agree with SCEV at %d points", compared, len(points))
}

// compareWithSCEV compares the trip count of every counted loop of the
// lifted program, its bounds evaluated with inputs (the values the bounds
// read), with SCEV's backedge-taken count of its IR loop (one more where the
// test is at the bottom), and returns how many it compared; at says where.
func compareWithSCEV(t *testing.T, l *lifter, scev map[string]int64, inputs map[string]int64, at string) (compared int) {
	t.Helper()
	outer := enclosingLoops(l.prog)
	for _, s := range l.sites {
		lp, ok := s.Node.(*apt.Loop)
		if !ok {
			continue
		}
		rec := loopRec{fn: s.Func.Name(), header: s.Header.Name(), bottom: s.Bottom, node: lp, outer: outer[lp]}
		want, ok := scev[rec.fn+"/"+rec.header]
		if !ok {
			t.Errorf("%s: %s loop %s at %s: SCEV has no count", at, rec.fn, rec.header, lp.Span.Start())
			continue
		}
		if rec.bottom {
			want++
		}
		got, ok := tripCountAt(rec, inputs)
		if !ok {
			t.Errorf("%s: %s loop %s at %s: no trip count from the bounds (%s)", at, rec.fn, rec.header, lp.Span.Start(), apt.FormatExpr(lp.Upper))
			continue
		}
		if got != want {
			t.Errorf("%s: %s loop %s at %s: trip count %d, SCEV %d (DO %s = %s, %s, %v)", at, rec.fn, rec.header,
				lp.Span.Start(), got, want, lp.Var, apt.FormatExpr(lp.Lower), apt.FormatExpr(lp.Upper), lp.Step)
		}
		compared++
	}
	return compared
}

// loopRec is a loop of the APT with its IR loop (function and header) and
// the loops around it.
type loopRec struct {
	fn, header string
	bottom     bool
	node       *apt.Loop
	outer      []*apt.Loop
}

// enclosingLoops maps every Loop of prog to the loops around it in its
// routine, outermost first.
func enclosingLoops(prog *apt.Program) map[*apt.Loop][]*apt.Loop {
	out := map[*apt.Loop][]*apt.Loop{}
	var walk func(n apt.Node, stack []*apt.Loop)
	walk = func(n apt.Node, stack []*apt.Loop) {
		if lp, ok := n.(*apt.Loop); ok {
			out[lp] = append([]*apt.Loop(nil), stack...)
			stack = append(stack, lp)
		}
		for _, c := range apt.Children(n) {
			walk(c, stack)
		}
	}
	walk(prog, nil)
	return out
}

// TestTripCountsFromArgvAgainstSCEV is the differential test for loops
// over sizes parsed from argv (testdata/argloops.c): the frontend keeps
// them as the input parameters n and m, and the trip counts it derives are
// evaluated at random values of those; SCEV is given the same values as
// constants written in place of the atoi and strtol calls in the IR.
func TestTripCountsFromArgvAgainstSCEV(t *testing.T) {
	tools := e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	files := []string{"testdata/argloops.c"}
	ir, name, diags := Compile(files, Config{Clang: tools[0], Opt: tools[1], Link: tools[2]})
	if ir == nil {
		t.Fatal(diags)
	}
	m, err := asm.ParseBytes(name, ir)
	if err != nil {
		t.Fatal(err)
	}
	l := newLifter(m, name, files)
	l.run()
	for _, d := range l.diags {
		t.Error(d)
	}
	var reads []string
	apt.Inspect(l.prog, func(n apt.Node) bool {
		if io, ok := n.(*apt.IO); ok {
			reads = append(reads, io.Reads...)
		}
		return true
	})
	if !slices.Equal(reads, []string{"n", "m"}) {
		t.Fatalf("the values parsed from argv are %v, want the inputs n and m", reads)
	}
	// The calls in the IR, in order: argv[1] by atoi, argv[2] by strtol.
	call := regexp.MustCompile(`(?m)^(\s*%[\w.]+) = call (i32|i64) @(atoi|strtol)\([^\n]*$`)
	if got := len(call.FindAllIndex(ir, -1)); got != 2 {
		t.Fatalf("%d atoi/strtol calls in the IR, want 2", got)
	}
	rng := rand.New(rand.NewSource(23))
	points := [][2]int64{{0, 0}, {1, 1}, {2, 5}}
	for len(points) < 8 {
		points = append(points, [2]int64{1 + rng.Int63n(70), rng.Int63n(50)})
	}
	compared := 0
	for _, pt := range points {
		k := 0
		fixed := call.ReplaceAllFunc(ir, func(b []byte) []byte {
			sub := call.FindSubmatch(b)
			v := pt[k]
			k++
			return []byte(fmt.Sprintf("%s = add %s 0, %d", sub[1], sub[2], v))
		})
		scev := scevCounts(t, tools[1], name, fixed)
		compared += compareWithSCEV(t, l, scev, map[string]int64{"n": pt[0], "m": pt[1]}, fmt.Sprintf("n=%d m=%d", pt[0], pt[1]))
	}
	if compared < 8*10 {
		t.Errorf("compared %d loops, want the 10 loops at each of the 8 points", compared)
	}
	t.Logf("%d trip counts over argv-derived sizes agree with SCEV at %d points", compared, len(points))
}

var (
	scevFunc  = regexp.MustCompile(`^Printing analysis 'Scalar Evolution Analysis' for function '([^']+)'`)
	scevCount = regexp.MustCompile(`^Loop %([\w.]+): backedge-taken count is (.+)$`)
	addRec    = regexp.MustCompile(`^\{(-?\d+),\+,(-?\d+)\}`)
)

// scevCounts runs opt-14's scalar evolution printer on the IR and returns
// each loop's backedge-taken count by function/header: an integer, or the
// start of an add recurrence.
func scevCounts(t *testing.T, opt, name string, ir []byte) map[string]int64 {
	file := filepath.Join(t.TempDir(), "normalised.ll")
	if err := os.WriteFile(file, ir, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(opt, "-disable-output", "-passes=print<scalar-evolution>", file)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", opt, err, out)
	}
	counts := map[string]int64{}
	fn := ""
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := scevFunc.FindStringSubmatch(line); m != nil {
			fn = m[1]
			continue
		}
		m := scevCount.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := strings.TrimSpace(m[2])
		if r := addRec.FindStringSubmatch(text); r != nil {
			text = r[1]
		}
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			continue
		}
		counts[fn+"/"+m[1]] = v
	}
	return counts
}

// tripCountAt evaluates a counted loop's Fortran trip count with the
// enclosing loops at their first iterations and the values of names the
// bounds read (inputs).
func tripCountAt(rec loopRec, inputs map[string]int64) (int64, bool) {
	env := maps.Clone(inputs)
	if env == nil {
		env = map[string]int64{}
	}
	for _, o := range rec.outer {
		if o.Var == "" {
			return 0, false
		}
		lo, ok := evalConst(o.Lower, env)
		if !ok {
			return 0, false
		}
		env[o.Var] = lo
	}
	n := rec.node
	if n.Var == "" {
		return 0, false
	}
	lo, ok1 := evalConst(n.Lower, env)
	hi, ok2 := evalConst(n.Upper, env)
	st := int64(1)
	ok3 := true
	if n.Step != nil {
		st, ok3 = evalConst(n.Step, env)
	}
	if !ok1 || !ok2 || !ok3 || st == 0 {
		return 0, false
	}
	q := hi - lo + st
	trip := q / st
	if q%st != 0 && (q < 0) != (st < 0) {
		trip-- // floor
	}
	return max(0, trip), true
}

func evalConst(e apt.Expr, env map[string]int64) (int64, bool) {
	switch x := e.(type) {
	case *apt.Const:
		v, err := strconv.ParseInt(x.Text, 10, 64)
		return v, err == nil
	case *apt.Name:
		v, ok := env[x.Name]
		return v, ok
	case *apt.Unary:
		v, ok := evalConst(x.X, env)
		if x.Op == apt.OpNeg {
			return -v, ok
		}
		return v, ok && x.Op == apt.OpPlus
	case *apt.Binary:
		a, ok1 := evalConst(x.X, env)
		b, ok2 := evalConst(x.Y, env)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case apt.OpAdd:
			return a + b, true
		case apt.OpSub:
			return a - b, true
		case apt.OpMul:
			return a * b, true
		case apt.OpDiv:
			if b == 0 {
				return 0, false
			}
			return a / b, true
		}
	case *apt.FuncCall:
		if len(x.Args) != 2 || (x.Name != "max" && x.Name != "min") {
			return 0, false
		}
		a, ok1 := evalConst(x.Args[0], env)
		b, ok2 := evalConst(x.Args[1], env)
		if x.Name == "max" {
			return max(a, b), ok1 && ok2
		}
		return min(a, b), ok1 && ok2
	}
	return 0, false
}
