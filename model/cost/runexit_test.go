package cost_test

import "testing"

// A DO that an EXIT may leave, run inside a loop evaluated symbolically (a
// search for the part a line falls in): its variable is where the EXIT
// left it on the paths that took it, and one past the last value on the
// others.
func TestRunExitAgainstExecution(t *testing.T) {
	checkAgainstExecution(t, "run exit", `program search
  implicit none
  integer :: a, b, c, l, jl, mi, i, m, s
  integer :: parts(3)
  read *, a, b, c
  m = 3
  parts(1) = a
  parts(2) = b
  parts(3) = c
  s = 0
  do l = 1, a + b + c
    jl = l
    do mi = 1, m - 1
      if (jl <= parts(mi)) exit
      jl = jl - parts(mi)
    end do
    do i = 1, jl + 2*mi
      s = s + 1
    end do
  end do
  print *, s
end program search
`, map[string][2]int64{"a": {0, 6}, "b": {0, 6}, "c": {0, 6}})
}
