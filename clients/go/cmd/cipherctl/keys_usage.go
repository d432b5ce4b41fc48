package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func newListCommand(conn *connection) *cobra.Command {
	return &cobra.Command{Use: "list", Short: "List every key: name, current version, its mode, usage summed over its versions (blind indexes computed, for an index key) and its state", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				w := table(cmd.OutOrStdout(), "NAME", "VERSION", "MODE", usageHeader, "LAST USED", "STATE")
				for listed, err := range c.ListKeys(cmd.Context()) {
					if err != nil {
						return err
					}
					// ListKeys leaves usage out; GetKey has it, merged and as this replica counts it.
					k, err := c.GetKey(cmd.Context(), listed.KeyName)
					if err != nil {
						return err
					}
					versions := k.Versions
					u := totalUsage(versions)
					fmt.Fprintf(w, "%s\tv%d\t%s\t%s\t%s\t%s\n", k.KeyName, k.CurrentVersion,
						versionKind(versions[len(versions)-1]), usageCells(isIndexKey(k), u), lastUsed(u), keyState(k))
				}
				return w.Flush()
			})
		}}
}

// keyState is a key's state for keys list: its own, then how many versions wait for destruction
// or are destroyed, and when the next destruction is due.
func keyState(k *cipherd.Key) string {
	state := k.State.String()
	if t := k.DeleteTime; !t.IsZero() {
		state += "@" + t.UTC().Format(time.RFC3339)
	}
	scheduled, destroyed := 0, 0
	for _, v := range k.Versions {
		switch v.State {
		case cipherd.VersionDestructionScheduled:
			scheduled++
		case cipherd.VersionDestroyed:
			destroyed++
		}
	}
	if scheduled > 0 {
		state += fmt.Sprintf(",%d-destruction-scheduled", scheduled)
	}
	if destroyed > 0 {
		state += fmt.Sprintf(",%d-destroyed", destroyed)
	}
	return state
}

// versionState is a version's state, with when it is (or was) destroyed.
func versionState(v cipherd.KeyVersion) string {
	state := v.State.String()
	if t := v.DestroyTime; !t.IsZero() {
		state += "@" + t.UTC().Format(time.RFC3339)
	}
	return state
}

func newCensusCommand(conn *connection) *cobra.Command {
	var quiet time.Duration
	cmd := &cobra.Command{
		Use:   "census NAME",
		Short: "Show which versions of a key still see traffic, and how far min_decryption_version can be raised",
		Long: `census lists each version from the policy's min_decryption_version up with its usage across
replicas and whether it was used within --quiet-period, then the safe min_decryption_version: the
oldest version used within the quiet period. Rewrap what still reads older versions, wait a quiet
period, run census again, then raise the minimum with keys policy --min-decryption-version.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if quiet < 0 {
				return fmt.Errorf("--quiet-period must not be negative")
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				census, err := c.GetKeyCensus(cmd.Context(), args[0], quiet)
				if err != nil {
					return err
				}
				return printCensus(cmd.OutOrStdout(), census)
			})
		},
	}
	cmd.Flags().DurationVar(&quiet, "quiet-period", 168*time.Hour, "how long without use makes a version idle")
	return cmd
}

func printCensus(out io.Writer, census *cipherd.KeyCensus) error {
	w := table(out, "VERSION", "ENCRYPTIONS", "DECRYPTIONS", "REWRAPS", "LAST USED", "IN USE", "SUBJECT KEYS")
	for _, v := range census.Versions {
		inUse := "no"
		if v.InUse {
			inUse = "yes"
		}
		fmt.Fprintf(w, "v%d\t%d\t%d\t%d\t%s\t%s\t%d\n", v.Version, v.Usage.Encryptions, v.Usage.Decryptions, v.Usage.Rewraps, lastUsed(v.Usage), inUse, v.SubjectKeys)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(out, "safe min_decryption_version: %d (now %d)\n", census.SafeMinDecryptionVersion,
		max(1, census.Key.Policy.MinDecryptionVersion))
	return err
}

// usageHeader heads the usage columns of keys list and keys rotate.
const usageHeader = "ENCRYPTIONS\tDECRYPTIONS\tREWRAPS\tINDEXES"

// usageCells are the usage columns: the blind indexes computed for an index key, what was
// encrypted, decrypted and rewrapped for any other, and "-" where a count does not apply.
func usageCells(index bool, u cipherd.Usage) string {
	if index {
		return fmt.Sprintf("-\t-\t-\t%d", u.Indexes)
	}
	return fmt.Sprintf("%d\t%d\t%d\t-", u.Encryptions, u.Decryptions, u.Rewraps)
}

// isIndexKey reports whether a key makes blind indexes (mode hmac) rather than ciphertexts.
func isIndexKey(k *cipherd.Key) bool {
	versions := k.Versions
	return len(versions) > 0 && versions[len(versions)-1].Mode == cipherd.ModeHMAC
}

// table writes aligned columns under a header row; Flush writes them.
func table(out io.Writer, header ...string) *tabwriter.Writer {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for i, h := range header {
		if i > 0 {
			fmt.Fprint(w, "\t")
		}
		fmt.Fprint(w, h)
	}
	fmt.Fprintln(w)
	return w
}

func totalUsage(versions []cipherd.KeyVersion) cipherd.Usage {
	var total cipherd.Usage
	for _, v := range versions {
		u := v.Usage
		total.Encryptions += u.Encryptions
		total.Decryptions += u.Decryptions
		total.Rewraps += u.Rewraps
		total.Indexes += u.Indexes
		if u.LastUsed.After(total.LastUsed) {
			total.LastUsed = u.LastUsed
		}
	}
	return total
}

func lastUsed(u cipherd.Usage) string {
	if !u.Used() {
		return "never"
	}
	return u.LastUsed.UTC().Format(time.RFC3339)
}

// versionKind is a version's mode, or for a legacy key's version "legacy:" and its cipher.
func versionKind(v cipherd.KeyVersion) string {
	if v.LegacyCipher != cipherd.LegacyCipherUnspecified {
		return "legacy:" + v.LegacyCipher.String()
	}
	return v.Mode.String()
}
