package llvmir

import (
	"bufio"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
		outer := enclosingLoops(l.prog)
		for _, s := range l.sites {
			lp, ok := s.Node.(*apt.Loop)
			if !ok {
				continue
			}
			rec := loopRec{fn: s.Func.Name(), header: s.Header.Name(), bottom: s.Bottom, node: lp, outer: outer[lp]}
			want, ok := scev[rec.fn+"/"+rec.header]
			if !ok {
				t.Errorf("%v: %s loop %s at %s: SCEV has no count", pt, rec.fn, rec.header, rec.node.Span.Start())
				continue
			}
			if rec.bottom {
				want++
			}
			got, ok := tripCount(rec)
			if !ok {
				t.Errorf("%v: %s loop %s at %s: no constant trip count (%s)", pt, rec.fn, rec.header, rec.node.Span.Start(), apt.FormatExpr(rec.node.Upper))
				continue
			}
			if got != want {
				t.Errorf("%v: %s loop %s at %s: trip count %d, SCEV %d (DO %s = %s, %s, %v)", pt, rec.fn, rec.header,
					rec.node.Span.Start(), got, want, rec.node.Var, apt.FormatExpr(rec.node.Lower), apt.FormatExpr(rec.node.Upper), rec.node.Step)
			}
			compared++
		}
	}
	if compared < 8*15 {
		t.Errorf("compared %d loops, want every loop of the kernels at every point", compared)
	}
	t.Logf("%d loop trip counts agree with SCEV at %d points", compared, len(points))
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

// tripCount evaluates a counted loop's Fortran trip count with the
// enclosing loops at their first iterations.
func tripCount(rec loopRec) (int64, bool) {
	env := map[string]int64{}
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
