package main

import (
	"encoding/base64"
	"fmt"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func newDataKeyCommand(conn *connection) *cobra.Command {
	var aad string
	var bits int32
	var showPlaintext bool
	cmd := &cobra.Command{
		Use:   "datakey KEY",
		Short: "Make a data key wrapped by KEY; print the wrapped key (and the key itself only with --plaintext)",
		Long: `datakey asks for a new random data key and prints "wrapped_key: <KEY/vN:MODE>..." and
"key_version: N". Unwrap it later with: cipherctl decrypt [--context C] | base64. Without
--plaintext the server does not even send the key; with it, "plaintext_key: BASE64" follows,
a secret to use at once and never store.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := []cipherd.DataKeyOption{cipherd.WithDataKeyAAD([]byte(aad)), cipherd.WithDataKeyBits(bits)}
			if !showPlaintext {
				opts = append(opts, cipherd.WithoutPlaintextKey())
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				key, err := c.GenerateDataKey(cmd.Context(), args[0], opts...)
				if err != nil {
					return err
				}
				defer key.Wipe()
				out := cmd.OutOrStdout()
				if _, err := fmt.Fprintf(out, "wrapped_key: %s\nkey_version: %d\n", key.Wrapped, key.KeyVersion); err != nil {
					return err
				}
				if !showPlaintext {
					return nil
				}
				_, err = fmt.Fprintf(out, "plaintext_key: %s\n", base64.StdEncoding.EncodeToString(key.Plaintext))
				return err
			})
		},
	}
	cmd.Flags().StringVar(&aad, "context", "", "associated data bound to the wrapped key; unwrapping needs the same")
	cmd.Flags().Int32Var(&bits, "bits", 256, "data key size: 128 or 256")
	cmd.Flags().BoolVar(&showPlaintext, "plaintext", false, "also print the data key itself, in base64")
	return cmd
}
