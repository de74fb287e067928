package apt

import (
	"sync"
	"testing"
)

// TestScopeLookupConcurrent: analyses of several process counts read one
// program at once (whatif's sweep); Lookup must not write the scope,
// also where two variables have one name (C++'s parameter packs), which
// rebuilt the index on every call.
func TestScopeLookupConcurrent(t *testing.T) {
	s := &Scope{}
	for _, n := range []string{"a", "b", "a", "c"} {
		s.Add(&Var{Name: n})
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				if v := s.Lookup("a"); v != s.Vars[2] {
					t.Errorf("Lookup(a) = %v, want the later a", v)
					return
				}
			}
		}()
	}
	wg.Wait()
	s.Add(&Var{Name: "d"})
	if s.Lookup("d") == nil {
		t.Error("a variable added after a lookup is not found")
	}
}
