"""The side-by-side's figures per run, ratios, the issue's targets (met / missed) and its report.md section.
Pure functions of recorded data: no servers, no h2load."""
from .fmt import num, table

TARGETS = ("vault-transit", "echo", "cipherd")
LABEL = {"vault-transit": "Vault Transit", "echo": "echo ceiling", "cipherd": "cipherd"}
CLIENT_BOUND_SHARE = 0.9


def row_figures(target: str, shape: dict, h2: dict, lat: dict, log_statuses: dict, server_cpu_s: float,
                system_busy_s: float, cores: int, server: dict) -> dict:
    """One run's row. server: {"calls", "non_ok" (status -> count), "item_errors", "allocated_bytes"}, any
    of them None where the target cannot tell (Vault)."""
    items = shape["items"]
    wall = h2.get("client", {}).get("wall_s") or 0.0
    req = h2.get("requests") or {}
    status = h2.get("status") or {}
    rps = h2.get("rps", 0.0)
    client_cores = h2.get("client", {}).get("cpu_s", 0.0) / wall if wall else 0.0
    server_cores = server_cpu_s / wall if wall else 0.0
    calls = server.get("calls")
    alloc = server.get("allocated_bytes")
    non_ok = dict(server.get("non_ok") or {})
    # h2load resets the streams still in flight when its duration ends: at most one per client, which
    # the server counts as CANCELLED. Those are not errors; more would be.
    cancelled = non_ok.get("CANCELLED", 0)
    if 0 < cancelled <= shape["clients"]:
        del non_ok["CANCELLED"]
    row = {
        "tool": "h2load", "target": target, "shape": shape["name"], "method": shape["method"],
        "items_per_call": items, "clients": shape["clients"],
        "rps": rps, "items_per_s": rps * items, "requests": req, "http_status": status,
        "log_statuses": log_statuses, "mean_ms": (h2.get("time_ms") or {}).get("mean"), **lat,
        "h2load_failed": req.get("failed", 0) + req.get("errored", 0) + req.get("timeout", 0),
        "http_non_2xx": sum(v for k, v in status.items() if k != "2xx"),
        "server_calls": calls, "server_non_ok": non_ok,
        "cancelled_at_stop": cancelled if "CANCELLED" not in non_ok else 0,
        "item_errors": server.get("item_errors") or 0,
        "allocated_bytes": alloc,
        "alloc_per_call": alloc / calls if alloc is not None and calls else None,
        "alloc_per_item": alloc / (calls * items) if alloc is not None and calls else None,
        "h2load_cpu_s": h2.get("client", {}).get("cpu_s", 0.0), "server_cpu_s": server_cpu_s,
        "h2load_cores": client_cores, "server_cores": server_cores,
        "other_cores": max(0.0, system_busy_s / wall - client_cores - server_cores) if wall and system_busy_s else None,
        "wall_s": wall,
    }
    problems = []
    if h2.get("client", {}).get("killed"):
        problems.append("h2load killed at its time limit")
    if not req.get("succeeded"):
        problems.append("no request succeeded")
    if row["h2load_failed"]:
        problems.append(f"h2load: {req.get('failed', 0)} failed, {req.get('errored', 0)} errored, "
                        f"{req.get('timeout', 0)} timeout")
    if row["http_non_2xx"]:
        problems.append(f"{row['http_non_2xx']} non-2xx HTTP replies")
    if row["server_non_ok"]:
        problems.append("server counted gRPC statuses " + ", ".join(f"{k}={v:.0f}" for k, v in row["server_non_ok"].items()))
    if row["item_errors"]:
        problems.append(f"{row['item_errors']:.0f} failed batch items")
    if calls is not None and req.get("succeeded") and calls < req["succeeded"]:
        problems.append(f"server answered {calls:.0f} calls, fewer than h2load's {req['succeeded']} successes")
    row["valid"] = not problems
    if problems:
        row["problem"] = "; ".join(problems)
    row["client_bound"] = client_cores >= CLIENT_BOUND_SHARE or client_cores >= server_cores
    busy = system_busy_s / wall if wall and system_busy_s else client_cores + server_cores
    row["box_saturated"] = busy >= 0.9 * cores
    return row


def median_rounds(rows: list[dict]) -> list[dict]:
    """One row per (target, shape): with several rounds, the valid round of median items/s (the lower
    middle one for an even count), marked with the rounds' spread; an invalid round is listed and, when
    no round is valid, the first one stands (invalid) for its pair."""
    groups = {}
    for r in rows:
        groups.setdefault((r["target"], r["shape"]), []).append(r)
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        valid = sorted((r for r in group if r.get("valid")), key=lambda r: r["items_per_s"])
        pick = dict(valid[(len(valid) - 1) // 2] if valid else group[0])
        pick["rounds"] = {"count": len(group), "valid": len(valid),
                          "items_per_s": [r["items_per_s"] for r in group],
                          "invalid": [r.get("round") for r in group if not r.get("valid")]}
        out.append(pick)
    return out


def _find(rows, target, shape):
    return next((r for r in rows if r["target"] == target and r["shape"] == shape), None)


def _ratio(a, b, key="items_per_s"):
    if not a or not b or not a.get("valid") or not b.get("valid") or not b.get(key):
        return None
    return a[key] / b[key]


def ratios(rows: list[dict], shapes: list[str]) -> dict:
    out = {}
    for s in shapes:
        c = _find(rows, "cipherd", s)
        out[s] = {"cipherd_vs_vault": _ratio(c, _find(rows, "vault-transit", s)),
                  "cipherd_vs_echo": _ratio(c, _find(rows, "echo", s))}
    return out


def _target(name, value, limit, cmp, fmt):
    if value is None:
        return {"target": name, "figure": "not measured (missing or invalid run)", "met": None}
    met = value >= limit if cmp == ">=" else value < limit if cmp == "<" else value <= limit
    return {"target": name, "figure": fmt(value), "met": met}


def check_targets(rows: list[dict]) -> list[dict]:
    """The issue's targets, each met / missed with the figure, or None when its run is missing or invalid."""
    r = ratios(rows, ["encrypt", "encrypt-batch-256", "reencrypt-batch-256"])

    def valid(target, shape, key):
        row = _find(rows, target, shape)
        return row.get(key) if row and row.get("valid") else None

    x = lambda v: f"{v:.2f}×"                       # noqa: E731
    pct = lambda v: f"{v * 100:.0f} %"              # noqa: E731
    ms = lambda v: f"{v:.2f} ms"                    # noqa: E731
    per_s = lambda v: f"{v:,.0f} items/s"           # noqa: E731
    size = lambda v: f"{v:,.0f} B"                  # noqa: E731
    return [
        _target("unary Encrypt ≥ 3× Vault Transit unary", r["encrypt"]["cipherd_vs_vault"], 3.0, ">=", x),
        _target("unary Encrypt ≥ 70 % of the echo ceiling", r["encrypt"]["cipherd_vs_echo"], 0.7, ">=", pct),
        _target("unary Encrypt p99 < 10 ms at 50 concurrent", valid("cipherd", "encrypt", "p99_ms"), 10.0, "<", ms),
        _target("EncryptBatch-256 ≥ 1,000,000 items/s", valid("cipherd", "encrypt-batch-256", "items_per_s"),
                1e6, ">=", per_s),
        _target("EncryptBatch-256 ≥ 4× Vault Transit batched", r["encrypt-batch-256"]["cipherd_vs_vault"], 4.0, ">=", x),
        _target("ReEncryptBatch-256 ≥ 500,000 items/s", valid("cipherd", "reencrypt-batch-256", "items_per_s"),
                5e5, ">=", per_s),
        _target("allocation ≤ 2 KiB per unary Encrypt", valid("cipherd", "encrypt", "alloc_per_call"), 2048, "<=", size),
        _target("allocation ≤ 300 B per EncryptBatch item", valid("cipherd", "encrypt-batch-256", "alloc_per_item"),
                300, "<=", size),
    ]


def limit_line(rows: list[dict]) -> str:
    """Who was the limit: the client, the server, or the machine shared with other processes."""
    others = [r["other_cores"] for r in rows if r.get("other_cores") is not None]
    bound = [f"{r['target']}-{r['shape']}" for r in rows if r.get("client_bound")]
    text = ("Who was the limit: CPU columns are CPU seconds ÷ wall seconds of h2load (rusage), the server "
            "(/proc/PID/stat) and everything else (/proc/stat). ")
    text += (f"h2load used ≥ 0.9 core or more than the server in {', '.join(bound)}: those rates are a floor. "
             if bound else "h2load never used more than the server nor 0.9 core: the servers were measured, not h2load. ")
    if others and sum(others) / len(others) >= 0.25:
        text += (f"**Other processes used {sum(others) / len(others):.2f} cores on average during the runs "
                 f"(max {max(others):.2f})**: every rate here is depressed by that, unevenly between servers measured "
                 "at different times; trust ratios only from a quiet machine.")
    return text


def note(r: dict) -> str:
    parts = []
    if not r.get("valid"):
        parts.append(f"**ERRORS, does not count** ({r.get('problem', '')})")
    if r.get("client_bound"):
        parts.append("h2load-bound")
    if r.get("box_saturated"):
        parts.append("box saturated")
    rounds = r.get("rounds")
    if rounds:
        v = rounds["items_per_s"]
        parts.append(f"median of {rounds['valid']} valid / {rounds['count']} rounds ({min(v):,.0f}–{max(v):,.0f} items/s)")
        if rounds["invalid"]:
            parts.append(f"round(s) {', '.join(map(str, rounds['invalid']))} had errors")
    return "; ".join(parts)


HEADER = ["shape", "target", "clients", "req/s", "items/s", "p50 ms", "p99 ms", "max ms", "errors",
          "h2load cores", "server cores", "other cores", "alloc B/call", "alloc B/item", "note"]


def _errors(r):
    return num(r["h2load_failed"] + r["http_non_2xx"] + sum(r["server_non_ok"].values()) + r["item_errors"])


def section(sbs: dict) -> list[str]:
    """The report.md lines of the side-by-side."""
    rows, shapes = sbs["rows"], [s["name"] for s in sbs["shapes"]]
    lines = ["## Side by side (h2load): Vault Transit, echo ceiling, cipherd", ""]
    lines += [f"{sbs.get('h2load_version', 'h2load')}, `-m 1 -t 1`, {sbs['duration_s']:g} s measured after "
              f"{sbs['h2load_warmup_s']:g} s h2load warm-up per run, {sbs['warmup_s']:g} s warm-up traffic per server "
              f"before its runs; {sbs['payload_bytes']} B plaintext; grpc-java {sbs['versions'].get('grpc.version')}, "
              f"protobuf {sbs['versions'].get('protobuf.version')} (echo and cipherd). All on 127.0.0.1.", ""]
    body = []
    for s in shapes:
        for t in TARGETS:
            r = _find(rows, t, s)
            if r is None:
                continue
            body.append([s, LABEL[t], str(r["clients"]), num(r["rps"]), num(r["items_per_s"]), num(r.get("p50_ms"), 2),
                         num(r.get("p99_ms"), 2), num(r.get("max_ms"), 1), _errors(r), num(r["h2load_cores"], 2),
                         num(r["server_cores"], 2), num(r.get("other_cores"), 2), num(r["alloc_per_call"]),
                         num(r["alloc_per_item"]), note(r)])
    lines += [table(HEADER, body), ""]
    lines += [limit_line(rows), ""]
    cancelled = [f"{r['target']}-{r['shape']} {r['cancelled_at_stop']:.0f}" for r in rows if r.get("cancelled_at_stop")]
    if cancelled:
        lines += ["Calls the server counted as CANCELLED when h2load reset its in-flight streams at the end of a run "
                  f"(at most one per client, not errors): {', '.join(cancelled)}.", ""]
    rat = sbs["ratios"]
    rlines = [[s, num(rat[s]["cipherd_vs_vault"], 2) + "×" if rat[s]["cipherd_vs_vault"] else "–",
               num((rat[s]["cipherd_vs_echo"] or 0) * 100) + " %" if rat[s]["cipherd_vs_echo"] else "–"]
              for s in shapes]
    lines += ["Ratios (items/s; only between valid runs):", "", table(["shape", "cipherd ÷ Vault", "cipherd ÷ ceiling"], rlines), ""]
    lines += ["### Targets (issue 4)", ""]
    for t in sbs["targets"]:
        mark = "not measured" if t["met"] is None else "**met**" if t["met"] else "**missed**"
        lines.append(f"- {mark}: {t['target']} — {t['figure']}")
    lines += [""]
    lines += [f"- {n}" for n in sbs.get("notes", [])] + [""]
    return lines
