package fit

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Obs is one observation: the parameter values, the count features, the
// measured value and the cross-validation group it belongs to (the
// observations of one run point are held out together).
type Obs struct {
	Params   []float64
	Features []float64
	Y        float64
	Group    int
}

// Model is y ≈ Σ Coef[i]·Terms[i], fitted by relative least squares, with
// its statistics.
type Model struct {
	Params   []string  `json:"params"`
	Features []string  `json:"features,omitempty"`
	Terms    []Term    `json:"terms"`
	Coef     []float64 `json:"coef"`
	// Cov is the covariance of Coef, row-major.
	Cov []float64 `json:"cov,omitempty"`
	// Sigma is the standard deviation of the relative residuals, DoF the
	// residual degrees of freedom, N the number of observations.
	Sigma float64 `json:"sigma"`
	DoF   int     `json:"dof"`
	N     int     `json:"n"`
	// R2 is the coefficient of determination on the measured values; SMAPE
	// the symmetric mean absolute percentage error as a fraction (0.02 is
	// 2%); CV the SMAPE of leave-one-group-out predictions (-1 when there
	// are too few observations); MaxRel the largest relative residual.
	R2     float64 `json:"r2"`
	SMAPE  float64 `json:"smape"`
	CV     float64 `json:"cv"`
	MaxRel float64 `json:"max_rel"`
}

// Predict evaluates the model.
func (m *Model) Predict(params, features []float64) float64 {
	y := 0.0
	for i, t := range m.Terms {
		y += m.Coef[i] * t.Eval(params, features)
	}
	return y
}

// Variance returns the variance of a new observation at the point: the
// relative scatter of the measurements, Sigma·ŷ, and the uncertainty of the
// coefficients, xᵀ·Cov·x.
func (m *Model) Variance(params, features []float64) float64 {
	y := m.Predict(params, features)
	v := (m.Sigma * y) * (m.Sigma * y)
	k := len(m.Terms)
	if len(m.Cov) == k*k {
		x := make([]float64, k)
		for i, t := range m.Terms {
			x[i] = t.Eval(params, features)
		}
		for i := range k {
			for j := range k {
				v += x[i] * m.Cov[i*k+j] * x[j]
			}
		}
	}
	return math.Max(v, 0)
}

// Interval returns the prediction interval at the given level (0.95) for a
// new observation at the point, from Student's t with the residual degrees
// of freedom.
func (m *Model) Interval(params, features []float64, level float64) (lo, hi float64) {
	y := m.Predict(params, features)
	t := TQuantile(level, m.DoF)
	d := t * math.Sqrt(m.Variance(params, features))
	return y - d, y + d
}

// TQuantile returns the two-sided quantile of Student's t with dof degrees
// of freedom (the normal one when dof is 0 or less).
func TQuantile(level float64, dof int) float64 {
	p := 1 - (1-level)/2
	if dof <= 0 {
		return distuv.UnitNormal.Quantile(p)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(dof)}.Quantile(p)
}

// String writes the model as a formula: "0.01 + 2e-06*n^2/p + 0.0003*log2(p)".
func (m *Model) String() string {
	var parts []string
	for i, t := range m.Terms {
		c := m.Coef[i]
		if t.IsConstant() {
			parts = append(parts, fmtCoef(c))
			continue
		}
		f := t.Format(m.Params, m.Features)
		if strings.HasPrefix(f, "1/") {
			parts = append(parts, fmtCoef(c)+f[1:])
			continue
		}
		parts = append(parts, fmtCoef(c)+"*"+f)
	}
	if len(parts) == 0 {
		return "0"
	}
	s := strings.Join(parts, " + ")
	return strings.ReplaceAll(s, "+ -", "- ")
}

func fmtCoef(c float64) string { return strconv.FormatFloat(c, 'g', 4, 64) }

// weight returns the relative-error weights 1/|y|, with tiny values
// floored so that a zero does not dominate.
func weights(obs []Obs) []float64 {
	ymax := 0.0
	for _, o := range obs {
		ymax = math.Max(ymax, math.Abs(o.Y))
	}
	floor := math.Max(1e-6*ymax, 1e-300)
	w := make([]float64, len(obs))
	for i, o := range obs {
		w[i] = 1 / math.Max(math.Abs(o.Y), floor)
	}
	return w
}

// design returns the weighted design matrix and right-hand side.
func design(obs []Obs, terms []Term, w []float64) (*mat.Dense, *mat.VecDense) {
	a := mat.NewDense(len(obs), len(terms), nil)
	b := mat.NewVecDense(len(obs), nil)
	for i, o := range obs {
		for j, t := range terms {
			a.Set(i, j, t.Eval(o.Params, o.Features)*w[i])
		}
		b.SetVec(i, o.Y*w[i])
	}
	return a, b
}

// solution is a least-squares fit's coefficients and what the statistics
// need.
type solution struct {
	coef  []float64
	rank  int
	scale []float64
	svd   *mat.SVD
}

// solve finds the coefficients minimising Σ ((ŷ - y)/y)², by the SVD of the
// column-scaled weighted design matrix (minimum norm when rank-deficient).
func solve(obs []Obs, terms []Term, w []float64) (*solution, error) {
	if len(obs) == 0 || len(terms) == 0 {
		return nil, errors.New("fit: nothing to fit")
	}
	a, b := design(obs, terms, w)
	k := len(terms)
	scale := make([]float64, k)
	for j := range k {
		s := mat.Norm(a.ColView(j), 2)
		if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				return nil, errors.New("fit: a term is not finite at some observation")
			}
			s = 1
		}
		scale[j] = s
		for i := 0; i < a.RawMatrix().Rows; i++ {
			a.Set(i, j, a.At(i, j)/s)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, errors.New("fit: SVD failed")
	}
	rank := svd.Rank(1e-10)
	if rank == 0 {
		return nil, errors.New("fit: every term is zero at every observation")
	}
	var x mat.VecDense
	svd.SolveVecTo(&x, b, rank)
	coef := make([]float64, k)
	for j := range k {
		coef[j] = x.AtVec(j) / scale[j]
	}
	return &solution{coef: coef, rank: rank, scale: scale, svd: &svd}, nil
}

// Fit fits the coefficients of the given terms to the observations by
// relative least squares and computes the model's statistics, leave-one-
// group-out cross-validation included.
func Fit(obs []Obs, terms []Term, params, features []string) (*Model, error) {
	w := weights(obs)
	sol, err := solve(obs, terms, w)
	if err != nil {
		return nil, err
	}
	m := &Model{Params: params, Features: features, Terms: terms, Coef: sol.coef, N: len(obs)}
	m.stats(obs, w, sol)
	m.CV = crossValidate(obs, terms)
	return m, nil
}

// huberK is the Huber tuning constant: residuals beyond 1.345 robust
// standard deviations are down-weighted (95% efficiency on normal errors).
const huberK = 1.345

// FitRobust is Fit made robust to outlying observations (a repetition
// slowed by other load, a page placement that makes one run slower): it
// reweights iteratively with Huber's weights on the relative residuals,
// scaled by their median absolute deviation, so that a few stray points
// pull the coefficients little. Statistics are those of the final weights.
func FitRobust(obs []Obs, terms []Term, params, features []string) (*Model, error) {
	base := weights(obs)
	w := append([]float64(nil), base...)
	var sol *solution
	var err error
	for it := 0; it < 20; it++ {
		if sol, err = solve(obs, terms, w); err != nil {
			return nil, err
		}
		r := make([]float64, len(obs))
		for i, o := range obs {
			y := 0.0
			for j, t := range terms {
				y += sol.coef[j] * t.Eval(o.Params, o.Features)
			}
			r[i] = (y - o.Y) * base[i]
		}
		scale := 1.4826 * mad(r)
		if scale <= 1e-12 {
			break
		}
		changed := 0.0
		for i := range obs {
			h := 1.0
			if a := math.Abs(r[i]); a > huberK*scale {
				h = huberK * scale / a
			}
			nw := base[i] * h
			changed = math.Max(changed, math.Abs(nw-w[i])/base[i])
			w[i] = nw
		}
		if changed < 1e-4 {
			break
		}
	}
	if sol, err = solve(obs, terms, w); err != nil {
		return nil, err
	}
	m := &Model{Params: params, Features: features, Terms: terms, Coef: sol.coef, N: len(obs)}
	m.stats(obs, w, sol)
	m.CV = crossValidate(obs, terms)
	return m, nil
}

// mad returns the median absolute deviation of xs from their median.
func mad(xs []float64) float64 {
	med := func(v []float64) float64 {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		n := len(s)
		if n == 0 {
			return 0
		}
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	}
	m := med(xs)
	d := make([]float64, len(xs))
	for i, x := range xs {
		d[i] = math.Abs(x - m)
	}
	return med(d)
}

func (m *Model) stats(obs []Obs, w []float64, sol *solution) {
	k := len(m.Terms)
	var rss, ssRes, ssTot, mean, smape float64
	for _, o := range obs {
		mean += o.Y
	}
	mean /= float64(len(obs))
	m.MaxRel = 0
	for i, o := range obs {
		y := m.Predict(o.Params, o.Features)
		r := (y - o.Y) * w[i]
		rss += r * r
		ssRes += (y - o.Y) * (y - o.Y)
		ssTot += (o.Y - mean) * (o.Y - mean)
		smape += sym(y, o.Y)
		m.MaxRel = math.Max(m.MaxRel, math.Abs(r))
	}
	m.SMAPE = smape / float64(len(obs))
	m.R2 = 1
	if ssTot > 0 {
		m.R2 = 1 - ssRes/ssTot
	}
	m.DoF = len(obs) - sol.rank
	if m.DoF > 0 {
		m.Sigma = math.Sqrt(rss / float64(m.DoF))
	}
	// Cov = σ² (AᵀA)⁻¹ = σ² V Σ⁻² Vᵀ in scaled coordinates.
	var v mat.Dense
	sol.svd.VTo(&v)
	s := sol.svd.Values(nil)
	m.Cov = make([]float64, k*k)
	for i := range k {
		for j := range k {
			c := 0.0
			for l := 0; l < sol.rank; l++ {
				c += v.At(i, l) * v.At(j, l) / (s[l] * s[l])
			}
			m.Cov[i*k+j] = m.Sigma * m.Sigma * c / (sol.scale[i] * sol.scale[j])
		}
	}
}

// sym is one observation's symmetric absolute percentage error.
func sym(pred, y float64) float64 {
	d := math.Abs(pred) + math.Abs(y)
	if d == 0 {
		return 0
	}
	return 2 * math.Abs(pred-y) / d
}

// crossValidate returns the SMAPE of predictions for each group from a fit
// to the other groups (each observation alone when there are fewer than
// three groups), or -1 when some fold has too few observations.
func crossValidate(obs []Obs, terms []Term) float64 {
	errs := cvErrors(obs, terms)
	if errs == nil {
		return -1
	}
	m, _ := meanSE(errs)
	return m
}

// CVErrors returns each observation's symmetric percentage error when
// predicted by a fit of the terms to the other groups (each observation
// alone when there are fewer than three groups), or nil when some fold has
// too few observations.
func CVErrors(obs []Obs, terms []Term) []float64 { return cvErrors(obs, terms) }

// HoldOut returns the SMAPE of predicting the observations for which
// held(o) is true from a fit of the terms to the others, or -1 when the
// others are too few.
func HoldOut(obs []Obs, terms []Term, held func(Obs) bool) float64 {
	var train, test []Obs
	for _, o := range obs {
		if held(o) {
			test = append(test, o)
		} else {
			train = append(train, o)
		}
	}
	if len(test) == 0 || len(train) <= len(terms) {
		return -1
	}
	sol, err := solve(train, terms, weights(train))
	if err != nil {
		return -1
	}
	e := 0.0
	for _, o := range test {
		y := 0.0
		for j, t := range terms {
			y += sol.coef[j] * t.Eval(o.Params, o.Features)
		}
		e += sym(y, o.Y)
	}
	return e / float64(len(test))
}

// Significant reports whether the errors b are lower than a by more than
// twice the standard error of their paired differences.
func Significant(a, b []float64) bool {
	if len(a) != len(b) || len(a) < 2 {
		return false
	}
	d := make([]float64, len(a))
	for i := range d {
		d[i] = a[i] - b[i]
	}
	m, se := meanSE(d)
	return m > 2*se
}

// cvErrors returns each observation's symmetric percentage error when
// predicted by a fit that did not see its group, or nil.
func cvErrors(obs []Obs, terms []Term) []float64 {
	groups := map[int]bool{}
	for _, o := range obs {
		groups[o.Group] = true
	}
	key := func(i int) int { return obs[i].Group }
	if len(groups) < 3 {
		key = func(i int) int { return i }
	}
	folds := map[int][]int{}
	for i := range obs {
		folds[key(i)] = append(folds[key(i)], i)
	}
	ids := make([]int, 0, len(folds))
	for g := range folds {
		ids = append(ids, g)
	}
	sort.Ints(ids)
	errs := make([]float64, len(obs))
	train := make([]Obs, 0, len(obs))
	held := make([]bool, len(obs))
	for _, g := range ids {
		train = train[:0]
		for _, i := range folds[g] {
			held[i] = true
		}
		for i, o := range obs {
			if !held[i] {
				train = append(train, o)
			}
		}
		for _, i := range folds[g] {
			held[i] = false
		}
		if len(train) <= len(terms) {
			return nil
		}
		sol, err := solve(train, terms, weights(train))
		if err != nil {
			return nil
		}
		for _, i := range folds[g] {
			y := 0.0
			for j, t := range terms {
				y += sol.coef[j] * t.Eval(obs[i].Params, obs[i].Features)
			}
			errs[i] = sym(y, obs[i].Y)
		}
	}
	return errs
}

// meanSE returns the mean of xs and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs) - 1)
	return mean, math.Sqrt(v / float64(len(xs)))
}
