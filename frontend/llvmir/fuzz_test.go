package llvmir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// FuzzParseIR feeds arbitrary text to the IR reader and the lifter: any
// input must end in a program or in positioned diagnostics, never a panic.
// The lifter runs without the recover that guards it in ParseIR, so that a
// panic of mkvet's own code is found rather than turned into a message.
func FuzzParseIR(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.ll")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		// The same module cut short and with a pointer type spelled the
		// LLVM 15 way.
		f.Add(b[:len(b)/2])
		f.Add([]byte(strings.Replace(string(b), "i32*", "ptr", 1)))
	}
	f.Add([]byte("define i32 @main() {\nentry:\n  br label %l\nl:\n  br label %l\n}\n"))
	f.Add([]byte("define void @f(i32 %n) {\nentry:\n  br label %h\nh:\n  %i = phi i32 [0, %entry], [%j, %h]\n  %j = add i32 %i, 1\n  %c = icmp slt i32 %j, %n\n  br i1 %c, label %h, label %x\nx:\n  ret void\n}\n"))
	// A loop tested with && (the phi of i1 that threadShortCircuits
	// rewrites) and one with !(a || b), whose exit block has a phi.
	f.Add([]byte("define i32 @g(i32 %n, double %r) {\nentry:\n  br label %h\nh:\n  %k = phi i32 [1, %entry], [%k1, %b]\n  %c = icmp slt i32 %k, %n\n  br i1 %c, label %t, label %j\nt:\n  %d = fcmp ogt double %r, 0.0\n  br label %j\nj:\n  %p = phi i1 [false, %h], [%d, %t]\n  br i1 %p, label %b, label %x\nb:\n  %k1 = add i32 %k, 1\n  br label %h\nx:\n  ret i32 %k\n}\n"))
	f.Add([]byte("define i32 @g(i32 %n, i32 %m) {\nentry:\n  br label %h\nh:\n  %k = phi i32 [0, %entry], [%k1, %b]\n  %c = icmp sge i32 %k, %n\n  br i1 %c, label %j, label %t\nt:\n  %d = icmp sge i32 %k, %m\n  br label %j\nj:\n  %p = phi i1 [true, %h], [%d, %t]\n  %q = xor i1 %p, true\n  br i1 %q, label %b, label %x\nb:\n  %k1 = add i32 %k, 1\n  br label %h\nx:\n  %o = phi i32 [%k, %j]\n  ret i32 %o\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		lf, diags := liftUnguarded("fuzz.ll", src, nil)
		for _, d := range diags {
			if d.Pos.File == "" || d.Pos.Line < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
		}
		if lf == nil {
			if len(diags) == 0 {
				t.Fatal("no program and no diagnostic")
			}
			return
		}
		apt.Inspect(lf.Prog, func(n apt.Node) bool { return true })
		// The instrumented module is written from the lifted one, which
		// the lifter may have rewritten (shortcircuit.go).
		_ = lf.Module.String()
	})
}

// TestUnreadableIR checks the refusal of IR a newer LLVM wrote: a
// positioned message that says how to write readable IR.
func TestUnreadableIR(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"define void @f(ptr %p) {\n  ret void\n}\n", "fuzz.ll:1:16: IR of a newer LLVM (the opaque pointer type ptr)"},
		{"; comment\nattributes #0 = { nounwind memory(none) }\n", "fuzz.ll:2:28: IR of a newer LLVM (attribute memory)"},
		{"define void @f() {\n  br label %nowhere\n}\n", "fuzz.ll:"},
	} {
		_, diags := ParseIR("fuzz.ll", []byte(tc.src), nil)
		if len(diags) != 1 || !strings.HasPrefix(diags[0].String(), tc.want) {
			t.Errorf("%q: got %v, want a diagnostic starting %q", tc.src, diags, tc.want)
			continue
		}
		if tc.want != "fuzz.ll:" && !strings.Contains(diags[0].Msg, "clang-14 -S -emit-llvm") {
			t.Errorf("%q: %v does not say how to write readable IR", tc.src, diags[0])
		}
	}
}
