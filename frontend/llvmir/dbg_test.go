package llvmir

import (
	"os"
	"testing"

	"github.com/llir/llvm/asm"
	"github.com/mkvet/mkvet/frontend/apt"
)

func TestDebugLift(t *testing.T) {
	path := os.Getenv("LIFT")
	if path == "" {
		t.Skip()
	}
	m, err := asm.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newLifter(m, path, nil)
	l.run()
	apt.Fprint(os.Stdout, l.prog)
	for _, d := range l.diags {
		t.Log(d)
	}
}
