// Package fit fits cost models to measurements: fixed terms by relative
// least squares (Pacheco fits the constants of T(n,p) this way, seed 004
// §11.5; MK derives loop costs by regression on small runs, seed 000 §3),
// and a search over a space of PMNF terms chosen by cross-validation for
// times that do not follow the static counts.
//
// A model is y ≈ Σ c_i·t_i, where each term t_i is a product of powers and
// base-2 logarithms of the parameters, optionally times a count feature.
// Coefficients minimise Σ ((ŷ - y)/y)², which suits timings whose scatter is
// proportional to their size; the solution comes from the SVD of the
// column-scaled weighted design matrix, so collinear terms get the minimum-
// norm fit instead of failing. Each model reports R², SMAPE, the
// leave-one-group-out cross-validated SMAPE, the largest relative residual,
// and the covariance of its coefficients, which with Student's t gives a
// prediction interval for a new measurement.
package fit
