package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
)

// Logical operators decided in part. A test such as
//
//	if ((use_cheby .or. use_ppcg) .and. switched) then
//
// is decided by its flags when they are false, whatever the data that
// sets switched: Fortran's value of x .AND. y is false where x is,
// however y came out. The evaluation decides .AND. and .OR. that way in
// the conditions it evaluates (cond) and in those the analysis of a
// loop's body takes as invariant (decidedArms), by one rule.

// decideLogical decides x .AND. y or x .OR. y (op) from its operands'
// truth values l and r, each known or not (dl, dr): where both are known,
// or where one known operand settles it whatever the other is (.FALSE.
// .AND. y is false, .TRUE. .OR. y true). The symbolic evaluation (cond)
// and the analysis of which arms a loop's body can take (decidedArms) both
// decide by it.
func decideLogical(op apt.Op, l, dl, r, dr bool) (truth, decided bool) {
	absorbing := op == apt.OpOr // the value that settles op alone
	if dl && l == absorbing || dr && r == absorbing {
		return absorbing, true
	}
	if dl && dr {
		return !absorbing, true
	}
	return false, false
}

// decideIf is decide for a formula that is there (ok).
func decideIf(f counting.Formula, ok bool) (bool, bool) {
	if !ok {
		return false, false
	}
	return decide(f)
}
