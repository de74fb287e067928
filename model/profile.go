package model

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

// Profile describes a machine: what its operations cost and how its network
// passes messages, under one or more communication models. Costs are exact
// rationals in seconds, so that closed forms built from them stay exact.
type Profile struct {
	Name        string // short name, used by -machine NAME
	Description string // what machine, network and MPI the numbers describe
	Source      string // where the numbers come from (paper and table, or a netbench run)

	Ops Ops

	// Model names the point-to-point model Network returns: "hockney",
	// "logp", "loggp" or "loggps". Empty means the most detailed one the
	// profile has (LogGPS, LogGP, LogP, then Hockney).
	Model string

	Hockney *Hockney // t_s + m*t_c; nil when not given
	LogP    *LogP
	LogGP   *LogGP
	LogGPS  *LogGPS

	// Patterns holds SCALA-style measured rho + beta*D models per named
	// communication pattern (seed 001 §5, Table 2), such as "1d-short".
	Patterns map[string]Hockney

	// Memory is a node's memory hierarchy with the time to move data from
	// each level (mkvet membench), the memory term of a loop's cost; nil
	// when the profile gives none.
	Memory *Memory
}

// Ops holds the time in seconds of one operation of each kind. A zero
// arithmetic cost (add, multiply, divide, intrinsic) means "as a flop";
// zero load and store costs mean memory accesses are not charged. All zero
// means the profile gives no operation costs.
type Ops struct {
	Flop      symbolic.Rat // a floating-point operation, the default for the others (Pacheco's t_a)
	Add       symbolic.Rat // an addition or subtraction
	Mul       symbolic.Rat // a multiplication
	Div       symbolic.Rat // a division
	Intrinsic symbolic.Rat // a call of an intrinsic function (sqrt, exp, sin)
	Load      symbolic.Rat // an array element load
	Store     symbolic.Rat // an array element store

	// The seconds of one work unit (an add's weight) inside an innermost
	// loop, by how the processor runs it, as mkvet membench's unit kernels
	// measure them: Vector where the compiler vectorises it (contiguous
	// accesses: a triad, a stencil), Scalar where a strided or indirect
	// access keeps it from that (a gather), Chain where a chain of
	// dependent operations carried from one iteration to the next bounds
	// it (a dot product), Complex where it computes in complex arithmetic,
	// a complex operation one unit (an FFT butterfly). The memory term
	// compares a loop's data transfer with its computation at these
	// rates. Zero means the add time.
	Vector, Scalar, Chain, Complex symbolic.Rat
}

// Resolved returns o with zero arithmetic costs replaced by Flop.
func (o Ops) Resolved() Ops {
	for _, f := range []*symbolic.Rat{&o.Add, &o.Mul, &o.Div, &o.Intrinsic} {
		if f.IsZero() {
			*f = o.Flop
		}
	}
	return o
}

// Model names accepted in Profile.Model.
const (
	ModelHockney = "hockney"
	ModelLogP    = "logp"
	ModelLogGP   = "loggp"
	ModelLogGPS  = "loggps"
)

// Network returns the profile's point-to-point model: the one Model names,
// or the most detailed one present.
func (p *Profile) Network() (PointToPoint, error) {
	switch p.Model {
	case "":
		switch {
		case p.LogGPS != nil:
			return *p.LogGPS, nil
		case p.LogGP != nil:
			return *p.LogGP, nil
		case p.LogP != nil:
			return *p.LogP, nil
		case p.Hockney != nil:
			return *p.Hockney, nil
		}
		return nil, fmt.Errorf("profile %s: no communication model", p.Name)
	case ModelHockney:
		if p.Hockney != nil {
			return *p.Hockney, nil
		}
	case ModelLogP:
		if p.LogP != nil {
			return *p.LogP, nil
		}
	case ModelLogGP:
		if p.LogGP != nil {
			return *p.LogGP, nil
		}
	case ModelLogGPS:
		if p.LogGPS != nil {
			return *p.LogGPS, nil
		}
	default:
		return nil, fmt.Errorf("profile %s: unknown model %q (want hockney, logp, loggp or loggps)", p.Name, p.Model)
	}
	return nil, fmt.Errorf("profile %s: model %q is selected but not given", p.Name, p.Model)
}

// Pattern returns the measured model of the named communication pattern.
func (p *Profile) Pattern(name string) (Hockney, bool) {
	h, ok := p.Patterns[name]
	return h, ok
}

// Names returns the names of the embedded profiles, sorted.
func Names() []string {
	names := make([]string, 0, len(embedded))
	for _, p := range embedded {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	return names
}

// Lookup returns a copy of the embedded profile with the given name.
func Lookup(name string) (*Profile, bool) {
	for _, p := range embedded {
		if p.Name == name {
			return p.clone(), true
		}
	}
	return nil, false
}

// Default returns a copy of the embedded default profile, a present-day
// cluster node (DefaultName).
func Default() *Profile {
	p, _ := Lookup(DefaultName)
	return p
}

// Load returns the profile -machine names: an embedded profile by name, or
// else the JSON profile in the file at that path. The empty string is the
// default profile.
func Load(nameOrFile string) (*Profile, error) {
	if nameOrFile == "" {
		return Default(), nil
	}
	if p, ok := Lookup(nameOrFile); ok {
		return p, nil
	}
	data, err := os.ReadFile(nameOrFile)
	if err != nil {
		if os.IsNotExist(err) && !strings.ContainsAny(nameOrFile, `/\.`) {
			return nil, fmt.Errorf("no machine profile %q: not an embedded profile (%s) nor a file", nameOrFile, strings.Join(Names(), ", "))
		}
		return nil, fmt.Errorf("reading machine profile: %w", err)
	}
	return ReadProfile(nameOrFile, data)
}

// clone returns a deep copy of p, so callers may change what Lookup returns.
func (p *Profile) clone() *Profile {
	q := *p
	if p.Hockney != nil {
		h := *p.Hockney
		q.Hockney = &h
	}
	if p.LogP != nil {
		l := *p.LogP
		q.LogP = &l
	}
	if p.LogGP != nil {
		g := *p.LogGP
		g.Regimes = slices.Clone(g.Regimes)
		q.LogGP = &g
	}
	if p.LogGPS != nil {
		s := *p.LogGPS
		q.LogGPS = &s
	}
	if p.Memory != nil {
		m := *p.Memory
		m.Levels = slices.Clone(m.Levels)
		q.Memory = &m
	}
	if p.Patterns != nil {
		q.Patterns = make(map[string]Hockney, len(p.Patterns))
		for k, v := range p.Patterns {
			q.Patterns[k] = v
		}
	}
	return &q
}
