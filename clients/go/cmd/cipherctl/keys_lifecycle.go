package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// defaultPendingWindow is the server's: how long destroyed versions wait, refusing every call,
// before their bytes are erased.
const defaultPendingWindow = 168 * time.Hour

// newLifecycleCommands are keys disable, enable, destroy, cancel-destroy, delete and
// cancel-delete; each prints the key as JSON, its state and destroy times included.
func newLifecycleCommands(conn *connection) []*cobra.Command {
	disable := adminCommand(conn, "disable KEY", "Make a key refuse every call until keys enable (its versions and policy stay)", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.DisableKey(cmd.Context(), args[0])
		})
	enable := adminCommand(conn, "enable KEY", "Serve a disabled key again", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.EnableKey(cmd.Context(), args[0])
		})
	var destroyList, cancelList string
	var destroyVersions, cancelVersions []int32
	var destroyWindow, deleteWindow time.Duration
	destroy := adminCommand(conn, "destroy KEY --versions 1,2", "Schedule versions for destruction: they refuse every call at once, and their bytes are erased after --pending-window", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.ScheduleKeyVersionDestruction(cmd.Context(), args[0], destroyVersions, destroyWindow)
		})
	destroy.PreRunE = versionsFlag(&destroyList, &destroyVersions)
	destroy.Flags().StringVar(&destroyList, "versions", "", "versions to destroy, e.g. 1,2 (never the current one)")
	destroy.Flags().DurationVar(&destroyWindow, "pending-window", defaultPendingWindow, "how long until the bytes are erased (at least 24h); keys cancel-destroy undoes it until then")
	cancelDestroy := adminCommand(conn, "cancel-destroy KEY --versions 1,2", "Restore versions scheduled for destruction whose pending window has not passed", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.CancelKeyVersionDestruction(cmd.Context(), args[0], cancelVersions)
		})
	cancelDestroy.PreRunE = versionsFlag(&cancelList, &cancelVersions)
	cancelDestroy.Flags().StringVar(&cancelList, "versions", "", "versions to restore, e.g. 1,2")
	del := adminCommand(conn, "delete KEY", "Schedule a key's deletion: it refuses every call at once, every version is destroyed after --pending-window, and its name stays as a tombstone", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.ScheduleKeyDeletion(cmd.Context(), args[0], deleteWindow)
		})
	del.Flags().DurationVar(&deleteWindow, "pending-window", defaultPendingWindow, "how long until every version is destroyed (at least 24h); keys cancel-delete undoes it until then")
	cancelDelete := adminCommand(conn, "cancel-delete KEY", "Restore a key scheduled for deletion; it comes back disabled (keys enable serves it again)", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.CancelKeyDeletion(cmd.Context(), args[0])
		})
	return []*cobra.Command{disable, enable, destroy, cancelDestroy, del, cancelDelete}
}

// versionsFlag parses --versions before the command connects, so a typo costs no call.
func versionsFlag(list *string, versions *[]int32) func(*cobra.Command, []string) error {
	return func(*cobra.Command, []string) error {
		var err error
		*versions, err = parseVersions(*list)
		return err
	}
}

// parseVersions reads "1,2" into versions, each a positive number; it needs at least one.
func parseVersions(list string) ([]int32, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("--versions is required, e.g. --versions 1,2")
	}
	var versions []int32
	for _, field := range strings.Split(list, ",") {
		v, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(field), "v"), 10, 32)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("--versions: %q is not a version number", field)
		}
		versions = append(versions, int32(v))
	}
	return versions, nil
}

// joinVersions prints versions as v1, v2.
func joinVersions(versions []int32) string {
	names := make([]string, len(versions))
	for i, v := range versions {
		names[i] = "v" + strconv.Itoa(int(v))
	}
	return strings.Join(names, ", ")
}
