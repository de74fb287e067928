package trace

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"
)

// bigTrace is a scheduled random run of 64 ranks and about a million
// events, built once.
var bigTrace = sync.OnceValues(func() (*Trace, *Graph) {
	rng := rand.New(rand.NewPCG(11, 12))
	tr := skeleton(rng, 64, 7000)
	g, err := Schedule(tr, testParams())
	if err != nil {
		panic(err)
	}
	return tr, g
})

// BenchmarkReplay replays a million-event trace (the goal: at least
// 10 M events per second on one core; LogGOPSim does about 1 M).
func BenchmarkReplay(b *testing.B) {
	tr, g := bigTrace()
	rp := NewReplayer(g, testParams(), Measured)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := rp.Replay(&Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tr.NumEvents())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
	b.ReportMetric(float64(tr.NumEvents()), "events")
}

// BenchmarkPrepare is the once-per-trace work before replays: matching
// the messages and computing each call's own time.
func BenchmarkPrepare(b *testing.B) {
	tr, _ := bigTrace()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := Match(tr)
		if err != nil {
			b.Fatal(err)
		}
		NewReplayer(g, testParams(), Measured)
	}
	b.ReportMetric(float64(tr.NumEvents())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
}

// BenchmarkDomino computes the domino path of the million-event trace
// (the goal: within 10 s).
func BenchmarkDomino(b *testing.B) {
	_, g := bigTrace()
	rp := NewReplayer(g, testParams(), Measured)
	base, err := rp.Replay(&Options{Record: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := rp.Domino(base)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(d.Events)/2), "links")
	}
}

// BenchmarkReadTrace reads the million-event trace file; bytes/event is
// its size.
func BenchmarkReadTrace(b *testing.B) {
	tr, _ := bigTrace()
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Read("big.mkt", buf.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/float64(tr.NumEvents()), "bytes/event")
	b.ReportMetric(float64(buf.Len())/(1<<20), "MiB")
}
