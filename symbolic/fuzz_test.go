package symbolic

import (
	"errors"
	"fmt"
	"testing"
)

var fuzzSeeds = []string{
	"N*N/P + 2*log2(P)", "floor(N/P)", "mod(N,P)", "modulo(k*P, P)", "min(a,b,3)",
	"N**2 - 3*N + 1", "2.0d0*N**2/P", "math.Floor(N/P) + math.Log2(P)", "sqrt(P)^3",
	"ceil((N+1)/(2*P))", "(N+1)^-2", "0 <= me <= P-1", "N >= P and P >= 1", "x^(1/2)",
	"real(floor(N/P, 8), 8)", "1e-6*N + 5d-3", "-(-(-N))", "abs(N-P)", "div(N,P)*P",
}

// FuzzParse: Parse never panics; a rejected input gets a ParseError whose column
// lies within the input (or just past its end); an accepted one prints in every
// syntax to text that parses back to the same expression.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			checkParseError(t, s, err)
			return
		}
		for _, syn := range []Syntax{Math, Fortran, Go} {
			text := e.Format(syn)
			back, err := Parse(text)
			if err != nil {
				t.Fatalf("Parse(%q) = %s; printing in syntax %d gives %s, which does not parse: %v", s, clip(e.String()), syn, clip(text), err)
			}
			if !Equal(back, e) {
				t.Fatalf("Parse(%q) = %s; syntax %d text %s parses back to %s", s, clip(e.String()), syn, clip(text), clip(back.String()))
			}
		}
	})
}

// FuzzParseRelations: relation chains never panic and errors carry a column.
func FuzzParseRelations(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rels, err := ParseRelations(s)
		if err != nil {
			checkParseError(t, s, err)
			return
		}
		if len(rels) == 0 {
			t.Fatalf("ParseRelations(%q) returned no relation and no error", s)
		}
		a := NewAssumptions(rels...)
		for _, r := range rels {
			_ = a.Prove(r) // must not panic
		}
	})
}

func checkParseError(t *testing.T, s string, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(%q): error %v is not a *ParseError", s, err)
	}
	if pe.Col < 1 || pe.Col > len(s)+1 {
		t.Fatalf("Parse(%q): column %d outside 1..%d: %v", s, pe.Col, len(s)+1, err)
	}
	if pe.Msg == "" {
		t.Fatalf("Parse(%q): empty message", s)
	}
}

// clip shortens long values in failure messages.
func clip(s string) string {
	if len(s) > 300 {
		return s[:150] + fmt.Sprintf(" ...(%d bytes)... ", len(s)-300) + s[len(s)-150:]
	}
	return s
}
