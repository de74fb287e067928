package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzRead: any bytes give a trace or a *FormatError, never a panic; a
// trace read is valid and writes back to bytes that read back equal.
func FuzzRead(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 4; i++ {
		tr := skeleton(rng, 1+rng.IntN(4), 1+rng.IntN(6))
		if _, err := Schedule(tr, testParams()); err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, tr); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := Read("f.mkt", b)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%T %v, want a FormatError", err, err)
			}
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("read an invalid trace: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, tr); err != nil {
			t.Fatalf("write back: %v", err)
		}
		back, err := Read("g.mkt", buf.Bytes())
		if err != nil {
			t.Fatalf("read back: %v", err)
		}
		if !equalTraces(tr, back) {
			t.Fatal("the trace written back reads back different")
		}
		// A trace that reads is one mkvet can match and replay.
		if g, err := Match(tr); err == nil {
			_, _ = NewReplayer(g, testParams(), Measured).Replay(&Options{})
		}
	})
}

// rawFile encodes one rank's raw event file as the Fortran runtime writes
// it (stream output, little-endian).
func rawFile(rank, p int, ops []int64, names []string, recs [][RawFields]int64, times []float64, trailer [7]float64) []byte {
	var b []byte
	i64 := func(v int64) { b = binary.LittleEndian.AppendUint64(b, uint64(v)) }
	f64 := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	b = append(b, RawMagic...)
	i64(RawVersion)
	i64(int64(rank))
	i64(int64(p))
	i64(int64(len(names)))
	for k, n := range names {
		i64(ops[k])
		i64(int64(len(n)))
		b = append(b, n...)
	}
	if len(recs) > 0 {
		i64(int64(len(recs)))
		for _, r := range recs {
			for _, v := range r {
				i64(v)
			}
		}
		for _, t := range times {
			f64(t)
		}
	}
	i64(-1)
	for _, v := range trailer[:6] {
		f64(v)
	}
	i64(int64(trailer[6]))
	return b
}

// sampleRaw is rank 0 of 2: a region around a send of 800 bytes to rank 1
// and a receive from any source whose status names rank 1.
func sampleRaw() []byte {
	recs := [][RawFields]int64{
		{RawEnter, 1},
		{RawSend, 2, 1, 7, 800},
		{RawEnter, 2},
		{RawExit, 2},
		{RawRecv, 3, -1, -1, 800},
		{RawEnter, 3},
		{RawStatus, 3, 1, 7},
		{RawExit, 3},
		{RawExit, 1},
	}
	times := []float64{1.0, 0, 1.1, 1.2, 0, 1.3, 0, 1.5, 1.6}
	return rawFile(0, 2, []int64{0, 5, 6}, []string{"main/L1", "main/L1/M1", "main/L1/M2"}, recs, times,
		[7]float64{0.9, 1.7, 1.0, 0, 1.6, 0, 0})
}

func TestRawSample(t *testing.T) {
	r, err := parseRaw("mkvet.0.evt", sampleRaw())
	if err != nil {
		t.Fatal(err)
	}
	tr := &Trace{P: 2, Groups: [][]int32{nil}}
	out := &Rank{Start: 0, Finish: 800_000_000}
	idx := map[string]int32{}
	node := func(n string) int32 {
		if i, ok := idx[n]; ok {
			return i
		}
		idx[n] = int32(len(tr.Nodes))
		tr.Nodes = append(tr.Nodes, n)
		return idx[n]
	}
	if err := r.events(tr, out, func(x float64) int64 { return int64(math.Round((x - 0.9) * 1e9)) }, node, map[string]int32{}); err != nil {
		t.Fatal(err)
	}
	if len(out.Events) != 4 {
		t.Fatalf("%d events, want 4: %+v", len(out.Events), out.Events)
	}
	s, rv := out.Events[1], out.Events[2]
	if s.Op.String() != "send" || s.Peer != 1 || s.Tag != 7 || s.Bytes != 800 || s.End-s.Begin != 100_000_000 {
		t.Errorf("send: %+v", s)
	}
	if rv.Op.String() != "recv" || rv.RPeer != 1 || rv.RTag != 7 || rv.RBytes != 800 {
		t.Errorf("receive from any source: %+v (the status names rank 1, tag 7)", rv)
	}
	// Every truncation is a FormatError with an offset.
	b := sampleRaw()
	for cut := 0; cut < len(b); cut += 7 {
		_, err := parseRaw("mkvet.0.evt", b[:cut])
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("cut at %d: %v, want a FormatError", cut, err)
		}
	}
}

// FuzzReadRaw: any bytes give a rank's records or a *FormatError, never a
// panic, also when turned into events.
func FuzzReadRaw(f *testing.F) {
	f.Add(sampleRaw())
	f.Add([]byte(RawMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseRaw("mkvet.0.evt", b)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%T %v, want a FormatError", err, err)
			}
			return
		}
		tr, err := assemble([]*rawRank{r})
		if err != nil {
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("assembled an invalid trace: %v", err)
		}
	})
}
