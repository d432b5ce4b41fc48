package main

import (
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// newBackupCommand is keys backup: a key whole, wrapped for a recipient public key, in a file only
// the recipient's private key opens.
func newBackupCommand(conn *connection) *cobra.Command {
	var to, recipientFile string
	var force bool
	cmd := &cobra.Command{Use: "backup KEY --to FILE --recipient PUB.pem", Short: "Back up an exportable key (every version, state and policy) wrapped for a recipient public key, to a file",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			recipientPEM, fingerprint, err := readRecipient(recipientFile)
			if err != nil {
				return err
			}
			if !force {
				if _, err := os.Lstat(to); err == nil {
					return fmt.Errorf("%s exists: a backup never overwrites a file unless --force", to)
				}
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				backup, err := c.BackupKey(cmd.Context(), args[0], recipientPEM)
				if err != nil {
					return err
				}
				// The file must open with the recipient asked for, not another key the server chose.
				var header cipherdpb.KeyBackupFile
				if err := proto.Unmarshal(backup.File, &header); err != nil || string(header.GetRecipientKeySha256()) != string(fingerprint[:]) {
					return errors.New("the server's backup is not made for the recipient given: nothing written")
				}
				if err := writeNewFileAtomically(to, backup.File, force); err != nil {
					return err
				}
				destroyed := 0
				for _, v := range backup.Key.Versions {
					if v.State == cipherd.VersionDestroyed {
						destroyed++
					}
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "backed up %s (%d versions, %d of them destroyed and written without material) to %s for recipient sha256:%x\n",
					backup.Key.KeyName, len(backup.Key.Versions), destroyed, to, fingerprint)
				return err
			})
		}}
	cmd.Long = `backup writes KEY whole (every version's material, state and destruction schedule, its policy
and state) to FILE (mode 0600), wrapped for PUB.pem: an RSA-3072 or RSA-4096 public key (openssl genpkey
-algorithm RSA -pkeyopt rsa_keygen_bits:3072, then openssl pkey -pubout) whose private key stays offline.
Only a key created with keys create --exportable, or marked with keys set-exportable, can be backed up, and the
caller needs the export operation. keys restore puts the backup into a server (this one or another).`
	cmd.Flags().StringVar(&to, "to", "", "the backup file to write (mode 0600)")
	cmd.Flags().StringVar(&recipientFile, "recipient", "", "the recipient's RSA public key (PEM PUBLIC KEY, 3072 or 4096 bits)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite FILE if it exists")
	cmd.MarkFlagRequired("to")
	cmd.MarkFlagRequired("recipient")
	return cmd
}

// readRecipient reads a recipient public key file: its PEM, and the SHA-256 of its
// SubjectPublicKeyInfo, which the backup file's header names.
func readRecipient(path string) (string, [32]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", [32]byte{}, fmt.Errorf("reading the recipient key: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PUBLIC KEY" {
		return "", [32]byte{}, fmt.Errorf("%s is not a PEM PUBLIC KEY (openssl pkey -in PRIV.pem -pubout makes one)", path)
	}
	parsed, err := x509.ParsePKIXPublicKey(block.Bytes)
	if public, ok := parsed.(*rsa.PublicKey); err != nil || !ok || (public.N.BitLen() != 3072 && public.N.BitLen() != 4096) {
		return "", [32]byte{}, fmt.Errorf("%s is not an RSA-3072 or RSA-4096 public key", path)
	}
	return string(data), sha256.Sum256(block.Bytes), nil
}

// writeNewFileAtomically writes data (mode 0600) to a temporary file beside path and moves it into
// place whole; without overwrite it links it in, which fails, leaving path alone, if path exists.
func writeNewFileAtomically(path string, data []byte, overwrite bool) error {
	if overwrite {
		return writeFileAtomically(path, data)
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*") // mode 0600
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists: a backup never overwrites a file unless --force", path)
		}
		return err
	}
	return nil
}

// newRestoreCommand is keys restore: a backup file opened here with the recipient's private key and
// sent to the server wrapped for one of its import jobs.
func newRestoreCommand(conn *connection) *cobra.Command {
	var from, identity, into string
	var asJSON bool
	cmd := &cobra.Command{Use: "restore --from FILE --identity PRIV.pem", Short: "Restore a key from a backup file into a server (--into-address), keeping its versions, states and policy",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			file, err := os.ReadFile(from)
			if err != nil {
				return fmt.Errorf("reading the backup: %w", err)
			}
			identityPEM, err := os.ReadFile(identity)
			if err != nil {
				return fmt.Errorf("reading the identity: %w", err)
			}
			defer clear(identityPEM)
			// Opened before connecting, so a wrong identity or a tampered file costs no call.
			opened, err := cipherd.OpenKeyBackup(file, identityPEM)
			if err != nil {
				return err
			}
			opened.Wipe()
			target := *conn
			if into != "" {
				target.addr = into
			}
			return withClient(cmd, &target, func(c *cipherd.Client) error {
				key, err := c.RestoreKeyBackup(cmd.Context(), file, identityPEM)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), keyMessage(key))
				}
				return printRestored(cmd.OutOrStdout(), key)
			})
		}}
	cmd.Long = `restore opens FILE (made by keys backup) with the recipient's private key PRIV.pem, checks that it
was made for that key and not tampered with, and creates the key in the server at --into-address (default --addr)
through one of its import jobs, so the material never crosses the wire in the clear. The key keeps its name,
version numbers, version states, destruction schedules, policy and exportable flag; a key of that name that
exists already is never overwritten. It prints the key restored: its versions and their states, never material.
The caller needs the import operation.`
	cmd.Flags().StringVar(&from, "from", "", "the backup file")
	cmd.Flags().StringVar(&identity, "identity", "", "the recipient's RSA private key (PEM)")
	cmd.Flags().StringVar(&into, "into-address", "", "the server (host:port) to restore into (default: --addr)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the restored key as JSON (as keys show)")
	cmd.MarkFlagRequired("from")
	cmd.MarkFlagRequired("identity")
	return cmd
}

// printRestored prints the key's name, state and each version's mode, state and destroy time.
func printRestored(out io.Writer, k *cipherd.Key) error {
	exportable := ""
	if k.Exportable {
		exportable = ", exportable"
	}
	fmt.Fprintf(out, "restored %s: %d versions, v%d current, key %s%s\n", k.KeyName, len(k.Versions), k.CurrentVersion, k.State, exportable)
	w := table(out, "VERSION", "MODE", "STATE", "DESTROY TIME")
	for _, v := range k.Versions {
		mode := v.Mode.String()
		if mode == "" {
			mode = "legacy"
		}
		destroy := "-"
		if !v.DestroyTime.IsZero() {
			destroy = v.DestroyTime.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(w, "v%d\t%s\t%s\t%s\n", v.Version, mode, v.State, destroy)
	}
	return w.Flush()
}

// newSetExportableCommand is keys set-exportable: a key marked exportable, for good.
func newSetExportableCommand(conn *connection) *cobra.Command {
	return adminCommand(conn, "set-exportable KEY", "Mark a key exportable, for good (keys backup may then write it out; the flag is never cleared)", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			return c.SetKeyExportable(cmd.Context(), args[0])
		})
}
