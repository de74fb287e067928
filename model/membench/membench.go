package membench

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/mkvet/mkvet/internal/tool"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/symbolic"
)

// Source is the C source of the benchmark (csrc/membench.c).
//
//go:embed csrc/membench.c
var Source string

// Options say how to measure.
type Options struct {
	// Compiler is the C compiler command and its leading arguments
	// ("cc", "clang-14"); the benchmark is built with -O2.
	Compiler []string
	// Trials per working set; the best is kept. 0 means 3.
	Trials int
	// CPUTree is the kernel's processor tree (/sys/devices/system/cpu);
	// nil means the real one.
	CPUTree fs.FS
	// TreeName names CPUTree in the hierarchy's Source.
	TreeName string
}

// CPUTree is where Linux describes the processors and their caches.
const CPUTree = "/sys/devices/system/cpu"

// Node is what membench measures of a node.
type Node struct {
	// Memory is the hierarchy with its times.
	Memory *model.Memory
	// Unit is the seconds one work unit of mkvet's default weights takes
	// on one processor, from data in the nearest cache: the geometric
	// mean over the unit kernels (membench.c). A profile's add time.
	Unit float64
	// Units are the kernels' own figures, in UnitKernels' order.
	Units []float64
}

// UnitKernels name membench.c's unit kernels by number: each measures the
// work unit of one kind of loop (model.Ops), the vectorised kind twice.
var UnitKernels = []string{"triad", "stencil", "dot", "butterfly", "gather"}

// Vector, Scalar, Chain and Complex are the seconds of a work unit in
// loops of each kind (model.Ops): the vectorised triad's and stencil's
// geometric mean, the gather's, the dot product's and the butterfly's.
func (n *Node) Vector() float64 {
	if len(n.Units) < 2 {
		return 0
	}
	return math.Sqrt(n.Units[0] * n.Units[1])
}

func (n *Node) Scalar() float64  { return n.unit(4) }
func (n *Node) Chain() float64   { return n.unit(2) }
func (n *Node) Complex() float64 { return n.unit(3) }

func (n *Node) unit(k int) float64 {
	if k < len(n.Units) {
		return n.Units[k]
	}
	return 0
}

// Measure builds the benchmark in a temporary directory and measures the
// node it runs on.
func Measure(ctx context.Context, opt Options) (*Node, error) {
	if len(opt.Compiler) == 0 {
		opt.Compiler = []string{"cc"}
	}
	if opt.Trials <= 0 {
		opt.Trials = 3
	}
	if opt.CPUTree == nil {
		opt.CPUTree, opt.TreeName = os.DirFS(CPUTree), CPUTree
	}
	dir, err := os.MkdirTemp("", "mkvet-membench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src, exe := filepath.Join(dir, "membench.c"), filepath.Join(dir, "membench")
	if err := os.WriteFile(src, []byte(Source), 0o644); err != nil {
		return nil, err
	}
	build := append(append([]string(nil), opt.Compiler...), "-O2", "-o", exe, src)
	if _, err := tool.Run(ctx, dir, build); err != nil {
		return nil, fmt.Errorf("building the memory benchmark: %v", err)
	}
	b := &bench{ctx: ctx, dir: dir, exe: exe, trials: opt.Trials}
	m, err := model.ReadCaches(opt.CPUTree)
	how := "sizes from " + opt.TreeName
	if err != nil {
		// No cache description (a container, some virtual machines): the
		// levels are where the latency of a random walk rises.
		if m, err = b.levelsByLatency(); err != nil {
			return nil, err
		}
		how = "levels found by the latency of a random walk (no cache description in " + opt.TreeName + ")"
	}
	if m.CPUs == 0 {
		m.CPUs = runtime.NumCPU()
	}
	sizes := m.MembenchSizes()
	for _, kernel := range []string{"triad", "move", "stride", "walk", "gather"} {
		one, err := b.run(kernel, sizes, 1)
		if err != nil {
			return nil, err
		}
		all, err := b.run(kernel, sizes, m.CPUs)
		if err != nil {
			return nil, err
		}
		for i, s := range sizes {
			l := &m.Levels[i]
			// The slowest process: what each gets when all move data.
			slowest := 0.0
			for _, o := range all {
				slowest = max(slowest, o[s])
			}
			switch kernel {
			case "triad":
				l.One, l.All = one[0][s], slowest
			case "move":
				l.MoveOne, l.MoveAll = one[0][s], slowest
			case "stride":
				l.StrideOne, l.StrideAll = one[0][s], slowest
			case "walk":
				l.WalkOne, l.WalkAll = one[0][s], slowest
			case "gather":
				l.GatherOne, l.GatherAll = one[0][s], slowest
			}
		}
	}
	if err := b.gatherHeld(m); err != nil {
		return nil, err
	}
	// The first touch: fresh memory beyond the last cache, as an array
	// a program initialises is.
	touch := []int64{sizes[len(sizes)-1]}
	one, err := b.run("touch", touch, 1)
	if err != nil {
		return nil, err
	}
	all, err := b.run("touch", touch, m.CPUs)
	if err != nil {
		return nil, err
	}
	m.TouchOne = one[0][touch[0]]
	for _, o := range all {
		m.TouchAll = max(m.TouchAll, o[touch[0]])
	}
	m.Source = fmt.Sprintf("%s; times by mkvet membench (%s -O2)", how, strings.Join(opt.Compiler, " "))
	node := &Node{Memory: m}
	kernels := make([]int64, len(UnitKernels))
	for k := range kernels {
		kernels[k] = int64(k)
	}
	units, err := b.run("unit", kernels, 1)
	if err != nil {
		return nil, err
	}
	logsum := 0.0
	for _, k := range kernels {
		node.Units = append(node.Units, units[0][k])
		logsum += math.Log(units[0][k])
	}
	node.Unit = math.Exp(logsum / float64(len(kernels)))
	return node, nil
}

// Profile returns base with the node's measurements: its memory hierarchy,
// and its operation costs scaled so that an add takes Unit (the other
// operations keep their ratios to it).
func (n *Node) Profile(base *model.Profile) *model.Profile {
	p := *base
	p.Memory = n.Memory
	if add := base.Ops.Resolved().Add; !add.IsZero() && n.Unit > 0 {
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(n.Unit, 'g', 3, 64))
		scale := symbolic.RatBig(r).Quo(add)
		for _, f := range []*symbolic.Rat{&p.Ops.Flop, &p.Ops.Add, &p.Ops.Mul, &p.Ops.Div, &p.Ops.Intrinsic, &p.Ops.Load, &p.Ops.Store} {
			*f = f.Mul(scale)
		}
	}
	for f, secs := range map[*symbolic.Rat]float64{&p.Ops.Vector: n.Vector(), &p.Ops.Scalar: n.Scalar(),
		&p.Ops.Chain: n.Chain(), &p.Ops.Complex: n.Complex()} {
		*f = symbolic.Rat{}
		if secs > 0 {
			r, _ := new(big.Rat).SetString(strconv.FormatFloat(secs, 'g', 3, 64))
			*f = symbolic.RatBig(r)
		}
	}
	return &p
}

// gatherHeld measures, for each shared cache level, how much of an array
// gathered in a random order it holds for one process (GatherHeld): with
// a share c/S of the accesses into S bytes hits (uniform references), a
// gather takes miss - (miss-near)·c/S a access, so its time at the level's
// own size S1 and at the next level's working set S2, with near (the
// level's own gather) known, gives both the time of a miss and c.
func (b *bench) gatherHeld(m *model.Memory) error {
	sizes := m.MembenchSizes()
	for i := 1; i < len(m.Levels); i++ {
		l := &m.Levels[i-1]
		s1, s2 := l.Size, sizes[i]
		if l.Shared <= 1 || s1 <= 0 || s2 <= s1 {
			continue
		}
		// Both sizes again, one after the other: the difference between
		// them is the figure, and a shared level's times drift with what
		// else runs.
		one, err := b.run("gather", []int64{s1, s2}, 1)
		if err != nil {
			return err
		}
		l.GatherHeld = min(held(l.GatherOne, one[0][s1], one[0][s2], float64(s1), float64(s2)), l.Size)
	}
	return nil
}

// held solves t = miss - (miss-near)·c/s at (s1, t1) and (s2, t2) for c,
// to the nearest KiB (the figure is good to a few percent, and prints so); 0
// where the times do not fall as the size grows.
func held(near, t1, t2, s1, s2 float64) int64 {
	k := (t2 - t1) / (1/s1 - 1/s2)
	miss := t2 + k/s2
	if !(k > 0) || !(near > 0) || !(miss > near) {
		return 0
	}
	return int64(math.Round(k/(miss-near)/1024)) * 1024
}

// bench runs the built benchmark.
type bench struct {
	ctx    context.Context
	dir    string
	exe    string
	trials int
}

// run times kernel at each working set in procs processes at once and
// returns each process's times by working set.
func (b *bench) run(kernel string, sizes []int64, procs int) ([]map[int64]float64, error) {
	argv := []string{b.exe, strconv.Itoa(b.trials), kernel}
	for _, s := range sizes {
		argv = append(argv, strconv.FormatInt(s, 10))
	}
	outs := make([]map[int64]float64, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Go(func() {
			out, err := tool.Run(b.ctx, b.dir, argv)
			if err != nil {
				errs[i] = err
				return
			}
			got, err := model.ParseMembench("membench output", bytes.NewReader(out))
			if err != nil {
				errs[i] = err
				return
			}
			outs[i] = got[kernel]
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("running the memory benchmark: %v", err)
	}
	for _, o := range outs {
		for _, s := range sizes {
			if o[s] <= 0 {
				return nil, fmt.Errorf("the memory benchmark printed no %s time for %d bytes", kernel, s)
			}
		}
	}
	return outs, nil
}

// latencySizes are the working sets of the random walk that finds the
// levels: 16 KiB to 512 MiB, doubling.
func latencySizes() []int64 {
	var out []int64
	for s := int64(16 << 10); s <= 512<<20; s *= 2 {
		out = append(out, s)
	}
	return out
}

// levelsByLatency finds the levels from the latency of a random walk over
// growing working sets (model.LevelsFromLatency).
func (b *bench) levelsByLatency() (*model.Memory, error) {
	sizes := latencySizes()
	outs, err := b.run("chase", sizes, 1)
	if err != nil {
		return nil, err
	}
	secs := make([]float64, len(sizes))
	for i, s := range sizes {
		secs[i] = outs[0][s]
	}
	levels, err := model.LevelsFromLatency(sizes, secs)
	if err != nil {
		return nil, fmt.Errorf("finding the cache levels: %v", err)
	}
	return &model.Memory{CPUs: runtime.NumCPU(), Levels: levels}, nil
}
