"""The h2load side-by-side (issue 4): Vault Transit, the bare grpc-java echo ceiling and cipherd, in one
run, with the same client, payload, concurrency and (for echo and cipherd) the very same request bodies.
The three servers are started here and warmed up, then measured shape by shape, the three back to back,
and all stopped on the way out (an ExitStack). Writes <out>/sidebyside/ and returns the section for summary.json."""
import contextlib
import json
import random
import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import bodies, cpu, echo, h2load, prom, sbs_report, vault_transit
from .server import Server

PAYLOAD_BYTES = 100
SHAPES = [
    {"name": "encrypt", "method": "Encrypt", "items": 1, "clients": 50, "vault_op": "encrypt"},
    {"name": "encrypt-batch-256", "method": "EncryptBatch", "items": 256, "clients": 16, "vault_op": "encrypt"},
    {"name": "reencrypt-batch-256", "method": "ReEncryptBatch", "items": 256, "clients": 16, "vault_op": "rewrap"},
]
ENC_KEY, REWRAP_KEY = "sbs-enc", "sbs-rewrap"
WARMUP_SHARE = {"encrypt": 0.5, "encrypt-batch-256": 0.25, "reencrypt-batch-256": 0.25}


def payload() -> bytes:
    """The same 100 bytes as the ghz campaigns' ${payload:100}."""
    return random.Random(PAYLOAD_BYTES).randbytes(PAYLOAD_BYTES)


class Context:
    def __init__(self, args, out: Path, java: Path, jar: Path, extra_jvm: list[str], cores: int):
        self.args, self.java, self.jar, self.extra_jvm, self.cores = args, java, jar, extra_jvm, cores
        self.dir = out / "sidebyside"
        (self.dir / "runs").mkdir(parents=True, exist_ok=True)
        (self.dir / "bodies").mkdir(exist_ok=True)
        self.h2load = h2load.install()
        self.rows, self.notes, self.checks = [], [], {}
        self.messages, self.files = {}, {}      # cipherd's request messages and framed body files, per shape

    def body_file(self, name: str, data: bytes) -> Path:
        p = self.dir / "bodies" / name
        p.write_bytes(data)
        return p


@dataclass
class Target:
    """A started server: its h2load specs per shape, its CPU time, and its own figures around a run."""
    name: str
    specs: dict
    cpu_seconds: Callable[[], float]
    before: Callable[[], object]
    after: Callable[[object, dict], dict]


def _grpc_specs(ctx, target: str) -> dict:
    """The same framed body files (made from cipherd's setup) for echo and cipherd."""
    return {s["name"]: h2load.Spec(f"http://{target}/{bodies.SERVICE}/{s['method']}", ctx.files[s["name"]],
                                   s["clients"], ctx.args.sbs_duration, ctx.args.sbs_h2load_warmup,
                                   h2load.GRPC_HEADERS) for s in SHAPES}


def _measure(ctx, t: Target, shape: dict, rnd: int) -> None:
    """One measured h2load run: CPU around it, the server's own figures from t.before() / t.after()."""
    name = f"{t.name}-{shape['name']}" + (f"-r{rnd}" if ctx.args.sbs_rounds > 1 else "")
    rdir = ctx.dir / "runs"
    b = t.before()
    cpu0, sys0 = t.cpu_seconds(), cpu.busy_seconds()
    h2 = h2load.run(ctx.h2load, t.specs[shape["name"]], rdir / f"{name}.log", rdir / f"{name}.out.txt")
    cpu1, sys1 = t.cpu_seconds(), cpu.busy_seconds()
    server = t.after(b, shape)
    durations, statuses = h2load.read_log(rdir / f"{name}.log")
    row = sbs_report.row_figures(t.name, shape, h2, h2load.latency(durations), statuses, cpu1 - cpu0,
                                 sys1 - sys0, ctx.cores, server)
    row["round"] = rnd
    row["command"] = shlex.join(h2load.redact(h2load.command("h2load", t.specs[shape["name"]], Path(f"{name}.log"))))
    (rdir / f"{name}.row.json").write_text(json.dumps(row, indent=1))
    (rdir / f"{name}.log").unlink(missing_ok=True)     # large; its percentiles are in the row
    flag = "" if row["valid"] else f"  ERRORS: {row['problem']}"
    print(f"loadtest: sbs {name:34s} {row['rps']:10.0f} req/s {row['items_per_s']:12.0f} items/s  "
          f"p99 {row.get('p99_ms') or 0:7.2f} ms  h2load {row['h2load_cores']:.2f} / server "
          f"{row['server_cores']:.2f} cores{flag}", flush=True)
    ctx.rows.append(row)
    time.sleep(0.5)


def _warm(ctx, t: Target) -> None:
    specs = t.specs
    w = ctx.args.sbs_warmup
    for shape in SHAPES:
        secs = w * WARMUP_SHARE[shape["name"]]
        if secs <= 0:
            continue
        s = specs[shape["name"]]
        spec = h2load.Spec(s.url, s.body, s.clients, secs, 0.5, s.headers, s.h1)
        out = ctx.dir / "runs" / "warmup.out.txt"
        h2 = h2load.run(ctx.h2load, spec, Path("/dev/null"), out)
        if not (h2.get("requests") or {}).get("succeeded"):
            raise SystemExit(f"loadtest: warm-up of {s.url} failed: {out.read_text()[-300:].strip()}")


# ---- cipherd -------------------------------------------------------------------------------------

def _cipherd_setup(client, plaintext) -> str:
    cs, ka, keys = bodies.pb()
    for name in (ENC_KEY, REWRAP_KEY):
        client.must(f"{bodies.ADMIN}/CreateKey", ka.CreateKeyRequest(key_name=name, mode=keys.MODE_GCM)
                    .SerializeToString(), ka.CreateKeyResponse)
    resp, _ = client.must(f"{bodies.SERVICE}/Encrypt", bodies.encrypt(REWRAP_KEY, plaintext), cs.EncryptResponse)
    client.must(f"{bodies.ADMIN}/RotateKey", ka.RotateKeyRequest(key_name=REWRAP_KEY, mode=keys.MODE_GCM)
                .SerializeToString(), ka.RotateKeyResponse)
    return resp.ciphertext


def _shape_of(method: str, resp) -> dict:
    """What a response looks like, ciphertext bytes aside: the figures echo must match."""
    if method == "Encrypt":
        return {"ciphertext_len": len(resp.ciphertext), "key_version": resp.key_version}
    res = list(resp.results)
    return {"results": len(res), "references_echoed": [r.reference for r in res] == [str(i) for i in range(len(res))],
            "ciphertext_lens": sorted({len(r.ciphertext) for r in res}),
            "errors": sum(1 for r in res if r.HasField("error")),
            "key_versions": sorted({r.key_version for r in res}),
            "source_versions": sorted({getattr(r, "source_key_version", 0) for r in res})}


def _check_bodies(client, messages: dict, who: str) -> dict:
    """Sends each exact body once with grpcio; returns {shape: (shape-of-response, response bytes)}."""
    cs = bodies.pb()[0]
    types = {"Encrypt": cs.EncryptResponse, "EncryptBatch": cs.EncryptBatchResponse,
             "ReEncryptBatch": cs.ReEncryptBatchResponse}
    seen = {}
    for shape in SHAPES:
        m = shape["method"]
        resp, size = client.must(f"{bodies.SERVICE}/{m}", messages[shape["name"]], types[m])
        got = _shape_of(m, resp)
        if m != "Encrypt" and (got["results"] != shape["items"] or got["errors"]):
            raise SystemExit(f"loadtest: {who} {m}: {got['results']} results, {got['errors']} item errors")
        seen[shape["name"]] = {"shape": got, "response_bytes": size}
    return seen


def _cipherd_up(ctx, plaintext, stack) -> Target:
    server = Server(ctx.java, ctx.jar, ctx.dir, ctx.extra_jvm, ctx.args.server_log_level)
    stack.callback(server.stop)
    server.start()
    client = bodies.Client(server.target)
    v1 = _cipherd_setup(client, plaintext)
    ctx.messages = {"encrypt": bodies.encrypt(ENC_KEY, plaintext),
                    "encrypt-batch-256": bodies.encrypt_batch(ENC_KEY, plaintext, 256),
                    "reencrypt-batch-256": bodies.reencrypt_batch(REWRAP_KEY, v1, 256)}
    ctx.files = {k: ctx.body_file(f"{k}.grpc.bin", bodies.frame(v)) for k, v in ctx.messages.items()}
    ctx.checks["cipherd"] = _check_bodies(client, ctx.messages, "cipherd")
    client.close()

    def after(before_text, shape):
        after_text = prom.scrape(server.metrics_url)
        (ctx.dir / "runs" / f"cipherd-{shape['name']}.metrics-before.txt").write_text(before_text)
        (ctx.dir / "runs" / f"cipherd-{shape['name']}.metrics-after.txt").write_text(after_text)
        return cipherd_server_figures(prom.parse(before_text), prom.parse(after_text), shape["method"])
    return Target("cipherd", _grpc_specs(ctx, server.target), server.cpu_seconds,
                  lambda: prom.scrape(server.metrics_url), after)


def cipherd_server_figures(before, after, method: str) -> dict:
    """Calls per gRPC status of the method (Micrometer's interceptor), failed items, allocation."""
    from . import derive

    def by_status(samples):
        out = {}
        for n, ls, v in samples:
            if n == "grpc_server_processing_duration_seconds_count" and ls.get("method") == method:
                out[ls.get("statusCode", "?")] = out.get(ls.get("statusCode", "?"), 0.0) + v
        return out
    b, a = by_status(before), by_status(after)
    delta = {k: a.get(k, 0.0) - b.get(k, 0.0) for k in set(a) | set(b)}
    return {"calls": sum(delta.values()),
            "non_ok": {k: v for k, v in delta.items() if k != "OK" and v},
            "item_errors": derive._failed_ops(before, after),
            "allocated_bytes": derive._allocated(before, after)}


# ---- echo ----------------------------------------------------------------------------------------

def _echo_up(ctx, stack) -> Target:
    srv = echo.Echo(ctx.java, ctx.dir, ctx.extra_jvm)
    stack.callback(srv.stop)
    srv.start()
    client = bodies.Client(srv.target)
    seen = _check_bodies(client, ctx.messages, "echo")
    client.close()
    ctx.checks["echo"] = seen
    for name, c in ctx.checks["cipherd"].items():
        if seen[name] != c:
            ctx.notes.append(f"echo's answer to `{name}` differs from cipherd's: echo {seen[name]}, cipherd {c}")

    def after(before_text, shape):
        return echo_server_figures(prom.parse(before_text), prom.parse(srv.scrape()), shape["method"])
    return Target("echo", _grpc_specs(ctx, srv.target), srv.cpu_seconds, srv.scrape, after)


def echo_server_figures(before, after, method: str) -> dict:
    return {"calls": prom.total(after, "echo_calls_total", method=method)
            - prom.total(before, "echo_calls_total", method=method),
            "non_ok": {}, "item_errors": 0,
            "allocated_bytes": prom.total(after, "echo_allocated_bytes_total")
            - prom.total(before, "echo_allocated_bytes_total")}


# ---- Vault Transit -------------------------------------------------------------------------------

def _vault_up(ctx, plaintext, stack) -> Target:
    vault = vault_transit.Vault(vault_transit.install(), ctx.dir)
    stack.callback(vault.stop)
    vault.start()
    v1 = vault.api("POST", f"/v1/transit/encrypt/{vault_transit.KEY}",
                   bodies.vault_encrypt(plaintext))["data"]["ciphertext"]
    vault.rotate()
    payloads = {"encrypt": bodies.vault_encrypt(plaintext),
                "encrypt-batch-256": bodies.vault_encrypt_batch(plaintext, 256),
                "reencrypt-batch-256": bodies.vault_rewrap_batch(v1, 256)}
    files = {k: ctx.body_file(f"{k}.vault.json", v) for k, v in payloads.items()}
    checks = {}
    for shape in SHAPES:
        reply = vault.api("POST", f"/v1/transit/{shape['vault_op']}/{vault_transit.KEY}", payloads[shape["name"]])
        if shape["items"] == 1:
            ok = str((reply.get("data") or {}).get("ciphertext", "")).startswith("vault:v2:")
            problems = [] if ok else ["no vault:v2 ciphertext in the reply"]
        else:
            problems = vault_transit.batch_problems(reply, shape["items"])
        if problems:
            raise SystemExit(f"loadtest: Vault {shape['name']}: {'; '.join(problems)}")
        checks[shape["name"]] = {"reply_bytes": len(json.dumps(reply))}
    ctx.checks["vault-transit"] = checks
    specs = {s["name"]: h2load.Spec(vault.url(s["vault_op"]), files[s["name"]], s["clients"],
                                    ctx.args.sbs_duration, ctx.args.sbs_h2load_warmup, vault.headers(), h1=True)
             for s in SHAPES}
    return Target("vault-transit", specs, vault.cpu_seconds, lambda: None,
                  lambda _b, _s: {"calls": None, "non_ok": {}, "item_errors": 0, "allocated_bytes": None})


# ---- the whole -----------------------------------------------------------------------------------

def run(args, out: Path, java: Path, jar: Path, extra_jvm: list[str], cores: int) -> dict:
    start = time.monotonic()
    ctx = Context(args, out, java, jar, extra_jvm, cores)
    versions = echo.build(java.parent.parent)
    version = subprocess.run([ctx.h2load, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    plaintext = payload()
    print(f"loadtest: side-by-side with {version}, {args.sbs_duration:g} s per run", flush=True)
    with contextlib.ExitStack() as stack:           # every server is stopped, whatever happens
        # cipherd is set up first: its request bodies (and v1 ciphertexts) are the ones echo gets too
        cipherd = _cipherd_up(ctx, plaintext, stack)
        targets = [_vault_up(ctx, plaintext, stack), _echo_up(ctx, stack), cipherd]
        for t in targets:
            _warm(ctx, t)
        print(f"loadtest: side-by-side servers up and warm after {time.monotonic() - start:.0f} s", flush=True)
        # shape by shape, the three back to back: what else runs on the machine drifts less between them;
        # with --sbs-rounds N all of it N times, and the report takes each one's median round
        for rnd in range(1, ctx.args.sbs_rounds + 1):
            for shape in SHAPES:
                for t in targets:
                    _measure(ctx, t, shape, rnd)
    ctx.notes += [
        "Vault Transit has no gRPC: it gets `h2load --h1` (HTTP/1.1 keep-alive, one request per connection at a "
        "time) with JSON bodies; ReEncryptBatch's counterpart is `/v1/transit/rewrap` with `batch_input`.",
        "h2load sees HTTP status only. Each body was sent once with grpcio (status OK, 256 results, no item "
        "errors), and per run cipherd's `grpc_server_processing_duration_seconds_count` per `statusCode` and "
        "`cipherd_crypto_operations_total` outcomes were read before and after; echo's calls are counted by the "
        "service itself. Vault's replies were checked with urllib (no per-item `error`).",
        "Order: the three servers run side by side (idle when not measured), warmed up, then per shape Vault, "
        "echo and cipherd back to back.",
        "p50/p99 are from h2load's `--log-file` (the measured phase only). Allocation per call includes the "
        "run's h2load warm-up calls on both sides of the division; echo's is `getTotalThreadAllocatedBytes` "
        "(every thread, JFR's own included), cipherd's Micrometer's young-generation count plus eden; close, not "
        "identical measures. Echo's is the floor the gRPC stack costs with these shapes.",
    ]
    shapes = [s["name"] for s in SHAPES]
    rows = sbs_report.median_rounds(ctx.rows)
    section = {"duration_s": args.sbs_duration, "h2load_warmup_s": args.sbs_h2load_warmup,
               "warmup_s": args.sbs_warmup, "payload_bytes": PAYLOAD_BYTES, "h2load_version": version,
               "versions": versions, "shapes": SHAPES, "rounds": args.sbs_rounds, "rows": rows,
               "all_rounds": ctx.rows if args.sbs_rounds > 1 else [], "checks": ctx.checks,
               "ratios": sbs_report.ratios(rows, shapes), "targets": sbs_report.check_targets(rows),
               "notes": ctx.notes, "elapsed_s": time.monotonic() - start}
    (ctx.dir / "sidebyside.json").write_text(json.dumps(section, indent=2, default=str))
    return section
