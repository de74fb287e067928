//go:build linux

package main

import (
	"os"
	"syscall"
)

// peakRSSMB returns the peak resident set size of a finished process in
// MiB, from its rusage's ru_maxrss, which Linux gives in KiB: the honest
// peak memory of a run, counted by the kernel rather than sampled.
func peakRSSMB(ps *os.ProcessState) (float64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return float64(ru.Maxrss) / 1024, true
}
