package instrument_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// oracleCase is one test program with the sizes it is run at. Sizes respect
// each program's `!mk$ assume` lines (trap and pge1 need P to divide n) and
// include sizes that P = 2, 3, 4 do not divide where the program allows.
type oracleCase struct {
	file   string
	sizes  []map[string]int64
	serial bool
	dir    string // default ../testdata/programs
	// complete requires every count compared: none may rest on a value
	// the analysis left a parameter (what the program is there to test).
	complete bool
	// point analyses the program at each run's values, as check -D does
	// (a recursion whose depth the values decide).
	point bool
	// input, where set, is a file the program reads (its name, then a
	// template of its text whose {name} placeholders take each run's
	// sizes), written into each run's folder, which the analysis reads
	// too (mkvet's working directory): analysed at each point.
	input [2]string
}

var oracleCases = []oracleCase{
	{file: "trap_mpi.f", sizes: []map[string]int64{{"n": 24}, {"n": 60}, {"n": 1020}}},
	{file: "trap_reduce.f90", sizes: []map[string]int64{{"n": 24}, {"n": 60}, {"n": 1020}}},
	{file: "shift.f", sizes: []map[string]int64{{"n": 5, "m": 3}, {"n": 17, "m": 64}, {"n": 100, "m": 7}}},
	{file: "pipeline.f", sizes: []map[string]int64{{"n": 5, "m": 3}, {"n": 17, "m": 64}, {"n": 100, "m": 7}}},
	{file: "pge1.f", sizes: []map[string]int64{{"n": 12}, {"n": 24}, {"n": 36}}},
	{file: "atm2d.f90", sizes: []map[string]int64{
		{"nx": 5, "ny": 7, "niter": 2}, {"nx": 16, "ny": 13, "niter": 3}, {"nx": 33, "ny": 30, "niter": 4}}},
	{file: "jacobi1d.f90", sizes: []map[string]int64{{"n": 7, "iters": 3}, {"n": 50, "iters": 5}, {"n": 1001, "iters": 4}}},
	{file: "lu_wavefront.f", sizes: []map[string]int64{
		{"nx": 5, "ny": 6, "nz": 2}, {"nx": 16, "ny": 16, "nz": 8}, {"nx": 9, "ny": 4, "nz": 3}}},
	{file: "control.f", sizes: []map[string]int64{{"n": 40, "m": 6}, {"n": 17, "m": 3}, {"n": 101, "m": 10}}},
	{file: "pge1_solve.f", sizes: []map[string]int64{{"n": 24, "nrhs": 3}, {"n": 60, "nrhs": 2}, {"n": 120, "nrhs": 5}}},
	{file: "pge2.f", sizes: []map[string]int64{{"n": 24, "nrhs": 3}, {"n": 60, "nrhs": 2}, {"n": 120, "nrhs": 5}}},
	{file: "pipe_block.f", sizes: []map[string]int64{{"n": 24, "k": 4}, {"n": 48, "k": 8}, {"n": 120, "k": 3}}},
	{file: "optional_host.f90", sizes: []map[string]int64{{"n": 40, "niter": 3}, {"n": 101, "niter": 4}, {"n": 64, "niter": 2}}},
	{file: "dispatch.f", sizes: []map[string]int64{{"nn": 40, "mm": 3, "nnit": 2, "mmode": 1}, {"nn": 37, "mm": 5, "nnit": 3, "mmode": 2}, {"nn": 23, "mm": 2, "nnit": 4, "mmode": 3}}},
	{file: "wave_assoc.f90", sizes: []map[string]int64{{"ng": 10, "steps": 3}, {"ng": 37, "steps": 12}, {"ng": 64, "steps": 20}}},
	{file: "bound_procs.f90", sizes: []map[string]int64{{"n": 10, "steps": 3}, {"n": 37, "steps": 5}, {"n": 1001, "steps": 10}}},
	{file: "scatter_blocks.f90", sizes: []map[string]int64{{"n": 10, "niter": 2}, {"n": 37, "niter": 3}, {"n": 101, "niter": 2}}},
	{file: "recomputed_bounds.f90", sizes: []map[string]int64{{"n": 100, "steps": 4}, {"n": 7001, "steps": 3}, {"n": 200001, "steps": 30}},
		complete: true},
	{file: "common_bcast.f", sizes: []map[string]int64{{"nn": 40, "mm": 3, "ns": 2}, {"nn": 37, "mm": 5, "ns": 3}, {"nn": 101, "mm": 2, "ns": 1}}},
	{file: "factor_grid.f", sizes: []map[string]int64{{"nx": 12, "ny": 8, "maxit": 2}, {"nx": 30, "ny": 21, "maxit": 3}, {"nx": 17, "ny": 40, "maxit": 2}}},
	{file: "offsets.f90", sizes: []map[string]int64{{"n": 10, "niter": 2}, {"n": 37, "niter": 1}, {"n": 23, "niter": 3}}},
	{file: "allgatherv.f90", sizes: []map[string]int64{{"n": 10, "niter": 2}, {"n": 37, "niter": 3}, {"n": 101, "niter": 2}}},
	{file: "halo_types.f90", sizes: []map[string]int64{
		{"nx": 24, "ny": 18, "niter": 3}, {"nx": 17, "ny": 19, "niter": 2}, {"nx": 41, "ny": 23, "niter": 2}}},
	// The construct-coverage programs stress the rewriter (labels that are
	// jump targets and DO terminals, arithmetic IF, OpenMP continuation
	// directives, FORALL, SELECT CASE, ; and & continuations, the
	// preprocessor); the free-form one's size is a macro, so it runs at its
	// default only.
	{file: "constructs_fixed.F", sizes: []map[string]int64{{"nsize": 32}, {"nsize": 7}, {"nsize": 13}}},
	{file: "constructs_free.F90", sizes: []map[string]int64{{}}},
	{file: "alloc_status.f90", sizes: []map[string]int64{{}}, complete: true},
	{file: "recursion.f90", sizes: []map[string]int64{{"n": 200, "ncycles": 3}, {"n": 77, "ncycles": 1}, {"n": 1001, "ncycles": 2}},
		complete: true, point: true},
	{file: "procargs.f90", sizes: []map[string]int64{{"n": 100, "steps": 4}, {"n": 37, "steps": 2}, {"n": 1001, "steps": 3}}, complete: true},
	// Polymorphic steppers: ALLOCATE(t :: s) by rank, dispatch on the
	// dynamic type (an overridden binding, a deferred one, through a
	// CLASS dummy), SELECT TYPE reading an extension's component.
	{file: "elemout.f90", sizes: []map[string]int64{{"n": 100, "steps": 4}, {"n": 37, "steps": 2}, {"n": 1001, "steps": 3}}, complete: true},
	// Array reductions deciding the work: MINLOC, MAXLOC, PRODUCT of the
	// process grid, SUM of a section, COUNT of a mask, MAXVAL, ANY.
	{file: "reductions.f90", sizes: []map[string]int64{{"n": 100, "steps": 4}, {"n": 37, "steps": 2}, {"n": 1001, "steps": 3}}, complete: true},
	// A work list scheduled by arrival: requests made active by
	// MPI_IRECV and MPI_ISEND, completed by MPI_TESTANY, MPI_TESTSOME,
	// MPI_TEST and guarded MPI_WAITs; values received by irecv, known at
	// the completion; MAXLOC of priorities that differ by rank; elemental
	// array assignments (left = theirs, done = left == 0).
	{file: "worklist.f90", sizes: []map[string]int64{{"n": 100, "ntask": 6}, {"n": 37, "ntask": 2}, {"n": 1001, "ntask": 9}}, complete: true},
	// A scheduler loop ending on flags and counters of its own, its
	// receives posted in a routine and polled by MPI_TESTSOME in an inner
	// loop left by EXIT, the work of each task as long as the data makes
	// it and branching on the data (those counts are not compared; the
	// scheduler's, the polls' and the messages' are).
	{file: "polled.f90", sizes: []map[string]int64{{"n": 100, "ntask": 4}, {"n": 37, "ntask": 1}, {"n": 1001, "ntask": 7}}},
	// Set-up values point to point: irecvs completed one by one by
	// MPI_WAITANY, sends whose destination is a MOD of the loop
	// variable (several trips to one rank at small P, matched in order
	// by tag), rank 0 receiving from every other rank what one send
	// statement sends.
	{file: "waitany.f90", sizes: []map[string]int64{{"n": 50}, {"n": 7}, {"n": 301}}, complete: true},
	// Nonblocking collectives completed by waits size later loops.
	{file: "icollectives.f90", sizes: []map[string]int64{{"n": 100, "steps": 3}, {"n": 37, "steps": 2}, {"n": 1001, "steps": 1}}, complete: true},
	// mpi_f08: TYPE(MPI_Request) held as the integer handle it wraps.
	{file: "f08requests.f90", sizes: []map[string]int64{{"n": 10, "steps": 3}, {"n": 37, "steps": 2}, {"n": 101, "steps": 1}}, complete: true},
	// Receives posted in a loop whose trip count is the rank (run rank
	// by rank), completed after it.
	{file: "lowerranks.f90", sizes: []map[string]int64{{"n": 10}, {"n": 37}, {"n": 101}}, complete: true},
	// Sections of a task table handed to routines: columns to explicit-
	// and assumed-shape dummies (one rewritten, its elements coming back),
	// a strided slice, a row, a 2-D block.
	{file: "colsections.f90", sizes: []map[string]int64{{"n": 10}, {"n": 37}, {"n": 101}}, complete: true},
	// Array-valued functions assigned to allocatables, which the
	// assignment allocates (and reallocates) with the result's shape.
	{file: "autoalloc.f90", sizes: []map[string]int64{{"n": 103}, {"n": 37}, {"n": 1001}}, complete: true},
	// Allocatable components allocated and filled through a dummy, a
	// whole component assigned, array pointers' bounds.
	{file: "components.f90", sizes: []map[string]int64{{"n": 10}, {"n": 37}, {"n": 101}}, complete: true},
	// WHERE statements and constructs (masked and plain ELSEWHERE,
	// nested, over a component) deciding the work.
	{file: "wheres.f90", sizes: []map[string]int64{{"n": 10}, {"n": 37}, {"n": 101}}, complete: true},
	// Settings in initialised arrays: a declaration's scalar given to
	// every element, an implied DO, RESHAPE, DATA with repeats.
	{file: "initials.f90", sizes: []map[string]int64{{"n": 40, "steps": 6}, {"n": 7, "steps": 3}, {"n": 101, "steps": 9}}, complete: true},
	// Settings read from a NAMELIST file with arrays (whole, by element,
	// by section, repeats, short lists), broadcast; MOLD= and SOURCE=
	// allocations.
	{file: "nmlarrays.f90", sizes: []map[string]int64{{"nx": 37, "ny": 21, "steps": 5}, {"nx": 10, "ny": 7, "steps": 3}, {"nx": 101, "ny": 4, "steps": 2}},
		complete: true, input: [2]string{"run.nml", "! the run's settings\n&run\n  grid = {nx}, {ny}\n  sweeps(3) = 4, sweeps(1:2) = 2, 3\n" +
			"  widths = 2*2\n  exchange = T, F\n  steps = {steps}, scheme = 'gs'\n/\n"}},
	// Settings packed with MPI_PACK on rank 0 (a table packed in a loop,
	// into a buffer MPI_PACK_SIZE sized), broadcast as MPI_PACKED,
	// unpacked at positions that differ by rank; a whole array read.
	{file: "packed.f90", sizes: []map[string]int64{{"nx": 37, "ny": 21, "steps": 5}, {"nx": 10, "ny": 7, "steps": 3}, {"nx": 101, "ny": 4, "steps": 2}},
		complete: true, input: [2]string{"packed.in", "{nx} {ny}\n{steps} 0.25\n2 1 3\n"}},
	// Settings as key = value lines the program parses itself (internal
	// READs of numbers and text); a recursive V or W cycle on row and
	// column communicators.
	{file: "keyvalue.f90", sizes: []map[string]int64{{"n": 128, "cycles": 4}, {"n": 37, "cycles": 2}, {"n": 16, "cycles": 3}},
		complete: true, point: true, input: [2]string{"mg.cfg", "# multigrid settings\nn = {n}\ncycles={cycles}\n\n  smooth = 2\nmode = w\n"}},
	// Counts kept under conditions (rows dealt cyclically, a block's
	// halo clipped at the edges, a 3x3 neighbourhood inside the grid)
	// sizing buffers, messages and loops.
	{file: "owned.f90", sizes: []map[string]int64{{"n": 1000, "m": 64, "steps": 5}, {"n": 37, "m": 10, "steps": 3}, {"n": 101, "m": 7, "steps": 2}},
		complete: true, input: [2]string{"owned.in", "{n} {m} {steps}\n"}},
	// Tables from constructors with implied DOs, reduced under masks
	// (COUNT, SUM, MAXVAL, MINLOC with MASK= by keyword and position).
	{file: "masked.f90", sizes: []map[string]int64{{"n": 40, "steps": 3}, {"n": 37, "steps": 2}, {"n": 101, "steps": 1}},
		complete: true, input: [2]string{"masked.in", "{n} {steps}\n"}},
	// Settings in a derived type built by structure constructors (by
	// position, by keyword, the parent by name, a default left out) and
	// copied whole; a grid split over a Cartesian communicator.
	{file: "settings_type.f90", sizes: []map[string]int64{{"n": 100, "m": 30, "steps": 6}, {"n": 10, "m": 7, "steps": 3}, {"n": 37, "m": 101, "steps": 2}},
		complete: true, input: [2]string{"settings.nml", "&settings\n  n = {n}, m = {m}\n  steps = {steps} /\n"}},
	// The FORTRAN 77 while loop as a labelled block IF whose arm goes
	// back to it: a log2 of P, a doubling exchange, a countdown in a DO.
	{file: "ifgoto.f", sizes: []map[string]int64{{"iter": 7, "k": 301}, {"iter": 3, "k": 10}, {"iter": 12, "k": 5003}},
		complete: true, input: [2]string{"ifgoto.in", "{iter} {k}\n"}},
	// A loop built from GO TO ending on its residual and its counter at
	// once (res .gt. eps .and. it .lt. itmax): the counter bounds the
	// runs; eps is tiny, so the residual never ends a run first.
	{file: "gotores.f", sizes: []map[string]int64{{"n": 4000, "itmax": 25}, {"n": 37, "itmax": 3}, {"n": 1001, "itmax": 1}},
		complete: true, input: [2]string{"gotores.in", "{n} {itmax}\n"}},
	// Jumps inside loops built from GO TO: a deck whose comment lines go
	// back to the read loop's head, steps skipped by a forward GO TO on
	// the counter, a computed GO TO and an arithmetic IF on the step, an
	// inner loop built from GO TO.
	{file: "gotojumps.f", sizes: []map[string]int64{{"n": 1000, "maxit": 10}, {"n": 37, "maxit": 7}, {"n": 4001, "maxit": 2}},
		complete: true, input: [2]string{"gotojumps.in", "* gotojumps deck\nN        {n}\n* the steps\nMAXIT    {maxit}\n"}},
	// A decomposition rank 0 computes and scatters (counts, prefix-sum
	// starts), a step count sent into another variable, a gather back.
	{file: "scattered.f90", sizes: []map[string]int64{{"n": 101, "steps": 3}, {"n": 7, "steps": 2}, {"n": 1000, "steps": 4}},
		complete: true, input: [2]string{"scattered.in", "{n} {steps}\n"}},
	// key = value lines in an optional file, keys in deferred-length
	// strings dispatched by SELECT CASE, internal procedures.
	{file: "keyfile.f90", sizes: []map[string]int64{{"n": 5000, "steps": 6}, {"n": 7, "steps": 2}, {"n": 101, "steps": 3}},
		complete: true, input: [2]string{"keyfile.cfg", "# config\nn = {n}\nsteps={steps}\n  scheme = 3\n = 4\n"}},
	// Blocks in an array of a derived type, extents set per element,
	// each element passed to a function that sweeps it. Block counts
	// that keep each block's level the same at P = 1..4: where it
	// depends on the rank, 2**level is not followed yet (a parameter).
	{file: "blocklist.f90", sizes: []map[string]int64{{"nb": 36, "base": 4, "steps": 2}, {"nb": 72, "base": 3, "steps": 1}, {"nb": 144, "base": 2, "steps": 3}},
		complete: true, input: [2]string{"blocklist.in", "{nb} {base} {steps}\n"}},
	// Set-up in internal procedures: a host's table filled by one, a deck
	// read to its end (END= from a GO TO loop and from a DO), REAL
	// sections handed to assumed-shape dummies whose SIZE bounds a loop.
	{file: "hostfill.f90", sizes: []map[string]int64{{"a": 3, "b": 5, "c": 7}, {"a": 1, "b": 40, "c": 2}, {"a": 11, "b": 0, "c": 9}},
		complete: true, input: [2]string{"weights.in", "{a}\n{b}\n{c}\n"}},
	// A process grid in a derived type's components, periods as an array
	// constructor, a REAL clock whose rounding decides the last step (steps
	// of 1/10 to 1.0 run eleven times, of 1/7 eight), DO WHILE joining a residual
	// test and a limit, array pointers swapped each sweep, ALLOCATED of a
	// component.
	{file: "powsteps.f90", sizes: []map[string]int64{{"n": 64, "nlev": 4}, {"n": 100, "nlev": 3}, {"n": 37, "nlev": 5}}, complete: true, point: true},
	{file: "compsum.f90", sizes: []map[string]int64{{"n": 6, "steps": 2}, {"n": 37, "steps": 3}, {"n": 101, "steps": 1}}, complete: true},
	{file: "consalloc.f90", sizes: []map[string]int64{{"n": 20, "steps": 2}, {"n": 37, "steps": 3}, {"n": 101, "steps": 1}}, complete: true},
	{file: "optpass.f90", sizes: []map[string]int64{{"n": 10}, {"n": 37}, {"n": 101}}, complete: true},
	{file: "realexit.f90", sizes: []map[string]int64{{"n": 40, "maxit": 100000}, {"n": 37, "maxit": 20}, {"n": 101, "maxit": 1000}}, complete: true, point: true},
	{file: "blocklocal.f90", sizes: []map[string]int64{{"n0": 12, "steps": 3}, {"n0": 37, "steps": 2}, {"n0": 101, "steps": 4}}, complete: true},
	{file: "objassign.f90", sizes: []map[string]int64{{"n": 10, "steps": 3}, {"n": 37, "steps": 2}, {"n": 101, "steps": 4}}, complete: true},
	{file: "modernset.f90", sizes: []map[string]int64{{"n": 24, "steps": 10}, {"n": 37, "steps": 3}, {"n": 10, "steps": 7}}, complete: true},
	// Multigrid levels and blocks in arrays of a derived type whose
	// allocatable components each element allocates with its own shape (in
	// a loop, in a routine given the element, from a table of extents),
	// passed to routines looping over SIZE, LBOUND, UBOUND and an extent
	// component, a component passed as an assumed-shape actual, a pointer
	// to an element, an element freed and allocated again.
	{file: "levelgrid.f90", sizes: []map[string]int64{{"n": 32, "nlev": 4}, {"n": 20, "nlev": 3}, {"n": 48, "nlev": 5}}, complete: true},
	// Step counts from REAL quotients read from a deck, converted as the
	// run rounds them (INT(0.3/0.1) is 2), by INT, FLOOR, CEILING, NINT
	// and assignment, in double and single precision.
	{file: "roundrun.f90", sizes: []map[string]int64{{"a": 3, "b": 1}, {"a": 6, "b": 2}, {"a": 7, "b": 1}},
		complete: true, input: [2]string{"roundrun.in", "0.{a} 0.{b}\n"}},
	// Arrays initialised in their declarations (a process grid, a module
	// table, a routine's saved counters) handed whole to routines that
	// change them.
	{file: "initarrays.f90", sizes: []map[string]int64{{"n": 40, "steps": 3}, {"n": 7, "steps": 2}, {"n": 101, "steps": 4}}, complete: true},
	// Patches of a derived type with default-initialised components,
	// dealt round-robin: an INTENT(OUT) allocatable array of them filled
	// through ASSOCIATE at a counter each rank's tests advance, one left
	// at its defaults, counted by a loop over size(p), a rank's own.
	{file: "patchtypes.f90", sizes: []map[string]int64{{"npatch": 13, "base": 6, "steps": 3}, {"npatch": 7, "base": 3, "steps": 2}, {"npatch": 22, "base": 5, "steps": 1}}, complete: true},
	// COMMON members a BLOCK DATA unit (a named constant, a repeat count,
	// an array) and another unit's DATA initialise, read elsewhere.
	{file: "blockdata.f", sizes: []map[string]int64{{}}, complete: true},
	// Kinds and units from iso_fortran_env and iso_c_binding; a message
	// of bytes sized by STORAGE_SIZE.
	{file: "kinds.f90", sizes: []map[string]int64{{"n": 64, "steps": 3}, {"n": 7, "steps": 2}, {"n": 1001, "steps": 1}}, complete: true},
	// Diagonal neighbours by MPI_CART_RANK of coordinates MPI_CART_GET
	// gives shifted by an array expression.
	{file: "cartrank.f90", sizes: []map[string]int64{{"n": 48, "steps": 3}, {"n": 7, "steps": 2}, {"n": 101, "steps": 1}}, complete: true},
	// Procedure pointer components: NOPASS pointed by rank, PASS with
	// a default target reassigned in a logical IF on the loop's trip
	// (analysed at each run's values), ASSOCIATED.
	{file: "proccomp.f90", sizes: []map[string]int64{{"n": 100, "steps": 10}, {"n": 7, "steps": 3}, {"n": 1001, "steps": 4}},
		complete: true, point: true},
	{file: "polymorph.f90", sizes: []map[string]int64{{"n": 100, "steps": 4}, {"n": 37, "steps": 2}, {"n": 1001, "steps": 3}}, complete: true},
	// A REAL array cleared whole at set-up and tested element by element
	// (in a routine given one element, an exit test, around a message).
	{file: "realfill.f90", sizes: []map[string]int64{{"n": 40, "steps": 3, "mode": 0}, {"n": 7, "steps": 2, "mode": 0}, {"n": 101, "steps": 1, "mode": 0}},
		complete: true, input: [2]string{"realfill.in", "{n} {steps} {mode}\n"}},
	// The rewriter's own hard cases.
	{file: "labels.f", dir: "testdata", sizes: []map[string]int64{{"n": 10}, {"n": 7}, {"n": 23}}},
	{file: "forms.f90", dir: "testdata", sizes: []map[string]int64{{"n": 5, "nn": 8}, {"n": 7, "nn": 3}, {"n": 12, "nn": 5}}},
	{file: "hpf_example.f90", serial: true, sizes: []map[string]int64{{"n1": 8, "n2": 40}, {"n1": 5, "n2": 12}, {"n1": 13, "n2": 100}}},
}

// TestCountsMatchStaticE2E runs every test program, instrumented, at
// P = 1..4 and three sizes (e2e.OracleProcs: the first at every P), and checks that each rank's measured counters
// equal the static per-rank counts of model/cost exactly: loop entries and
// body executions, branch takings, routine calls, MPI calls, messages and
// bytes. It is the strongest oracle of the static counts.
func TestCountsMatchStaticE2E(t *testing.T) {
	e2e.Require(t, "gfortran", "mpif90", "mpirun")
	start := time.Now()
	// Two cases at a time (go test's -parallel is the cores): most of a
	// case's time is mpirun starting up and the compiler, which leave a
	// core idle; the counts compared do not depend on timing. The
	// subtests run once this function returns, so the group is timed by
	// a cleanup.
	t.Cleanup(func() { t.Logf("counts oracle: %v", time.Since(start).Round(time.Second)) })
	for _, tc := range oracleCases {
		t.Run(strings.TrimSuffix(tc.file, filepath.Ext(tc.file)), func(t *testing.T) {
			t.Parallel()
			runOracle(t, tc)
		})
	}
}

func runOracle(t *testing.T, tc oracleCase) {
	path := filepath.Join("..", "testdata", "programs", tc.file)
	if tc.dir != "" {
		path = filepath.Join(tc.dir, tc.file)
	}
	prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %v", d)
		}
	}
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var record []string
	// A value only a process count gives (the grid MPI_Dims_create
	// chooses) is unresolved in the symbolic report: the program is
	// analysed again at each point, as check -D P=... does.
	atPoint := tc.point
	for _, p := range rep.Params {
		record = append(record, p.Name)
		atPoint = atPoint || p.Origin == cost.FromUnresolved
	}
	cfg := &sweep.Config{
		Prog: prog, Files: []string{path}, Options: instrument.Options{Record: record, BodyCounters: true},
		Build: "mpif90 -O1 {srcs} -o {exe}", Launcher: e2e.MPILauncher,
		Dir: t.TempDir(), Timeout: 2 * time.Minute, Env: e2e.MPIEnv(t),
	}
	if tc.input[0] != "" {
		cfg.InputFiles = []sweep.InputFile{{Name: tc.input[0], Template: tc.input[1], Source: tc.file + " input"}}
		atPoint = true
	}
	ps := []int{1, 2, 3, 4}
	if tc.serial {
		cfg.Build = "gfortran -O1 {srcs} -o {exe}"
		cfg.Launcher = "{exe}"
		ps = []int{1}
	}
	builds := map[string]*sweep.Build{}
	compared, skipped := 0, 0
	for si, size := range tc.sizes {
		var b *sweep.Build
		for _, p := range e2e.OracleProcs(si, ps) {
			pt := sweep.Point{Params: size, P: p}
			if b == nil {
				// The first build tells which sizes are build-time.
				probe, ok := builds["default"]
				if !ok {
					probe, err = cfg.Compile(nil)
					if err != nil {
						t.Fatal(err)
					}
					builds["default"] = probe
				}
				vals := sweep.BuildValues(probe.Result.Params, size)
				key := sweep.Key(vals)
				if b = builds[key]; b == nil {
					if b, err = cfg.Compile(vals); err != nil {
						t.Fatal(err)
					}
					builds[key] = b
				}
			}
			runDir := filepath.Join(cfg.Dir, fmt.Sprintf("run-%d-%d", si, p))
			run := cfg.Run(b, pt, 0, runDir, "oracle")
			if run.Err != nil {
				t.Fatalf("%s: %v\n%s", pt, run.Err, run.Stderr)
			}
			at := rep
			if atPoint {
				values := map[string]int64{cost.Size: int64(p)}
				opt := cost.Options{}
				if tc.input[0] != "" {
					opt.Dir = runDir // the sizes are in the input, not values
				} else {
					maps.Copy(values, size)
				}
				if at, err = cost.AnalyzeAt(prog, opt, values); err != nil {
					t.Fatal(err)
				}
			}
			c, s := compare(t, tc.file, at, b.Result, pt, run.Records)
			compared += c
			skipped += s
		}
	}
	if compared == 0 {
		exact := 0
		for _, n := range rep.Nodes {
			if n.Exact {
				exact++
			}
		}
		if exact > 0 {
			t.Fatal("nothing compared")
		}
		t.Logf("%s: every static count is marked approximate (jumps mkvet does not model); nothing to compare", tc.file)
	}
	t.Logf("%s: %d per-rank counts equal; %d not compared (approximate static counts, or counts in a branch frequency or trip count the program does not record)",
		tc.file, compared, skipped)
	if tc.complete && skipped > 0 {
		t.Errorf("%s: %d counts not compared; the program's every count should be known", tc.file, skipped)
	}
}

// compare checks the records of one run against the report and returns the
// number of equal per-rank values and of those not compared.
func compare(t *testing.T, file string, rep *cost.Report, res *instrument.Result, pt sweep.Point, recs []instrument.Record) (n, skipped int) {
	t.Helper()
	byNode := map[string]map[int]instrument.Record{}
	recorded := map[string]int64{}
	for _, r := range recs {
		if r.Type == instrument.TypeRun {
			if r.Rank == 0 {
				for k, v := range r.Params {
					recorded[k] = v
				}
			}
			continue
		}
		if byNode[r.Node] == nil {
			byNode[r.Node] = map[int]instrument.Record{}
		}
		byNode[r.Node][r.Rank] = r
	}
	env, unknown := staticEnv(rep, pt, recorded)
	annotated := map[string]bool{}
	for _, pr := range res.Probes {
		node := rep.ByID[pr.Node]
		if node == nil {
			for rank, r := range byNode[pr.Node] {
				if r.Count > 0 {
					t.Errorf("%s %s rank %d at %s: ran %d times but the static report does not reach it", file, pr.Node, rank, pt, r.Count)
				}
			}
			continue
		}
		if !node.Exact || mentions(node, unknown) {
			skipped += pt.P
			continue
		}
		if l, ok := node.Node.(*apt.Loop); ok && l.Iterations != nil {
			// The trip count is the user's `!mk$ iterations`, not derived;
			// only the entries are compared.
			annotated[pr.Node] = true
		}
		type q struct {
			name     string
			pw       symbolic.Piecewise
			measured func(instrument.Record) int64
		}
		qs := []q{{"count", node.Count, func(r instrument.Record) int64 { return r.Count }}}
		if pr.Kind == "loop" && pr.Iters && !annotated[pr.Node] {
			qs = append(qs, q{"iterations", node.Iterations, func(r instrument.Record) int64 { return r.Iters }})
		}
		if c := node.Comm; c != nil && hasMsgProbe(rep, pr.Node) {
			qs = append(qs,
				q{"messages sent", c.Messages, func(r instrument.Record) int64 { return r.Msgs }},
				q{"bytes sent", c.BytesSent, func(r instrument.Record) int64 { return r.Bytes }},
				q{"messages received", c.Received, func(r instrument.Record) int64 { return r.RecvMsgs }},
				q{"bytes received", c.BytesReceived, func(r instrument.Record) int64 { return r.RecvBytes }})
		}
		for _, x := range qs {
			for rank := 0; rank < pt.P; rank++ {
				env[cost.Rank] = symbolic.RatInt(int64(rank))
				v, err := x.pw.Eval(env)
				if err != nil {
					t.Errorf("%s %s: evaluating the static %s at %s rank %d: %v", file, pr.Node, x.name, pt, rank, err)
					continue
				}
				want, ok := v.Int64()
				got := x.measured(byNode[pr.Node][rank])
				if ok && v.IsInt() && want == got {
					n++
					continue
				}
				msg := fmt.Sprintf("%s %s %s at %s rank %d: static %s = %s, measured %d", file, pr.Node, x.name, pt, rank, x.pw, v, got)
				t.Error(msg)
			}
		}
	}
	return n, skipped
}

// hasMsgProbe reports whether the MPI call's messages are counted: a
// datatype and count that are not arrays.
func hasMsgProbe(rep *cost.Report, id string) bool {
	c, ok := rep.ByID[id].Node.(*apt.Comm)
	if !ok {
		return false
	}
	for _, m := range []*apt.Msg{c.Send, c.Recv} {
		if m != nil && (m.Count == nil || m.Datatype == nil || m.Displs != nil && c.Op != apt.MPIAllgatherv) {
			return false
		}
	}
	return c.Op != apt.MPIInit && c.Op != apt.MPIFinalize
}

// staticEnv gives every symbol of the report a value: the run's sizes and P,
// values the ranks recorded (a size computed at run time, the argument
// count), defaults. Parameters standing for branch frequencies or trip
// counts of unanalysable constructs have no true value: they are returned
// as unknown, and counts that mention them are not compared.
func staticEnv(rep *cost.Report, pt sweep.Point, recorded map[string]int64) (map[string]symbolic.Rat, map[string]bool) {
	env := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(int64(pt.P))}
	unknown := map[string]bool{}
	for _, p := range rep.Params {
		if v, ok := pt.Params[p.Name]; ok {
			env[p.Name] = symbolic.RatInt(v)
			continue
		}
		if v, ok := recorded[p.Name]; ok {
			env[p.Name] = symbolic.RatInt(v)
			continue
		}
		if p.Default != nil && p.Origin != cost.FromFrequency && p.Origin != cost.FromTripCount {
			// (A frequency's or a trip count's default is the
			// analysis's stand-in, not the run's value.)
			if v, err := p.Default.Eval(env); err == nil {
				env[p.Name] = v
				continue
			}
		}
		unknown[p.Name] = true
		env[p.Name] = symbolic.RatInt(1)
	}
	return env, unknown
}

func mentions(n *cost.Node, syms map[string]bool) bool {
	if len(syms) == 0 {
		return false
	}
	pws := []symbolic.Piecewise{n.Count, n.Iterations}
	if n.Comm != nil {
		pws = append(pws, n.Comm.Messages, n.Comm.BytesSent, n.Comm.Received, n.Comm.BytesReceived)
	}
	for _, pw := range pws {
		for _, pc := range pw.Pieces {
			ss := pc.Value.Symbols()
			for _, g := range pc.Guard {
				ss = append(ss, g.E.Symbols()...)
			}
			if slices.ContainsFunc(ss, func(s string) bool { return syms[s] }) {
				return true
			}
		}
	}
	return false
}

// TestNestTimersE2E runs nests.f instrumented with Options.NestTimers at a
// size where its routines' nests are left by GO TO and by RETURN 600 times
// inside one enclosing nest: had the jumps left their timers open, the
// regions would pile up past the runtime's 512 levels. It checks that no
// region overflowed, that every timed nest was timed once per entry on
// every rank, that the routines called from loops had their nests timed,
// and that a rank's nests' exclusive times add up to no more than its
// program time.
func TestNestTimersE2E(t *testing.T) {
	e2e.Require(t, "mpif77", "mpirun")
	path := filepath.Join("testdata", "nests.f")
	prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %v", d)
		}
	}
	cfg := &sweep.Config{
		Prog: prog, Files: []string{path}, Options: instrument.Options{NestTimers: true},
		Build: "mpif77 -O1 {srcs} -o {exe}", Launcher: e2e.MPILauncher,
		Dir: t.TempDir(), Timeout: 2 * time.Minute, Env: e2e.MPIEnv(t),
	}
	size := map[string]int64{"n": 600}
	b, err := cfg.Compile(size)
	if err != nil {
		t.Fatal(err)
	}
	const p = 2
	run := cfg.Run(b, sweep.Point{Params: size, P: p}, 0, filepath.Join(cfg.Dir, "run"), "nests")
	if run.Err != nil {
		t.Fatalf("%v\n%s", run.Err, run.Stderr)
	}
	timed := map[string]bool{}
	for _, pr := range b.Result.Probes {
		if pr.Timed {
			timed[pr.Node] = true
		}
	}
	for _, id := range []string{"scale/L1", "upto/L1", "find/L1"} {
		if !timed[id] {
			t.Errorf("%s, a nest of a routine called from a loop, is not timed", id)
		}
	}
	program := map[int]float64{}
	excl := map[int]float64{}
	nests := 0
	for _, r := range run.Records {
		if r.Type == instrument.TypeRun {
			program[r.Rank] = r.Seconds
			if r.Overflow != 0 {
				t.Errorf("rank %d: %d timed regions overflowed the runtime's stack: a jump left a nest's timer open", r.Rank, r.Overflow)
			}
			continue
		}
		if !timed[r.Node] || !strings.Contains(r.Node, "/L") {
			continue
		}
		nests++
		excl[r.Rank] += r.Seconds
		if r.Seconds < 0 {
			t.Errorf("%s rank %d: exclusive time %g", r.Node, r.Rank, r.Seconds)
		}
		if r.Timed != r.Count {
			t.Errorf("%s rank %d: timed %d times, entered %d", r.Node, r.Rank, r.Timed, r.Count)
		}
	}
	if nests != p*len(slices.DeleteFunc(slices.Collect(maps.Keys(timed)), func(id string) bool { return !strings.Contains(id, "/L") })) {
		t.Errorf("%d nest records, want every timed nest on every rank", nests)
	}
	for rank := range p {
		// The nests run after MPI_INIT, in the program time; allow for
		// the clock's granularity.
		if excl[rank] > program[rank]*1.01+1e-5 {
			t.Errorf("rank %d: the nests' exclusive times add up to %gs, beyond the program time %gs", rank, excl[rank], program[rank])
		}
	}
}
