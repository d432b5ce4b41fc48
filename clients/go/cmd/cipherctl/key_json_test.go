package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fullKey has every field of Key set, as the server sends them (usage and policy always present).
func fullKey() *cipherdpb.Key {
	at := func(s int64) *timestamppb.Timestamp { return timestamppb.New(time.Unix(1795700000+s, 123456789).UTC()) }
	return &cipherdpb.Key{KeyName: "full", CurrentVersion: 2, State: cipherdpb.KeyState_KEY_STATE_DELETION_SCHEDULED, DeleteTime: at(9),
		Policy: &cipherdpb.KeyPolicy{MinDecryptionVersion: 1, MinEncryptionVersion: 2, AllowEcbEncryption: true,
			AutoRotatePeriod: durationpb.New(720 * time.Hour), MaxEncryptionsPerVersion: 1 << 40, CancelDestructionOnUse: true},
		Versions: []*cipherdpb.KeyVersion{
			{Version: 1, KeySizeBits: 128, CreateTime: at(1), Imported: true, LegacyCipher: cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_CBC,
				LegacyIv: cipherdpb.LegacyIv_LEGACY_IV_FIXED, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_DESTRUCTION_SCHEDULED,
				DestroyTime: at(8), Usage: &cipherdpb.KeyVersionUsage{Decryptions: 5, Failures: 1, LastUsedTime: at(3)}},
			{Version: 2, Mode: cipherdpb.Mode_MODE_HMAC, KeySizeBits: 256, CreateTime: at(2), State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_ENABLED,
				Usage: &cipherdpb.KeyVersionUsage{Encryptions: 1 << 33, Decryptions: 2, Rewraps: 3, Indexes: 4, IndexLookups: 6, Failures: 7,
					LastUsedTime: at(4), LastLookupTime: at(5)}},
		}}
}

type keyServer struct {
	cipherdpb.UnimplementedKeyAdminServiceServer
}

func (keyServer) GetKey(context.Context, *cipherdpb.GetKeyRequest) (*cipherdpb.GetKeyResponse, error) {
	return &cipherdpb.GetKeyResponse{Key: fullKey()}, nil
}

// TestKeysShow_printsTheKeyMessageAsTheServerSentIt: cipherctl reads keys through the client's
// own types and prints them back as the API's Key in protojson; every field survives the trip, so
// the JSON is what printing the server's message gives.
func TestKeysShow_printsTheKeyMessageAsTheServerSentIt(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterKeyAdminServiceServer(s, keyServer{})
	go s.Serve(l)
	t.Cleanup(s.Stop)

	code, stdout, stderr := runAt(t, l.Addr().String(), "keys", "show", "full")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, err := protojson.Marshal(fullKey())
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Indent(&want, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	if stdout != want.String()+"\n" {
		t.Errorf("keys show printed\n%s\nwant\n%s", stdout, want.String())
	}
}
