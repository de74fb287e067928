// Package cost joins symbolic evaluation and exact counting into a costed APT:
// for every node of a program, how often each rank executes it, its work in
// operation units and, for MPI calls, its messages and data volume, as closed
// forms in the problem sizes, P and the rank.
//
// Counts come from the counting engine over the iteration domains symbolic
// evaluation derives (loop bounds, path conditions on the rank and on loop
// variables, values bound through calls), so branch frequencies follow from
// counts rather than traces wherever a condition is analysable (SCALA, seed
// 001 §3). Work composes as MK's table in seed 000 §4: a routine is the sum of
// its children, an IF its branches weighted by how often each is taken, a LOOP
// its body times the trip count, a CALL the callee's work with the actual
// arguments bound. Communication time is left to the machine models (package
// model); this package reports messages and bytes.
package cost
