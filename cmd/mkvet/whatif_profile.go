package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/symbolic"
)

// setProfile applies -set name=value,... to the profile's selected model
// and operation costs.
func setProfile(p *model.Profile, spec string) error {
	col := 1
	for _, item := range strings.Split(spec, ",") {
		name, val, ok := strings.Cut(item, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		bad := func(format string, args ...any) error {
			return usagef("-set:1:%d: "+format, append([]any{col}, args...)...)
		}
		if !ok || name == "" {
			return bad("want name=value, found %q", item)
		}
		dur := func() (symbolic.Rat, error) {
			d, err := model.ParseDuration(val)
			if err != nil {
				return d, bad("%s: %v", name, err)
			}
			return d, nil
		}
		perByte := func() (symbolic.Rat, error) {
			d, err := model.ParsePerByte(val)
			if err != nil {
				return d, bad("%s: %v", name, err)
			}
			return d, nil
		}
		if name == "model" {
			p.Model = val
			if _, err := p.Network(); err != nil {
				return bad("%v", err)
			}
			col += len(item) + 1
			continue
		}
		ops := map[string]*symbolic.Rat{"flop": &p.Ops.Flop, "add": &p.Ops.Add, "mul": &p.Ops.Mul, "div": &p.Ops.Div,
			"intrinsic": &p.Ops.Intrinsic, "load": &p.Ops.Load, "store": &p.Ops.Store,
			"vector": &p.Ops.Vector, "scalar": &p.Ops.Scalar, "chain": &p.Ops.Chain, "complex": &p.Ops.Complex}
		if f, ok := ops[name]; ok {
			d, err := dur()
			if err != nil {
				return err
			}
			if old := p.Ops.Resolved().Add; (name == "add" || name == "flop" && p.Ops.Add.IsZero()) && old.Sign() > 0 {
				// A faster or slower add is a faster or slower
				// processor: its loops' work units scale with it.
				for _, k := range []*symbolic.Rat{&p.Ops.Vector, &p.Ops.Scalar, &p.Ops.Chain, &p.Ops.Complex} {
					*k = k.Mul(d).Quo(old)
				}
			}
			*f = d
			col += len(item) + 1
			continue
		}
		net, err := p.Network()
		if err != nil {
			return bad("%v", err)
		}
		known := ""
		var set error
		switch n := net.(type) {
		case model.Hockney:
			known = "t_s, t_c"
			switch name {
			case "t_s", "ts":
				n.Ts, set = dur()
			case "t_c", "tc":
				n.Tc, set = perByte()
			default:
				known = "!" + known
			}
			*p.Hockney = n
		case model.LogP:
			known = "L, o, g"
			switch name {
			case "L":
				n.L, set = dur()
			case "o":
				n.O, set = dur()
			case "g":
				n.Gap, set = dur()
			default:
				known = "!" + known
			}
			*p.LogP = n
		case model.LogGP:
			known = "L, o, g, G (o and G for every size regime)"
			switch name {
			case "L":
				n.L, set = dur()
			case "g":
				n.Gap, set = dur()
			case "o", "G":
				n.Regimes = slices.Clone(n.Regimes)
				var v symbolic.Rat
				if name == "o" {
					v, set = dur()
				} else {
					v, set = perByte()
				}
				for i := range n.Regimes {
					if name == "o" {
						n.Regimes[i].O = v
					} else {
						n.Regimes[i].G = v
					}
				}
				if name == "o" {
					n.Rendezvous.OCtrl, n.Rendezvous.OData = v, v
				} else {
					n.Rendezvous.G = v
				}
			default:
				known = "!" + known
			}
			*p.LogGP = n
		case model.LogGPS:
			known = "L, o, g, G, S"
			switch name {
			case "L":
				n.L, set = dur()
			case "o":
				n.O, set = dur()
			case "g":
				n.Gap, set = dur()
			case "G":
				n.G, set = perByte()
			case "S":
				n.S, set = model.ParseBytes(val)
				if set != nil {
					set = bad("S: %v", set)
				}
			default:
				known = "!" + known
			}
			*p.LogGPS = n
		}
		if set != nil {
			return set
		}
		if strings.HasPrefix(known, "!") {
			return bad("%s is not a parameter of the %s model (%s) nor an operation cost (flop, add, mul, div, intrinsic, load, store, vector, scalar, chain, complex)",
				name, modelName(net), known[1:])
		}
		col += len(item) + 1
	}
	return nil
}

func modelName(net model.PointToPoint) string {
	switch net.(type) {
	case model.Hockney:
		return "Hockney"
	case model.LogP:
		return "LogP"
	case model.LogGP:
		return "LogGP"
	case model.LogGPS:
		return "LogGPS"
	}
	return fmt.Sprintf("%T", net)
}
