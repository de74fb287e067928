package symeval

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// TestEnvAgainstMaps runs random sequences of the operations the
// evaluation makes on its state (writes, deletes, copies, the deletion
// of a call's keys) on several envs and on plain maps side by side, and
// compares every key after each step: the layered copies must behave as
// copied maps do, however deep the layers and wherever they are merged.
func TestEnvAgainstMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	keys := []string{"a", "b", "f1.x", "f1.y", "f2.x", "f12.x", "g.z", "a%p", "a%q", "base3", "base7"}
	for seq := range 40 {
		envs := []*env{newEnv()}
		refs := []map[string]Value{{}}
		dropped := map[string]bool{}
		if seq%2 == 0 {
			// A large state under the writes, as a whole program's is:
			// compact then keeps it as the bottom layer, shared.
			for j := range 60 {
				k := fmt.Sprintf("base%d", j)
				envs[0].set(k, Known(symbolic.Int(int64(j))))
				refs[0][k] = Known(symbolic.Int(int64(j)))
			}
			envs = append(envs, envs[0].clone())
			refs = append(refs, maps.Clone(refs[0]))
		}
		for step := range 200 {
			i := rng.IntN(len(envs))
			e, ref := envs[i], refs[i]
			k := keys[rng.IntN(len(keys))]
			switch op := rng.IntN(10); {
			case op < 5:
				v := Known(symbolic.Int(int64(rng.IntN(5))))
				e.set(k, v)
				ref[k] = v
			case op < 6:
				e.del(k)
				delete(ref, k)
			case op < 8 && len(envs) < 12:
				envs = append(envs, e.clone())
				refs = append(refs, maps.Clone(ref))
			case op < 8:
				// A copy in place of another: chains grow deep enough
				// to be compacted.
				j := rng.IntN(len(envs))
				envs[j], refs[j] = e.clone(), maps.Clone(ref)
			case op < 9:
				// A call's keys are dropped once, from the state the
				// call returns with.
				prefix := k[:min(len(k), strings.IndexByte(k+".", '.')+1)]
				if strings.HasPrefix(prefix, "f") && !dropped[prefix] {
					dropped[prefix] = true
					e.dropFrame(prefix)
					for kk := range ref {
						if strings.HasPrefix(kk, prefix) {
							delete(ref, kk)
						}
					}
				}
			default:
				// An alias sees the writes.
				envs = append(envs, e)
				refs = append(refs, ref)
			}
			for j, e := range envs {
				where := fmt.Sprintf("sequence %d step %d env %d", seq, step, j)
				checkEnv(t, where, e, refs[j])
			}
			if t.Failed() {
				return
			}
		}
		// changedKeys names every key whose value differs.
		for a := range envs {
			for b := range envs {
				got := map[string]bool{}
				envs[a].changedKeys(envs[b], func(k string) { got[k] = true })
				for _, k := range keys {
					va, oka := refs[a][k]
					vb, okb := refs[b][k]
					if (oka != okb || oka && !sameValue(va, vb)) && !got[k] {
						t.Fatalf("sequence %d: changedKeys(%d, %d) misses %s", seq, a, b, k)
					}
				}
			}
		}
	}
}

func checkEnv(t *testing.T, where string, e *env, ref map[string]Value) {
	t.Helper()
	var all []string
	e.all(func(k string, v Value) bool {
		all = append(all, k)
		if w, ok := ref[k]; !ok || !sameValue(v, w) {
			t.Errorf("%s: all gives %s = %v, want %v (present %v)", where, k, v, w, ok)
		}
		return true
	})
	slices.Sort(all)
	if want := slices.Sorted(maps.Keys(ref)); !slices.Equal(all, want) {
		t.Errorf("%s: keys %v, want %v", where, all, want)
	}
	for k, w := range ref {
		if v, ok := e.lookup(k); !ok || !sameValue(v, w) {
			t.Errorf("%s: lookup(%s) = %v, %v; want %v", where, k, v, ok, w)
		}
	}
	for _, p := range []string{"a%", "f1."} {
		got := map[string]bool{}
		for _, k := range e.withPrefix(p) {
			if _, ok := e.lookup(k); ok {
				got[k] = true
			}
		}
		for k := range ref {
			if strings.HasPrefix(k, p) && !got[k] {
				t.Errorf("%s: withPrefix(%s) misses %s", where, p, k)
			}
		}
	}
}
