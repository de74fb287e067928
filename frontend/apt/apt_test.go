package apt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func name(n string) *Name { return &Name{Name: n, Type: Type{Base: TypeInteger, Kind: 4}} }
func num(s string) *Const {
	return &Const{Kind: ConstInt, Text: s, Type: Type{Base: TypeInteger, Kind: 4}}
}

func TestFormatExpr(t *testing.T) {
	for _, tc := range []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: OpMul, X: &Binary{Op: OpAdd, X: name("a"), Y: name("b")}, Y: name("c")}, "(a + b)*c"},
		{&Binary{Op: OpSub, X: name("a"), Y: &Binary{Op: OpSub, X: name("b"), Y: name("c")}}, "a - (b - c)"},
		{&Binary{Op: OpPow, X: name("a"), Y: &Binary{Op: OpPow, X: name("b"), Y: num("2")}}, "a**b**2"},
		{&Binary{Op: OpPow, X: &Binary{Op: OpPow, X: name("a"), Y: name("b")}, Y: num("2")}, "(a**b)**2"},
		{&Unary{Op: OpNeg, X: &Binary{Op: OpAdd, X: name("a"), Y: num("1")}}, "-(a + 1)"},
		{&Binary{Op: OpAnd, X: &Binary{Op: OpLt, X: name("i"), Y: name("n")}, Y: &Unary{Op: OpNot, X: name("l")}}, "i < n .and. .not. l"},
		{&Index{Name: "a", Subs: []Expr{&Section{Lo: num("1"), Hi: name("n"), Stride: num("2")}, &Section{}}}, "a(1:n:2, :)"},
		{&Component{Base: &Index{Name: "c", Subs: []Expr{name("i")}}, Field: "v"}, "c(i)%v"},
		{&FuncCall{Name: "max", Args: []Expr{name("a"), &Keyword{Name: "kind", Value: num("8")}}}, "max(a, kind=8)"},
		{&Const{Kind: ConstChar, Text: "it's"}, "'it''s'"},
		{&ImpliedDo{Items: []Expr{&Index{Name: "x", Subs: []Expr{name("i")}}}, Var: "i", Lo: num("1"), Hi: name("n")}, "(x(i), i = 1, n)"},
	} {
		if got := FormatExpr(tc.e); got != tc.want {
			t.Errorf("FormatExpr = %q, want %q", got, tc.want)
		}
	}
}

func TestTypeOf(t *testing.T) {
	r8 := &Name{Name: "x", Type: Type{Base: TypeReal, Kind: 8}}
	if got := TypeOf(&Binary{Op: OpDiv, X: name("n"), Y: r8}); got.Base != TypeReal || got.Kind != 8 {
		t.Errorf("n/x has type %v, want real(8)", got)
	}
	if got := TypeOf(&Binary{Op: OpLe, X: name("n"), Y: r8}); got.Base != TypeLogical {
		t.Errorf("n <= x has type %v", got)
	}
	if !IsInteger(&Binary{Op: OpAdd, X: name("n"), Y: num("1")}) {
		t.Error("n + 1 not integer")
	}
}

func sample() *Program {
	loop := &Loop{Var: "i", Lower: num("1"), Upper: name("n"),
		Body: []Node{
			&Block{Stmts: []*Stmt{{Kind: StmtAssign, Target: name("s"), Value: name("i")}}},
			&Call{Callee: "work"},
			&If{Kind: IfLogical, Branches: []*Branch{{Cond: name("l"), Body: []Node{&Comm{Op: MPISend}, &Call{Callee: "x"}}}}},
			&Loop{Var: "j", Body: []Node{&Continue{}}},
		}}
	inner := &Routine{Name: "inner", Kind: KindSubroutine, Scope: &Scope{}, Body: []Node{&Return{}}}
	host := &Routine{Name: "host", Kind: KindSubroutine, Scope: &Scope{}, Body: []Node{loop}, Contains: []*Routine{inner}}
	dup := &Routine{Name: "host", Kind: KindSubroutine, Scope: &Scope{}, Body: []Node{&Unknown{Text: "?", Diag: Diagnostic{Msg: "m"}}}}
	return &Program{Routines: []*Routine{host, dup}}
}

func TestAssignIDs(t *testing.T) {
	p := sample()
	AssignIDs(p)
	var ids []string
	Inspect(p, func(n Node) bool {
		if n != nil {
			ids = append(ids, n.Base().ID)
		}
		return true
	})
	want := "program host host/L1 host/L1/B1 host/L1/C1 host/L1/I1 host/L1/I1/b1 host/L1/I1/b1/M1 host/L1/I1/b1/C1 host/L1/L1 host/L1/L1/N1 host/inner host/inner/R1 host#2 host#2/U1"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("IDs\n got %s\nwant %s", got, want)
	}
	if id := p.Routines[0].Body[0].(*Loop).Body[0].(*Block).Stmts[0].ID; id != "host/L1/B1/s1" {
		t.Errorf("statement ID %s", id)
	}
}

func TestResolve(t *testing.T) {
	mod := &Routine{Name: "m", Kind: KindModule, Scope: &Scope{}}
	mod.Scope.Add(&Var{Name: "n", Param: num("10")})
	mod.Scope.Add(&Var{Name: "hidden"})
	user := &Routine{Name: "u", Kind: KindSubroutine, Scope: &Scope{Uses: []*Use{{Module: "m", Only: []string{"n", "k"}, Renames: map[string]string{"k": "hidden"}}}}}
	inner := &Routine{Name: "in", Kind: KindSubroutine, Scope: &Scope{}}
	user.Contains = []*Routine{inner}
	p := &Program{Routines: []*Routine{mod, user}}
	if v := p.Resolve(inner, "n"); v == nil || FormatExpr(v.Param) != "10" {
		t.Errorf("n through host and module: %v", v)
	}
	if v := p.Resolve(user, "k"); v == nil || v.Name != "hidden" {
		t.Errorf("renamed k: %v", v)
	}
	if v := p.Resolve(user, "hidden"); v != nil {
		t.Errorf("name outside ONLY visible: %v", v)
	}
	if p.Host(inner) != user || p.Routine("IN") != inner {
		t.Error("Host or Routine lookup wrong")
	}
}

func TestJSON(t *testing.T) {
	p := sample()
	AssignIDs(p)
	var b bytes.Buffer
	if err := WriteJSON(&b, p); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v["node"] != "program" {
		t.Errorf("program node = %v", v["node"])
	}
	for _, want := range []string{`"node":"loop"`, `"node":"comm"`, `"op":"send"`, `"expr":"name"`, `"kind":"subroutine"`, `"id":"host/L1/I1/b1/M1"`, `"base":"integer"`} {
		if !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(b.String(), " ", ""), "\n", ""), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}

func TestFprint(t *testing.T) {
	p := sample()
	AssignIDs(p)
	var b bytes.Buffer
	if err := Fprint(&b, p); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"  host subroutine host()", "    host/L1 loop do i = 1, n", "      host/L1/B1/s1 s = i", "host#2/U1 unknown \"?\": m"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
}

func TestMPITables(t *testing.T) {
	for name, size := range map[string]int{"MPI_DOUBLE_PRECISION": 8, "mpi_real": 4, "MPI_INTEGER": 4, "MPI_CHARACTER": 1, "MPI_DOUBLE_COMPLEX": 16} {
		if got, ok := MPITypeSize(name); !ok || got != size {
			t.Errorf("MPITypeSize(%s) = %d, %v", name, got, ok)
		}
	}
	if _, ok := MPITypeSize("my_type"); ok {
		t.Error("unknown datatype has a size")
	}
	if LookupCommOp("MPI_Allreduce") != MPIAllreduce || LookupCommOp("mpi_wtime") != 0 || LookupCommOp("allreduce") != 0 {
		t.Error("LookupCommOp")
	}
	if MPIIsend.IsBlocking() || !MPIRecv.IsBlocking() || !MPIBcast.IsCollective() || MPISend.IsCollective() {
		t.Error("IsBlocking/IsCollective")
	}
	for op := MPIInit; op <= MPIAbort; op++ {
		if LookupCommOp("mpi_"+op.String()) != op {
			t.Errorf("round trip of %v", op)
		}
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Pos: Pos{File: "a.f", Line: 3, Col: 7}, Severity: Error, Msg: "bad"}
	if d.String() != "a.f:3:7: bad" {
		t.Errorf("got %q", d)
	}
	d.Severity = Warning
	if d.String() != "a.f:3:7: warning: bad" {
		t.Errorf("got %q", d)
	}
}

// TestResolveAfterScopeChange: a name resolved through USE is remembered,
// but a variable or a USE added afterwards (as a frontend adds them while
// it builds the program) is seen by the next look-up.
func TestResolveAfterScopeChange(t *testing.T) {
	m1 := &Routine{Name: "m1", Kind: KindModule, Scope: &Scope{}}
	m1.Scope.Add(&Var{Name: "a", Param: num("1")})
	m2 := &Routine{Name: "m2", Kind: KindModule, Scope: &Scope{}}
	m2.Scope.Add(&Var{Name: "b", Param: num("2")})
	user := &Routine{Name: "u", Kind: KindSubroutine, Scope: &Scope{Uses: []*Use{{Module: "m1"}}}}
	p := &Program{Routines: []*Routine{m1, m2, user}}
	if v := p.Resolve(user, "b"); v != nil {
		t.Fatalf("b before USE m2: %v", v)
	}
	user.Scope.AddUse(&Use{Module: "m2"})
	if v := p.Resolve(user, "b"); v == nil || FormatExpr(v.Param) != "2" {
		t.Errorf("b after USE m2: %v", v)
	}
	if v := p.Resolve(user, "a"); v == nil || FormatExpr(v.Param) != "1" {
		t.Fatalf("a from m1: %v", v)
	}
	m1.Scope.Add(&Var{Name: "c", Param: num("3")})
	if v := p.Resolve(user, "c"); v == nil || FormatExpr(v.Param) != "3" {
		t.Errorf("c added to m1 after a look-up: %v", v)
	}
	if !p.Static(user, "c") {
		t.Error("a module variable reached by USE is not static")
	}
}
