package cinst_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/cinst"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// cCase is a C test program, the names of its command-line arguments in
// order, and the sizes it runs at (with remainders for P = 2 and 4).
// With modes, each run's argv is a mode's words, then the sizes, and the
// analysis is given the whole argv (cost.Options.Args, mkvet's -args), not
// the sizes by name: the program chooses what it does by the words.
type cCase struct {
	file  string
	args  []string
	sizes [][]int64
	modes [][]string
	// stdin gives the sizes on standard input, on one line, instead of
	// on the command line: the analysis reads them from the same text
	// (mkvet's -stdin).
	stdin bool
	// opts, where set, are the words that give each size, a format of
	// its value ("-n %d", "-m%d"): the sizes are options, not operands.
	opts []string
	// input, where set, is a file the sizes are written to (on one line,
	// as stdin; with opts, a comment line and then a line per size as
	// opts formats it), in the folder the program runs in, which the
	// analysis reads from (mkvet's -dir).
	input string
	// env, where set, names the environment variable each size is given
	// in (mkvet's -env); a variable it leaves out is unset.
	env []string
}

var cCases = []cCase{
	{"cart2d.c", []string{"gx", "gy", "steps"}, [][]int64{{103, 70, 3}, {37, 41, 2}, {64, 9, 4}}, nil, false, nil, "", nil},
	{"ring.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {101, 5}}, nil, false, nil, "", nil},
	{"blockcyclic.c", []string{"n", "m"}, [][]int64{{10, 7}, {37, 5}, {101, 33}}, nil, false, nil, "", nil},
	{"pipeline.c", []string{"n", "m"}, [][]int64{{5, 3}, {17, 6}, {64, 2}}, nil, false, nil, "", nil},
	{"halo2d.c", []string{"nx", "ny", "iters"}, [][]int64{{9, 7, 2}, {16, 13, 3}, {31, 30, 2}}, nil, false, nil, "", nil},
	{"graph.c", []string{"n", "len"}, [][]int64{{5, 10}, {13, 7}, {22, 3}}, nil, false, nil, "", nil},
	{"pattern.c", []string{"n"}, [][]int64{{7}, {64}}, [][]string{{"ring"}, {"all"}, {"none"}}, false, nil, "", nil},
	{"config.c", []string{"nx", "steps", "chunk"}, [][]int64{{10, 3, 5}, {37, 2, 64}, {101, 5, 1}}, nil, false, nil, "", nil},
	{"shortcircuit.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}, {101, 2}}, nil, false, nil, "", nil},
	{"aliasing.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}, {101, 2}}, nil, false, nil, "", nil},
	{"cartsub.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}, {101, 2}}, nil, false, nil, "", nil},
	{"ctypes.c", []string{"n", "m"}, [][]int64{{10, 7}, {37, 5}, {16, 33}}, nil, false, nil, "", nil},
	{"roundrun.c", []string{"a", "b"}, [][]int64{{3, 1}, {6, 2}, {7, 1}}, nil, false, nil, "", nil},
	{"scanin.c", []string{"n", "m", "steps"}, [][]int64{{10, 7, 2}, {37, 5, 3}}, nil, true, nil, "", nil},
	{"argwalk.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}}, [][]string{{}}, false, nil, "", nil},
	{"options.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}}, [][]string{{}, {"-twice"}, {"-gather", "-twice"}}, false, nil, "", nil},
	{"xalloc.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}}, nil, false, nil, "", nil},
	{"ptrloops.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}, {200001, 2}}, [][]string{{}}, false, nil, "", nil},
	// Sizes analysed as parameters: a std::vector's storage, filled by
	// its constructor's pointer loop, counted as a closed form in them.
	{"gridvec.cpp", []string{"nx", "ny", "steps"}, [][]int64{{10, 7, 3}, {37, 21, 2}, {5, 3, 4}}, nil, false, nil, "", nil},
	// Array fields with static initialisers: a structure copied whole,
	// then changed; a constant std::array walked by a range-for.
	{"arrfield.cpp", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 1}, {5, 3}}, [][]string{{}}, false, nil, "", nil},
	{"vectors.cpp", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 5}, {101, 2}}, [][]string{{}}, false, nil, "", nil},
	{"members.cpp", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {60, 2}}, [][]string{{}}, false, nil, "", nil},
	{"strargs.cpp", []string{"n", "steps"}, [][]int64{{37, 5}, {101, 2}}, [][]string{{}, {"-x"}, {"--check", "-x"}}, false, nil, "", nil},
	{"gathervec.cpp", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {102, 2}}, [][]string{{}}, false, nil, "", nil},
	{"globtab.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {101, 1}}, nil, false, nil, "", nil},
	{"streams.cpp", []string{"n", "steps", "more"}, [][]int64{{37, 3, 4}, {10, 2, 0}, {101, 1, 7}}, [][]string{{}}, false, nil, "sizes.txt", nil},
	{"keyfile.cpp", []string{"nx", "steps"}, [][]int64{{37, 3}, {10, 2}, {101, 1}}, [][]string{{}}, false, []string{"nx %d", "steps   %d"}, "settings.txt", nil},
	{"opttable.c", []string{"nx", "ny", "steps"}, [][]int64{{40, 32, 5}, {12, 20, 3}}, [][]string{{}, {"-q"}, {"-n", "2"}}, false,
		[]string{"-x %d", "--ny %d", "--nSteps %d"}, "", nil},
	{"tokens.c", []string{"nx", "steps"}, [][]int64{{37, 3}, {10, 2}, {101, 1}}, [][]string{{}}, false, []string{"nx = %d", "\tsteps=%d"}, "settings.cfg", nil},
	{"scatcounts.c", []string{"n"}, [][]int64{{1003}, {10}, {37}}, nil, false, nil, "", nil},
	{"blocks.c", []string{"max_blocks", "nx", "steps"}, [][]int64{{5, 6, 2}, {7, 9, 1}, {4, 3, 3}}, nil, false, nil, "", nil},
	{"halos.cpp", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 1}, {5, 3}}, [][]string{{}}, false, nil, "", nil},
	{"nbrvec.cpp", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 1}, {5, 3}}, [][]string{{}}, false, nil, "", nil},
	{"pushvec.cpp", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 1}, {5, 3}}, [][]string{{}}, false, nil, "", nil},
	{"fieldarr.c", []string{"n", "steps"}, [][]int64{{12, 3}, {20, 2}, {7, 4}}, nil, false, nil, "", nil},
	{"deckstruct.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {10, 7, 2}}, [][]string{{"run.deck"}, {"run.deck", "gs"}}, false,
		[]string{"nx %d", "ny %d", "steps %d"}, "run.deck", nil},
	{"cubes.cpp", []string{"nx", "its"}, [][]int64{{10, 5}, {7, 30}, {12, 3}}, [][]string{{}, {"-p"}}, false, []string{"-s %d", "-i %d"}, "", nil},
	{"eqopts.c", []string{"n", "steps"}, [][]int64{{37, 5}, {101, 2}}, [][]string{{}, {"-x"}, {"-c", "-x"}}, false, []string{"--n=%d", "--steps=%d"}, "", nil},
	{"byvalue.c", []string{"nx", "ny", "steps"}, [][]int64{{10, 13, 3}, {7, 30, 2}, {16, 5, 4}}, [][]string{{}}, false, nil, "", nil},
	{"longopts.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}}, [][]string{{}, {"--verb"}}, false,
		[]string{"--size %d", "--steps=%d"}, "", nil},
	{"cfile.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}}, [][]string{{}, {"sizes.txt"}}, false, nil, "sizes.txt", nil},
	{"cenv.c", []string{"nsteps", "n"}, [][]int64{{3, 10}, {2, 37}}, [][]string{{}}, false, nil, "", []string{"NSTEPS", "CENV_N"}},
	{"cenv.c", []string{"nsteps", "n"}, [][]int64{{4, 0}}, [][]string{{}}, false, nil, "", []string{"NSTEPS", ""}},
	{"setupbcast.c", []string{"n", "steps", "width"}, [][]int64{{10, 3, 2}, {37, 5, 1}, {101, 2, 4}}, [][]string{{}}, false,
		[]string{"-n %d", "-s %d", "-w %d"}, "", nil},
	{"samename.c", []string{"n"}, [][]int64{{10}, {37}}, [][]string{{}}, false, nil, "", nil},
	{"settings.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {10, 7, 2}}, [][]string{{}}, false,
		[]string{"nx = %d", "ny=%d", "  steps = %d\n"}, "run.cfg", nil},
	{"scanfmt.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {10, 7, 2}}, [][]string{{}}, false,
		[]string{"size: %d,", "%d", "steps=%d"}, "grid.txt", nil},
	{"keyloop.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {10, 7, 2}}, [][]string{{}}, false,
		[]string{"nx=%d", "ny=%d", "steps=%d"}, "keys.txt", nil},
	// Settings lines cut and trimmed through pointers into the line
	// (strchr's result written through, a char* walked over isspace,
	// *--end = 0), a name copied into a structure by strncpy, the
	// structure broadcast as bytes and its name compared on every rank.
	{"cfgtrim.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {12, 5, 2}}, [][]string{{}}, false,
		[]string{"  nx = %d   # columns", "ny=%d", "\tsteps =%d \n scheme =  wide   # two cells"}, "settings.cfg", nil},
	// The sizes on one line of a file, read by POSIX getline into a
	// buffer it allocates and converted by strtol from each end pointer
	// until one converts nothing (end == p).
	{"numline.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {5, 9, 2}}, [][]string{{}}, false, nil, "sizes.txt", nil},
	// The same line copied by strcpy and cut into words by strtok_r,
	// whose place is kept in the save pointer the program passes.
	{"toklist.c", []string{"nx", "ny", "steps"}, [][]int64{{37, 21, 3}, {64, 3, 2}}, [][]string{{}}, false, nil, "sizes.txt", nil},
	// A loop bound that is the distance between a cursor and an array
	// filled by its initialiser, reached through a structure's pointer.
	{"ptrdist.c", []string{"n", "steps"}, [][]int64{{20, 3}, {100, 2}, {7, 4}}, [][]string{{}}, false, nil, "", nil},
	{"optdst.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {101, 4}}, [][]string{{}}, false, []string{"-n %d", "-s %d"}, "", nil},
	{"nbrgrow.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {5, 4}}, [][]string{{}}, false, nil, "", nil},
	{"nbrpush.cpp", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {5, 4}}, [][]string{{}}, false, nil, "", nil},
	// Run without arguments (the analysis is given none either): the
	// option loop's defaults; then with options in either order.
	// Recursion whose depth the sizes and P decide (quadrants to a depth,
	// pairwise halving to runs of 8), analysed at each run's values.
	{"quadtree.c", []string{"n", "depth"}, [][]int64{{1001, 2}, {4096, 3}, {77, 5}}, nil, false, nil, "", nil},
	// Work chosen through function pointers: by a word on the command
	// line, from a static table, a struct's brace initialiser, a heap
	// object's callback that differs on rank 0.
	{"kernels.c", []string{"n", "iters"}, [][]int64{{1001, 3}, {37, 2}}, [][]string{{"copy"}, {"jacobi"}}, false, nil, "", nil},
	// A constant table of structures {name, function, reps, {width,
	// halo}} ended by a NULL name, looked up by the method's name: the
	// work runs through the entry's function pointer (before, 4 values
	// were asked: the lookup's trips, the reps and the halo).
	// Words of the command line told apart with <ctype.h> (isdigit,
	// isalpha, toupper, tolower, isspace: glibc's table and functions);
	// before, 9 values were asked.
	{"ctypeargs.c", []string{"n"}, [][]int64{{1000}, {777}, {50}}, [][]string{{"b", "-r3"}, {"C", "-R2"}, {}, {"a"}}, false, nil, "", nil},
	// A list of structures filled by whole-structure copies (from a
	// local, a function's result, another element; a nested structure
	// inside): before, the copies were dropped and 3 values asked.
	{"structcopy.c", []string{"n", "steps"}, [][]int64{{100, 2}, {37, 3}, {1001, 1}}, nil, false, nil, "", nil},
	{"kerntab.c", []string{"n", "steps"}, [][]int64{{1001, 3}, {37, 2}}, [][]string{{"smooth"}, {"sweep"}, {"fill"}}, false, nil, "", nil},
	// Ownership, weights and a message length stored in rows reached
	// through arrays of pointers (int **, int *pos[3], a VLA indexed by
	// them).
	{"jagged.c", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {7, 4}}, nil, false, nil, "", nil},
	// Schedules in initialised tables: 2-D locals with short rows, a
	// file-scope 2-D table, a process grid's dims and periods.
	{"tables.c", []string{"n", "steps"}, [][]int64{{37, 5}, {10, 3}, {101, 7}}, nil, false, nil, "", nil},
	// Sizes packed with MPI_Pack on rank 0, broadcast as MPI_PACKED.
	{"packc.c", []string{"nx", "ny", "steps", "dt"}, [][]int64{{100, 37, 12, 1}, {10, 7, 3, 2}}, nil, true, nil, "", nil},
	// Row lengths counted under a test while the rows are built (edge
	// cells have fewer neighbours), then each row's stored length run.
	// Grid lines that P = 1..4 divide: where the ranks' line counts
	// differ, the rows' lengths are not followed yet (a parameter).
	{"rowlens.c", []string{"nx", "ny", "steps"}, [][]int64{{20, 24, 5}, {7, 36, 3}}, nil, false, nil, "", nil},
	// Loop tests on the counter with a constant offset (i + 1 < n,
	// j + 2 <= m, k - 1 > 0), bounds through a function, past a run's
	// budget.
	{"offsets.c", []string{"n", "m", "steps"}, [][]int64{{5003, 65, 3}, {37, 8, 2}, {20001, 3, 1}}, nil, false, nil, "", nil},
	// Levels from log2 of the grid, extents shifted by the level.
	{"levels.c", []string{"iters"}, [][]int64{{7}, {2}}, [][]string{{"-g", "64x48"}, {"-g", "10x37"}, {}}, false, nil, "", nil},
	// MPI+OpenMP: MPI_Init_thread, omp.h, work-sharing pragmas.
	{"hybrid.c", []string{"n", "steps"}, [][]int64{{1000, 10}, {37, 3}}, nil, false, nil, "", nil},
	// C++ options: std::string ==, std::stoi, rfind(prefix, 0), substr.
	{"cxxopts.cpp", []string{"n", "steps"}, [][]int64{{1000, 7}, {37, 3}}, [][]string{{}, {"--scheme=implicit"}}, false,
		[]string{"-n %d", "-s %d"}, "", nil},
	// Diagonal neighbours by MPI_Cart_rank of shifted coordinates, the
	// grid read back by MPI_Cart_get and MPI_Cartdim_get.
	{"corners.c", []string{"n", "steps"}, [][]int64{{64, 3}, {37, 2}, {10, 1}}, nil, false, nil, "", nil},
	// Error exits inside loop nests (an iostream message, then exit or
	// abort) with C++ locals alive, so each call there is an invoke.
	{"guards.cpp", []string{"nx", "ny", "steps"}, [][]int64{{30, 20, 3}, {7, 5, 2}, {101, 9, 4}}, [][]string{{}}, false, nil, "", nil},
	// Work chosen by C++ virtual calls: kernels made by rank with new,
	// called through base pointers, a reference, this; a virtual getter
	// sizing a reduction.
	// A class's constructor and destructor defined out of line (the
	// complete-object ones aliases of the base-object ones), on the stack
	// and by new and delete.
	{"outofline.cpp", []string{"n", "steps"}, [][]int64{{37, 3}, {10, 2}, {101, 4}}, [][]string{{}}, false, nil, "", nil},
	// Arrays of structures walked by pointers: std::vector<Node>(n)'s
	// fill, a malloc'd array to its end, a walk by two to a bound.
	{"structwalk.cpp", []string{"n", "steps"}, [][]int64{{100000, 2}, {37, 3}, {50001, 1}}, [][]string{{}}, false, nil, "", nil},
	// Vectors of vectors resized in a loop and copied from a row, a
	// vector resized after it is made, size() read through operator[] on
	// every trip, two loops over one name of two types.
	{"vecofvec.cpp", []string{"n", "steps"}, [][]int64{{100000, 2}, {37, 3}, {50001, 1}}, [][]string{{}}, false, nil, "", nil},
	// Lists filled by push_back and emplace_back after reserve() in loops
	// too long to run trip by trip.
	{"pushloop.cpp", []string{"n", "steps"}, [][]int64{{100000, 2}, {37, 3}, {50001, 1}}, [][]string{{}}, false, nil, "", nil},
	// Lists of pointers to objects made by new: a count per rank, a
	// member vector of children added through a method, deletes through
	// the slots.
	{"ptrlist.cpp", []string{"n", "steps"}, [][]int64{{100000, 2}, {37, 3}, {50001, 1}}, [][]string{{}}, false, nil, "", nil},
	// C lists filled through functions: a count field incremented, a
	// cursor moved, in loops too long to run.
	{"growbuf.c", []string{"n", "steps"}, [][]int64{{100000, 2}, {37, 3}, {50001, 1}}, [][]string{{}}, false, nil, "", nil},
	{"virtuals.cpp", []string{"n", "steps"}, [][]int64{{10, 3}, {37, 2}, {101, 5}}, [][]string{{}}, false, nil, "", nil},
	// Requests: irecvs posted before their sends and completed by a
	// waitall, MPI_Testany and MPI_Testsome (index, outcount, indices,
	// MPI_UNDEFINED), MPI_Test polled, waits guarded by
	// MPI_REQUEST_NULL, a work list over what arrived.
	{"requests.c", []string{"n", "ntask"}, [][]int64{{100, 6}, {37, 2}, {1001, 9}}, nil, false, nil, "", nil},
	// Offsets from MPI_Exscan and MPI_Scan (MPI_SUM, MPI_MAX).
	{"prefix.c", []string{"n", "steps"}, [][]int64{{1000, 2}, {1003, 3}, {37, 1}}, nil, false, nil, "", nil},
	// Lengths learned from the messages: MPI_Probe, MPI_Iprobe and
	// MPI_Get_count, a receive's status.
	{"probes.c", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 3}, {101, 1}}, nil, false, nil, "", nil},
	// Counts exchanged by MPI_Alltoall lay out an MPI_Alltoallv.
	{"alltoallv.c", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 3}, {101, 1}}, nil, false, nil, "", nil},
	// Counts collected by MPI_Gather lay out an MPI_Gatherv at the
	// root; shares scattered back.
	{"gathercounts.c", []string{"n", "steps"}, [][]int64{{10, 2}, {37, 3}, {101, 1}}, nil, false, nil, "", nil},
	// Keys drawn into malloc'd and calloc'd arrays (a wrapper returns
	// the pointer), counted into buckets through a pointer one element
	// in; loops over the buckets' counts, the ranks' own and their sum.
	{"heapkeys.c", []string{"n", "steps"}, [][]int64{{1000, 3}, {37, 2}, {5003, 1}}, nil, false, nil, "", nil},
	// A binary search tree and a linked list each rank builds on the heap
	// from keys it draws (shares of n that differ by rank), walked for
	// the list's length, a message's count.
	{"heaplist.c", []string{"n", "steps"}, [][]int64{{40, 2}, {37, 3}, {101, 2}}, nil, false, nil, "", nil},
	// Cells dealt to the ranks in strips, each rank walking the whole
	// grid: the cells it owns go into a sorted list (a search that
	// breaks out, then a shift), the ranks owning neighbours into a list
	// of partners; a neighbour is read only where a test before it in
	// && says it exists.
	{"owned.c", []string{"nx", "ny", "steps"}, [][]int64{{8, 8, 3}, {5, 9, 2}, {7, 13, 1}}, nil, false, nil, "", nil},
	// A base class at byte 8 (after a one-byte comparator, as in
	// std::map's implementation) holding the count a loop and a message
	// are sized by.
	// Sizes every P = 1..4 divides: a C loop whose trips differ by rank
	// and whose body makes no heap object is not run rank by rank, and
	// the count it leaves is asked (TestBaseAtOffsetE2E).
	{"basepart.cpp", []string{"n", "steps"}, [][]int64{{12, 2}, {36, 3}, {24, 2}}, [][]string{{}}, false, nil, "", nil},
	// Settings and results in fields of structures, nested ones too.
	{"structkeys.c", []string{"n", "nb"}, [][]int64{{1000, 3}, {37, 2}, {5003, 4}}, [][]string{{}}, false, nil, "", nil},
	// A global table of structures filled through a pointer to each.
	{"cells.c", []string{"n"}, [][]int64{{1000}, {37}, {5003}}, [][]string{{}}, false, nil, "", nil},
	// An array of structures malloc'd, filled and read through pointers
	// to its elements, a counter no trip of some ranks steps.
	{"heapblocks.c", []string{"n"}, [][]int64{{1000}, {37}, {5003}}, [][]string{{}}, false, nil, "", nil},
	// A sparse matrix in a structure on the heap whose fields point at
	// arrays allocated after it, handed back through pointers to
	// pointers; rows read back through an array of row pointers, in
	// loops whose bound is a field read on every trip.
	{"sparserows.c", []string{"n", "steps"}, [][]int64{{1000, 3}, {37, 3}, {5003, 2}}, [][]string{{}}, false, nil, "", nil},
	{"rowtable.c", []string{"n", "steps"}, [][]int64{{5000, 2}, {37, 3}, {3001, 1}}, [][]string{{}}, false, nil, "", nil},
	// Arrays by aligned_alloc, posix_memalign and as a VLA.
	{"aligned.c", []string{"n"}, [][]int64{{1000}, {37}, {5003}}, nil, false, nil, "", nil},
	{"optloop.c", nil, [][]int64{{}}, nil, false, nil, "", nil},
	{"optloop.c", []string{"n", "steps"}, [][]int64{{37, 3}, {10, 2}}, [][]string{{}}, false, []string{"-n %d", "-s %d"}, "", nil},
	{"optloop.c", []string{"steps", "n"}, [][]int64{{2, 101}}, [][]string{{}}, false, []string{"-s %d", "-n %d"}, "", nil},
	// CSR arrays in a structure variable's pointer fields (A.rowptr[i]).
	{"structrows.c", []string{"m", "iters"}, [][]int64{{40, 60}, {37, 41}, {61, 7}}, [][]string{{}}, false, nil, "", nil},
	{"csrfields.c", []string{"m", "iters"}, [][]int64{{40, 60}, {37, 41}, {61, 7}}, [][]string{{}}, false, nil, "", nil},
	// A buffer malloc'd by a count that differs by rank, packed by a cursor.
	{"rankalloc.c", []string{"n", "steps"}, [][]int64{{2000, 3}, {301, 2}, {5003, 1}}, [][]string{{}}, false, nil, "", nil},
	// An int counter and a double vector of one name (C's scopes).
	{"shadowed.c", []string{"n", "steps"}, [][]int64{{2000, 3}, {301, 2}, {5003, 1}}, [][]string{{}}, false, nil, "", nil},
	{"getopts.c", []string{"n", "m", "iters"}, [][]int64{{9, 7, 2}, {30, 17, 3}}, [][]string{{}, {"-v"}, {"2", "-v"}, {"-v", "1"}}, false,
		[]string{"-n %d", "-m%d", "-i %d"}, "", nil},
}

// TestCCountsMatchStaticE2E compiles each C test program through the
// frontend (clang-14, opt-14, llir), instruments its IR, builds it with
// clang-14 against Open MPI and runs it at P = 1, 2, 4 and three sizes
// (e2e.OracleProcs: the first at every P):
// every rank's measured counters (routine calls, loop entries and
// iterations, MPI calls, messages and bytes sent and received) must equal
// the static per-rank counts of model/cost at that point exactly.
func TestCCountsMatchStaticE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc", "mpirun")
	for _, tc := range cCases {
		t.Run(strings.TrimSuffix(tc.file, ".c"), func(t *testing.T) {
			// Two programs at a time (go test's -parallel is the
			// cores): clang, opt and mpirun starting up leave a core
			// idle, and counts do not depend on timing.
			t.Parallel()
			path := filepath.Join("..", "..", "testdata", "programs", tc.file)
			lf, diags := llvmir.Load([]string{path}, llvmir.Config{})
			for _, d := range diags {
				if d.Severity == apt.Error {
					t.Fatal(d)
				}
			}
			dir := t.TempDir()
			res, err := cinst.Instrument(lf, filepath.Join(dir, "copy"), cinst.Options{})
			if err != nil {
				t.Fatal(err)
			}
			// Structured code is written once: a node duplicated into two
			// arms would go uncounted (and means the merge was missed).
			for _, n := range res.Notes {
				t.Errorf("%s: %v", tc.file, n)
			}
			exe := filepath.Join(dir, "prog")
			build(t, res, exe)
			compared := 0
			modes := tc.modes
			if modes == nil {
				modes = [][]string{nil}
			}
			for mi, words := range modes {
				for si, size := range tc.sizes {
					ps := e2e.OracleProcs(si, []int{1, 2, 4})
					if mi > 0 {
						// A later way of writing the command line is
						// run at one size, in turn, on 4 processes.
						if si != mi%len(tc.sizes) {
							continue
						}
						ps = []int{4}
					}
					for _, p := range ps {
						values := map[string]int64{cost.Size: int64(p)}
						argv := slices.Clone(words)
						var stdin strings.Builder
						var env []string
						for i, name := range tc.args {
							if tc.modes == nil && !tc.stdin && tc.input == "" && tc.env == nil {
								values[name] = size[i]
							}
							switch {
							case tc.env != nil:
								if tc.env[i] != "" {
									env = append(env, fmt.Sprintf("%s=%d", tc.env[i], size[i]))
								}
							case tc.input != "":
							case tc.opts != nil:
								argv = append(argv, strings.Fields(fmt.Sprintf(tc.opts[i], size[i]))...)
							default:
								argv = append(argv, strconv.FormatInt(size[i], 10))
							}
							fmt.Fprintf(&stdin, "%d ", size[i])
						}
						opt := cost.Options{}
						if tc.modes != nil {
							opt.Args = argv
						}
						if env != nil {
							opt.Env = map[string]string{}
							for _, kv := range env {
								k, v, _ := strings.Cut(kv, "=")
								opt.Env[k] = v
							}
						}
						if tc.input != "" {
							text := stdin.String() + "\n"
							if tc.opts != nil {
								text = "# the sizes\n"
								for i := range tc.args {
									text += fmt.Sprintf(tc.opts[i], size[i]) + "\n"
								}
							}
							if err := os.WriteFile(filepath.Join(dir, tc.input), []byte(text), 0o644); err != nil {
								t.Fatal(err)
							}
							opt.Dir = dir
						}
						if tc.stdin {
							argv = nil
							if err := os.WriteFile(filepath.Join(dir, "stdin.txt"), []byte(stdin.String()), 0o644); err != nil {
								t.Fatal(err)
							}
							opt.Dir, opt.Stdin = dir, "stdin.txt"
						}
						rep, err := cost.AnalyzeAt(lf.Prog, opt, values)
						if err != nil {
							t.Fatal(err)
						}
						if missing := rep.MissingParams(values); len(missing) > 0 {
							t.Fatalf("%s %v: no value for %v", tc.file, argv, missing)
						}
						in := ""
						if tc.stdin {
							in = stdin.String()
						}
						recs, _ := runIn(t, exe, p, argv, filepath.Join(dir, fmt.Sprintf("run-%d-%d-%d", mi, si, p)), in, env)
						compared += compare(t, tc.file, rep, res, values, recs)
					}
				}
			}
			if compared == 0 {
				t.Fatal("nothing compared")
			}
			t.Logf("%s: %d per-rank counts equal the static ones", tc.file, compared)
		})
	}
}

func compare(t *testing.T, file string, rep *cost.Report, res *instrument.Result, values map[string]int64, recs []instrument.Record) int {
	t.Helper()
	p := int(values[cost.Size])
	byNode := map[string]map[int]instrument.Record{}
	for _, r := range recs {
		if r.Type != instrument.TypeNode {
			continue
		}
		if byNode[r.Node] == nil {
			byNode[r.Node] = map[int]instrument.Record{}
		}
		byNode[r.Node][r.Rank] = r
	}
	env := map[string]symbolic.Rat{}
	for k, v := range values {
		env[k] = symbolic.RatInt(v)
	}
	n := 0
	for _, pr := range res.Probes {
		node := rep.ByID[pr.Node]
		if node == nil {
			for rank, r := range byNode[pr.Node] {
				if r.Count > 0 {
					t.Errorf("%s %s rank %d at %v: ran %d times but the static report does not reach it", file, pr.Node, rank, values, r.Count)
				}
			}
			continue
		}
		if !node.Exact {
			t.Errorf("%s %s at %v: the static count is not exact", file, pr.Node, values)
			continue
		}
		type q struct {
			name     string
			pw       symbolic.Piecewise
			measured func(instrument.Record) int64
		}
		qs := []q{{"count", node.Count, func(r instrument.Record) int64 { return r.Count }}}
		if pr.Iters {
			qs = append(qs, q{"iterations", node.Iterations, func(r instrument.Record) int64 { return r.Iters }})
		}
		// The runtime records no v-variant's blocks but allgatherv's
		// (msgArgs), as the Fortran one (hasMsgProbe).
		vBlocks := false
		if cc, ok := node.Node.(*apt.Comm); ok {
			for _, m := range []*apt.Msg{cc.Send, cc.Recv} {
				vBlocks = vBlocks || m != nil && m.Displs != nil && cc.Op != apt.MPIAllgatherv
			}
		}
		if c := node.Comm; c != nil && !vBlocks && pr.Op != "init" && pr.Op != "finalize" && pr.Op != "barrier" &&
			pr.Op != "comm_rank" && pr.Op != "comm_size" {
			qs = append(qs,
				q{"messages sent", c.Messages, func(r instrument.Record) int64 { return r.Msgs }},
				q{"bytes sent", c.BytesSent, func(r instrument.Record) int64 { return r.Bytes }},
				q{"messages received", c.Received, func(r instrument.Record) int64 { return r.RecvMsgs }},
				q{"bytes received", c.BytesReceived, func(r instrument.Record) int64 { return r.RecvBytes }})
		}
		for _, x := range qs {
			for rank := 0; rank < p; rank++ {
				env[cost.Rank] = symbolic.RatInt(int64(rank))
				v, err := x.pw.Eval(env)
				if err != nil {
					t.Errorf("%s %s: evaluating the static %s at %v rank %d: %v", file, pr.Node, x.name, values, rank, err)
					continue
				}
				want, ok := v.Int64()
				got := x.measured(byNode[pr.Node][rank])
				if ok && v.IsInt() && want == got {
					n++
					continue
				}
				t.Errorf("%s %s (%s) %s at %v rank %d: static %s = %s, measured %d", file, pr.Node, pr.Pos, x.name, values, rank, x.pw, v, got)
			}
		}
	}
	return n
}

// TestNoDifferenceOfTwoStorages analyses a vector of vectors whose length
// differs by rank (faces.cpp): where the evaluation loses which storage a
// vector's start and end are in, its size is asked, never the difference
// of two storages' addresses (a message of -2^40 bytes, printed before).
func TestNoDifferenceOfTwoStoragesE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	env := map[string]int64{cost.Size: 4}
	rep := analyzeProgramAt(t, "faces.cpp", env, "10", "2")
	pt, err := rep.AtKnown(env)
	if err != nil {
		t.Fatal(err)
	}
	for n, v := range pt.Nodes {
		for _, b := range append(v.BytesSent.PerRank, v.Count.PerRank...) {
			if b < 0 {
				t.Errorf("%s: a negative figure %v at P=4", n.Node.Base().ID, b)
			}
		}
	}
	for _, n := range rep.Nodes {
		if n.Comm == nil || n.Comm.MsgBytes == nil {
			continue
		}
		// A message's size is its count of elements times their size:
		// an address difference would be a constant of 2^40 or more.
		if c, ok := n.Comm.MsgBytes.Int64(); ok && (c < 0 || c >= 1<<40) {
			t.Errorf("%s: a message of %d bytes", n.Node.Base().ID, c)
		}
	}
}

// TestReceiveIntoUnnamedElementE2E: vecrecv.cpp receives into &got[p] of
// a std::vector in a loop the evaluation walks symbolically, where it
// cannot name the element written. The loop over what arrived (on rank 0
// the run makes 3n + 6 = 21 trips at P = 4, n = 5) must rest on a value
// asked for;
// before, the receive left the vector's zeros and the loop was counted,
// as exact, at 0 trips.
func TestReceiveIntoUnnamedElementE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	rep := analyzeProgramAt(t, "vecrecv.cpp", map[string]int64{cost.Size: 4}, "5")
	found := false
	for _, n := range rep.Nodes {
		l, ok := n.Node.(*apt.Loop)
		if !ok || l.Span.Start().Line != 37 {
			continue
		}
		found = true
		if v, err := n.Iterations.Eval(map[string]symbolic.Rat{cost.Size: symbolic.RatInt(4), cost.Rank: symbolic.RatInt(0)}); err == nil && n.Exact {
			t.Errorf("the loop over what arrived is counted as exact: %v trips on rank 0 (the run makes 21)", v)
		}
	}
	if !found {
		t.Fatal("no loop at vecrecv.cpp:37")
	}
}

// analyzeProgramAt lifts a test program of testdata/programs and analyses
// it at the values env gives, its command line args.
func analyzeProgramAt(t *testing.T, file string, env map[string]int64, args ...string) *cost.Report {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "programs", file)
	lf, diags := llvmir.Load([]string{path}, llvmir.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	rep, err := cost.AnalyzeAt(lf.Prog, cost.Options{Args: args}, env)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
