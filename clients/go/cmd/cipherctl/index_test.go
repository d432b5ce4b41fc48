package main_test

import (
	"encoding/hex"
	"strings"
	"testing"
)

func TestIndex_argumentAndStdinNormalizedAlikeAndEveryVersion(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-idx", "--mode", "hmac")
	fromArg := strings.TrimSpace(cipherctl(t, "", 0, "index", "cli-idx", "  Alice@Example.COM ", "--trim", "--casefold"))
	fromStdin := strings.TrimSpace(cipherctl(t, "alice@example.com\n", 0, "index", "cli-idx"))
	if raw, err := hex.DecodeString(fromArg); err != nil || len(raw) != 32 || fromArg != fromStdin {
		t.Fatalf("index of the messy argument %q, of the clean stdin %q", fromArg, fromStdin)
	}
	if raw := strings.TrimSpace(cipherctl(t, "  Alice@Example.COM ", 0, "index", "cli-idx")); raw == fromArg {
		t.Fatal("without --trim --casefold the messy value has the clean value's index")
	}
	short := strings.TrimSpace(cipherctl(t, "alice@example.com", 0, "index", "cli-idx", "--length", "8"))
	if short != fromArg[:16] {
		t.Fatalf("--length 8 printed %q, want %q", short, fromArg[:16])
	}
	cipherctl(t, "", 0, "keys", "rotate", "cli-idx")
	all := cipherctl(t, "alice@example.com", 0, "index", "cli-idx", "--all-versions")
	lines := strings.Split(strings.TrimSpace(all), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "v2 ") || lines[1] != "v1 "+fromArg {
		t.Fatalf("--all-versions printed %q", all)
	}
	if v1 := strings.TrimSpace(cipherctl(t, "alice@example.com", 0, "index", "cli-idx", "--version", "1")); v1 != fromArg {
		t.Fatalf("--version 1 printed %q", v1)
	}
	cipherctl(t, "x", 1, "index", "cli-idx", "--length", "7")
	// Six indexes: four under v1 before the rotation, one under v2 for --all-versions (its v1 index
	// is a lookup, counted apart), one under --version 1; the refused --length 7 computed none.
	if row := listRow(t, "cli-idx"); row[1] != "v2" || row[2] != "hmac" || strings.Join(row[3:7], " ") != "- - - 6" {
		t.Fatalf("keys list row of cli-idx: %q, want v2, hmac and 6 indexes", row)
	}
}
