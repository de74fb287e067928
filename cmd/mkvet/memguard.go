package main

import (
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"strconv"
	"time"
)

// maxHeap is the heap an analysis may hold before mkvet stops it
// (MKVET_MAX_MEMORY, in MiB, overrides it): an evaluation at a large process
// count can build guards and alternatives without bound (NPB BT at class W
// on 1024 processes reached 23 GB), and a tool that takes a machine's whole
// memory takes the user's other work with it. Stopping is a failure the
// user sees (exit status 2 and why), never a silent wrong answer.
const maxHeap = 6 << 30

// heapLimit returns the heap limit in bytes.
func heapLimit() uint64 {
	if s := os.Getenv("MKVET_MAX_MEMORY"); s != "" {
		if mb, err := strconv.ParseUint(s, 10, 64); err == nil && mb > 0 {
			return mb << 20
		}
	}
	return maxHeap
}

// guardMemory watches the live heap and ends the process, saying why on
// stderr with exit status 2, when it passes limit.
func guardMemory(limit uint64, stderr io.Writer) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		for range time.Tick(100 * time.Millisecond) {
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if used := sample[0].Value.Uint64(); used > limit {
				fmt.Fprintf(stderr, "mkvet: the analysis holds more than %d MiB of memory and was stopped "+
					"(a process count or problem size beyond what the evaluation handles within its limits; "+
					"MKVET_MAX_MEMORY=MiB sets the limit)\n", limit>>20)
				os.Exit(2)
			}
		}
	}()
}
