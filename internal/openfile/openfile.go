package openfile

import "strings"

// IOSTAT= values of a failed OPEN: gfortran reports an error of the
// operating system as its errno.
const (
	Missing = 2  // ENOENT: STATUS='OLD' (or a read-only 'UNKNOWN') of a file that is not there
	Exists  = 17 // EEXIST: STATUS='NEW' of a file that is there
)

// Name is the file a FILE= value names: trailing blanks are not part of
// it (Fortran 2008 9.5.6.10), and leading ones are dropped as gfortran's
// OPEN drops them.
func Name(s string) string { return strings.TrimSpace(s) }

// Open returns the IOSTAT= value of an OPEN with the given STATUS= and
// ACTION= (as written, any case; "" where absent) of a file that exists or
// not, and whether the file exists afterwards. STATUS defaults to
// UNKNOWN, which creates a missing file unless the file is opened for
// reading only (gfortran opens it without O_CREAT then); SCRATCH names no
// file and leaves it as it is.
func Open(status, action string, exists bool) (iostat int64, after bool) {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "old":
		if !exists {
			return Missing, false
		}
	case "new":
		if exists {
			return Exists, true
		}
	case "scratch":
		return 0, exists
	case "replace":
	default: // "unknown" or absent
		if !exists && strings.EqualFold(strings.TrimSpace(action), "read") {
			return Missing, false
		}
	}
	return 0, true
}

// Creates reports whether an OPEN with the given STATUS= and ACTION= makes
// a missing file exist.
func Creates(status, action string) bool {
	_, after := Open(status, action, false)
	return after
}

// Deletes reports whether a CLOSE with the given STATUS= deletes the file
// its unit is connected to (a scratch file is deleted whatever it says,
// but has no name to test).
func Deletes(status string) bool {
	return strings.EqualFold(strings.TrimSpace(status), "delete")
}
