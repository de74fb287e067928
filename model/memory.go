package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Memory is a node's memory hierarchy: its cache levels, then main memory,
// with the time to move data from each the ways loops walk memory, where
// measured (mkvet membench) or given by a profile.
type Memory struct {
	// CPUs is the number of processors of the node the levels were read on.
	CPUs int `json:"cpus"`
	// Line is the cache line in bytes; 0 means DefaultLine.
	Line int64 `json:"line,omitempty"`
	// Levels run from the nearest cache to main memory (the last, with
	// Size 0).
	Levels []MemLevel `json:"levels"`
	// Source says where the sizes and times come from.
	Source string `json:"source,omitempty"`
	// TouchOne and TouchAll are the seconds per byte the first write of
	// memory the program has not touched adds to the write (the kernel
	// maps a zeroed page on the first store to each: a fault and the
	// page's clearing), with one process and with every processor
	// writing; 0 when not measured (the first touch is then not priced).
	TouchOne float64 `json:"touch_one,omitempty"`
	TouchAll float64 `json:"touch_all,omitempty"`
}

// Touch is the seconds per byte the first write of fresh memory adds
// (TouchOne, TouchAll) with procs processes on the node, 0 when not
// measured.
func (m *Memory) Touch(procs int) float64 {
	if m == nil {
		return 0
	}
	if m.OnNode(procs) > 1 {
		return m.TouchAll
	}
	return m.TouchOne
}

// DefaultLine is the cache line of a hierarchy that does not give one: 64
// bytes on every current x86-64 and most AArch64 processors.
const DefaultLine = 64

// LineBytes is m's cache line in bytes.
func (m *Memory) LineBytes() int64 {
	if m == nil || m.Line <= 0 {
		return DefaultLine
	}
	return m.Line
}

// MemLevel is one level of the memory hierarchy.
type MemLevel struct {
	Name string `json:"name"` // "L1", "L2", "L3", "memory"
	// Size is the capacity of one instance in bytes (0 for main memory),
	// Shared the number of processors sharing one.
	Size   int64 `json:"size,omitempty"`
	Shared int   `json:"shared,omitempty"`
	// Ways is the level's associativity: the lines of one set; 0 when
	// not known. With the line and the size it says how many sets there
	// are, which a stride that is a multiple of a large power of two
	// reaches only a few of (Conflict).
	Ways int `json:"ways,omitempty"`
	// One is the seconds per byte streamed with one process streaming,
	// All with every processor of the node streaming (a shared level's and
	// main memory's bandwidth is divided between them); 0 when not measured.
	One float64 `json:"one,omitempty"`
	All float64 `json:"all,omitempty"`
	// StrideOne and StrideAll are the seconds per access of a loop that
	// reads one element per line with a stride of more than a page (a walk
	// across the planes of an array), GatherOne and GatherAll of one that
	// reads one element per line in a random order through an index array
	// (a sparse product's gather); with one process and with every
	// processor accessing. 0 when not measured.
	StrideOne float64 `json:"stride_one,omitempty"`
	StrideAll float64 `json:"stride_all,omitempty"`
	// WalkOne and WalkAll are the seconds per access of a strided loop
	// whose planes the TLB holds (a walk across a few dozen planes, then
	// the next line of each): the processor's stride prefetching serves
	// it, where Stride's every access touches a page the TLB does not hold.
	WalkOne   float64 `json:"walk_one,omitempty"`
	WalkAll   float64 `json:"walk_all,omitempty"`
	GatherOne float64 `json:"gather_one,omitempty"`
	GatherAll float64 `json:"gather_all,omitempty"`
	// MoveOne and MoveAll are the seconds per byte read or written of the
	// C library's block move (memcpy), which compilers call in place of a
	// loop that only copies consecutive elements; 0 when not measured (a
	// block move then streams at One and All).
	MoveOne float64 `json:"move_one,omitempty"`
	MoveAll float64 `json:"move_all,omitempty"`
	// GatherHeld is the bytes of an array gathered in a random order that
	// a shared level holds for one process: less than its size, since the
	// streams beside the gather and (on a virtual machine) other tenants
	// occupy the rest. 0 when not measured; a shared level then gives a
	// gather no hits (gatherHits).
	GatherHeld int64 `json:"gather_held,omitempty"`
}

// Pattern is a way a loop walks memory, as the memory model prices it.
type Pattern int

// The patterns, each measured by a kernel of mkvet membench.
const (
	Stream Pattern = iota + 1 // consecutive addresses (triad): seconds per byte
	Stride                    // one access per line, a page the TLB does not hold each: seconds per access
	Gather                    // one access per line, in no order: seconds per access
	Walk                      // one access per line, a stride apart across planes the TLB holds: seconds per access
	Move                      // a block move (memcpy): seconds per byte read or written
)

// TLBPages is how many pages a strided walk may cross before it moves on
// and still find their translations: a first-level data TLB's 64 entries
// (as current x86-64 and AArch64 cores have, give or take a few).
const TLBPages = 64

// PageBytes is the page a walk's TLB reach is counted in.
const PageBytes = 4096

// Time is the time of one unit of pattern pat from level i with procs
// processes on the node (a byte for Stream, an access for the others),
// 0 when not measured: the one-process figure alone, else the
// all-processors one (a node the program fills, as small runs on small
// machines do).
func (m *Memory) Time(pat Pattern, i, procs int) float64 {
	l := m.Levels[i]
	one, all := l.One, l.All
	switch pat {
	case Stride:
		one, all = l.StrideOne, l.StrideAll
	case Gather:
		one, all = l.GatherOne, l.GatherAll
	case Walk:
		one, all = l.WalkOne, l.WalkAll
	case Move:
		if l.MoveOne > 0 && l.MoveAll > 0 {
			one, all = l.MoveOne, l.MoveAll
		}
	}
	if m.OnNode(procs) > 1 {
		return all
	}
	return one
}

// Patterned reports whether every level has the times of every pattern,
// one process and all.
func (m *Memory) Patterned() bool {
	if !m.Measured() {
		return false
	}
	for _, l := range m.Levels {
		if l.StrideOne <= 0 || l.StrideAll <= 0 || l.GatherOne <= 0 || l.GatherAll <= 0 || l.WalkOne <= 0 || l.WalkAll <= 0 {
			return false
		}
	}
	return true
}

// Measured reports whether the levels have streaming times.
func (m *Memory) Measured() bool {
	if m == nil || len(m.Levels) == 0 {
		return false
	}
	for _, l := range m.Levels {
		if l.One <= 0 || l.All <= 0 {
			return false
		}
	}
	return true
}

// Level returns the index of the level a working set of the given bytes per
// process fits in when procs processes of a program share the node: a
// shared level's capacity is divided between the processes on it.
func (m *Memory) Level(bytes float64, procs int) int {
	procs = m.OnNode(procs)
	for i, l := range m.Levels {
		if l.Size == 0 {
			return i
		}
		share := min(procs, max(l.Shared, 1))
		if bytes <= float64(l.Size)/float64(share) {
			return i
		}
	}
	return len(m.Levels) - 1
}

// Conflict is the share of level i's sets a walk with a stride of stride
// bytes reaches: with S sets and a stride of k lines, S/gcd(S, k) of them
// (a stride of a page reaches one set of every 64 of a 64-set L1), 1 when
// the stride is not a whole number of lines or the level's associativity
// is not known. The level holds that share of its capacity of such a
// walk's lines: the conflict misses of power-of-two strides.
func (m *Memory) Conflict(i int, stride int64) float64 {
	l := m.Levels[i]
	line := m.LineBytes()
	if l.Ways <= 0 || l.Size <= 0 || stride < line || stride%line != 0 {
		return 1
	}
	sets := l.Size / (int64(l.Ways) * line)
	if sets <= 1 {
		return 1
	}
	g := gcd(sets, stride/line)
	return 1 / float64(g)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// LevelStrided is Level for the lines of a walk with a stride of stride
// bytes (0: consecutive), each level holding its Conflict share of them.
func (m *Memory) LevelStrided(bytes float64, procs int, stride int64) int {
	if stride <= 0 {
		return m.Level(bytes, procs)
	}
	for i, l := range m.Levels {
		if l.Size == 0 || bytes <= m.Capacity(i, procs)*m.Conflict(i, stride) {
			return i
		}
	}
	return len(m.Levels) - 1
}

// SecPerByte is the streaming time of level i with procs processes on
// the node: the one-process figure alone, else the all-processors one
// (a node the program fills, as calibration runs on small machines do).
func (m *Memory) SecPerByte(i, procs int) float64 {
	l := m.Levels[i]
	if procs > 1 {
		return l.All
	}
	return l.One
}

// SecPerByteAt is the streaming time per byte of a working set of fp bytes
// per process with procs processes on the node (TimeAt of Stream).
func (m *Memory) SecPerByteAt(fp float64, procs int) float64 {
	return m.TimeAt(Stream, fp, procs)
}

// TimeAt is the time of one unit of pattern pat (Time) from a working set
// of fp bytes per process with procs processes on the node: the time of the
// level it fits in up to half that level's capacity, where membench
// measures it (MembenchSizes), and from there to the full capacity a blend
// moving linearly to the next level's time. A cache more than half full of
// a swept working set loses hits to conflicts and to whatever else it holds
// (pseudo-LRU replacement, a last level shared with the other processes):
// the reason layer conditions count with half the cache. The blend makes
// the time continuous in the working set, where the level alone jumps at
// each capacity.
func (m *Memory) TimeAt(pat Pattern, fp float64, procs int) float64 {
	return m.TimeStrided(pat, fp, procs, 0)
}

// TimeStrided is TimeAt for a walk with a stride of stride bytes (0:
// consecutive), each level holding its Conflict share of its lines.
func (m *Memory) TimeStrided(pat Pattern, fp float64, procs int, stride int64) float64 {
	i := m.LevelStrided(fp, procs, stride)
	t := m.Time(pat, i, procs)
	if pat == Gather {
		t = m.gatherHits(i, fp, procs, t)
	}
	if i+1 >= len(m.Levels) {
		return t
	}
	c := m.Capacity(i, procs) * m.Conflict(i, stride)
	if math.IsInf(c, 1) || fp <= c/2 {
		return t
	}
	return t + (fp-c/2)/(c/2)*(m.Time(pat, i+1, procs)-t)
}

// gatherHits is the time t of a gathered access from level i corrected
// for the hits the nearer level gives: accesses in a random order into fp
// bytes find a nearer level's capacity c of them there, a share c/fp
// (the hit ratio of uniformly random references). membench's gather at
// level i, measured at its own working set, already holds that level's
// share of nearer hits; the time of a miss is taken out of it, then the
// two are mixed at fp's share. Only a private nearer level counts: what a
// shared one holds for a process depends on the others' data (and on a
// virtual machine, on other tenants': a "32 MiB" last level that serves
// a gather like 8 MiB does) unless membench measured it (GatherHeld).
func (m *Memory) gatherHits(i int, fp float64, procs int, t float64) float64 {
	if i == 0 || !(fp > 0) {
		return t
	}
	c := m.Capacity(i-1, procs)
	if l := m.Levels[i-1]; l.Shared > 1 {
		if l.GatherHeld <= 0 {
			return t
		}
		c *= float64(l.GatherHeld) / m.Capacity(i-1, 1)
	}
	near := m.Time(Gather, i-1, procs)
	sizes := m.MembenchSizes()
	if near <= 0 || i >= len(sizes) || float64(sizes[i]) <= c || fp <= c {
		return t
	}
	pm := c / float64(sizes[i])
	miss := (t - pm*near) / (1 - pm)
	if !(t > 0) || !(miss >= near) {
		return t // figures that do not make a miss the slower: no split
	}
	p := c / fp
	return p*near + (1-p)*miss
}

// Capacity is the bytes per process level i holds with procs processes on
// the node (+Inf for main memory).
func (m *Memory) Capacity(i, procs int) float64 {
	l := m.Levels[i]
	if l.Size == 0 {
		return math.Inf(1)
	}
	return float64(l.Size) / float64(min(m.OnNode(procs), max(l.Shared, 1)))
}

// OnNode is how many of a program's procs processes share one node: all
// of them, up to its processors (at least 1).
func (m *Memory) OnNode(procs int) int {
	if m.CPUs > 0 && procs > m.CPUs {
		procs = m.CPUs
	}
	return max(procs, 1)
}

// ReadCaches reads the data and unified caches of the first processor from
// a Linux sysfs tree (fsys rooted at /sys/devices/system/cpu, so that
// cpu0/cache/index*/ hold level, type, size and shared_cpu_list), and adds
// main memory. Instruction caches are left out: they hold no data.
func ReadCaches(fsys fs.FS) (*Memory, error) {
	dirs, err := fs.Glob(fsys, "cpu0/cache/index*")
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, errors.New("no cache description (cpu0/cache/index*) in the processor tree")
	}
	read := func(dir, name string) (string, error) {
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		return strings.TrimSpace(string(b)), err
	}
	m := &Memory{Source: "sysfs"}
	for _, dir := range dirs {
		typ, err := read(dir, "type")
		if err != nil {
			return nil, err
		}
		if typ == "Instruction" {
			continue
		}
		lv, err := read(dir, "level")
		if err != nil {
			return nil, err
		}
		level, err := strconv.Atoi(lv)
		if err != nil || level < 1 || level > 9 {
			return nil, fmt.Errorf("%s/level: %q is not a cache level", dir, lv)
		}
		sz, err := read(dir, "size")
		if err != nil {
			return nil, err
		}
		size, err := ParseCacheSize(sz)
		if err != nil {
			return nil, fmt.Errorf("%s/size: %v", dir, err)
		}
		shared := 1
		if list, err := read(dir, "shared_cpu_list"); err == nil {
			if shared, err = CountCPUList(list); err != nil {
				return nil, fmt.Errorf("%s/shared_cpu_list: %v", dir, err)
			}
		}
		ways := 0
		if w, err := read(dir, "ways_of_associativity"); err == nil {
			if n, err := strconv.Atoi(w); err == nil && n > 0 && n <= 1<<10 {
				ways = n
			}
		}
		m.Levels = append(m.Levels, MemLevel{Name: "L" + lv, Size: size, Shared: shared, Ways: ways})
		if ls, err := read(dir, "coherency_line_size"); err == nil && m.Line == 0 {
			if n, err := strconv.ParseInt(ls, 10, 64); err == nil && n > 0 && n <= 1<<16 {
				m.Line = n
			}
		}
	}
	sort.SliceStable(m.Levels, func(i, j int) bool { return m.Levels[i].Name < m.Levels[j].Name })
	for i := 1; i < len(m.Levels); i++ {
		if m.Levels[i].Name == m.Levels[i-1].Name {
			return nil, fmt.Errorf("two data caches at level %s", m.Levels[i].Name)
		}
	}
	if b, err := fs.ReadFile(fsys, "online"); err == nil {
		if n, err := CountCPUList(strings.TrimSpace(string(b))); err == nil {
			m.CPUs = n
		}
	}
	m.Levels = append(m.Levels, MemLevel{Name: "memory"})
	return m, nil
}

// ParseCacheSize reads a sysfs cache size: "32K", "1024K", "32M", or bytes.
func ParseCacheSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<50)/mult {
		return 0, fmt.Errorf("%q is not a cache size", s)
	}
	return n * mult, nil
}

// CountCPUList counts the processors of a sysfs CPU list such as "0-1",
// "0,2,4-7".
func CountCPUList(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty processor list")
	}
	n := 0
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return 0, fmt.Errorf("%q is not a processor list", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0, fmt.Errorf("%q is not a processor list", s)
			}
		}
		if n += b - a + 1; n > 1<<20 {
			return 0, fmt.Errorf("%q lists too many processors", s)
		}
	}
	return n, nil
}

// MembenchSizes are the working sets to measure for levels: half of each
// cache's per-process capacity with every processor streaming (so that
// one size serves both the one- and the all-processors runs), and main
// memory at four times the last cache.
func (m *Memory) MembenchSizes() []int64 {
	var out []int64
	var last int64
	for _, l := range m.Levels {
		if l.Size == 0 {
			out = append(out, max(4*last, 64<<20))
			continue
		}
		share := int64(max(min(m.CPUs, l.Shared), 1))
		out = append(out, max(l.Size/share/2, 4096))
		last = l.Size
	}
	return out
}

// ParseMembench reads the benchmark's output: "KERNEL BYTES SECONDS"
// lines, by kernel and working set. file names the input in errors, with
// the line.
func ParseMembench(file string, r io.Reader) (map[string]map[int64]float64, error) {
	out := map[string]map[int64]float64{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] == "#" {
			continue
		}
		if len(f) != 3 || !slices.Contains(membenchKernels, f[0]) {
			return nil, fmt.Errorf("%s:%d:1: want \"KERNEL BYTES SECONDS\" (KERNEL one of %s), got %q",
				file, line, strings.Join(membenchKernels, ", "), sc.Text())
		}
		b, err1 := strconv.ParseInt(f[1], 10, 64)
		s, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || b < 0 || !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("%s:%d:1: bad size or time in %q", file, line, sc.Text())
		}
		if out[f[0]] == nil {
			out[f[0]] = map[int64]float64{}
		}
		out[f[0]][b] = s
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d:1: %v", file, line+1, err)
	}
	return out, nil
}

// membenchKernels are the kernels of mkvet membench.
var membenchKernels = []string{"triad", "move", "stride", "walk", "gather", "chase", "unit", "touch"}

// LevelsFromLatency builds the levels of a hierarchy no processor tree
// describes from the latencies of a random walk (membench's chase kernel)
// over working sets of growing sizes: a level ends where the latency rises
// to jumpRatio times its first size's, the size before the rise being its
// capacity, and main memory is the last. A rise spread over a few sizes (a
// cache filling, the page tables missing) stays within a level until it
// reaches the ratio. Shared is left 0 (unknown: each process is taken to
// have a level's whole capacity).
func LevelsFromLatency(sizes []int64, secs []float64) ([]MemLevel, error) {
	if len(sizes) != len(secs) || len(sizes) < 2 {
		return nil, errors.New("need the latency at two working sets or more")
	}
	const jumpRatio = 2.5
	var out []MemLevel
	base := secs[0]
	for k := 1; k < len(sizes); k++ {
		if sizes[k] <= sizes[k-1] || !(secs[k] > 0) {
			return nil, errors.New("working sets must grow and latencies be positive")
		}
		if secs[k] >= jumpRatio*base && len(out) < 4 {
			out = append(out, MemLevel{Name: "L" + strconv.Itoa(len(out)+1), Size: sizes[k-1]})
			base = secs[k]
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the latency does not rise from %s to %s: no cache level found", FormatBytes(float64(sizes[0])), FormatBytes(float64(sizes[len(sizes)-1])))
	}
	return append(out, MemLevel{Name: "memory"}), nil
}

// ReadMemoryJSON reads a memory hierarchy written by `mkvet membench
// -json`; file names it in errors, "file:line:col: message".
func ReadMemoryJSON(file string, data []byte) (*Memory, error) {
	at := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, int(min(max(off, 0), int64(len(data)))))
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Memory
	if err := dec.Decode(&m); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, at(se.Offset, "%v", err)
		case errors.As(err, &te):
			return nil, at(te.Offset, "%s: want a %s", te.Field, te.Type)
		}
		return nil, at(dec.InputOffset(), "%v", err)
	}
	if dec.More() {
		return nil, at(dec.InputOffset(), "more than one memory hierarchy")
	}
	if err := m.Validate(); err != nil {
		return nil, at(0, "%v", err)
	}
	return &m, nil
}

// finiteTimes reports whether every time is finite and not negative.
func finiteTimes(ts ...float64) bool {
	for _, t := range ts {
		if !(t >= 0) || math.IsInf(t, 0) {
			return false
		}
	}
	return true
}

// Validate checks that m describes a hierarchy: levels growing from the
// nearest cache to main memory (the last, size 0), counts not negative,
// times finite and not negative.
func (m *Memory) Validate() error {
	if len(m.Levels) == 0 {
		return errors.New("levels: none given")
	}
	if m.CPUs < 0 {
		return fmt.Errorf("cpus: %d is negative", m.CPUs)
	}
	if m.Line < 0 || m.Line > 1<<16 {
		return fmt.Errorf("line: %d is not a cache line size", m.Line)
	}
	if !finiteTimes(m.TouchOne, m.TouchAll) {
		return errors.New("touch: first-touch times must be finite and not negative")
	}
	for i, l := range m.Levels {
		last := i == len(m.Levels)-1
		switch {
		case l.Size < 0 || (l.Size == 0) != last:
			return fmt.Errorf("levels[%d].size: every level but the last (main memory, size 0) needs a positive size", i)
		case i > 0 && !last && l.Size <= m.Levels[i-1].Size:
			return fmt.Errorf("levels[%d].size: levels must grow from the nearest cache outwards", i)
		case l.Shared < 0:
			return fmt.Errorf("levels[%d].shared: %d is negative", i, l.Shared)
		case l.Ways < 0:
			return fmt.Errorf("levels[%d].ways: %d is negative", i, l.Ways)
		case l.GatherHeld < 0 || (l.GatherHeld > 0 && l.GatherHeld > l.Size):
			return fmt.Errorf("levels[%d].gather_held: %d is not within the level's size", i, l.GatherHeld)
		case !finiteTimes(l.One, l.All, l.StrideOne, l.StrideAll, l.GatherOne, l.GatherAll, l.WalkOne, l.WalkAll, l.MoveOne, l.MoveAll):
			return fmt.Errorf("levels[%d]: streaming times must be finite and not negative", i)
		}
	}
	return nil
}
