-- The subject store (issue 32): one row per subject key, kept as a tombstone (no key) once erased.
-- PostgreSQL 15+. CockroachDB and YugabyteDB accept this file as it is (BYTEA, partial indexes,
-- length() of bytes); the SQLite folder differs only in BLOB for BYTEA.
-- Times are epoch milliseconds (BIGINT): one representation on every database.
CREATE TABLE cipherd_subject_key (
  ref          BYTEA       NOT NULL PRIMARY KEY,
  key_name     VARCHAR(64) NOT NULL,
  subject_hash BYTEA       NOT NULL,
  wrap_version INTEGER     NULL,
  wrapped_key  TEXT        NULL,
  created_ms   BIGINT      NOT NULL,
  erased_ms    BIGINT      NULL,
  CONSTRAINT cipherd_subject_key_ref_length CHECK (length(ref) = 16),
  CONSTRAINT cipherd_subject_key_hash_length CHECK (length(subject_hash) = 32),
  -- A live row has its wrapped key and version; a tombstone has neither.
  CONSTRAINT cipherd_subject_key_live_or_erased CHECK (
    (erased_ms IS NULL AND wrapped_key IS NOT NULL AND wrap_version > 0)
    OR (erased_ms IS NOT NULL AND wrapped_key IS NULL AND wrap_version IS NULL))
);

-- One live key per subject and named key: what two replicas creating one subject at once meet.
CREATE UNIQUE INDEX cipherd_subject_key_live
  ON cipherd_subject_key (key_name, subject_hash) WHERE erased_ms IS NULL;

-- find(): a subject's tombstones too, so an erased subject reads as erased, not as unknown.
CREATE INDEX cipherd_subject_key_subject ON cipherd_subject_key (key_name, subject_hash);

-- The sweep (live rows below a version, in ref order) and the census (live rows per version).
CREATE INDEX cipherd_subject_key_sweep
  ON cipherd_subject_key (key_name, wrap_version, ref) WHERE erased_ms IS NULL;
