package fortran

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tReal
	tString
	tLogical
	tDotOp // .EQ., .AND., ... (text without dots)
	tOp    // punctuation and operators
)

type token struct {
	kind tokKind
	text string // upper case except strings (value without quotes)
	at   int    // byte offset in the statement text
	end  int
}

// dotOps are the dot-delimited operators and logical constants; a number
// followed by one of them ends before the dot (1.EQ.2 is 1 .EQ. 2).
var dotOps = map[string]bool{"EQ": true, "NE": true, "LT": true, "LE": true, "GT": true, "GE": true,
	"AND": true, "OR": true, "NOT": true, "EQV": true, "NEQV": true, "TRUE": true, "FALSE": true}

// parser parses one statement's canonical text. It never panics: the first
// error is recorded and from then on every token is EOF, so all loops end.
type parser struct {
	s      *stmt
	t      []byte
	i      int
	err    string
	errAt  int
	tok    token
	peeked bool
	depth  int
	// assoc gives what an associate name of an open ASSOCIATE stands for.
	assoc func(string) (apt.Expr, bool)
}

func newParser(s *stmt, start int) *parser {
	return &parser{s: s, t: s.text, i: start}
}

func (p *parser) fail(at int, msg string) {
	if p.err == "" {
		p.err, p.errAt = msg, at
	}
	p.i = len(p.t)
	p.peeked = false
}

func (p *parser) pos(at int) apt.Pos { return p.s.posAt(at) }

func (p *parser) peek() token {
	if !p.peeked {
		p.tok = p.lex()
		p.peeked = true
	}
	return p.tok
}

func (p *parser) next() token {
	t := p.peek()
	p.peeked = false
	p.i = t.end
	return t
}

// at reports whether the next token is the operator op.
func (p *parser) at(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) accept(op string) bool {
	if p.at(op) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(op string) {
	if !p.accept(op) {
		t := p.peek()
		p.fail(t.at, "expected "+op+", found "+describe(t))
	}
}

func (p *parser) atEnd() bool { return p.peek().kind == tEOF }

func (p *parser) expectEnd() {
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.at, "unexpected "+describe(t)+" at end of statement")
	}
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of statement"
	case tString:
		return "character constant"
	case tDotOp:
		return "." + t.text + "."
	}
	return strings.ToLower(t.text)
}

// rest returns the unparsed text (after the peeked token is discarded).
func (p *parser) restAt() int {
	if p.peeked {
		return p.tok.at
	}
	return p.i
}

// keyword consumes the literal prefix kw of the canonical text at the cursor.
func (p *parser) keyword(kw string) bool {
	at := p.restAt()
	if at+len(kw) <= len(p.t) && string(p.t[at:at+len(kw)]) == kw {
		p.i = at + len(kw)
		p.peeked = false
		return true
	}
	return false
}

func (p *parser) hasPrefix(kw string) bool {
	at := p.restAt()
	return at+len(kw) <= len(p.t) && string(p.t[at:at+len(kw)]) == kw
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) || c == '_' || c == '$' }

func (p *parser) lex() token {
	t, i := p.t, p.i
	if p.err != "" || i >= len(t) {
		return token{kind: tEOF, at: len(t), end: len(t)}
	}
	c := t[i]
	switch {
	case isLetter(c):
		j := i + 1
		for j < len(t) && isAlnum(t[j]) {
			j++
		}
		// A kind-prefixed character constant: KIND_'text' is rare; not handled.
		return token{kind: tIdent, text: string(t[i:j]), at: i, end: j}
	case isDigit(c):
		return p.lexNumber(i)
	case c == '\'' || c == '"':
		var b strings.Builder
		j := i + 1
		for {
			if j >= len(t) {
				p.fail(i, "unterminated character constant")
				return token{kind: tEOF, at: len(t), end: len(t)}
			}
			if t[j] == c {
				if j+1 < len(t) && t[j+1] == c {
					b.WriteByte(c)
					j += 2
					continue
				}
				j++
				break
			}
			b.WriteByte(t[j])
			j++
		}
		return token{kind: tString, text: b.String(), at: i, end: j}
	case c == '.':
		if i+1 < len(t) && isDigit(t[i+1]) {
			return p.lexNumber(i)
		}
		j := i + 1
		for j < len(t) && isLetter(t[j]) {
			j++
		}
		if j < len(t) && t[j] == '.' && j > i+1 {
			w := string(t[i+1 : j])
			end := j + 1
			if w == "TRUE" || w == "FALSE" {
				// Optional kind suffix .TRUE._lk
				if end < len(t) && t[end] == '_' {
					k := end + 1
					for k < len(t) && isAlnum(t[k]) {
						k++
					}
					end = k
				}
				return token{kind: tLogical, text: string(t[i:end]), at: i, end: end}
			}
			return token{kind: tDotOp, text: w, at: i, end: end}
		}
	}
	// Operators: longest match first.
	for _, op := range [...]string{"**", "//", "==", "/=", "<=", ">=", "=>", "::", "(/", "/)"} {
		if i+2 <= len(t) && string(t[i:i+2]) == op {
			return token{kind: tOp, text: op, at: i, end: i + 2}
		}
	}
	return token{kind: tOp, text: string(t[i : i+1]), at: i, end: i + 1}
}

// lexNumber scans an integer or real literal with optional exponent (E, D or Q)
// and kind suffix. 1.EQ.2 stops before the dot of the operator.
func (p *parser) lexNumber(i int) token {
	t := p.t
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	real := false
	if j < len(t) && t[j] == '.' {
		k := j + 1
		for k < len(t) && isLetter(t[k]) {
			k++
		}
		isOp := k < len(t) && t[k] == '.' && dotOps[string(t[j+1:k])]
		if !isOp {
			real = true
			j++
			for j < len(t) && isDigit(t[j]) {
				j++
			}
		}
	}
	if j < len(t) && (t[j] == 'E' || t[j] == 'D' || t[j] == 'Q') {
		k := j + 1
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		if k < len(t) && isDigit(t[k]) {
			for k < len(t) && isDigit(t[k]) {
				k++
			}
			j = k
			real = true
		}
	}
	if j+1 < len(t) && t[j] == '_' && isAlnum(t[j+1]) {
		k := j + 1
		for k < len(t) && isAlnum(t[k]) {
			k++
		}
		j = k
	}
	kind := tInt
	if real {
		kind = tReal
	}
	return token{kind: kind, text: string(t[i:j]), at: i, end: j}
}
