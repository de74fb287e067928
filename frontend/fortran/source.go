package fortran

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Form is a Fortran source form.
type Form int

// Source forms. FormAuto chooses by file extension.
const (
	FormAuto  Form = iota // auto
	FormFixed             // fixed
	FormFree              // free
)

// String returns the flag spelling of f.
func (f Form) String() string {
	switch f {
	case FormFixed:
		return "fixed"
	case FormFree:
		return "free"
	}
	return "auto"
}

// ParseForm parses "fixed", "free" or "auto" (or "").
func ParseForm(s string) (Form, bool) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormAuto, true
	case "fixed":
		return FormFixed, true
	case "free":
		return FormFree, true
	}
	return FormAuto, false
}

// formOf returns the source form implied by a file name and whether the built-in
// preprocessor runs on it, following gfortran: .f .for .f77 .ftn fixed, .f90 and
// later free; an upper-case extension (.F .F90) means "preprocess first".
func formOf(name string) (Form, bool, bool) {
	ext := filepath.Ext(name)
	switch ext {
	case ".f", ".for", ".f77", ".ftn", ".fpp":
		return FormFixed, false, true
	case ".F", ".FOR", ".F77", ".FTN", ".FPP":
		return FormFixed, true, true
	case ".f90", ".f95", ".f03", ".f08":
		return FormFree, false, true
	case ".F90", ".F95", ".F03", ".F08":
		return FormFree, true, true
	}
	return FormFixed, false, false
}

// Handles reports whether name's extension is one of a Fortran source
// file (formOf).
func Handles(name string) bool {
	_, _, known := formOf(name)
	return known
}

// Extensions lists the file extensions read as Fortran, for messages.
const Extensions = ".f .for .f77 .ftn .fpp .f90 .f95 .f03 .f08 (upper case: preprocessed first)"

// srcLine is one physical line after preprocessing, with where it came from.
type srcLine struct {
	file string
	num  int
	text string
	// cols maps each byte of text to its column in the file when macro
	// expansion changed the line (nil otherwise): expanded text takes the
	// column of the macro name, so positions stay inside the source line.
	cols []int32
}

// lpos is a compact source position (the file is per statement).
// col is the column in the file of column c of the line's text: where
// a macro expanded, the column of the macro's name.
func (ln *srcLine) col(c int) int {
	if ln.cols != nil && c >= 1 && c-1 < len(ln.cols) {
		return int(ln.cols[c-1])
	}
	return c
}

type lpos struct {
	line int32
	col  int32
}

// dirKind says whether a statement is a directive comment and which.
type dirKind uint8

const (
	dirNone dirKind = iota
	dirHPF
	dirOMP
	dirMK
)

// stmt is one logical statement: continuation lines joined, comments removed,
// and, outside character constants, blanks removed and letters upper-cased. Blank
// removal is what fixed form requires (DO10I=1,N is DO 10 I = 1, N) and is
// harmless in free form, where blanks only separate tokens that the statement
// grammar already separates; the parser therefore works on one canonical text for
// both forms, and pos maps every byte back to its line and column.
type stmt struct {
	file  string
	label string
	text  []byte
	pos   []lpos
	start lpos
	end   lpos
	dir   dirKind
	raw   string // the statement as written (first line), for Unknown nodes
}

func (s *stmt) posAt(i int) apt.Pos {
	if len(s.pos) == 0 {
		return apt.Pos{File: s.file, Line: int(s.start.line), Col: int(s.start.col)}
	}
	if i >= len(s.pos) {
		p := s.pos[len(s.pos)-1]
		return apt.Pos{File: s.file, Line: int(p.line), Col: int(p.col) + 1}
	}
	if i < 0 {
		i = 0
	}
	return apt.Pos{File: s.file, Line: int(s.pos[i].line), Col: int(s.pos[i].col)}
}

func (s *stmt) span() apt.Span {
	return apt.Span{File: s.file, Line: int(s.start.line), Col: int(s.start.col),
		EndLine: int(s.end.line), EndCol: int(s.end.col)}
}

// joiner accumulates the characters of one logical statement.
type joiner struct {
	file    string
	text    []byte
	pos     []lpos
	quote   byte // open quote character while inside a character constant
	label   string
	start   lpos
	end     lpos
	started bool
	raw     string
	dir     dirKind
	// hollerith is set in fixed form, where nH followed by n characters is
	// a character constant (gfortran -std=legacy): 12HBAD ARGUMENT as an
	// actual argument or a DATA value.
	hollerith bool
}

// hollerithAt returns, for a Hollerith constant starting at line[k] (digits
// then H, where a constant may start: after "(", ",", "/" or "="), its
// text and the index just past it; blanks inside count, and a line that
// ends early is padded with blanks as fixed form pads it to column 72.
func (j *joiner) hollerithAt(line []byte, k int) (text []byte, next int, ok bool) {
	if !j.hollerith || len(j.text) == 0 || !strings.ContainsRune("(,/=", rune(j.text[len(j.text)-1])) {
		return nil, 0, false
	}
	m := k
	for m < len(line) && isDigit(line[m]) {
		m++
	}
	if m >= len(line) || (line[m] != 'H' && line[m] != 'h') || m-k > 3 {
		return nil, 0, false
	}
	n, err := strconv.Atoi(string(line[k:m]))
	if err != nil || n < 1 {
		return nil, 0, false
	}
	start := m + 1
	end := min(start+n, len(line))
	text = append([]byte(nil), line[start:end]...)
	for len(text) < n {
		text = append(text, ' ')
	}
	return text, end, true
}

// add appends the characters of line (1-based column col0 of its first byte in
// the possibly macro-expanded text, mapped through cols when that is not nil)
// stopping at a comment. It compacts blanks and upper-cases outside strings.
func (j *joiner) add(line []byte, num int, col0 int, cols []int32) {
	if j.text == nil {
		j.text = make([]byte, 0, len(line))
		j.pos = make([]lpos, 0, len(line))
	}
	at := func(k int) lpos {
		c := col0 + k
		if cols != nil && c-1 < len(cols) && c >= 1 {
			return lpos{int32(num), cols[c-1]}
		}
		return lpos{int32(num), int32(c)}
	}
	for k := 0; k < len(line); k++ {
		c := line[k]
		p := at(k)
		if j.quote != 0 {
			j.text = append(j.text, c)
			j.pos = append(j.pos, p)
			j.end = p
			if c == j.quote {
				if k+1 < len(line) && line[k+1] == j.quote {
					j.text = append(j.text, c)
					j.pos = append(j.pos, at(k+1))
					k++
					continue
				}
				j.quote = 0
			}
			continue
		}
		if isDigit(c) {
			if h, next, ok := j.hollerithAt(line, k); ok {
				// Written as the character constant it is: 'text'.
				j.text = append(j.text, '\'')
				j.pos = append(j.pos, p)
				for _, b := range h {
					j.text = append(j.text, b)
					j.pos = append(j.pos, p)
					if b == '\'' {
						j.text = append(j.text, b)
						j.pos = append(j.pos, p)
					}
				}
				j.text = append(j.text, '\'')
				j.pos = append(j.pos, p)
				j.end = at(next - 1)
				k = next - 1
				continue
			}
		}
		switch {
		case c == '!':
			return
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '\'' || c == '"':
			j.quote = c
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		if !j.started {
			j.started = true
			j.start = p
		}
		j.text = append(j.text, c)
		j.pos = append(j.pos, p)
		j.end = p
	}
}

// reader turns lines into statements for one form.
type reader struct {
	fe   *frontend
	out  []*stmt
	form Form
}

// emit splits the joined text at top-level semicolons and appends statements.
func (r *reader) emit(j *joiner) {
	if len(j.text) == 0 {
		if j.label != "" {
			r.fe.diag(apt.Pos{File: j.file, Line: int(j.start.line), Col: int(j.start.col)}, apt.Warning, "label "+j.label+" on an empty statement")
		}
		return
	}
	text, pos := j.text, j.pos
	label := j.label
	var quote byte
	first := true
	begin := 0
	for k := 0; k <= len(text); k++ {
		if k < len(text) {
			c := text[k]
			if quote != 0 {
				if c == quote {
					quote = 0
				}
				continue
			}
			if c == '\'' || c == '"' {
				quote = c
				continue
			}
			if c != ';' || j.dir != dirNone {
				continue
			}
		}
		if k > begin {
			s := &stmt{file: j.file, text: text[begin:k:k], pos: pos[begin:k:k], dir: j.dir,
				start: pos[begin], end: pos[k-1], raw: j.raw}
			if first {
				s.label = label
				if j.start.line != 0 && j.start.line < s.start.line || (j.start.line == s.start.line && j.start.col < s.start.col) {
					s.start = j.start
				}
			}
			first = false
			r.out = append(r.out, s)
		}
		begin = k + 1
	}
}

// directive recognises a directive sentinel at the start of a comment (after the
// comment character) and returns its kind and the length of the sentinel.
func directive(rest []byte) (dirKind, int) {
	up := func(n int) string {
		if len(rest) < n {
			return ""
		}
		return strings.ToUpper(string(rest[:n]))
	}
	switch {
	case up(4) == "$OMP":
		return dirOMP, 4
	case up(4) == "HPF$":
		return dirHPF, 4
	case up(3) == "MK$", up(3) == "$MK":
		return dirMK, 3
	}
	return dirNone, 0
}

// readFixed reads fixed-form lines: comment lines start with C, c, *, ! or D in
// column 1 (or are blank, or have ! as first non-blank outside column 6), labels
// sit in columns 1-5, a non-blank non-zero column 6 continues the previous line,
// and text past column 72 is ignored.
func (r *reader) readFixed(lines []srcLine) {
	var j *joiner
	flush := func() {
		if j != nil {
			r.emit(j)
			j = nil
		}
	}
	for li := range lines {
		ln := &lines[li]
		line := []byte(ln.text)
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if len(line) == 0 {
			continue
		}
		c0 := line[0]
		if c0 == 'C' || c0 == 'c' || c0 == '*' || c0 == '!' || c0 == 'D' || c0 == 'd' {
			if kind, n := directive(line[1:]); kind != dirNone {
				body := line[1+n:]
				col := 2 + n
				// A directive continues when the sentinel is followed by & or a
				// non-blank column 6 ("!$OMP&" / "C$OMP+").
				if kind == dirOMP && len(body) > 0 && body[0] != ' ' && body[0] != '\t' && j != nil && j.dir == dirOMP {
					j.add(body[1:], ln.num, col+1, ln.cols)
					continue
				}
				flush()
				j = &joiner{file: ln.file, dir: kind, raw: strings.TrimSpace(ln.text),
					started: true, start: lpos{int32(ln.num), 1}}
				j.add(body, ln.num, col, ln.cols)
				if kind != dirOMP {
					flush()
				}
				continue
			}
			continue
		}
		if len(line) > 72 {
			line = line[:72]
		}
		// A line whose first non-blank character is ! (anywhere but column 6,
		// where it marks a continuation) is a comment, as is a blank line.
		if fb := bytes.IndexFunc(line, func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' }); fb < 0 || (line[fb] == '!' && fb != 5) {
			// mkvet's own annotations may be indented ("      !mk$ param n"),
			// unlike OpenMP and HPF sentinels, which fixed form wants in column 1.
			if fb >= 0 {
				if kind, n := directive(line[fb+1:]); kind == dirMK {
					flush()
					j = &joiner{file: ln.file, dir: kind, raw: strings.TrimSpace(ln.text),
						started: true, start: lpos{int32(ln.num), int32(fb + 1)}}
					j.add(line[fb+1+n:], ln.num, fb+2+n, ln.cols)
					flush()
				}
			}
			continue
		}
		// Tab format: a tab in the label field moves to column 7; a digit right
		// after the tab marks a continuation (the DEC convention gfortran accepts).
		label, cont, body, bodyCol, contCol := "", false, []byte(nil), 7, 6
		if t := bytes.IndexByte(line, '\t'); t >= 0 && t < 6 {
			label = strings.TrimSpace(string(line[:t]))
			body = line[t+1:]
			bodyCol = t + 2
			if len(body) > 0 && body[0] >= '1' && body[0] <= '9' {
				cont = true
				contCol = bodyCol
				body = body[1:]
				bodyCol++
			}
		} else {
			field := line[:min(5, len(line))]
			label = strings.TrimSpace(string(field))
			if len(line) >= 6 && line[5] != ' ' && line[5] != '0' {
				cont = true
			}
			if len(line) > 6 {
				body = line[6:]
			}
		}
		if label != "" && !allDigits(label) {
			if ln.text[0] == '#' {
				r.fe.diag(apt.Pos{File: ln.file, Line: ln.num, Col: 1}, apt.Warning, "preprocessor line in a file that is not preprocessed; ignored")
				continue
			}
			r.fe.diag(apt.Pos{File: ln.file, Line: ln.num, Col: 1}, apt.Error, "invalid label field "+strconv.Quote(label)+" in columns 1-5")
			label = ""
		}
		if cont && j != nil && j.dir == dirNone {
			j.add(body, ln.num, bodyCol, ln.cols)
			continue
		}
		if cont {
			r.fe.diag(apt.Pos{File: ln.file, Line: ln.num, Col: contCol}, apt.Warning, "continuation line without a statement to continue")
		}
		flush()
		j = &joiner{file: ln.file, label: strings.TrimLeft(label, "0"), raw: strings.TrimSpace(ln.text), hollerith: true}
		if label != "" && j.label == "" {
			j.label = "0"
		}
		if label != "" {
			j.start = lpos{int32(ln.num), int32(1 + strings.IndexAny(ln.text, "0123456789"))}
		}
		j.add(body, ln.num, bodyCol, ln.cols)
	}
	flush()
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			if s[i] == ' ' {
				continue
			}
			return false
		}
	}
	return true
}

// readFree reads free-form lines: ! starts a comment, a trailing & continues the
// statement on the next line (where a leading & is skipped), ; separates
// statements, and a statement may start with a numeric label.
func (r *reader) readFree(lines []srcLine) {
	var j *joiner
	for li := range lines {
		ln := &lines[li]
		line := []byte(ln.text)
		col := 1
		// Skip leading blanks.
		k := 0
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k == len(line) {
			continue
		}
		if line[k] == '#' && j == nil {
			r.fe.diag(apt.Pos{File: ln.file, Line: ln.num, Col: ln.col(k + 1)}, apt.Warning, "preprocessor line in a file that is not preprocessed; ignored")
			continue
		}
		continuing := j != nil
		if line[k] == '!' {
			if kind, n := directive(line[k+1:]); kind != dirNone && (j == nil || j.dir == kind) {
				body := line[k+1+n:]
				bcol := col + k + 1 + n
				if j == nil {
					j = &joiner{file: ln.file, dir: kind, raw: strings.TrimSpace(ln.text),
						started: true, start: lpos{int32(ln.num), int32(k + 1)}}
				} else {
					// Continued directive: skip an optional leading &.
					t := 0
					for t < len(body) && (body[t] == ' ' || body[t] == '\t') {
						t++
					}
					if t < len(body) && body[t] == '&' {
						body = body[t+1:]
						bcol += t + 1
					}
				}
				body, more := trimContinuation(body, 0)
				j.add(body, ln.num, bcol, ln.cols)
				if !more {
					r.emit(j)
					j = nil
				}
			}
			continue
		}
		body := line[k:]
		bcol := col + k
		if !continuing {
			j = &joiner{file: ln.file, raw: strings.TrimSpace(ln.text)}
			// Statement label: up to 5 digits followed by a blank.
			d := 0
			for d < len(body) && d < 6 && body[d] >= '0' && body[d] <= '9' {
				d++
			}
			if d > 0 && d < len(body) && (body[d] == ' ' || body[d] == '\t') {
				j.label = strings.TrimLeft(string(body[:d]), "0")
				if j.label == "" {
					j.label = "0"
				}
				j.start = lpos{int32(ln.num), int32(bcol)}
				body = body[d:]
				bcol += d
			}
		} else if body[0] == '&' {
			body = body[1:]
			bcol++
		}
		body, more := trimContinuation(body, j.quote)
		j.add(body, ln.num, bcol, ln.cols)
		if !more {
			r.emit(j)
			j = nil
		}
	}
	if j != nil {
		r.emit(j)
	}
}

// trimContinuation removes a trailing & (before any comment) and reports whether
// the statement continues. quote is the open quote at the start of the line.
func trimContinuation(b []byte, quote byte) ([]byte, bool) {
	last := -1
	for k := 0; k < len(b); k++ {
		c := b[k]
		if quote != 0 {
			if c == quote {
				if k+1 < len(b) && b[k+1] == quote {
					k++
					continue
				}
				quote = 0
			}
			if c != ' ' && c != '\t' {
				last = k
			}
			continue
		}
		if c == '!' {
			break
		}
		if c == '\'' || c == '"' {
			quote = c
		}
		if c != ' ' && c != '\t' && c != '\r' {
			last = k
		}
	}
	if last >= 0 && b[last] == '&' {
		return b[:last], true
	}
	return b, false
}

// readLines returns the lines of a file, preprocessed when asked.
func (fe *frontend) readLines(name string, src []byte, cpp bool) []srcLine {
	if cpp {
		return fe.preprocess(name, src)
	}
	return splitLines(name, src)
}

func splitLines(name string, src []byte) []srcLine {
	n := bytes.Count(src, []byte{'\n'}) + 1
	lines := make([]srcLine, 0, n)
	num := 0
	for len(src) > 0 {
		num++
		i := bytes.IndexByte(src, '\n')
		var l []byte
		if i < 0 {
			l, src = src, nil
		} else {
			l, src = src[:i], src[i+1:]
		}
		lines = append(lines, srcLine{file: name, num: num, text: string(l)})
	}
	return lines
}

// findInclude locates an INCLUDE or #include file: the including file's directory
// first, then the -I directories in order.
func (fe *frontend) findInclude(name, from string) (string, []byte, bool) {
	if filepath.IsAbs(name) {
		b, err := fe.readFile(name)
		return name, b, err == nil
	}
	dirs := append([]string{filepath.Dir(from)}, fe.cfg.IncludeDirs...)
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if b, err := fe.readFile(p); err == nil {
			return p, b, true
		}
	}
	if b, ok := fe.cfg.Files[name]; ok {
		return name, b, true
	}
	return "", nil, false
}
