package cipherd_test

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// secretFields are the names a secret field of the schema has: plaintexts, a data key, key material,
// a passphrase and a value to index or hash.
var secretFields = map[protoreflect.Name]bool{
	"plaintext": true, "plaintext_key": true, "key_material": true, "passphrase": true, "value": true,
}

// personalFields are the names a string field of the schema has when it holds personal data: a
// data subject's id.
var personalFields = map[protoreflect.Name]bool{"subject": true}

// TestDebugRedact_marksEverySecretField checks that every bytes field of the schema named as a secret,
// and every string field named as personal data, carries [debug_redact = true], and no other field does. protobuf-go v1.36 does not honour the
// option yet (String(), %v and prototext print such a field; golang/protobuf#1655): it marks the
// fields for tools and for a runtime that does, and this client never formats a message.
func TestDebugRedact_marksEverySecretField(t *testing.T) {
	files := []protoreflect.FileDescriptor{
		cipherdpb.File_cipherd_v1_crypto_service_proto,
		cipherdpb.File_cipherd_v1_key_admin_service_proto,
		cipherdpb.File_cipherd_v1_audit_service_proto,
		cipherdpb.File_cipherd_v1_keys_proto,
		cipherdpb.File_cipherd_v1_subject_service_proto,
	}
	marked := 0
	var visit func(protoreflect.MessageDescriptors)
	visit = func(messages protoreflect.MessageDescriptors) {
		for i := 0; i < messages.Len(); i++ {
			m := messages.Get(i)
			for j := 0; j < m.Fields().Len(); j++ {
				f := m.Fields().Get(j)
				redacted := f.Options().(*descriptorpb.FieldOptions).GetDebugRedact()
				secret := f.Kind() == protoreflect.BytesKind && secretFields[f.Name()] || f.Kind() == protoreflect.StringKind && personalFields[f.Name()]
				if redacted != secret {
					t.Errorf("%s: debug_redact %t, but secret by its name and type: %t", f.FullName(), redacted, secret)
				}
				if redacted {
					marked++
				}
			}
			visit(m.Messages())
		}
	}
	for _, file := range files {
		visit(file.Messages())
	}
	if marked == 0 {
		t.Fatal("no field is marked debug_redact")
	}
}
