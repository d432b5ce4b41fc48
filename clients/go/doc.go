// Package cipherd is the Go client of cipherd, a key-managed encryption service over gRPC.
//
// Dial connects with functional options (TLS, mutual TLS, bearer token, deadlines, retries); the
// Client's methods return errors that match this package's sentinels with errors.Is, told apart by
// the server's ErrorInfo reason (Error.Reason), never by the message. Ciphertext headers are
// parsed locally by ParseCiphertext, without a call.
//
// # One shape for every call
//
// Every RPC is a method of Client (the streams, which need a type parameter, are functions taking
// the Client): ctx first, the required arguments, then options (CallOption, IndexOption,
// DataKeyOption, KeyOption) or, for RetireKeyVersions, an options struct. What a call returns
// follows one rule, and is always this package's own type, never a generated protobuf one:
//
//   - a call whose answer is one value returns that value as its Go type: Encrypt a string,
//     Decrypt a []byte, the key administration calls a *Key, VerifyAuditCheckpoints a []bool;
//   - a call whose answer has several values returns a pointer to a struct of this package (or of
//     its audit package): ReEncrypt a *Rewrapped, Inspect an *Inspection, ComputeIndex a
//     *BlindIndex, ReIndex a *ReIndexed, GenerateDataKey a *DataKey, GetKeyCensus a *KeyCensus,
//     RetireKeyVersions a *Retirement, AuditHead an *audit.Head, EraseSubject a *SubjectErasure,
//     GetSubject a *SubjectStatus;
//   - a batch returns []Result (EraseSubjects []SubjectErasureResult), one per item in order, each
//     with its own Err; a stream calls a
//     handler with each item's Result; a listing (ListKeys) is an iter.Seq2 of values and errors;
//   - the error is the last result; with an error, every other result is its zero value (nil for
//     a pointer), except a batch, which returns the results of the calls that completed.
//
// Enums are this package's types too (Mode, KeyState, KeyVersionState, LegacyCipher, LegacyIV,
// ErasureOutcome, SubjectState),
// whose String is the lowercase name the CLI and the docs use. The generated stubs and messages
// are in the cipherdpb package; Client.Raw gives the connection for them, outside the module's
// compatibility promise.
package cipherd
