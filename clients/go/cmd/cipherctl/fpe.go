package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// fpeChunk is how many lines one format-preserving batch call carries.
const fpeChunk = 1000

// fpeLineFlags are the flags every fpe command shares.
type fpeLineFlags struct {
	in, context string
	keyVersion  int32
}

func newFPECommand(conn *connection) *cobra.Command {
	fpe := &cobra.Command{
		Use:   "fpe",
		Short: "Encrypt, decrypt, rewrap and mask values that keep their format, with a format-preserving (ff1) key",
		Long: `fpe works on values of a format-preserving key's format, one per line (stdin or --in FILE).

FF1 values carry no header, so every answer is a line VALUE<TAB>KEY_VERSION: store the version
beside the value. decrypt, rewrap and mask read such lines back (or take values as arguments with
--key-version); a value decrypted with the wrong version or context gives a wrong value of the
right shape, never an error. Plaintexts are read from stdin or a file, never from arguments.

A line that fails leaves an empty line in the output, so lines stay aligned with the input, and
its reason on stderr; cipherctl then exits 2. rewrap goes through one stream, and with --out FILE
is resumable as cipherctl rewrap is.`,
	}
	fpe.AddCommand(
		fpeCommand(conn, "encrypt KEY", "Encrypt each line of stdin (or --in FILE) and print VALUE<TAB>KEY_VERSION", false, encryptLines),
		fpeCommand(conn, "decrypt KEY [VALUE...]", "Decrypt each VALUE<TAB>KEY_VERSION line (or VALUE argument with --key-version) and print PLAINTEXT<TAB>KEY_VERSION", true, decryptLines),
		newFPERewrapCommand(conn),
		fpeCommand(conn, "mask KEY [VALUE...]", "Print each value's display mask (e.g. •••• •••• •••• 4242) and KEY_VERSION, never its plaintext", true, maskLines))
	return fpe
}

// fpeLines runs one chunk of lines: it returns one output line per input ("" for a failed one,
// whose error is in errs at the same index).
type fpeLines func(ctx context.Context, c *cipherd.Client, key string, lines []fpeLine, context []byte) (out []string, errs []error, err error)

// fpeLine is one input value: its text, and for ciphertexts its version.
type fpeLine struct {
	number  int
	value   string
	version int32
}

func fpeCommand(conn *connection, use, short string, ciphertexts bool, run fpeLines) *cobra.Command {
	var f fpeLineFlags
	cmd := &cobra.Command{Use: use, Short: short, Args: cobra.MinimumNArgs(1)}
	if !ciphertexts {
		cmd.Args = cobra.ExactArgs(1)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !ciphertexts && f.keyVersion != -1 {
			return errors.New("encrypt uses the key's current version: --key-version is for decrypt, rewrap and mask")
		}
		source, err := f.source(cmd, args[1:])
		if err != nil {
			return err
		}
		return withClient(cmd, conn, func(c *cipherd.Client) error {
			return f.process(cmd, c, args[0], source, ciphertexts, run)
		})
	}
	cmd.Flags().StringVar(&f.in, "in", "", "file of values, one per line, instead of stdin")
	cmd.Flags().StringVar(&f.context, "context", "", "where the values live (e.g. users.card_number): hashed into FF1's tweak, needed again to decrypt")
	cmd.Flags().Int32Var(&f.keyVersion, "key-version", -1, "the version of values given without one (as arguments, or lines without a tab); 0 for a key whose values carry a version prefix")
	return cmd
}

// source is the values' lines: the arguments, else --in, else stdin.
func (f *fpeLineFlags) source(cmd *cobra.Command, values []string) (io.Reader, error) {
	switch {
	case len(values) > 0 && f.in != "":
		return nil, errors.New("give values as arguments or with --in, not both")
	case len(values) > 0:
		return strings.NewReader(strings.Join(values, "\n") + "\n"), nil
	case f.in != "" && f.in != "-":
		return os.Open(f.in)
	}
	return cmd.InOrStdin(), nil
}

// process reads source a chunk of lines at a time and writes one output line per input line.
func (f *fpeLineFlags) process(cmd *cobra.Command, c *cipherd.Client, key string, source io.Reader, ciphertexts bool, run fpeLines) error {
	if closer, ok := source.(io.Closer); ok {
		defer closer.Close()
	}
	scanner := bufio.NewScanner(source)
	scanner.Buffer(make([]byte, 64*1024), 1024*1024)
	out := bufio.NewWriter(cmd.OutOrStdout())
	defer out.Flush()
	failed := 0
	var chunk []fpeLine
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		lines, errs, err := run(cmd.Context(), c, key, chunk, []byte(f.context))
		if err != nil {
			return fmt.Errorf("lines %d to %d: %w", chunk[0].number, chunk[len(chunk)-1].number, err)
		}
		for i, line := range lines {
			if errs[i] != nil {
				failed++
				fmt.Fprintf(cmd.ErrOrStderr(), "line %d: %v\n", chunk[i].number, errs[i])
			}
			fmt.Fprintln(out, line)
		}
		chunk = chunk[:0]
		return nil
	}
	for number := 1; scanner.Scan(); number++ {
		line := fpeLine{number: number, value: strings.TrimSuffix(scanner.Text(), "\r")}
		if ciphertexts {
			if err := f.readVersion(&line); err != nil {
				return err
			}
		}
		if chunk = append(chunk, line); len(chunk) == fpeChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := scanner.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	if failed > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d values failed\n", failed)
		return errSomeFailed
	}
	return nil
}

// readVersion splits a "VALUE<TAB>VERSION" line, or gives a bare value --key-version's version.
// A value with no version at all is refused before anything is sent: the server cannot tell a
// wrong version from a right one.
func (f *fpeLineFlags) readVersion(line *fpeLine) error {
	value, version, tabbed := strings.Cut(line.value, "\t")
	if !tabbed {
		if f.keyVersion < 0 {
			return fmt.Errorf("line %d has no key version: give VALUE<TAB>KEY_VERSION lines, as fpe encrypt prints them, or --key-version (0 for a key whose values carry a version prefix)", line.number)
		}
		line.version = f.keyVersion
		return nil
	}
	n, err := strconv.ParseInt(version, 10, 32)
	if err != nil || n < 0 {
		return fmt.Errorf("line %d: the key version after the tab is not a number", line.number)
	}
	line.value, line.version = value, int32(n)
	return nil
}

func encryptLines(ctx context.Context, c *cipherd.Client, key string, lines []fpeLine, context []byte) ([]string, []error, error) {
	items := make([]cipherd.FormattedPlainItem, len(lines))
	for i, l := range lines {
		items[i] = cipherd.FormattedPlainItem{Reference: strconv.Itoa(l.number), Value: l.value}
	}
	results, err := c.EncryptFormattedBatch(ctx, key, items, cipherd.WithValueContext(context))
	return formattedLines(results, err, func(r cipherd.FormattedResult) string { return versioned(r.Value) })
}

func decryptLines(ctx context.Context, c *cipherd.Client, key string, lines []fpeLine, context []byte) ([]string, []error, error) {
	results, err := c.DecryptFormattedBatch(ctx, key, ciphertextItems(lines), cipherd.WithValueContext(context))
	return formattedLines(results, err, func(r cipherd.FormattedResult) string { return versioned(r.Value) })
}

// maskLines masks one value per call: there is no mask batch.
func maskLines(ctx context.Context, c *cipherd.Client, key string, lines []fpeLine, context []byte) ([]string, []error, error) {
	out, errs := make([]string, len(lines)), make([]error, len(lines))
	for i, l := range lines {
		ct := cipherd.FormattedValue{Value: l.value, KeyVersion: l.version}
		masked, err := c.MaskFormatted(ctx, key, ct, cipherd.WithValueContext(context))
		if err != nil && !isItemError(err) {
			return nil, nil, err
		}
		out[i], errs[i] = masked, err
		if err == nil {
			out[i] = masked + "\t" + strconv.Itoa(int(l.version))
		}
	}
	return out, errs, nil
}

// isItemError reports whether a unary call's error concerns its value (a shape, a version), not the
// connection or the caller's rights, so that the other lines may go on.
func isItemError(err error) bool {
	return errors.Is(err, cipherd.ErrInvalidArgument) || errors.Is(err, cipherd.ErrNotFound) || errors.Is(err, cipherd.ErrFailedPrecondition)
}

func ciphertextItems(lines []fpeLine) []cipherd.FormattedItem {
	items := make([]cipherd.FormattedItem, len(lines))
	for i, l := range lines {
		items[i] = cipherd.FormattedItem{Reference: strconv.Itoa(l.number), Ciphertext: cipherd.FormattedValue{Value: l.value, KeyVersion: l.version}}
	}
	return items
}

// versioned is the output line of a value: VALUE<TAB>KEY_VERSION.
func versioned(v cipherd.FormattedValue) string {
	return v.Value + "\t" + strconv.Itoa(int(v.KeyVersion))
}

func formattedLines(results []cipherd.FormattedResult, err error, line func(cipherd.FormattedResult) string) ([]string, []error, error) {
	if err != nil {
		return nil, nil, err
	}
	out, errs := make([]string, len(results)), make([]error, len(results))
	for i, r := range results {
		if errs[i] = r.Err; r.Err == nil {
			out[i] = line(r)
		}
	}
	return out, errs, nil
}
