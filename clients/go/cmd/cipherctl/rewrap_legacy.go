package main

import (
	"fmt"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// checkLegacy checks the --to and --legacy-* flags together.
func (j *rewrapJob) checkLegacy(cmd *cobra.Command) error {
	if j.legacyKey == "" {
		if cmd.Flags().Changed("legacy-encoding") {
			return fmt.Errorf("--legacy-encoding goes with --legacy-key")
		}
		return nil
	}
	if j.to == "" {
		return fmt.Errorf("--legacy-key needs --to KEY: legacy data is rewrapped into a cipherd key")
	}
	switch j.legacyEncoding {
	case "hex", "base64", "raw":
		return nil
	}
	return fmt.Errorf("--legacy-encoding must be hex, base64 or raw, not %q", j.legacyEncoding)
}

// legacyEncodingIfAny is the encoding a checkpoint records: none without --legacy-key.
func (j *rewrapJob) legacyEncodingIfAny() string {
	if j.legacyKey == "" {
		return ""
	}
	return j.legacyEncoding
}

// item is what the stream sends for a record: its ciphertext, or its legacy ciphertext, with the
// record's context. A record whose context cannot be made gets that as its failure (rec.fieldErr)
// and, like a record without the field, is refused locally, never sent.
func (j *rewrapJob) item(ref string, rec *record) cipherd.CiphertextItem {
	it := cipherd.CiphertextItem{Reference: ref, Ciphertext: rec.ciphertext}
	if rec.fieldErr != nil {
		return it
	}
	aad, err := j.contextOf.bytesFor(*rec)
	if err != nil {
		rec.fieldErr = err
		return cipherd.CiphertextItem{Reference: ref}
	}
	it.AAD = aad
	if j.legacyKey == "" {
		return it
	}
	switch j.legacyEncoding {
	case "hex":
		it.Legacy = cipherd.LegacyHex(j.legacyKey, rec.ciphertext)
	case "base64":
		it.Legacy = cipherd.LegacyBase64(j.legacyKey, rec.ciphertext)
	default:
		it.Legacy = cipherd.LegacyRaw(j.legacyKey, []byte(rec.ciphertext))
	}
	it.Ciphertext = ""
	return it
}

// staysInItsKey reports whether a record rewrapped to the same version number was rewrapped into
// its own key: then it was already current. A legacy or Vault Transit record, or one moved by --to
// into another key, always gets its new ciphertext.
func (j *rewrapJob) staysInItsKey(rec record) bool {
	switch {
	case j.legacyKey != "", cipherd.IsTransitCiphertext(rec.ciphertext):
		// A Transit ciphertext's new one under the same version number is still cipherd's.
		return false
	case j.to == "":
		return true
	}
	parsed, err := cipherd.ParseCiphertext(rec.ciphertext)
	return err == nil && parsed.KeyName == j.to
}
