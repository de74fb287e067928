package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandTemplate(t *testing.T) {
	vars := Vars(Point{Params: map[string]int64{"x_cells": 64, "end_step": 10}, P: 2}, "/b/prog", "/b", nil)
	deck := "*clover\n x_cells={x_cells}\n y_cells={X_CELLS}\n end_step={end_step} ! {{not a placeholder}}\n*endclover\n"
	got, err := ExpandTemplate("clover.in.tmpl", deck, vars)
	if err != nil {
		t.Fatal(err)
	}
	want := "*clover\n x_cells=64\n y_cells=64\n end_step=10 ! {not a placeholder}\n*endclover\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, err := ExpandTemplate("t", "np {P}, run by {exe} in {dir}", vars); err != nil || got != "np 2, run by /b/prog in /b" {
		t.Errorf("got %q, %v", got, err)
	}
	for _, c := range []struct{ text, want string }{
		{"a\n x={y_cells}\n", "t:2:4: unknown placeholder {y_cells} (known: {P} {dir} {end_step} {exe} {srcs} {x_cells})"},
		{"x={x_cells", "t:1:3: unclosed { (write {{ for a brace)"},
		{"x={x_cells\n}", "t:1:3: unclosed { (write {{ for a brace)"},
		{"ok\n\tb}", "t:2:3: a lone } (write }} for a brace)"},
		{"{}", "t:1:1: empty placeholder {}"},
		{"{{x}} {x_cells} {", "t:1:17: unclosed { (write {{ for a brace)"},
	} {
		_, err := ExpandTemplate("t", c.text, vars)
		var te *TemplateError
		if !errors.As(err, &te) || err.Error() != c.want {
			t.Errorf("ExpandTemplate(%q): %v, want %s", c.text, err, c.want)
		}
	}
}

func TestParseInputFile(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "deck.tmpl")
	if err := os.WriteFile(tmpl, []byte("n={n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ParseInputFile("in/deck.in=" + tmpl)
	if err != nil || f.Name != filepath.Join("in", "deck.in") || f.Template != "n={n}\n" || f.Source != tmpl {
		t.Fatalf("got %+v, %v", f, err)
	}
	run := t.TempDir()
	if err := f.write(run, Vars(Point{Params: map[string]int64{"n": 7}, P: 1}, "", "", nil)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(run, "in", "deck.in")); err != nil || string(b) != "n=7\n" {
		t.Errorf("written %q, %v", b, err)
	}
	// A run writes only inside its own directory.
	for _, spec := range []string{"/etc/deck=" + tmpl, "../deck=" + tmpl, "a/../../deck=" + tmpl, "deck", "=x", "deck=" + filepath.Join(dir, "none")} {
		if _, err := ParseInputFile(spec); err == nil {
			t.Errorf("ParseInputFile(%q): no error", spec)
		}
	}
}

// FuzzExpandTemplate: any template either expands or fails with a
// position inside it; text without braces comes back unchanged, and a
// template made of escaped braces and text expands to the text unescaped.
func FuzzExpandTemplate(f *testing.F) {
	for _, s := range []string{"x={x}\n", "{{}}", "{", "}", "a\n{P}{exe}", "{x\n}", "é{x}é", "{{x}}{x}}}"} {
		f.Add(s)
	}
	vars := Vars(Point{Params: map[string]int64{"x": 3}, P: 4}, "e", "d", []string{"a.f", "b.f"})
	f.Fuzz(func(t *testing.T, text string) {
		out, err := ExpandTemplate("f", text, vars)
		if err != nil {
			var te *TemplateError
			if !errors.As(err, &te) {
				t.Fatalf("%q: error %v is not a TemplateError", text, err)
			}
			lines := strings.Split(text, "\n")
			if te.Line < 1 || te.Line > len(lines) || te.Col < 1 || te.Col > len(lines[te.Line-1]) {
				t.Fatalf("%q: position %d:%d outside the text", text, te.Line, te.Col)
			}
			if c := lines[te.Line-1][te.Col-1]; c != '{' && c != '}' {
				t.Fatalf("%q: error at %d:%d points at %q, not a brace", text, te.Line, te.Col, c)
			}
			return
		}
		if !strings.ContainsAny(text, "{}") && out != text {
			t.Fatalf("%q: text without braces changed to %q", text, out)
		}
		escaped := strings.NewReplacer("{", "{{", "}", "}}").Replace(text)
		if back, err := ExpandTemplate("f", escaped, vars); err != nil || back != text {
			t.Fatalf("%q escaped: %q, %v", text, back, err)
		}
	})
}
