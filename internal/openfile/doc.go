// Package openfile is what OPEN, CLOSE and INQUIRE do to the files a
// program names (Fortran 2008 9.5.6, 9.5.7 and 9.10.2), as gfortran does
// it: which OPEN creates its file, which fails for a file that is missing
// or already there and with which IOSTAT= value, which CLOSE deletes it.
//
// The symbolic evaluation (symeval) and the concrete interpreter
// (internal/aptrun) both call it, each keeping the set of existing files
// with its own state, so that a program that writes a file and reads it
// back (an input deck it writes with its defaults when none is there)
// finds it in both.
package openfile
