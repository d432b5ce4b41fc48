package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// readInput reads a whole file, or stdin for "" or "-": where secrets come from, never argv.
func readInput(cmd *cobra.Command, path string) ([]byte, error) {
	if path == "" || path == "-" {
		return io.ReadAll(cmd.InOrStdin())
	}
	return os.ReadFile(path)
}

// withClient connects, runs fn and closes the connection.
func withClient(cmd *cobra.Command, conn *connection, fn func(*cipherd.Client) error) error {
	c, err := conn.dial(cmd.Context())
	if err != nil {
		return err
	}
	defer c.Close()
	return fn(c)
}

func newEncryptCommand(conn *connection) *cobra.Command {
	var in, aad, subjectFile string
	cmd := &cobra.Command{
		Use:   "encrypt KEY",
		Short: "Encrypt stdin (or --in FILE) with KEY and print the ciphertext",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			plaintext, err := readInput(cmd, in)
			if err != nil {
				return err
			}
			opts := []cipherd.CallOption{cipherd.WithAAD([]byte(aad))}
			if subjectFile != "" {
				subject, err := readSubjectFile(subjectFile)
				if err != nil {
					return err
				}
				opts = append(opts, cipherd.WithSubject(subject))
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				ct, err := c.Encrypt(cmd.Context(), args[0], plaintext, opts...)
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), ct)
				return err
			})
		},
	}
	cmd.Flags().StringVar(&in, "in", "", "file to encrypt instead of stdin")
	cmd.Flags().StringVar(&aad, "context", "", "associated data (AEAD modes); decrypting needs the same")
	cmd.Flags().StringVar(&subjectFile, "subject-file", "", "seal under the key of the data subject whose id is this file's one line (a file, so the id is not in the process list)")
	return cmd
}

// readSubjectFile reads a subject id from the first line of path; its error never quotes the id.
func readSubjectFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	subject, _, _ := strings.Cut(string(data), "\n")
	if subject = strings.TrimSuffix(subject, "\r"); subject == "" {
		return "", fmt.Errorf("--subject-file %s: its first line is empty", path)
	}
	return subject, nil
}

func newDecryptCommand(conn *connection) *cobra.Command {
	var in, aad, expectedKey string
	cmd := &cobra.Command{
		Use:   "decrypt",
		Short: "Decrypt the ciphertext on stdin (or in --in FILE) and write the plaintext to stdout",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := readInput(cmd, in)
			if err != nil {
				return err
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				plaintext, err := c.Decrypt(cmd.Context(), string(bytes.TrimSpace(text)), cipherd.WithAAD([]byte(aad)),
					cipherd.WithExpectedKey(expectedKey))
				if at, erased := cipherd.ErasedAt(err); erased {
					return fmt.Errorf("the ciphertext's data subject was erased at %s: it can never be decrypted again: %w", at.UTC().Format(time.RFC3339), err)
				}
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(plaintext)
				return err
			})
		},
	}
	cmd.Flags().StringVar(&in, "in", "", "file holding the ciphertext instead of stdin")
	cmd.Flags().StringVar(&aad, "context", "", "associated data given at encryption")
	cmd.Flags().StringVar(&expectedKey, "expected-key", "", "refuse a ciphertext under any key but this one (or a prefix ending in '*')")
	return cmd
}

func newInspectCommand(conn *connection) *cobra.Command {
	var local bool
	cmd := &cobra.Command{
		Use:   "inspect [CIPHERTEXT]",
		Short: "Show a ciphertext's key, version and mode (from stdin without an argument)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text := ""
			if len(args) == 1 {
				text = args[0]
			} else {
				raw, err := readInput(cmd, "")
				if err != nil {
					return err
				}
				text = string(bytes.TrimSpace(raw))
			}
			ct, err := cipherd.ParseCiphertext(text)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "key: %s\nversion: %d\nmode: %s\npayload_bytes: %d\n", ct.KeyName, ct.KeyVersion, cipherd.ModeName(ct.Mode), len(ct.Payload))
			if ct.SubjectBound {
				// Sealed under a data subject's key: the header names no version (version: 0).
				fmt.Fprintln(out, "subject_bound: true")
			}
			if local {
				return nil
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				info, err := c.Inspect(cmd.Context(), text)
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(out, "current_version: %d\nbehind_current: %t\n", info.CurrentVersion, info.BehindCurrent)
				return err
			})
		},
	}
	cmd.Flags().BoolVar(&local, "local", false, "only parse the header, without asking the server")
	return cmd
}
