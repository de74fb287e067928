package phase

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
)

const programs = "../../testdata/programs"

func parse(t testing.TB, file string) *apt.Program {
	t.Helper()
	prog, diags := fortran.ParseFiles([]string{filepath.Join(programs, file)}, fortran.Config{IncludeDirs: []string{programs}})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%s: %s", file, d)
		}
	}
	return prog
}

func analyze(t testing.TB, file string, opt Options) *Analysis {
	t.Helper()
	a, err := Analyze(parse(t, file), opt)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return a
}

func expr(s string) symbolic.Expr { return symbolic.MustParse(s) }

// kinds lists the phases' kinds in program order.
func kinds(a *Analysis) []Kind {
	var out []Kind
	for _, g := range a.Phases {
		out = append(out, g.Kind)
	}
	return out
}

func sameExpr(t *testing.T, what string, got symbolic.Expr, want string) {
	t.Helper()
	if !got.Equal(expr(want)) {
		t.Errorf("%s = %v, want %s", what, got, want)
	}
}

// TestPGE1 checks pge1.f, the forward elimination of MK's PGE1: the
// multipliers travel from the pivot's owner to rank P-1, each rank
// receiving from its left neighbour before it sends to its right one: one
// pipeline phase along offset 1 whose longest chain has P ranks (P-1 hops,
// MK's "depth P-1"), and the final reduce.
func TestPGE1(t *testing.T) {
	a := analyze(t, "pge1.f", Options{})
	if got := kinds(a); !slices.Equal(got, []Kind{Pipeline}) {
		t.Fatalf("phases %v, want one pipeline", got)
	}
	g := a.Phases[0]
	sameExpr(t, "offset", *g.Offset, "1")
	sameExpr(t, "depth", g.Depth, "P")
	if len(g.Sends) != 1 || len(g.Recvs) != 1 || g.Sends[0].Comm.ID != "pge1/L2/I3/b1/M1" || g.Recvs[0].Comm.ID != "pge1/L2/I2/b2/M1" {
		t.Errorf("calls %v / %v", g.Sends, g.Recvs)
	}
	for p, d := range g.Depths {
		if d != int(p) && !(p == 1 && d == 0) {
			t.Errorf("longest chain at P=%d: %d ranks", p, d)
		}
	}
	if len(a.Collectives) != 1 || a.Collectives[0].Comm.Op != apt.MPIReduce {
		t.Errorf("collectives %v", a.Collectives)
	}
}

// TestPGE1Solve checks MK's finding for PGE1 (seed 000 §5.1.1) on a
// one-way elimination with back substitution: two pipeline phases whose
// chains are P ranks long, which cannot overlap because the ranks that
// receive in the first send in the second.
func TestPGE1Solve(t *testing.T) {
	a := analyze(t, "pge1_solve.f", Options{})
	if got := kinds(a); !slices.Equal(got, []Kind{Pipeline, Pipeline}) {
		t.Fatalf("phases %v, want two pipelines", got)
	}
	sameExpr(t, "forward offset", *a.Phases[0].Offset, "1")
	sameExpr(t, "backward offset", *a.Phases[1].Offset, "-1")
	for _, g := range a.Phases {
		sameExpr(t, g.Name+" depth", g.Depth, "P")
	}
	if len(a.Overlaps) != 1 || a.Overlaps[0].Overlaps() {
		t.Fatalf("overlaps %+v, want the pair dependent", a.Overlaps)
	}
	if len(a.Steps()) != 2 {
		t.Errorf("%d steps, want the two phases one after the other", len(a.Steps()))
	}
}

// TestPGE2 checks MK's PGE2 structure (seed 000 §4.2, §5.1.2) on pge2.f:
// two pipelines in the forward elimination that overlap, two exchanges
// that overlap (from P = 4 on: at P = 3 the middle pair and the ring pair
// share rank 0), and two pipelines in the back substitution that overlap;
// each pipeline's chain is half the ranks.
func TestPGE2(t *testing.T) {
	a := analyze(t, "pge2.f", Options{})
	want := []Kind{Pipeline, Pipeline, Exchange, Exchange, Pipeline, Pipeline}
	if got := kinds(a); !slices.Equal(got, want) {
		t.Fatalf("phases %v, want %v", got, want)
	}
	depths := []string{"floor(P/2)", "floor((P+1)/2)", "", "", "floor(P/2)", "floor((P+1)/2)"}
	offsets := []string{"1", "-1", "1", "P - 1", "-1", "1"}
	for i, g := range a.Phases {
		if depths[i] != "" {
			sameExpr(t, g.Name+" depth", g.Depth, depths[i])
		}
		off := g.Offset
		if off == nil {
			off = g.Root
		}
		if off == nil {
			t.Errorf("%s: no offset or root", g.Name)
			continue
		}
		sameExpr(t, g.Name+" offset or root", *off, offsets[i])
	}
	steps := a.Steps()
	if len(steps) != 3 {
		t.Fatalf("%d steps, want 3 overlapped pairs", len(steps))
	}
	for i, st := range steps {
		if len(st.Phases) != 2 || st.Overlap == nil || !st.Overlap.Overlaps() {
			t.Fatalf("step %d (%s) is not an overlapped pair", i, st.Name())
		}
	}
	if o := steps[1].Overlap; o.Always || o.From != 4 {
		t.Errorf("exchanges overlap %+v, want from P = 4", o)
	}
	if !steps[0].Overlap.Always || !steps[2].Overlap.Always {
		t.Errorf("pipelines: %s, %s", steps[0].Overlap.Note, steps[2].Overlap.Note)
	}

	// The composed time: the overlapped pair costs the larger phase, not
	// the sum.
	m, terms, err := a.Model(ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(terms) != len(m.Terms) {
		t.Fatal("terms and model differ")
	}
	f, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.Table(map[string]float64{"n": 840, "nrhs": 8}, []int64{1, 8})
	if err != nil {
		t.Fatal(err)
	}
	if !(rows[1].Time > 0 && rows[1].Speedup > 1) {
		t.Errorf("P=8: %+v", rows[1])
	}
}

func mustProfile(t testing.TB, name string) *model.Profile {
	p, err := model.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestShiftAndPipeline checks MK's Fig. 1: the same calls in the other
// order are a loosely synchronous shift (send first, the work between send
// and receive overlapping the transfer) or a pipeline of depth P.
func TestShiftAndPipeline(t *testing.T) {
	sh := analyze(t, "shift.f", Options{})
	if got := kinds(sh); !slices.Equal(got, []Kind{Shift}) {
		t.Fatalf("shift.f: %v", got)
	}
	if ids := nodeIDs(sh.Phases[0].Overlapped); !slices.Equal(ids, []string{"shift/L2/L1"}) {
		t.Errorf("shift.f: overlapped %v", ids)
	}
	pl := analyze(t, "pipeline.f", Options{})
	if got := kinds(pl); !slices.Equal(got, []Kind{Pipeline}) {
		t.Fatalf("pipeline.f: %v", got)
	}
	g := pl.Phases[0]
	sameExpr(t, "depth", g.Depth, "P")
	if ids := nodeIDs(g.Overlapped); !slices.Equal(ids, []string{"pipeln/L2/L1"}) {
		t.Errorf("pipeline.f: overlapped %v", ids)
	}
	// Fill + Remain with Hockney on MK's Paragon: (P-1)(t_s + m t_c + W) + n t_s.
	prof := mustProfile(t, "mk-paragon")
	m, _, err := pl.Model(ModelOptions{Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Time(map[string]float64{"P": 8, "n": 100, "m": 64})
	if err != nil {
		t.Fatal(err)
	}
	h := prof.Hockney
	ts, tc := h.Ts.Float64(), h.Tc.Float64()
	unit := model.Default().Ops.Resolved().Add.Float64()
	at := map[string]symbolic.Rat{"P": symbolic.RatInt(8), "n": symbolic.RatInt(100), "m": symbolic.RatInt(64), "rank": symbolic.RatInt(1)}
	wTot, err := g.Work.Eval(at)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := pl.Report.Work.Eval(at)
	wStage := wTot.Float64() * unit / 100
	want := 7*(ts+8*64*tc+wStage) + 100*ts + 100*wStage + (all.Float64()-wTot.Float64())*unit
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("T(P=8) = %.9g, want %.9g", got, want)
	}
}

func nodeIDs(ns []*cost.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Node.Base().ID)
	}
	return out
}

// TestFanIn checks Pacheco's first trapezoidal rule: every rank sends its
// integral to rank 0, which receives them in a loop. The phase is a fan-in
// to rank 0 with P-1 stages, flagged as optimistic under LogGP.
func TestFanIn(t *testing.T) {
	a := analyze(t, "trap_mpi.f", Options{})
	if got := kinds(a); !slices.Equal(got, []Kind{FanIn}) {
		t.Fatalf("phases %v", got)
	}
	g := a.Phases[0]
	sameExpr(t, "root", *g.Root, "0")
	if e, ok := g.Stages.Value.Single(); ok {
		t.Errorf("stages %v: want a guard P >= 2", e)
	}
	smp := a.Samples[3]
	v, err := smp.at(g.Stages.Value)
	if err != nil || !v.Equal(symbolic.RatInt(smp.P-1)) {
		t.Errorf("stages at %s = %v (%v), want P-1", smp, v, err)
	}
	if !strings.Contains(g.FanInNote, "optimistic") {
		t.Errorf("note %q", g.FanInNote)
	}
	if g.Receivers[8][0] != 0 || len(g.Senders[8]) != 7 {
		t.Errorf("at P=8: senders %v, receivers %v", g.Senders[8], g.Receivers[8])
	}
}

// TestJacobiExchange: nonblocking halo exchanges are two exchange phases
// (one per direction), dependent by MK's rule, and an allreduce.
func TestJacobiExchange(t *testing.T) {
	a := analyze(t, "jacobi1d.f90", Options{Env: map[string]symbolic.Expr{"nargs": symbolic.Int(0)}})
	if got := kinds(a); !slices.Equal(got, []Kind{Exchange, Exchange}) {
		t.Fatalf("phases %v", got)
	}
	if len(a.Overlaps) != 1 || a.Overlaps[0].Overlaps() {
		t.Errorf("overlap %+v", a.Overlaps)
	}
	if len(a.Collectives) != 1 || a.Collectives[0].Comm.Op != apt.MPIAllreduce {
		t.Errorf("collectives %+v", a.Collectives)
	}
}

// TestATM2D checks MK's ATM2D result (seed 000 §5.2) on atm2d.f90's
// red/black relaxation with nx = ny = N: two synchronous exchange phases
// per sweep and the per-rank work, so that at a fixed P the time is
// exactly T = a + b*λ + c*λ^2 in λ = N/√P. The coefficients are fitted
// exactly from three points and checked at two more; c, the cost of the
// λ^2 grid points per rank, does not depend on P. (atm2d.f90 distributes
// rows, not a √P×√P mesh as ATM2D does, so its messages carry N = λ√P
// values and b grows with √P; MK's b is constant.)
func TestATM2D(t *testing.T) {
	a := analyze(t, "atm2d.f90", Options{})
	if got := kinds(a); !slices.Equal(got, []Kind{Exchange, Exchange}) {
		t.Fatalf("phases %v", got)
	}
	prof := mustProfile(t, "mk-paragon")
	prof.Ops = model.Default().Ops
	m, _, err := a.Model(ModelOptions{Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	// nx = ny = N.
	sub := map[string]symbolic.Expr{"nx": expr("N"), "ny": expr("N")}
	for i := range m.Terms {
		if m.Terms[i].T, err = pwSubst(m.Terms[i].T, sub); err != nil {
			t.Fatal(err)
		}
	}
	f, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	coef := map[int64][3]symbolic.Rat{}
	for _, p := range []int64{4, 16, 64} {
		sq := int64(math.Sqrt(float64(p)))
		// λ a multiple of 2√P keeps N = λ√P even and a multiple of P.
		var ls []int64
		for k := int64(1); k <= 5; k++ {
			ls = append(ls, 8*k*sq)
		}
		ts := make([]symbolic.Rat, len(ls))
		for i, l := range ls {
			v, err := exactTime(f, map[string]float64{"N": float64(l * sq), "niter": 20, "P": float64(p)})
			if err != nil {
				t.Fatal(err)
			}
			ts[i] = v
		}
		c3 := quadratic(ls[:3], ts[:3])
		for i := 3; i < len(ls); i++ {
			l := symbolic.RatInt(ls[i])
			v := c3[0].Add(c3[1].Mul(l)).Add(c3[2].Mul(l).Mul(l))
			if !v.Equal(ts[i]) {
				t.Errorf("P=%d λ=%d: T = %s, the quadratic gives %s", p, ls[i], ts[i], v)
			}
		}
		coef[p] = c3
		t.Logf("P=%d: T = %.6g + %.6g λ + %.6g λ² (seconds)", p, c3[0].Float64(), c3[1].Float64(), c3[2].Float64())
	}
	for _, p := range []int64{16, 64} {
		if !coef[p][2].Equal(coef[4][2]) {
			t.Errorf("c at P=%d is %s, at P=4 %s: the per-point work should not depend on P", p, coef[p][2], coef[4][2])
		}
		for i := range 3 {
			if coef[p][i].Sign() <= 0 {
				t.Errorf("P=%d: coefficient %d is %s", p, i, coef[p][i])
			}
		}
	}
}

// exactTime evaluates a compiled model exactly.
func exactTime(f *whatif.ModelFunc, env map[string]float64) (symbolic.Rat, error) {
	x, err := f.Time(env)
	if err != nil {
		return symbolic.Rat{}, err
	}
	// Table rows are exact where rational; recover the exact value through
	// the decimal that rounds to it is not possible, so evaluate pieces.
	var sum symbolic.Rat
	m := f.Model()
	renv := map[string]symbolic.Rat{}
	for k, v := range env {
		renv[k] = symbolic.RatInt(int64(v))
	}
	for _, t := range m.Terms {
		v, err := t.T.Eval(renv)
		if err != nil {
			return symbolic.Rat{}, err
		}
		sum = sum.Add(v)
	}
	if math.Abs(sum.Float64()-x) > 1e-12*x {
		return symbolic.Rat{}, fmt.Errorf("exact %s and compiled %g differ", sum, x)
	}
	return sum, nil
}

// quadratic returns a, b, c with a + b*x + c*x^2 = y at three points.
func quadratic(xs []int64, ys []symbolic.Rat) [3]symbolic.Rat {
	x := func(i int) symbolic.Rat { return symbolic.RatInt(xs[i]) }
	// Divided differences.
	d01 := ys[1].Sub(ys[0]).Quo(x(1).Sub(x(0)))
	d12 := ys[2].Sub(ys[1]).Quo(x(2).Sub(x(1)))
	c := d12.Sub(d01).Quo(x(2).Sub(x(0)))
	b := d01.Sub(c.Mul(x(0).Add(x(1))))
	a := ys[0].Sub(b.Mul(x(0))).Sub(c.Mul(x(0)).Mul(x(0)))
	return [3]symbolic.Rat{a, b, c}
}

// TestWavefront checks lu_wavefront.f on a px×py grid (px = √P): the east
// and north sends with the west and south receives form a wavefront whose
// rows have px ranks and whose columns P/px, and the model's sweep time
// equals Brim's StartP recursion (seed 002 eq. 4) evaluated cell by cell
// plus eq. 5's (K-1)*2*T_recv.
func TestWavefront(t *testing.T) {
	env := map[string]symbolic.Expr{"px": expr("sqrt(P)"), "trips_setgrid_91": symbolic.Int(3), "pct_setgrid_92": symbolic.Int(50)}
	a := analyze(t, "lu_wavefront.f", Options{Env: env})
	if got := kinds(a); !slices.Equal(got, []Kind{Pipeline, Pipeline}) {
		t.Fatalf("phases %v", got)
	}
	if len(a.Wavefronts) != 1 {
		t.Fatalf("%d wavefronts", len(a.Wavefronts))
	}
	w := a.Wavefronts[0]
	sameExpr(t, "X offset", *w.X.Offset, "1")
	sameExpr(t, "Y offset", *w.Y.Offset, "px")
	sameExpr(t, "D_X", w.X.Depth, "px")
	sameExpr(t, "D_Y", w.Y.Depth, "floor(P/px)")

	prof := model.Default()
	m, terms, err := a.Model(ModelOptions{Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	var comm symbolic.Piecewise
	for _, tm := range terms {
		if tm.Name == w.Name {
			comm = tm.T
		}
	}
	_ = m
	for _, pc := range []struct{ px, py int64 }{{3, 3}, {4, 4}, {4, 2}} {
		P := pc.px * pc.py
		vals := map[string]symbolic.Rat{"P": symbolic.RatInt(P), "px": symbolic.RatInt(pc.px), "nx": symbolic.RatInt(16),
			"ny": symbolic.RatInt(16), "nz": symbolic.RatInt(8), "trips_setgrid_91": symbolic.RatInt(3), "pct_setgrid_92": symbolic.RatInt(50)}
		got, err := comm.Eval(vals)
		if err != nil {
			t.Fatal(err)
		}
		// The recursion, cell by cell, with W the slice work per stage.
		wm, err := a.MaxOverRanks(w.Work)
		if err != nil {
			t.Fatal(err)
		}
		wtot, err := wm.Value.Eval(vals)
		if err != nil {
			t.Fatal(err)
		}
		B := symbolic.RatInt(4 * 8) // itmax*nz slices
		W := wtot.Mul(prof.Ops.Resolved().Add).Quo(B)
		net, _ := prof.Network()
		sx, _ := SplitTime(net, expr("8*16"))
		sy, _ := SplitTime(net, expr("8*16"))
		c := func(e symbolic.Expr) symbolic.Rat { r, _ := e.Const(); return r }
		tSend, tCommX, tCommY, tRecv := c(sx[0].S), c(sx[0].Tau), c(sy[0].Tau), c(sy[0].R)
		start := make([][]symbolic.Rat, pc.px)
		for i := range start {
			start[i] = make([]symbolic.Rat, pc.py)
			for j := range start[i] {
				var best symbolic.Rat
				if i > 0 {
					best = start[i-1][j].Add(W).Add(tSend).Add(tCommX)
				}
				if j > 0 {
					v := start[i][j-1].Add(W).Add(tCommY).Add(tRecv)
					if i == 0 || v.Cmp(best) > 0 {
						best = v
					}
				}
				start[i][j] = best
			}
		}
		want := start[pc.px-1][pc.py-1].Add(B.Sub(symbolic.RatInt(1)).Mul(tRecv.Add(tRecv)))
		if !got.Equal(want) {
			t.Errorf("%dx%d: sweep comm %s, StartP recursion %s", pc.px, pc.py, got, want)
		}
	}
}

// TestPipeBlockGrain checks MK's optimal grain (seed 000 §5.4) on
// pipe_block.f: dT/dK = 0 on the relaxed closed form agrees with a sweep of
// the same model over every K.
func TestPipeBlockGrain(t *testing.T) {
	a := analyze(t, "pipe_block.f", Options{})
	if got := kinds(a); !slices.Equal(got, []Kind{Pipeline}) {
		t.Fatalf("phases %v", got)
	}
	m, _, err := a.Model(ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := whatif.Model{Size: m.Size}
	for _, tm := range m.Terms {
		tm.T = Relax(tm.T, "k")
		g.Terms = append(g.Terms, tm)
	}
	for _, p := range []float64{2, 4, 16, 64, 256} {
		env := map[string]float64{"P": p, "n": 4096}
		k1, t1, _, err := whatif.Grain(g, "k", 1, 256, env)
		if err != nil {
			t.Fatal(err)
		}
		k2, t2, err := whatif.GrainSweep(g, "k", 1, 256, env)
		if err != nil {
			t.Fatal(err)
		}
		if k1 != k2 || t1 != t2 {
			t.Errorf("P=%g: Grain K=%d (%g s), sweep K=%d (%g s)", p, k1, t1, k2, t2)
		}
		if k1 <= 1 || k1 >= 256 {
			t.Errorf("P=%g: K=%d at the edge of the range", p, k1)
		}
	}
}

func TestSplitTime(t *testing.T) {
	for _, name := range model.Names() {
		prof := mustProfile(t, name)
		net, err := prof.Network()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []int64{0, 8, 1399, 1400, 8191, 8192, 16383, 16384, 65536, 65537, 1 << 20} {
			sp, err := SplitTime(net, symbolic.Int(m))
			if err != nil {
				t.Fatal(err)
			}
			if len(sp) != 1 {
				t.Fatalf("%s m=%d: %d regimes", name, m, len(sp))
			}
			sum, _ := sp[0].Tau.Add(sp[0].S).Add(sp[0].R).Const()
			want := net.Seconds(float64(m))
			if math.Abs(sum.Float64()-want) > 1e-12*want {
				t.Errorf("%s m=%d: τ+s+r = %g, Time = %g", name, m, sum.Float64(), want)
			}
		}
	}
}

func TestMaxOverRanks(t *testing.T) {
	a := analyze(t, "pipeline.f", Options{})
	pw := func(s string) symbolic.Piecewise {
		var out symbolic.Piecewise
		for _, part := range strings.Split(s, ";") {
			v, g, _ := strings.Cut(part, " if ")
			p := symbolic.Piece{Value: expr(strings.TrimSpace(v))}
			if g != "" {
				rels, err := symbolic.ParseRelations(g)
				if err != nil {
					t.Fatal(err)
				}
				p.Guard = rels
			}
			out.Pieces = append(out.Pieces, p)
		}
		return out
	}
	for _, c := range []struct {
		in     string
		method MaxMethod
		want   string // at P = 8
	}{
		{"n*m", RankFree, "6400"},
		{"rank + n", AtRank, "107"},
		{"n - rank", AtRank, "100"},
		{"5 if rank == 0; 1", AtRank, "6"},
		{"n if rank >= 1; m if P >= rank + 2", AtRank, "164"},
		{"5 if rank == 3; 1", Approx, "6"}, // at P < 4 no rank 3: 6 is an upper bound
		{"n if rank >= 2 and P >= rank + 3", Approx, "100"},
	} {
		m, err := a.MaxOverRanks(pw(c.in))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := m.Value.Eval(map[string]symbolic.Rat{"P": symbolic.RatInt(8), "n": symbolic.RatInt(100), "m": symbolic.RatInt(64)})
		if m.Method != c.method || v.String() != c.want {
			t.Errorf("max of %s: %v %s = %s at P=8, want %v %s", c.in, m.Method, m.Value, v, c.method, c.want)
		}
	}
}

func TestLeadingAndMean(t *testing.T) {
	a := analyze(t, "trap_mpi.f", Options{})
	lead := Leading(a.Report.Work)
	e, ok := lead.Single()
	if !ok && len(lead.Pieces) == 1 {
		e = lead.Pieces[0].Value
	}
	sameExpr(t, "leading work", e, "5*n/P")
	mean, err := a.MeanOverRanks(a.Report.Work)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range a.Samples {
		vs, _ := s.perRank(a.Report.Work)
		var sum symbolic.Rat
		for _, v := range vs {
			sum = sum.Add(v)
		}
		got, err := s.at(mean)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(sum.Quo(symbolic.RatInt(s.P))) {
			t.Errorf("%s: mean %s, want %s", s, got, sum.Quo(symbolic.RatInt(s.P)))
		}
	}
}

// TestModelRefusesMissingCounts checks that a model is never built from a
// report whose counts lack a value (an analysis out of budget leaves the
// program's work without a closed form): the time would be too small by an
// unknown amount, so Model gives an IncompleteError instead.
func TestModelRefusesMissingCounts(t *testing.T) {
	a := analyze(t, "atm2d.f90", Options{Cost: cost.Options{Budget: 1}})
	if len(a.Report.NoClosedForm()) == 0 && !a.Report.WorkMissing {
		t.Fatal("atm2d.f90 with a budget of one cell: every count has a closed form; the test needs one without")
	}
	_, _, err := a.Model(ModelOptions{})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("Model = %v, want an IncompleteError", err)
	}
	full := analyze(t, "atm2d.f90", Options{})
	if _, _, err := full.Model(ModelOptions{}); err != nil {
		t.Fatalf("without a budget: %v", err)
	}
}

// BenchmarkMatchAtLargeP matches the sends and receives of a program with
// many exchanges of one tag whose peers no fixed offset describes (a
// ring's wrap-around, as MG's and the grid codes' neighbours), sampled at P =
// 1024: each side's peers and message counts are evaluated once per
// sample, not once per pair of sides (the pairs grow as the square of the
// sides; MG's whatif at P = 1024 took 107 s when they were).
func BenchmarkMatchAtLargeP(b *testing.B) {
	var src strings.Builder
	src.WriteString("      program rings\n      include 'mpif.h'\n      integer ierr, rank, np, i, st(MPI_STATUS_SIZE)\n" +
		"      double precision a(64)\n      call mpi_init(ierr)\n" +
		"      call mpi_comm_rank(mpi_comm_world, rank, ierr)\n      call mpi_comm_size(mpi_comm_world, np, ierr)\n")
	for k := 1; k <= 16; k++ {
		fmt.Fprintf(&src, "      call mpi_sendrecv(a, %d, mpi_double_precision,\n"+
			"     >  mod(rank + %d, np), %d, a, %d, mpi_double_precision,\n"+
			"     >  mod(rank + np - %d, np), 0, mpi_comm_world, st, ierr)\n", k, k%3+1, 0, k, k%3+1)
	}
	src.WriteString("      call mpi_finalize(ierr)\n      end\n")
	dir := b.TempDir()
	path := filepath.Join(dir, "rings.f")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			b.Fatal(d)
		}
	}
	for b.Loop() {
		a, err := Analyze(prog, Options{SampleP: []int64{1024}})
		if err != nil {
			b.Fatal(err)
		}
		if len(a.Sides) != 32 {
			b.Fatalf("%d sides, want 32", len(a.Sides))
		}
	}
}

// TestRankDependentCollective: scatter_blocks.f90 deals n values out in
// blocks whose length differs by one between ranks, with MPI_Scatterv and
// MPI_Gatherv. The collectives' time is the algorithm's at the heaviest
// rank's block, region by region of P (whether P divides n): at each P it
// equals the linear algorithm's time at m = 8*ceil(n/P) bytes, computed
// here directly.
func TestRankDependentCollective(t *testing.T) {
	a := analyze(t, "scatter_blocks.f90", Options{})
	prof := mustProfile(t, "cluster")
	m, _, err := a.Model(ModelOptions{Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	net, err := prof.Network()
	if err != nil {
		t.Fatal(err)
	}
	const n, niter = 1000, 10
	for _, name := range []string{"scatterv", "gatherv"} {
		alg := model.ScatterLinear
		if name == "gatherv" {
			alg = model.GatherLinear
		}
		var term *whatif.Term
		for i := range m.Terms {
			if m.Terms[i].Name == name {
				term = &m.Terms[i]
			}
		}
		if term == nil {
			t.Fatalf("no %s term in %v", name, m.Terms)
		}
		for _, p := range []int64{2, 3, 4, 7, 8} {
			env := map[string]symbolic.Rat{"P": symbolic.RatInt(p)}
			got, err := term.T.Eval(env)
			if err != nil {
				t.Fatal(err)
			}
			block := 8 * ((n + p - 1) / p)
			one, err := alg.Time(net, symbolic.Int(p), symbolic.Int(block), symbolic.Int(0))
			if err != nil {
				t.Fatal(err)
			}
			v, err := one.Eval(env)
			if err != nil {
				t.Fatal(err)
			}
			if want := v.Mul(symbolic.RatInt(niter)); !got.Equal(want) {
				t.Errorf("%s at P=%d: %v, want %d calls at %d bytes = %v", name, p, got, niter, block, want)
			}
		}
	}
}
