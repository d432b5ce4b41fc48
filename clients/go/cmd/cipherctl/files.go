package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/datafile"
)

// fileFlags are the flags encrypt-file and decrypt-file share.
type fileFlags struct {
	in, out, aad string
}

func (f *fileFlags) register(cmd *cobra.Command, inHelp, outHelp string) {
	cmd.Flags().StringVar(&f.in, "in", "", inHelp)
	cmd.Flags().StringVar(&f.out, "out", "", outHelp)
	cmd.Flags().StringVar(&f.aad, "context", "", "associated data bound to the file's wrapped key; decrypting and rewrapping need the same")
	cmd.MarkFlagRequired("in")
	cmd.MarkFlagRequired("out")
}

// printWrappingKey prints which key version wraps a file's data key: not secret, and what a
// rotation changes.
func printWrappingKey(out io.Writer, h datafile.Header) error {
	ct, err := cipherd.ParseCiphertext(h.WrappedKey)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "key: %s\nversion: %d\nmode: %s\n", ct.KeyName, ct.KeyVersion, cipherd.ModeName(ct.Mode))
	return err
}

func newEncryptFileCommand(conn *connection) *cobra.Command {
	var f fileFlags
	var chunkSize int
	cmd := &cobra.Command{
		Use:   "encrypt-file KEY --in FILE --out FILE",
		Short: "Encrypt a file of any size locally under a new data key wrapped by KEY",
		Long: `encrypt-file asks for a data key wrapped by KEY, encrypts --in chunk by chunk (the data-key file
format of proto/README.md) and writes --out through a temporary file renamed when complete. Only
the data key crosses the network. It prints the key, version and mode that wrap the data key.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				h, err := datafile.EncryptFile(cmd.Context(), c, args[0], f.in, f.out,
					datafile.WithAAD([]byte(f.aad)), datafile.WithChunkSize(chunkSize))
				if err != nil {
					return err
				}
				return printWrappingKey(cmd.OutOrStdout(), h)
			})
		},
	}
	f.register(cmd, "file to encrypt", "encrypted file to write")
	cmd.Flags().IntVar(&chunkSize, "chunk-size", datafile.DefaultChunkSize, "plaintext bytes per chunk, 16 to 16777216")
	return cmd
}

func newDecryptFileCommand(conn *connection) *cobra.Command {
	var f fileFlags
	cmd := &cobra.Command{
		Use:   "decrypt-file --in FILE --out FILE",
		Short: "Decrypt a file made by encrypt-file",
		Long: `decrypt-file unwraps the file's data key with the server, verifies and decrypts every chunk into a
temporary file beside --out (mode 0600), and renames it to --out only when the last chunk has
verified: a damaged or cut file leaves no output. It prints the key, version and mode that wrap
the data key.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				h, err := datafile.DecryptFile(cmd.Context(), c, f.in, f.out, datafile.WithAAD([]byte(f.aad)))
				if err != nil {
					return err
				}
				return printWrappingKey(cmd.OutOrStdout(), h)
			})
		},
	}
	f.register(cmd, "encrypted file", "plaintext file to write")
	return cmd
}

func newRewrapFileCommand(conn *connection) *cobra.Command {
	var aad string
	cmd := &cobra.Command{
		Use:   "rewrap-file FILE",
		Short: "Rewrap an encrypted file's data key to its key's current version, in place",
		Long: `rewrap-file rewraps the data key in FILE's header with ReEncrypt (the data key never reaches
this machine) and replaces FILE atomically; the encrypted chunks are copied unchanged. It prints
the key, version and mode that now wrap the data key.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				h, err := datafile.RewrapFile(cmd.Context(), c, args[0], datafile.WithAAD([]byte(aad)))
				if err != nil {
					return err
				}
				return printWrappingKey(cmd.OutOrStdout(), h)
			})
		},
	}
	cmd.Flags().StringVar(&aad, "context", "", "associated data given at encryption")
	return cmd
}
