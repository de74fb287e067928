package model

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strconv"

	"github.com/mkvet/mkvet/symbolic"
)

// The JSON shapes of WriteJSON, in the order the format is documented.
type (
	jsonProfile struct {
		Name        string                 `json:"name,omitempty"`
		Description string                 `json:"description,omitempty"`
		Source      string                 `json:"source,omitempty"`
		Model       string                 `json:"model,omitempty"`
		Ops         *jsonOps               `json:"ops,omitempty"`
		Hockney     *jsonHockney           `json:"hockney,omitempty"`
		LogP        *jsonLogP              `json:"logp,omitempty"`
		LogGP       *jsonLogGP             `json:"loggp,omitempty"`
		LogGPS      *jsonLogGPS            `json:"loggps,omitempty"`
		Patterns    map[string]jsonPattern `json:"patterns,omitempty"`
		Memory      *jsonMemory            `json:"memory,omitempty"`
	}
	jsonMemory struct {
		CPUs   int            `json:"cpus,omitempty"`
		Line   int64          `json:"line,omitempty"`
		Levels []jsonMemLevel `json:"levels"`
		Source string         `json:"source,omitempty"`
		// Touch and TouchAll: Memory.TouchOne and TouchAll.
		Touch    string `json:"touch,omitempty"`
		TouchAll string `json:"touch_all,omitempty"`
	}
	jsonMemLevel struct {
		Name      string `json:"name"`
		Size      string `json:"size,omitempty"`
		Shared    int    `json:"shared,omitempty"`
		Ways      int    `json:"ways,omitempty"`
		Stream    string `json:"stream,omitempty"`
		StreamAll string `json:"stream_all,omitempty"`
		Stride    string `json:"stride,omitempty"`
		StrideAll string `json:"stride_all,omitempty"`
		Walk      string `json:"walk,omitempty"`
		WalkAll   string `json:"walk_all,omitempty"`
		Gather    string `json:"gather,omitempty"`
		GatherAll string `json:"gather_all,omitempty"`
		Move      string `json:"move,omitempty"`
		MoveAll   string `json:"move_all,omitempty"`
		// GatherHeld: MemLevel.GatherHeld.
		GatherHeld string `json:"gather_held,omitempty"`
	}
	jsonOps struct {
		Flop      string `json:"flop,omitempty"`
		Add       string `json:"add,omitempty"`
		Mul       string `json:"mul,omitempty"`
		Div       string `json:"div,omitempty"`
		Intrinsic string `json:"intrinsic,omitempty"`
		Load      string `json:"load,omitempty"`
		Store     string `json:"store,omitempty"`
		Vector    string `json:"vector,omitempty"`
		Scalar    string `json:"scalar,omitempty"`
		Chain     string `json:"chain,omitempty"`
		Complex   string `json:"complex,omitempty"`
	}
	jsonHockney struct {
		Ts string `json:"t_s"`
		Tc string `json:"t_c"`
	}
	jsonPattern struct {
		Rho  string `json:"rho"`
		Beta string `json:"beta"`
	}
	jsonLogP struct {
		L   string `json:"L"`
		O   string `json:"o"`
		Gap string `json:"g"`
		P   int    `json:"P,omitempty"`
		W   string `json:"W,omitempty"`
	}
	jsonRegime struct {
		Below string `json:"below,omitempty"`
		O     string `json:"o"`
		G     string `json:"G"`
	}
	jsonRendezvous struct {
		OCtrl string `json:"o_ctrl"`
		OData string `json:"o_data"`
		G     string `json:"G"`
	}
	jsonLogGP struct {
		L          string          `json:"L"`
		Gap        string          `json:"g,omitempty"`
		P          int             `json:"P,omitempty"`
		Regimes    []jsonRegime    `json:"regimes"`
		EagerLimit string          `json:"eager_limit,omitempty"`
		Rendezvous *jsonRendezvous `json:"rendezvous,omitempty"`
	}
	jsonLogGPS struct {
		L      string `json:"L"`
		O      string `json:"o"`
		Gap    string `json:"g"`
		G      string `json:"G"`
		P      int    `json:"P,omitempty"`
		S      string `json:"S"`
		Packet string `json:"s,omitempty"`
	}
)

func fmtBytes(r symbolic.Rat) string { return formatDecimal(r) + "B" }

// fmtFloat formats a measured time (a float64, 0 when not measured) with
// format, to four significant digits: the exact decimal of a float64
// would print seventeen.
func fmtFloat(v float64, format func(symbolic.Rat) string) string {
	if v <= 0 {
		return ""
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'g', 4, 64))
	if !ok {
		return ""
	}
	return format(symbolic.RatBig(r))
}

func fmtTimeOpt(r symbolic.Rat) string {
	if r.IsZero() {
		return ""
	}
	return FormatDuration(r)
}

// WriteJSON writes p in the JSON profile format, indented, with every
// quantity a string with its unit; ReadProfile reads it back.
func (p *Profile) WriteJSON(w io.Writer) error {
	j := jsonProfile{Name: p.Name, Description: p.Description, Source: p.Source, Model: p.Model}
	if p.Ops != (Ops{}) {
		o := p.Ops
		j.Ops = &jsonOps{Flop: fmtTimeOpt(o.Flop), Add: fmtTimeOpt(o.Add), Mul: fmtTimeOpt(o.Mul), Div: fmtTimeOpt(o.Div),
			Intrinsic: fmtTimeOpt(o.Intrinsic), Load: fmtTimeOpt(o.Load), Store: fmtTimeOpt(o.Store),
			Vector: fmtTimeOpt(o.Vector), Scalar: fmtTimeOpt(o.Scalar), Chain: fmtTimeOpt(o.Chain), Complex: fmtTimeOpt(o.Complex)}
	}
	if h := p.Hockney; h != nil {
		j.Hockney = &jsonHockney{Ts: FormatDuration(h.Ts), Tc: FormatPerByte(h.Tc)}
	}
	if l := p.LogP; l != nil {
		j.LogP = &jsonLogP{L: FormatDuration(l.L), O: FormatDuration(l.O), Gap: FormatDuration(l.Gap), P: l.P}
		if !l.W.IsZero() {
			j.LogP.W = fmtBytes(l.W)
		}
	}
	if g := p.LogGP; g != nil {
		j.LogGP = &jsonLogGP{L: FormatDuration(g.L), Gap: fmtTimeOpt(g.Gap), P: g.P}
		for _, r := range g.Regimes {
			jr := jsonRegime{O: FormatDuration(r.O), G: FormatPerByte(r.G)}
			if !r.Below.IsZero() {
				jr.Below = fmtBytes(r.Below)
			}
			j.LogGP.Regimes = append(j.LogGP.Regimes, jr)
		}
		if !g.EagerLimit.IsZero() {
			j.LogGP.EagerLimit = fmtBytes(g.EagerLimit)
			rv := g.Rendezvous
			j.LogGP.Rendezvous = &jsonRendezvous{OCtrl: FormatDuration(rv.OCtrl), OData: FormatDuration(rv.OData), G: FormatPerByte(rv.G)}
		}
	}
	if g := p.LogGPS; g != nil {
		j.LogGPS = &jsonLogGPS{L: FormatDuration(g.L), O: FormatDuration(g.O), Gap: FormatDuration(g.Gap),
			G: FormatPerByte(g.G), P: g.P, S: fmtBytes(g.S)}
		if !g.Packet.IsZero() {
			j.LogGPS.Packet = fmtBytes(g.Packet)
		}
	}
	if len(p.Patterns) > 0 {
		j.Patterns = map[string]jsonPattern{}
		for k, h := range p.Patterns {
			j.Patterns[k] = jsonPattern{Rho: FormatDuration(h.Ts), Beta: FormatPerByte(h.Tc)}
		}
	}
	if m := p.Memory; m != nil {
		j.Memory = &jsonMemory{CPUs: m.CPUs, Line: m.Line, Source: m.Source,
			Touch: fmtFloat(m.TouchOne, FormatPerByte), TouchAll: fmtFloat(m.TouchAll, FormatPerByte)}
		for _, l := range m.Levels {
			jl := jsonMemLevel{Name: l.Name, Shared: l.Shared, Ways: l.Ways,
				Stream: fmtFloat(l.One, FormatPerByte), StreamAll: fmtFloat(l.All, FormatPerByte),
				Stride: fmtFloat(l.StrideOne, FormatDuration), StrideAll: fmtFloat(l.StrideAll, FormatDuration),
				Walk: fmtFloat(l.WalkOne, FormatDuration), WalkAll: fmtFloat(l.WalkAll, FormatDuration),
				Gather: fmtFloat(l.GatherOne, FormatDuration), GatherAll: fmtFloat(l.GatherAll, FormatDuration),
				Move: fmtFloat(l.MoveOne, FormatPerByte), MoveAll: fmtFloat(l.MoveAll, FormatPerByte)}
			if l.Size > 0 {
				jl.Size = fmtBytes(symbolic.RatInt(l.Size))
			}
			if l.GatherHeld > 0 {
				jl.GatherHeld = fmtBytes(symbolic.RatInt(l.GatherHeld))
			}
			j.Memory.Levels = append(j.Memory.Levels, jl)
		}
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding profile %s: %w", p.Name, err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing profile %s: %w", p.Name, err)
	}
	return nil
}
