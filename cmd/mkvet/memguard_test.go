package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestGuardMemoryStops runs this test binary again with a heap limit of
// 8 MiB and a child that holds 64 MiB: the child must stop with exit status
// 2 and say why, where without the guard it would end normally.
func TestGuardMemoryStops(t *testing.T) {
	if os.Getenv("MKVET_TEST_GUARD_CHILD") == "1" {
		guardMemory(8<<20, os.Stderr)
		var hold [][]byte
		for i := 0; i < 64; i++ {
			hold = append(hold, make([]byte, 1<<20))
		}
		// The guard samples every 100 ms and exits at once; wait for it
		// long enough that a loaded machine (CI's two cores busy with
		// other test binaries) does not make the test flaky: it failed
		// once in a clean-clone CI run with a 2 s wait.
		for range 100 {
			time.Sleep(100 * time.Millisecond)
		}
		if len(hold) > 0 {
			os.Exit(0)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGuardMemoryStops$")
	cmd.Env = append(os.Environ(), "MKVET_TEST_GUARD_CHILD=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("child: %v, want exit status 2\n%s", err, out)
	}
	if !strings.Contains(string(out), "holds more than 8 MiB of memory and was stopped") {
		t.Errorf("child's output does not say why it stopped:\n%s", out)
	}
}

func TestHeapLimitFromEnvironment(t *testing.T) {
	t.Setenv("MKVET_MAX_MEMORY", "512")
	if got := heapLimit(); got != 512<<20 {
		t.Errorf("MKVET_MAX_MEMORY=512: limit %d, want %d", got, 512<<20)
	}
	t.Setenv("MKVET_MAX_MEMORY", "x")
	if got := heapLimit(); got != maxHeap {
		t.Errorf("MKVET_MAX_MEMORY=x: limit %d, want the default %d", got, uint64(maxHeap))
	}
}
