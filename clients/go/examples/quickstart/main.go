// Command quickstart encrypts and decrypts one message with the "demo" key of a local cipherd
// (make run), the quick start of clients/go/README.md.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func main() {
	addr := os.Getenv("CIPHERD_ADDR")
	if addr == "" {
		addr = "127.0.0.1:50051"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := cipherd.Dial(ctx, addr, cipherd.WithInsecure())
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ct, err := c.Encrypt(ctx, "demo", []byte("hello, cipherd"))
	if err != nil {
		log.Fatal(err)
	}
	header, _ := cipherd.ParseCiphertext(ct) // local: no call
	pt, err := c.Decrypt(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s/v%d:%s decrypts to %q\n", header.KeyName, header.KeyVersion, header.Mode, pt)
}
