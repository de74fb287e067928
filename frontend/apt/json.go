package apt

import (
	"bytes"
	"encoding/json"
	"io"
)

// tagged encodes v (a method-free alias of a node or expression struct) as a JSON
// object whose first field is the discriminator key ("node" for nodes, "expr"
// for expressions) naming its type, which lets a reader decode the closed sum
// types Node and Expr. ("kind" would clash with the nodes' own Kind fields.)
func tagged(key, kind string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString(`{"` + key + `":"` + kind + `"`)
	if len(b) > 2 {
		out.WriteByte(',')
		out.Write(b[1:])
	} else {
		out.WriteByte('}')
	}
	return out.Bytes(), nil
}

// MarshalJSON encodes the node with "node":"program".
func (n *Program) MarshalJSON() ([]byte, error) {
	type t Program
	return tagged("node", "program", (*t)(n))
}

// MarshalJSON encodes the node with "node":"routine".
func (n *Routine) MarshalJSON() ([]byte, error) {
	type t Routine
	return tagged("node", "routine", (*t)(n))
}

// MarshalJSON encodes the node with "node":"loop".
func (n *Loop) MarshalJSON() ([]byte, error) { type t Loop; return tagged("node", "loop", (*t)(n)) }

// MarshalJSON encodes the node with "node":"if".
func (n *If) MarshalJSON() ([]byte, error) { type t If; return tagged("node", "if", (*t)(n)) }

// MarshalJSON encodes the node with "node":"branch".
func (n *Branch) MarshalJSON() ([]byte, error) {
	type t Branch
	return tagged("node", "branch", (*t)(n))
}

// MarshalJSON encodes the node with "node":"call".
func (n *Call) MarshalJSON() ([]byte, error) { type t Call; return tagged("node", "call", (*t)(n)) }

// MarshalJSON encodes the node with "node":"comm".
func (n *Comm) MarshalJSON() ([]byte, error) { type t Comm; return tagged("node", "comm", (*t)(n)) }

// MarshalJSON encodes the node with "node":"block".
func (n *Block) MarshalJSON() ([]byte, error) { type t Block; return tagged("node", "block", (*t)(n)) }

// MarshalJSON encodes the node with "node":"io".
func (n *IO) MarshalJSON() ([]byte, error) { type t IO; return tagged("node", "io", (*t)(n)) }

// MarshalJSON encodes the node with "node":"goto".
func (n *Goto) MarshalJSON() ([]byte, error) { type t Goto; return tagged("node", "goto", (*t)(n)) }

// MarshalJSON encodes the node with "node":"return".
func (n *Return) MarshalJSON() ([]byte, error) {
	type t Return
	return tagged("node", "return", (*t)(n))
}

// MarshalJSON encodes the node with "node":"stop".
func (n *Stop) MarshalJSON() ([]byte, error) { type t Stop; return tagged("node", "stop", (*t)(n)) }

// MarshalJSON encodes the node with "node":"exit".
func (n *Exit) MarshalJSON() ([]byte, error) { type t Exit; return tagged("node", "exit", (*t)(n)) }

// MarshalJSON encodes the node with "node":"cycle".
func (n *Cycle) MarshalJSON() ([]byte, error) { type t Cycle; return tagged("node", "cycle", (*t)(n)) }

// MarshalJSON encodes the node with "node":"continue".
func (n *Continue) MarshalJSON() ([]byte, error) {
	type t Continue
	return tagged("node", "continue", (*t)(n))
}

// MarshalJSON encodes the node with "node":"region".
func (n *Region) MarshalJSON() ([]byte, error) {
	type t Region
	return tagged("node", "region", (*t)(n))
}

// MarshalJSON encodes the node with "node":"unknown".
func (n *Unknown) MarshalJSON() ([]byte, error) {
	type t Unknown
	return tagged("node", "unknown", (*t)(n))
}

// MarshalJSON encodes the expression with "expr":"const".
func (e *Const) MarshalJSON() ([]byte, error) { type t Const; return tagged("expr", "const", (*t)(e)) }

// MarshalJSON encodes the expression with "expr":"name".
func (e *Name) MarshalJSON() ([]byte, error) { type t Name; return tagged("expr", "name", (*t)(e)) }

// MarshalJSON encodes the expression with "expr":"index".
func (e *Index) MarshalJSON() ([]byte, error) { type t Index; return tagged("expr", "index", (*t)(e)) }

// MarshalJSON encodes the expression with "expr":"section".
func (e *Section) MarshalJSON() ([]byte, error) {
	type t Section
	return tagged("expr", "section", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"component".
func (e *Component) MarshalJSON() ([]byte, error) {
	type t Component
	return tagged("expr", "component", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"funccall".
func (e *FuncCall) MarshalJSON() ([]byte, error) {
	type t FuncCall
	return tagged("expr", "funccall", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"unary".
func (e *Unary) MarshalJSON() ([]byte, error) { type t Unary; return tagged("expr", "unary", (*t)(e)) }

// MarshalJSON encodes the expression with "expr":"binary".
func (e *Binary) MarshalJSON() ([]byte, error) {
	type t Binary
	return tagged("expr", "binary", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"array".
func (e *ArrayCons) MarshalJSON() ([]byte, error) {
	type t ArrayCons
	return tagged("expr", "array", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"implied_do".
func (e *ImpliedDo) MarshalJSON() ([]byte, error) {
	type t ImpliedDo
	return tagged("expr", "implied_do", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"keyword".
func (e *Keyword) MarshalJSON() ([]byte, error) {
	type t Keyword
	return tagged("expr", "keyword", (*t)(e))
}

// MarshalJSON encodes the expression with "expr":"star".
func (e *Star) MarshalJSON() ([]byte, error) { type t Star; return tagged("expr", "star", (*t)(e)) }

// WriteJSON writes p as indented JSON. Every node object carries a "node" field
// naming its type (program, routine, loop, if, branch, call, comm, block, io,
// goto, return, stop, exit, cycle, continue, region, unknown) and every
// expression an "expr" field (const, name, index, section, component,
// funccall, unary, binary, array, implied_do, keyword, star); enums are encoded
// by name.
func WriteJSON(w io.Writer, p *Program) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(p)
}
