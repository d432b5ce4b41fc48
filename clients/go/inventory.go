package cipherd

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// DataInventory is what one scan of stored data found (cipherctl scan): how many ciphertexts name
// each version of one key in Source ("postgres:users.email", at most 256 characters).
// RetireKeyVersions refuses while one counts a ciphertext under a version it would retire:
// traffic shows what is read, an inventory shows what exists, cold rows included.
type DataInventory struct {
	KeyName      string
	Source       string
	ScanTime     time.Time
	ItemsScanned int64
	Versions     []VersionCount
}

// VersionCount is how many ciphertexts of an inventory are under one key version.
type VersionCount struct {
	Version     int32
	Ciphertexts int64
}

func (inv DataInventory) proto() *cipherdpb.DataInventory {
	pb := &cipherdpb.DataInventory{KeyName: inv.KeyName, Source: inv.Source, ItemsScanned: inv.ItemsScanned}
	if !inv.ScanTime.IsZero() {
		pb.ScanTime = timestamppb.New(inv.ScanTime)
	}
	for _, v := range inv.Versions {
		pb.Versions = append(pb.Versions, &cipherdpb.VersionCount{Version: v.Version, Ciphertexts: v.Ciphertexts})
	}
	return pb
}
