// Package roofline adds the memory term to the static cost of loop nests
// (issue 47): each innermost loop's streams of array data (symeval.Access:
// contiguous, strided or indirect, and the working set each finds its data
// in) are priced on a machine's memory hierarchy (model.Memory: the time to
// stream a byte, or to make a strided or gathered access, from each level),
// and an iteration takes the larger of its computation and its data
// transfer, in the manner of the roofline model (Williams, Waterman,
// Patterson, CACM 52(4), 2009) and of the ECM model's overlapping case
// (Treibig and Hager, 2010): the time a loop waits for memory beyond its
// computation is its stall. The stalls, in work units, add to the work of
// the nests around them, so that nests are ranked by their predicted time
// rather than by their operations alone; at a point the levels follow
// from the working sets per rank, without one (the shares as the sizes
// grow) every growing working set is in main memory.
package roofline
