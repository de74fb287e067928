package model

import (
	"fmt"
	"math"
	"strconv"

	"github.com/mkvet/mkvet/symbolic"
)

// PointToPoint is a model of one point-to-point message: the time from the
// sender's call to the message being in the receiver's buffer, the receiver
// having posted its receive in time.
type PointToPoint interface {
	// Time returns the time in seconds to pass m bytes (m an expression in
	// the program's parameters, m >= 0) as a Piecewise value whose guards
	// are conditions on m that partition m >= 0: one piece per size regime.
	Time(m symbolic.Expr) symbolic.Piecewise
	// Seconds is Time for a number of bytes, in floating point.
	Seconds(m float64) float64
}

func cnst(r symbolic.Rat) symbolic.Expr { return symbolic.Const(r) }

func f64(r symbolic.Rat) float64 { return r.Float64() }

// Hockney is the linear model T(m) = t_s + m*t_c: a start-up time (latency)
// plus a transfer time per byte. Pacheco writes it t_s + k*t_c (seed 004
// §11.5, "The Cost of Communication"), MK charges 120 us + m/(30 MB/s) on
// the Paragon (seed 000 §5.2), and SCALA's per-pattern model rho + beta*D
// (seed 001 §5, Table 2) is the same form with parameters measured per
// communication pattern.
type Hockney struct {
	Ts symbolic.Rat // start-up time t_s (rho), seconds
	Tc symbolic.Rat // transfer time t_c (beta), seconds per byte
}

// Time returns t_s + m*t_c as a single unguarded piece.
func (h Hockney) Time(m symbolic.Expr) symbolic.Piecewise {
	return symbolic.PiecewiseOf(cnst(h.Ts).Add(cnst(h.Tc).Mul(m)))
}

// Seconds returns t_s + m*t_c.
func (h Hockney) Seconds(m float64) float64 { return f64(h.Ts) + m*f64(h.Tc) }

// LogP is Culler et al.'s model (cited by seed 002 §II and seed 003 §2):
// latency L, overhead o at each end, gap g between consecutive messages of
// one processor, P processors. LogP passes only small messages of W bytes;
// a message of m bytes goes as k = max(ceil(m/W), 1) of them, injected one
// per max(g, o), the last arriving L + o after its injection:
//
//	T(m) = o + (k-1)*max(g, o) + L + o
type LogP struct {
	L   symbolic.Rat // latency, seconds
	O   symbolic.Rat // overhead per message at sender and at receiver, seconds
	Gap symbolic.Rat // gap g: minimum interval between messages, seconds
	P   int          // number of processors (0: not stated)
	W   symbolic.Rat // bytes in one small message (0 means 8)
}

func (l LogP) word() symbolic.Rat {
	if l.W.Sign() <= 0 {
		return symbolic.RatInt(8)
	}
	return l.W
}

func (l LogP) perMessage() symbolic.Rat {
	if l.Gap.Cmp(l.O) > 0 {
		return l.Gap
	}
	return l.O
}

// Time returns 2o + L + (max(ceil(m/W), 1) - 1)*max(g, o).
func (l LogP) Time(m symbolic.Expr) symbolic.Piecewise {
	k := symbolic.Max(symbolic.Ceil(m.Div(cnst(l.word()))), symbolic.Int(1))
	base := cnst(l.O.Add(l.O).Add(l.L))
	return symbolic.PiecewiseOf(base.Add(k.Sub(symbolic.Int(1)).Mul(cnst(l.perMessage()))))
}

// Seconds is Time in floating point.
func (l LogP) Seconds(m float64) float64 {
	k := math.Max(math.Ceil(m/f64(l.word())), 1)
	return 2*f64(l.O) + f64(l.L) + (k-1)*f64(l.perMessage())
}

// Regime is one message-size range of a LogGP model: the overhead and the
// gap per byte that hold for sizes below Below.
type Regime struct {
	// Below is the exclusive upper bound of the range in bytes; zero in the
	// last regime, which extends to the eager limit.
	Below symbolic.Rat
	O     symbolic.Rat // overhead o at sender and at receiver, seconds
	G     symbolic.Rat // gap per byte G, seconds per byte
}

// Rendezvous holds the parameters of messages above the eager limit, sent
// in Brim's three steps (seed 002 §V.iii): the envelope, the receiver's
// acknowledgement, then the data.
type Rendezvous struct {
	OCtrl symbolic.Rat // overhead of the envelope and acknowledgement (Brim's o_s), seconds
	OData symbolic.Rat // overhead of the data message (Brim's o_l), seconds
	G     symbolic.Rat // gap per byte of the data (Brim's G_c), seconds per byte
}

// LogGP is the LogGP model with size regimes as Brim fits it to LAM/MPI
// (seed 002 §V.iii). A message of m bytes up to the eager limit goes with
// its envelope at once, with the overhead o and gap per byte G of its size
// regime:
//
//	T(m) = o + m*G + L + o                                   (Brim, short messages)
//
// Above the eager limit the envelope goes first and the data only after the
// receiver's acknowledgement, an extra round trip:
//
//	T(m) = o_s + L + o_s + o_s + L + o_l + m*G_c + L + o_l   (Brim, long messages)
//	     = 3L + 3o_s + 2o_l + m*G_c
//
// Brim's LAM/MPI regimes are m < 1400 B (one Ethernet packet: o_s, G_a),
// 1400 B <= m <= 64 KiB (o_l, G_b) and m > 64 KiB (rendezvous, G_c).
// Brim writes m*G where Alexandrov et al. write (m-1)*G; mkvet follows the
// seed.
type LogGP struct {
	L       symbolic.Rat // latency, seconds
	Gap     symbolic.Rat // gap g between small messages, seconds (0: not measured)
	P       int          // number of processors (0: not stated)
	Regimes []Regime     // eager size regimes in increasing order, at least one
	// EagerLimit is the largest message in bytes sent eagerly; larger ones
	// use Rendezvous. Zero means every message is eager.
	EagerLimit symbolic.Rat
	Rendezvous Rendezvous
}

// Time returns the time of an m-byte message, one piece per regime and one
// for the rendezvous protocol.
func (g LogGP) Time(m symbolic.Expr) symbolic.Piecewise {
	var pieces []symbolic.Piece
	lo := symbolic.Rat{}
	for i, r := range g.Regimes {
		var guard []symbolic.Relation
		if !lo.IsZero() {
			guard = append(guard, symbolic.Rel(m, ">=", cnst(lo)))
		}
		last := i == len(g.Regimes)-1
		switch {
		case !last:
			guard = append(guard, symbolic.Rel(m, "<", cnst(r.Below)))
			lo = r.Below
		case !g.EagerLimit.IsZero():
			guard = append(guard, symbolic.Rel(m, "<=", cnst(g.EagerLimit)))
		}
		v := cnst(r.O.Add(r.O).Add(g.L)).Add(cnst(r.G).Mul(m))
		pieces = append(pieces, symbolic.Piece{Guard: guard, Value: v})
	}
	if !g.EagerLimit.IsZero() {
		rv := g.Rendezvous
		c := g.L.Mul(symbolic.RatInt(3)).Add(rv.OCtrl.Mul(symbolic.RatInt(3))).Add(rv.OData.Mul(symbolic.RatInt(2)))
		pieces = append(pieces, symbolic.Piece{
			Guard: []symbolic.Relation{symbolic.Rel(m, ">", cnst(g.EagerLimit))},
			Value: cnst(c).Add(cnst(rv.G).Mul(m)),
		})
	}
	return cases(m, pieces...)
}

// Seconds is Time in floating point.
func (g LogGP) Seconds(m float64) float64 {
	if !g.EagerLimit.IsZero() && m > f64(g.EagerLimit) {
		rv := g.Rendezvous
		return 3*f64(g.L) + 3*f64(rv.OCtrl) + 2*f64(rv.OData) + m*f64(rv.G)
	}
	for i, r := range g.Regimes {
		if i == len(g.Regimes)-1 || m < f64(r.Below) {
			return 2*f64(r.O) + f64(g.L) + m*f64(r.G)
		}
	}
	return math.NaN() // no regimes: Validate refuses such a model
}

// Validate reports a LogGP model that Time cannot evaluate: no regime,
// regime bounds not increasing, or an eager limit not above the last bound.
func (g LogGP) Validate() error {
	if len(g.Regimes) == 0 {
		return fmt.Errorf("no size regime")
	}
	lo := symbolic.Rat{}
	for i, r := range g.Regimes[:len(g.Regimes)-1] {
		if r.Below.Cmp(lo) <= 0 {
			return fmt.Errorf("regime %d: bound %s B is not above the previous bound %s B", i, r.Below, lo)
		}
		lo = r.Below
	}
	if last := g.Regimes[len(g.Regimes)-1]; !last.Below.IsZero() {
		return fmt.Errorf("regime %d: the last regime has no upper bound (it extends to the eager limit)", len(g.Regimes)-1)
	}
	if !g.EagerLimit.IsZero() && g.EagerLimit.Cmp(lo) < 0 {
		return fmt.Errorf("eager limit %s B is below the last regime bound %s B", g.EagerLimit, lo)
	}
	return nil
}

// LogGPS is Ino et al.'s LogGPS (seed 003 §2): LogGP with a threshold S
// above which messages are synchronous, the sender waiting for the receiver
// to acknowledge a request (REQ) before the data moves, and a packet
// threshold s. Asynchronous messages (m <= S) cost o + m*G + L + o;
// synchronous ones (m > S) cost the REQ, the acknowledgement and the data,
// three latencies, as in Brim's rendezvous (seed 002) with one overhead o:
//
//	T(m) = o + m*G + L + o         m <= S
//	T(m) = 3L + 5o + m*G           m > S
//
// The sender of a synchronous message also waits until the receiver calls
// its receive: see SendWait.
type LogGPS struct {
	L   symbolic.Rat // latency, seconds
	O   symbolic.Rat // overhead, seconds
	Gap symbolic.Rat // gap g between messages, seconds
	G   symbolic.Rat // gap per byte, seconds per byte
	P   int          // number of processors (0: not stated)
	S   symbolic.Rat // synchronous threshold in bytes: larger messages synchronize
	// Packet is the threshold s in bytes above which a message is split
	// into packets (0: not stated); it does not enter Time.
	Packet symbolic.Rat
}

// Time returns the time of an m-byte message: asynchronous up to S bytes,
// synchronous above.
func (g LogGPS) Time(m symbolic.Expr) symbolic.Piecewise {
	async := cnst(g.O.Add(g.O).Add(g.L)).Add(cnst(g.G).Mul(m))
	sync := cnst(g.L.Mul(symbolic.RatInt(3)).Add(g.O.Mul(symbolic.RatInt(5)))).Add(cnst(g.G).Mul(m))
	return cases(m,
		symbolic.Piece{Guard: []symbolic.Relation{symbolic.Rel(m, "<=", cnst(g.S))}, Value: async},
		symbolic.Piece{Guard: []symbolic.Relation{g.Synchronous(m)}, Value: sync},
	)
}

// Synchronous returns the condition m > S under which an m-byte message is
// sent in synchronous mode.
func (g LogGPS) Synchronous(m symbolic.Expr) symbolic.Relation {
	return symbolic.Rel(m, ">", cnst(g.S))
}

// Seconds is Time in floating point.
func (g LogGPS) Seconds(m float64) float64 {
	if m > f64(g.S) {
		return 3*f64(g.L) + 5*f64(g.O) + m*f64(g.G)
	}
	return 2*f64(g.O) + f64(g.L) + m*f64(g.G)
}

// SendWait returns the time the sender of a synchronous message waits for
// its receiver (seed 003 §4): the REQ arrives o + L after the send is
// called at sendAt, and the sender waits from then until the matching
// receive is called at recvAt, max(recvAt - sendAt - (o + L), 0).
func (g LogGPS) SendWait(sendAt, recvAt float64) float64 {
	return math.Max(recvAt-sendAt-(f64(g.O)+f64(g.L)), 0)
}

// RegimeOf names the size regime of net that an m-byte message falls in:
// LogGP's eager ranges and its rendezvous protocol (Brim, seed 002 §V.iii),
// LogGPS's asynchronous and synchronous modes (seed 003 §2). Models with a
// single regime (Hockney, LogP) return "". A sweep over P changes message
// sizes; the regimes a sweep crosses are where a fit of one regime stops
// describing the messages.
func RegimeOf(net PointToPoint, m float64) string {
	switch n := net.(type) {
	case LogGP:
		if !n.EagerLimit.IsZero() && m > f64(n.EagerLimit) {
			return "rendezvous > " + FormatBytes(f64(n.EagerLimit))
		}
		lo := 0.0
		for i, r := range n.Regimes {
			last := i == len(n.Regimes)-1
			limited := !n.EagerLimit.IsZero()
			switch {
			case last && lo == 0 && limited:
				return "eager ≤ " + FormatBytes(f64(n.EagerLimit))
			case last && lo == 0:
				return "eager"
			case last && limited:
				return "eager " + FormatBytes(lo) + "–" + FormatBytes(f64(n.EagerLimit))
			case last:
				return "eager ≥ " + FormatBytes(lo)
			case m < f64(r.Below) && lo == 0:
				return "eager < " + FormatBytes(f64(r.Below))
			case m < f64(r.Below):
				return "eager " + FormatBytes(lo) + "–" + FormatBytes(f64(r.Below))
			}
			lo = f64(r.Below)
		}
	case LogGPS:
		if m > f64(n.S) {
			return "synchronous > " + FormatBytes(f64(n.S))
		}
		return "asynchronous ≤ " + FormatBytes(f64(n.S))
	}
	return ""
}

// FormatBytes prints a byte count for people, in the largest binary unit
// it reaches: whole when it is a multiple of the unit (64 KiB, 32 MiB),
// else with one decimal (12.1 KiB, 51.8 MiB); below 10 KiB a count that is
// not a whole number of KiB stays in bytes (Brim's 1400 B, not "1.4 KiB").
// +Inf is "unbounded" (a last memory level).
func FormatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	if math.IsInf(b, 1) {
		return "unbounded"
	}
	i := 0
	for i < len(units)-1 && b >= math.Ldexp(1, 10*(i+1)) {
		i++
	}
	u := math.Ldexp(1, 10*i)
	switch {
	case math.Mod(b, u) == 0:
		return strconv.FormatFloat(b/u, 'f', -1, 64) + " " + units[i]
	case b < 10<<10:
		return strconv.FormatFloat(math.Round(b), 'f', -1, 64) + " B"
	}
	return strconv.FormatFloat(b/u, 'f', 1, 64) + " " + units[i]
}
