package e2e

import (
	"os"
	"os/exec"
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

// MPIEnv is the environment the tests' MPI runs need besides the
// caller's: Open MPI refuses to run as root unless told.
func MPIEnv() []string {
	if os.Geteuid() == 0 {
		return []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"}
	}
	return nil
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
