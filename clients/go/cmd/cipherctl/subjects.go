package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func newSubjectsCommand(conn *connection) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "subjects",
		Short: "Erase data subjects (crypto-shredding one person's data) and show their state",
		Long: `A data subject is the person (or other entity) a value was encrypted for with a subject
(cipherd.WithSubject, subject= in the other clients). Erasing it makes every ciphertext of that
subject under KEY undecryptable, everyone else's data untouched. These commands need the erase
operation on KEY, which admin does not imply. Subject ids are personal data: cipherctl never
prints them, and its files name an id by its line in the input.`,
	}
	cmd.AddCommand(newSubjectsEraseCommand(conn), newSubjectsShowCommand(conn), newVerifyReceiptCommand(conn))
	return cmd
}

func newSubjectsShowCommand(conn *connection) *cobra.Command {
	return &cobra.Command{
		Use:   "show KEY SUBJECT",
		Short: "Print a subject's state under KEY: active, erased or no_key (SUBJECT - reads it from stdin's first line)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			subject := args[1]
			if subject == "-" {
				line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
				if err != nil && !errors.Is(err, io.EOF) {
					return err
				}
				subject = strings.TrimRight(line, "\r\n")
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				st, err := c.GetSubject(cmd.Context(), args[0], subject)
				if err != nil {
					return err
				}
				return printSubjectStatus(cmd.OutOrStdout(), st)
			})
		},
	}
}

func printSubjectStatus(out io.Writer, st *cipherd.SubjectStatus) error {
	var b strings.Builder
	fmt.Fprintf(&b, "state: %s\n", st.State)
	if !st.CreateTime.IsZero() {
		fmt.Fprintf(&b, "created: %s\n", st.CreateTime.UTC().Format(time.RFC3339Nano))
	}
	if !st.EraseTime.IsZero() {
		fmt.Fprintf(&b, "erased: %s\n", st.EraseTime.UTC().Format(time.RFC3339Nano))
	}
	if st.State == cipherd.SubjectActive {
		fmt.Fprintf(&b, "key_version: %d\n", st.KeyVersion)
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// eraseJob erases the subjects listed in one file, one id a line, in batches, resumably.
type eraseJob struct {
	key, from, receiptsPath, failuresPath, checkpointPath string
	batch                                                 int
	force                                                 bool
}

func newSubjectsEraseCommand(conn *connection) *cobra.Command {
	job := &eraseJob{}
	cmd := &cobra.Command{
		Use:   "erase KEY --from-file IDS [--receipts FILE] [--failures FILE] [--checkpoint FILE] [--batch-size N]",
		Short: "Erase every subject listed in IDS (one id a line) under KEY, in batches (resumable)",
		Long: `erase reads subject ids from IDS, one a line (a trailing \r is dropped; blank lines are
skipped and counted), and erases them under KEY through EraseSubjects, --batch-size ids a call.
Each id gets one JSON line in the receipts file (--receipts, default stdout): its line in IDS, the
outcome (erased, already_erased, no_key), the erase time and, for erased, the receipt that
'cipherd' wrote to its audit trail (trail, audit_seq, record_hash, subject_hash: the audit key's
hash of the id, never the id). An id that fails is listed in the failures file instead (its line,
kind, the server's reason and message) and counted by kind in the summary. No file or message of
cipherctl holds an id.

After an interruption, the same command resumes from the checkpoint file. Erasing is idempotent:
the ids of the batch that was under way are sent again and answer already_erased, so such an id
can have two lines in the receipts file (its receipt first). Exit status: 0 all done, 2 some ids
failed, 1 or 3 the run stopped (resume to go on).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			job.key = args[0]
			return withClient(cmd, conn, func(c *cipherd.Client) error { return job.run(cmd, c) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&job.from, "from-file", "", "file of subject ids, one a line")
	f.StringVar(&job.receiptsPath, "receipts", "-", "file the outcomes and receipts are appended to as JSON lines; - for stdout")
	f.StringVar(&job.failuresPath, "failures", "", "file listing the failed ids' lines and reasons, JSONL (default: IDS.failures.jsonl)")
	f.StringVar(&job.checkpointPath, "checkpoint", "", "checkpoint file (default: IDS.checkpoint)")
	f.IntVar(&job.batch, "batch-size", 1000, "ids per EraseSubjects call (1 to 1000)")
	f.BoolVar(&job.force, "force", false, "overwrite a receipts or failures file that has no checkpoint")
	cmd.MarkFlagRequired("from-file")
	return cmd
}
