package readpos

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

func TestUnitMoves(t *testing.T) {
	u := Opened(" input ")
	if u.File != "input" || u.Record != 1 {
		t.Fatalf("Opened = %+v", u)
	}
	v := u.Next().Next()
	if v.Record != 3 || v.Backspaced().Record != 2 || v.Rewound().Record != 1 || Opened("x").Backspaced().Record != 1 {
		t.Errorf("moves from %+v: next %+v", u, v)
	}
	if u.Datum(1) == u.Next().Datum(1) || u.Datum(0) == u.Datum(1) || u.Datum(1) != Opened("input").Datum(1) {
		t.Error("data of different records or items share a key, or one datum has two")
	}
	back, ok := Decode(v.Encode())
	if !ok || back != v {
		t.Errorf("Decode(Encode(%+v)) = %+v, %v", v, back, ok)
	}
}

func TestItemsStopAtArrays(t *testing.T) {
	n := &apt.IO{Kind: apt.IORead, Items: []apt.Expr{
		&apt.Name{Name: "a"}, &apt.Name{Name: "b"}, &apt.Name{Name: "v"}, &apt.Name{Name: "c"},
	}}
	got := Items(n, func(s string) bool { return s == "v" })
	if len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("Items = %v, want [a b]", got)
	}
}
