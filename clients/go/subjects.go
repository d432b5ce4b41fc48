package cipherd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// ErasureOutcome says what erasing a subject did.
type ErasureOutcome int32

// The outcomes of EraseSubject and EraseSubjects.
const (
	ErasureOutcomeUnspecified = ErasureOutcome(cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_UNSPECIFIED)
	// Erased: this call erased the subject's key; the erasure carries a receipt.
	Erased = ErasureOutcome(cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_ERASED)
	// AlreadyErased: an earlier call erased it; EraseTime is that call's.
	AlreadyErased = ErasureOutcome(cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED)
	// NoSubjectKey: the subject never had a key under the key name: nothing of it is encrypted there.
	NoSubjectKey = ErasureOutcome(cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_NO_KEY)
)

// String is the outcome in lower case: "erased", "already_erased", "no_key" ("unspecified").
func (o ErasureOutcome) String() string {
	return strings.ToLower(strings.TrimPrefix(cipherdpb.SubjectErasureOutcome(o).String(), "SUBJECT_ERASURE_OUTCOME_"))
}

// SubjectErasure is the outcome of erasing one subject.
type SubjectErasure struct {
	Outcome   ErasureOutcome
	EraseTime time.Time // zero for NoSubjectKey
	// Receipt proves the erasure against the audit trail; set for Erased on a server with a trail.
	Receipt *ErasureReceipt
}

// ErasureReceipt names the audit record of an erasure, so that it can be checked later against
// the trail (cipherctl subjects verify-receipt). It names the subject by the audit key's hash only.
// Its JSON form is the one cipherctl subjects erase writes, a line per receipt.
type ErasureReceipt struct {
	KeyName string `json:"key_name"`
	// SubjectHash is the audit key's hash of the subject id (lowercase hex), as HashAuditValue
	// gives it and as the audit record names the subject.
	SubjectHash string    `json:"subject_hash"`
	EraseTime   time.Time `json:"erase_time"`
	Trail       string    `json:"trail"`
	AuditSeq    uint64    `json:"audit_seq"`
	RecordHash  string    `json:"record_hash"` // the record's chain hash (lowercase hex)
}

// SubjectItem is one subject of EraseSubjects. Formatting it with fmt never shows Subject.
type SubjectItem struct {
	Reference string // the caller's label, echoed in its result
	Subject   string
}

// Format prints the item's reference, never its subject, whatever the verb.
func (it SubjectItem) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "SubjectItem{%q, subject redacted}", it.Reference)
}

// SubjectErasureResult is one item's outcome of EraseSubjects: an Erasure, or Err (an *Error, as
// for a single call; the subject is then as it was).
type SubjectErasureResult struct {
	Reference string
	Erasure   *SubjectErasure
	Err       error
}

// SubjectState is a subject's state under a key.
type SubjectState int32

// The subject states.
const (
	SubjectStateUnspecified = SubjectState(cipherdpb.SubjectState_SUBJECT_STATE_UNSPECIFIED)
	// SubjectActive: the subject has a key; its data decrypts.
	SubjectActive = SubjectState(cipherdpb.SubjectState_SUBJECT_STATE_ACTIVE)
	// SubjectErased: the subject's key was erased; its data never decrypts again.
	SubjectErased = SubjectState(cipherdpb.SubjectState_SUBJECT_STATE_ERASED)
	// SubjectNoKey: the subject never had a key under the key name.
	SubjectNoKey = SubjectState(cipherdpb.SubjectState_SUBJECT_STATE_NO_KEY)
)

// String is the state in lower case: "active", "erased", "no_key" ("unspecified").
func (s SubjectState) String() string {
	return strings.ToLower(strings.TrimPrefix(cipherdpb.SubjectState(s).String(), "SUBJECT_STATE_"))
}

// SubjectStatus is what GetSubject says of a subject under a key. It does not hold the subject.
type SubjectStatus struct {
	State      SubjectState
	CreateTime time.Time // when its (current, or erased) key was made; zero for SubjectNoKey
	EraseTime  time.Time // set for SubjectErased
	KeyVersion int32     // the version that wraps its key now; 0 unless SubjectActive
}

// EraseSubject erases subject under keyName: every ciphertext sealed WithSubject(subject) under
// keyName then fails to decrypt with ErrSubjectErased, and everyone else's data is untouched. It
// needs the erase operation on the key, which admin does not imply. Erasing a subject that was
// erased, or never had a key, is not an error: the outcome says which.
func (c *Client) EraseSubject(ctx context.Context, keyName, subject string) (*SubjectErasure, error) {
	resp, err := c.subjects.EraseSubject(ctx, &cipherdpb.EraseSubjectRequest{KeyName: keyName, Subject: subject})
	if err != nil {
		return nil, err
	}
	return erasureFromProto(resp.GetErasure()), nil
}

// EraseSubjects erases every item's subject under keyName, in calls of up to 1000 items (thousands
// of ids in one go); one result per item, in order. An item that fails fails alone (its Err); a
// call that fails returns the results of the calls before it and the error, so the items after
// the last result are the ones to retry.
func (c *Client) EraseSubjects(ctx context.Context, keyName string, items []SubjectItem) ([]SubjectErasureResult, error) {
	return inChunks(items, func(chunk []SubjectItem) ([]SubjectErasureResult, error) {
		req := &cipherdpb.EraseSubjectsRequest{KeyName: keyName, Items: make([]*cipherdpb.EraseSubjectsItem, len(chunk))}
		for i, it := range chunk {
			req.Items[i] = &cipherdpb.EraseSubjectsItem{Reference: it.Reference, Subject: it.Subject}
		}
		resp, err := c.subjects.EraseSubjects(ctx, req)
		if err != nil {
			return nil, err
		}
		results := make([]SubjectErasureResult, len(resp.GetResults()))
		for i, r := range resp.GetResults() {
			results[i] = SubjectErasureResult{Reference: r.GetReference()}
			if e := r.GetError(); e != nil {
				results[i].Err = fromItem(e)
			} else {
				results[i].Erasure = erasureFromProto(r.GetErasure())
			}
		}
		return results, nil
	})
}

// GetSubject says whether subject has a key under keyName, and whether it was erased. It needs the
// erase operation on the key.
func (c *Client) GetSubject(ctx context.Context, keyName, subject string) (*SubjectStatus, error) {
	resp, err := c.subjects.GetSubject(ctx, &cipherdpb.GetSubjectRequest{KeyName: keyName, Subject: subject})
	if err != nil {
		return nil, err
	}
	return &SubjectStatus{State: SubjectState(resp.GetState()), CreateTime: timeOf(resp.GetCreateTime()),
		EraseTime: timeOf(resp.GetEraseTime()), KeyVersion: resp.GetKeyVersion()}, nil
}

// ErasedAt is when the subject of an ErrSubjectErased error was erased, from the error's metadata;
// false for any other error, an item's error (it carries no metadata), or a time that does not parse.
func ErasedAt(err error) (time.Time, bool) {
	var e *Error
	if !errors.As(err, &e) || e.ReasonValue() != cipherdpb.ErrorReason_SUBJECT_ERASED || e.Metadata["erase_time"] == "" {
		return time.Time{}, false
	}
	t, parseErr := time.Parse(time.RFC3339Nano, e.Metadata["erase_time"])
	return t, parseErr == nil
}

func erasureFromProto(e *cipherdpb.SubjectErasure) *SubjectErasure {
	out := &SubjectErasure{Outcome: ErasureOutcome(e.GetOutcome()), EraseTime: timeOf(e.GetEraseTime())}
	if r := e.GetReceipt(); r != nil {
		out.Receipt = &ErasureReceipt{KeyName: r.GetKeyName(), SubjectHash: r.GetSubjectHash(), EraseTime: timeOf(r.GetEraseTime()),
			Trail: r.GetTrail(), AuditSeq: r.GetAuditSeq(), RecordHash: r.GetRecordHash()}
	}
	return out
}
