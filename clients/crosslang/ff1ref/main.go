// Command ff1ref encrypts numeral strings with FF1 as an implementation independent of cipherd's
// computes it: Capital One's github.com/capitalone/fpe (Go, Apache-2.0). The crosslang test's
// test_formatted.py recomputes what cipherd's EncryptFormatted answers from an imported key.
//
// Each line of stdin is "KEY_HEX RADIX TWEAK_HEX NUMERALS", numerals as Go's math/big writes them
// (0-9, then a-z, then A-Z); each line of stdout is the ciphertext's numerals.
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/capitalone/fpe/ff1"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		out, err := encrypt(strings.Fields(in.Text()))
		if err != nil {
			fmt.Fprintln(os.Stderr, "ff1ref:", err)
			os.Exit(1)
		}
		fmt.Println(out)
	}
}

func encrypt(fields []string) (string, error) {
	if len(fields) != 4 {
		return "", fmt.Errorf("want KEY_HEX RADIX TWEAK_HEX NUMERALS, got %d fields", len(fields))
	}
	key, err := hex.DecodeString(fields[0])
	if err != nil {
		return "", err
	}
	radix, err := strconv.Atoi(fields[1])
	if err != nil {
		return "", err
	}
	tweak, err := hex.DecodeString(fields[2])
	if err != nil {
		return "", err
	}
	cipher, err := ff1.NewCipher(radix, len(tweak), key, tweak)
	if err != nil {
		return "", err
	}
	return cipher.Encrypt(fields[3])
}
