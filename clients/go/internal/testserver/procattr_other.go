//go:build !linux

package testserver

import "syscall"

// dieWithTest has no portable equivalent off Linux: Stop kills the server.
func dieWithTest() *syscall.SysProcAttr { return nil }
