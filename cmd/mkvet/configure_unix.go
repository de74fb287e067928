//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd a process group of its own and has its cancellation
// kill the whole group: a -configure command that times out is a shell
// whose children (the configure step itself) must end with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
