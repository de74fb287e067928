// Package membench measures a node's memory hierarchy for mkvet's memory
// model: the cache levels (from the kernel's processor tree, or, where it
// has none, from the latency of a random walk over growing working sets)
// and, at a working set inside each level and one beyond the last, the time
// to move data the ways loops walk memory: streaming (a triad), strided
// (one element per line, more than a page apart, every access a page the
// TLB does not hold), walked (a stride across a few dozen planes the TLB
// holds, then their next lines) and gathered (one element per line in a
// random order), and the first write of memory fresh from the kernel
// (page faults). Each is measured with one process and with
// one process per processor at once, as a program that fills the node
// runs. The kernels are C (csrc/membench.c), built with the user's compiler so
// that they run as compiled code does.
package membench
