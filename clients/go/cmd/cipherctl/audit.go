package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/audit"
)

func newAuditCommand(conn *connection) *cobra.Command {
	auditCmd := &cobra.Command{Use: "audit", Short: "Check the server's audit trail"}
	var offline bool
	var headFile string
	verify := &cobra.Command{
		Use:   "verify FILE...",
		Short: "Prove an audit trail intact, or name its first altered, removed or reordered record",
		Long: `verify checks the audit files as one chain, oldest first: each line's prev is the SHA-256 of
the line before it and seqs run on by one across files (docs/audit.md). Give the files in rotation
order, or the live file alone: its rotated siblings (FILE.yyyyMMddTHHmmss.SSSZ) are found and put
before it. It then asks the server (the usual connection flags) whether each checkpoint's MAC is its
audit key's, which a chain rewritten without the key fails. Before reading the files it asks the
server for the trail's head, anchored in its key store: the files must start at genesis or at the
anchored first line, reach the anchored checkpoint, hold every rotated file it lists, and carry no
cut the server recorded at a restart. --offline skips the server: the chain is checked, the MACs are
not, and completeness only against --head FILE (the head as protojson). Exits 1 when the trail is
not intact.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := verifiedTrail(cmd, conn, args, offline, headFile)
			return err
		},
	}
	verify.Flags().BoolVar(&offline, "offline", false, "check the chain without a server; checkpoint MACs stay unchecked")
	verify.Flags().StringVar(&headFile, "head", "", "with --offline: the trail's head (AuditHead as protojson) to check completeness against")
	auditCmd.AddCommand(verify)
	return auditCmd
}

// verifiedTrail checks the audit files of args as audit verify does (the server checks the
// checkpoints' MACs and gives the head, unless offline), prints what was checked, and returns the
// files as read, or an error when the trail is not intact.
func verifiedTrail(cmd *cobra.Command, conn *connection, args []string, offline bool, headFile string) ([]audit.File, error) {
	paths, err := auditFiles(args)
	if err != nil {
		return nil, err
	}
	out := cmd.OutOrStdout()
	if offline {
		head, err := readHead(headFile)
		if err != nil {
			return nil, err
		}
		files, err := readAuditFiles(out, paths)
		if err != nil {
			return nil, err
		}
		return files, verifyAudit(out, files, nil, 0, head, offlineHead(headFile))
	}
	if headFile != "" {
		return nil, fmt.Errorf("--head is for --offline: online, the server gives the head")
	}
	var files []audit.File
	err = withClient(cmd, conn, func(c *cipherd.Client) error {
		trail, err := audit.TrailName(paths)
		if err != nil {
			return err
		}
		// The head first: it is anchored only after its line is durable, so the files read
		// afterwards reach it unless lines were removed.
		head, err := c.AuditHead(cmd.Context(), trail)
		if err != nil {
			return fmt.Errorf("asking the server for the trail's head (--offline checks the chain alone): %w", err)
		}
		noHead := fmt.Sprintf("the server holds no head for trail %q", trail)
		if head != nil && head.Trail != trail {
			// The files name no trail, and the server's own is another one.
			noHead = fmt.Sprintf("the files' start lines name no trail; the server's own is %q", head.Trail)
			head = nil
		}
		if files, err = readAuditFiles(out, paths); err != nil {
			return err
		}
		check, err := c.AuditCheckpointCheck(cmd.Context(), files)
		if err != nil {
			return fmt.Errorf("asking the server to check the checkpoints (--offline checks the chain alone): %w", err)
		}
		return verifyAudit(out, files, check, len(audit.Checkpoints(files)), head, noHead)
	})
	return files, err
}

// readAuditFiles reads the files once: the server's answers and the chain check then see the same
// bytes, however the live file grows meanwhile (asking the server is itself an audited call).
func readAuditFiles(out io.Writer, paths []string) ([]audit.File, error) {
	files, err := audit.ReadFiles(paths)
	if err != nil {
		return nil, err
	}
	if cutLineBeingWritten(files) {
		fmt.Fprintln(out, "the live file's last line was still being written: it is left out")
	}
	return files, nil
}

// readHead reads an AuditHead written as protojson; nil for no file.
func readHead(path string) (*audit.Head, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	head, err := audit.ParseHead(data)
	if err != nil {
		return nil, fmt.Errorf("--head %s is %w", path, err)
	}
	return head, nil
}

func offlineHead(headFile string) string {
	if headFile == "" {
		return "--offline without --head"
	}
	return ""
}

// rotatedSuffix is what the server appends to a rotated audit file's name: its rotation time.
var rotatedSuffix = regexp.MustCompile(`\.\d{8}T\d{6}\.\d{3}Z$`)

// auditFiles is the files to verify, oldest first: the arguments as given, or for a single live
// file its rotated siblings, in time order (their names sort so), and then itself.
func auditFiles(args []string) ([]string, error) {
	if len(args) > 1 || rotatedSuffix.MatchString(args[0]) {
		return args, nil
	}
	if _, err := os.Stat(args[0]); err != nil {
		return nil, err
	}
	siblings, err := filepath.Glob(globEscape(args[0]) + ".*")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, s := range siblings {
		if rotatedSuffix.MatchString(s) && rotatedSuffix.ReplaceAllString(s, "") == args[0] {
			files = append(files, s)
		}
	}
	sort.Strings(files)
	return append(files, args[0]), nil
}

// globEscape quotes the glob metacharacters of a path.
func globEscape(path string) string {
	return regexp.MustCompile(`[*?\[\\]`).ReplaceAllString(path, `\$0`)
}

// cutLineBeingWritten drops a partial line at the end of the last (live) file, which a running
// server may be writing; it reports whether there was one. Earlier files were closed whole.
func cutLineBeingWritten(files []audit.File) bool {
	live := &files[len(files)-1]
	end := bytes.LastIndexByte(live.Data, '\n') + 1
	if end == len(live.Data) {
		return false
	}
	live.Data = live.Data[:end]
	return true
}

// verifyAudit verifies files, prints what was checked, and fails when the trail is not intact;
// noHead says why there is no head when head is nil.
func verifyAudit(out io.Writer, files []audit.File, check audit.CheckpointCheck, asked int, head *audit.Head, noHead string) error {
	headSource := "the head"
	if check != nil && head != nil {
		headSource = fmt.Sprintf("the server's head of trail %q", head.Trail)
	}
	v := audit.VerifyFiles(files, check, head)
	if check == nil {
		fmt.Fprintln(out, "checkpoint MACs: not checked (--offline): a chain rewritten without the audit key would pass")
	} else {
		fmt.Fprintf(out, "checkpoint MACs: %d checked by the server\n", asked)
	}
	if head == nil {
		fmt.Fprintf(out, "completeness: NOT CHECKED (%s): lines cut from the trail's start or end would pass\n", noHead)
	} else {
		fmt.Fprintf(out, "completeness: checked against %s (seqs %d to %d, files listed: %d)\n", headSource, head.FirstSeq, head.Seq, len(head.Files))
	}
	if !v.Intact() {
		return fmt.Errorf("audit trail NOT intact: %s", v.Problem)
	}
	fmt.Fprintf(out, "files: %d, call records: %d, checkpoints: %d", len(files), v.Calls, v.Checkpoints)
	if v.Torn > 0 {
		fmt.Fprintf(out, ", torn lines (a crash mid-write, chained over): %d", v.Torn)
	}
	fmt.Fprintln(out)
	if v.UncheckedCalls > 0 {
		fmt.Fprintf(out, "the last %d call records follow the last checkpoint: no MAC covers them yet\n", v.UncheckedCalls)
	}
	if head == nil {
		_, err := fmt.Fprintln(out, "intact as far as the chain goes")
		return err
	}
	_, err := fmt.Fprintln(out, "intact")
	return err
}
