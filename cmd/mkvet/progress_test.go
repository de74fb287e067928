package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/instrument/sweep"
)

// fakeClock advances by step at each reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

// newTestProgress is a sweep of points × reps runs on buf whose runs each
// take 10 s by the clock.
func newTestProgress(buf *bytes.Buffer, tty bool, points, reps int) *sweepProgress {
	clock := &fakeClock{t: time.Unix(0, 0), step: 10 * time.Second}
	s := newSweepProgress(buf, points, reps)
	s.tty, s.now, s.start = tty, clock.now, clock.t
	return s
}

// TestSweepProgressPlain: off a terminal each run is a line of its own with
// the runs and points done, the failures and the time left by the runs so
// far, and no carriage return or escape.
func TestSweepProgressPlain(t *testing.T) {
	var buf bytes.Buffer
	s := newTestProgress(&buf, false, 3, 2)
	pt := sweep.Point{Params: map[string]int64{"n": 64}, P: 2}
	s.ran(pt, 0, &sweep.Run{Wall: 1500 * time.Millisecond})
	s.ran(pt, 1, &sweep.Run{Err: errors.New("exit status 1")})
	s.say("mkvet calibrate: run %s rep 2 failed", pt)
	s.ran(pt, 0, nil)
	s.finish()
	got := buf.String()
	want := []string{
		"calibrate [###-----------------] 1/6 runs, 0/3 points, about 50s left  n=64 P=2 rep 1  1.5s  ok\n",
		// Two runs took 20 s by the clock: 10 s each, four left.
		"calibrate [######--------------] 2/6 runs, 1/3 points, 1 failed, about 40s left  n=64 P=2 rep 2  0s  FAILED\n",
		"mkvet calibrate: run n=64 P=2 rep 2 failed\n",
		"calibrate [##########----------] 3/6 runs, 1/3 points, 2 failed, about 30s left  n=64 P=2 rep 1  not run: its build failed\n",
	}
	if got != strings.Join(want, "") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, ""))
	}
	if strings.ContainsAny(got, "\r\033") {
		t.Errorf("plain output has terminal controls: %q", got)
	}
}

// TestSweepProgressTerminal: on a terminal the status line is redrawn in
// place, messages go above it (the line is cleared first and drawn again
// after), and finish ends the line.
func TestSweepProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	s := newTestProgress(&buf, true, 2, 1)
	pt := sweep.Point{P: 1}
	s.say("calibrate: building default")
	s.ran(pt, 0, &sweep.Run{})
	s.say("a message")
	s.ran(pt, 0, &sweep.Run{})
	s.finish()
	got := buf.String()
	want := "calibrate: building default\n" +
		"\r\033[Kcalibrate [--------------------] 0/2 runs, 0/2 points" +
		// One run in 10 s by the clock: 10 s left; redrawn after the
		// message, with 20 s gone, 20 s left.
		"\r\033[Kcalibrate [##########----------] 1/2 runs, 1/2 points, about 10s left" +
		"\r\033[K" + "a message\n" +
		"\r\033[Kcalibrate [##########----------] 1/2 runs, 1/2 points, about 20s left" +
		"\r\033[Kcalibrate [####################] 2/2 runs, 2/2 points" +
		"\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestRoundLeft: estimates under a minute in seconds, longer ones in
// minutes.
func TestRoundLeft(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{1400 * time.Millisecond, time.Second},
		{59 * time.Second, 59 * time.Second},
		{95 * time.Second, 2 * time.Minute},
		{61 * time.Minute, 61 * time.Minute},
	} {
		if got := roundLeft(c.in); got != c.want {
			t.Errorf("roundLeft(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
