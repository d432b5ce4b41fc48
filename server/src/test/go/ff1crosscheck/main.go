// Command ff1crosscheck prints FF1 cases computed by an implementation independent of cipherd's:
// Capital One's github.com/capitalone/fpe (Go, Apache-2.0). The server's Ff1CrossCheckTest runs it
// and checks that cipherd's FF1 gives the same ciphertext for every case, and decrypts it back.
//
// Each case draws a radix from 2 to 62, a length from the shortest FF1 accepts (a domain of at
// least 1,000,000 values) to 48 numerals more, an AES-128, -192 or -256 key, a tweak of 0 to 32
// bytes and a plaintext, all from the seed. Numerals are written as Go's math/big writes them:
// 0-9, then a-z, then A-Z.
package main

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"

	"github.com/capitalone/fpe/ff1"
)

const numerals = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

type sample struct {
	KeyHex     string `json:"key_hex"`
	Radix      int    `json:"radix"`
	TweakHex   string `json:"tweak_hex"`
	Plaintext  string `json:"plaintext"`
	Ciphertext string `json:"ciphertext"`
}

func main() {
	cases := flag.Int("cases", 1000, "how many cases to print")
	seed := flag.Int64("seed", 1, "the seed every case is drawn from")
	flag.Parse()
	rng := rand.New(rand.NewSource(*seed))
	out := make([]sample, 0, *cases)
	for i := 0; i < *cases; i++ {
		s, err := draw(rng)
		if err != nil {
			fmt.Fprintf(os.Stderr, "ff1crosscheck: case %d (seed %d): %v\n", i, *seed, err)
			os.Exit(1)
		}
		out = append(out, s)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "ff1crosscheck:", err)
		os.Exit(1)
	}
}

func draw(rng *rand.Rand) (sample, error) {
	radix := 2 + rng.Intn(big.MaxBase-1)
	length := shortest(radix) + rng.Intn(49)
	key := make([]byte, []int{16, 24, 32}[rng.Intn(3)])
	rng.Read(key)
	tweak := make([]byte, rng.Intn(33))
	rng.Read(tweak)
	plaintext := make([]byte, length)
	for j := range plaintext {
		plaintext[j] = numerals[rng.Intn(radix)]
	}
	cipher, err := ff1.NewCipher(radix, 64, key, tweak)
	if err != nil {
		return sample{}, err
	}
	ciphertext, err := cipher.Encrypt(string(plaintext))
	if err != nil {
		return sample{}, err
	}
	back, err := cipher.Decrypt(ciphertext)
	if err != nil {
		return sample{}, err
	}
	if back != string(plaintext) {
		return sample{}, fmt.Errorf("capitalone/fpe does not decrypt its own ciphertext (radix %d)", radix)
	}
	return sample{hex.EncodeToString(key), radix, hex.EncodeToString(tweak), string(plaintext), ciphertext}, nil
}

// shortest is the fewest numerals over radix that make at least 1,000,000 values.
func shortest(radix int) int {
	n := int(math.Ceil(6 / math.Log10(float64(radix))))
	for math.Pow(float64(radix), float64(n-1)) >= 1e6 {
		n--
	}
	for math.Pow(float64(radix), float64(n)) < 1e6 {
		n++
	}
	if n < 2 {
		n = 2
	}
	return n
}
