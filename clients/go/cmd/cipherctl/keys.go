package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// keyFlags are the flags that create, rotate and import share.
type keyFlags struct {
	mode                 string
	sizeBits             int32
	allowUnauthenticated bool
}

func (k *keyFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&k.mode, "mode", "", "gcm, chacha, xgcm, siv, hmac (an index key), ff1 (a format-preserving key: see --fpe-template), cbc, ctr, cfb, ofb or ecb (default: gcm, or the current mode when rotating)")
	cmd.Flags().Int32Var(&k.sizeBits, "size", 0, "key size in bits: 128, 192 or 256 for AES modes; chacha, xgcm and hmac take 256, siv 512, ff1 128, 192 or 256 (default 256, 512 for siv)")
	cmd.Flags().BoolVar(&k.allowUnauthenticated, "allow-unauthenticated", false, "allow an unauthenticated mode")
}

func (k *keyFlags) parsedMode() (cipherd.Mode, error) {
	if k.mode == "" {
		return cipherd.ModeUnspecified, nil
	}
	if m, ok := cipherd.ParseMode(k.mode); ok {
		return m, nil
	}
	return 0, fmt.Errorf("unknown mode %q", k.mode)
}

// options are the flags as the client's key options: the mode, size and authentication of a new version.
func (k *keyFlags) options() ([]cipherd.KeyOption, error) {
	mode, err := k.parsedMode()
	if err != nil {
		return nil, err
	}
	opts := []cipherd.KeyOption{cipherd.WithKeyMode(mode), cipherd.WithKeySizeBits(k.sizeBits)}
	if k.allowUnauthenticated {
		opts = append(opts, cipherd.WithAllowUnauthenticated())
	}
	return opts, nil
}

// adminCommand runs call with a connected client and prints the key it returns as JSON.
func adminCommand(conn *connection, use, short string, args cobra.PositionalArgs,
	call func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error)) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: args, RunE: func(cmd *cobra.Command, args []string) error {
		return withClient(cmd, conn, func(c *cipherd.Client) error {
			key, err := call(cmd, c, args)
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), keyMessage(key))
		})
	}}
}

// printJSON prints a message as indented JSON. protojson varies its spacing on purpose; scripts
// get the stable spacing of encoding/json instead.
func printJSON(out io.Writer, m proto.Message) error {
	raw, err := protojson.Marshal(m)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err = buf.WriteTo(out)
	return err
}

func newKeysCommand(conn *connection) *cobra.Command {
	keys := &cobra.Command{Use: "keys", Short: "Create, list, show, rotate and import keys; set their policy; see which versions are in use; disable, retire, destroy and delete them; back them up and restore them"}
	var create keyFlags
	var createFormat fpeFlags
	var createRotation rotationFlags
	var createCancelOnUse, createExportable bool
	createCmd := adminCommand(conn, "create NAME", "Create a key with version 1", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			opts, err := create.options()
			if err != nil {
				return nil, err
			}
			format, err := createFormat.options(cmd)
			if err != nil {
				return nil, err
			}
			opts = append(opts, format...)
			if createExportable {
				opts = append(opts, cipherd.WithExportable())
			}
			if createRotation.set(cmd) || createCancelOnUse {
				policy := cipherd.KeyPolicy{CancelDestructionOnUse: createCancelOnUse}
				if err := createRotation.apply(&policy); err != nil {
					return nil, err
				}
				opts = append(opts, cipherd.WithKeyPolicy(policy))
			}
			return c.CreateKey(cmd.Context(), args[0], opts...)
		})
	create.register(createCmd)
	createFormat.register(createCmd)
	createRotation.register(createCmd)
	createCmd.Flags().BoolVar(&createCancelOnUse, "cancel-destruction-on-use", false, cancelDestructionOnUseHelp)
	createCmd.Flags().BoolVar(&createExportable, "exportable", false, "let keys backup write the key out (never cleared)")
	showCmd := adminCommand(conn, "show NAME", "Show a key's state, versions (with their usage, state and destroy time) and policy", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.GetKey(cmd.Context(), args[0])
		})
	showCmd.Aliases = []string{"get"}
	keys.AddCommand(createCmd, newListCommand(conn), showCmd, newRotateCommand(conn), newImportCommand(conn), newImportJobCommand(conn), newPolicyCommand(conn), newCensusCommand(conn), newRetireCommand(conn),
		newBackupCommand(conn), newRestoreCommand(conn), newSetExportableCommand(conn))
	keys.AddCommand(newLifecycleCommands(conn)...)
	return keys
}

func newPolicyCommand(conn *connection) *cobra.Command {
	var p cipherd.KeyPolicy
	var rotation rotationFlags
	cmd := adminCommand(conn, "policy NAME", "Replace a key's policy (flags not given are reset to their defaults)", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			if err := rotation.apply(&p); err != nil {
				return nil, err
			}
			return c.UpdateKeyPolicy(cmd.Context(), args[0], p)
		})
	rotation.register(cmd)
	cmd.Flags().Int32Var(&p.MinDecryptionVersion, "min-decryption-version", 0, "oldest version that may decrypt")
	cmd.Flags().Int32Var(&p.MinEncryptionVersion, "min-encryption-version", 0, "oldest version a caller may encrypt with")
	cmd.Flags().BoolVar(&p.AllowECBEncryption, "allow-ecb-encryption", false, "let ECB versions encrypt new data")
	cmd.Flags().BoolVar(&p.CancelDestructionOnUse, "cancel-destruction-on-use", false, cancelDestructionOnUseHelp)
	return cmd
}

const cancelDestructionOnUseHelp = "cancel a version's scheduled destruction when a call tries to use it (the call is still refused; a retry succeeds)"
