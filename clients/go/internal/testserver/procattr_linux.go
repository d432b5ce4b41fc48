package testserver

import "syscall"

// dieWithTest kills the server when the test process dies, even by SIGKILL or a test timeout.
func dieWithTest() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
