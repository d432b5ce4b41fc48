package audit

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Head is the head the server's key store holds for an audit trail (Client.AuditHead): its last
// anchored checkpoint, where the trail now starts, and its files. Verify checks a trail's
// completeness against it.
type Head struct {
	Trail      string     // the trail's name, as its start lines give it
	Seq        int64      // the last anchored checkpoint line's seq
	Hash       string     // the hex SHA-256 of that line (without its newline)
	Time       string     // that line's time field, as written
	FirstSeq   int64      // the first line the trail still keeps: 0 until retention removed files
	FirstHash  string     // the hex SHA-256 of that first kept line
	Files      []HeadFile // the files still kept, oldest first, the live file last
	AnchoredAt time.Time  // when the server wrote this anchor
}

// HeadFile is one file of a trail as its head lists it.
type HeadFile struct {
	Name     string // the file's name (no directory), as the rotation line's "from" gives it
	FirstSeq int64
	LastSeq  int64
}

// HeadFromProto is the Head of the API's AuditHead message; nil for nil.
func HeadFromProto(h *cipherdpb.AuditHead) *Head {
	if h == nil {
		return nil
	}
	head := &Head{Trail: h.GetTrail(), Seq: h.GetSeq(), Hash: h.GetHash(), Time: h.GetTime(), FirstSeq: h.GetFirstSeq(),
		FirstHash: h.GetFirstHash()}
	if h.GetAnchoredAt() != nil {
		head.AnchoredAt = h.GetAnchoredAt().AsTime()
	}
	for _, f := range h.GetFiles() {
		head.Files = append(head.Files, HeadFile{Name: f.GetName(), FirstSeq: f.GetFirstSeq(), LastSeq: f.GetLastSeq()})
	}
	return head
}

// ParseHead reads a head written as the AuditHead message in protojson (cipherctl audit verify
// --head FILE).
func ParseHead(data []byte) (*Head, error) {
	h := &cipherdpb.AuditHead{}
	if err := protojson.Unmarshal(data, h); err != nil {
		return nil, fmt.Errorf("not an AuditHead in protojson: %w", err)
	}
	return HeadFromProto(h), nil
}
