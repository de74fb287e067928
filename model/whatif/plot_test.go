package whatif

import (
	"bytes"
	"github.com/mkvet/mkvet/internal/seeds"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pachecoSeries returns Pacheco's model tabulated for n = 512..2048 over
// p = 1..32, one series per n.
func pachecoSeries(t *testing.T) []Series {
	ps, _ := ParseSweep("1..32")
	var out []Series
	for _, n := range seeds.PachecoN {
		env := map[string]float64{"n": float64(n)}
		for k, v := range pachecoEnv {
			env[k] = v
		}
		rows, err := Table(pacheco(), env, ps)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Series{Label: "n = " + strconv.FormatInt(n, 10), Rows: rows})
	}
	return out
}

func TestPlotPNG(t *testing.T) {
	series := pachecoSeries(t)
	dir := t.TempDir()
	for _, kind := range []PlotKind{Time, Speedup, Efficiency} {
		file := filepath.Join(dir, kind.String()+".png")
		if err := Plot(kind, series, file); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%v: image is %v", kind, b)
		}
		if n := colours(img); n < 3 {
			t.Errorf("%v: image has %d colours", kind, n)
		}
	}
}

// colours counts the distinct colours of img, up to 100.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= 100 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

func TestPlotSVG(t *testing.T) {
	series := pachecoSeries(t)
	for _, kind := range []PlotKind{Time, Speedup, Efficiency} {
		file := filepath.Join(t.TempDir(), "plot.svg")
		if err := Plot(kind, series, file); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("<?xml")) && !bytes.HasPrefix(data, []byte("<svg")) {
			t.Errorf("%v: SVG starts %q", kind, data[:min(len(data), 40)])
		}
		for _, want := range []string{"processes P", "n = 2048"} {
			if !bytes.Contains(data, []byte(want)) {
				t.Errorf("%v: SVG lacks %q", kind, want)
			}
		}
	}
	var buf bytes.Buffer
	if err := WritePlot(&buf, Speedup, series, "svg"); err != nil || !bytes.Contains(buf.Bytes(), []byte("ideal")) {
		t.Errorf("WritePlot: %v", err)
	}
}

func TestPow2Ticks(t *testing.T) {
	var labels []string
	for _, tk := range pow2Ticks(1, 1<<20) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "1 4 16 64 256 1024 4096 16384 65536 262144 1048576" {
		t.Errorf("labels %s", got)
	}
	if ts := pow2Ticks(3, 24); len(ts) != 5 || ts[0].Value != 2 || ts[4].Value != 32 {
		t.Errorf("ticks for 3..24: %v", ts)
	}
}

func TestPlotErrors(t *testing.T) {
	series := pachecoSeries(t)
	dir := t.TempDir()
	for _, c := range []struct {
		series []Series
		file   string
		want   string
	}{
		{series, "plot.pdf", `unknown format ".pdf"`},
		{nil, "plot.png", "no series"},
		{[]Series{{Label: "x"}}, "plot.png", `series "x" has no rows`},
		{[]Series{{Label: "x", Rows: []Row{{P: 1, Time: -1}}}}, "plot.png", `series "x": time -1 at P = 1`},
	} {
		err := Plot(Time, c.series, filepath.Join(dir, c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
	}
}
