package main

import "testing"

func TestConnection_plaintextOnlyForLoopbackOrWhenAskedFor(t *testing.T) {
	cases := []struct {
		name string
		c    connection
		want bool
	}{
		{"IPv4 loopback", connection{addr: "127.0.0.1:50051"}, true},
		{"anywhere in 127/8", connection{addr: "127.9.8.7:50051"}, true},
		{"IPv6 loopback", connection{addr: "[::1]:50051"}, true},
		{"localhost", connection{addr: "localhost:50051"}, true},
		{"a host name", connection{addr: "cipherd.prod.svc:443"}, false},
		{"a private address", connection{addr: "10.0.0.7:50051"}, false},
		{"no port", connection{addr: "127.0.0.1"}, false},
		{"remote with --insecure", connection{addr: "10.0.0.7:50051", insecure: true}, true},
		{"loopback with a CA file", connection{addr: "127.0.0.1:50051", caFile: "ca.pem"}, false},
		{"loopback with a client certificate", connection{addr: "127.0.0.1:50051", certFile: "me.pem"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.plaintext(); got != tc.want {
				t.Errorf("plaintext() = %v, want %v", got, tc.want)
			}
		})
	}
}
