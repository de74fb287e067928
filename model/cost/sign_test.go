package cost_test

import "testing"

// SIGN of INTEGER arguments in loop bounds: |a| where b >= 0, -|a| where
// b < 0, by case on a sign the symbolic evaluation may not decide.
func TestSignAgainstExecution(t *testing.T) {
	checkAgainstExecution(t, "sign", `program signs
  implicit none
  integer :: n, k, i, j, s
  read *, n, k
  s = 0
  do j = -2, 2
    do i = 1, n + sign(k, j)
      s = s + 1
    end do
    do i = 1, isign(j - 1, k - 3) + 3
      s = s + 1
    end do
  end do
  do i = 1, sign(n, k)
    s = s + 1
  end do
  print *, s
end program signs
`, map[string][2]int64{"n": {0, 9}, "k": {-4, 4}})
}
