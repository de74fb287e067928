// Package corpora finds the real applications mkvet is measured on (kept
// beside the repository in ../shared/corpora or where MKVET_CORPORA points)
// and prepares them for tests and benchmarks from the manifest
// (manifest.json): one entry per program, saying where it is, how its
// sources are listed, how its problem is configured, the command line and
// input deck it runs with, the process counts it runs at, and how a build
// with mkvet's counters is made. A test takes a private copy of a
// program's folder, prepared as the entry says; the corpora are test data
// and are never copied into the repository, and tests that need them
// skip, naming the directory, when they are absent.
package corpora
