package analyzer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
)

// trapLike is the shape of the parallel trapezoidal rule: every rank sums
// n/P - 1 trapezoids, rank 0 then receives P - 1 partial sums.
func trapLike(t *testing.T) *builder {
	b := newBuilder(t, true, "5*n/P + 2*P if rank == 0; 5*n/P + 6 if rank >= 1", "n >= 1").
		param("n", cost.FromAnnotation, 3, "the problem size n", "1024")
	m := b.root()
	b.loop(m, "main/L1", 10, "1", "n/P - 1", "5*n/P - 5")
	i := b.ifNode(m, "main/I1", 20, "1", "2*P + 3 if rank == 0; 11 if rank >= 1")
	b1 := b.branch(i, "main/I1/b1", 20, "1 if rank == 0", "2*P + 3 if rank == 0")
	l := b.loop(b1, "main/I1/b1/L1", 22, "1 if rank == 0", "P - 1 if rank == 0", "2*P - 2 if rank == 0")
	b.comm(l, "main/I1/b1/L1/M1", 23, apt.MPIRecv, "P - 1 if rank == 0", "0", "P - 1 if rank == 0", "8")
	b2 := b.branch(i, "main/I1/b2", 26, "1 if rank >= 1", "11 if rank >= 1")
	b.comm(b2, "main/I1/b2/M1", 27, apt.MPISend, "1 if rank >= 1", "1 if rank >= 1", "0", "8")
	return b
}

func TestHotLoop(t *testing.T) {
	b := trapLike(t)
	ds := only(Run(b.r, nil, Options{}), "MK1001")
	expect(t, ds, "t.f90:10:3: MK1001 loop runs n/P - 1 iterations per rank and holds 100% of the predicted time as n grows")
	if ds[0].Node != "main/L1" || ds[0].Facts["share"] != 1.0 || ds[0].Facts["iterations"] != "n/P - 1" {
		t.Errorf("facts %v node %s", ds[0].Facts, ds[0].Node)
	}

	pt := b.at(map[string]int64{"P": 8})
	ds = only(Run(b.r, pt, Options{}), "MK1001")
	// Work over ranks: 8*(640 - 5) = 5080 in the loop of 8*640 + 16 + 7*6 = 5178.
	expect(t, ds, "t.f90:10:3: MK1001 loop runs n/P - 1 iterations per rank and holds 98% of the predicted time (n=1024, P=8: 127 iterations)")

	// With a machine the time on the heaviest rank is added.
	prof, _ := model.Lookup(model.DefaultName)
	ds = only(Run(b.r, pt, Options{Machine: prof}), "MK1001")
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "127 iterations, ") || !strings.Contains(ds[0].Message, " on cluster)") {
		t.Errorf("with a machine: %s", lines(ds))
	}
	if _, ok := ds[0].Facts["seconds"].(float64); !ok {
		t.Errorf("seconds fact missing: %v", ds[0].Facts)
	}
}

// ruleCase is one table case of a check: a costed program, a point to
// evaluate at (nil: symbolic) and the diagnostics of that check it must give.
type ruleCase struct {
	name  string
	build func(t *testing.T) *builder
	env   map[string]int64
	want  []string
}

// runCase runs the check id on tc's program as a subtest.
func runCase(t *testing.T, id string, tc ruleCase) {
	t.Run(tc.name, func(t *testing.T) {
		b := tc.build(t)
		var pt *cost.Point
		if tc.env != nil {
			pt = b.at(tc.env)
		}
		expect(t, only(Run(b.r, pt, Options{}), id), tc.want...)
	})
}

// flat builds a serial program at n = 10 whose loop nests hold the given
// numbers of work units per unit of n, one nest each at lines 10, 20, ...,
// and whose other work (outside every nest) is outside units per n.
func flat(outside int, nests ...int) func(t *testing.T) *builder {
	return func(t *testing.T) *builder {
		total := outside
		for _, w := range nests {
			total += w
		}
		b := newBuilder(t, false, fmt.Sprintf("%d*n", total), "n >= 1").param("n", cost.FromAnnotation, 2, "n", "10")
		for i, w := range nests {
			b.loop(b.root(), fmt.Sprintf("main/L%d", i+1), 10*(i+1), "1", "n", fmt.Sprintf("%d*n", w))
		}
		return b
	}
}

func TestHotLoopNests(t *testing.T) {
	// driver is a time-step loop whose body calls two routines, each with
	// a nest of its own holding 8 and 2 of the 10 units per step and
	// point; the driver's own work is 5 units per step.
	driver := func(t *testing.T, params bool) *builder {
		b := newBuilder(t, false, "10*iters*n + 5*iters + 7", "n >= 1, iters >= 1")
		if params {
			b.param("n", cost.FromAnnotation, 2, "n", "").param("iters", cost.FromAnnotation, 3, "iters", "")
		}
		tl := b.nest(b.loop(b.root(), "main/L1", 5, "1", "iters", "10*iters*n + 5*iters"), "5*iters")
		c1 := b.call(tl, "main/L1/C1", 6, "iters", "8*iters*n + 2*iters")
		s1 := b.routine(c1, "sweep", 20, "iters", "8*iters*n + 2*iters")
		b.loop(s1, "sweep/L1", 22, "iters", "iters*n", "8*iters*n")
		c2 := b.call(tl, "main/L1/C2", 7, "iters", "2*iters*n + iters")
		s2 := b.routine(c2, "smooth", 30, "iters", "2*iters*n + iters")
		b.loop(s2, "smooth/L1", 32, "iters", "iters*n", "2*iters*n")
		return b
	}
	for _, tc := range []ruleCase{
		{
			name: "perfect nest reported once",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, false, "2*n^2 + n + 4", "n >= 1")
				l := b.loop(b.root(), "main/L1", 5, "1", "n", "2*n^2")
				b.loop(l, "main/L1/L1", 6, "n", "n^2", "2*n^2")
				b.loop(b.root(), "main/L2", 10, "1", "n", "n")
				return b
			},
			want: []string{"t.f90:5:3: MK1001 loop runs n iterations and holds 100% of the predicted time as n grows"},
		},
		{
			name: "time loop and its sweeps in one routine: one nest",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, false, "iters*(8*n + 2*n) + 7", "n >= 1, iters >= 1")
				tl := b.loop(b.root(), "main/L1", 5, "1", "iters", "10*iters*n")
				b.loop(tl, "main/L1/L1", 6, "iters", "iters*n", "8*iters*n")
				b.loop(tl, "main/L1/L2", 9, "iters", "iters*n", "2*iters*n")
				return b
			},
			want: []string{"t.f90:5:3: MK1001 loop runs iters iterations and holds 100% of the predicted time as iters and n grow"},
		},
		{
			name:  "driver loop: the nests it calls",
			build: func(t *testing.T) *builder { return driver(t, false) },
			want: []string{
				"t.f90:22:3: MK1001 loop runs iters*n iterations and holds 80% of the predicted time as iters and n grow",
				"t.f90:32:3: MK1001 loop runs iters*n iterations and holds 20% of the predicted time as iters and n grow",
			},
		},
		{
			name:  "driver loop at a point",
			build: func(t *testing.T) *builder { return driver(t, true) },
			env:   map[string]int64{"n": 100, "iters": 10},
			// 8000 and 2000 of 10057 units; the driver's own 50 are 0.5%.
			want: []string{
				"t.f90:22:3: MK1001 loop runs iters*n iterations and holds 80% of the predicted time (n=100, iters=10: 1000 iterations)",
				"t.f90:32:3: MK1001 loop runs iters*n iterations and holds 20% of the predicted time (n=100, iters=10: 1000 iterations)",
			},
		},
		{
			name:  "flat profile: the largest nests until three quarters",
			build: flat(0, 30, 9, 8, 7, 7, 6, 6, 6, 5, 5, 5, 3, 3),
			env:   map[string]int64{},
			// 30% alone is hot; 9, 8, 7, 7, 6, 6 and 6 bring the nests
			// named to 79%, past three quarters; 5 is not within 5% of 6.
			want: []string{
				"t.f90:10:3: MK1001 loop runs n iterations and holds 30% of the predicted time (n=10: 10 iterations)",
				"t.f90:20:3: MK1001 loop runs n iterations and holds 9% of the predicted time (n=10: 10 iterations)",
				"t.f90:30:3: MK1001 loop runs n iterations and holds 8% of the predicted time (n=10: 10 iterations)",
				"t.f90:40:3: MK1001 loop runs n iterations and holds 7% of the predicted time (n=10: 10 iterations)",
				"t.f90:50:3: MK1001 loop runs n iterations and holds 7% of the predicted time (n=10: 10 iterations)",
				"t.f90:60:3: MK1001 loop runs n iterations and holds 6% of the predicted time (n=10: 10 iterations)",
				"t.f90:70:3: MK1001 loop runs n iterations and holds 6% of the predicted time (n=10: 10 iterations)",
				"t.f90:80:3: MK1001 loop runs n iterations and holds 6% of the predicted time (n=10: 10 iterations)",
			},
		},
		{
			name:  "hot nests beyond three quarters: no more",
			build: flat(0, 40, 15, 12, 11, 8, 7, 7),
			env:   map[string]int64{},
			want: []string{
				"t.f90:10:3: MK1001 loop runs n iterations and holds 40% of the predicted time (n=10: 10 iterations)",
				"t.f90:20:3: MK1001 loop runs n iterations and holds 15% of the predicted time (n=10: 10 iterations)",
				"t.f90:30:3: MK1001 loop runs n iterations and holds 12% of the predicted time (n=10: 10 iterations)",
				"t.f90:40:3: MK1001 loop runs n iterations and holds 11% of the predicted time (n=10: 10 iterations)",
			},
		},
		{
			name:  "nests as large as the last one added",
			build: flat(0, 700, 188, 180, 170, 160, 150, 145, 137, 100, 70),
			env:   map[string]int64{},
			// 35, 9.4, 9, 8.5, 8 and 7.5% are 77.4%, past three quarters,
			// and 7.25% is within 5% of 7.5%: the prediction does not
			// order the two. 6.85% is not.
			want: []string{
				"t.f90:10:3: MK1001 loop runs n iterations and holds 35% of the predicted time (n=10: 10 iterations)",
				"t.f90:20:3: MK1001 loop runs n iterations and holds 9% of the predicted time (n=10: 10 iterations)",
				"t.f90:30:3: MK1001 loop runs n iterations and holds 9% of the predicted time (n=10: 10 iterations)",
				"t.f90:40:3: MK1001 loop runs n iterations and holds 8% of the predicted time (n=10: 10 iterations)",
				"t.f90:50:3: MK1001 loop runs n iterations and holds 8% of the predicted time (n=10: 10 iterations)",
				"t.f90:60:3: MK1001 loop runs n iterations and holds 8% of the predicted time (n=10: 10 iterations)",
				"t.f90:70:3: MK1001 loop runs n iterations and holds 7% of the predicted time (n=10: 10 iterations)",
			},
		},
		{
			name:  "half of the work in nests",
			build: flat(82, 8, 6, 4),
			env:   map[string]int64{},
			// The nests hold 18%: 8 and 6 are more than three quarters of it.
			want: []string{
				"t.f90:10:3: MK1001 loop runs n iterations and holds 8% of the predicted time (n=10: 10 iterations)",
				"t.f90:20:3: MK1001 loop runs n iterations and holds 6% of the predicted time (n=10: 10 iterations)",
			},
		},
		{
			name: "lower order loops are cold",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, false, "n^2 + 50*n", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n", "50*n")
				return b
			},
			want: nil,
		},
		{
			name: "share a function of P",
			build: func(t *testing.T) *builder {
				// A serial part of n beside n/P: the loop's share is 1/(P+1)
				// of the rank's work, at least 10% only for P <= 9, so it
				// is not provably hot; the other holds half on its own.
				b := newBuilder(t, true, "n/P + n", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n/P", "n/P")
				b.loop(b.root(), "main/L2", 8, "1", "n", "n")
				return b
			},
			want: []string{"t.f90:8:3: MK1001 loop runs n iterations per rank and holds a share P/(P + 1) of the predicted time as n grows"},
		},
	} {
		runCase(t, "MK1001", tc)
	}
}

func TestImbalance(t *testing.T) {
	for _, tc := range []ruleCase{
		{
			name: "rank-dependent trip count",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "2*(rank + 1)*n/P + 5", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "(rank + 1)*n/P", "2*(rank + 1)*n/P")
				return b
			},
			want: []string{"t.f90:5:3: MK1002 loop runs n/P iterations on rank 0 but n on rank P-1"},
		},
		{
			name: "a remainder that vanishes at scale",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "2*n/P + 2*rank + 5", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n/P + rank", "2*n/P + 2*rank")
				return b
			},
			want: nil,
		},
		{
			name: "branches that balance out, symbolically",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "3*n if rank == 0; 3*n if rank >= 1", "n >= 1")
				i := b.ifNode(b.root(), "main/I1", 10, "1", "3*n if rank == 0; 3*n if rank >= 1")
				b.branch(i, "main/I1/b1", 10, "1 if rank == 0", "3*n if rank == 0")
				b.branch(i, "main/I1/b2", 13, "1 if rank >= 1", "3*n if rank >= 1")
				return b
			},
			want: nil,
		},
		{
			name: "rank-dependent trip count at a point",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "2*n/P + 2*rank*n/P + 5", "n >= 1").param("n", cost.FromAnnotation, 2, "n", "")
				b.loop(b.root(), "main/L1", 5, "1", "(rank + 1)*n/P", "2*(rank + 1)*n/P")
				return b
			},
			env: map[string]int64{"n": 800, "P": 8},
			want: []string{"t.f90:5:3: MK1002 loop runs n/P iterations on rank 0 but n on rank P-1 " +
				"(imbalance 1.78 at n=800, P=8; heaviest rank 7)"},
		},
		{
			name: "branch on the rank, reported where it starts",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "n/P + 3*n if rank == 0; n/P if rank >= 1", "n >= 1")
				b.loop(b.root(), "main/L1", 4, "1", "n/P", "n/P")
				i := b.ifNode(b.root(), "main/I1", 10, "1", "3*n if rank == 0")
				br := b.branch(i, "main/I1/b1", 10, "1 if rank == 0", "3*n if rank == 0")
				b.loop(br, "main/I1/b1/L1", 11, "1 if rank == 0", "n if rank == 0", "3*n if rank == 0")
				return b
			},
			want: []string{"t.f90:10:3: MK1002 branch runs only where rank == 0"},
		},
		{
			name: "branch on the rank at a point",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "n/P + 3*n if rank == 0; n/P if rank >= 1", "n >= 1").param("n", cost.FromAnnotation, 2, "n", "800")
				b.loop(b.root(), "main/L1", 4, "1", "n/P", "n/P")
				i := b.ifNode(b.root(), "main/I1", 10, "1", "3*n if rank == 0")
				br := b.branch(i, "main/I1/b1", 10, "1 if rank == 0", "3*n if rank == 0")
				b.loop(br, "main/I1/b1/L1", 11, "1 if rank == 0", "n if rank == 0", "3*n if rank == 0")
				return b
			},
			env:  map[string]int64{"P": 4},
			want: []string{"t.f90:10:3: MK1002 branch runs only where rank == 0 (imbalance 4 at n=800, P=4; heaviest rank 0)"},
		},
		{
			name: "rank 0 prints: too small to matter",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "n/P + 2 if rank == 0; n/P if rank >= 1", "n >= 1")
				b.loop(b.root(), "main/L1", 4, "1", "n/P", "n/P")
				i := b.ifNode(b.root(), "main/I1", 10, "1", "2 if rank == 0")
				b.branch(i, "main/I1/b1", 10, "1 if rank == 0", "2 if rank == 0")
				return b
			},
			want: nil,
		},
		{
			name: "branches that balance out",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "3*n", "n >= 1").param("n", cost.FromAnnotation, 2, "n", "100")
				i := b.ifNode(b.root(), "main/I1", 10, "1", "3*n")
				b.branch(i, "main/I1/b1", 10, "1 if rank == 0", "3*n if rank == 0")
				b.branch(i, "main/I1/b2", 13, "1 if rank >= 1", "3*n if rank >= 1")
				return b
			},
			env:  map[string]int64{"P": 4},
			want: nil,
		},
		{
			name: "serial program",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, false, "n", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n", "n")
				return b
			},
			want: nil,
		},
	} {
		runCase(t, "MK1002", tc)
	}
}

func TestSerialWork(t *testing.T) {
	for _, tc := range []ruleCase{
		{
			name: "replicated on every rank",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "3*n + 5*n/P", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n/P", "5*n/P")
				l := b.loop(b.root(), "main/L2", 8, "1", "n", "3*n")
				b.loop(l, "main/L2/L1", 9, "n", "2*n", "3*n")
				return b
			},
			want: []string{"t.f90:8:3: MK1003 loop runs n iterations on every rank whatever the number of processes: replicated work that does not shrink as P grows"},
		},
		{
			name: "rank 0 only",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "3*n + 5*n/P if rank == 0; 5*n/P if rank >= 1", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n/P", "5*n/P")
				b.loop(b.root(), "main/L2", 8, "1 if rank == 0", "n if rank == 0", "3*n if rank == 0")
				return b
			},
			want: []string{"t.f90:8:3: MK1003 loop runs n iterations only where rank == 0 whatever the number of processes: serial work that does not shrink as P grows"},
		},
		{
			name: "rank 0 only at a point",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "3*n + 5*n/P if rank == 0; 5*n/P if rank >= 1", "n >= 1").param("n", cost.FromAnnotation, 2, "n", "1000")
				b.loop(b.root(), "main/L1", 5, "1", "n/P", "5*n/P")
				b.loop(b.root(), "main/L2", 8, "1 if rank == 0", "n if rank == 0", "3*n if rank == 0")
				return b
			},
			env:  map[string]int64{"P": 10},
			want: []string{"t.f90:8:3: MK1003 loop runs n iterations on rank 0 only whatever the number of processes: serial work that does not shrink as P grows (n=1000, P=10: 86% of the busiest rank's work)"},
		},
		{
			name: "distributed loop",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "5*n/P + 4", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n/P", "5*n/P")
				b.loop(b.root(), "main/L2", 8, "1", "4", "4")
				return b
			},
			want: nil,
		},
		{
			name: "serial program",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, false, "3*n", "n >= 1")
				b.loop(b.root(), "main/L1", 5, "1", "n", "3*n")
				return b
			},
			want: nil,
		},
	} {
		runCase(t, "MK1003", tc)
	}
}

func TestCommInLoop(t *testing.T) {
	b := trapLike(t)
	expect(t, only(Run(b.r, nil, Options{}), "MK2001"),
		"t.f90:23:3: MK2001 recv inside a loop receives P - 1 messages of 8 bytes where rank == 0: aggregate them where the dependences allow")
	pt := b.at(map[string]int64{"P": 8})
	prof, _ := model.Lookup(model.DefaultName)
	ds := only(Run(b.r, pt, Options{Machine: prof}), "MK2001")
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "(n=1024, P=8: 7 messages on rank 0, 0 on ranks 1-7, ") {
		t.Errorf("at a point: %s", lines(ds))
	}
	if ds[0].Facts["messages_max"] != 7.0 || ds[0].Facts["max_ranks"] != "0" {
		t.Errorf("facts %v", ds[0].Facts)
	}

	for _, tc := range []struct {
		name  string
		build func(t *testing.T) *builder
		want  []string
	}{
		{
			name: "allreduce per time step",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "iters*n/P", "n >= 1, iters >= 1")
				l := b.loop(b.root(), "main/L1", 5, "1", "iters", "iters*n/P")
				b.comm(l, "main/L1/M1", 7, apt.MPIAllreduce, "iters", "iters", "iters", "8")
				return b
			},
			want: []string{"t.f90:7:3: MK2001 allreduce inside a loop runs iters times per rank: combine the calls into fewer with larger buffers where the data dependences allow"},
		},
		{
			name: "fixed trip count",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "n/P", "n >= 1")
				l := b.loop(b.root(), "main/L1", 5, "1", "4", "0")
				b.comm(l, "main/L1/M1", 7, apt.MPISend, "4", "4", "0", "8")
				return b
			},
			want: nil,
		},
		{
			name: "outside loops",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "n/P", "n >= 1")
				b.comm(b.root(), "main/M1", 7, apt.MPIBcast, "1", "1", "1", "4")
				return b
			},
			want: nil,
		},
		{
			name: "waits are not messages",
			build: func(t *testing.T) *builder {
				b := newBuilder(t, true, "n/P", "n >= 1")
				l := b.loop(b.root(), "main/L1", 5, "1", "n", "0")
				b.comm(l, "main/L1/M1", 7, apt.MPIWaitall, "n", "0", "0", "")
				return b
			},
			want: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, only(Run(tc.build(t).r, nil, Options{}), "MK2001"), tc.want...)
		})
	}
}

func TestUnresolvedParams(t *testing.T) {
	b := newBuilder(t, false, "n + it", "n >= 1, it >= 0").
		param("n", cost.FromRead, 4, "the value read into n", "100").
		param("it", cost.FromUnresolved, 8, "the trip count of the DO WHILE loop at main/L1", "").
		param("m", cost.FromAnnotation, 2, "m", "5").
		param("k", cost.FromCommandLine, 6, "the value of command argument 1 read into k", "")
	b.loop(b.root(), "main/L1", 8, "1", "it", "it")
	ds := only(Run(b.r, nil, Options{}), "MK3001")
	expect(t, ds,
		"t.f90:4:3: MK3001 the value read into n is read at run time: kept as the parameter n (default 100); give -D n=... or a '!mk$ param n = ...' line",
		"t.f90:6:3: MK3001 the value of command argument 1 read into k comes from the command line: kept as the parameter k; give -D k=... or a '!mk$ param k = ...' line",
		"t.f90:8:3: MK3001 the trip count of the DO WHILE loop at main/L1 is not known statically: kept as the parameter it; give -D it=... or '!mk$ iterations ...' before the loop",
	)
	if ds[2].Node != "main/L1" || ds[2].Facts["loop"] != "main/L1" || ds[0].Facts["default"] != "100" || ds[0].Severity != apt.Note {
		t.Errorf("facts: %+v / %+v", ds[0], ds[2])
	}
}

func TestEvaluationProblemsAndApproximations(t *testing.T) {
	b := newBuilder(t, false, "n", "n >= 1")
	b.r.Diags = []apt.Diagnostic{{Pos: apt.Pos{File: testFile, Line: 9, Col: 5}, Severity: apt.Warning, Msg: "call of work: no source; its cost is taken as 0"}}
	l := b.loop(b.root(), "main/L1", 5, "1", "n", "n")
	br := b.branch(l, "main/L1/b1", 6, "n*f", "n*f")
	br.Exact, br.Note = false, "branch condition x(i) > 0.5 depends on data; taken a fraction f of the time"
	inner := b.loop(br, "main/L1/b1/L1", 7, "n*f", "n*f", "n*f")
	inner.Exact, inner.Note = false, br.Note
	ds := Run(b.r, nil, Options{})
	expect(t, append(only(ds, "MK3002"), only(ds, "MK3003")...),
		"t.f90:9:5: MK3002 call of work: no source; its cost is taken as 0",
		"t.f90:6:3: MK3003 count is approximate: branch condition x(i) > 0.5 depends on data; taken a fraction f of the time")
}

func TestSorted(t *testing.T) {
	b := trapLike(t)
	b.param("q", cost.FromRead, 1, "the value read into q", "")
	b.r.Diags = []apt.Diagnostic{{Pos: apt.Pos{File: "a.f90", Line: 50, Col: 1}, Severity: apt.Note, Msg: "first file"}}
	ds := Run(b.r, nil, Options{})
	for i := 1; i < len(ds); i++ {
		a, c := ds[i-1], ds[i]
		if a.Pos.File > c.Pos.File || a.Pos.File == c.Pos.File && (a.Pos.Line > c.Pos.Line || a.Pos.Line == c.Pos.Line && a.ID > c.ID) {
			t.Errorf("not sorted:\n%s", lines(ds))
		}
	}
	if ds[0].Pos.File != "a.f90" {
		t.Errorf("first diagnostic %s", ds[0])
	}
}

func TestSerialWorkWeakScaling(t *testing.T) {
	// No work depends on P: the sizes are per rank, nothing is expected to
	// shrink.
	b := newBuilder(t, true, "3*n + 4", "n >= 1")
	b.loop(b.root(), "main/L1", 5, "1", "n", "3*n")
	expect(t, only(Run(b.r, nil, Options{}), "MK1003"))
}

func TestUnresolvedParamsGiven(t *testing.T) {
	b := newBuilder(t, false, "n", "n >= 1").param("n", cost.FromRead, 4, "the value read into n", "")
	b.loop(b.root(), "main/L1", 5, "1", "n", "n")
	if ds := only(Run(b.r, b.at(map[string]int64{"n": 10}), Options{Given: []string{"n"}}), "MK3001"); len(ds) != 0 {
		t.Errorf("MK3001 for a parameter given with -D:\n%s", lines(ds))
	}
}

func TestProblemsOnce(t *testing.T) {
	b := newBuilder(t, false, "n", "n >= 1")
	d := apt.Diagnostic{Pos: apt.Pos{File: testFile, Line: 9, Col: 5}, Severity: apt.Warning, Msg: "GO TO is not modelled"}
	b.r.Diags = []apt.Diagnostic{d, d}
	for i, line := range []int{10, 11, 12} {
		n := b.call(b.root(), "main/C"+string(rune('1'+i)), line, "1", "2")
		n.Exact, n.Note = false, "follows a GO TO the evaluation does not model"
	}
	same := b.call(b.root(), "main/C4", 14, "1", "2")
	same.Exact, same.Note = false, d.Msg
	ds := Run(b.r, nil, Options{})
	expect(t, append(only(ds, "MK3002"), only(ds, "MK3003")...),
		"t.f90:9:5: MK3002 GO TO is not modelled",
		"t.f90:10:3: MK3003 count is approximate: follows a GO TO the evaluation does not model")
}

func TestTidyGuards(t *testing.T) {
	b := newBuilder(t, true, "n", "n >= 1")
	p := newPass(b.r, nil, Options{}.withDefaults())
	for _, tc := range []struct{ in, want string }{
		{"P - 1 if P >= 2", "P - 1"},                                      // P - 1 >= 0 anyway
		{"17*n - 17 if n >= 2", "17*n - 17"},                              // 17*((n - 2) + 1)
		{"n - 5 if n >= 6", "(n - 5 if n >= 6)"},                          // n - 5 may be negative
		{"1 if rank == 0", "(1 if rank == 0)"},                            // not a sign guard
		{"rank + 1 if rank >= 0; 2 if n >= 3", "(rank + 1; 2 if n >= 3)"}, // piece by piece
	} {
		if got := p.closed(pw(t, tc.in)); got != tc.want {
			t.Errorf("closed(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSummaries(t *testing.T) {
	b := trapLike(t)
	b.call(b.root(), "main/C1", 30, "1", "0")
	texts := func(pt *cost.Point) map[string]string {
		out := map[string]string{}
		for n, s := range Summaries(b.r, pt, Options{}) {
			out[n.Node.Base().ID] = s
		}
		return out
	}
	sym := texts(nil)
	for id, want := range map[string]string{
		"main/L1":          "loop: n/P - 1 iterations per rank; 100% of the time as the sizes grow",
		"main/I1/b1/L1/M1": "recv: P - 1 messages of 8 bytes where rank == 0",
		"main/I1/b2/M1":    "send: 1 message of 8 bytes where rank >= 1",
		"main/C1":          "call sub: 1 call per rank; 0% of the time as the sizes grow",
	} {
		if sym[id] != want {
			t.Errorf("symbolic %s: %q, want %q", id, sym[id], want)
		}
	}
	if _, ok := sym["main/I1"]; ok {
		t.Error("IF nodes are not summarised")
	}
	pt := b.at(map[string]int64{"P": 8})
	at := texts(pt)
	for id, want := range map[string]string{
		"main/L1":          "loop: n/P - 1 iterations per rank = 127; 98% of the time",
		"main/I1/b1/L1/M1": "recv: P - 1 messages of 8 bytes where rank == 0 = 7 on rank 0, 0 on ranks 1-7",
	} {
		if at[id] != want {
			t.Errorf("at P=8 %s: %q, want %q", id, at[id], want)
		}
	}
	if got := Point(b.r, pt); got != "n=1024, P=8" {
		t.Errorf("Point = %q", got)
	}
}

func TestFormatting(t *testing.T) {
	for x, want := range map[float64]string{0: "0%", 1: "100%", 0.87: "87%", 0.9996: "99.96%", 0.99999: "99.999%",
		0.004: "0.4%", 0.1: "10%"} {
		if got := percent(x); got != want {
			t.Errorf("percent(%v) = %s, want %s", x, got, want)
		}
	}
	for x, want := range map[float64]string{127: "127", 1e6: "1000000", 1.5: "1.5", 2.0 / 3: "0.6667"} {
		if got := num(x); got != want {
			t.Errorf("num(%v) = %s, want %s", x, got, want)
		}
	}
	for s, want := range map[float64]string{3.35e-7: "335ns", 0.0105: "10.5ms", 2: "2s", 1.2e-5: "12us"} {
		if got := duration(s); got != want {
			t.Errorf("duration(%v) = %s, want %s", s, got, want)
		}
	}
	if got := grow([]string{"n", "m", "k"}); got != "n, m and k grow" {
		t.Errorf("grow: %s", got)
	}
	if got := singular("messages of 8 bytes"); got != "message of 8 bytes" {
		t.Errorf("singular: %s", got)
	}
}

// TestHotLoopAtPartialPoint: a sort whose keys per rank (keys, a value of
// the data) are unknown: at P = 4 the nests that rest on no value of the
// data are ranked by their share of the loop work counted there, the one
// over the keys is named as resting on the data, and no share of the
// program's work is claimed.
func TestHotLoopAtPartialPoint(t *testing.T) {
	b := newBuilder(t, true, "3*n/P + keys + 40", "n >= 4*P, keys >= 0").
		param("n", cost.FromAnnotation, 2, "the problem size n", "4096").
		param("keys", cost.FromUnresolved, 30, "an element of counts", "")
	m := b.root()
	b.loop(m, "main/L1", 10, "1", "n/P", "2*n/P")
	b.loop(m, "main/L2", 20, "1", "n/P", "n/P")
	b.loop(m, "main/L3", 30, "1", "keys", "keys")
	b.loop(m, "main/L4", 40, "1", "10", "40")
	env := map[string]int64{"P": 4}
	if _, err := b.r.At(env); err == nil {
		t.Fatal("At gave a point without the data's value")
	}
	pt, err := b.r.AtKnown(env)
	if err != nil {
		t.Fatal(err)
	}
	if !pt.Partial() || !pt.WorkUnknown || len(pt.Unknown) != 1 || pt.Unknown[0] != "keys" {
		t.Fatalf("partial point: unknown %v, work unknown %v", pt.Unknown, pt.WorkUnknown)
	}
	if pt.Nodes[b.r.ByID["main/L3"]] != nil {
		t.Errorf("the loop over the keys has values at the partial point")
	}
	// Counted: 4 ranks x (2048 + 1024 + 40) = 12448; L1 holds 8192 of it.
	ds := only(Run(b.r, pt, Options{}), "MK1001")
	expect(t, ds,
		"t.f90:10:3: MK1001 loop runs n/P iterations per rank and holds 66% of the loop work counted at n=4096, P=4, where 1 nest rests on values of the data (t.f90:30:3) (n=4096, P=4: 1024 iterations)",
		"t.f90:20:3: MK1001 loop runs n/P iterations per rank and holds 33% of the loop work counted at n=4096, P=4, where 1 nest rests on values of the data (t.f90:30:3) (n=4096, P=4: 1024 iterations)")
	if ds[0].Facts["share_of"] != "counted loop nests" {
		t.Errorf("facts %v", ds[0].Facts)
	}
	// Given the value the point is whole again, and the share is of the
	// program's work.
	full, err := b.r.AtKnown(map[string]int64{"P": 4, "keys": 1000})
	if err != nil || full.Partial() {
		t.Fatalf("full point: %v %v", err, full.Unknown)
	}
	ds = only(Run(b.r, full, Options{}), "MK1001")
	if len(ds) == 0 || !strings.Contains(ds[0].Message, "of the predicted time") {
		t.Errorf("with the value: %s", lines(ds))
	}
	// A size without a value is no value of the data: no point.
	if _, err := b.r.AtKnown(map[string]int64{"P": 4, "keys": 1}); err != nil {
		t.Fatal(err)
	}
	b.r.Params[0].Default = nil
	if _, err := b.r.AtKnown(env); err == nil {
		t.Error("AtKnown gave a point without the size n")
	}
}
