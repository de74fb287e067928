package instrument

import (
	"fmt"
	"strings"
)

// edits are the changes to one statement. Probe statements are Fortran text
// without label or layout; the emitter lays them out for the file's form.
type edits struct {
	// routinePre runs before the statement but after nothing else: routine
	// entry probes, which a jump to the statement's label must not repeat.
	routinePre []string
	// pre and post surround the statement; a jump to its label runs pre.
	pre, post []string
	// postOuter follows everything, including a CONTINUE that took over the
	// statement's label: the exit probes of a loop whose terminal it is.
	postOuter []string
	repl      []textEdit
	action    *actionEdits
}

// actionEdits turn a logical IF into a block IF so that its action
// statement can have probes around it.
type actionEdits struct {
	at        int // offset of the action in the statement text
	branch    []string
	pre, post []string
}

// textEdit replaces text[from:to] of a statement.
type textEdit struct {
	from, to int
	text     string
}

func (e *edits) empty() bool {
	return e == nil || (len(e.routinePre) == 0 && len(e.pre) == 0 && len(e.post) == 0 &&
		len(e.postOuter) == 0 && len(e.repl) == 0 && e.action == nil)
}

// line is one statement to lay out: an optional label and its text.
type line struct{ label, text string }

// render returns the output lines of the file with the edits applied.
// Statements without edits keep their physical lines byte for byte.
func (f *sourceFile) render(ed map[*stmt]*edits, doTerm func(*stmt) bool, afterLine map[int][]string) []string {
	var out []string
	groups := map[int][]*stmt{}
	first := map[int]int{} // group -> first line
	last := map[int]int{}
	for _, s := range f.stmts {
		if _, ok := groups[s.group]; !ok {
			first[s.group] = s.first
		}
		groups[s.group] = append(groups[s.group], s)
		last[s.group] = max(last[s.group], s.last)
	}
	startOf := map[int]int{} // first line -> group
	for g, l := range first {
		startOf[l] = g
	}
	for n := 1; n <= len(f.lines); n++ {
		g, ok := startOf[n]
		if !ok {
			out = append(out, f.lines[n-1])
			for _, p := range afterLine[n] {
				out = append(out, f.layout(line{text: p}, "")...)
			}
			continue
		}
		changed := false
		for _, s := range groups[g] {
			if !ed[s].empty() {
				changed = true
			}
		}
		end := last[g]
		if !changed {
			out = append(out, f.lines[n-1:end]...)
		} else {
			for _, s := range groups[g] {
				for _, l := range f.statement(s, ed[s], doTerm(s)) {
					out = append(out, f.layout(l, s.indent)...)
				}
			}
		}
		for k := n; k <= end; k++ {
			for _, p := range afterLine[k] {
				out = append(out, f.layout(line{text: p}, "")...)
			}
		}
		n = end
	}
	return out
}

// statement returns the statements that replace s. The label rules keep
// Fortran's meaning: a jump to s's label runs its pre-probes (the label moves
// to a CONTINUE before them), and a DO loop ending at s still ends after s
// and its post-probes (the label moves to a CONTINUE after them).
func (f *sourceFile) statement(s *stmt, e *edits, doTerm bool) []line {
	if e == nil {
		e = &edits{}
	}
	text := applyEdits(s.text, e.repl)
	var body []line
	if a := e.action; a != nil {
		shift := 0
		for _, r := range e.repl {
			if r.to <= a.at {
				shift += len(r.text) - (r.to - r.from)
			}
		}
		head := strings.TrimRight(text[:a.at+shift], " \t")
		body = append(body, line{text: head + " then"})
		for _, p := range a.branch {
			body = append(body, line{text: p})
		}
		for _, p := range a.pre {
			body = append(body, line{text: p})
		}
		body = append(body, line{text: strings.TrimLeft(text[a.at+shift:], " \t")})
		for _, p := range a.post {
			body = append(body, line{text: p})
		}
		body = append(body, line{text: "end if"})
	} else {
		body = []line{{text: strings.TrimLeft(text, " \t")}}
	}
	var out []line
	add := func(ps []string) {
		for _, p := range ps {
			out = append(out, line{text: p})
		}
	}
	add(e.routinePre)
	L := s.label
	hasPost := len(e.post) > 0 || len(body) > 1
	switch {
	case L == "":
		add(e.pre)
		out = append(out, body...)
		add(e.post)
	case !doTerm:
		if len(e.pre) > 0 {
			out = append(out, line{label: L, text: "continue"})
			add(e.pre)
		} else {
			body[0].label = L
		}
		out = append(out, body...)
		add(e.post)
	default:
		// A DO terminal. The planner leaves no probes on a terminal that is
		// also a jump target, so moving the label after them is safe.
		add(e.pre)
		if hasPost {
			out = append(out, body...)
			add(e.post)
			out = append(out, line{label: L, text: "continue"})
		} else {
			body[0].label = L
			out = append(out, body...)
		}
	}
	add(e.postOuter)
	return out
}

// applyEdits returns text with the replacements made (they do not overlap).
func applyEdits(text []byte, repl []textEdit) string {
	if len(repl) == 0 {
		return string(text)
	}
	rs := append([]textEdit(nil), repl...)
	// Apply from the end so that offsets stay valid.
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].from > rs[j-1].from; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
	b := append([]byte(nil), text...)
	for _, r := range rs {
		b = append(b[:r.from], append([]byte(r.text), b[r.to:]...)...)
	}
	return string(b)
}

// Line lengths of the layouts: fixed form's 72 columns, and a free-form
// width well inside the 132 columns compilers accept by default.
const (
	fixedWidth = 72
	freeWidth  = 100
)

// layout writes one statement in the file's form, continuing long lines.
// A continuation may split a token or a character constant: fixed form
// simply concatenates columns 7-72, and free form does when the continued
// line starts with &.
func (f *sourceFile) layout(l line, indent string) []string {
	text := strings.ReplaceAll(l.text, "\t", " ")
	if f.fixed {
		// Chunks that continue keep their trailing blanks, which may belong
		// to a character constant.
		var out []string
		if len(indent) > 30 {
			indent = indent[:30]
		}
		prefix := fmt.Sprintf("%-5s ", l.label) + indent
		room := fixedWidth - len(prefix)
		for len(text) > room {
			out = append(out, prefix+text[:room])
			text = text[room:]
			prefix = "     &"
			room = fixedWidth - len(prefix)
		}
		return append(out, prefix+text)
	}
	prefix := indent
	if l.label != "" {
		prefix += l.label + " "
	}
	var out []string
	for {
		room := freeWidth - len(prefix)
		if room < 20 {
			room = 20
		}
		if len(text) <= room {
			return append(out, prefix+text)
		}
		out = append(out, prefix+text[:room]+"&")
		text = text[room:]
		prefix = indent + "&"
	}
}
