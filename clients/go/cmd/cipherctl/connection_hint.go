package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// hint says what to check when dialing failed with err, in terms of cipherctl's flags; "" when
// there is nothing to add to the error itself.
func (c *connection) hint(err error) string {
	if _, ok := errors.AsType[*cipherd.ConnectError](err); !ok {
		return ""
	}
	tlsFlags := "--ca-file"
	if c.certFile != "" {
		tlsFlags = "--ca-file, --cert and --key"
	}
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var header tls.RecordHeaderError
	op, remote := errors.AsType[*net.OpError](err)
	remote = remote && op.Op == "remote error"
	switch {
	case errors.As(err, &unknownCA) && c.caFile != "":
		return fmt.Sprintf("unknown certificate authority: the server's certificate is not signed by --ca-file %s", c.caFile)
	case errors.As(err, &unknownCA):
		return "unknown certificate authority: the server's certificate is not signed by a CA of the system's roots; give its CA with --ca-file"
	case errors.As(err, &hostname):
		return fmt.Sprintf("the server's certificate is not for the host of --addr %s: %v", c.addr, hostname.Error())
	case errors.As(err, &header):
		return fmt.Sprintf("the server does not speak TLS on %s: connect without %s (plaintext is for loopback, or with --insecure), or check --addr", c.addr, tlsFlags)
	case remote && c.certFile == "" && isClientCertificateAlert(op.Err):
		return "the server requires a client certificate (--cert/--key, or CIPHERD_CERT_FILE/CIPHERD_KEY_FILE)"
	case remote && c.certFile != "":
		return fmt.Sprintf("the server refused the client certificate --cert %s (%v): is it signed by the CA the server trusts for clients, and valid today?", c.certFile, op.Err)
	case errors.Is(err, cipherd.ErrClosedBeforeAnswer) && c.plaintext():
		return "the server expects TLS (use --ca-file FILE with its CA, and --cert/--key if it requires client certificates)"
	case errors.Is(err, syscall.ECONNREFUSED) || strings.Contains(err.Error(), "connect: connection refused"):
		return fmt.Sprintf("nothing listens on %s: is cipherd running there, and is --addr (CIPHERD_ADDR) right?", c.addr)
	case strings.Contains(err.Error(), "no such host"):
		return fmt.Sprintf("the host of --addr %s is not known to DNS", c.addr)
	}
	return ""
}

// isClientCertificateAlert reports whether a server's TLS alert is how servers refuse a handshake
// without a client certificate: certificate_required (TLS 1.3), or bad_certificate or
// handshake_failure (TLS 1.2).
func isClientCertificateAlert(alert error) bool {
	text := alert.Error()
	return strings.Contains(text, "certificate required") || strings.Contains(text, "bad certificate") || strings.Contains(text, "handshake failure")
}
