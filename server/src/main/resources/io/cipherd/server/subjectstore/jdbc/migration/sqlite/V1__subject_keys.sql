-- The subject store (issue 32), embedded: the PostgreSQL folder's schema with BLOB for BYTEA.
-- Times are epoch milliseconds (INTEGER, 64-bit in SQLite).
CREATE TABLE cipherd_subject_key (
  ref          BLOB        NOT NULL PRIMARY KEY,
  key_name     VARCHAR(64) NOT NULL,
  subject_hash BLOB        NOT NULL,
  wrap_version INTEGER     NULL,
  wrapped_key  TEXT        NULL,
  created_ms   BIGINT      NOT NULL,
  erased_ms    BIGINT      NULL,
  CONSTRAINT cipherd_subject_key_ref_length CHECK (length(ref) = 16),
  CONSTRAINT cipherd_subject_key_hash_length CHECK (length(subject_hash) = 32),
  CONSTRAINT cipherd_subject_key_live_or_erased CHECK (
    (erased_ms IS NULL AND wrapped_key IS NOT NULL AND wrap_version > 0)
    OR (erased_ms IS NOT NULL AND wrapped_key IS NULL AND wrap_version IS NULL))
);

CREATE UNIQUE INDEX cipherd_subject_key_live
  ON cipherd_subject_key (key_name, subject_hash) WHERE erased_ms IS NULL;

CREATE INDEX cipherd_subject_key_subject ON cipherd_subject_key (key_name, subject_hash);

CREATE INDEX cipherd_subject_key_sweep
  ON cipherd_subject_key (key_name, wrap_version, ref) WHERE erased_ms IS NULL;
