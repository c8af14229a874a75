//go:build unix && !linux

package testenv

import (
	"os"
	"syscall"
)

// sysProcAttr puts the server in its own process group. (Only Linux has a
// parent-death signal.)
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the server's whole process group.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		p.Kill()
	}
}
