package openfile_test

import (
	"testing"

	"github.com/mkvet/mkvet/internal/openfile"
)

func TestOpen(t *testing.T) {
	for _, c := range []struct {
		status, action string
		exists         bool
		iostat         int64
		after          bool
	}{
		{"old", "", false, openfile.Missing, false},
		{" OLD ", "read", true, 0, true},
		{"new", "write", false, 0, true},
		{"new", "", true, openfile.Exists, true},
		{"replace", "write", false, 0, true},
		{"Replace", "", true, 0, true},
		{"unknown", "", false, 0, true},
		{"", "readwrite", false, 0, true},
		{"", "READ", false, openfile.Missing, false},
		{"unknown", "read", true, 0, true},
		{"scratch", "", false, 0, false},
	} {
		iostat, after := openfile.Open(c.status, c.action, c.exists)
		if iostat != c.iostat || after != c.after {
			t.Errorf("Open(%q, %q, %v) = %d, %v, want %d, %v", c.status, c.action, c.exists, iostat, after, c.iostat, c.after)
		}
	}
	if !openfile.Creates("replace", "write") || openfile.Creates("old", "read") || openfile.Creates("", "read") {
		t.Error("Creates disagrees with Open")
	}
	if !openfile.Deletes(" DELETE") || openfile.Deletes("keep") || openfile.Deletes("") {
		t.Error("Deletes")
	}
	if openfile.Name("  tea.in  ") != "tea.in" {
		t.Error("Name")
	}
}
