"""cipherd in the side-by-side: started as for the campaigns, two gcm keys, the request messages every
gRPC server gets, and per run its /metrics before and after."""

import contextlib

from ..measure import cipherd_metrics, cpu, prom
from ..servers.cipherd import Cipherd
from . import bodies, responses
from .grpc_client import Client
from .lineup import CIPHERD
from .protos import ADMIN, SERVICE, pb
from .shapes import ENC_KEY, REWRAP_KEY, Shape, subject_ids
from .target import ServerFigures, Target, grpc_specs


def set_up_keys(client: Client, plaintext: bytes) -> tuple[str, str]:
    """Creates both keys; returns a ciphertext of `plaintext` under ENC_KEY (to decrypt) and one under
    REWRAP_KEY's v1, which is then rotated (to rewrap to v2)."""
    cs, ka, keys = pb()
    for name in (ENC_KEY, REWRAP_KEY):
        client.must(
            f"{ADMIN}/CreateKey",
            ka.CreateKeyRequest(key_name=name, mode=keys.MODE_GCM).SerializeToString(),
            ka.CreateKeyResponse,
        )
    to_decrypt, _ = client.must(f"{SERVICE}/Encrypt", bodies.encrypt(ENC_KEY, plaintext), cs.EncryptResponse)
    v1, _ = client.must(f"{SERVICE}/Encrypt", bodies.encrypt(REWRAP_KEY, plaintext), cs.EncryptResponse)
    client.must(
        f"{ADMIN}/RotateKey",
        ka.RotateKeyRequest(key_name=REWRAP_KEY, mode=keys.MODE_GCM).SerializeToString(),
        ka.RotateKeyResponse,
    )
    return to_decrypt.ciphertext, v1.ciphertext


def subject_ciphertexts(client: Client, plaintext: bytes) -> list[str]:
    """One ciphertext of `plaintext` per warm subject of the subject-bound shapes, under ENC_KEY: making them
    creates the subjects, so the shapes' first call already finds every subject's key."""
    cs = pb()[0]
    body = bodies.encrypt_batch_subjects(ENC_KEY, plaintext, subject_ids())
    resp, _ = client.must(f"{SERVICE}/EncryptBatch", body, cs.EncryptBatchResponse)
    failed = [r for r in resp.results if r.HasField("error")]
    if failed:
        raise SystemExit(f"loadtest: subject-bound EncryptBatch: {len(failed)} items failed: {failed[0].error.message}")
    return [r.ciphertext for r in resp.results]


def messages(
    plaintext: bytes, to_decrypt: str, v1: str, subject_cts: list[str] | None = None
) -> dict[str, list[bytes]]:
    """Each shape's request messages (one, or a stream's 256); the subject-bound shapes' only with their
    ciphertexts (`subject_cts`)."""
    msgs = {
        "encrypt": [bodies.encrypt(ENC_KEY, plaintext)],
        "encrypt-batch-256": [bodies.encrypt_batch(ENC_KEY, plaintext, 256)],
        "decrypt-batch-256": [bodies.decrypt_batch(to_decrypt, 256)],
        "reencrypt-batch-256": [bodies.reencrypt_batch(REWRAP_KEY, v1, 256)],
        "reencrypt-stream-256": bodies.reencrypt_stream(REWRAP_KEY, v1, 256),
    }
    if subject_cts:
        msgs["encrypt-subjects"] = [bodies.encrypt_subject(ENC_KEY, plaintext, subject_ids()[0])]
        msgs["encrypt-batch-256-subjects"] = [bodies.encrypt_batch_subjects(ENC_KEY, plaintext, subject_ids())]
        msgs["decrypt-batch-256-subjects"] = [bodies.decrypt_batch_of(subject_cts)]
    return msgs


def measures_subjects(args) -> bool:
    """Whether the side-by-side measures subject-bound data: a subject shape or the cold-subject run."""
    return any(s.subjects for s in args.sbs_shapes) or bool(args.sbs_cold_subjects)


def subject_args(args) -> list[str]:
    """cipherd's subject settings when subject-bound data is measured: no creation rate (the runner makes
    thousands of subjects at once) and the subject-key cache's size; none otherwise."""
    if not measures_subjects(args):
        return []
    return ["--subject-creation-rate=0", f"--subject-cache-size={args.sbs_subject_cache_size}"]


def server_figures(before, after, method: str) -> ServerFigures:
    """Calls per gRPC status of the method (Micrometer's interceptor), failed items, allocation."""
    delta = cipherd_metrics.calls_by_status(before, after, method)
    return ServerFigures(
        calls=sum(delta.values()),
        non_ok={k: v for k, v in delta.items() if k != "OK" and v},
        item_errors=cipherd_metrics.failed_items(before, after),
        allocated_bytes=cipherd_metrics.allocated_bytes(before, after),
    )


def start(ctx, plaintext: bytes, stack: contextlib.ExitStack, name: str = CIPHERD, jar=None) -> Target:
    """Starts cipherd from `jar` (default the build's) and checks each request body with grpcio. The
    build's cipherd makes the bodies every gRPC server gets (ctx.messages, ctx.files) and keeps its logs in
    sidebyside/; another (the baseline) gets its own keys, hence its own ciphertexts and body files, and
    keeps its logs in sidebyside/<name>/, its answers compared with the build's."""
    results = ctx.dir if name == CIPHERD else ctx.dir / name
    results.mkdir(exist_ok=True)
    extra_args = subject_args(ctx.args) + (ctx.args.server_arg if name == CIPHERD else ctx.args.baseline_server_arg)
    server = Cipherd(ctx.java, jar or ctx.jar, results, ctx.extra_jvm, ctx.args.server_log_level, extra_args)
    stack.callback(server.stop)
    server.start()
    prefix = "" if name == CIPHERD else f"{name}-"
    with Client(server.target) as client:
        to_decrypt, v1 = set_up_keys(client, plaintext)
        subject_cts = subject_ciphertexts(client, plaintext) if measures_subjects(ctx.args) else None
        msgs = messages(plaintext, to_decrypt, v1, subject_cts)
        files = {k: ctx.body_file(f"{prefix}{k}.grpc.bin", bodies.frames(v)) for k, v in msgs.items()}
        ctx.checks[name] = responses.check(client, msgs, name)
    if name == CIPHERD:
        ctx.messages, ctx.files, ctx.cipherd_address = msgs, files, server.target
    else:
        ctx.notes += differences(name, msgs, ctx.messages, ctx.checks[name], ctx.checks[CIPHERD])

    def after(before_text: str, shape: Shape) -> ServerFigures:
        after_text = prom.scrape(server.metrics_url)
        (ctx.dir / "runs" / f"{name}-{shape.name}.metrics-before.txt").write_text(before_text)
        (ctx.dir / "runs" / f"{name}-{shape.name}.metrics-after.txt").write_text(after_text)
        return server_figures(prom.parse(before_text), prom.parse(after_text), shape.method)

    return Target(
        name,
        grpc_specs(server.target, files, ctx.args),
        server.cpu_seconds,
        lambda: prom.scrape(server.metrics_url),
        after,
        server.restart,
        lambda: cpu.thread_cpu_seconds(server.process.proc.pid),
    )


def differences(name: str, msgs: dict, cipherd_msgs: dict, seen: dict, cipherd_seen: dict) -> list[str]:
    """Notes where another cipherd's request bodies (its own ciphertexts) or answers differ from the
    build's: then the two did not do quite the same work, and the report says so."""
    notes = []
    for shape, m in msgs.items():
        size, own = sum(map(len, m)), sum(map(len, cipherd_msgs[shape]))
        if size != own:
            notes.append(
                f"{name}'s `{shape}` request is {size:,} B, cipherd's {own:,} B (its ciphertexts differ in size)"
            )
        if seen[shape] != cipherd_seen[shape]:
            notes.append(
                f"{name}'s answer to `{shape}` differs from cipherd's: {name} {seen[shape]}, cipherd {cipherd_seen[shape]}"
            )
    return notes
