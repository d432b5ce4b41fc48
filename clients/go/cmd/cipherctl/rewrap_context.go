package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// contextTemplate is the context a rewrap sends with each record: fixed text, text with the
// record's fields substituted ("users.email/{id}"), or fixed bytes (--context-hex). Text becomes
// its UTF-8 bytes, and a field its value's text: a JSON string's characters, a JSON number as it
// is written, a CSV cell as it is.
type contextTemplate struct {
	parts []contextPart // nil: no context
}

// contextPart is literal bytes, or the name of a field whose value goes there.
type contextPart struct {
	literal []byte
	field   string
}

// errContextField is the failure of a record that lacks a field its context names.
var errContextField = errors.New("context field missing")

// contextFlags are the three ways to give a rewrap's context; at most one is used. The
// checkpoint records them as given, so a resume with another context is refused.
type contextFlags struct {
	Template string `json:"context,omitempty"`
	Field    string `json:"context_field,omitempty"`
	Hex      string `json:"context_hex,omitempty"`
}

// describe names the flags as a command line would give them, for messages.
func (f contextFlags) describe() string {
	switch {
	case f.Template != "":
		return fmt.Sprintf("--context %q", f.Template)
	case f.Field != "":
		return fmt.Sprintf("--context-field %q", f.Field)
	case f.Hex != "":
		return fmt.Sprintf("--context-hex %s", f.Hex)
	}
	return "no context"
}

// template checks the flags and builds the template they give.
func (f contextFlags) template() (contextTemplate, error) {
	given := 0
	for _, v := range []string{f.Template, f.Field, f.Hex} {
		if v != "" {
			given++
		}
	}
	switch {
	case given > 1:
		return contextTemplate{}, errors.New("--context, --context-field and --context-hex are alternatives: give one")
	case f.Field != "":
		return contextTemplate{parts: []contextPart{{field: f.Field}}}, nil
	case f.Hex != "":
		b, err := hex.DecodeString(f.Hex)
		if err != nil || len(b) == 0 {
			return contextTemplate{}, fmt.Errorf("--context-hex must be an even number of hex digits, not %q", f.Hex)
		}
		return contextTemplate{parts: []contextPart{{literal: b}}}, nil
	}
	return parseContextTemplate(f.Template)
}

// parseContextTemplate reads text in which {name} stands for the record's field name and {{ and }}
// for the braces themselves.
func parseContextTemplate(text string) (contextTemplate, error) {
	var t contextTemplate
	var literal strings.Builder
	flush := func() {
		if literal.Len() > 0 {
			t.parts = append(t.parts, contextPart{literal: []byte(literal.String())})
			literal.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case strings.HasPrefix(text[i:], "{{"), strings.HasPrefix(text[i:], "}}"):
			literal.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexAny(text[i+1:], "{}")
			if end < 0 || text[i+1+end] != '}' {
				return contextTemplate{}, fmt.Errorf("--context %q: '{' at byte %d opens a field name that '}' does not close (write {{ for a brace)", text, i)
			}
			name := text[i+1 : i+1+end]
			if name == "" {
				return contextTemplate{}, fmt.Errorf("--context %q: {} names no field (write {{}} for braces)", text)
			}
			flush()
			t.parts = append(t.parts, contextPart{field: name})
			i += 1 + end
		case c == '}':
			return contextTemplate{}, fmt.Errorf("--context %q: '}' at byte %d closes nothing (write }} for a brace)", text, i)
		default:
			literal.WriteByte(c)
		}
	}
	flush()
	return t, nil
}

// fields names the record fields the template reads.
func (t contextTemplate) fields() []string {
	var names []string
	for _, p := range t.parts {
		if p.field != "" {
			names = append(names, p.field)
		}
	}
	return names
}

// bytesFor is the context of one record; a field the record lacks (or holds as anything but a
// string or a number) fails that record alone.
func (t contextTemplate) bytesFor(rec record) ([]byte, error) {
	if len(t.parts) == 0 {
		return nil, nil
	}
	var out []byte
	for _, p := range t.parts {
		if p.field == "" {
			out = append(out, p.literal...)
			continue
		}
		value, ok := rec.lookup(p.field)
		if !ok {
			return nil, fmt.Errorf("%w: the record has no field %q for the context (or it is not a string or a number)", errContextField, p.field)
		}
		out = append(out, value...)
	}
	return out, nil
}
