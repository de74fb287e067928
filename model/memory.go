package model

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
)

// MembenchC is the C source of the memory benchmark mkvet builds with the
// user's C compiler: a triad streamed over working sets of given sizes, one
// inside each cache level and one beyond the last (the per-level bandwidths
// of issue 14, item 3). Its arguments are TRIALS BYTES...; it prints
// "triad BYTES SECONDS_PER_BYTE" per size, the best of TRIALS trials.
//
//go:embed membench/membench.c
var MembenchC string

// Memory is a node's memory hierarchy: its cache levels, then main memory,
// with the time to stream a byte from each where measured.
type Memory struct {
	// CPUs is the number of processors of the node the levels were read on.
	CPUs int `json:"cpus"`
	// Levels run from the nearest cache to main memory (the last, with
	// Size 0).
	Levels []MemLevel `json:"levels"`
	// Source says where the sizes and times come from.
	Source string `json:"source,omitempty"`
}

// MemLevel is one level of the memory hierarchy.
type MemLevel struct {
	Name string `json:"name"` // "L1", "L2", "L3", "memory"
	// Size is the capacity of one instance in bytes (0 for main memory),
	// Shared the number of processors sharing one.
	Size   int64 `json:"size,omitempty"`
	Shared int   `json:"shared,omitempty"`
	// One is the seconds per byte streamed with one process streaming,
	// All with every processor of the node streaming (a shared level's and
	// main memory's bandwidth is divided between them); 0 when not measured.
	One float64 `json:"one,omitempty"`
	All float64 `json:"all,omitempty"`
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
// per process with procs processes on the node: the rate of the level it
// fits in up to half that level's capacity, where membench measures it
// (MembenchSizes), and from there to the full capacity a blend moving
// linearly to the next level's rate. A cache more than half full of a swept
// working set loses hits to conflicts and to whatever else it holds
// (pseudo-LRU replacement, a last level shared with the other processes):
// the reason layer conditions count with half the cache. The blend makes
// the time per byte continuous in the working set, where the level alone
// jumps at each capacity.
func (m *Memory) SecPerByteAt(fp float64, procs int) float64 {
	i := m.Level(fp, procs)
	t := m.SecPerByte(i, procs)
	if i+1 >= len(m.Levels) {
		return t
	}
	c := m.Capacity(i, procs)
	if math.IsInf(c, 1) || fp <= c/2 {
		return t
	}
	return t + (fp-c/2)/(c/2)*(m.SecPerByte(i+1, procs)-t)
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
		m.Levels = append(m.Levels, MemLevel{Name: "L" + lv, Size: size, Shared: shared})
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

// ParseMembench reads the benchmark's output: "triad BYTES SECONDS" lines.
// file names the input in errors, with the line.
func ParseMembench(file string, r io.Reader) (map[int64]float64, error) {
	out := map[int64]float64{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] == "#" {
			continue
		}
		if len(f) != 3 || f[0] != "triad" {
			return nil, fmt.Errorf("%s:%d:1: want \"triad BYTES SECONDS\", got %q", file, line, sc.Text())
		}
		b, err1 := strconv.ParseInt(f[1], 10, 64)
		s, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || b <= 0 || !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("%s:%d:1: bad size or time in %q", file, line, sc.Text())
		}
		out[b] = s
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d:1: %v", file, line+1, err)
	}
	return out, nil
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
	if len(m.Levels) == 0 {
		return nil, at(0, "levels: none given")
	}
	if m.CPUs < 0 {
		return nil, at(0, "cpus: %d is negative", m.CPUs)
	}
	for i, l := range m.Levels {
		last := i == len(m.Levels)-1
		switch {
		case l.Size < 0 || (l.Size == 0) != last:
			return nil, at(0, "levels[%d].size: every level but the last (main memory, size 0) needs a positive size", i)
		case i > 0 && !last && l.Size <= m.Levels[i-1].Size:
			return nil, at(0, "levels[%d].size: levels must grow from the nearest cache outwards", i)
		case l.Shared < 0:
			return nil, at(0, "levels[%d].shared: %d is negative", i, l.Shared)
		case !(l.One >= 0) || !(l.All >= 0) || math.IsInf(l.One, 0) || math.IsInf(l.All, 0):
			return nil, at(0, "levels[%d]: streaming times must be finite and not negative", i)
		}
	}
	return &m, nil
}
