package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

func init() {
	register(&command{
		name:  "count",
		usage: "[-assume REL ...] [-sum WEIGHT] [-at name=value,... ...] [-per 'k=1..p'] [-json] 'SET'",
		short: "count the integer points of a set exactly, as a closed form in its parameters",
		order: 20,
		run:   runCount,
	})
}

// countPoint is one -at evaluation in the -json output.
type countPoint struct {
	At    map[string]string `json:"at"`
	Value string            `json:"value"`
	// Over the processor range of -per, when given.
	Per *perProcessor `json:"per,omitempty"`
}

type perProcessor struct {
	Var       string `json:"var"`
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	Total     string `json:"total"`
	Max       string `json:"max"`
	ArgMax    int64  `json:"argmax"`
	Min       string `json:"min"`
	ArgMin    int64  `json:"argmin"`
	Imbalance string `json:"imbalance"` // max/mean
}

type countResult struct {
	Set    string       `json:"set"`
	Weight string       `json:"weight"`
	Assume []string     `json:"assume,omitempty"`
	Pieces []countPiece `json:"pieces"`
	Points []countPoint `json:"points,omitempty"`
}

type countPiece struct {
	Guard []string `json:"guard"`
	Value string   `json:"value"`
}

func runCount(args []string, stdout, stderr io.Writer) int {
	c := lookup("count")
	fs := newFlagSet(c, stderr)
	var ats, assumes multiFlag
	fs.Var(&assumes, "assume", "assume `relations` about the parameters, e.g. 'p >= 1, 1 <= k <= p' (repeatable)")
	fs.Var(&ats, "at", "evaluate at the point `name=value,...` (repeatable)")
	sum := fs.String("sum", "1", "sum the polynomial `weight` over the points instead of counting them")
	per := fs.String("per", "", "at each -at point also report total, max, min and imbalance over a processor id, as `k=lo..hi`")
	asJSON := fs.Bool("json", false, "print a JSON object")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mkvet count: want exactly one set argument")
		fs.Usage()
		return 2
	}
	src := pos[0]
	set, err := counting.ParseSet(src)
	if err != nil {
		var pe *counting.ParseError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "set:1:%d: %s\n\t%s\n\t%s^\n", pe.Col, pe.Msg, src, strings.Repeat(" ", max(0, pe.Col-1)))
		} else {
			fmt.Fprintf(stderr, "set: %v\n", err)
		}
		return 2
	}
	w, err := symbolic.Parse(*sum)
	if err != nil {
		reportParseError(stderr, "sum", *sum, err)
		return 2
	}
	a := symbolic.NewAssumptions()
	for _, s := range assumes {
		if err := a.AssumeText(s); err != nil {
			reportParseError(stderr, "assume", s, err)
			return 2
		}
	}
	var perVar string
	var perLo, perHi symbolic.Expr
	if *per != "" {
		name, rng, ok := strings.Cut(*per, "=")
		lo, hi, ok2 := strings.Cut(rng, "..")
		if !ok || !ok2 || !isName(strings.TrimSpace(name)) {
			fmt.Fprintf(stderr, "mkvet count: -per %q: want name=lo..hi\n", *per)
			return 2
		}
		perVar = strings.TrimSpace(name)
		if perLo, err = symbolic.Parse(lo); err == nil {
			perHi, err = symbolic.Parse(hi)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mkvet count: -per %q: %v\n", *per, err)
			return 2
		}
	}
	pw, err := counting.Sum(set, w, a, counting.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet count: %v\n", err)
		return 2
	}
	pw = pw.Tidy(a)
	res := countResult{Set: set.String(), Weight: w.String(), Assume: assumes}
	for _, p := range pw.Pieces {
		cp := countPiece{Value: p.Value.String(), Guard: []string{}}
		for _, g := range p.Guard {
			cp.Guard = append(cp.Guard, g.String())
		}
		res.Pieces = append(res.Pieces, cp)
	}
	for _, at := range ats {
		point, names, err := parseDefs([]string{at})
		if err != nil {
			fmt.Fprintf(stderr, "mkvet count: %v\n", err)
			return 2
		}
		env := map[string]symbolic.Rat{}
		cp := countPoint{At: map[string]string{}}
		for _, n := range names {
			v, ok := point[n].Const()
			if !ok {
				fmt.Fprintf(stderr, "mkvet count: -at %s: %s is not a number\n", at, n)
				return 2
			}
			env[n] = v
			cp.At[n] = v.String()
		}
		if perVar == "" || env[perVar] != (symbolic.Rat{}) {
			v, err := pw.Eval(env)
			if err != nil {
				fmt.Fprintf(stderr, "mkvet count: at %s: %v\n", at, err)
				return 2
			}
			cp.Value = v.String()
		}
		if perVar != "" {
			pp, err := overProcessors(pw, env, perVar, perLo, perHi)
			if err != nil {
				fmt.Fprintf(stderr, "mkvet count: at %s: %v\n", at, err)
				return 2
			}
			cp.Per = pp
		}
		res.Points = append(res.Points, cp)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
		return 0
	}
	what := "count"
	if *sum != "1" {
		what = "sum of " + w.String()
	}
	fmt.Fprintf(stdout, "%s of %s\n", what, res.Set)
	if len(assumes) > 0 {
		fmt.Fprintf(stdout, "assuming %s\n", a)
	}
	switch len(res.Pieces) {
	case 0:
		fmt.Fprintln(stdout, "  = 0")
	case 1:
		p := res.Pieces[0]
		fmt.Fprintf(stdout, "  = %s\n", p.Value)
		if len(p.Guard) > 0 {
			fmt.Fprintf(stdout, "    if %s, else 0\n", strings.Join(p.Guard, " and "))
		}
	default:
		fmt.Fprintf(stdout, "  = the sum of the %d terms whose conditions hold:\n", len(res.Pieces))
		for _, p := range res.Pieces {
			g := "always"
			if len(p.Guard) > 0 {
				g = strings.Join(p.Guard, " and ")
			}
			fmt.Fprintf(stdout, "    %s\n        if %s\n", p.Value, g)
		}
	}
	for _, p := range res.Points {
		var parts []string
		for _, n := range sortedKeys(p.At) {
			parts = append(parts, n+"="+p.At[n])
		}
		at := strings.Join(parts, ", ")
		if p.Value != "" {
			fmt.Fprintf(stdout, "at %s: %s\n", at, p.Value)
		}
		if pp := p.Per; pp != nil {
			fmt.Fprintf(stdout, "at %s, over %s=%d..%d: total %s, max %s (%s=%d), min %s (%s=%d), imbalance max/mean %s\n",
				at, pp.Var, pp.From, pp.To, pp.Total, pp.Max, pp.Var, pp.ArgMax, pp.Min, pp.Var, pp.ArgMin, pp.Imbalance)
		}
	}
	return 0
}

// overProcessors evaluates pw at every value of the processor id v from lo to
// hi (evaluated at env) and returns the total, the extremes and max/mean.
func overProcessors(pw symbolic.Piecewise, env map[string]symbolic.Rat, v string, lo, hi symbolic.Expr) (*perProcessor, error) {
	bound := func(e symbolic.Expr) (int64, error) {
		r, err := e.Eval(env)
		if err != nil {
			return 0, err
		}
		n, ok := r.Int64()
		if !ok {
			return 0, fmt.Errorf("processor bound %s = %s is not an integer", e, r)
		}
		return n, nil
	}
	from, err := bound(lo)
	if err != nil {
		return nil, err
	}
	to, err := bound(hi)
	if err != nil {
		return nil, err
	}
	if to < from || to-from > 1<<20 {
		return nil, fmt.Errorf("processor range %d..%d is empty or too large", from, to)
	}
	pp := &perProcessor{Var: v, From: from, To: to}
	var total, best, worst symbolic.Rat
	for k := from; k <= to; k++ {
		e := map[string]symbolic.Rat{}
		for n, x := range env {
			e[n] = x
		}
		e[v] = symbolic.RatInt(k)
		x, err := pw.Eval(e)
		if err != nil {
			return nil, err
		}
		total = total.Add(x)
		if k == from || x.Cmp(best) > 0 {
			best, pp.ArgMax = x, k
		}
		if k == from || x.Cmp(worst) < 0 {
			worst, pp.ArgMin = x, k
		}
	}
	pp.Total, pp.Max, pp.Min = total.String(), best.String(), worst.String()
	if total.IsZero() {
		pp.Imbalance = "undefined (no work)"
	} else {
		mean := total.Quo(symbolic.RatInt(to - from + 1))
		pp.Imbalance = fmt.Sprintf("%.4g", best.Quo(mean).Float64())
	}
	return pp, nil
}

// sortedKeys returns m's keys in order: a stable, readable output.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
