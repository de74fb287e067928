package fortran

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// comm builds a Comm node from an MPI call's actual arguments, following the
// Fortran bindings of MPI-3 (mpif.h and the mpi module share the argument
// order; the trailing ierror is not kept). Missing arguments leave fields nil
// and produce a warning rather than an Unknown: the operation itself is known.
func (b *builder) comm(s *stmt, op apt.CommOp, args []apt.Expr) *apt.Comm {
	n := &apt.Comm{NodeBase: base(s), Op: op, Args: args, Blocking: op.IsBlocking()}
	// Keyword arguments (mpi module style) are matched by position of the
	// remaining positional ones; keep their values positionally too.
	a := make([]apt.Expr, len(args))
	for i, x := range args {
		if kw, ok := x.(*apt.Keyword); ok {
			a[i] = kw.Value
		} else {
			a[i] = x
		}
	}
	need := 0
	arg := func(i int) apt.Expr {
		if i+1 > need {
			need = i + 1
		}
		if i < len(a) {
			return a[i]
		}
		return nil
	}
	msg := func(buf, count, dtype int) *apt.Msg {
		m := &apt.Msg{Buffer: arg(buf), Count: arg(count), Datatype: arg(dtype)}
		setTypeSize(m)
		return m
	}
	switch op {
	case apt.MPIInit, apt.MPIFinalize:
	case apt.MPICommRank, apt.MPICommSize:
		n.Comm, n.Result = arg(0), arg(1)
	case apt.MPISend, apt.MPISsend, apt.MPIBsend, apt.MPIRsend:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag, n.Comm = arg(3), arg(4), arg(5)
	case apt.MPIIsend, apt.MPIIssend:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag, n.Comm, n.Request = arg(3), arg(4), arg(5), arg(6)
	case apt.MPIRecv:
		n.Recv = msg(0, 1, 2)
		n.Recv.Peer, n.Recv.Tag, n.Comm, n.Status = arg(3), arg(4), arg(5), arg(6)
	case apt.MPIIrecv:
		n.Recv = msg(0, 1, 2)
		n.Recv.Peer, n.Recv.Tag, n.Comm, n.Request = arg(3), arg(4), arg(5), arg(6)
	case apt.MPISendrecv:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag = arg(3), arg(4)
		n.Recv = msg(5, 6, 7)
		n.Recv.Peer, n.Recv.Tag = arg(8), arg(9)
		n.Comm, n.Status = arg(10), arg(11)
	case apt.MPISendrecvReplace:
		n.Send = msg(0, 1, 2)
		n.Send.Peer, n.Send.Tag = arg(3), arg(4)
		n.Recv = msg(0, 1, 2)
		n.Recv.Peer, n.Recv.Tag = arg(5), arg(6)
		n.Comm, n.Status = arg(7), arg(8)
	case apt.MPIWait:
		n.Request, n.Status = arg(0), arg(1)
	case apt.MPIWaitall:
		n.Count, n.Request, n.Status = arg(0), arg(1), arg(2)
	case apt.MPIWaitany:
		n.Count, n.Request, n.Result, n.Status = arg(0), arg(1), arg(2), arg(3)
	case apt.MPIBcast:
		n.Send = msg(0, 1, 2)
		n.Root, n.Comm = arg(3), arg(4)
	case apt.MPIReduce:
		n.Send = msg(0, 2, 3)
		n.Recv = msg(1, 2, 3)
		n.Reduce, n.Root, n.Comm = arg(4), arg(5), arg(6)
	case apt.MPIAllreduce:
		n.Send = msg(0, 2, 3)
		n.Recv = msg(1, 2, 3)
		n.Reduce, n.Comm = arg(4), arg(5)
	case apt.MPIBarrier:
		n.Comm = arg(0)
	case apt.MPIGather, apt.MPIScatter:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 5)
		n.Root, n.Comm = arg(6), arg(7)
	case apt.MPIGatherv:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 6)
		n.Recv.Displs = arg(5)
		n.Root, n.Comm = arg(7), arg(8)
	case apt.MPIScatterv:
		n.Send = msg(0, 1, 3)
		n.Send.Displs = arg(2)
		n.Recv = msg(4, 5, 6)
		n.Root, n.Comm = arg(7), arg(8)
	case apt.MPIAllgather, apt.MPIAlltoall:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 5)
		n.Comm = arg(6)
	case apt.MPIAllgatherv:
		n.Send = msg(0, 1, 2)
		n.Recv = msg(3, 4, 6)
		n.Recv.Displs = arg(5)
		n.Comm = arg(7)
	case apt.MPIAlltoallv:
		n.Send = msg(0, 1, 3)
		n.Send.Displs = arg(2)
		n.Recv = msg(4, 5, 7)
		n.Recv.Displs = arg(6)
		n.Comm = arg(8)
	case apt.MPIAbort:
		n.Comm, n.Result = arg(0), arg(1)
	}
	if len(args) < need {
		b.fe.diag(s.posAt(0), apt.Warning, "mpi_"+op.String()+" has "+strconv.Itoa(len(args))+" arguments, expected at least "+strconv.Itoa(need))
	}
	return n
}

// setTypeSize fills TypeName and TypeSize when the datatype is a predefined one.
func setTypeSize(m *apt.Msg) {
	if nm, ok := m.Datatype.(*apt.Name); ok {
		if size, ok := apt.MPITypeSize(nm.Name); ok {
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
}

var mpiHandles = []string{
	"mpi_request_null", "mpi_status_ignore", "mpi_statuses_ignore", "mpi_in_place", "mpi_bottom",
	"mpi_sum", "mpi_max", "mpi_min", "mpi_prod", "mpi_land", "mpi_lor", "mpi_lxor", "mpi_band",
	"mpi_bor", "mpi_bxor", "mpi_maxloc", "mpi_minloc", "mpi_op_null", "mpi_datatype_null",
	"mpi_info_null", "mpi_errors_are_fatal", "mpi_errors_return", "mpi_thread_single",
	"mpi_thread_funneled", "mpi_thread_serialized", "mpi_thread_multiple", "mpi_group_null",
}

// predefineMPI makes the MPI named constants, datatypes and functions visible
// in the current scope, as include 'mpif.h' or use mpi would. They live in one
// synthetic module "mpi" (its variables marked Predefined) that the scope USEs,
// so that a program of many routines does not copy them into every scope.
func (b *builder) predefineMPI(from string) {
	sc := b.u.r.Scope
	for _, u := range sc.Uses {
		if u.Module == "mpi" {
			u.Resolved = true
			return
		}
	}
	via := ""
	if from == "mpif.h" {
		via = from
	}
	sc.Uses = append(sc.Uses, &apt.Use{Module: "mpi", Resolved: true, Via: via})
	b.fe.needMPI = true
}

// mpiModule builds the synthetic module holding the MPI symbols.
func mpiModule() *apt.Routine {
	sc := &apt.Scope{}
	add := func(v *apt.Var) {
		v.Predefined = "mpi"
		sc.Add(v)
	}
	integer := apt.Type{Base: apt.TypeInteger, Kind: 4}
	for _, c := range mpiConstants {
		var val apt.Expr = &apt.Const{Kind: apt.ConstInt, Text: strings.TrimPrefix(c.value, "-"), Type: integer}
		if strings.HasPrefix(c.value, "-") {
			val = &apt.Unary{Op: apt.OpNeg, X: val}
		}
		add(&apt.Var{Name: c.name, Type: integer, Param: val})
	}
	for _, h := range mpiHandles {
		add(&apt.Var{Name: h, Type: integer})
	}
	for _, name := range slices.Sorted(maps.Keys(apt.MPITypeSizes())) {
		add(&apt.Var{Name: name, Type: integer})
	}
	dbl := apt.Type{Base: apt.TypeReal, Kind: 8}
	add(&apt.Var{Name: "mpi_wtime", Type: dbl, External: true})
	add(&apt.Var{Name: "mpi_wtick", Type: dbl, External: true})
	return &apt.Routine{Name: "mpi", Kind: apt.KindModule, Scope: sc}
}
