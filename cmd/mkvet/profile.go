package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
)

// startCPUProfile starts a CPU profile written to path; the returned function
// stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	// A run stopped by SIGINT or SIGTERM (a timeout) writes its profile
	// before it ends: the runs worth profiling are the ones that do not
	// finish.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
	go func() {
		s := <-sig
		stop()
		fmt.Fprintf(os.Stderr, "mkvet: %v: cpu profile written to %s\n", s, path)
		os.Exit(2)
	}()
	return func() {
		signal.Stop(sig)
		stop()
	}, nil
}

// writeHeapProfile writes the heap profile of the run so far to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	return nil
}
