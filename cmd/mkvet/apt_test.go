package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAPTCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"apt", "../../testdata/programs/trap_mpi.f"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	for _, want := range []string{
		"trapmp program trapmp()",
		"trapmp/I1/b1/L1/M1 comm recv blocking=true recv{buf=integral count=1 type=mpi_double_precision(8B) peer=source tag=tag}",
		"trap/L1 loop do i = 1, local_n - 1 end=20",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestAPTCommandJSON(t *testing.T) {
	var out, errb bytes.Buffer
	// Flags may follow the file names.
	code := run([]string{"apt", "../../testdata/programs/jacobi1d.f90", "-json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if v["node"] != "program" {
		t.Errorf("node = %v", v["node"])
	}
}

func TestAPTCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.f90")
	src := "program p\n  integer :: n\n#ifdef BIG\n  n = 100\n#else\n  n = (\n#endif\nend program p\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	// Without -cpp a .f90 file is not preprocessed: # lines are skipped with a
	// warning, so both branches are read.
	if code := run([]string{"apt", "-form", "free", bad}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not preprocessed") {
		t.Errorf("without -cpp: exit %d: %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	code := run([]string{"apt", "-cpp", bad}, &out, &errb)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "bad.f90:6:") {
		t.Errorf("stderr lacks file:line:col of the error:\n%s", errb.String())
	}
	if !strings.Contains(out.String(), "unknown") {
		t.Errorf("tree not printed with the Unknown node:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"apt", "-cpp", "-D", "BIG", bad}, &out, &errb); code != 0 {
		t.Errorf("-D BIG: exit %d: %s", code, errb.String())
	}
	if code := run([]string{"apt"}, &out, &errb); code != 2 {
		t.Errorf("no files: exit %d", code)
	}
	if code := run([]string{"apt", "-form", "odd", bad}, &out, &errb); code != 2 {
		t.Errorf("bad -form: exit %d", code)
	}
	if code := run([]string{"apt", filepath.Join(dir, "missing.f")}, &out, &errb); code != 2 {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestAPTCommandIncludePath(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc")
	if err := os.Mkdir(inc, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(inc, "sizes.h"), []byte("      integer n\n      parameter (n = 42)\n"), 0o644)
	main := filepath.Join(dir, "m.f")
	os.WriteFile(main, []byte("      program m\n      include 'sizes.h'\n      x = n\n      end\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"apt", main}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "cannot find INCLUDE file") {
		t.Errorf("without -I: exit %d, %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"apt", "-I", inc, main}, &out, &errb); code != 0 {
		t.Errorf("with -I: exit %d, %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "var n: integer(4) parameter=42") {
		t.Errorf("PARAMETER from the header missing:\n%s", out.String())
	}
}
