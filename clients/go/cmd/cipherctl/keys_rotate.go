package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func newRotateCommand(conn *connection) *cobra.Command {
	var flags keyFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rotate NAME",
		Short: "Add a new current version, then show every version's usage",
		Long: `rotate adds a new current version to a key. Older versions keep decrypting (or, for an index
key, keep computing the indexes already stored) until keys policy --min-decryption-version says
otherwise. It then prints each version with its usage, as GetKey reports it (merged across
replicas, plus the answering replica's latest counts), so the versions that still hold data show.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := flags.options()
			if err != nil {
				return err
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				if _, err := c.RotateKey(cmd.Context(), args[0], opts...); err != nil {
					return err
				}
				// RotateKey answers with the key's versions but not their usage; GetKey has it.
				key, err := c.GetKey(cmd.Context(), args[0])
				if err != nil {
					return fmt.Errorf("rotated %s, but reading its usage failed: %w", args[0], err)
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), keyMessage(key))
				}
				return printRotated(cmd.OutOrStdout(), key)
			})
		},
	}
	flags.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the key as JSON (as keys show does) instead of the table")
	return cmd
}

// printRotated prints the new current version, each version's usage, and what to do next.
func printRotated(out io.Writer, k *cipherd.Key) error {
	name, current := k.KeyName, k.CurrentVersion
	versions := k.Versions
	index := isIndexKey(k)
	fmt.Fprintf(out, "rotated %s: v%d (%s) is current\n", name, current, versionKind(versions[len(versions)-1]))
	w := table(out, "VERSION", "MODE", usageHeader, "LAST USED", "STATE")
	for _, v := range versions {
		u := v.Usage
		fmt.Fprintf(w, "v%d\t%s\t%s\t%s\t%s\n", v.Version, versionKind(v), usageCells(index, u), lastUsed(u), versionState(v))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	var err error
	if index {
		_, err = fmt.Fprintf(out, "new indexes use v%d; look stored ones up with cipherctl index %s --all-versions until they are re-indexed (ReIndexBatch, docs/searching.md), then retire the old versions\n", current, name)
	} else {
		_, err = fmt.Fprintf(out, "older versions still decrypt: rewrap their ciphertexts (cipherctl rewrap), and see cipherctl keys census %s before raising --min-decryption-version\n", name)
	}
	return err
}
