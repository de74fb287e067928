package sweep

import (
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument"
)

func TestParseGrid(t *testing.T) {
	pts, err := ParseGrid("N=64,128 P=1,2 m=3")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pts {
		got = append(got, p.String())
	}
	want := []string{"m=3 n=64 P=1", "m=3 n=64 P=2", "m=3 n=128 P=1", "m=3 n=128 P=2"}
	if !slices.Equal(got, want) {
		t.Errorf("grid %q, want %q", got, want)
	}
	if pts, _ := ParseGrid("n=5"); len(pts) != 1 || pts[0].P != 1 {
		t.Errorf("no P: %+v", pts)
	}
	pts, err = ParseGrid("class=S,W P=1,2 n=3")
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, p := range pts {
		got = append(got, p.String())
	}
	want = []string{"class=S n=3 P=1", "class=S n=3 P=2", "class=W n=3 P=1", "class=W n=3 P=2"}
	if !slices.Equal(got, want) {
		t.Errorf("grid %q, want %q", got, want)
	}
	if v := Vars(pts[2], "", "", nil); v["class"][0] != "W" || v["n"][0] != "3" || v["P"][0] != "1" {
		t.Errorf("Vars = %v", v)
	}
	for _, bad := range []string{"", "N", "N=", "P=0", "P=a", "n=1 n=2", "c=S,", "c={x}"} {
		if _, err := ParseGrid(bad); err == nil {
			t.Errorf("ParseGrid(%q) should fail", bad)
		}
	}
}

func TestExpand(t *testing.T) {
	vars := map[string][]string{"srcs": {"mkvet_rt.f90", "a b.f"}, "exe": {"/x/prog"}, "P": {"4"}, "n": {"64"}}
	for _, tc := range []struct {
		tmpl string
		want []string
	}{
		{"mpif90 -O2 {srcs} -o {exe}", []string{"mpif90", "-O2", "mkvet_rt.f90", "a b.f", "-o", "/x/prog"}},
		{"mpirun -np {P} {exe} {N}", []string{"mpirun", "-np", "4", "/x/prog", "64"}},
		{`sh -c "echo {n} | {exe}"`, []string{"sh", "-c", "echo 64 | /x/prog"}},
		{`run '{n}' --size={n}x`, []string{"run", "{n}", "--size=64x"}},
		{`a\ b "c\"d"`, []string{"a b", `c"d`}},
	} {
		got, err := Expand(tc.tmpl, vars)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Expand(%q) = %q, %v; want %q", tc.tmpl, got, err, tc.want)
		}
	}
	for _, bad := range []string{"{nope}", "'open", `"open`, "x{n"} {
		if _, err := Expand(bad, vars); err == nil {
			t.Errorf("Expand(%q) should fail", bad)
		}
	}
	if _, err := Expand("{p}", vars); err == nil || !strings.Contains(err.Error(), "unknown placeholder {p}") {
		t.Errorf("{p} is not {P}: %v", err)
	}
}

func TestBuildValues(t *testing.T) {
	params := []instrument.Param{{Name: "n", Mode: instrument.ParamBuild}, {Name: "iters", Mode: instrument.ParamEnv}}
	vals := BuildValues(params, map[string]int64{"n": 8, "iters": 3})
	if len(vals) != 1 || vals["n"] != 8 {
		t.Errorf("BuildValues = %v", vals)
	}
	if Key(vals) != "n=8" || Key(nil) != "default" {
		t.Errorf("Key = %q, %q", Key(vals), Key(nil))
	}
}

// FuzzParseGrid: any -runs text gives points or an error, never a panic;
// the points are the product of the lists, each with a P of at least 1, and
// every value a template gets is one word with no quote or brace.
func FuzzParseGrid(f *testing.F) {
	for _, s := range []string{"N=64,128 P=1,2", "class=S,W P=1,2 n=3", "P=0", "c={x}", "n=1 n=2", "a=,", "P=a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		pts, err := ParseGrid(spec)
		if err != nil {
			return
		}
		want := 1
		for _, field := range strings.Fields(spec) {
			_, list, _ := strings.Cut(field, "=")
			want *= len(strings.Split(list, ","))
		}
		if len(pts) != want {
			t.Fatalf("%q: %d points, want %d", spec, len(pts), want)
		}
		for _, p := range pts {
			if p.P < 1 {
				t.Fatalf("%q: P=%d", spec, p.P)
			}
			for k, v := range Vars(p, "x", "x", nil) {
				if k == "srcs" {
					continue
				}
				if len(v) != 1 || v[0] == "" || strings.ContainsAny(v[0], "{}'\"\\ \t\n") {
					t.Fatalf("%q: {%s} = %q", spec, k, v)
				}
			}
		}
	})
}
