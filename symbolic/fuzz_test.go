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

// TestParseBoundsSqrtPowers: a power of the square root of a sum expands a
// power of the sum, and is bounded like one. (A+10)^(11111/2), found by
// FuzzParse, took two minutes to expand (A+10)^5555 before it was.
func TestParseBoundsSqrtPowers(t *testing.T) {
	for _, s := range []string{"(A+10)^(11111/2)", "sqrt(A+10)^11111", "(A+10)^(-11111/2)", "(2*B*sqrt(A+1))^20001"} {
		_, err := Parse(s)
		if err == nil {
			t.Fatalf("Parse(%q) expanded a power of a sum beyond the limit", s)
		}
		checkParseError(t, s, err)
	}
	// Within the limit the value is the one of the power written out (in
	// floating point: a quotient by a sum has more than one form).
	for s, want := range map[string]string{
		"(A+10)^(7/2)":  "(A+10)^3*sqrt(A+10)",
		"(A+10)^(-7/2)": "sqrt(A+10)/(A+10)^4",
		"sqrt(A+1)^3":   "(A+1)*sqrt(A+1)",
	} {
		got, w := MustParse(s), MustParse(want)
		for _, a := range []float64{0, 1, 2.5, 7} {
			x, err1 := got.EvalFloat(map[string]float64{"A": a})
			y, err2 := w.EvalFloat(map[string]float64{"A": a})
			if err1 != nil || err2 != nil || !closeRel(x, y, 1e-12) {
				t.Errorf("Parse(%q) = %s is %v at A = %v, want %s = %v", s, got, x, a, w, y)
			}
		}
	}
}

// FuzzParsePiece: a piece read from a value and a guard (check -json's
// {value, guard}) never panics, rejects with a ParseError, and one it
// accepts prints to text that reads back to the same piece.
func FuzzParsePiece(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+11)%len(fuzzSeeds)])
	}
	f.Fuzz(func(t *testing.T, value, guard string) {
		p, err := ParsePiece(value, []string{guard})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePiece(%q, %q): error %v is not a *ParseError", value, guard, err)
			}
			return
		}
		var gs []string
		for _, r := range p.Guard {
			gs = append(gs, r.String())
		}
		back, err := ParsePiece(p.Value.String(), gs)
		if err != nil || !Equal(back.Value, p.Value) || len(back.Guard) != len(p.Guard) {
			t.Fatalf("ParsePiece(%q, %q) prints as %s if %v, which reads back as %v (%v)", value, guard, p.Value, gs, back, err)
		}
		for i, r := range p.Guard {
			if back.Guard[i].Op != r.Op || !Equal(back.Guard[i].E, r.E) {
				t.Fatalf("ParsePiece(%q, %q): guard %s reads back as %s", value, guard, r, back.Guard[i])
			}
		}
	})
}
