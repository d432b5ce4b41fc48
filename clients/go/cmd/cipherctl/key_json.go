package main

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// keyMessage is k as the API's Key message: the keys commands print their JSON in the proto's
// protojson shape (field names, enum names, 64-bit counts as strings), which scripts and the docs
// rely on. The server sends every version's usage and the policy, so both are always present.
func keyMessage(k *cipherd.Key) *cipherdpb.Key {
	p := k.Policy
	m := &cipherdpb.Key{KeyName: k.KeyName, CurrentVersion: k.CurrentVersion, State: cipherdpb.KeyState(k.State),
		DeleteTime: timestamp(k.DeleteTime), Exportable: k.Exportable, Policy: &cipherdpb.KeyPolicy{MinDecryptionVersion: p.MinDecryptionVersion,
			MinEncryptionVersion: p.MinEncryptionVersion, AllowEcbEncryption: p.AllowECBEncryption,
			MaxEncryptionsPerVersion: p.MaxEncryptionsPerVersion, CancelDestructionOnUse: p.CancelDestructionOnUse}}
	if p.AutoRotatePeriod != 0 {
		m.Policy.AutoRotatePeriod = durationpb.New(p.AutoRotatePeriod)
	}
	for _, v := range k.Versions {
		u := v.Usage
		m.Versions = append(m.Versions, &cipherdpb.KeyVersion{Version: v.Version, Mode: cipherdpb.Mode(v.Mode), KeySizeBits: v.KeySizeBits,
			CreateTime: timestamp(v.CreateTime), Imported: v.Imported, LegacyCipher: cipherdpb.LegacyCipher(v.LegacyCipher),
			LegacyIv: cipherdpb.LegacyIv(v.LegacyIV), State: cipherdpb.KeyVersionState(v.State), DestroyTime: timestamp(v.DestroyTime),
			FpeFormat: cipherd.FPEFormatProto(v.FPEFormat), TransitKdf: cipherdpb.TransitKdf(v.TransitKDF),
			Usage: &cipherdpb.KeyVersionUsage{Encryptions: u.Encryptions, Decryptions: u.Decryptions, Rewraps: u.Rewraps,
				LastUsedTime: timestamp(u.LastUsed), Indexes: u.Indexes, IndexLookups: u.IndexLookups, Failures: u.Failures,
				LastLookupTime: timestamp(u.LastLookup)}})
	}
	return m
}

// timestamp is t as a Timestamp; nil (absent) for the zero time.
func timestamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}
