package cipherd

import "strings"

// IsTransitCiphertext reports whether text is a Vault Transit ciphertext ("vault:vN:BASE64") rather
// than cipherd's: cipherd decrypts and rewraps it with a key imported from Transit (cipherctl
// import vault-transit), named by the call's expected key (WithExpectedKey), since it names none.
// It is not parsed here: the server says what is wrong with it.
func IsTransitCiphertext(text string) bool {
	return strings.HasPrefix(text, "vault:v")
}
