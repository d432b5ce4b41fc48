package cipherd

// Version is the cipherd release this client belongs to. The Go, Python, TypeScript and Java clients
// carry the same number (make test-crosslang checks it); the Go module version of the release is the
// tag clients/go/v<Version>. Which servers a client of a version works with is in
// docs/compatibility.md.
const Version = "0.1.0"
