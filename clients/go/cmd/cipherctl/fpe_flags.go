package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fpeFlags are the format of a format-preserving key (--mode ff1), for keys create and keys import.
type fpeFlags struct {
	template, alphabet string
	versionPrefix      int32
	acceptSmallDomain  bool
	maskVisibleSuffix  int32
}

func (f *fpeFlags) register(cmd *cobra.Command) {
	var names []string
	for v := range int32(len(cipherdpb.FpeTemplate_name)) {
		if name := cipherd.FPETemplate(v).String(); name != "" {
			names = append(names, name)
		}
	}
	cmd.Flags().StringVar(&f.template, "fpe-template", "", "with --mode ff1, the values' shape: "+strings.Join(names, ", "))
	cmd.Flags().StringVar(&f.alphabet, "fpe-alphabet", "", "with --mode ff1, every character a value may hold, in numeral order (e.g. 0123456789ABCDEF), instead of --fpe-template")
	cmd.Flags().Int32Var(&f.versionPrefix, "fpe-version-prefix", 0, "with --fpe-alphabet, start every ciphertext with 1 or 2 characters naming the key version, so decrypting needs no version")
	cmd.Flags().BoolVar(&f.acceptSmallDomain, "fpe-accept-small-domain", false, "accept values with fewer than 1,000,000 possible encrypted values (at least 10,000): whoever may encrypt can tabulate them all; a 16-digit card_number needs it")
	cmd.Flags().Int32Var(&f.maskVisibleSuffix, "fpe-mask-visible-suffix", 0, "how many trailing characters fpe mask shows, 0 to 4 (0: the template's own, 4 for cards, 2 for phone numbers)")
}

// set reports whether any format flag was given.
func (f *fpeFlags) set(cmd *cobra.Command) bool {
	for _, name := range []string{"fpe-template", "fpe-alphabet", "fpe-version-prefix", "fpe-accept-small-domain", "fpe-mask-visible-suffix"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// options is the format as a key option, none when no format flag was given.
func (f *fpeFlags) options(cmd *cobra.Command) ([]cipherd.KeyOption, error) {
	if !f.set(cmd) {
		return nil, nil
	}
	format := cipherd.FPEFormat{Alphabet: f.alphabet, VersionPrefixLength: f.versionPrefix, AcceptSmallDomain: f.acceptSmallDomain,
		MaskVisibleSuffix: f.maskVisibleSuffix}
	switch {
	case f.template != "" && f.alphabet != "":
		return nil, fmt.Errorf("--fpe-template and --fpe-alphabet exclude each other")
	case f.template == "" && f.alphabet == "":
		return nil, fmt.Errorf("a format-preserving key needs --fpe-template or --fpe-alphabet")
	case f.template != "":
		t, ok := cipherd.ParseFPETemplate(f.template)
		if !ok {
			return nil, fmt.Errorf("unknown --fpe-template %q", f.template)
		}
		format.Template = t
	}
	return []cipherd.KeyOption{cipherd.WithFPEFormat(format)}, nil
}
