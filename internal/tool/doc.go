// Package tool runs the external tools mkvet builds and runs its
// benchmarks with (compilers, launchers, the benchmarks themselves),
// reporting a failure with the command and the tail of what it said.
package tool
