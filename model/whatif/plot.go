package whatif

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PlotKind says which column of a table Plot draws against P.
type PlotKind int

const (
	// Time is the predicted time T(P) in seconds, on a log scale.
	Time PlotKind = iota + 1 // time
	// Speedup is T(1)/T(P), with the ideal speedup P for reference.
	Speedup // speedup
	// Efficiency is T(1)/(P*T(P)).
	Efficiency // efficiency
)

var plotKindNames = [...]string{Time: "time", Speedup: "speedup", Efficiency: "efficiency"}

// String returns the kind's name as in its declaration's line comment.
func (k PlotKind) String() string {
	if k >= 1 && int(k) < len(plotKindNames) {
		return plotKindNames[k]
	}
	return fmt.Sprintf("PlotKind(%d)", int(k))
}

// Series is one curve of a plot: a table (for one problem size, or one
// variant) and its legend label.
type Series struct {
	Label string
	Rows  []Row
}

// Plot draws the kind column of each series' rows against the process
// count, one curve per series with a legend, on a log2 P axis, and writes
// the plot to file as SVG or PNG according to its extension (.svg, .png).
func Plot(kind PlotKind, series []Series, file string) error {
	format, err := PlotFormat(file)
	if err != nil {
		return err
	}
	p, err := newPlot(kind, series)
	if err != nil {
		return fmt.Errorf("whatif: plot %s: %w", file, err)
	}
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("whatif: %w", err)
	}
	if err := writePlot(f, p, format); err != nil {
		f.Close()
		return fmt.Errorf("whatif: writing %s: %w", file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("whatif: writing %s: %w", file, err)
	}
	return nil
}

// PlotFormat returns the format Plot writes file in ("svg" or "png", by
// its extension), or why it cannot: a command checks it before its sweep.
func PlotFormat(file string) (string, error) {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(file), "."))
	if format != "svg" && format != "png" {
		return "", fmt.Errorf("whatif: plot %s: unknown format %q: want .svg or .png", file, filepath.Ext(file))
	}
	if fi, err := os.Stat(filepath.Dir(file)); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("whatif: plot %s: no directory %s to write it in", file, filepath.Dir(file))
	}
	return format, nil
}

// WritePlot is Plot writing to w in the format "svg" or "png".
func WritePlot(w io.Writer, kind PlotKind, series []Series, format string) error {
	if format != "svg" && format != "png" {
		return fmt.Errorf("whatif: unknown plot format %q: want svg or png", format)
	}
	p, err := newPlot(kind, series)
	if err != nil {
		return fmt.Errorf("whatif: plot: %w", err)
	}
	return writePlot(w, p, format)
}

// The size of a plot: 15 cm by 10 cm, 100 dpi in PNG.
const plotWidth, plotHeight = 15 * vg.Centimeter, 10 * vg.Centimeter

func writePlot(w io.Writer, p *plot.Plot, format string) error {
	wt, err := p.WriterTo(plotWidth, plotHeight, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

func newPlot(kind PlotKind, series []Series) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, errors.New("no series")
	}
	p := plot.New()
	p.X.Label.Text = "processes P"
	p.X.Scale = plot.LogScale{}
	p.Legend.Top = true
	var ylo, yhi float64 = math.Inf(1), math.Inf(-1)
	var plo, phi int64 = math.MaxInt64, 0
	type curve struct {
		label string
		xys   plotter.XYs
	}
	var curves []curve
	for _, s := range series {
		if len(s.Rows) == 0 {
			return nil, fmt.Errorf("series %q has no rows", s.Label)
		}
		xys := make(plotter.XYs, len(s.Rows))
		for i, r := range s.Rows {
			if r.P < 1 {
				return nil, fmt.Errorf("series %q: P = %d", s.Label, r.P)
			}
			var y float64
			switch kind {
			case Time:
				y = r.Time
			case Speedup:
				y = r.Speedup
			case Efficiency:
				y = r.Efficiency
			default:
				panic(fmt.Sprintf("whatif: Plot of %v", kind))
			}
			if math.IsNaN(y) || math.IsInf(y, 0) || kind == Time && y <= 0 {
				return nil, fmt.Errorf("series %q: %v %g at P = %d", s.Label, kind, y, r.P)
			}
			xys[i] = plotter.XY{X: float64(r.P), Y: y}
			ylo, yhi = min(ylo, y), max(yhi, y)
			plo, phi = min(plo, r.P), max(phi, r.P)
		}
		curves = append(curves, curve{s.Label, xys})
	}
	p.X.Tick.Marker = pow2Ticks(plo, phi)
	p.X.Min, p.X.Max = float64(plo), float64(phi)
	switch kind {
	case Time:
		p.Title.Text = "predicted time"
		p.Y.Label.Text = "time T(P) (s)"
		if yhi > 10*ylo {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = plot.TickerFunc(logTicks)
		}
	case Speedup:
		p.Title.Text = "predicted speedup"
		p.Y.Label.Text = "speedup T(1)/T(P)"
		p.Legend.Left = true
		// The ideal speedup S = P, up to the largest speedup drawn (beyond
		// it the line would only squash the curves).
		// On the log P axis it is a curve: eight points per doubling.
		top := min(float64(phi), max(yhi, 2))
		var ideal plotter.XYs
		for i := 0; ; i++ {
			x := float64(plo) * math.Exp2(float64(i)/8)
			if x >= top {
				ideal = append(ideal, plotter.XY{X: top, Y: top})
				break
			}
			ideal = append(ideal, plotter.XY{X: x, Y: x})
		}
		l, err := plotter.NewLine(ideal)
		if err != nil {
			return nil, err
		}
		l.Color = color.Gray{Y: 150}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("ideal (P)", l)
		p.Y.Min = 0
	case Efficiency:
		p.Title.Text = "predicted efficiency"
		p.Y.Label.Text = "efficiency T(1)/(P·T(P))"
		p.Y.Min, p.Y.Max = 0, max(1, yhi)*1.05
	}
	for i, c := range curves {
		l, s, err := plotter.NewLinePoints(c.xys)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", c.label, err)
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		s.Color = plotutil.Color(i)
		s.Shape = plotutil.Shape(i)
		p.Add(l, s)
		p.Legend.Add(c.label, l, s)
	}
	return p, nil
}

// pow2Ticks marks the powers of two from lo to hi, at most about 12 of them
// labelled.
func pow2Ticks(lo, hi int64) plot.ConstantTicks {
	a, b := bits.Len64(uint64(lo))-1, bits.Len64(uint64(hi-1))
	if hi == 1 {
		b = 0
	}
	every := (b-a)/12 + 1
	var ticks plot.ConstantTicks
	for e := a; e <= b; e++ {
		t := plot.Tick{Value: math.Ldexp(1, e)}
		if (e-a)%every == 0 {
			t.Label = strconv.FormatInt(int64(1)<<e, 10)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// logTicks marks 1..9 times the powers of ten from min to max, labelling
// 1, 2 and 5 when the range spans fewer than four decades, 1 otherwise.
func logTicks(lo, hi float64) []plot.Tick {
	a, b := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	labelled := []bool{1: true, 2: b-a < 4, 5: b-a < 4, 9: false}
	var ticks []plot.Tick
	for e := a; e <= b; e++ {
		for d := 1; d <= 9; d++ {
			v, _ := strconv.ParseFloat(strconv.Itoa(d)+"e"+strconv.Itoa(e), 64)
			t := plot.Tick{Value: v}
			if labelled[d] {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
			if e == b {
				break
			}
		}
	}
	return ticks
}
