package fortran

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// comm builds a Comm node from an MPI call's actual arguments (Fortran
// bindings of MPI-3: mpif.h and the mpi module share the argument order, the
// trailing ierror is not kept). Keyword arguments (mpi module style) are
// matched by position. Missing arguments leave fields nil and produce a
// warning rather than an Unknown: the operation itself is known.
func (b *builder) comm(s *stmt, op apt.CommOp, immediate bool, args []apt.Expr) *apt.Comm {
	a := make([]apt.Expr, len(args))
	for i, x := range args {
		if kw, ok := x.(*apt.Keyword); ok {
			a[i] = kw.Value
		} else {
			a[i] = x
		}
	}
	n, need := apt.NewComm(op, a)
	name := "mpi_" + op.String()
	if immediate {
		n, need = apt.NewImmediateComm(op, a)
		name = "mpi_i" + op.String()
	}
	n.NodeBase, n.Args = base(s), args
	if len(args) < need {
		b.fe.diag(s.posAt(0), apt.Warning, name+" has "+strconv.Itoa(len(args))+" arguments, expected at least "+strconv.Itoa(need))
	}
	return n
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
	if from == "mpif.h" || from == "mpi_f08" {
		via = from // (mpi_f08's handles are derived types wrapping the integers)
	}
	sc.AddUse(&apt.Use{Module: "mpi", Resolved: true, Via: via})
	b.fe.needMPI = true
}
