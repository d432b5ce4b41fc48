"""What the side-by-side measures: its request shapes, the plaintext, and cipherd's key names."""

import random
from dataclasses import dataclass

from ..rows import JsonRow

PAYLOAD_BYTES = 100
ENC_KEY, REWRAP_KEY = "sbs-enc", "sbs-rewrap"
# The subject-bound shapes' warm subjects: each batch seals (or opens) one item per subject, 256 distinct,
# created by the first call (the bodies' check) and in cipherd's subject-key cache from then on.
SUBJECTS_PER_BATCH = 256


@dataclass(frozen=True)
class Shape(JsonRow):
    """One kind of request, the same for every server that has it."""

    name: str
    method: str  # cipherd.v1.CryptoService method (cipherd and echo)
    items: int  # batch items or stream messages per request
    clients: int  # h2load -c
    vault_op: str | None  # Transit endpoint of Vault's counterpart; None when Vault has none
    warmup_share: float  # its weight in --sbs-warmup among the shapes a server runs
    streaming: bool = False  # one bidi stream per request, `items` length-prefixed messages in its body
    jce_ops: tuple = ()  # the JCE operations per item (JceGcmFloorBenchmark's names): its floor's crypto
    subjects: bool = False  # every item sealed under its own subject's key (issue 32); cipherd only has them
    plain: str | None = None  # for a subject-bound shape, the plain gcm shape it is measured against

    @property
    def has_vault(self) -> bool:
        return self.vault_op is not None


SHAPES = (
    Shape("encrypt", "Encrypt", 1, 50, "encrypt", 0.15, jce_ops=("encrypt",)),
    # one warm subject: what a unary call pays for its subject key, the batches' per-item costs aside
    Shape(
        "encrypt-subjects",
        "Encrypt",
        1,
        50,
        None,
        0.05,
        jce_ops=("encrypt",),
        subjects=True,
        plain="encrypt",
    ),
    Shape("encrypt-batch-256", "EncryptBatch", 256, 16, "encrypt", 0.15, jce_ops=("encrypt",)),
    # right after its plain counterpart, so every round measures the two back to back
    Shape(
        "encrypt-batch-256-subjects",
        "EncryptBatch",
        256,
        16,
        None,
        0.1,
        jce_ops=("encrypt",),
        subjects=True,
        plain="encrypt-batch-256",
    ),
    Shape("decrypt-batch-256", "DecryptBatch", 256, 16, "decrypt", 0.15, jce_ops=("decrypt",)),
    Shape(
        "decrypt-batch-256-subjects",
        "DecryptBatch",
        256,
        16,
        None,
        0.1,
        jce_ops=("decrypt",),
        subjects=True,
        plain="decrypt-batch-256",
    ),
    Shape("reencrypt-batch-256", "ReEncryptBatch", 256, 16, "rewrap", 0.15, jce_ops=("decrypt", "encrypt")),
    Shape(
        "reencrypt-stream-256", "ReEncryptStream", 256, 16, None, 0.15, streaming=True, jce_ops=("decrypt", "encrypt")
    ),
)
NAMES = tuple(s.name for s in SHAPES)


def subject_ids() -> list[str]:
    """The subject-bound shapes' warm subjects, one per batch item."""
    return [f"sbs-subject-{i}" for i in range(SUBJECTS_PER_BATCH)]


def select(text: str | None) -> tuple[Shape, ...]:
    """The shapes named by --sbs-shapes (None or "all": every one), in SHAPES' order; ValueError for an
    unknown name or an empty list."""
    if text is None or text.strip() == "all":
        return SHAPES
    asked = {n.strip() for n in text.split(",") if n.strip()}
    unknown = sorted(asked - set(NAMES))
    if unknown:
        raise ValueError(f"unknown side-by-side shape(s) {', '.join(unknown)}; choose from {', '.join(NAMES)}")
    if not asked:
        raise ValueError("--sbs-shapes names no shape")
    return tuple(s for s in SHAPES if s.name in asked)


def payload() -> bytes:
    """The same 100 bytes as the ghz campaigns' ${payload:100}."""
    return random.Random(PAYLOAD_BYTES).randbytes(PAYLOAD_BYTES)
