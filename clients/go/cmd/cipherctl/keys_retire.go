package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func newRetireCommand(conn *connection) *cobra.Command {
	var below int32
	var opts cipherd.RetireOptions
	var inventories []string
	cmd := &cobra.Command{
		Use:   "retire KEY --below N",
		Short: "Retire every version below N: refuse while any was used within the quiet period, else raise min_decryption_version to N and schedule the older versions for destruction",
		Long: `retire is the safe path to destroying old versions: rotate, rewrap what still reads the old
versions (cipherctl rewrap), check keys census, then retire. The server refuses, naming them,
while any version below --below was used within --quiet-period on any replica; otherwise it sets
min_decryption_version to --below and schedules every older version for destruction after
--pending-window, in one write. --dry-run prints the plan without changing the key. Until the
destroy time, keys cancel-destroy KEY --versions ... undoes it.

Traffic shows what is read, not what exists: cold rows (archives, closed accounts) look idle.
--inventory FILE (repeatable) sends the inventories cipherctl scan --out wrote as evidence: the
server refuses while any of them counts a ciphertext of KEY under a version below --below.
Inventories of other keys in a file are skipped.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if below < 1 {
				return fmt.Errorf("--below is required: the version that becomes min_decryption_version")
			}
			if opts.QuietPeriod < 0 || opts.PendingWindow < 0 {
				return fmt.Errorf("--quiet-period and --pending-window must not be negative")
			}
			found, err := readInventories(args[0], inventories, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			opts.Inventories = found
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				r, err := c.RetireKeyVersions(cmd.Context(), args[0], below, opts)
				if err != nil {
					return retireRefusal(args[0], below, opts, err)
				}
				return printRetirement(cmd.OutOrStdout(), args[0], below, opts.DryRun, r)
			})
		},
	}
	cmd.Flags().Int32Var(&below, "below", 0, "retire every version below this one; it becomes min_decryption_version")
	cmd.Flags().DurationVar(&opts.QuietPeriod, "quiet-period", 168*time.Hour, "how long a version must have seen no use on any replica to be retired")
	cmd.Flags().DurationVar(&opts.PendingWindow, "pending-window", defaultPendingWindow, "how long the retired versions wait before their bytes are erased (at least 24h)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the plan (or the refusal) without changing the key")
	cmd.Flags().StringArrayVar(&inventories, "inventory", nil, "an inventory file from cipherctl scan --out, as evidence of what data exists (repeatable)")
	return cmd
}

// retireRefusal says which versions are still in use when the server names them, and why: an
// inventory that still counts their ciphertexts, or traffic within the quiet period.
func retireRefusal(key string, below int32, opts cipherd.RetireOptions, err error) error {
	inUse := cipherd.VersionsInUse(err)
	if !errors.Is(err, cipherd.ErrKeyVersionsInUse) || len(inUse) == 0 {
		return err
	}
	if source := cipherd.InventorySource(err); source != "" {
		counts := []string{}
		if inv := refusingInventory(opts.Inventories, source); inv != nil {
			for _, v := range inv.Versions {
				if v.Version < below && v.Ciphertexts > 0 {
					unit := "ciphertexts"
					if v.Ciphertexts == 1 {
						unit = "ciphertext"
					}
					counts = append(counts, fmt.Sprintf("%d %s under v%d", v.Ciphertexts, unit, v.Version))
				}
			}
		}
		if len(counts) == 0 {
			counts = append(counts, "ciphertexts under "+joinVersions(inUse))
		}
		return fmt.Errorf("not retiring %s below v%d: inventory %s still counts %s: rewrap them (cipherctl rewrap) and scan again: %w",
			key, below, source, strings.Join(counts, ", "), err)
	}
	return fmt.Errorf("not retiring %s below v%d: %s used within the quiet period (%s); rewrap their data (cipherctl rewrap), check cipherctl keys census %s, and retry later: %w",
		key, below, joinVersions(inUse), opts.QuietPeriod, key, err)
}

func printRetirement(out io.Writer, key string, below int32, dryRun bool, r *cipherd.Retirement) error {
	verb := "retired"
	if dryRun {
		verb = "would retire (dry run, nothing changed)"
	}
	if len(r.RetiredVersions) == 0 {
		_, err := fmt.Fprintf(out, "%s: no version below v%d left to retire\n", key, below)
		return err
	}
	fmt.Fprintf(out, "%s %s: %s\n", verb, key, joinVersions(r.RetiredVersions))
	fmt.Fprintf(out, "min_decryption_version: %d\n", below)
	_, err := fmt.Fprintf(out, "destroyed at: %s (until then: cipherctl keys cancel-destroy %s --versions %s)\n",
		r.DestroyTime.UTC().Format(time.RFC3339), key, versionList(r.RetiredVersions))
	return err
}

// versionList prints versions as --versions takes them: 1,2.
func versionList(versions []int32) string {
	s := ""
	for i, v := range versions {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(v)
	}
	return s
}
