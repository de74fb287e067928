package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mkvet/mkvet/instrument/sweep"
)

// sweepProgress reports a calibration sweep as it runs: runs and points
// done, runs failed, and the time left as the runs so far predict it
// (their mean time, builds included, times the runs left). On a terminal
// it is one status line redrawn in place, with messages (a build, a failed
// run) printed above it; elsewhere (a log, a pipe, CI) each run is a plain
// line of its own, so that nothing depends on carriage returns.
type sweepProgress struct {
	w      io.Writer
	tty    bool
	now    func() time.Time
	start  time.Time
	total  int // runs
	reps   int // repetitions of each point
	points int
	done   int // runs done, failed ones included
	failed int
	drawn  bool // a status line is on the terminal
}

// newSweepProgress starts the report of a sweep of points × reps runs on w.
func newSweepProgress(w io.Writer, points, reps int) *sweepProgress {
	return &sweepProgress{w: w, tty: isTerminal(w), now: time.Now, start: time.Now(),
		total: points * reps, reps: reps, points: points}
}

// isTerminal reports whether w is a terminal that can redraw a line: a
// character device, with TERM not "dumb".
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// say prints a message line (a build starting, a failure), above the status
// line on a terminal.
func (s *sweepProgress) say(format string, args ...any) {
	s.clear()
	fmt.Fprintf(s.w, format+"\n", args...)
	s.redraw()
}

// ran records one run (repetition rep of pt) and its outcome; r is nil for
// a run that was not started because its build failed.
func (s *sweepProgress) ran(pt sweep.Point, rep int, r *sweep.Run) {
	s.done++
	outcome := "ok"
	switch {
	case r == nil:
		s.failed++
		outcome = "not run: its build failed"
	case r.Err != nil:
		s.failed++
		outcome = "FAILED"
	}
	if s.tty {
		s.redraw()
		return
	}
	wall := ""
	if r != nil {
		wall = "  " + r.Wall.Round(time.Millisecond).String()
	}
	fmt.Fprintf(s.w, "calibrate %s  %s rep %d%s  %s\n", s.status(), pt, rep+1, wall, outcome)
}

// finish ends the status line on a terminal.
func (s *sweepProgress) finish() {
	if s.tty && s.drawn {
		fmt.Fprintln(s.w)
		s.drawn = false
	}
}

// status is the counts and the estimate: "[####------] 4/10 runs, 1/5
// points, 1 failed, about 12s left".
func (s *sweepProgress) status() string {
	const width = 20
	n := 0
	if s.total > 0 {
		n = s.done * width / s.total
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s%s] %*d/%d runs, %d/%d points", strings.Repeat("#", n), strings.Repeat("-", width-n),
		len(strconv.Itoa(s.total)), s.done, s.total, s.pointsDone(), s.points)
	if s.failed > 0 {
		fmt.Fprintf(&b, ", %d failed", s.failed)
	}
	if left := s.left(); s.done < s.total && left >= 0 {
		fmt.Fprintf(&b, ", about %s left", roundLeft(left))
	}
	return b.String()
}

// pointsDone counts the points all of whose repetitions are done: the
// sweep runs each point's repetitions one after the other.
func (s *sweepProgress) pointsDone() int {
	if s.reps <= 0 {
		return 0
	}
	return s.done / s.reps
}

// left estimates the time the runs left take, by the mean time of the runs
// so far (builds included); -1 before the first run.
func (s *sweepProgress) left() time.Duration {
	if s.done == 0 {
		return -1
	}
	per := s.now().Sub(s.start) / time.Duration(s.done)
	return per * time.Duration(s.total-s.done)
}

// roundLeft rounds an estimate to what it can claim: seconds under a
// minute, then minutes.
func roundLeft(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Minute)
}

// clear removes the status line from the terminal.
func (s *sweepProgress) clear() {
	if s.tty && s.drawn {
		fmt.Fprint(s.w, "\r\033[K")
		s.drawn = false
	}
}

// redraw draws the status line on the terminal.
func (s *sweepProgress) redraw() {
	if !s.tty {
		return
	}
	fmt.Fprintf(s.w, "\r\033[Kcalibrate %s", s.status())
	s.drawn = true
}
