// Package mysqlaes is MySQL's AES_ENCRYPT(str, key_str) in its default mode, written for the tests
// independently of the server: AES-128-ECB with PKCS#7 padding under the key string folded
// (XORed cyclically) into 16 bytes. It makes legacy ciphertexts to rewrap.
package mysqlaes

import (
	"bytes"
	"crypto/aes"
)

// KnownAnswer is SELECT HEX(AES_ENCRYPT('HELLO', '1234567890')) on MySQL.
const (
	KnownPlaintext  = "HELLO"
	KnownPassphrase = "1234567890"
	KnownAnswerHex  = "FF06A56B4E88C828A010E9BD0CE70A89"
)

// Encrypt is AES_ENCRYPT(plaintext, passphrase).
func Encrypt(plaintext, passphrase []byte) []byte {
	key := make([]byte, 16)
	for i, b := range passphrase {
		key[i%16] ^= b
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		panic(err) // 16 bytes is always a valid AES key
	}
	pad := 16 - len(plaintext)%16
	data := append(bytes.Clone(plaintext), bytes.Repeat([]byte{byte(pad)}, pad)...)
	for i := 0; i < len(data); i += 16 {
		block.Encrypt(data[i:i+16], data[i:i+16])
	}
	return data
}
