package apt

import (
	"fmt"
	"strconv"
)

// Pos is a position in a source file; Line and Col count from 1. A zero Line means
// the position is unknown.
type Pos struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, the form editors and vet-style tools understand.
func (p Pos) String() string {
	s := p.File
	if s == "" {
		s = "-"
	}
	return s + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Span is the source extent of a node: from its first character to its last
// (inclusive), both in File.
type Span struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	EndLine int    `json:"end_line"`
	EndCol  int    `json:"end_col"`
}

// Start returns the first position of s.
func (s Span) Start() Pos { return Pos{File: s.File, Line: s.Line, Col: s.Col} }

// End returns the last position of s.
func (s Span) End() Pos { return Pos{File: s.File, Line: s.EndLine, Col: s.EndCol} }

// String formats s as file:line:col-endline:endcol.
func (s Span) String() string {
	return fmt.Sprintf("%s-%d:%d", s.Start(), s.EndLine, s.EndCol)
}

// Severity says whether a diagnostic stops a construct from being modelled.
type Severity int

// Severities of diagnostics.
const (
	Error   Severity = iota + 1 // error
	Warning                     // warning
	Note                        // note
)

var severityNames = [...]string{Error: "error", Warning: "warning", Note: "note"}

// String returns the lower-case name of s.
func (s Severity) String() string {
	if s > 0 && int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText encodes s by name so JSON output is stable across renumbering.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is a problem found in the user's program. It prints as
// file:line:col: message (warnings and notes are prefixed by their severity).
type Diagnostic struct {
	Pos      Pos      `json:"pos"`
	Severity Severity `json:"severity"`
	Msg      string   `json:"msg"`
}

// String formats d as file:line:col: message.
func (d Diagnostic) String() string {
	if d.Severity == Warning || d.Severity == Note {
		return d.Pos.String() + ": " + d.Severity.String() + ": " + d.Msg
	}
	return d.Pos.String() + ": " + d.Msg
}
