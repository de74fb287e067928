package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

// ProfileError is a problem in a profile file: where it is, which field,
// and what is wrong.
type ProfileError struct {
	File      string
	Line, Col int    // 1-based; Col counts bytes
	Field     string // dotted path such as loggp.regimes[1].G; empty for syntax errors
	Problem   string
}

// Error returns "file:line:col: field: problem".
func (e *ProfileError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Problem)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Col, e.Field, e.Problem)
}

// jvalue is one JSON value with the byte offset where it starts.
type jvalue struct {
	kind byte // '{' object, '[' array, '"' string, '0' number, 'b' bool, 'n' null
	off  int
	text string    // string value, or a number's literal text
	keys []jstring // object keys in order
	vals []*jvalue // object values, or array elements
}

type jstring struct {
	s   string
	off int
}

// maxDepth bounds nesting, so that hostile input cannot exhaust the stack.
const maxDepth = 64

// jparser reads a JSON document into jvalues with positions, using
// encoding/json's tokenizer for the syntax.
type jparser struct {
	file string
	data []byte
	dec  *json.Decoder
}

// start returns the offset of the next token: the decoder's offset after
// the previous token, past white space and the separators ':' and ','.
func (p *jparser) start() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func (p *jparser) errAt(off int, field, format string, args ...any) *ProfileError {
	line, col := lineCol(p.data, off)
	return &ProfileError{File: p.file, Line: line, Col: col, Field: field, Problem: fmt.Sprintf(format, args...)}
}

// syntaxErr turns a tokenizer error into a positioned ProfileError.
func (p *jparser) syntaxErr(err error, at int) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return p.errAt(len(p.data), "", "invalid JSON: unexpected end of file")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The tokenizer's offsets are relative to the value it was reading
		// when the error is inside a literal; Unmarshal's count from the
		// start of the input, one past the offending byte.
		var whole *json.SyntaxError
		var v any
		if errors.As(json.Unmarshal(p.data, &v), &whole) {
			if strings.Contains(whole.Error(), "unexpected end") {
				return p.errAt(len(p.data), "", "invalid JSON: unexpected end of file")
			}
			return p.errAt(max(int(whole.Offset)-1, 0), "", "invalid JSON: %s", whole.Error())
		}
		return p.errAt(at, "", "invalid JSON: %s", se.Error())
	}
	return p.errAt(at, "", "invalid JSON: %v", err)
}

func (p *jparser) value(depth int) (*jvalue, error) {
	off := p.start()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntaxErr(err, off)
	}
	return p.fromToken(tok, off, depth)
}

func (p *jparser) fromToken(tok json.Token, off, depth int) (*jvalue, error) {
	if depth > maxDepth {
		return nil, p.errAt(off, "", "invalid JSON: nested more than %d levels", maxDepth)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &jvalue{kind: '{', off: off}
			for p.dec.More() {
				koff := p.start()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.syntaxErr(err, koff)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, p.errAt(koff, "", "invalid JSON: object key is not a string")
				}
				ev, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, jstring{k, koff})
				v.vals = append(v.vals, ev)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, p.syntaxErr(err, p.start())
			}
			return v, nil
		case '[':
			v := &jvalue{kind: '[', off: off}
			for p.dec.More() {
				ev, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.vals = append(v.vals, ev)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, p.syntaxErr(err, p.start())
			}
			return v, nil
		}
		return nil, p.errAt(off, "", "invalid JSON: unexpected %q", rune(t))
	case string:
		return &jvalue{kind: '"', off: off, text: t}, nil
	case json.Number:
		return &jvalue{kind: '0', off: off, text: t.String()}, nil
	case bool:
		return &jvalue{kind: 'b', off: off}, nil
	case nil:
		return &jvalue{kind: 'n', off: off}, nil
	}
	return nil, p.errAt(off, "", "invalid JSON: unexpected token %v", tok)
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	col = off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
	return line, col
}

func (v *jvalue) kindName() string {
	switch v.kind {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

// ReadProfile reads a machine profile in the JSON format of the package
// documentation. file names the input in errors, which are *ProfileError
// values giving file:line:col, the field and the problem. A profile without
// a name takes the file's base name without extension.
func ReadProfile(file string, data []byte) (*Profile, error) {
	p := &jparser{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if off := p.start(); off < len(data) {
		return nil, p.errAt(off, "", "invalid JSON: data after the profile object")
	}
	r := &reader{p: p}
	prof := r.profile(root)
	if r.err != nil {
		return nil, r.err
	}
	if prof.Name == "" {
		prof.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	return prof, nil
}

// reader interprets the value tree, keeping the first error.
type reader struct {
	p   *jparser
	err error
}

func (r *reader) fail(v *jvalue, field, format string, args ...any) {
	if r.err == nil {
		r.err = r.p.errAt(v.off, field, format, args...)
	}
}

// object calls visit for each member of v, an object, after refusing
// duplicate and unknown keys (known lists the accepted keys).
func (r *reader) object(v *jvalue, field string, known []string, visit func(key string, val *jvalue, path string)) {
	if v.kind != '{' {
		r.fail(v, field, "want an object, found %s", v.kindName())
		return
	}
	seen := map[string]bool{}
	for i, k := range v.keys {
		path := k.s
		if field != "" {
			path = field + "." + k.s
		}
		if seen[k.s] {
			r.fail(&jvalue{off: k.off}, path, "duplicate field")
			return
		}
		seen[k.s] = true
		ok := false
		for _, kn := range known {
			ok = ok || kn == k.s
		}
		if !ok {
			r.fail(&jvalue{off: k.off}, path, "unknown field (want one of %s)", strings.Join(known, ", "))
			return
		}
		visit(k.s, v.vals[i], path)
		if r.err != nil {
			return
		}
	}
}

func (r *reader) str(v *jvalue, field string) string {
	if v.kind != '"' {
		r.fail(v, field, "want a string, found %s", v.kindName())
	}
	return v.text
}

// quantity reads a string with a unit of dimension d. Byte sizes may also
// be plain JSON integers.
func (r *reader) quantity(v *jvalue, field string, d dim) symbolic.Rat {
	if d == dimBytes && v.kind == '0' {
		n, err := strconv.ParseInt(v.text, 10, 64)
		if err != nil || n < 0 {
			r.fail(v, field, "want a non-negative whole number of bytes, found %s", v.text)
		}
		return symbolic.RatInt(n)
	}
	if v.kind != '"' {
		r.fail(v, field, "want a string with a unit (%s), found %s", d, v.kindName())
		return symbolic.Rat{}
	}
	q, err := parseAs(v.text, d)
	if err != nil {
		r.fail(v, field, "%v", err)
	} else if d == dimBytes && !q.IsInt() {
		r.fail(v, field, "%q is not a whole number of bytes", v.text)
	}
	return q
}

func (r *reader) count(v *jvalue, field string) int {
	n, err := strconv.ParseInt(v.text, 10, 32)
	if v.kind != '0' || err != nil || n < 0 {
		r.fail(v, field, "want a non-negative whole number, found %s", strings.TrimSpace(v.kindName()+" "+v.text))
	}
	return int(n)
}

func (r *reader) profile(v *jvalue) *Profile {
	prof := &Profile{}
	keys := []string{"name", "description", "source", "model", "ops", "hockney", "logp", "loggp", "loggps", "patterns", "memory"}
	var modelAt *jvalue
	r.object(v, "", keys, func(k string, val *jvalue, path string) {
		switch k {
		case "name":
			prof.Name = r.str(val, path)
		case "description":
			prof.Description = r.str(val, path)
		case "source":
			prof.Source = r.str(val, path)
		case "model":
			prof.Model, modelAt = r.str(val, path), val
		case "ops":
			prof.Ops = r.ops(val, path)
		case "hockney":
			h := r.hockney(val, path, "t_s", "t_c")
			prof.Hockney = &h
		case "logp":
			l := r.logp(val, path)
			prof.LogP = &l
		case "loggp":
			g := r.loggp(val, path)
			prof.LogGP = &g
		case "loggps":
			g := r.loggps(val, path)
			prof.LogGPS = &g
		case "memory":
			prof.Memory = r.memory(val, path)
		case "patterns":
			prof.Patterns = map[string]Hockney{}
			if val.kind != '{' {
				r.fail(val, path, "want an object of patterns, found %s", val.kindName())
				return
			}
			r.object(val, path, val.keyNames(), func(name string, pv *jvalue, ppath string) {
				prof.Patterns[name] = r.hockney(pv, ppath, "rho", "beta")
			})
		}
	})
	if r.err == nil && modelAt != nil {
		if _, err := prof.Network(); err != nil {
			_, msg, _ := strings.Cut(err.Error(), ": ")
			r.fail(modelAt, "model", "%s", msg)
		}
	}
	return prof
}

func (v *jvalue) keyNames() []string {
	names := make([]string, len(v.keys))
	for i, k := range v.keys {
		names[i] = k.s
	}
	return names
}

func (r *reader) ops(v *jvalue, field string) Ops {
	var o Ops
	fields := map[string]*symbolic.Rat{"flop": &o.Flop, "add": &o.Add, "mul": &o.Mul, "div": &o.Div,
		"intrinsic": &o.Intrinsic, "load": &o.Load, "store": &o.Store,
		"vector": &o.Vector, "scalar": &o.Scalar, "chain": &o.Chain, "complex": &o.Complex}
	r.object(v, field, []string{"flop", "add", "mul", "div", "intrinsic", "load", "store", "vector", "scalar", "chain", "complex"}, func(k string, val *jvalue, path string) {
		*fields[k] = r.quantity(val, path, dimTime)
	})
	return o
}

func (r *reader) hockney(v *jvalue, field, ts, tc string) Hockney {
	var h Hockney
	have := 0
	r.object(v, field, []string{ts, tc}, func(k string, val *jvalue, path string) {
		have++
		if k == ts {
			h.Ts = r.quantity(val, path, dimTime)
		} else {
			h.Tc = r.quantity(val, path, dimTimePerByte)
		}
	})
	if r.err == nil && have != 2 {
		r.fail(v, field, "want both %s and %s", ts, tc)
	}
	return h
}

func (r *reader) logp(v *jvalue, field string) LogP {
	var l LogP
	r.object(v, field, []string{"L", "o", "g", "P", "W"}, func(k string, val *jvalue, path string) {
		switch k {
		case "L":
			l.L = r.quantity(val, path, dimTime)
		case "o":
			l.O = r.quantity(val, path, dimTime)
		case "g":
			l.Gap = r.quantity(val, path, dimTime)
		case "P":
			l.P = r.count(val, path)
		case "W":
			l.W = r.quantity(val, path, dimBytes)
		}
	})
	return l
}

func (r *reader) loggp(v *jvalue, field string) LogGP {
	var g LogGP
	var regimesAt *jvalue
	r.object(v, field, []string{"L", "g", "P", "regimes", "eager_limit", "rendezvous"}, func(k string, val *jvalue, path string) {
		switch k {
		case "L":
			g.L = r.quantity(val, path, dimTime)
		case "g":
			g.Gap = r.quantity(val, path, dimTime)
		case "P":
			g.P = r.count(val, path)
		case "eager_limit":
			g.EagerLimit = r.quantity(val, path, dimBytes)
		case "rendezvous":
			r.object(val, path, []string{"o_ctrl", "o_data", "G"}, func(k string, val *jvalue, path string) {
				switch k {
				case "o_ctrl":
					g.Rendezvous.OCtrl = r.quantity(val, path, dimTime)
				case "o_data":
					g.Rendezvous.OData = r.quantity(val, path, dimTime)
				case "G":
					g.Rendezvous.G = r.quantity(val, path, dimTimePerByte)
				}
			})
		case "regimes":
			regimesAt = val
			if val.kind != '[' {
				r.fail(val, path, "want an array of regimes, found %s", val.kindName())
				return
			}
			for i, rv := range val.vals {
				var reg Regime
				rpath := fmt.Sprintf("%s[%d]", path, i)
				r.object(rv, rpath, []string{"below", "o", "G"}, func(k string, val *jvalue, path string) {
					switch k {
					case "below":
						reg.Below = r.quantity(val, path, dimBytes)
						if r.err == nil && reg.Below.IsZero() {
							r.fail(val, path, "a regime bound of 0 bytes is empty")
						}
					case "o":
						reg.O = r.quantity(val, path, dimTime)
					case "G":
						reg.G = r.quantity(val, path, dimTimePerByte)
					}
				})
				if r.err != nil {
					return
				}
				g.Regimes = append(g.Regimes, reg)
			}
		}
	})
	if r.err == nil {
		if regimesAt == nil {
			r.fail(v, field, "want regimes: at least one size regime")
		} else if err := g.Validate(); err != nil {
			r.fail(regimesAt, field+".regimes", "%v", err)
		}
	}
	return g
}

func (r *reader) loggps(v *jvalue, field string) LogGPS {
	var g LogGPS
	haveS := false
	r.object(v, field, []string{"L", "o", "g", "G", "P", "S", "s"}, func(k string, val *jvalue, path string) {
		switch k {
		case "L":
			g.L = r.quantity(val, path, dimTime)
		case "o":
			g.O = r.quantity(val, path, dimTime)
		case "g":
			g.Gap = r.quantity(val, path, dimTime)
		case "G":
			g.G = r.quantity(val, path, dimTimePerByte)
		case "P":
			g.P = r.count(val, path)
		case "S":
			g.S, haveS = r.quantity(val, path, dimBytes), true
		case "s":
			g.Packet = r.quantity(val, path, dimBytes)
		}
	})
	if r.err == nil && !haveS {
		r.fail(v, field, "want S, the synchronous threshold in bytes")
	}
	return g
}

// memory reads a profile's memory hierarchy: its processors, cache line and
// levels, each level's size, sharing and times (streaming per byte, strided
// and gathered accesses per access, with one process and all).
func (r *reader) memory(v *jvalue, field string) *Memory {
	m := &Memory{}
	var levelsAt *jvalue
	r.object(v, field, []string{"cpus", "line", "levels", "source", "touch", "touch_all"}, func(k string, val *jvalue, path string) {
		switch k {
		case "touch":
			m.TouchOne = r.quantity(val, path, dimTimePerByte).Float64()
		case "touch_all":
			m.TouchAll = r.quantity(val, path, dimTimePerByte).Float64()
		case "cpus":
			m.CPUs = r.count(val, path)
		case "line":
			m.Line = r.wholeBytes(val, path)
		case "source":
			m.Source = r.str(val, path)
		case "levels":
			levelsAt = val
			if val.kind != '[' {
				r.fail(val, path, "want an array of levels, found %s", val.kindName())
				return
			}
			for i, lv := range val.vals {
				var l MemLevel
				lpath := fmt.Sprintf("%s[%d]", path, i)
				times := map[string]*float64{"stream": &l.One, "stream_all": &l.All, "stride": &l.StrideOne,
					"stride_all": &l.StrideAll, "gather": &l.GatherOne, "gather_all": &l.GatherAll,
					"walk": &l.WalkOne, "walk_all": &l.WalkAll, "move": &l.MoveOne, "move_all": &l.MoveAll}
				r.object(lv, lpath, []string{"name", "size", "shared", "ways", "stream", "stream_all", "stride", "stride_all",
					"walk", "walk_all", "gather", "gather_all", "move", "move_all", "gather_held"},
					func(k string, val *jvalue, path string) {
						switch k {
						case "name":
							l.Name = r.str(val, path)
						case "size":
							l.Size = r.wholeBytes(val, path)
						case "shared":
							l.Shared = r.count(val, path)
						case "ways":
							l.Ways = r.count(val, path)
						case "gather_held":
							l.GatherHeld = r.wholeBytes(val, path)
						case "stream", "stream_all", "move", "move_all":
							*times[k] = r.quantity(val, path, dimTimePerByte).Float64()
						default:
							*times[k] = r.quantity(val, path, dimTime).Float64()
						}
					})
				if r.err != nil {
					return
				}
				m.Levels = append(m.Levels, l)
			}
		}
	})
	if r.err != nil {
		return nil
	}
	if levelsAt == nil {
		r.fail(v, field, "want levels: the caches, then main memory")
		return nil
	}
	if err := m.Validate(); err != nil {
		r.fail(levelsAt, field+".levels", "%v", err)
		return nil
	}
	return m
}

// wholeBytes reads a size in bytes that fits an int64.
func (r *reader) wholeBytes(v *jvalue, field string) int64 {
	q := r.quantity(v, field, dimBytes)
	n, ok := q.Int64()
	if r.err == nil && !ok {
		r.fail(v, field, "%s bytes is too large", q)
	}
	return n
}
