package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/audit"
)

func newVerifyReceiptCommand(conn *connection) *cobra.Command {
	var receiptsPath, headFile string
	var offline bool
	cmd := &cobra.Command{
		Use:   "verify-receipt --receipts FILE AUDITFILE...",
		Short: "Check erasure receipts against the audit trail: each names an intact, checkpointed record of its erasure",
		Long: `verify-receipt first checks the audit files as 'cipherctl audit verify' does (the same flags:
the server checks the checkpoints' MACs and gives the trail's head, unless --offline). Then, for every
receipt in --receipts (the JSON lines 'subjects erase' writes, or bare receipts as the clients return
them; lines without a receipt, already_erased or no_key, are skipped), it checks that the trail is the
receipt's, that its record audit_seq is in the files and hashes to record_hash (so the record is the
one the server answered with, unaltered), that the record names the receipt's key and subject hash,
and that a checkpoint after it covers it with the audit key's MAC. Exits 1 when the trail is not
intact or a receipt does not hold, naming the receipt's line.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			receipts, err := readReceipts(receiptsPath)
			if err != nil {
				return err
			}
			files, err := verifiedTrail(cmd, conn, args, offline, headFile)
			if err != nil {
				return err
			}
			return checkReceipts(cmd.OutOrStdout(), receipts, files)
		},
	}
	cmd.Flags().StringVar(&receiptsPath, "receipts", "", "file of receipts, one JSON object a line; - for stdin")
	cmd.Flags().BoolVar(&offline, "offline", false, "check the chain without a server; checkpoint MACs stay unchecked")
	cmd.Flags().StringVar(&headFile, "head", "", "with --offline: the trail's head (AuditHead as protojson) to check completeness against")
	cmd.MarkFlagRequired("receipts")
	return cmd
}

// listedReceipt is a receipt and the line of the receipts file it is on.
type listedReceipt struct {
	line    int
	receipt cipherd.ErasureReceipt
}

// readReceipts reads the receipts of a file of JSON lines: a line of 'subjects erase' (its
// "receipt"), or a bare receipt. Lines without one are skipped.
func readReceipts(path string) ([]listedReceipt, error) {
	var in io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	var receipts []listedReceipt
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; scanner.Scan(); n++ {
		text := bytes.TrimSpace(scanner.Bytes())
		if len(text) == 0 {
			continue
		}
		var v struct {
			Receipt *cipherd.ErasureReceipt `json:"receipt"`
			cipherd.ErasureReceipt
		}
		if err := json.Unmarshal(text, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON object: %w", path, n, err)
		}
		switch {
		case v.Receipt != nil:
			receipts = append(receipts, listedReceipt{n, *v.Receipt})
		case v.RecordHash != "":
			receipts = append(receipts, listedReceipt{n, v.ErasureReceipt})
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	if len(receipts) == 0 {
		return nil, fmt.Errorf("%s holds no receipt", path)
	}
	return receipts, nil
}

// trailRecord is an audit line as a receipt check reads it.
type trailRecord struct {
	raw  []byte
	hash string
}

// checkReceipts checks every receipt against files, an intact trail, and prints each failure and
// a summary.
func checkReceipts(out io.Writer, receipts []listedReceipt, files []audit.File) error {
	bySeq := map[uint64]trailRecord{}
	var trail string
	var lastCheckpoint int64 = -1
	for _, f := range files {
		for _, raw := range bytes.Split(f.Data, []byte{'\n'}) {
			var l struct {
				Type  string `json:"type"`
				Seq   *int64 `json:"seq"`
				Trail string `json:"trail"`
			}
			if json.Unmarshal(raw, &l) != nil || l.Seq == nil || *l.Seq < 0 {
				continue
			}
			sum := sha256.Sum256(raw)
			bySeq[uint64(*l.Seq)] = trailRecord{raw: raw, hash: hex.EncodeToString(sum[:])}
			switch l.Type {
			case "start":
				if trail == "" {
					trail = l.Trail
				}
			case "checkpoint":
				lastCheckpoint = max(lastCheckpoint, *l.Seq)
			}
		}
	}
	failed := 0
	for _, r := range receipts {
		if problem := receiptProblem(r.receipt, bySeq, trail, lastCheckpoint); problem != "" {
			failed++
			fmt.Fprintf(out, "receipt on line %d (audit seq %d): %s\n", r.line, r.receipt.AuditSeq, problem)
		}
	}
	fmt.Fprintf(out, "receipts: %d, verified: %d, failed: %d\n", len(receipts), len(receipts)-failed, failed)
	if failed > 0 {
		return errors.New("some receipts do not hold against the audit trail")
	}
	return nil
}

// receiptProblem says why a receipt does not hold against the trail's records; "" when it does.
func receiptProblem(r cipherd.ErasureReceipt, bySeq map[uint64]trailRecord, trail string, lastCheckpoint int64) string {
	if trail != "" && r.Trail != "" && r.Trail != trail {
		return fmt.Sprintf("it is of trail %q, the files are of trail %q", r.Trail, trail)
	}
	record, ok := bySeq[r.AuditSeq]
	switch {
	case !ok:
		return "its record is not in the files (give the files that hold its seq)"
	case !strings.EqualFold(strings.TrimPrefix(r.RecordHash, "sha256:"), record.hash):
		return "the record at its seq is not the one it names (record_hash differs)"
	case r.SubjectHash == "" || !bytes.Contains(record.raw, []byte(r.SubjectHash)):
		return "its record does not name its subject hash"
	case !bytes.Contains(record.raw, []byte(strconv.Quote(r.KeyName))):
		return fmt.Sprintf("its record does not name key %q", r.KeyName)
	case int64(r.AuditSeq) > lastCheckpoint:
		return "no checkpoint covers its record yet: check again after the next checkpoint"
	}
	return ""
}
