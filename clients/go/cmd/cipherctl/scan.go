package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// errBelowFound makes cipherctl exit 4: scan --below found ciphertexts of the key under an older version.
var errBelowFound = errors.New("ciphertexts below the version remain")

// scanJob counts the ciphertexts of stored data per key version, from headers alone.
type scanJob struct {
	fields   []string
	format   string
	postgres postgresScan
	key      string
	below    int32
	out      string
}

func newScanCommand() *cobra.Command {
	job := &scanJob{}
	cmd := &cobra.Command{
		Use:   "scan [FILE|DIR|GLOB|-]... [--field NAME]... | --table [SCHEMA.]TABLE --column NAME... [--postgres DSN | --postgres-file FILE]",
		Short: "Count the ciphertexts of stored data per key version, from their headers (no server, nothing decrypted)",
		Long: `scan counts, per key and version, the ciphertexts stored in files or in PostgreSQL columns.
A ciphertext's header <NAME/vVERSION:MODE> names the key version that made it, so scan needs no
server and decrypts nothing; it reads only each value's first bytes where it can. Every value is
either a ciphertext, counted under the version its header names, or empty (NULL, a missing
field, ""), or not a ciphertext (no header, or a malformed one).

Files are read by extension: .jsonl/.ndjson (one JSON object per line), .json (an array of
objects, or objects one after another) and .csv (a header row) need --field, the JSON field or
CSV column holding the ciphertexts (repeatable: each is its own source); any other file holds
one value per line. A directory is every file under it; "-" is stdin.

--table and --column scan a PostgreSQL column with one GROUP BY query on the server (only counts
come back), in a read-only transaction under --statement-timeout. The connection string comes from
--postgres or --postgres-file, and the PG* variables and ~/.pgpass fill in the rest: keep the
password out of the command line.

--out FILE writes the inventory that keys retire --inventory takes as evidence: one
cipherd.v1.DataInventory per source and key (with --key, one per source even when it holds none).
--below N with --key exits 4 when any ciphertext of the key is under a version below N.
Exit status: 0 done, 4 ciphertexts below --below remain, 1 the scan failed.`,
		RunE: func(cmd *cobra.Command, args []string) error { return job.run(cmd, args) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&job.fields, "field", nil, "JSON field or CSV column of the files holding ciphertexts (repeatable)")
	f.StringVar(&job.format, "format", "", "lines, jsonl, json or csv (default: from each file's extension)")
	f.StringVar(&job.postgres.dsn, "postgres", "", "PostgreSQL connection string, URL or key=value, best without a password (PG* variables and ~/.pgpass fill in)")
	f.StringVar(&job.postgres.dsnFile, "postgres-file", "", "file holding the PostgreSQL connection string")
	f.StringVar(&job.postgres.schema, "schema", "", "schema of --table (default: the search path, or SCHEMA in --table SCHEMA.TABLE)")
	f.StringVar(&job.postgres.table, "table", "", "PostgreSQL table (or view) to scan; SCHEMA.TABLE splits at the first dot (--schema for a name holding one)")
	f.StringArrayVar(&job.postgres.columns, "column", nil, "column of --table holding ciphertexts (repeatable)")
	f.DurationVar(&job.postgres.statementTimeout, "statement-timeout", 30*time.Minute, "PostgreSQL statement_timeout of each count")
	f.DurationVar(&job.postgres.connectTimeout, "connect-timeout", 30*time.Second, "how long to wait for PostgreSQL to accept the connection")
	f.StringVar(&job.key, "key", "", "count only this key's ciphertexts (the others still count as values)")
	f.Int32Var(&job.below, "below", 0, "with --key: exit 4 if any ciphertext of the key is under a version below this one")
	f.StringVar(&job.out, "out", "", "write the inventory (JSON, for keys retire --inventory) to this file")
	return cmd
}

func (j *scanJob) run(cmd *cobra.Command, args []string) error {
	if err := j.check(args); err != nil {
		return err
	}
	var tallies []*tally
	for _, arg := range args {
		files := &fileScan{arg: arg, format: j.format, fields: j.fields, stdin: cmd.InOrStdin()}
		found := files.tallies()
		if err := files.run(cmd.Context(), found); err != nil {
			return err
		}
		for _, t := range found {
			t.finished = time.Now()
		}
		tallies = append(tallies, found...)
	}
	if j.postgres.table != "" {
		found, err := j.postgres.run(cmd.Context(), cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		tallies = append(tallies, found...)
	}
	out := cmd.OutOrStdout()
	if err := printTallies(out, tallies, j.key); err != nil {
		return err
	}
	if j.out != "" {
		n, err := writeInventoryFile(j.out, tallies, j.key)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "inventory: %s (%s)\n", j.out, plural(int64(n), "inventory", "inventories"))
	}
	if j.below > 0 {
		return j.checkBelow(cmd, tallies)
	}
	return nil
}

func (j *scanJob) check(args []string) error {
	p := &j.postgres
	switch {
	case p.table == "" && (len(p.columns) > 0 || p.dsn != "" || p.dsnFile != "" || p.schema != ""):
		return errors.New("--column, --postgres, --postgres-file and --schema need --table")
	case len(args) == 0 && p.table == "":
		return errors.New("nothing to scan: name files (or - for stdin), or a PostgreSQL --table and --column")
	case p.table != "" && len(p.columns) == 0:
		return errors.New("--table needs --column, the column holding the ciphertexts")
	case len(args) == 0 && len(j.fields) > 0:
		return errors.New("--field names a field of the files scanned: name the files (--column for PostgreSQL)")
	case p.statementTimeout <= 0 || p.connectTimeout <= 0:
		return errors.New("--statement-timeout and --connect-timeout must be positive")
	case j.key != "" && !cipherd.ValidKeyName(j.key):
		return fmt.Errorf("--key %q is no key name: [a-z0-9][a-z0-9_-]{0,63}", j.key)
	case j.below < 0:
		return errors.New("--below must be a version, 1 or more")
	case j.below > 0 && j.key == "":
		return errors.New("--below needs --key: the key whose older versions must hold no ciphertexts")
	}
	return nil
}

// checkBelow says how many ciphertexts of the key name a version below --below, and where.
func (j *scanJob) checkBelow(cmd *cobra.Command, tallies []*tally) error {
	var total int64
	var where []string
	for _, t := range tallies {
		if n := t.below(j.key, j.below); n > 0 {
			total += n
			where = append(where, fmt.Sprintf("%s (%d)", t.source, n))
		}
	}
	if total == 0 {
		_, err := fmt.Fprintf(cmd.OutOrStdout(), "%s: no ciphertexts below v%d\n", j.key, j.below)
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "cipherctl: %s: %s below v%d: %s; rewrap them (cipherctl rewrap) before retiring\n",
		j.key, plural(total, "ciphertext"), j.below, strings.Join(where, ", "))
	return errBelowFound
}
