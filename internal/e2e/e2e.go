package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Enabled reports whether MKVET_E2E is set to a non-empty value other than "0".
func Enabled() bool {
	v := os.Getenv("MKVET_E2E")
	return v != "" && v != "0"
}

// Require returns the path of each named tool, in order. When one is missing it
// skips the test, or fails it when MKVET_E2E is enabled.
func Require(t testing.TB, tools ...string) []string {
	t.Helper()
	paths := make([]string, len(tools))
	for i, tool := range tools {
		p, err := exec.LookPath(tool)
		if err != nil {
			msg := "end-to-end test needs " + tool + " on PATH (Debian: apt-get install gfortran openmpi-bin libopenmpi-dev clang-14 llvm-14, or run ./test.sh)"
			if Enabled() {
				t.Fatal(msg + "; MKVET_E2E is set, so a missing tool is a failure")
			}
			t.Skip(msg + "; skipping (set MKVET_E2E=1 to make this a failure)")
		}
		paths[i] = p
	}
	return paths
}

// MPILauncher runs the tests' MPI programs: Open MPI's ob1 messaging layer
// over shared memory (it starts in 0.1 s here, against 0.3 s when it first
// tries the others); --oversubscribe lets P exceed the cores.
const MPILauncher = "mpirun --oversubscribe --mca btl self,vader --mca pml ob1 -np {P} {exe}"

// MPIEnv is the environment the tests' MPI runs need besides the caller's:
// Open MPI refuses to run as root unless told, and its session directory is
// made private to the test. Open MPI 4 creates /tmp/ompi.HOST.UID on each
// start, and two mpiruns starting at once (test packages run in parallel)
// race on it: the loser fails with "File exists" and writes no records. The
// directory is short because Open MPI's sockets live under it and a socket
// path holds at most 108 bytes.
func MPIEnv(t testing.TB) []string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ompi")
	if err != nil {
		t.Fatalf("a session directory for Open MPI: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	env := []string{"OMPI_MCA_orte_tmpdir_base=" + dir, "PRTE_MCA_prte_tmpdir_base=" + dir}
	if os.Geteuid() == 0 {
		env = append(env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	}
	return env
}

// SetMPIEnv sets MPIEnv's variables in the test's own environment, for tests
// that start mpirun through code that passes its environment on.
func SetMPIEnv(t *testing.T) {
	t.Helper()
	for _, kv := range MPIEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// OracleProcs gives the process counts a counts oracle runs its size number
// si at: the first size at every count in ps, each later size at one count
// other than the first, taken from the largest down. Every size and every
// count is still run (sizes are chosen so that the counts do not divide
// them), but a case costs len(ps)+len(sizes)-1 runs instead of their product:
// most of an oracle's time is mpirun starting, and the CI has 30 minutes.
func OracleProcs(si int, ps []int) []int {
	if si == 0 || len(ps) < 2 {
		return ps
	}
	rest := ps[1:]
	return []int{rest[len(rest)-1-(si-1)%len(rest)]}
}
