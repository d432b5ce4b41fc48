package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// postgresScan counts the ciphertexts of columns of one PostgreSQL table on the server: one
// GROUP BY over each value's first bytes, in a read-only transaction under a statement timeout,
// so only counts cross the network and no value is streamed.
type postgresScan struct {
	dsn, dsnFile     string // a connection string, or a file holding one; neither: the PG* environment
	schema, table    string
	columns          []string
	statementTimeout time.Duration
	connectTimeout   time.Duration
}

// headerPattern is ParseCiphertextHeader's rule as a PostgreSQL regular expression: the key name
// and version of a "<NAME/vVERSION:MODE>" at a value's start, for every mode a header may name, or
// the key name of a subject-bound "<NAME/s:MODE>".
func headerPattern() string {
	var modes []string
	for _, m := range cipherd.Modes() {
		if cipherd.IsHeaderMode(m) {
			modes = append(modes, m.String())
		}
	}
	slices.Sort(modes)
	// A subject-bound "<NAME/s:MODE>" names no version: its third group is "s".
	return `^<([a-z0-9][a-z0-9_-]{0,63})/(?:v([1-9][0-9]{0,8}):(?:` + strings.Join(modes, "|") + `)|(s):(?:chacha|gcm|xgcm))>`
}

// relation is the table's schema and name as given: --schema and --table, or --table SCHEMA.TABLE.
func (p *postgresScan) relation() pgx.Identifier {
	if p.schema != "" {
		return pgx.Identifier{p.schema, p.table}
	}
	if schema, table, ok := strings.Cut(p.table, "."); ok {
		return pgx.Identifier{schema, table}
	}
	return pgx.Identifier{p.table}
}

// config reads the connection string; the PG* variables and ~/.pgpass (or PGPASSFILE) fill in
// what it leaves out, the password above all.
func (p *postgresScan) config(stderr io.Writer) (*pgx.ConnConfig, error) {
	dsn := p.dsn
	if p.dsnFile != "" {
		if p.dsn != "" {
			return nil, fmt.Errorf("--postgres and --postgres-file conflict: give one")
		}
		data, err := os.ReadFile(p.dsnFile)
		if err != nil {
			return nil, fmt.Errorf("reading the --postgres-file: %w", err)
		}
		dsn = strings.TrimSpace(string(data))
	} else if dsnHasPassword(p.dsn) {
		fmt.Fprintln(stderr, "cipherctl: warning: the --postgres connection string holds a password, which other users of this machine can read from the process list; use ~/.pgpass, PGPASSWORD or --postgres-file")
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the string, password included: say only that it did not parse.
		return nil, errors.New("the PostgreSQL connection string does not parse: give a URL (postgres://user@host:5432/db) or key=value pairs (host=... dbname=...)")
	}
	return cfg, nil
}

// dsnHasPassword reports whether a connection string (URL or key=value) carries a password.
func dsnHasPassword(dsn string) bool {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return strings.Contains(dsn, "@") // unparsable: assume the worst
		}
		_, set := u.User.Password()
		return set || u.Query().Has("password")
	}
	return regexp.MustCompile(`(^|\s)password\s*=`).MatchString(dsn)
}

// tallies are the scan's sources, "postgres:SCHEMA.TABLE.COLUMN" once the table is resolved.
func (p *postgresScan) run(ctx context.Context, stderr io.Writer) ([]*tally, error) {
	cfg, err := p.config(stderr)
	if err != nil {
		return nil, err
	}
	connectCtx, cancel := context.WithTimeout(ctx, p.connectTimeout)
	conn, err := pgx.ConnectConfig(connectCtx, cfg)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	defer conn.Close(context.Background())
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, "SELECT pg_catalog.set_config('statement_timeout', $1, true)",
		strconv.FormatInt(p.statementTimeout.Milliseconds(), 10)); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	schema, table, err := p.resolve(ctx, tx)
	if err != nil {
		return nil, err
	}
	var tallies []*tally
	for _, column := range p.columns {
		t, err := p.count(ctx, tx, schema, table, column)
		if err != nil {
			return nil, err
		}
		tallies = append(tallies, t)
	}
	return tallies, nil
}

// resolve finds the table as PostgreSQL would (the search path for a name without a schema),
// and returns its schema and name. The name reaches the server only as a quoted identifier
// inside a parameter.
func (p *postgresScan) resolve(ctx context.Context, tx pgx.Tx) (schema, table string, err error) {
	rel := p.relation()
	err = tx.QueryRow(ctx, `SELECT n.nspname, c.relname FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE c.oid = pg_catalog.to_regclass($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
		rel.Sanitize()).Scan(&schema, &table)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", fmt.Errorf("postgres: no table %s visible to this user (names are case-sensitive and taken as they are; a table outside the search path needs --schema or --table SCHEMA.TABLE)", rel.Sanitize())
	}
	if err != nil {
		return "", "", fmt.Errorf("postgres: %w", err)
	}
	return schema, table, nil
}

// count tallies one column with one query: its values' first bytes, matched against the header
// pattern and grouped by key and version. left() reads only a slice of a long (TOASTed) value.
func (p *postgresScan) count(ctx context.Context, tx pgx.Tx, schema, table, column string) (*tally, error) {
	rel := pgx.Identifier{schema, table}.Sanitize()
	var exists bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute
		WHERE attrelid = pg_catalog.to_regclass($1) AND attname = $2 AND attnum > 0 AND NOT attisdropped)`,
		rel, column).Scan(&exists)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if !exists {
		return nil, fmt.Errorf("postgres: table %s has no column %s", rel, pgx.Identifier{column}.Sanitize())
	}
	query := fmt.Sprintf(`SELECT head IS NULL OR head = '', m[1], m[2]::int, m[3] IS NOT NULL, count(*)
		FROM (SELECT head, pg_catalog.regexp_match(head, $1) AS m
		      FROM (SELECT pg_catalog.left(%s::text, %d) AS head FROM %s) AS heads) AS matched
		GROUP BY 1, 2, 3, 4`, pgx.Identifier{column}.Sanitize(), lineHeadBytes, rel)
	rows, err := tx.Query(ctx, query, headerPattern())
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	t := newTally("postgres:" + schema + "." + table + "." + column)
	for rows.Next() {
		var empty bool
		var key *string
		var version *int32
		var subjectBound bool
		var n int64
		if err := rows.Scan(&empty, &key, &version, &subjectBound, &n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgres: %w", err)
		}
		switch {
		case empty:
			t.addEmpty(n)
		case key != nil && subjectBound:
			t.addSubjectBound(*key, n)
		case key == nil || version == nil:
			t.addUnrecognized(n)
		default:
			t.addCiphertexts(*key, *version, n)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: counting %s.%s: %w", rel, pgx.Identifier{column}.Sanitize(), err)
	}
	t.finished = time.Now()
	return t, nil
}
