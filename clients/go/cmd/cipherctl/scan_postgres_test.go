package main_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cipherd/cipherd/clients/go/internal/testpostgres"
)

// postgres is one throwaway cluster for every test that needs it, started by the first; run()
// stops it after the tests.
var postgres struct {
	once    sync.Once
	cluster *testpostgres.Cluster
	err     error
}

// databases numbers the tests' databases.
var databases atomic.Int64

func stopPostgres() {
	if postgres.cluster != nil {
		postgres.cluster.Stop()
	}
}

// needPostgres gives a fresh database of the test's own on the cluster, and a connection to it.
// Without PostgreSQL the test skips, except under CI=true where it fails.
func needPostgres(t *testing.T) (dsn string, db *pgx.Conn) {
	t.Helper()
	postgres.once.Do(func() {
		start := time.Now()
		postgres.cluster, postgres.err = testpostgres.Start()
		if postgres.err == nil {
			fmt.Fprintf(os.Stderr, "testpostgres: cluster on %s ready in %s\n", postgres.cluster.Addr, time.Since(start).Round(time.Millisecond))
		}
	})
	if errors.Is(postgres.err, testpostgres.ErrNoPostgres) && os.Getenv("CI") != "true" {
		t.Skip(postgres.err)
	}
	if postgres.err != nil {
		t.Fatal(postgres.err)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, postgres.cluster.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("scan_%d", databases.Add(1))
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	dsn = postgres.cluster.DSN(name)
	db, err = pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close(context.Background()) })
	return dsn, db
}

func mustExec(t *testing.T, db *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := db.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// dsnFile writes the connection string (password included) to a file only its owner reads, as
// a reader keeps it out of the command line.
func dsnFile(t *testing.T, dsn string) string {
	path := filepath.Join(t.TempDir(), "postgres.dsn")
	if err := os.WriteFile(path, []byte(dsn+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestScanPostgres_countsEveryVersionNullsForeignValuesAndOtherKeys(t *testing.T) {
	dsn, db := needPostgres(t)
	mustExec(t, db, "CREATE TABLE users (id serial PRIMARY KEY, email text, note varchar(200))")
	insert := func(n int, email func() any) {
		for range n {
			mustExec(t, db, "INSERT INTO users (email) VALUES ($1)", email())
		}
	}
	ct := func(key string, version int32, extra int) func() any {
		return func() any { return fakeCiphertext(key, version, extra) }
	}
	text := func(s string) func() any { return func() any { return s } }
	insert(3, ct("users-email", 1, 0))
	insert(2, ct("users-email", 2, 0))
	insert(4, ct("users-email", 3, 0))
	insert(1, ct("users-email", 3, 3<<20)) // 4 MiB: TOASTed, read by its first bytes only
	insert(2, func() any { return nil })
	insert(1, text(""))
	insert(2, text("alice@example.com"))
	insert(1, text("<Users-Email/v1:gcm>AAAA")) // a header cipherd never makes: not a ciphertext
	insert(1, text(" "+fakeCiphertext("users-email", 1, 0)))
	insert(2, ct("phones", 5, 0))
	out := filepath.Join(t.TempDir(), "inventory.json")
	file := dsnFile(t, dsn)

	stdout, stderr := scanCtl(t, "", 0, nil, "scan", "--postgres-file", file, "--table", "users", "--column", "email",
		"--column", "note", "--out", out)
	want := `postgres:public.users.email: 19 values: 12 ciphertexts, 4 not ciphertexts, 3 empty
  phones  v5: 2
  users-email  v1: 3  v2: 2  v3: 5
postgres:public.users.note: 19 values: 0 ciphertexts, 0 not ciphertexts, 19 empty
inventory: ` + out + " (2 inventories)\n"
	if stdout != want || stderr != "" {
		t.Errorf("printed\n%s\nwant\n%s\nstderr: %s", stdout, want, stderr)
	}
	got := readInventory(t, out)
	if inv := got.inventories["postgres:public.users.email users-email"]; versions(inv) != "v1:3 v2:2 v3:5" || inv.ItemsScanned != 19 {
		t.Errorf("users-email: %s, %d items", versions(inv), inv.GetItemsScanned())
	}
	if inv := got.inventories["postgres:public.users.email phones"]; versions(inv) != "v5:2" {
		t.Errorf("phones: %s", versions(inv))
	}

	// Rows below v3 remain: --below 3 fails the gate, naming the source; --below 2 does too; v1 passes.
	_, stderr = scanCtl(t, "", 4, nil, "scan", "--postgres-file", file, "--table", "public.users", "--column", "email",
		"--key", "users-email", "--below", "3")
	if !strings.Contains(stderr, "users-email: 5 ciphertexts below v3: postgres:public.users.email (5)") {
		t.Errorf("stderr: %s", stderr)
	}
	scanCtl(t, "", 0, nil, "scan", "--postgres-file", file, "--table", "users", "--column", "email", "--key", "users-email", "--below", "1")
	// After an UPDATE like a rewrap's, the gate opens.
	mustExec(t, db, "UPDATE users SET email = $1 WHERE email LIKE '<users-email/v1:%' OR email LIKE '<users-email/v2:%'", fakeCiphertext("users-email", 3, 0))
	stdout, _ = scanCtl(t, "", 0, nil, "scan", "--postgres-file", file, "--table", "users", "--column", "email", "--key", "users-email", "--below", "3")
	if !strings.Contains(stdout, "  users-email  v3: 10\n") || !strings.HasSuffix(stdout, "users-email: no ciphertexts below v3\n") {
		t.Errorf("after the update: %s", stdout)
	}
}

// The database's regular expression and the Go client's header parser decide alike on every
// vector of proto/testdata/envelopes.json: a column and a file of the same values scan the same.
func TestScanPostgres_agreesWithTheFileScanOnEveryEnvelopeVector(t *testing.T) {
	dsn, db := needPostgres(t)
	data, err := os.ReadFile("../../../../proto/testdata/envelopes.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors struct {
		Valid, Invalid []struct {
			Ciphertext string `json:"ciphertext"`
		}
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "CREATE TABLE vectors (ct text)")
	var jsonl strings.Builder
	for _, v := range append(vectors.Valid, vectors.Invalid...) {
		mustExec(t, db, "INSERT INTO vectors VALUES ($1)", v.Ciphertext)
		line, _ := json.Marshal(map[string]string{"ct": v.Ciphertext})
		jsonl.Write(append(line, '\n'))
	}
	path := filepath.Join(t.TempDir(), "vectors.jsonl")
	writeFile(t, path, jsonl.String())
	fromDB, _ := scanCtl(t, "", 0, nil, "scan", "--postgres-file", dsnFile(t, dsn), "--table", "vectors", "--column", "ct")
	fromFile, _ := scanCtl(t, "", 0, nil, "scan", path, "--field", "ct")
	_, dbCounts, _ := strings.Cut(fromDB, ": ")
	_, fileCounts, _ := strings.Cut(fromFile, ": ")
	if dbCounts != fileCounts {
		t.Errorf("the database counts\n%s\nthe file\n%s", fromDB, fromFile)
	}
	if !strings.Contains(fromDB, fmt.Sprintf("%d values", len(vectors.Valid)+len(vectors.Invalid))) || strings.Contains(fromDB, " 0 not ciphertexts") {
		t.Errorf("%s", fromDB)
	}
}

// Names from the command line reach PostgreSQL quoted, never spliced into the query: odd names
// work, and a name that tries to end the statement is only a name that is not there.
func TestScanPostgres_identifiersAreQuotedSoNoNameInjectsSQL(t *testing.T) {
	dsn, db := needPostgres(t)
	mustExec(t, db, `CREATE SCHEMA "Odd Schema"`)
	mustExec(t, db, `CREATE TABLE "Odd Schema"."Mixed ""Case"" Table" (id int, "e-mail"";x" text)`)
	mustExec(t, db, `INSERT INTO "Odd Schema"."Mixed ""Case"" Table" VALUES (1, $1), (2, $2)`, fakeCiphertext("k", 1, 0), fakeCiphertext("k", 2, 0))
	mustExec(t, db, "CREATE TABLE victims (name text)")
	mustExec(t, db, "INSERT INTO victims VALUES ('still here')")
	file := dsnFile(t, dsn)

	stdout, _ := scanCtl(t, "", 0, nil, "scan", "--postgres-file", file, "--schema", "Odd Schema", "--table", `Mixed "Case" Table`,
		"--column", `e-mail";x`)
	if !strings.HasPrefix(stdout, `postgres:Odd Schema.Mixed "Case" Table.e-mail";x: 2 values: 2 ciphertexts`) || !strings.Contains(stdout, "  k  v1: 1  v2: 1\n") {
		t.Errorf("odd names: %s", stdout)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--table", "victims; DROP TABLE victims; --", "--column", "name"}, `no table "victims; DROP TABLE victims; --"`},
		{[]string{"--table", `victims" WHERE false; DROP TABLE victims; --`, "--column", "name"}, "no table"},
		{[]string{"--table", "victims", "--column", "name) FROM victims; DROP TABLE victims; --"}, `has no column "name) FROM victims; DROP TABLE victims; --"`},
		{[]string{"--table", "victims", "--column", `name"::text, 1) AS head FROM victims; DROP TABLE victims; --`}, "has no column"},
		{[]string{"--table", "Victims", "--column", "name"}, `no table "Victims"`},            // names are taken as they are
		{[]string{"--table", "pg_catalog.pg_class_oid_index", "--column", "oid"}, "no table"}, // an index is no table
	} {
		_, stderr := scanCtl(t, "", 1, nil, append([]string{"scan", "--postgres-file", file}, c.args...)...)
		if !strings.Contains(stderr, c.says) {
			t.Errorf("%v: %q lacks %q", c.args, stderr, c.says)
		}
	}
	var name string
	if err := db.QueryRow(context.Background(), "SELECT name FROM victims").Scan(&name); err != nil || name != "still here" {
		t.Fatalf("victims: %q, %v", name, err)
	}
}

// The scan runs in a read-only transaction under a statement timeout: a view whose reading would
// write is refused, and a count slower than the timeout is cancelled.
func TestScanPostgres_readOnlyUnderAStatementTimeout(t *testing.T) {
	dsn, db := needPostgres(t)
	mustExec(t, db, "CREATE TABLE writes (at timestamptz)")
	mustExec(t, db, `CREATE FUNCTION writing() RETURNS text LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO writes VALUES (now()); RETURN 'x'; END $$`)
	mustExec(t, db, "CREATE VIEW trap AS SELECT writing() AS ct")
	mustExec(t, db, `CREATE FUNCTION slow() RETURNS text LANGUAGE sql AS $$ SELECT pg_sleep(30); SELECT 'x'::text $$`)
	mustExec(t, db, "CREATE VIEW slow_view AS SELECT slow() AS ct")
	file := dsnFile(t, dsn)

	_, stderr := scanCtl(t, "", 1, nil, "scan", "--postgres-file", file, "--table", "trap", "--column", "ct")
	if !strings.Contains(stderr, "read-only transaction") {
		t.Errorf("writing view: %s", stderr)
	}
	var writes int
	if err := db.QueryRow(context.Background(), "SELECT count(*) FROM writes").Scan(&writes); err != nil || writes != 0 {
		t.Errorf("the scan wrote %d rows (%v)", writes, err)
	}
	start := time.Now()
	_, stderr = scanCtl(t, "", 1, nil, "scan", "--postgres-file", file, "--table", "slow_view", "--column", "ct", "--statement-timeout", "300ms")
	if !strings.Contains(stderr, "statement timeout") || time.Since(start) > 15*time.Second {
		t.Errorf("after %s: %s", time.Since(start), stderr)
	}
}

// The password stays off the command line: the PG* environment fills in a URL without one, and a
// URL with one still works but earns a warning.
func TestScanPostgres_passwordFromTheEnvironmentOrAWarning(t *testing.T) {
	dsn, db := needPostgres(t)
	mustExec(t, db, "CREATE TABLE t (ct text)")
	mustExec(t, db, "INSERT INTO t VALUES ($1)", fakeCiphertext("k", 1, 0))
	withoutPassword := strings.Replace(dsn, ":"+postgres.cluster.Password+"@", "@", 1)
	stdout, stderr := scanCtl(t, "", 0, []string{"PGPASSWORD=" + postgres.cluster.Password}, "scan", "--postgres", withoutPassword,
		"--table", "t", "--column", "ct")
	if !strings.Contains(stdout, "  k  v1: 1\n") || stderr != "" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	_, stderr = scanCtl(t, "", 0, nil, "scan", "--postgres", dsn, "--table", "t", "--column", "ct")
	if !strings.Contains(stderr, "warning: the --postgres connection string holds a password") || strings.Contains(stderr, postgres.cluster.Password) {
		t.Errorf("stderr %q", stderr)
	}
	_, stderr = scanCtl(t, "", 1, []string{"PGPASSWORD=wrong"}, "scan", "--postgres", withoutPassword, "--table", "t", "--column", "ct")
	if !strings.Contains(stderr, "password authentication failed") || strings.Contains(stderr, "wrong") {
		t.Errorf("wrong password: %q", stderr)
	}
}
