package main

import (
	"strings"
	"testing"
)

func TestContextTemplate_substitutesFieldsAndEscapes(t *testing.T) {
	line := []byte(`{"id": 42, "name": "é{x}", "neg": -1.5e3, "obj": {"a": 1}, "nil": null}`)
	rec := record{field: func(name string) (string, bool) { return jsonField(line, name) }}
	for _, tc := range []struct{ template, want string }{
		{"", ""},
		{"users.email", "users.email"},
		{"users.email/{id}", "users.email/42"},
		{"{name}/{id}", "é{x}/42"},
		{"{{id}}/{{{id}}}", "{id}/{42}"},
		{"n={neg}", "n=-1.5e3"},
	} {
		tmpl, err := parseContextTemplate(tc.template)
		if err != nil {
			t.Fatalf("%q: %v", tc.template, err)
		}
		got, err := tmpl.bytesFor(rec)
		if err != nil || string(got) != tc.want {
			t.Errorf("%q gives %q, %v; want %q", tc.template, got, err, tc.want)
		}
	}
	for _, missing := range []string{"{absent}", "{obj}", "{nil}"} {
		tmpl, _ := parseContextTemplate("x/" + missing)
		if _, err := tmpl.bytesFor(rec); err == nil || !strings.Contains(err.Error(), `the record has no field "`+strings.Trim(missing, "{}")+`"`) {
			t.Errorf("%s: %v", missing, err)
		}
	}
}

func TestContextTemplate_refusesUnbalancedBraces(t *testing.T) {
	for _, bad := range []string{"users/{id", "users/id}", "{}", "{a{b}}"} {
		if _, err := parseContextTemplate(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestContextFlags_areAlternativesAndHexIsBytes(t *testing.T) {
	if _, err := (contextFlags{Template: "a", Hex: "00"}).template(); err == nil {
		t.Error("--context with --context-hex accepted")
	}
	tmpl, err := contextFlags{Hex: "00ff"}.template()
	if got, _ := tmpl.bytesFor(record{}); err != nil || string(got) != "\x00\xff" {
		t.Errorf("--context-hex 00ff gives %q, %v", got, err)
	}
	tmpl, _ = contextFlags{Field: "id"}.template()
	if got, err := tmpl.bytesFor(record{field: func(string) (string, bool) { return "7", true }}); err != nil || string(got) != "7" {
		t.Errorf("--context-field id gives %q, %v", got, err)
	}
}

func TestDecryptionHint_onlyWhenEveryRecordFailedToDecrypt(t *testing.T) {
	cp := &checkpoint{Records: 3, Failed: map[string]int{"decryption_failed": 3}}
	if h := decryptionHint(cp); !strings.Contains(h, "pass the same one (--context") {
		t.Errorf("no context: %q", h)
	}
	cp.contextFlags = contextFlags{Field: "ctx"}
	if h := decryptionHint(cp); !strings.Contains(h, `check that --context-field "ctx" gives exactly`) {
		t.Errorf("with a context: %q", h)
	}
	cp.LegacyKey, cp.LegacyEncoding = "mysql", "hex"
	if h := decryptionHint(cp); !strings.Contains(h, "--legacy-key mysql") {
		t.Errorf("legacy: %q", h)
	}
	cp.Records = 4 // one record did not fail to decrypt
	if h := decryptionHint(cp); h != "" {
		t.Errorf("not every record failed: %q", h)
	}
}
