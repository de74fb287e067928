package symeval

import (
	"regexp"
	"strings"
)

// The evaluation's messages name Fortran's statements (EXIT, GO TO, a DO
// loop). The C frontend lifts break, continue, goto and return to the same
// APT nodes, so for a C program the messages are reworded in C's terms:
// the user sees the words of the language they wrote.
var cKeywords = regexp.MustCompile(`\bIF \(\.\.\.\) EXIT\b|\bGO TO\b|\bEXIT\b|\bCYCLE\b|\bDO (loop|step)\b|\bRETURN\b|\bSTOP\b`)

func cWords(s string) string {
	if s == "" {
		return s
	}
	return cKeywords.ReplaceAllStringFunc(s, func(k string) string {
		switch k {
		case "IF (...) EXIT":
			return "if (...) break"
		case "GO TO":
			return "goto"
		case "EXIT":
			return "break"
		case "CYCLE":
			return "continue"
		case "RETURN":
			return "return"
		case "STOP":
			return "exit()"
		}
		return strings.TrimPrefix(k, "DO ") // DO loop, DO step
	})
}

// inC rewords the result's messages for a program lifted from C.
func (r *Result) inC() {
	for i := range r.Diags {
		r.Diags[i].Msg = cWords(r.Diags[i].Msg)
	}
	for _, p := range r.Params {
		p.What = cWords(p.What)
	}
	for i := range r.Assumed {
		r.Assumed[i].What = cWords(r.Assumed[i].What)
	}
	var walk func(o *Occ)
	walk = func(o *Occ) {
		if o == nil {
			return
		}
		o.Note = cWords(o.Note)
		for _, c := range o.Children {
			walk(c)
		}
	}
	walk(r.Root)
}
