// Package seeds holds published tables of the seed papers (../shared/seeds)
// that tests reproduce, each checked against the paper's own text whenever
// that is at hand, so that a test's copy cannot drift from the source.
package seeds
