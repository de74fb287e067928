package symeval

import "github.com/mkvet/mkvet/frontend/apt"

// leanVisits bounds the work of an evaluation's trial walks: probes of a
// loop for the increments of its counters and walks of its body for the
// arrays it leaves alone, which walk the body again beside the walk kept.
// They nest (a probe of a loop walks the loops inside it, which probe and
// run in turn), so their work grows with the product of a nest's levels.
// Past that many node visits in them, loops are no longer run trip by trip
// or probed; the rest of the program is evaluated once through, as a loop
// beyond the run budgets always is, its values of the data kept as
// parameters. Runs outside probes have their own budget (totalRunBudget).
const leanVisits = 150000

// lean reports whether the evaluation's trial walks are past their bound
// (leanVisits or Options.LeanVisits); the first time they are, it records
// where (Result.LeanFrom).
func (ev *evaluator) lean() bool {
	if ev.trialVisits <= ev.leanAt {
		return false
	}
	if ev.leanFrom == nil {
		ev.leanFrom = &apt.Pos{}
		if len(ev.frames) > 0 {
			if fr := ev.frame(); len(fr.loops) > 0 {
				*ev.leanFrom = fr.loops[len(fr.loops)-1].Span.Start()
			} else {
				*ev.leanFrom = fr.routine.Span.Start()
			}
		}
	}
	return true
}

// mayTry reports whether a trial walk of a loop's body may start: within
// the nesting of probes (maxProbeNest) and the bound on their work.
func (ev *evaluator) mayTry() bool {
	return ev.probing < maxProbeNest && !ev.lean()
}
