// Package cipherd is the Go client of cipherd, a key-managed encryption service over gRPC.
//
// Dial connects with functional options (TLS, mutual TLS, bearer token, deadlines, retries); the
// Client's methods return errors that match this package's sentinels with errors.Is, told apart by
// the server's ErrorInfo reason (Error.Reason), never by the message. Ciphertext headers are
// parsed locally by ParseCiphertext, without a call. The generated stubs are in the cipherdpb
// package and reachable as Client.Crypto and Client.Admin, with the same typed errors.
package cipherd
