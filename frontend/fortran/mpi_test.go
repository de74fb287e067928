package fortran

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// TestCommFields checks, for every MPI operation, which actual argument lands
// in which Comm field. Arguments are named after their role so that a
// misplaced one shows in the printed node.
func TestCommFields(t *testing.T) {
	for _, tc := range []struct{ call, want string }{
		{"mpi_init(ierr)", "comm init blocking=true"},
		{"mpi_finalize(ierr)", "comm finalize blocking=true"},
		{"mpi_comm_rank(comm, rank, ierr)", "comm comm_rank blocking=true comm=comm result=rank"},
		{"mpi_comm_size(comm, size, ierr)", "comm comm_size blocking=true comm=comm result=size"},
		{"mpi_send(buf, cnt, MPI_REAL, dest, tag, comm, ierr)", "comm send blocking=true send{buf=buf count=cnt type=mpi_real(4B) peer=dest tag=tag} comm=comm"},
		{"mpi_ssend(buf, cnt, MPI_REAL, dest, tag, comm, ierr)", "comm ssend blocking=true send{buf=buf count=cnt type=mpi_real(4B) peer=dest tag=tag} comm=comm"},
		{"mpi_bsend(buf, cnt, MPI_REAL, dest, tag, comm, ierr)", "comm bsend blocking=true send{buf=buf count=cnt type=mpi_real(4B) peer=dest tag=tag} comm=comm"},
		{"mpi_rsend(buf, cnt, MPI_REAL, dest, tag, comm, ierr)", "comm rsend blocking=true send{buf=buf count=cnt type=mpi_real(4B) peer=dest tag=tag} comm=comm"},
		{"mpi_recv(buf, cnt, MPI_INTEGER, src, tag, comm, st, ierr)", "comm recv blocking=true recv{buf=buf count=cnt type=mpi_integer(4B) peer=src tag=tag} comm=comm"},
		{"mpi_isend(buf, cnt, MPI_REAL8, dest, tag, comm, req, ierr)", "comm isend blocking=false send{buf=buf count=cnt type=mpi_real8(8B) peer=dest tag=tag} comm=comm request=req"},
		{"mpi_irecv(buf, cnt, MPI_REAL8, src, tag, comm, req, ierr)", "comm irecv blocking=false recv{buf=buf count=cnt type=mpi_real8(8B) peer=src tag=tag} comm=comm request=req"},
		{"mpi_sendrecv(sb, sc, MPI_REAL, dest, stag, rb, rc, MPI_INTEGER, src, rtag, comm, st, ierr)",
			"comm sendrecv blocking=true send{buf=sb count=sc type=mpi_real(4B) peer=dest tag=stag} recv{buf=rb count=rc type=mpi_integer(4B) peer=src tag=rtag} comm=comm"},
		{"mpi_wait(req, st, ierr)", "comm wait blocking=true request=req"},
		{"mpi_waitall(n, reqs, sts, ierr)", "comm waitall blocking=true request=reqs count=n"},
		{"mpi_bcast(buf, cnt, MPI_DOUBLE_PRECISION, root, comm, ierr)", "comm bcast blocking=true send{buf=buf count=cnt type=mpi_double_precision(8B)} root=root comm=comm"},
		{"mpi_reduce(sb, rb, cnt, MPI_DOUBLE_PRECISION, MPI_SUM, root, comm, ierr)",
			"comm reduce blocking=true send{buf=sb count=cnt type=mpi_double_precision(8B)} recv{buf=rb count=cnt type=mpi_double_precision(8B)} root=root op=mpi_sum comm=comm"},
		{"mpi_allreduce(sb, rb, cnt, MPI_INTEGER, MPI_MAX, comm, ierr)",
			"comm allreduce blocking=true send{buf=sb count=cnt type=mpi_integer(4B)} recv{buf=rb count=cnt type=mpi_integer(4B)} op=mpi_max comm=comm"},
		{"mpi_barrier(comm, ierr)", "comm barrier blocking=true comm=comm"},
		{"mpi_gather(sb, sc, MPI_REAL, rb, rc, MPI_REAL, root, comm, ierr)",
			"comm gather blocking=true send{buf=sb count=sc type=mpi_real(4B)} recv{buf=rb count=rc type=mpi_real(4B)} root=root comm=comm"},
		{"mpi_scatter(sb, sc, MPI_REAL, rb, rc, MPI_REAL, root, comm, ierr)",
			"comm scatter blocking=true send{buf=sb count=sc type=mpi_real(4B)} recv{buf=rb count=rc type=mpi_real(4B)} root=root comm=comm"},
		{"mpi_gatherv(sb, sc, MPI_REAL, rb, rcs, displs, MPI_REAL, root, comm, ierr)",
			"comm gatherv blocking=true send{buf=sb count=sc type=mpi_real(4B)} recv{buf=rb count=rcs displs=displs type=mpi_real(4B)} root=root comm=comm"},
		{"mpi_scatterv(sb, scs, displs, MPI_REAL, rb, rc, MPI_REAL, root, comm, ierr)",
			"comm scatterv blocking=true send{buf=sb count=scs displs=displs type=mpi_real(4B)} recv{buf=rb count=rc type=mpi_real(4B)} root=root comm=comm"},
		{"mpi_allgather(sb, sc, MPI_REAL, rb, rc, MPI_REAL, comm, ierr)",
			"comm allgather blocking=true send{buf=sb count=sc type=mpi_real(4B)} recv{buf=rb count=rc type=mpi_real(4B)} comm=comm"},
		{"mpi_allgatherv(sb, sc, MPI_REAL, rb, rcs, displs, MPI_REAL, comm, ierr)",
			"comm allgatherv blocking=true send{buf=sb count=sc type=mpi_real(4B)} recv{buf=rb count=rcs displs=displs type=mpi_real(4B)} comm=comm"},
		{"mpi_alltoall(sb, sc, MPI_REAL, rb, rc, MPI_REAL, comm, ierr)",
			"comm alltoall blocking=true send{buf=sb count=sc type=mpi_real(4B)} recv{buf=rb count=rc type=mpi_real(4B)} comm=comm"},
		{"mpi_alltoallv(sb, scs, sds, MPI_REAL, rb, rcs, rds, MPI_REAL, comm, ierr)",
			"comm alltoallv blocking=true send{buf=sb count=scs displs=sds type=mpi_real(4B)} recv{buf=rb count=rcs displs=rds type=mpi_real(4B)} comm=comm"},
		{"mpi_abort(comm, code, ierr)", "comm abort blocking=true comm=comm result=code"},
		// A datatype held in a variable (NPB's dp_type) has no static size.
		{"mpi_send(buf, cnt, dp_type, dest, tag, comm, ierr)", "comm send blocking=true send{buf=buf count=cnt type=dp_type peer=dest tag=tag} comm=comm"},
	} {
		for _, style := range []string{"  include 'mpif.h'\n", "  use mpi\n"} {
			src := "subroutine s\n" + style + "  call " + tc.call + "\nend subroutine s\n"
			prog, diags := ParseSource("s.f90", []byte(src), Config{})
			if len(diags) != 0 {
				t.Errorf("%s: %v", tc.call, diags)
			}
			cs := nodes[*apt.Comm](prog)
			if len(cs) != 1 {
				t.Errorf("%s: %d comm nodes", tc.call, len(cs))
				continue
			}
			var b bytes.Buffer
			apt.Fprint(&b, cs[0])
			got := strings.TrimPrefix(strings.Fields(b.String())[0]+" "+strings.SplitN(b.String(), " ", 2)[1], "s/M1 ")
			if i := strings.Index(got, " @"); i >= 0 {
				got = got[:i]
			}
			if got != tc.want {
				t.Errorf("%s (%s):\n got %s\nwant %s", tc.call, strings.TrimSpace(style), got, tc.want)
			}
		}
	}
}

func TestMPIWarningOnShortCall(t *testing.T) {
	_, diags := ParseSource("s.f90", []byte("call mpi_send(buf, 1)\nend\n"), Config{})
	if len(diags) != 1 || diags[0].Severity != apt.Warning || !strings.Contains(diags[0].Msg, "expected at least 6") {
		t.Errorf("diagnostics %v", diags)
	}
}
