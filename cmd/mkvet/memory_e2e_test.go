package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The machine's memory hierarchy, measured once for the package's tests:
// `calibrate -memory auto` runs membench (about 100 s on the 2-core CI
// machine) at every calibration, and the calibration tests calibrate
// several times. They pass this measurement with -memory FILE, the form
// a user's calibrations reuse one with.
var (
	memoryOnce sync.Once
	memoryPath string
)

// machineMemory returns the -memory argument for a calibration: the file
// of one membench -json run, or auto where membench failed (the test then
// sees calibrate's own fallback).
func machineMemory(t *testing.T) string {
	t.Helper()
	memoryOnce.Do(func() {
		code, out, errs := mkvet(t, "membench", "-json")
		if code != 0 {
			t.Logf("membench: exit %d: %s; calibrations measure the memory themselves", code, errs)
			memoryPath = "auto"
			return
		}
		dir, err := os.MkdirTemp("", "mkvet-membench")
		if err == nil {
			path := filepath.Join(dir, "membench.json")
			if err = os.WriteFile(path, []byte(out), 0o644); err == nil {
				memoryPath = path
				return
			}
		}
		t.Logf("membench: %v; calibrations measure the memory themselves", err)
		memoryPath = "auto"
	})
	return memoryPath
}
