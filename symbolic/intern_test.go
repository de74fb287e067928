package symbolic

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

func internedSize() int {
	interned.Lock()
	defer interned.Unlock()
	return len(interned.m)
}

// TestInternTableShrinks: atoms that no expression refers to are dropped from
// the intern table, so long runs do not grow without bound.
func TestInternTableShrinks(t *testing.T) {
	before := internedSize()
	keep := Sym("kept_symbol").Add(Floor(Sym("kept_symbol").Div(Int(3))))
	func() {
		var es []Expr
		for i := range 5000 {
			es = append(es, Floor(Sym(fmt.Sprintf("tmp%d", i)).Div(Int(7))))
		}
		if n := internedSize(); n < 10000 {
			t.Fatalf("table has %d entries after making 10000 atoms", n)
		}
		runtime.KeepAlive(es)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for internedSize() > before+100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := internedSize(); n > before+100 {
		t.Fatalf("table still has %d entries (had %d before)", n, before)
	}
	// A live atom keeps its identity.
	if !keep.Equal(MustParse("kept_symbol + floor(kept_symbol/3)")) {
		t.Fatal("a live atom lost its identity")
	}
}
