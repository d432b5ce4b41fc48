package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"google.golang.org/protobuf/encoding/protojson"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// inventoryFile is what scan --out writes and keys retire --inventory reads: one
// cipherd.v1.DataInventory per source and key, in protojson with the proto's field names, and what
// each source held besides, for people. The reader takes the inventories and leaves the rest.
type inventoryFile struct {
	Inventories []json.RawMessage `json:"inventories"`
	Sources     []sourceSummary   `json:"sources"`
}

// sourceSummary is one source's values of every kind.
type sourceSummary struct {
	Source       string `json:"source"`
	ItemsScanned int64  `json:"items_scanned"`
	Ciphertexts  int64  `json:"ciphertexts"`
	Unrecognized int64  `json:"unrecognized"`
	Empty        int64  `json:"empty"`
}

// readInventories reads the inventories of key from each file. An inventory of another key is
// skipped, and said so on warn, as is a file without any inventory of key (a scan without --key
// writes none for a key it found no ciphertext of); a missing or malformed file is an error, so a
// retirement never goes ahead on evidence it could not read.
func readInventories(key string, paths []string, warn io.Writer) ([]cipherd.DataInventory, error) {
	var found []cipherd.DataInventory
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--inventory: %w", err)
		}
		var file inventoryFile
		if err := json.Unmarshal(data, &file); err != nil {
			return nil, fmt.Errorf("--inventory %s: not an inventory file (a JSON object with \"inventories\", as cipherctl scan writes): %v", path, err)
		}
		if file.Inventories == nil {
			return nil, fmt.Errorf("--inventory %s: no \"inventories\" field (is it a cipherctl scan output?)", path)
		}
		ofKey := 0
		for i, raw := range file.Inventories {
			inv := &cipherdpb.DataInventory{}
			if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(raw, inv); err != nil {
				return nil, fmt.Errorf("--inventory %s: inventory %d: %v", path, i+1, err)
			}
			if inv.GetKeyName() != key {
				fmt.Fprintf(warn, "cipherctl: %s: skipping inventory %q of key %q (retiring %q)\n", path, inv.GetSource(), inv.GetKeyName(), key)
				continue
			}
			found = append(found, inventoryOf(inv))
			ofKey++
		}
		if ofKey == 0 {
			fmt.Fprintf(warn, "cipherctl: %s: no inventory of key %q in it: it found no ciphertext of it (cipherctl scan --key %s records that as an inventory)\n", path, key, key)
		}
	}
	return found, nil
}

// refusingInventory is the inventory named by source, for the refusal's message; nil if none is.
func refusingInventory(inventories []cipherd.DataInventory, source string) *cipherd.DataInventory {
	for i := range inventories {
		if inventories[i].Source == source {
			return &inventories[i]
		}
	}
	return nil
}

// inventoryOf is an inventory read from its file (the API's DataInventory in protojson) as the
// client takes it.
func inventoryOf(inv *cipherdpb.DataInventory) cipherd.DataInventory {
	out := cipherd.DataInventory{KeyName: inv.GetKeyName(), Source: inv.GetSource(), ItemsScanned: inv.GetItemsScanned()}
	if inv.GetScanTime() != nil {
		out.ScanTime = inv.GetScanTime().AsTime()
	}
	for _, v := range inv.GetVersions() {
		out.Versions = append(out.Versions, cipherd.VersionCount{Version: v.GetVersion(), Ciphertexts: v.GetCiphertexts()})
	}
	return out
}
