package instrument

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/mkvet/mkvet/trace"
)

// runtimeSource returns the Fortran runtime module for the probes: per-slot
// counters (module arrays the probes increment in place), a stack of open
// timed regions giving inclusive and exclusive seconds, message and byte
// counts, and the writer of the records. With MPI it times with MPI_Wtime
// (from MPI_INIT on, aligned with system_clock before it) and each rank
// writes mkvet.<rank>.jsonl at MPI_FINALIZE; without, it times with
// system_clock and writes mkvet.0.jsonl at the end of the program.
func runtimeSource(mpi, events bool, probes []Probe) string {
	var b strings.Builder
	n := len(probes)
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("! %s -- runtime of a program instrumented by mkvet (generated; do not edit).", RuntimeFile)
	w("! Records go to $MKVET_OUT/mkvet.<rank>.jsonl (default: the working directory),")
	w("! tagged with $MKVET_RUN; sizes assigned from constants read $MKVET_PARAM_<NAME>.")
	w("module mkvet_rt")
	if mpi {
		// Once for the module, not in each procedure: gfortran reads the
		// mpi module at every USE, and thirteen of them made the runtime
		// take 1.6 s of every build instead of 0.5 s. The module's
		// default PRIVATE keeps MPI's names from the program's scopes.
		w("  use mpi")
	}
	w("  implicit none")
	w("  private")
	w("  public :: mkvet_c, mkvet_i, mkvet_enter, mkvet_exit, mkvet_msg, mkvet_msgv, mkvet_started")
	w("  public :: mkvet_param, mkvet_finish, mkvet_ival")
	w("  integer, parameter :: ns = %d", n)
	w("  integer, parameter :: maxdepth = 512, maxp = 64")
	w("  integer(8), save :: mkvet_c(0:ns) = 0, mkvet_i(0:ns) = 0")
	w("  integer(8), save :: ntimed(0:ns) = 0, msgs(0:ns) = 0, bytes(0:ns) = 0")
	w("  integer(8), save :: rmsgs(0:ns) = 0, rbytes(0:ns) = 0, nmsg = 0")
	w("  real(8), save :: excl(0:ns) = 0, incl(0:ns) = 0")
	w("  integer, save :: depth = 0, stk(maxdepth) = 0, overflow = 0")
	w("  real(8), save :: t0(maxdepth) = 0, child(maxdepth) = 0")
	w("  logical, save :: mpi_on = .false., done = .false., began = .false.")
	w("  real(8), save :: offset = 0, tstart = 0, cstart = 0, probe0 = 0")
	w("  real(8), save :: pbuf(8192) = 1")
	w("  integer, save :: np = 0")
	w("  character(len=63), save :: pname(maxp)")
	w("  integer(8), save :: pval(maxp) = 0")
	if events {
		eventDecls(w)
	}
	w("contains")
	w("")
	w("  function now() result(t)")
	w("    real(8) :: t")
	w("    integer(8) :: c, r")
	if mpi {
		w("    if (mpi_on) then")
		w("      t = MPI_Wtime() + offset")
		w("      return")
		w("    end if")
	}
	w("    call system_clock(c, r)")
	w("    t = real(c, 8)/real(r, 8)")
	w("  end function now")
	w("")
	w("  ! speedprobe times a fixed sweep over 64 KB, run by every rank at once at")
	w("  ! the start and the end of the program, outside its time: a shared host's")
	w("  ! slow spells (another guest on the core or its caches) show as a slow")
	w("  ! probe, which lets mkvet set the run aside.")
	w("  function speedprobe() result(t)")
	w("    real(8) :: t, t1")
	w("    integer :: i, j")
	w("    t1 = now()")
	w("    do j = 1, 64")
	w("      do i = 1, size(pbuf)")
	w("        pbuf(i) = pbuf(i)*0.999d0 + 1.0d-3")
	w("      end do")
	w("    end do")
	w("    t = now() - t1")
	w("    if (pbuf(1) < 0) write (0, '(a)') 'mkvet: probe'")
	w("  end function speedprobe")
	w("")
	w("  subroutine mkvet_enter(k)")
	w("    integer, intent(in) :: k")
	w("    if (done) return")
	w("    if (.not. began) then")
	w("      began = .true.")
	if !mpi {
		w("      probe0 = speedprobe()")
	}
	w("      tstart = now()")
	w("      call cpu_time(cstart)")
	w("    end if")
	if events {
		w("    if (k > 0) call evpush(%d, k, 0_8, 0_8, 0_8, now())", trace.RawEnter)
	}
	w("    if (depth >= maxdepth) then")
	w("      overflow = overflow + 1")
	w("      return")
	w("    end if")
	w("    depth = depth + 1")
	w("    stk(depth) = k")
	w("    child(depth) = 0")
	w("    ntimed(k) = ntimed(k) + 1")
	w("    t0(depth) = now()")
	w("  end subroutine mkvet_enter")
	w("")
	w("  ! mkvet_exit closes the innermost open region of slot k, and any region")
	w("  ! opened after it and left open (a jump out of a loop skips its exit).")
	w("  subroutine mkvet_exit(k)")
	w("    integer, intent(in) :: k")
	w("    integer :: d")
	w("    real(8) :: t")
	w("    if (done) return")
	w("    t = now()")
	if events {
		w("    if (k > 0) call evpush(%d, k, 0_8, 0_8, 0_8, t)", trace.RawExit)
	}
	w("    do d = depth, 1, -1")
	w("      if (stk(d) == k) exit")
	w("    end do")
	w("    if (d >= 1) call pop(d, t)")
	w("  end subroutine mkvet_exit")
	w("")
	w("  subroutine pop(d, t)")
	w("    integer, intent(in) :: d")
	w("    real(8), intent(in) :: t")
	w("    real(8) :: el")
	w("    do while (depth >= d .and. depth >= 1)")
	w("      el = t - t0(depth)")
	w("      incl(stk(depth)) = incl(stk(depth)) + el")
	w("      excl(stk(depth)) = excl(stk(depth)) + (el - child(depth))")
	w("      if (depth > 1) child(depth - 1) = child(depth - 1) + el")
	w("      depth = depth - 1")
	w("    end do")
	w("  end subroutine pop")
	w("")
	w("  ! mkvet_msg counts one side of a transfer: side 1 and 2 are the send and")
	w("  ! receive of a point-to-point call (nothing moves to MPI_PROC_NULL), 3 and 4")
	w("  ! those of a collective.")
	w("  subroutine mkvet_msg(k, side, cnt, dtype, peer)")
	w("    integer, intent(in) :: k, side, dtype, peer")
	w("    integer(8), intent(in) :: cnt")
	w("    integer :: sz, ierr")
	w("    nmsg = nmsg + 1")
	if mpi {
		w("    if (side <= 2 .and. peer == MPI_PROC_NULL) return")
		w("    call MPI_Type_size(dtype, sz, ierr)")
	} else {
		w("    sz = 0")
		w("    ierr = dtype + peer")
	}
	w("    if (side == 1 .or. side == 3) then")
	w("      msgs(k) = msgs(k) + 1")
	w("      bytes(k) = bytes(k) + cnt*sz")
	w("    else")
	w("      rmsgs(k) = rmsgs(k) + 1")
	w("      rbytes(k) = rbytes(k) + cnt*sz")
	w("    end if")
	w("  end subroutine mkvet_msg")
	w("")
	w("  ! mkvet_msgv counts one side of a v-variant collective (gatherv, scatterv,")
	w("  ! allgatherv): the calling process's own block, its element of counts.")
	w("  subroutine mkvet_msgv(k, side, counts, dtype, comm)")
	w("    integer, intent(in) :: k, side, dtype, comm")
	w("    integer, intent(in) :: counts(*)")
	w("    integer :: r, ierr")
	if mpi {
		w("    call MPI_Comm_rank(comm, r, ierr)")
	} else {
		w("    r = 0")
		w("    ierr = comm")
	}
	w("    call mkvet_msg(k, side, int(counts(r + 1), 8), dtype, 0)")
	w("  end subroutine mkvet_msgv")
	w("")
	w("  ! mkvet_started switches the clock to MPI_Wtime once MPI_INIT has returned,")
	w("  ! offset so that regions opened before go on in the same time line.")
	w("  subroutine mkvet_started()")
	w("    real(8) :: ts")
	if mpi {
		w("    integer :: ierr")
	}
	w("    ts = now()")
	if mpi {
		w("    offset = ts - MPI_Wtime()")
		w("    mpi_on = .true.")
		w("    ! The speed probe, all ranks at once; regions already open do not")
		w("    ! count its time.")
		w("    call MPI_Barrier(MPI_COMM_WORLD, ierr)")
		w("    probe0 = speedprobe()")
		if events {
			w("    call MPI_Comm_dup(MPI_COMM_WORLD, synccomm, ierr)")
			w("    call evsync(sync0)")
		}
		w("    if (depth > 0) t0(1:depth) = t0(1:depth) + (now() - ts)")
	}
	w("    began = .true.")
	w("    tstart = now()")
	w("    call cpu_time(cstart)")
	w("  end subroutine mkvet_started")
	w("")
	w("  subroutine mkvet_param(name, v)")
	w("    character(len=*), intent(in) :: name")
	w("    integer(8), intent(in) :: v")
	w("    integer :: i")
	w("    do i = 1, np")
	w("      if (pname(i) == name) then")
	w("        pval(i) = v")
	w("        return")
	w("      end if")
	w("    end do")
	w("    if (np < maxp) then")
	w("      np = np + 1")
	w("      pname(np) = name")
	w("      pval(np) = v")
	w("    end if")
	w("  end subroutine mkvet_param")
	w("")
	w("  ! mkvet_ival returns the value of $MKVET_PARAM_<NAME>, or def when unset.")
	w("  function mkvet_ival(name, def) result(v)")
	w("    character(len=*), intent(in) :: name")
	w("    integer, intent(in) :: def")
	w("    integer :: v, st, ln, i")
	w("    character(len=64) :: buf")
	w("    character(len=len(name)) :: up")
	w("    up = name")
	w("    do i = 1, len(up)")
	w("      if (up(i:i) >= 'a' .and. up(i:i) <= 'z') up(i:i) = achar(iachar(up(i:i)) - 32)")
	w("    end do")
	w("    v = def")
	w("    call get_environment_variable('MKVET_PARAM_'//up, buf, ln, st)")
	w("    if (st == 0 .and. ln > 0) then")
	w("      read (buf(1:ln), *, iostat=st) v")
	w("      if (st /= 0) v = def")
	w("    end if")
	w("    call mkvet_param(name, int(v, 8))")
	w("  end function mkvet_ival")
	w("")
	w("  function itoa(i) result(s)")
	w("    integer(8), intent(in) :: i")
	w("    character(len=:), allocatable :: s")
	w("    character(len=24) :: buf")
	w("    write (buf, '(i0)') i")
	w("    s = trim(buf)")
	w("  end function itoa")
	w("")
	w("  function rtoa(x) result(s)")
	w("    real(8), intent(in) :: x")
	w("    character(len=:), allocatable :: s")
	w("    character(len=32) :: buf")
	w("    if (x /= x .or. abs(x) > huge(x)) then")
	w("      s = '0'")
	w("      return")
	w("    end if")
	w("    write (buf, '(es24.16e3)') x")
	w("    s = trim(adjustl(buf))")
	w("  end function rtoa")
	w("")
	w("  ! clean keeps the characters of a run tag that need no JSON escape.")
	w("  function clean(x) result(s)")
	w("    character(len=*), intent(in) :: x")
	w("    character(len=:), allocatable :: s")
	w("    integer :: i")
	w("    s = ''")
	w("    do i = 1, len_trim(x)")
	w("      select case (x(i:i))")
	w("      case ('a':'z', 'A':'Z', '0':'9', '_', '-', '.', ':', '/', '+')")
	w("        s = s//x(i:i)")
	w("      end select")
	w("    end do")
	w("  end function clean")
	w("")
	w("  subroutine ids(names)")
	w("    character(len=*), intent(out) :: names(0:ns)")
	w("    names = ''")
	for _, p := range probes {
		w("    names(%d) = %s", p.Slot, fortranString(p.Node))
	}
	w("  end subroutine ids")
	w("")
	w("  ! mkvet_finish closes the open regions, measures the cost of a probe and")
	w("  ! writes this rank's records; later probes do nothing.")
	w("  subroutine mkvet_finish()")
	w("    integer :: rank, size, ierr, u, k, ln, st, i")
	w("    integer(8) :: tev, cev, volatile_dummy")
	w("    integer(8), volatile :: vc")
	w("    real(8) :: t, tprog, t1, tpair, tcount, cend, probe1")
	w("    character(len=1024) :: dir, run")
	w("    character(len=:), allocatable :: head, line, ps, fname")
	w("    character(len=%d) :: names(0:ns)", maxIDLen(probes))
	w("    if (done) return")
	w("    t = now()")
	w("    call cpu_time(cend)")
	w("    call pop(1, t)")
	w("    tprog = t - tstart")
	if mpi {
		w("    call MPI_Barrier(MPI_COMM_WORLD, ierr)")
		if events {
			w("    call evsync(sync1)")
		}
	}
	if events {
		w("    call evclose(t)")
		w("    evon = .false.")
	}
	w("    probe1 = speedprobe()")
	w("    tev = sum(ntimed(1:ns))")
	w("    cev = sum(mkvet_c(1:ns)) + sum(mkvet_i(1:ns)) + nmsg")
	w("    t1 = now()")
	w("    do i = 1, 1000")
	w("      call mkvet_enter(0)")
	w("      call mkvet_exit(0)")
	w("    end do")
	w("    tpair = (now() - t1)/1000")
	w("    vc = 0")
	w("    t1 = now()")
	w("    do i = 1, 100000")
	w("      vc = vc + 1")
	w("    end do")
	w("    tcount = (now() - t1)/100000")
	w("    volatile_dummy = vc")
	w("    done = .true.")
	w("    rank = 0")
	w("    size = 1")
	if mpi {
		w("    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)")
		w("    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)")
	} else {
		w("    ierr = 0")
	}
	w("    call get_environment_variable('MKVET_OUT', dir, ln, st)")
	w("    if (st /= 0 .or. ln == 0) dir = '.'")
	w("    call get_environment_variable('MKVET_RUN', run, ln, st)")
	w("    if (st /= 0) run = ''")
	w("    ps = '{'")
	w("    do i = 1, np")
	w("      if (i > 1) ps = ps//','")
	w("      ps = ps//'\"'//clean(pname(i))//'\":'//itoa(pval(i))")
	w("    end do")
	w("    ps = ps//'}'")
	w("    head = '\"run\":\"'//clean(run)//'\",\"rank\":'//itoa(int(rank, 8))//',\"P\":'//itoa(int(size, 8))")
	w("    fname = trim(dir)//'/mkvet.'//itoa(int(rank, 8))//'.jsonl'")
	w("    open (newunit=u, file=fname, status='replace', action='write', iostat=st)")
	w("    if (st /= 0) then")
	w("      write (0, '(a)') 'mkvet: cannot write '//fname")
	w("      return")
	w("    end if")
	clock := "system_clock"
	if mpi {
		clock = "MPI_Wtime"
	}
	w("    line = '{\"type\":\"run\",'//head//',\"clock\":\"%s\",\"seconds\":'//rtoa(tprog)// &", clock)
	w("      ',\"cpu_seconds\":'//rtoa(cend - cstart)//',\"probe_seconds\":'//rtoa(max(probe0, probe1))// &")
	w("      ',\"pair_seconds\":'//rtoa(tpair)//',\"count_seconds\":'//rtoa(tcount)// &")
	w("      ',\"timer_events\":'//itoa(tev)//',\"count_events\":'//itoa(cev)// &")
	w("      ',\"overhead\":'//rtoa(tev*tpair)//',\"overflow\":'//itoa(int(overflow, 8))// &")
	w("      ',\"params\":'//ps//'}'")
	w("    write (u, '(a)') line")
	w("    call ids(names)")
	w("    do k = 1, ns")
	w("      if (mkvet_c(k) == 0 .and. mkvet_i(k) == 0 .and. ntimed(k) == 0 .and. msgs(k) == 0 &")
	w("          .and. rmsgs(k) == 0) cycle")
	w("      line = '{\"type\":\"node\",'//head//',\"node\":\"'//trim(names(k))//'\",\"count\":'//itoa(mkvet_c(k))// &")
	w("        ',\"iters\":'//itoa(mkvet_i(k))//',\"timed\":'//itoa(ntimed(k))// &")
	w("        ',\"seconds\":'//rtoa(excl(k))//',\"inclusive\":'//rtoa(incl(k))// &")
	w("        ',\"msgs\":'//itoa(msgs(k))//',\"bytes\":'//itoa(bytes(k))// &")
	w("        ',\"recv_msgs\":'//itoa(rmsgs(k))//',\"recv_bytes\":'//itoa(rbytes(k))// &")
	w("        ',\"params\":'//ps//'}'")
	w("      write (u, '(a)') line")
	w("    end do")
	w("    close (u)")
	w("  end subroutine mkvet_finish")
	if events {
		w("")
		eventProcs(w, mpi, probes)
	}
	w("end module mkvet_rt")
	return b.String()
}

func maxIDLen(probes []Probe) int {
	n := 1
	for _, p := range probes {
		n = max(n, len(p.Node))
	}
	return n
}

// fortranString quotes s as a Fortran character constant, continued over
// lines when long.
func fortranString(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	const width = 60
	if len(q) <= width {
		return q
	}
	var parts []string
	for len(s) > 0 {
		k := min(len(s), 50)
		parts = append(parts, "'"+strings.ReplaceAll(s[:k], "'", "''")+"'")
		s = s[k:]
	}
	return strings.Join(parts, " // &\n      ")
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
