package apt

import (
	"strconv"
	"strings"
)

// CommOp is an MPI operation.
type CommOp int

// MPI operations recognised by the frontends. The names are the MPI ones without
// the MPI_ prefix.
const (
	MPIInit            CommOp = iota + 1 // init
	MPIFinalize                          // finalize
	MPICommRank                          // comm_rank
	MPICommSize                          // comm_size
	MPISend                              // send
	MPIRecv                              // recv
	MPIIsend                             // isend
	MPIIrecv                             // irecv
	MPISsend                             // ssend
	MPIBsend                             // bsend
	MPIRsend                             // rsend
	MPIIssend                            // issend
	MPISendrecv                          // sendrecv
	MPISendrecvReplace                   // sendrecv_replace
	MPIWait                              // wait
	MPIWaitall                           // waitall
	MPIWaitany                           // waitany
	MPIBcast                             // bcast
	MPIReduce                            // reduce
	MPIAllreduce                         // allreduce
	MPIBarrier                           // barrier
	MPIGather                            // gather
	MPIGatherv                           // gatherv
	MPIScatter                           // scatter
	MPIScatterv                          // scatterv
	MPIAllgather                         // allgather
	MPIAllgatherv                        // allgatherv
	MPIAlltoall                          // alltoall
	MPIAlltoallv                         // alltoallv
	MPIAbort                             // abort
	MPIWaitsome                          // waitsome
	MPITest                              // test
	MPITestall                           // testall
	MPITestany                           // testany
	MPITestsome                          // testsome
	MPIScan                              // scan
	MPIExscan                            // exscan
	MPIProbe                             // probe
	MPIIprobe                            // iprobe
)

var commOpNames = [...]string{
	MPIInit: "init", MPIFinalize: "finalize", MPICommRank: "comm_rank", MPICommSize: "comm_size",
	MPISend: "send", MPIRecv: "recv", MPIIsend: "isend", MPIIrecv: "irecv", MPISsend: "ssend",
	MPIBsend: "bsend", MPIRsend: "rsend", MPIIssend: "issend", MPISendrecv: "sendrecv",
	MPISendrecvReplace: "sendrecv_replace", MPIWait: "wait", MPIWaitall: "waitall",
	MPIWaitany: "waitany", MPIBcast: "bcast", MPIReduce: "reduce", MPIAllreduce: "allreduce",
	MPIBarrier: "barrier", MPIGather: "gather", MPIGatherv: "gatherv", MPIScatter: "scatter",
	MPIScatterv: "scatterv", MPIAllgather: "allgather", MPIAllgatherv: "allgatherv",
	MPIAlltoall: "alltoall", MPIAlltoallv: "alltoallv", MPIAbort: "abort",
	MPIWaitsome: "waitsome", MPITest: "test", MPITestall: "testall", MPITestany: "testany",
	MPITestsome: "testsome", MPIScan: "scan", MPIExscan: "exscan",
	MPIProbe: "probe", MPIIprobe: "iprobe",
}

// String returns the lower-case MPI name of o without the MPI_ prefix.
func (o CommOp) String() string {
	if o > 0 && int(o) < len(commOpNames) {
		return commOpNames[o]
	}
	return "CommOp(" + strconv.Itoa(int(o)) + ")"
}

// MarshalText encodes o by name.
func (o CommOp) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// LookupCommOp returns the operation for an MPI routine name such as "MPI_Isend"
// or "mpi_allreduce" (case-insensitive), or 0.
func LookupCommOp(name string) CommOp {
	n := strings.ToLower(name)
	if !strings.HasPrefix(n, "mpi_") {
		return 0
	}
	n = n[4:]
	if n == "init_thread" {
		// MPI_INIT with a thread level: the same start of the run
		// (symeval sets the level provided).
		return MPIInit
	}
	for i, s := range commOpNames {
		if s == n && i > 0 {
			return CommOp(i)
		}
	}
	return 0
}

// LookupImmediate returns the blocking collective of a nonblocking one's
// name ("MPI_Iallreduce" is MPIAllreduce), or 0.
func LookupImmediate(name string) CommOp {
	n := strings.ToLower(name)
	if !strings.HasPrefix(n, "mpi_i") {
		return 0
	}
	if op := LookupCommOp("mpi_" + n[len("mpi_i"):]); op.IsCollective() {
		return op
	}
	return 0
}

// IsCollective reports whether every rank of the communicator takes part in o.
func (o CommOp) IsCollective() bool {
	switch o {
	case MPIBcast, MPIReduce, MPIAllreduce, MPIBarrier, MPIGather, MPIGatherv, MPIScatter,
		MPIScatterv, MPIAllgather, MPIAllgatherv, MPIAlltoall, MPIAlltoallv, MPIScan, MPIExscan:
		return true
	}
	return false
}

// IsBlocking reports whether o returns only when its buffers may be reused.
// Nonblocking operations (isend, irecv, issend) complete in a wait.
func (o CommOp) IsBlocking() bool {
	switch o {
	case MPIIsend, MPIIrecv, MPIIssend:
		return false
	}
	return true
}

// Completes reports whether o completes nonblocking operations: the waits
// and the tests (a test is taken to find its requests complete).
func (o CommOp) Completes() bool {
	switch o {
	case MPIWait, MPIWaitall, MPIWaitany, MPIWaitsome, MPITest, MPITestall, MPITestany, MPITestsome:
		return true
	}
	return false
}

// Msg is one side of a point-to-point or collective transfer: Count elements of
// Datatype at Buffer, to or from Peer with Tag. For the v-variants Count is the
// counts array and Displs the displacements.
type Msg struct {
	Buffer   Expr `json:"buffer,omitempty"`
	Count    Expr `json:"count,omitempty"`
	Displs   Expr `json:"displs,omitempty"`
	Datatype Expr `json:"datatype,omitempty"`
	// TypeName is the datatype's MPI name when Datatype names a predefined one
	// (lower case, "mpi_double_precision"); TypeSize is its size in bytes, 0 when
	// not known statically (a derived or variable datatype).
	TypeName string `json:"type_name,omitempty"`
	TypeSize int    `json:"type_size,omitempty"`
	// Peer is the destination (send side) or source (receive side) rank.
	Peer Expr `json:"peer,omitempty"`
	Tag  Expr `json:"tag,omitempty"`
}

// Comm is MK's COMMN node: one MPI call. Send describes the data sent (the
// buffer of a send, the send side of sendrecv, the input of a collective) and
// Recv the data received; a Bcast has Send only (its buffer is sent by Root and
// received elsewhere).
type Comm struct {
	NodeBase
	Op   CommOp `json:"op"`
	Send *Msg   `json:"send,omitempty"`
	Recv *Msg   `json:"recv,omitempty"`
	// Root is the root rank of a rooted collective.
	Root Expr `json:"root,omitempty"`
	// Reduce is the reduction operation of (all)reduce, e.g. the Name mpi_sum.
	Reduce   Expr `json:"reduce,omitempty"`
	Comm     Expr `json:"comm,omitempty"`
	Blocking bool `json:"blocking"`
	// Immediate marks the nonblocking form of a collective (MPI_Iallreduce
	// is Op MPIAllreduce, Immediate, its Request set).
	Immediate bool `json:"immediate,omitempty"`
	// Request is the request handle of a nonblocking operation, wait or
	// test; for the -all, -any and -some forms it is the request array and
	// Count the number.
	Request Expr `json:"request,omitempty"`
	Count   Expr `json:"count,omitempty"`
	Status  Expr `json:"status,omitempty"`
	// Result is the output of comm_rank / comm_size (the rank or size
	// variable), the index of waitany and testany, the outcount of
	// waitsome and testsome.
	Result Expr `json:"result,omitempty"`
	// Flag is the logical a test or iprobe sets; Indices the array of
	// indices waitsome and testsome fill.
	Flag    Expr `json:"flag,omitempty"`
	Indices Expr `json:"indices,omitempty"`
	// Probe is the envelope (source and tag) a probe asks for: no
	// message moves.
	Probe *Msg `json:"probe,omitempty"`
	// Args are the actual arguments as written.
	Args []Expr `json:"args"`
}

// mpiTypeSizes are the sizes in bytes of the predefined MPI datatypes (Fortran
// and C names) on LP64 platforms with default 4-byte Fortran INTEGER and REAL.
var mpiTypeSizes = map[string]int{
	"mpi_double_precision": 8, "mpi_real": 4, "mpi_integer": 4, "mpi_logical": 4,
	"mpi_complex": 8, "mpi_double_complex": 16, "mpi_character": 1, "mpi_byte": 1,
	"mpi_packed": 1, "mpi_real4": 4, "mpi_real8": 8, "mpi_real16": 16, "mpi_integer1": 1,
	"mpi_integer2": 2, "mpi_integer4": 4, "mpi_integer8": 8, "mpi_complex8": 8,
	"mpi_complex16": 16, "mpi_complex32": 32, "mpi_2real": 8, "mpi_2double_precision": 16,
	"mpi_2integer": 8, "mpi_double": 8, "mpi_float": 4, "mpi_int": 4, "mpi_long": 8,
	"mpi_char": 1, "mpi_short": 2, "mpi_unsigned": 4, "mpi_long_long": 8,
	"mpi_long_double": 16, "mpi_unsigned_char": 1, "mpi_unsigned_long": 8,
	"mpi_long_long_int": 8, "mpi_signed_char": 1, "mpi_c_bool": 1,
}

// MPITypeSize returns the size in bytes of the predefined MPI datatype name
// (case-insensitive, e.g. "MPI_DOUBLE_PRECISION" is 8), and whether it is one.
func MPITypeSize(name string) (int, bool) {
	n, ok := mpiTypeSizes[strings.ToLower(name)]
	return n, ok
}

// MPITypeSizes returns a copy of the table of predefined MPI datatypes (lower
// case) and their sizes in bytes.
func MPITypeSizes() map[string]int {
	out := make(map[string]int, len(mpiTypeSizes))
	for k, v := range mpiTypeSizes {
		out[k] = v
	}
	return out
}
