// Package e2e gates end-to-end tests on the external tools they run (gfortran,
// mpirun, clang-14, opt-14).
//
// Without MKVET_E2E set, a test whose tool is missing is skipped with a message
// naming the tool and how to get it; with MKVET_E2E=1 (as test.sh sets it) a missing
// tool fails the test, so CI cannot pass by skipping.
package e2e
