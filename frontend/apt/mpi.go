package apt

import (
	"maps"
	"slices"
	"strings"
)

// NewComm builds the Comm node of an MPI call of operation op from its
// actual arguments in the order of the MPI bindings, which C and Fortran
// share (Fortran's trailing ierror is not kept, C has none). need is the
// number of arguments the operation reads: fields beyond len(a) stay nil,
// and a frontend reports the shortfall. Args is set to a; the frontend sets
// NodeBase (and may keep the arguments as written in Args).
func NewComm(op CommOp, a []Expr) (n *Comm, need int) {
	n = &Comm{Op: op, Args: a, Blocking: op.IsBlocking()}
	need = 0
	arg := func(i int) Expr {
		if i+1 > need {
			need = i + 1
		}
		if i < len(a) {
			return a[i]
		}
		return nil
	}
	msg := func(buf, count, dtype int) *Msg {
		m := &Msg{Buffer: arg(buf), Count: arg(count), Datatype: arg(dtype)}
		setTypeSize(m)
		return m
	}
	switch op {
	case MPIInit, MPIFinalize:
	case MPICommRank, MPICommSize:
		n.Comm, n.Result = arg(0), arg(1)
	case MPISend, MPISsend, MPIBsend, MPIRsend:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag, n.Comm = arg(3), arg(4), arg(5)
	case MPIIsend, MPIIssend:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag, n.Comm, n.Request = arg(3), arg(4), arg(5), arg(6)
	case MPIRecv:
		n.Recv = msg(0, 1, 2)
		n.Recv.Peer, n.Recv.Tag, n.Comm, n.Status = arg(3), arg(4), arg(5), arg(6)
	case MPIIrecv:
		n.Recv = msg(0, 1, 2)
		n.Recv.Peer, n.Recv.Tag, n.Comm, n.Request = arg(3), arg(4), arg(5), arg(6)
	case MPISendrecv:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag = arg(3), arg(4)
		n.Recv = msg(5, 6, 7)
		n.Recv.Peer, n.Recv.Tag = arg(8), arg(9)
		n.Comm, n.Status = arg(10), arg(11)
	case MPISendrecvReplace:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag = arg(3), arg(4)
		n.Recv = msg(0, 1, 2)
		n.Recv.Peer, n.Recv.Tag = arg(5), arg(6)
		n.Comm, n.Status = arg(7), arg(8)
	case MPIProbe:
		n.Probe = &Msg{Peer: arg(0), Tag: arg(1)}
		n.Comm, n.Status = arg(2), arg(3)
	case MPIIprobe:
		n.Probe = &Msg{Peer: arg(0), Tag: arg(1)}
		n.Comm, n.Flag, n.Status = arg(2), arg(3), arg(4)
	case MPIWait:
		n.Request, n.Status = arg(0), arg(1)
	case MPIWaitall:
		n.Count, n.Request, n.Status = arg(0), arg(1), arg(2)
	case MPIWaitany:
		n.Count, n.Request, n.Result, n.Status = arg(0), arg(1), arg(2), arg(3)
	case MPIWaitsome, MPITestsome:
		n.Count, n.Request, n.Result, n.Indices, n.Status = arg(0), arg(1), arg(2), arg(3), arg(4)
	case MPITest:
		n.Request, n.Flag, n.Status = arg(0), arg(1), arg(2)
	case MPITestall:
		n.Count, n.Request, n.Flag, n.Status = arg(0), arg(1), arg(2), arg(3)
	case MPITestany:
		n.Count, n.Request, n.Result, n.Flag, n.Status = arg(0), arg(1), arg(2), arg(3), arg(4)
	case MPIBcast:
		n.Send = msg(0, 1, 2)
		n.Root, n.Comm = arg(3), arg(4)
	case MPIReduce:
		n.Send = msg(0, 2, 3)
		n.Recv = msg(1, 2, 3)
		n.Reduce, n.Root, n.Comm = arg(4), arg(5), arg(6)
	case MPIAllreduce, MPIScan, MPIExscan:
		n.Send = msg(0, 2, 3)
		n.Recv = msg(1, 2, 3)
		n.Reduce, n.Comm = arg(4), arg(5)
	case MPIBarrier:
		n.Comm = arg(0)
	case MPIGather, MPIScatter:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 5)
		n.Root, n.Comm = arg(6), arg(7)
	case MPIGatherv:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 6)
		n.Recv.Displs = arg(5)
		n.Root, n.Comm = arg(7), arg(8)
	case MPIScatterv:
		n.Send = msg(0, 1, 3)
		n.Send.Displs = arg(2)
		n.Recv = msg(4, 5, 6)
		n.Root, n.Comm = arg(7), arg(8)
	case MPIAllgather, MPIAlltoall:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 5)
		n.Comm = arg(6)
	case MPIAllgatherv:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 6)
		n.Recv.Displs = arg(5)
		n.Comm = arg(7)
	case MPIAlltoallv:
		n.Send = msg(0, 1, 3)
		n.Send.Displs = arg(2)
		n.Recv = msg(4, 5, 7)
		n.Recv.Displs = arg(6)
		n.Comm = arg(8)
	case MPIAbort:
		n.Comm, n.Result = arg(0), arg(1)
	}
	return n, need
}

// NewImmediateComm builds the Comm node of a nonblocking collective
// (MPI_Iallreduce, MPI_Ibcast, ...) whose blocking form is op: that form's
// node, not blocking, its request the argument after the blocking form's
// (MPI-3.1 §5.12). Its transfers are the blocking form's, made at the
// call; the wait that completes its request orders nothing more.
func NewImmediateComm(op CommOp, a []Expr) (n *Comm, need int) {
	n, need = NewComm(op, a)
	n.Blocking, n.Immediate = false, true
	if need < len(a) {
		n.Request = a[need]
	}
	return n, need + 1
}

// setTypeSize fills TypeName and TypeSize when the datatype is a predefined one.
func setTypeSize(m *Msg) {
	if nm, ok := m.Datatype.(*Name); ok {
		if size, ok := MPITypeSize(nm.Name); ok {
			m.TypeName, m.TypeSize = nm.Name, size
		}
	}
}

// mpiConstants are the integer constants of mpif.h (and the mpi module) with
// Open MPI's values where a program may compute with them (status indices, the
// wildcard ranks); handles (communicators, datatypes, operations) only need to
// be known as names.
var mpiConstants = []struct {
	name  string
	value string
}{
	{"mpi_status_size", "6"}, {"mpi_source", "1"}, {"mpi_tag", "2"}, {"mpi_error", "3"},
	{"mpi_any_source", "-1"}, {"mpi_any_tag", "-1"}, {"mpi_proc_null", "-2"}, {"mpi_success", "0"},
	{"mpi_max_processor_name", "255"}, {"mpi_undefined", "-32766"}, {"mpi_root", "-4"},
	{"mpi_comm_world", "0"}, {"mpi_comm_self", "1"}, {"mpi_comm_null", "2"},
	{"mpi_bsend_overhead", "128"}, {"mpi_version", "3"}, {"mpi_subversion", "1"},
	{"mpi_max_error_string", "255"}, {"mpi_address_kind", "8"}, {"mpi_offset_kind", "8"},
	{"mpi_order_c", "0"}, {"mpi_order_fortran", "1"}, {"mpi_distribute_block", "0"},
	{"mpi_distribute_cyclic", "1"}, {"mpi_distribute_none", "2"}, {"mpi_distribute_dflt_darg", "-1"},
}

var mpiHandles = []string{
	"mpi_request_null", "mpi_status_ignore", "mpi_statuses_ignore", "mpi_in_place", "mpi_bottom",
	"mpi_sum", "mpi_max", "mpi_min", "mpi_prod", "mpi_land", "mpi_lor", "mpi_lxor", "mpi_band",
	"mpi_bor", "mpi_bxor", "mpi_maxloc", "mpi_minloc", "mpi_op_null", "mpi_datatype_null",
	"mpi_info_null", "mpi_errors_are_fatal", "mpi_errors_return", "mpi_thread_single",
	"mpi_thread_funneled", "mpi_thread_serialized", "mpi_thread_multiple", "mpi_group_null",
}

// MPIModule builds the synthetic module "mpi" holding the MPI symbols that
// include 'mpif.h', use mpi or #include <mpi.h> make visible: the named
// constants with Open MPI's values, the handles by name, and the predefined
// datatypes. Every variable is marked Predefined "mpi".
func MPIModule() *Routine {
	sc := &Scope{}
	add := func(v *Var) {
		v.Predefined = "mpi"
		sc.Add(v)
	}
	integer := Type{Base: TypeInteger, Kind: 4}
	for _, c := range mpiConstants {
		var val Expr = &Const{Kind: ConstInt, Text: strings.TrimPrefix(c.value, "-"), Type: integer}
		if strings.HasPrefix(c.value, "-") {
			val = &Unary{Op: OpNeg, X: val}
		}
		add(&Var{Name: c.name, Type: integer, Param: val})
	}
	for _, h := range mpiHandles {
		add(&Var{Name: h, Type: integer})
	}
	for _, name := range slices.Sorted(maps.Keys(MPITypeSizes())) {
		add(&Var{Name: name, Type: integer})
	}
	dbl := Type{Base: TypeReal, Kind: 8}
	add(&Var{Name: "mpi_wtime", Type: dbl, External: true})
	add(&Var{Name: "mpi_wtick", Type: dbl, External: true})
	return &Routine{Name: "mpi", Kind: KindModule, Scope: sc}
}

// RootedBlock returns, for a gatherv or scatterv whose buffers are both the
// program's (no MPI_IN_PLACE), the side with a count per process (the
// root's receive, the root's send) and the other side, whose count is the
// calling process's own block of it: MPI requires recvcounts(i) at a
// gatherv's root to carry what process i sends, and a scatterv's
// sendcounts(i) what process i receives. Nil for other calls.
func (c *Comm) RootedBlock() (vSide, other *Msg) {
	if c.Send == nil || c.Recv == nil || inPlace(c.Send.Buffer) || inPlace(c.Recv.Buffer) {
		return nil, nil
	}
	switch c.Op {
	case MPIGatherv:
		return c.Recv, c.Send
	case MPIScatterv:
		return c.Send, c.Recv
	}
	return nil, nil
}

func inPlace(e Expr) bool {
	nm, ok := e.(*Name)
	return ok && nm.Name == "mpi_in_place"
}
