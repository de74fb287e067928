package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

func init() {
	register(&command{
		name:  "expr",
		usage: "[-D name=value ...] [-diff K] [-assume 'N >= P'] [-format math|fortran|go] [-json] 'EXPR'",
		short: "print an expression's canonical form, its value at a point, its derivative and sign",
		order: 10,
		run:   runExpr,
	})
}

// exprResult is the -json output of mkvet expr.
type exprResult struct {
	Input      string            `json:"input"`
	Canonical  string            `json:"canonical"`
	Fortran    string            `json:"fortran"`
	Go         string            `json:"go"`
	At         map[string]string `json:"at,omitempty"`
	Value      string            `json:"value,omitempty"`       // exact, when rational
	ValueFloat *float64          `json:"value_float,omitempty"` // when the point fixes every symbol
	Derivative string            `json:"derivative,omitempty"`
	DiffBy     string            `json:"diff_by,omitempty"`
	Assume     []string          `json:"assume,omitempty"`
	Simplified string            `json:"simplified,omitempty"`
	NonNeg     string            `json:"nonneg,omitempty"`   // e >= 0: true|false|unknown
	Positive   string            `json:"positive,omitempty"` // e > 0
}

func runExpr(args []string, stdout, stderr io.Writer) int {
	c := lookup("expr")
	fs := newFlagSet(c, stderr)
	var defs, assumes multiFlag
	fs.Var(&defs, "D", "set `name=value` (repeatable, or comma-separated); a value may be an expression")
	diff := fs.String("diff", "", "also print the partial derivative by `symbol`")
	fs.Var(&assumes, "assume", "assume `relations` such as 'N >= P' or '0 <= me <= P-1' (repeatable)")
	format := fs.String("format", "math", "print the canonical form as `syntax`: math, fortran or go")
	asJSON := fs.Bool("json", false, "print a JSON object")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mkvet expr: want exactly one expression argument")
		fs.Usage()
		return 2
	}
	src := pos[0]
	e, err := symbolic.Parse(src)
	if err != nil {
		reportParseError(stderr, "expr", src, err)
		return 2
	}
	res := exprResult{Input: src, Canonical: e.String(), Fortran: e.Format(symbolic.Fortran), Go: e.Format(symbolic.Go)}

	assume := symbolic.NewAssumptions()
	for _, a := range assumes {
		if err := assume.AssumeText(a); err != nil {
			reportParseError(stderr, "assume", a, err)
			return 2
		}
		res.Assume = append(res.Assume, a)
	}

	var deriv symbolic.Expr
	if *diff != "" {
		if !isName(*diff) {
			fmt.Fprintf(stderr, "mkvet expr: -diff wants a symbol name, found %q\n", *diff)
			return 2
		}
		d, err := e.Diff(*diff)
		if err != nil {
			fmt.Fprintf(stderr, "mkvet expr: d/d%s: %v\n", *diff, err)
			return 2
		}
		deriv = d
		res.DiffBy, res.Derivative = *diff, d.String()
	}

	if len(assumes) > 0 {
		s := assume.Simplify(e)
		if !s.Equal(e) {
			res.Simplified = s.String()
		}
		res.NonNeg = assume.Prove(symbolic.Rel(e, ">=", symbolic.Int(0))).String()
		res.Positive = assume.Prove(symbolic.Rel(e, ">", symbolic.Int(0))).String()
	}

	at, names, err := parseDefs(defs)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet expr: %v\n", err)
		return 2
	}
	if len(at) > 0 {
		res.At = map[string]string{}
		for _, n := range names {
			res.At[n] = at[n].String()
		}
		v, err := e.Subst(at)
		if err != nil {
			fmt.Fprintf(stderr, "mkvet expr: at %s: %v\n", pointString(at, names), err)
			return 2
		}
		if r, ok := v.Const(); ok {
			res.Value = r.String()
			f := r.Float64()
			res.ValueFloat = &f
		} else if len(v.Symbols()) == 0 {
			f, err := v.EvalFloat(nil)
			if err != nil {
				fmt.Fprintf(stderr, "mkvet expr: %v\n", err)
				return 2
			}
			res.ValueFloat = &f
			res.Value = ""
		} else {
			res.Value = v.String() // partially evaluated
		}
		if *diff != "" {
			dv, err := deriv.Subst(at)
			if err == nil {
				res.Derivative = res.Derivative + "  =  " + evalString(dv)
			}
		}
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
		return 0
	}
	switch *format {
	case "math":
	case "fortran":
		res.Canonical = res.Fortran
	case "go":
		res.Canonical = res.Go
	default:
		fmt.Fprintf(stderr, "mkvet expr: unknown -format %q (want math, fortran or go)\n", *format)
		return 2
	}
	fmt.Fprintf(stdout, "expr    %s\n", res.Canonical)
	if res.Simplified != "" {
		fmt.Fprintf(stdout, "simpl   %s   (under the assumptions)\n", res.Simplified)
	}
	if len(at) > 0 {
		fmt.Fprintf(stdout, "at      %s\n", pointString(at, names))
		switch {
		case res.Value != "" && res.ValueFloat != nil:
			fmt.Fprintf(stdout, "value   %s", res.Value)
			if !strings.Contains(res.Value, "/") {
				fmt.Fprintln(stdout)
			} else {
				fmt.Fprintf(stdout, "  (%.6g)\n", *res.ValueFloat)
			}
		case res.ValueFloat != nil:
			fmt.Fprintf(stdout, "value   %.12g  (irrational; rounded)\n", *res.ValueFloat)
		default:
			fmt.Fprintf(stdout, "value   %s\n", res.Value)
		}
	}
	if res.DiffBy != "" {
		fmt.Fprintf(stdout, "d/d%s   %s\n", res.DiffBy, res.Derivative)
	}
	if len(assumes) > 0 {
		fmt.Fprintf(stdout, "assume  %s\n", assume)
		fmt.Fprintf(stdout, "sign    >= 0: %s, > 0: %s\n", res.NonNeg, res.Positive)
	}
	return 0
}

func evalString(v symbolic.Expr) string {
	if r, ok := v.Const(); ok {
		if r.IsInt() {
			return r.String()
		}
		return fmt.Sprintf("%s (%.6g)", r, r.Float64())
	}
	if len(v.Symbols()) == 0 {
		if f, err := v.EvalFloat(nil); err == nil {
			return fmt.Sprintf("%.12g", f)
		}
	}
	return v.String()
}

// parseDefs reads -D values: name=expr, repeated or comma-separated. Values are
// expressions; a value may use names defined before it (-D N=1024,M=N/2).
func parseDefs(defs []string) (map[string]symbolic.Expr, []string, error) {
	at := map[string]symbolic.Expr{}
	var names []string
	for _, d := range defs {
		for _, item := range splitTopLevel(d) {
			name, val, ok := strings.Cut(item, "=")
			name = strings.TrimSpace(name)
			if !ok || !isName(name) {
				return nil, nil, fmt.Errorf("-D %q: want name=value", item)
			}
			v, err := symbolic.Parse(val)
			if err != nil {
				var pe *symbolic.ParseError
				if errors.As(err, &pe) {
					return nil, nil, fmt.Errorf("-D %s=%s: col %d: %s", name, val, pe.Col, pe.Msg)
				}
				return nil, nil, fmt.Errorf("-D %s: %v", item, err)
			}
			v, err = v.Subst(at)
			if err != nil {
				return nil, nil, fmt.Errorf("-D %s: %v", item, err)
			}
			if _, seen := at[name]; !seen {
				names = append(names, name)
			}
			at[name] = v
		}
	}
	return at, names, nil
}

// splitTopLevel splits s at commas outside parentheses (N=min(a,b),P=4).
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	out = append(out, s[start:])
	return slices.DeleteFunc(out, func(x string) bool { return strings.TrimSpace(x) == "" })
}

func pointString(at map[string]symbolic.Expr, names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + at[n].String()
	}
	return strings.Join(parts, ", ")
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// reportParseError prints "what:1:col: message", the text and a caret under the column.
func reportParseError(w io.Writer, what, src string, err error) {
	var pe *symbolic.ParseError
	if !errors.As(err, &pe) {
		fmt.Fprintf(w, "%s: %v\n", what, err)
		return
	}
	fmt.Fprintf(w, "%s:1:%d: %s\n", what, pe.Col, pe.Msg)
	fmt.Fprintf(w, "\t%s\n\t%s^\n", src, strings.Repeat(" ", max(0, pe.Col-1)))
}
