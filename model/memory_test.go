package model

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// epycTree is the cache description Linux gives of a 2-processor AMD EPYC
// virtual machine (the CI machine's).
func epycTree() fstest.MapFS {
	fs := fstest.MapFS{"online": {Data: []byte("0-1\n")}}
	add := func(idx, level, typ, size, shared string) {
		d := "cpu0/cache/index" + idx + "/"
		fs[d+"level"] = &fstest.MapFile{Data: []byte(level + "\n")}
		fs[d+"type"] = &fstest.MapFile{Data: []byte(typ + "\n")}
		fs[d+"size"] = &fstest.MapFile{Data: []byte(size + "\n")}
		fs[d+"shared_cpu_list"] = &fstest.MapFile{Data: []byte(shared + "\n")}
	}
	add("0", "1", "Data", "32K", "0")
	add("1", "1", "Instruction", "32K", "0")
	add("2", "2", "Unified", "1024K", "0")
	add("3", "3", "Unified", "32768K", "0-1")
	return fs
}

func TestReadCaches(t *testing.T) {
	m, err := ReadCaches(epycTree())
	if err != nil {
		t.Fatal(err)
	}
	want := []MemLevel{{Name: "L1", Size: 32 << 10, Shared: 1}, {Name: "L2", Size: 1 << 20, Shared: 1},
		{Name: "L3", Size: 32 << 20, Shared: 2}, {Name: "memory"}}
	if m.CPUs != 2 || len(m.Levels) != len(want) {
		t.Fatalf("got %+v", m)
	}
	for i := range want {
		if m.Levels[i] != want[i] {
			t.Errorf("level %d: %+v, want %+v", i, m.Levels[i], want[i])
		}
	}
	// Working sets per process: L3's 32 MiB is 16 MiB each when both
	// processors run the program.
	for _, c := range []struct {
		bytes float64
		procs int
		want  string
	}{{1000, 1, "L1"}, {32 << 10, 1, "L1"}, {32<<10 + 1, 1, "L2"}, {20 << 20, 1, "L3"}, {20 << 20, 2, "memory"},
		{16 << 20, 8, "L3"}, {1 << 40, 1, "memory"}} {
		if got := m.Levels[m.Level(c.bytes, c.procs)].Name; got != c.want {
			t.Errorf("Level(%v, %d) = %s, want %s", c.bytes, c.procs, got, c.want)
		}
	}
	if got := m.MembenchSizes(); len(got) != 4 || got[0] != 16<<10 || got[2] != 8<<20 || got[3] != 128<<20 {
		t.Errorf("benchmark sizes %v", got)
	}
	bad := epycTree()
	bad["cpu0/cache/index3/size"] = &fstest.MapFile{Data: []byte("lots\n")}
	if _, err := ReadCaches(bad); err == nil || !strings.Contains(err.Error(), "index3/size") {
		t.Errorf("bad size: %v", err)
	}
	if _, err := ReadCaches(fstest.MapFS{}); err == nil {
		t.Error("no caches: no error")
	}
}

func TestCountCPUList(t *testing.T) {
	for in, want := range map[string]int{"0": 1, "0-1": 2, "0,2,4-7": 6, "3-3": 1} {
		if got, err := CountCPUList(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1-0", "a", "0,,1", "-1", "0-"} {
		if _, err := CountCPUList(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestReadMemoryJSON(t *testing.T) {
	m, _ := ReadCaches(epycTree())
	for i := range m.Levels {
		m.Levels[i].One, m.Levels[i].All = 1e-11*float64(i+1), 2e-11*float64(i+1)
	}
	m.Levels[1].MoveOne, m.Levels[1].MoveAll = 4e-12, 5e-12
	b, _ := json.Marshal(m)
	got, err := ReadMemoryJSON("mem.json", b)
	if err != nil || !got.Measured() || len(got.Levels) != 4 || got.Levels[3].All != 8e-11 || got.Levels[1].MoveAll != 5e-12 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	// A block move takes its own figure where measured, the level's
	// streaming one where not (a hierarchy written before it was).
	if got.Time(Move, 1, 1) != 4e-12 || got.Time(Move, 1, 2) != 5e-12 || got.Time(Move, 2, 1) != got.Levels[2].One {
		t.Errorf("move times: %v %v %v", got.Time(Move, 1, 1), got.Time(Move, 1, 2), got.Time(Move, 2, 1))
	}
	pos := regexp.MustCompile(`^mem\.json:\d+:\d+: `)
	for in, want := range map[string]string{
		`{"cpus": 2, "levels": [`:                   "unexpected EOF",
		`{"cpus": "two"}`:                           "cpus: want a int",
		`{"cpus": 2, "levels": []}`:                 "levels: none given",
		`{"levels": [{"name": "L1", "size": 100}]}`: "every level but the last",
		`{"levels": [{"name": "L1", "size": 100}, {"name": "L2", "size": 50}, {"name": "m"}]}`: "must grow",
		`{"levels": [{"name": "m", "one": -1}]}`:                                               "streaming times",
		`{"levels": [{"name": "m"}], "colour": 1}`:                                             "unknown field",
		`{"levels": [{"name": "m"}]} {}`:                                                       "more than one",
	} {
		_, err := ReadMemoryJSON("mem.json", []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) || !pos.MatchString(err.Error()) {
			t.Errorf("%s: %v, want file:line:col and %q", in, err, want)
		}
	}
}

func TestParseMembench(t *testing.T) {
	all, err := ParseMembench("out", strings.NewReader("triad 16384 1.2e-11\n\ntriad 134217728 3.5e-11\ngather 16384 2e-10\n"))
	got := all["triad"]
	if err != nil || got[16384] != 1.2e-11 || got[134217728] != 3.5e-11 {
		t.Fatalf("%v, %v", got, err)
	}
	if _, err := ParseMembench("out", strings.NewReader("triad 1 2\nfoo\n")); err == nil || !strings.HasPrefix(err.Error(), "out:2:1: ") {
		t.Errorf("bad line: %v", err)
	}
}

// FuzzReadMemoryJSON: a memory hierarchy file never panics the reader, and
// what it accepts is a hierarchy mkvet can use (a last level without a
// size, sizes growing, times not negative).
func FuzzReadMemoryJSON(f *testing.F) {
	m, _ := ReadCaches(epycTree())
	b, _ := json.Marshal(m)
	f.Add(b)
	f.Add([]byte(`{"levels": [{"name": "memory", "one": 1e-10, "all": 2e-10}]}`))
	f.Add([]byte(`{"levels": [{"name": "L1", "size": 4096, "one": 1e-11, "move_one": 4e-12, "move_all": 5e-12}, {"name": "memory", "one": 1e-10, "all": 2e-10, "move_one": 3e-11}]}`))
	f.Add([]byte(`{"cpus": 2, "levels": [`))
	f.Add([]byte(`{"cpus": 2, "touch_one": 2.9e-10, "touch_all": 3e-10, "levels": [{"name": "memory", "one": 1e-10, "all": 2e-10}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMemoryJSON("f.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		last := m.Levels[len(m.Levels)-1]
		if last.Size != 0 {
			t.Fatalf("accepted a last level with a size: %+v", m)
		}
		for _, b := range []float64{0, 1, 1e9, 1e30} {
			for _, p := range []int{0, 1, 3} {
				if l := m.Level(b, p); l < 0 || l >= len(m.Levels) {
					t.Fatalf("Level(%v, %d) = %d", b, p, l)
				}
			}
		}
		exerciseMemory(t, m)
		var buf bytes.Buffer
		json.NewEncoder(&buf).Encode(m)
		if _, err := ReadMemoryJSON("again.json", buf.Bytes()); err != nil {
			t.Fatalf("rejects its own output: %v", err)
		}
	})
}

// exerciseMemory prices every pattern at working sets in and beyond every
// level of an accepted hierarchy, strided or not: a level and a time that
// is a number, never a panic.
func exerciseMemory(t *testing.T, m *Memory) {
	t.Helper()
	for _, b := range []float64{0, 1, 4096, 1e9, 1e30} {
		for _, p := range []int{0, 1, 3} {
			for _, s := range []int64{0, 8, 64, 4096, 4160, 1 << 40} {
				if l := m.LevelStrided(b, p, s); l < 0 || l >= len(m.Levels) {
					t.Fatalf("LevelStrided(%v, %d, %d) = %d", b, p, s, l)
				}
				for _, pat := range []Pattern{Stream, Stride, Walk, Gather, Move} {
					if v := m.TimeStrided(pat, b, p, s); math.IsNaN(v) || v < 0 {
						t.Fatalf("TimeStrided(%v, %v, %d, %d) = %v", pat, b, p, s, v)
					}
				}
			}
		}
	}
	for i := range m.Levels {
		if c := m.Conflict(i, 4096); !(c > 0 && c <= 1) {
			t.Fatalf("Conflict(%d, 4096) = %v", i, c)
		}
	}
}

// FuzzReadCaches: any cache size and processor list text is read or
// refused with the file it came from, never a panic.
func FuzzReadCaches(f *testing.F) {
	f.Add("32K", "0-1", "2", "Unified")
	f.Add("1024", "0,2,4-7", "3", "Data")
	f.Add("9999999999999G", "7-3", "x", "")
	f.Fuzz(func(t *testing.T, size, shared, level, typ string) {
		tree := epycTree()
		tree["cpu0/cache/index2/size"] = &fstest.MapFile{Data: []byte(size)}
		tree["cpu0/cache/index2/shared_cpu_list"] = &fstest.MapFile{Data: []byte(shared)}
		tree["cpu0/cache/index2/level"] = &fstest.MapFile{Data: []byte(level)}
		tree["cpu0/cache/index2/type"] = &fstest.MapFile{Data: []byte(typ)}
		m, err := ReadCaches(tree)
		if err != nil {
			return
		}
		for _, l := range m.Levels[:len(m.Levels)-1] {
			if l.Size <= 0 || l.Shared < 1 {
				t.Fatalf("accepted %+v", l)
			}
		}
	})
}

// TestGatherHitsShared: a gather into an array larger than a shared last
// cache finds the share of it membench measured the cache holding
// (GatherHeld), at the hit ratio of uniform references, c/S; without the
// figure it finds none. The oracle is the mix computed here from the
// miss time the memory level's own measurement implies.
func TestGatherHitsShared(t *testing.T) {
	const mib = 1 << 20
	m := &Memory{CPUs: 2, Levels: []MemLevel{
		{Name: "L1", Size: 32 << 10, Shared: 1, GatherOne: 0.4e-9, GatherAll: 0.4e-9},
		{Name: "L3", Size: 32 * mib, Shared: 2, GatherOne: 1e-9, GatherAll: 1e-9},
		{Name: "memory", GatherOne: 10e-9, GatherAll: 10e-9},
	}}
	s2 := float64(m.MembenchSizes()[2]) // where the memory level's gather was measured
	fp := 54.0 * mib
	if got := m.TimeStrided(Gather, fp, 1, 0); got != 10e-9 {
		t.Errorf("no held figure: %g, want the memory level's 10 ns", got)
	}
	m.Levels[1].GatherHeld = 16 * mib
	c, near := 16.0*mib, 1e-9
	miss := (10e-9 - c/s2*near) / (1 - c/s2)
	want := c/fp*near + (1-c/fp)*miss
	if got := m.TimeStrided(Gather, fp, 1, 0); math.Abs(got-want) > 1e-6*want {
		t.Errorf("held 16 MiB: %g, want %g", got, want)
	}
	// With both processors on the node each holds half.
	c /= 2
	miss = (10e-9 - c/s2*near) / (1 - c/s2)
	want = c/fp*near + (1-c/fp)*miss
	if got := m.TimeStrided(Gather, fp, 2, 0); math.Abs(got-want) > 1e-6*want {
		t.Errorf("held 16 MiB, two processes: %g, want %g", got, want)
	}
	// A profile keeps the figure through its JSON form.
	p := *Default()
	p.Memory = m
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	q, err := ReadProfile("p.json", b.Bytes())
	if err != nil || q.Memory == nil || q.Memory.Levels[1].GatherHeld != 16*mib {
		t.Errorf("round trip: %v\n%s", err, b.String())
	}
	m.Levels[1].GatherHeld = 64 * mib
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "gather_held") {
		t.Errorf("held beyond the level's size: %v", err)
	}
}
