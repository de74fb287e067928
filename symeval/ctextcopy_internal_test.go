package symeval

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCopyTextAgainstBytes checks the text a copy of the C library leaves
// (copyWrite, then spliceText at the destination's place) against a model
// of C's memory: a 48-byte buffer holding the text, its NUL and garbage,
// changed byte by byte as C11 7.24.2.3-4 and 7.24.3.1-2 say. Wherever the
// evaluation keeps a text, each character it keeps is the buffer's.
func TestCopyTextAgainstBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 41))
	word := func(max int) string {
		b := make([]byte, r.IntN(max+1))
		for i := range b {
			b[i] = "ab= #x\t"[r.IntN(7)]
		}
		return string(b)
	}
	names := []string{"strcpy", "strncpy", "strcat", "strncat"}
	kept := 0
	for trial := range 20000 {
		cur, src := word(20), word(12)
		name := names[r.IntN(len(names))]
		n := int64(r.IntN(16))
		off := int64(r.IntN(len(cur) + 1)) // &buf[off], inside the text
		mem := bytes.Repeat([]byte{'?'}, 48)
		copy(mem, cur+"\x00")
		dst := mem[off:]
		at := int64(0)
		switch name {
		case "strcpy":
			copy(dst, src+"\x00")
		case "strncpy":
			for i := int64(0); i < n; i++ {
				if i < int64(len(src)) {
					dst[i] = src[i]
				} else {
					dst[i] = 0
				}
			}
		case "strcat", "strncat":
			at = int64(bytes.IndexByte(dst, 0))
			m := int64(len(src))
			if name == "strncat" && m > n {
				m = n
			}
			copy(dst[at:], src[:m])
			dst[at+m] = 0
		}
		got, ok := spliceText(cur, off+at, copyWrite(name, src, n))
		if !ok {
			continue
		}
		kept++
		for i := range len(got) {
			if got[i] != mem[i] {
				t.Fatalf("trial %d: %s(&%q[%d], %q, %d): text %q, memory %q (byte %d)", trial, name, cur, off, src, n, got, mem[:len(got)], i)
			}
		}
		if c := bytes.IndexByte(mem, 0); c < 0 || c > len(got) {
			t.Fatalf("trial %d: %s(&%q[%d], %q, %d): text %q ends before the string %q", trial, name, cur, off, src, n, got, mem)
		}
	}
	if kept < 10000 {
		t.Errorf("only %d of 20000 copies kept a text", kept)
	}
}
