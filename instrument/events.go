package instrument

import (
	"fmt"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/trace"
)

// Event mode (Options.Events): the runtime also keeps every timed region's
// entry and exit and every MPI call's details (peer, tag, bytes,
// communicator group, root, requests, the status of a receive) in a buffer
// of 64 Ki records that it writes to mkvet.<rank>.evt in $MKVET_OUT when
// full and at MPI_FINALIZE, in the raw format package trace reads
// (trace.ReadRawDir). Peers are translated to MPI_COMM_WORLD ranks; a
// communicator's members are recorded once, the first time it is used.
// Each rank's clock is synchronised with rank 0's twice, after MPI_INIT and
// at MPI_FINALIZE, by ten round trips on a duplicate of MPI_COMM_WORLD
// (Cristian's method, the shortest round trip's middle), so that the
// reader can correct offsets and linear drift.

// eventDecls are the runtime module's declarations in event mode.
func eventDecls(w func(string, ...any)) {
	w("  integer, parameter :: evcap = 65536, maxgroups = 64")
	w("  integer(8), save :: evi(%d, evcap) = 0", trace.RawFields)
	w("  real(8), save :: evt(evcap) = 0")
	w("  ! evstate: 0 file not opened yet, 1 open, 2 closed or failed (NEWUNIT= numbers are negative).")
	w("  integer, save :: nev = 0, evu = 0, evstate = 0, ngroups = 0, gnext = 0")
	w("  logical, save :: evon = .true.")
	w("  integer(8), save :: evdrop = 0")
	w("  real(8), save :: sync0(2) = 0, sync1(2) = 0")
	w("  integer, save :: gcomm(maxgroups) = 0, gid(maxgroups) = 0, synccomm = 0")
	w("  integer, allocatable, save :: gmem(:, :)")
	w("  public :: mkvet_evs, mkvet_evr, mkvet_evc, mkvet_evq, mkvet_evw1, mkvet_evwn, mkvet_evst")
}

// eventProcs are the runtime module's procedures in event mode.
func eventProcs(w func(string, ...any), mpi bool, probes []Probe) {
	w("  subroutine evpush(ty, k, a, b, c, t)")
	w("    integer, intent(in) :: ty, k")
	w("    integer(8), intent(in) :: a, b, c")
	w("    real(8), intent(in) :: t")
	w("    if (.not. evon .or. done) return")
	w("    if (nev >= evcap) call evflush()")
	w("    if (nev >= evcap) then")
	w("      evdrop = evdrop + 1")
	w("      return")
	w("    end if")
	w("    nev = nev + 1")
	w("    evi(1, nev) = ty")
	w("    evi(2, nev) = k")
	w("    evi(3, nev) = a")
	w("    evi(4, nev) = b")
	w("    evi(5, nev) = c")
	for f := 6; f <= trace.RawFields; f++ {
		w("    evi(%d, nev) = 0", f)
	}
	w("    evt(nev) = t")
	w("  end subroutine evpush")
	w("")
	w("  subroutine opsof(ops)")
	w("    integer(8), intent(out) :: ops(0:ns)")
	w("    ops = 0")
	for _, p := range probes {
		if p.Kind != "comm" {
			continue
		}
		if op := apt.LookupCommOp("mpi_" + p.Op); op != 0 {
			w("    ops(%d) = %d", p.Slot, int(op))
		}
	}
	w("  end subroutine opsof")
	w("")
	w("  ! evflush writes the buffer, opening the rank's file first; before")
	w("  ! MPI_INIT the rank is not known and the buffer waits.")
	w("  subroutine evflush()")
	w("    integer :: rank, size, ierr, st, ln, k")
	w("    character(len=1024) :: dir")
	w("    character(len=%d) :: names(0:ns)", maxIDLen(probes))
	w("    integer(8) :: ops(0:ns)")
	if mpi {
		w("    if (.not. mpi_on) return")
	}
	w("    if (evstate == 2) then")
	w("      nev = 0")
	w("      return")
	w("    end if")
	w("    if (evstate == 0) then")
	w("      rank = 0")
	w("      size = 1")
	if mpi {
		w("      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)")
		w("      call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)")
	} else {
		w("      ierr = 0")
	}
	w("      call get_environment_variable('MKVET_OUT', dir, ln, st)")
	w("      if (st /= 0 .or. ln == 0) dir = '.'")
	w("      open (newunit=evu, file=trim(dir)//'/mkvet.'//itoa(int(rank, 8))//'.evt', access='stream', &")
	w("        form='unformatted', status='replace', action='write', iostat=st)")
	w("      if (st /= 0) then")
	w("        write (0, '(a)') 'mkvet: cannot write the event file in '//trim(dir)")
	w("        evstate = 2")
	w("        nev = 0")
	w("        return")
	w("      end if")
	w("      evstate = 1")
	w("      call ids(names)")
	w("      call opsof(ops)")
	w("      write (evu) '%s', %d_8, int(rank, 8), int(size, 8), int(ns, 8)", trace.RawMagic, trace.RawVersion)
	w("      do k = 1, ns")
	w("        write (evu) ops(k), int(len_trim(names(k)), 8), trim(names(k))")
	w("      end do")
	w("    end if")
	w("    if (nev > 0) write (evu) int(nev, 8), evi(:, 1:nev), evt(1:nev)")
	w("    nev = 0")
	w("  end subroutine evflush")
	w("")
	w("  ! evclose writes the rest of the buffer and the trailer.")
	w("  subroutine evclose(tfin)")
	w("    real(8), intent(in) :: tfin")
	w("    call evflush()")
	w("    if (evstate /= 1) return")
	w("    write (evu) -1_8, tstart, tfin, sync0, sync1, evdrop")
	w("    close (evu)")
	w("    evstate = 2")
	w("  end subroutine evclose")
	w("")
	if mpi {
		w("  ! evsync estimates this rank's clock offset to rank 0's from the")
		w("  ! shortest of ten round trips (Cristian's method).")
		w("  subroutine evsync(s)")
		w("    real(8), intent(out) :: s(2)")
		w("    integer :: rank, size, ierr, r, i, st(MPI_STATUS_SIZE)")
		w("    real(8) :: t1, t2, tr, best")
		w("    s = 0")
		w("    call MPI_Comm_rank(synccomm, rank, ierr)")
		w("    call MPI_Comm_size(synccomm, size, ierr)")
		w("    if (rank == 0) then")
		w("      do r = 1, size - 1")
		w("        do i = 1, 10")
		w("          call MPI_Recv(t1, 1, MPI_DOUBLE_PRECISION, r, 1, synccomm, st, ierr)")
		w("          tr = now()")
		w("          call MPI_Send(tr, 1, MPI_DOUBLE_PRECISION, r, 2, synccomm, ierr)")
		w("        end do")
		w("      end do")
		w("      s(1) = now()")
		w("    else")
		w("      best = huge(best)")
		w("      do i = 1, 10")
		w("        t1 = now()")
		w("        call MPI_Send(t1, 1, MPI_DOUBLE_PRECISION, 0, 1, synccomm, ierr)")
		w("        call MPI_Recv(tr, 1, MPI_DOUBLE_PRECISION, 0, 2, synccomm, st, ierr)")
		w("        t2 = now()")
		w("        if (t2 - t1 < best) then")
		w("          best = t2 - t1")
		w("          s(1) = (t1 + t2)/2")
		w("          s(2) = tr - s(1)")
		w("        end if")
		w("      end do")
		w("    end if")
		w("  end subroutine evsync")
		w("")
		w("  ! evgroup returns the recorded id of comm's group (0 for")
		w("  ! MPI_COMM_WORLD), recording its members the first time.")
		w("  function evgroup(comm) result(id)")
		w("    integer, intent(in) :: comm")
		w("    integer :: id, g, wg, n, ierr, i, wsize, slot")
		w("    integer, allocatable :: rk(:), wr(:)")
		w("    id = 0")
		w("    if (comm == MPI_COMM_WORLD) return")
		w("    do i = 1, ngroups")
		w("      if (gcomm(i) == comm) then")
		w("        id = gid(i)")
		w("        return")
		w("      end if")
		w("    end do")
		w("    call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)")
		w("    if (.not. allocated(gmem)) allocate (gmem(0:wsize - 1, maxgroups))")
		w("    gnext = gnext + 1")
		w("    slot = mod(gnext - 1, maxgroups) + 1")
		w("    ngroups = min(ngroups + 1, maxgroups)")
		w("    gcomm(slot) = comm")
		w("    gid(slot) = gnext")
		w("    id = gnext")
		w("    call MPI_Comm_group(comm, g, ierr)")
		w("    call MPI_Comm_group(MPI_COMM_WORLD, wg, ierr)")
		w("    call MPI_Group_size(g, n, ierr)")
		w("    n = min(n, wsize)")
		w("    allocate (rk(n), wr(n))")
		w("    do i = 1, n")
		w("      rk(i) = i - 1")
		w("    end do")
		w("    call MPI_Group_translate_ranks(g, n, rk, wg, wr, ierr)")
		w("    call MPI_Group_free(g, ierr)")
		w("    call MPI_Group_free(wg, ierr)")
		w("    gmem(:, slot) = -1")
		w("    do i = 1, n")
		w("      gmem(i - 1, slot) = wr(i)")
		w("      call evpush(%d, id, int(i - 1, 8), int(wr(i), 8), int(n, 8), 0d0)", trace.RawMember)
		w("    end do")
		w("  end function evgroup")
		w("")
		w("  ! evworld returns the MPI_COMM_WORLD rank of rank r of comm: -2 for")
		w("  ! MPI_PROC_NULL, -1 for MPI_ANY_SOURCE.")
		w("  function evworld(comm, r) result(wr)")
		w("    integer, intent(in) :: comm, r")
		w("    integer :: wr, id, i")
		w("    wr = r")
		w("    if (r == MPI_PROC_NULL) wr = -2")
		w("    if (r == MPI_ANY_SOURCE) wr = -1")
		w("    if (r < 0 .or. comm == MPI_COMM_WORLD) return")
		w("    id = evgroup(comm)")
		w("    do i = 1, ngroups")
		w("      if (gid(i) == id) then")
		w("        if (r <= ubound(gmem, 1)) wr = gmem(r, i)")
		w("        return")
		w("      end if")
		w("    end do")
		w("  end function evworld")
		w("")
	}
	// The probes' entry points, called around MPI calls.
	// mkvet_evs and mkvet_evr record a send and a receive side: the peer
	// as a world rank, the tag (-1 for MPI_ANY_TAG), the bytes.
	for _, side := range []struct {
		name string
		typ  int
	}{{"mkvet_evs", trace.RawSend}, {"mkvet_evr", trace.RawRecv}} {
		w("  subroutine %s(k, comm, peer, tag, cnt, dtype)", side.name)
		w("    integer, intent(in) :: k, comm, peer, tag, dtype")
		w("    integer(8), intent(in) :: cnt")
		w("    integer :: sz, ierr, tg")
		w("    tg = tag")
		if mpi {
			w("    if (tag == MPI_ANY_TAG) tg = -1")
			w("    call MPI_Type_size(dtype, sz, ierr)")
			w("    call evpush(%d, k, int(evworld(comm, peer), 8), int(tg, 8), cnt*sz, 0d0)", side.typ)
		} else {
			w("    sz = comm + dtype")
			w("    ierr = sz")
			w("    call evpush(%d, k, int(peer, 8), int(tg, 8), cnt, 0d0)", side.typ)
		}
		w("  end subroutine %s", side.name)
		w("")
	}
	w("  ! mkvet_evc records a collective's group and root, and its send and")
	w("  ! receive sides as sizes (peer -2).")
	w("  subroutine mkvet_evc(k, comm, root, scnt, sdtype, rcnt, rdtype)")
	w("    integer, intent(in) :: k, comm, root, sdtype, rdtype")
	w("    integer(8), intent(in) :: scnt, rcnt")
	w("    integer :: ss, rs, ierr, id, wr")
	w("    ss = 0")
	w("    rs = 0")
	if mpi {
		w("    if (scnt > 0) call MPI_Type_size(sdtype, ss, ierr)")
		w("    if (rcnt > 0) call MPI_Type_size(rdtype, rs, ierr)")
		w("    id = evgroup(comm)")
		w("    wr = -1")
		w("    if (root >= 0) wr = evworld(comm, root)")
	} else {
		w("    ierr = sdtype + rdtype + comm")
		w("    id = 0")
		w("    wr = root")
	}
	w("    call evpush(%d, k, -2_8, 0_8, scnt*ss, 0d0)", trace.RawSend)
	w("    call evpush(%d, k, -2_8, 0_8, rcnt*rs, 0d0)", trace.RawRecv)
	w("    call evpush(%d, k, int(id, 8), int(wr, 8), 0_8, 0d0)", trace.RawColl)
	w("  end subroutine mkvet_evc")
	w("")
	w("  subroutine mkvet_evq(k, req)")
	w("    integer, intent(in) :: k, req")
	w("    call evpush(%d, k, int(req, 8), 0_8, 0_8, 0d0)", trace.RawReq)
	w("  end subroutine mkvet_evq")
	w("")
	w("  subroutine mkvet_evw1(k, req)")
	w("    integer, intent(in) :: k, req")
	w("    call evpush(%d, k, int(req, 8), 0_8, 0_8, 0d0)", trace.RawWait)
	w("  end subroutine mkvet_evw1")
	w("")
	w("  subroutine mkvet_evwn(k, n, reqs)")
	w("    integer, intent(in) :: k, n, reqs(*)")
	w("    integer :: i")
	w("    do i = 1, n")
	w("      call evpush(%d, k, int(reqs(i), 8), 0_8, 0_8, 0d0)", trace.RawWait)
	w("    end do")
	w("  end subroutine mkvet_evwn")
	w("")
	w("  subroutine mkvet_evst(k, comm, st)")
	w("    integer, intent(in) :: k, comm, st(*)")
	if mpi {
		w("    call evpush(%d, k, int(evworld(comm, st(MPI_SOURCE)), 8), int(st(MPI_TAG), 8), 0_8, 0d0)", trace.RawStatus)
	} else {
		w("    call evpush(%d, k, int(st(1) + comm, 8), 0_8, 0_8, 0d0)", trace.RawStatus)
	}
	w("  end subroutine mkvet_evst")
	w("")
}

// commEvents returns the statements before and after MPI call c (probe
// slot k) that record its details in event mode.
// With f08 the program sees MPI through mpi_f08, whose handles are
// derived types: the runtime is given the integers they wrap (MPI_VAL),
// and a status's source and tag in the places mpif.h's status has them.
func commEvents(c *apt.Comm, k int, f08 bool) (pre, post []string) {
	f := func(e apt.Expr, def string) string {
		if e == nil {
			return def
		}
		return apt.FormatExpr(e)
	}
	h := func(e apt.Expr, def string) string { // a handle
		if f08 {
			return f(e, def) + "%MPI_VAL"
		}
		return f(e, def)
	}
	comm := h(c.Comm, "MPI_COMM_WORLD")
	side := func(m *apt.Msg, which string) {
		if m == nil || m.Count == nil || m.Datatype == nil || m.Displs != nil || m.Peer == nil {
			return
		}
		tag := f(m.Tag, "0")
		pre = append(pre, fmt.Sprintf("call mkvet_ev%s(%d, %s, %s, %s, int(%s, 8), %s)", which, k, comm,
			apt.FormatExpr(m.Peer), tag, apt.FormatExpr(m.Count), h(m.Datatype, "")))
	}
	status := func() {
		if c.Status == nil {
			return
		}
		s := strings.ToLower(apt.FormatExpr(c.Status))
		if strings.Contains(s, "mpi_status") { // MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE
			return
		}
		st := apt.FormatExpr(c.Status)
		if f08 {
			st = fmt.Sprintf("[%s%%MPI_SOURCE, %s%%MPI_TAG]", st, st) // MPI_SOURCE = 1, MPI_TAG = 2
		}
		post = append(post, fmt.Sprintf("call mkvet_evst(%d, %s, %s)", k, comm, st))
	}
	switch {
	case c.Op.IsCollective():
		cnt := func(m *apt.Msg) (string, string) {
			if m == nil || m.Count == nil || m.Datatype == nil || m.Displs != nil {
				return "0", h(nil, "MPI_BYTE")
			}
			return apt.FormatExpr(m.Count), h(m.Datatype, "")
		}
		sc, sd := cnt(c.Send)
		rc, rd := cnt(c.Recv)
		pre = append(pre, fmt.Sprintf("call mkvet_evc(%d, %s, %s, int(%s, 8), %s, int(%s, 8), %s)", k, comm,
			f(c.Root, "-1"), sc, sd, rc, rd))
	case c.Op == apt.MPIWait:
		if c.Request != nil {
			pre = append(pre, fmt.Sprintf("call mkvet_evw1(%d, %s)", k, h(c.Request, "")))
		}
		status()
	case c.Op == apt.MPIWaitall:
		if c.Request != nil && c.Count != nil {
			pre = append(pre, fmt.Sprintf("call mkvet_evwn(%d, %s, %s)", k, apt.FormatExpr(c.Count), h(c.Request, "")))
		}
	case c.Op.Completes():
		// Waitany, waitsome and the tests: the requests they complete
		// are known only from their outputs; the trace leaves them
		// unlinked.
	default:
		if c.Send != nil && c.Op != apt.MPIRecv && c.Op != apt.MPIIrecv {
			side(c.Send, "s")
		}
		if c.Recv != nil {
			side(c.Recv, "r")
		}
		if !c.Op.IsBlocking() && c.Request != nil {
			post = append(post, fmt.Sprintf("call mkvet_evq(%d, %s)", k, h(c.Request, "")))
		}
		if c.Op == apt.MPIRecv || c.Op == apt.MPISendrecv || c.Op == apt.MPISendrecvReplace {
			status()
		}
	}
	return pre, post
}
