package cipherd_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestDataKey_formattingNeverShowsThePlaintextKey(t *testing.T) {
	secret := bytes.Repeat([]byte{0xA7}, 32)
	k := cipherd.DataKey{Plaintext: secret, Wrapped: "<files/v3:gcm>" + base64.StdEncoding.EncodeToString(make([]byte, 60)), KeyVersion: 3}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%d", "%q"} {
		for _, arg := range []any{k, &k} {
			out := fmt.Sprintf(verb, arg)
			if strings.Contains(strings.ToLower(out), "a7a7") || strings.Contains(out, "167") || strings.Contains(out, string(secret[:4])) {
				t.Errorf("%s of %T shows the key: %s", verb, arg, out)
			}
			if !strings.Contains(out, "files/v3:gcm") {
				t.Errorf("%s of %T does not name the wrapping key: %s", verb, arg, out)
			}
		}
	}
}

func TestDataKey_wipeZeroesTheKeyBytes(t *testing.T) {
	buf := bytes.Repeat([]byte{0x5C}, 32)
	k := cipherd.DataKey{Plaintext: buf}
	k.Wipe()
	if k.Plaintext != nil || hex.EncodeToString(buf) != strings.Repeat("00", 32) {
		t.Fatalf("after Wipe: Plaintext %v, buffer %x", k.Plaintext != nil, buf)
	}
}
