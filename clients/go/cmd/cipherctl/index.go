package main

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func newIndexCommand(conn *connection) *cobra.Command {
	var trim, nfkc, casefold, allVersions bool
	var length, version int32
	cmd := &cobra.Command{
		Use:   "index KEY [VALUE]",
		Short: "Print the blind index (hex) of VALUE, or of stdin, under the index key KEY",
		Long: `index hashes a value with an index key (mode hmac) and prints the index in hex. The value is
read from stdin without an argument, less one trailing line break; prefer stdin for secret values,
as other users of this machine can see a command's arguments. With --all-versions it prints one
line per usable key version, newest first: "vN HEX".`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			value, err := indexValue(cmd, args)
			if err != nil {
				return err
			}
			opts := []cipherd.IndexOption{cipherd.WithIndexLength(length), cipherd.WithIndexKeyVersion(version)}
			for _, o := range []struct {
				set bool
				opt cipherd.IndexOption
			}{{trim, cipherd.WithTrim()}, {nfkc, cipherd.WithNFKC()}, {casefold, cipherd.WithCaseFold()}, {allVersions, cipherd.WithAllVersions()}} {
				if o.set {
					opts = append(opts, o.opt)
				}
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				idx, err := c.ComputeIndex(cmd.Context(), args[0], value, opts...)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if !allVersions {
					_, err = fmt.Fprintln(out, hex.EncodeToString(idx.Index))
					return err
				}
				for _, v := range idx.Versions {
					if _, err := fmt.Fprintf(out, "v%d %s\n", v.KeyVersion, hex.EncodeToString(v.Index)); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&trim, "trim", false, "remove leading and trailing white space first")
	f.BoolVar(&nfkc, "nfkc", false, "apply Unicode NFKC (after --trim)")
	f.BoolVar(&casefold, "casefold", false, "apply Unicode case folding (after --trim and --nfkc)")
	f.Int32Var(&length, "length", 0, "index length in bytes, 8 to 32 (default 32)")
	f.Int32Var(&version, "version", 0, "key version to index under (default: the current one)")
	f.BoolVar(&allVersions, "all-versions", false, "print the index under every usable version, newest first")
	return cmd
}

// indexValue is the VALUE argument, or stdin less one trailing line break (what echo adds).
func indexValue(cmd *cobra.Command, args []string) ([]byte, error) {
	if len(args) == 2 {
		return []byte(args[1]), nil
	}
	raw, err := readInput(cmd, "")
	if err != nil {
		return nil, err
	}
	raw = bytes.TrimSuffix(raw, []byte("\n"))
	return bytes.TrimSuffix(raw, []byte("\r")), nil
}
