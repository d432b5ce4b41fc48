package cipherd

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// TestAESKeyWrapPadded_rfc5649Examples checks the wrap against the two examples of RFC 5649,
// section 6 (a 192-bit KEK; 20 and 7 bytes of key).
func TestAESKeyWrapPadded_rfc5649Examples(t *testing.T) {
	kek, _ := hex.DecodeString("5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8")
	for _, c := range []struct{ key, wrapped string }{
		{"c37b7e6492584340bed12207808941155068f738", "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a"},
		{"466f7250617369", "afbeb0f07dfbf5419200f2ccb50bb24f"},
	} {
		key, _ := hex.DecodeString(c.key)
		want, _ := hex.DecodeString(c.wrapped)
		got, err := aesKeyWrapPadded(kek, key)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("wrap of %s = %x, %v; want %s", c.key, got, err, c.wrapped)
		}
	}
}

func TestWrapKeyMaterial_refusesWhatIsNotAnRSAPublicKey(t *testing.T) {
	for _, pem := range []string{"", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"} {
		if _, err := WrapKeyMaterial(pem, make([]byte, 32)); err == nil {
			t.Errorf("WrapKeyMaterial(%q) wrapped", pem)
		}
	}
}
