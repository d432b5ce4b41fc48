// Command cipherctl encrypts, decrypts, inspects and rewraps ciphertexts and files, computes blind
// indexes, encrypts, decrypts, rewraps and masks format-preserving values, makes data keys and
// administers keys of a cipherd server, and counts the ciphertexts of
// stored data per key version (scan, no server needed). Plaintexts and key material are read from stdin or a file, never from arguments.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// errSomeFailed makes cipherctl exit 2: the command ran, but some records failed.
// (Exit 3: the server was unavailable or too slow; exit 4: scan --below found old ciphertexts.)
var errSomeFailed = errors.New("some records failed")

func main() {
	// Ctrl-C cancels the running call; rewrap saves its checkpoint before it exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCommand().ExecuteContext(ctx)
	stop()
	if err != nil {
		if !errors.Is(err, errSomeFailed) && !errors.Is(err, errBelowFound) {
			fmt.Fprintln(os.Stderr, "cipherctl:", err)
		}
		os.Exit(exitCode(err))
	}
}

func exitCode(err error) int {
	switch {
	case errors.Is(err, errSomeFailed):
		return 2
	case errors.Is(err, cipherd.ErrUnavailable), errors.Is(err, cipherd.ErrDeadlineExceeded):
		return 3
	case errors.Is(err, errBelowFound):
		return 4
	default:
		return 1
	}
}

func newRootCommand() *cobra.Command {
	conn := &connection{}
	root := &cobra.Command{
		Use:           "cipherctl",
		Short:         "Use a cipherd server from the command line",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	conn.register(root)
	root.AddCommand(newEncryptCommand(conn), newDecryptCommand(conn), newInspectCommand(conn),
		newKeysCommand(conn), newRewrapCommand(conn), newIndexCommand(conn), newDataKeyCommand(conn),
		newEncryptFileCommand(conn), newDecryptFileCommand(conn), newRewrapFileCommand(conn), newAuditCommand(conn),
		newSubjectsCommand(conn), newFPECommand(conn), newScanCommand(), newImportSourcesCommand(conn))
	return root
}
