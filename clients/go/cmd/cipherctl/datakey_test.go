package main_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

// fields reads "name: value" lines.
func fields(out string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, value, ok := strings.Cut(line, ": "); ok {
			m[name] = value
		}
	}
	return m
}

func TestDataKey_plaintextKeyOnlyWhenAskedAndTheWrappedKeyUnwrapsToIt(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-dk")
	hidden := fields(cipherctl(t, "", 0, "datakey", "cli-dk"))
	if !strings.HasPrefix(hidden["wrapped_key"], "<cli-dk/v1:gcm>") || hidden["key_version"] != "1" {
		t.Fatalf("datakey printed %v", hidden)
	}
	if _, ok := hidden["plaintext_key"]; ok {
		t.Fatal("datakey printed the plaintext key without --plaintext")
	}
	shown := fields(cipherctl(t, "", 0, "datakey", "cli-dk", "--plaintext", "--context", "c1"))
	key, err := base64.StdEncoding.DecodeString(shown["plaintext_key"])
	if err != nil || len(key) != 32 {
		t.Fatalf("--plaintext printed a %d-byte key (%v)", len(key), err)
	}
	if unwrapped := cipherctl(t, shown["wrapped_key"], 0, "decrypt", "--context", "c1"); !bytes.Equal([]byte(unwrapped), key) {
		t.Fatal("decrypt of the wrapped key differs from the plaintext key")
	}
	short := fields(cipherctl(t, "", 0, "datakey", "cli-dk", "--plaintext", "--bits", "128"))
	if key, _ := base64.StdEncoding.DecodeString(short["plaintext_key"]); len(key) != 16 {
		t.Fatalf("--bits 128 printed a %d-byte key", len(key))
	}
}
