package symeval_test

import (
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// TestConvertedWordVaries: a function that converts a word of its input
// with an internal READ returns data, another value on each call, like
// the READ itself: a test of it is a branch on data (a frequency), not a
// value to ask for.
func TestConvertedWordVaries(t *testing.T) {
	res := evaluate(t, `program p
  implicit none
  character(len=16) :: word
  integer :: stat, v, odd, getival
  odd = 0
  do
    read (*, '(a)', iostat=stat) word
    if (stat /= 0) exit
    v = getival(word)
    if (mod(v, 2) /= 0) odd = odd + 1
  end do
end program p

integer function getival(w)
  character(len=*) :: w
  read (w, *) getival
end function getival
`, symeval.Options{})
	for _, p := range res.Params {
		if p.Origin == symeval.FromUnresolved {
			t.Errorf("parameter %s (%s): the converted word is data, not a value to ask for", p.Name, p.What)
		}
	}
}
