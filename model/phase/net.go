package phase

import (
	"fmt"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/symbolic"
)

// Split is one size regime of a point-to-point model in MK's terms (seed
// 000 §4.1): the transmission time τ(m) and the send and receive overheads
// s and r, with τ + s + r = the model's Time(m) where Guard holds. The
// overheads are what a processor pays per message in a pipeline's steady
// state (Remain = B(s + r + o + W)); τ is what only the first message of a
// chain pays per hop (Fill).
type Split struct {
	Guard     []symbolic.Relation
	Tau, S, R symbolic.Expr
}

// SplitTime splits net's time for an m-byte message into τ, s and r per
// size regime:
//
//	Hockney  τ = m*t_c              s = r = t_s/2  (the start-up is software on both ends)
//	LogP     τ = L + (k-1)max(g,o)  s = r = o
//	LogGP    τ = L + m*G            s = r = o of the regime
//	         rendezvous: τ = 3L + m*G_c, s = r = (3o_s + 2o_l)/2
//	LogGPS   τ = L + m*G            s = r = o;  above S: τ = 3L + m*G, s = r = 5o/2
//
// MK's o (interrupt and other system overheads) is 0: no profile gives it.
func SplitTime(net model.PointToPoint, m symbolic.Expr) ([]Split, error) {
	c := symbolic.Const
	half := symbolic.RatFrac(1, 2)
	var out []Split
	switch n := net.(type) {
	case model.Hockney:
		h := c(n.Ts.Mul(half))
		out = append(out, Split{Tau: c(n.Tc).Mul(m), S: h, R: h})
	case model.LogP:
		w := n.W
		if w.Sign() <= 0 {
			w = symbolic.RatInt(8)
		}
		per := n.Gap
		if n.O.Cmp(per) > 0 {
			per = n.O
		}
		k := symbolic.Max(symbolic.Ceil(m.Div(c(w))), symbolic.Int(1))
		out = append(out, Split{Tau: c(n.L).Add(k.Sub(symbolic.Int(1)).Mul(c(per))), S: c(n.O), R: c(n.O)})
	case model.LogGP:
		if err := n.Validate(); err != nil {
			return nil, err
		}
		lo := symbolic.Rat{}
		for i, r := range n.Regimes {
			var g []symbolic.Relation
			if !lo.IsZero() {
				g = append(g, symbolic.Rel(m, ">=", c(lo)))
			}
			switch {
			case i < len(n.Regimes)-1:
				g = append(g, symbolic.Rel(m, "<", c(r.Below)))
				lo = r.Below
			case !n.EagerLimit.IsZero():
				g = append(g, symbolic.Rel(m, "<=", c(n.EagerLimit)))
			}
			out = append(out, Split{Guard: g, Tau: c(n.L).Add(c(r.G).Mul(m)), S: c(r.O), R: c(r.O)})
		}
		if !n.EagerLimit.IsZero() {
			rv := n.Rendezvous
			o := rv.OCtrl.Mul(symbolic.RatInt(3)).Add(rv.OData.Mul(symbolic.RatInt(2))).Mul(half)
			out = append(out, Split{
				Guard: []symbolic.Relation{symbolic.Rel(m, ">", c(n.EagerLimit))},
				Tau:   c(n.L.Mul(symbolic.RatInt(3))).Add(c(rv.G).Mul(m)), S: c(o), R: c(o),
			})
		}
	case model.LogGPS:
		five := c(n.O.Mul(symbolic.RatFrac(5, 2)))
		out = append(out,
			Split{Guard: []symbolic.Relation{symbolic.Rel(m, "<=", c(n.S))}, Tau: c(n.L).Add(c(n.G).Mul(m)), S: c(n.O), R: c(n.O)},
			Split{Guard: []symbolic.Relation{n.Synchronous(m)}, Tau: c(n.L.Mul(symbolic.RatInt(3))).Add(c(n.G).Mul(m)), S: five, R: five})
	default:
		return nil, fmt.Errorf("phase: no τ/s/r split for the model %T", net)
	}
	// Drop regimes a constant size rules out, and guards it satisfies.
	nonneg := symbolic.NewAssumptions(symbolic.Rel(m, ">=", symbolic.Int(0)))
	var kept []Split
	for _, s := range out {
		pw := symbolic.Piecewise{Pieces: []symbolic.Piece{{Guard: s.Guard, Value: symbolic.Int(1)}}}.Simplify(nonneg)
		if len(pw.Pieces) == 0 {
			continue
		}
		s.Guard = pw.Pieces[0].Guard
		kept = append(kept, s)
	}
	return kept, nil
}

// regimes holds a message time split into Piecewise parts over the regimes
// of a (possibly piecewise) message size.
type regimes struct {
	tau, ovh, time symbolic.Piecewise // τ, s + r, τ + s + r
	half           symbolic.Piecewise // s (= r)
}

// splitPW splits net's time for the message size mpw (a Piecewise in the
// parameters) region by region.
func (a *Analysis) splitPW(net model.PointToPoint, mpw symbolic.Piecewise) (regimes, error) {
	rs, err := disjoint(mpw, a.pv)
	if err != nil {
		return regimes{}, err
	}
	var out regimes
	for _, rg := range rs {
		sp, err := SplitTime(net, rg.value)
		if err != nil {
			return regimes{}, err
		}
		for _, s := range sp {
			g := append(append([]symbolic.Relation(nil), rg.guard...), s.Guard...)
			add := func(pw *symbolic.Piecewise, v symbolic.Expr) {
				pw.Pieces = append(pw.Pieces, symbolic.Piece{Guard: g, Value: v})
			}
			add(&out.tau, s.Tau)
			add(&out.ovh, s.S.Add(s.R))
			add(&out.time, s.Tau.Add(s.S).Add(s.R))
			add(&out.half, s.S)
		}
	}
	simp := func(pw *symbolic.Piecewise) { *pw = pw.SimplifyWithin(a.rankFree, proofBudget) }
	simp(&out.tau)
	simp(&out.ovh)
	simp(&out.time)
	simp(&out.half)
	return out, nil
}
