//go:build !linux

package main

import "os"

// peakRSSMB reports the peak memory of a process as unknown: outside Linux
// ru_maxrss has other units or is absent, and a wrong figure is worse than
// none.
func peakRSSMB(*os.ProcessState) (float64, bool) {
	return 0, false
}
