package model

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/mkvet/mkvet/symbolic"
)

// NetbenchC is the C source of the MPI microbenchmark `mkvet netbench`
// builds with the user's MPI compiler wrapper and runs through the user's
// launcher: ping-pong and send-only between ranks 0 and 1 over a sweep of
// message sizes (Pacheco's programming assignment 1, seed 004 §11.11;
// Brim's benchmarks, seed 002 §V.ii). Its arguments are REPS TRIALS
// SIZE...; rank 0 prints "pingpong SIZE SECONDS" (one-way, half the round
// trip) and "send SIZE SECONDS" (per message of a stream) for each size,
// the best of TRIALS trials.
//
//go:embed netbench/netbench.c
var NetbenchC string

// Sample is the benchmark's measurement at one message size.
type Sample struct {
	Bytes    float64 // message size
	PingPong float64 // one-way time, half a ping-pong round trip, seconds
	Send     float64 // time per message of a stream of sends, seconds
}

// ParseNetbench reads the benchmark's output. file names the input in
// errors, with the line.
func ParseNetbench(file string, r io.Reader) ([]Sample, error) {
	bySize := map[float64]*Sample{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 || (f[0] != "pingpong" && f[0] != "send") {
			return nil, fmt.Errorf("%s:%d: want \"pingpong|send SIZE SECONDS\", found %q", file, line, sc.Text())
		}
		size, err1 := strconv.ParseFloat(f[1], 64)
		sec, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || size < 0 || !(sec > 0) || math.IsInf(sec, 0) {
			return nil, fmt.Errorf("%s:%d: bad size or time in %q", file, line, sc.Text())
		}
		s := bySize[size]
		if s == nil {
			s = &Sample{Bytes: size}
			bySize[size] = s
		}
		if f[0] == "pingpong" {
			s.PingPong = sec
		} else {
			s.Send = sec
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	var out []Sample
	for _, s := range bySize {
		if s.PingPong == 0 || s.Send == 0 {
			return nil, fmt.Errorf("%s: size %g has only one of its two measurements", file, s.Bytes)
		}
		out = append(out, *s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no measurements", file)
	}
	slices.SortFunc(out, func(a, b Sample) int { return cmp.Compare(a.Bytes, b.Bytes) })
	return out, nil
}

// LineFit is a least-squares line t = Intercept + Slope*m over the samples
// with sizes From..To bytes. The fit is relative: each point is weighted by
// 1/t^2, so that a sweep over sizes 1 B to megabytes fits the small
// messages as well as the large ones; R2 is the weighted coefficient of
// determination and Residuals the relative errors (fit - t)/t per point.
type LineFit struct {
	From, To         float64
	Intercept, Slope float64
	R2               float64
	Residuals        []float64
}

// fitLine fits y = a + b*x by relative least squares
// (gonum.org/v1/gonum/stat.LinearRegression with weights 1/y^2).
func fitLine(x, y []float64) LineFit {
	w := make([]float64, len(y))
	for i, v := range y {
		w[i] = 1 / (v * v)
	}
	a, b := stat.LinearRegression(x, y, w, false)
	f := LineFit{From: x[0], To: x[len(x)-1], Intercept: a, Slope: b}
	f.R2 = stat.RSquared(x, y, w, a, b)
	if math.IsNaN(f.R2) {
		f.R2 = 1 // all points equal: the line through them is exact
	}
	for i := range x {
		f.Residuals = append(f.Residuals, (a+b*x[i]-y[i])/y[i])
	}
	return f
}

// rss returns the weighted residual sum of squares of f.
func (f LineFit) rss() float64 {
	var s float64
	for _, r := range f.Residuals {
		s += r * r
	}
	return s
}

// FitHockney fits Pacheco's t_s + m*t_c to the one-way ping-pong times
// (seed 004, programming assignment 1: "the intercept will approximate t_s
// and the slope t_c"). It fails when the fit is not a positive start-up and
// a positive cost per byte, which a sweep of too few or too small sizes
// gives.
func FitHockney(samples []Sample) (Hockney, LineFit, error) {
	if len(samples) < 2 {
		return Hockney{}, LineFit{}, fmt.Errorf("fitting t_s and t_c needs at least 2 sizes, have %d", len(samples))
	}
	x, y := columns(samples, func(s Sample) float64 { return s.PingPong })
	f := fitLine(x, y)
	if !(f.Intercept > 0) || !(f.Slope > 0) {
		return Hockney{}, f, fmt.Errorf("least squares gives t_s = %g s, t_c = %g s/B; sweep a wider range of sizes", f.Intercept, f.Slope)
	}
	return Hockney{Ts: ratOf(f.Intercept), Tc: ratOf(f.Slope)}, f, nil
}

func columns(samples []Sample, y func(Sample) float64) (xs, ys []float64) {
	for _, s := range samples {
		xs = append(xs, s.Bytes)
		ys = append(ys, y(s))
	}
	return xs, ys
}

// ratOf rounds a measured value to 6 significant digits, as an exact
// rational: more digits than a measurement carries would only be noise in
// the profile.
func ratOf(v float64) symbolic.Rat {
	r, err := ParseDuration(strconv.FormatFloat(v, 'g', 6, 64) + "s")
	if err != nil {
		return symbolic.Rat{}
	}
	return r
}

// RegimeFit is the fit of one LogGP size regime: lines through the
// ping-pong (one-way) and send-only times of its sizes.
type RegimeFit struct {
	PingPong, Send LineFit
}

// FitLogGP fits LogGP with size regimes (seed 002 §V.iii) to the samples.
// The sizes are split into at most maxRegimes ranges of consecutive sizes
// (at least 3 each) where the ping-pong times are piecewise linear, the
// split chosen by least squares with a Bayesian information criterion
// penalty for each extra regime. In each regime the one-way ping-pong time
// is 2o + L + m*G and the send-only time per message max(g, o) + m*G, so
// the first regime gives o as the send-only intercept (at most half the
// ping-pong intercept) and L as the rest of the ping-pong intercept;
// later regimes take o = (intercept - L)/2, a rendezvous protocol showing
// as a regime of larger overhead. g is the first regime's send-only
// intercept. The model has no separate rendezvous step (EagerLimit 0).
func FitLogGP(samples []Sample, maxRegimes int) (LogGP, []RegimeFit, error) {
	const minPoints = 3
	n := len(samples)
	if n < minPoints {
		return LogGP{}, nil, fmt.Errorf("fitting LogGP needs at least %d sizes, have %d", minPoints, n)
	}
	x, pp := columns(samples, func(s Sample) float64 { return s.PingPong })
	_, so := columns(samples, func(s Sample) float64 { return s.Send })

	// best[k][j]: least cost of splitting the first j points into k regimes.
	type split struct {
		cost float64
		prev int
	}
	maxRegimes = max(1, min(maxRegimes, n/minPoints))
	inf := math.Inf(1)
	best := make([][]split, maxRegimes+1)
	for k := range best {
		best[k] = make([]split, n+1)
		for j := range best[k] {
			best[k][j] = split{inf, -1}
		}
	}
	best[0][0] = split{0, -1}
	for k := 1; k <= maxRegimes; k++ {
		for j := k * minPoints; j <= n; j++ {
			for i := (k - 1) * minPoints; i <= j-minPoints; i++ {
				if math.IsInf(best[k-1][i].cost, 1) {
					continue
				}
				c := best[k-1][i].cost + fitLine(x[i:j], pp[i:j]).rss()
				if c < best[k][j].cost {
					best[k][j] = split{c, i}
				}
			}
		}
	}
	// BIC: n log(RSS/n) + (parameters) log n, 3 parameters per regime. The
	// mean squared relative error is floored at (10^-4)^2, the precision of
	// a timing, so that splitting exact data gains nothing.
	bestK, bestScore := 1, inf
	for k := 1; k <= maxRegimes; k++ {
		c := best[k][n].cost
		if math.IsInf(c, 1) {
			continue
		}
		score := float64(n)*math.Log(math.Max(c/float64(n), 1e-8)) + float64(3*k)*math.Log(float64(n))
		if score < bestScore-1e-9 {
			bestK, bestScore = k, score
		}
	}
	var bounds []int // start index of each regime
	for k, j := bestK, n; k > 0; k-- {
		i := best[k][j].prev
		bounds = append([]int{i}, bounds...)
		j = i
	}
	bounds = append(bounds, n)

	var g LogGP
	var fits []RegimeFit
	for r := 0; r < bestK; r++ {
		i, j := bounds[r], bounds[r+1]
		rf := RegimeFit{PingPong: fitLine(x[i:j], pp[i:j]), Send: fitLine(x[i:j], so[i:j])}
		fits = append(fits, rf)
		var o float64
		if r == 0 {
			o = math.Max(math.Min(rf.Send.Intercept, rf.PingPong.Intercept/2), 0)
			g.L = ratOf(math.Max(rf.PingPong.Intercept-2*o, 0))
			g.Gap = ratOf(math.Max(rf.Send.Intercept, 0))
		} else {
			o = math.Max((rf.PingPong.Intercept-g.L.Float64())/2, 0)
		}
		reg := Regime{O: ratOf(o), G: ratOf(math.Max(rf.PingPong.Slope, 0))}
		if r < bestK-1 {
			reg.Below = symbolic.RatInt(int64(x[j]))
		}
		g.Regimes = append(g.Regimes, reg)
	}
	return g, fits, nil
}
