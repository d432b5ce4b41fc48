package cipherd

import (
	"strings"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// FPETemplate is a named shape of value for a format-preserving key (ModeFF1). Characters a
// template keeps in place (separators, a card's first six and last four digits, a phone number's
// country code) are never encrypted.
type FPETemplate int32

// The templates; FPETemplateUnspecified means the format is an alphabet.
const (
	FPETemplateUnspecified        = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_UNSPECIFIED)
	FPETemplateDigits             = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_DIGITS)
	FPETemplateLowerAlphanumeric  = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_LOWER_ALPHANUMERIC)
	FPETemplateAlphanumeric       = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_ALPHANUMERIC)
	FPETemplateCardNumber         = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_CARD_NUMBER)
	FPETemplateCardNumberLastFour = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR)
	FPETemplatePhoneNumber        = FPETemplate(cipherdpb.FpeTemplate_FPE_TEMPLATE_PHONE_NUMBER)
)

// String is the template's lowercase name ("digits", "card_number"), "" for FPETemplateUnspecified.
func (t FPETemplate) String() string {
	if t == FPETemplateUnspecified {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(cipherdpb.FpeTemplate(t).String(), "FPE_TEMPLATE_"))
}

// ParseFPETemplate is the template of a lowercase name ("digits", "card_number"), or false.
func ParseFPETemplate(name string) (FPETemplate, bool) {
	v, ok := cipherdpb.FpeTemplate_value["FPE_TEMPLATE_"+strings.ToUpper(name)]
	if !ok || v == 0 || name != strings.ToLower(name) {
		return FPETemplateUnspecified, false
	}
	return FPETemplate(v), true
}

// FPEFormat is the shape of the values a format-preserving key encrypts, fixed at creation for
// every version (proto/README.md, "Format-preserving values"): exactly one of Alphabet (2 to
// 65,536 distinct characters in numeral order) and Template.
type FPEFormat struct {
	Alphabet string
	Template FPETemplate
	// VersionPrefixLength (alphabets only; 1 or 2, 0 for none) starts every ciphertext with that
	// many characters naming the key version, so that decrypting needs no version beside the value.
	VersionPrefixLength int32
	// AcceptSmallDomain accepts values whose encrypted characters have fewer than 1,000,000
	// possible values (at least 10,000): whoever may encrypt can then tabulate every value. A
	// 16-digit CARD_NUMBER needs it.
	AcceptSmallDomain bool
	// MaskVisibleSuffix is how many trailing characters MaskFormatted shows (0 to 4; 0 with a
	// template is the template's own: 4 for cards, 2 for phone numbers).
	MaskVisibleSuffix int32
}

func (f *FPEFormat) proto() *cipherdpb.FpeFormat {
	if f == nil {
		return nil
	}
	m := &cipherdpb.FpeFormat{VersionPrefixLength: f.VersionPrefixLength, AcceptSmallDomain: f.AcceptSmallDomain,
		MaskVisibleSuffix: f.MaskVisibleSuffix}
	if f.Template != FPETemplateUnspecified {
		m.Shape = &cipherdpb.FpeFormat_Template{Template: cipherdpb.FpeTemplate(f.Template)}
	} else {
		m.Shape = &cipherdpb.FpeFormat_Alphabet{Alphabet: f.Alphabet}
	}
	return m
}

// fpeFormatFromProto is m as an FPEFormat; nil for a version that is not format-preserving.
func fpeFormatFromProto(m *cipherdpb.FpeFormat) *FPEFormat {
	if m == nil {
		return nil
	}
	return &FPEFormat{Alphabet: m.GetAlphabet(), Template: FPETemplate(m.GetTemplate()), VersionPrefixLength: m.GetVersionPrefixLength(),
		AcceptSmallDomain: m.GetAcceptSmallDomain(), MaskVisibleSuffix: m.GetMaskVisibleSuffix()}
}

// FPEFormatProto is f as the API's FpeFormat message (nil for nil), for cipherctl's JSON.
func FPEFormatProto(f *FPEFormat) *cipherdpb.FpeFormat { return f.proto() }
