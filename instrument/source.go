package instrument

import (
	"path/filepath"
	"strings"
)

// sourceFile is one Fortran file split into physical lines and statements, the
// unit the rewriter edits. Statements keep, for every character of their text,
// the line and column it came from, so that APT positions (which point into the
// original file) find their statement and their place in it.
type sourceFile struct {
	name  string // as the APT spells it (the path given, or an INCLUDE name)
	path  string // where it was read
	fixed bool
	lines []string // physical lines without their newline
	stmts []*stmt
	// at maps a line number (1-based) to the statements with text on it.
	at map[int][]*stmt
}

// stmt is one Fortran statement: the physical lines it spans (continuations and
// the comment lines between them included) and its text with continuation marks
// and comments removed.
type stmt struct {
	file        *sourceFile
	first, last int // 1-based physical lines, inclusive
	// group numbers the runs of statements sharing physical lines (a ;
	// separated line): a group is copied verbatim or re-emitted as a whole.
	group int
	label string
	text  []byte
	pos   []lc // pos[i] is where text[i] came from
	// indent is the leading white space of the statement's first line (free
	// form), kept when the statement is re-emitted.
	indent string
}

// lc is a line and column, both counting from 1 (columns in bytes).
type lc struct{ line, col int32 }

// formOf tells fixed from free form by the extension, as gfortran does.
func formOf(name string) (fixed, known bool) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".f", ".for", ".f77", ".ftn", ".fpp":
		return true, true
	case ".f90", ".f95", ".f03", ".f08":
		return false, true
	}
	return true, false
}

// scan splits src into statements in the given form.
func scan(name, path string, src []byte, fixed bool) *sourceFile {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	f := &sourceFile{name: name, path: path, fixed: fixed, lines: lines, at: map[int][]*stmt{}}
	if fixed {
		f.scanFixed()
	} else {
		f.scanFree()
	}
	for _, s := range f.stmts {
		seen := map[int32]bool{}
		for _, p := range s.pos {
			if !seen[p.line] {
				seen[p.line] = true
				f.at[int(p.line)] = append(f.at[int(p.line)], s)
			}
		}
	}
	return f
}

// joiner accumulates one statement's text across continuation lines.
type joiner struct {
	s     *stmt
	quote byte // the open quote at the end of the text so far, 0 outside strings
}

func (j *joiner) add(b string, line, col int) {
	for k := 0; k < len(b); k++ {
		c := b[k]
		if j.quote != 0 {
			if c == j.quote {
				j.quote = 0
			}
		} else if c == '\'' || c == '"' {
			j.quote = c
		}
		j.s.text = append(j.s.text, c)
		j.s.pos = append(j.s.pos, lc{int32(line), int32(col + k)})
	}
}

// commentStart returns the index of a ! comment in b outside strings, given the
// quote open at its start, or len(b), and the quote open at the end.
func commentStart(b string, quote byte) (int, byte) {
	for k := 0; k < len(b); k++ {
		c := b[k]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '!':
			return k, 0
		case '\'', '"':
			quote = c
		}
	}
	return len(b), quote
}

func (f *sourceFile) scanFixed() {
	var j *joiner
	group := 0
	flush := func() {
		if j != nil {
			f.split(j.s)
			j = nil
		}
	}
	for i, raw := range f.lines {
		num := i + 1
		line := strings.TrimRight(raw, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		switch line[0] {
		case 'C', 'c', '*', '!', 'D', 'd':
			continue
		}
		if len(line) > 72 {
			line = line[:72]
		}
		fb := strings.IndexFunc(line, func(r rune) bool { return r != ' ' && r != '\t' })
		if fb < 0 || (line[fb] == '!' && fb != 5) {
			continue
		}
		label, cont, body, bodyCol := "", false, "", 7
		if t := strings.IndexByte(line, '\t'); t >= 0 && t < 6 {
			label = strings.TrimSpace(line[:t])
			body = line[t+1:]
			bodyCol = t + 2
			if len(body) > 0 && body[0] >= '1' && body[0] <= '9' {
				cont = true
				body = body[1:]
				bodyCol++
			}
		} else {
			label = strings.TrimSpace(line[:min(5, len(line))])
			if len(line) >= 6 && line[5] != ' ' && line[5] != '0' {
				cont = true
			}
			if len(line) > 6 {
				body = line[6:]
			}
		}
		if cont && j != nil {
			end, _ := commentStart(body, j.quote)
			j.add(body[:end], num, bodyCol)
			j.s.last = num
			continue
		}
		flush()
		group++
		j = &joiner{s: &stmt{file: f, first: num, last: num, group: group, label: strings.TrimLeft(label, "0")}}
		if k := len(body) - len(strings.TrimLeft(body, " ")); k < len(body) {
			j.s.indent = strings.Repeat(" ", k)
		}
		if label != "" && j.s.label == "" {
			j.s.label = "0"
		}
		end, _ := commentStart(body, 0)
		j.add(body[:end], num, bodyCol)
	}
	flush()
}

func (f *sourceFile) scanFree() {
	var j *joiner
	group := 0
	for i, raw := range f.lines {
		num := i + 1
		line := strings.TrimRight(raw, "\r")
		k := 0
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k == len(line) || (line[k] == '#' && j == nil) {
			continue
		}
		if line[k] == '!' {
			// A comment line; inside a continued statement it belongs to it.
			if j != nil {
				j.s.last = num
			}
			continue
		}
		body := line[k:]
		col := k + 1
		if j == nil {
			group++
			j = &joiner{s: &stmt{file: f, first: num, last: num, group: group, indent: line[:k]}}
			d := 0
			for d < len(body) && d < 6 && body[d] >= '0' && body[d] <= '9' {
				d++
			}
			if d > 0 && d < len(body) && (body[d] == ' ' || body[d] == '\t') {
				j.s.label = strings.TrimLeft(body[:d], "0")
				if j.s.label == "" {
					j.s.label = "0"
				}
				body = body[d:]
				col += d
			}
		} else {
			j.s.last = num
			if body[0] == '&' {
				body = body[1:]
				col++
			}
		}
		end, q := commentStart(body, j.quote)
		content := body[:end]
		more := false
		if t := strings.TrimRight(content, " \t"); strings.HasSuffix(t, "&") {
			more = true
			content = t[:len(t)-1]
		}
		_ = q
		j.add(content, num, col)
		if !more {
			f.split(j.s)
			j = nil
		}
	}
	if j != nil {
		f.split(j.s)
	}
}

// split cuts a joined statement at ; separators outside strings and appends
// the parts, which share the statement's group.
func (f *sourceFile) split(s *stmt) {
	var quote byte
	start := 0
	emit := func(end int) {
		text, pos := s.text[start:end], s.pos[start:end]
		// Trim blanks around the part.
		a, b := 0, len(text)
		for a < b && (text[a] == ' ' || text[a] == '\t') {
			a++
		}
		for b > a && (text[b-1] == ' ' || text[b-1] == '\t') {
			b--
		}
		if a == b {
			return
		}
		part := &stmt{file: f, group: s.group, text: text[a:b:b], pos: pos[a:b:b], indent: s.indent}
		part.first, part.last = int(part.pos[0].line), int(part.pos[len(part.pos)-1].line)
		if start == 0 {
			part.label = s.label
			part.first = s.first
		}
		if end == len(s.text) {
			part.last = s.last
		}
		f.stmts = append(f.stmts, part)
	}
	for k, c := range s.text {
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
		case ';':
			emit(k)
			start = k + 1
		}
	}
	emit(len(s.text))
}

// stmtAt returns the statement with a character at line:col, or else the
// first statement with text on that line at or after col.
func (f *sourceFile) stmtAt(line, col int) *stmt {
	var after *stmt
	for _, s := range f.at[line] {
		for _, p := range s.pos {
			if int(p.line) != line {
				continue
			}
			if int(p.col) == col {
				return s
			}
			if int(p.col) > col && after == nil {
				after = s
			}
		}
	}
	if after == nil && len(f.at[line]) > 0 {
		after = f.at[line][0]
	}
	return after
}

// index returns the offset in s.text of the character at line:col, or -1.
func (s *stmt) index(line, col int) int {
	for i, p := range s.pos {
		if int(p.line) == line && int(p.col) == col {
			return i
		}
	}
	return -1
}

// canon returns s's text from offset at in lower case with blanks removed
// outside strings (fixed form ignores blanks; for free form this only serves
// keyword tests).
func (s *stmt) canon(at int) string {
	var b strings.Builder
	var quote byte
	for _, c := range s.text[at:] {
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			b.WriteByte(c)
			continue
		}
		switch {
		case c == '\'' || c == '"':
			quote = c
		case c == ' ' || c == '\t':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// exprEnd returns the end of the expression starting at offset at: the first
// , or unmatched ) at nesting depth zero outside strings, or the end of text.
func (s *stmt) exprEnd(at int) int {
	depth := 0
	var quote byte
	for i := at; i < len(s.text); i++ {
		c := s.text[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
		case '(', '[':
			depth++
		case ')', ']':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s.text)
}
