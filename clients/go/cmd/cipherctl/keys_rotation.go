package main

import (
	"fmt"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/spf13/cobra"
)

// rotationFlags are the automatic-rotation settings of a policy, for keys create and keys policy.
type rotationFlags struct {
	every          time.Duration
	maxEncryptions int64
}

func (r *rotationFlags) register(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&r.every, "rotate-every", 0, "rotate by itself once the current version is this old, e.g. 720h (whole seconds, at least 1m; 0: never by age)")
	cmd.Flags().Int64Var(&r.maxEncryptions, "max-encryptions", 0, "rotate by itself once the current version has encrypted this many messages (0: the mode's default, 2^30 for gcm and chacha)")
}

// set reports whether either flag was given.
func (r *rotationFlags) set(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("rotate-every") || cmd.Flags().Changed("max-encryptions")
}

// apply puts the settings into p; the server checks the rest (whole seconds, at least a minute).
func (r *rotationFlags) apply(p *cipherd.KeyPolicy) error {
	if r.every < 0 || r.maxEncryptions < 0 {
		return fmt.Errorf("--rotate-every and --max-encryptions must not be negative")
	}
	p.AutoRotatePeriod = r.every
	p.MaxEncryptionsPerVersion = r.maxEncryptions
	return nil
}
