"""The side-by-side's section of report.md: one table row per server and shape ('–' where Vault has no
counterpart), who was the limit, ratios and the issue's goals."""
from ..report.fmt import num, row_flags, table
from .goals import find
from .row import SbsRow

TARGETS = ("vault-transit", "echo", "cipherd")
LABEL = {"vault-transit": "Vault Transit", "echo": "echo ceiling", "cipherd": "cipherd"}
HEADER = ["shape", "target", "clients", "req/s", "items/s", "p50 ms", "p99 ms", "max ms", "errors",
          "h2load cores", "server cores", "other cores", "alloc B/call", "alloc B/item", "note"]


def limit_line(rows: list[SbsRow]) -> str:
    """Who was the limit: the client, the server, or the machine shared with other processes."""
    others = [r.other_cores for r in rows if r.other_cores is not None]
    bound = [r.label for r in rows if r.client_bound]
    text = ("Who was the limit: CPU columns are CPU seconds ÷ wall seconds of h2load (rusage), the server "
            "(/proc/PID/stat) and everything else (/proc/stat). ")
    text += (f"h2load used ≥ 0.9 core or more than the server in {', '.join(bound)}: those rates are a floor. "
             if bound else "h2load never used more than the server nor 0.9 core: the servers were measured, not h2load. ")
    if others and sum(others) / len(others) >= 0.25:
        text += (f"**Other processes used {sum(others) / len(others):.2f} cores on average during the runs "
                 f"(max {max(others):.2f})**: every rate here is depressed by that, unevenly between servers measured "
                 "at different times; trust ratios only from a quiet machine.")
    return text


def note(r: SbsRow) -> str:
    parts = row_flags(r, "h2load-bound")
    if r.rounds:
        v = r.rounds.items_per_s
        parts.append(f"median of {r.rounds.valid} valid / {r.rounds.count} rounds ({min(v):,.0f}–{max(v):,.0f} items/s)")
        if r.rounds.invalid:
            parts.append(f"round(s) {', '.join(map(str, r.rounds.invalid))} had errors")
    return "; ".join(parts)


def table_row(r: SbsRow) -> list[str]:
    return [r.shape, LABEL[r.target], str(r.clients), num(r.rps), num(r.items_per_s), num(r.p50_ms, 2),
            num(r.p99_ms, 2), num(r.max_ms, 1), num(r.errors), num(r.h2load_cores, 2), num(r.server_cores, 2),
            num(r.other_cores, 2), num(r.alloc_per_call), num(r.alloc_per_item), note(r)]


def no_counterpart_row(shape: str, target: str) -> list[str]:
    return [shape, LABEL[target]] + ["–"] * (len(HEADER) - 3) + ["no counterpart"]


def section(sbs: dict) -> list[str]:
    """The report.md lines of the side-by-side (sbs: the section of summary.json, rows typed)."""
    rows, shapes = sbs["rows"], sbs["shapes"]
    lines = ["## Side by side (h2load): Vault Transit, echo ceiling, cipherd", ""]
    lines += [f"{sbs.get('h2load_version', 'h2load')}, `-m 1 -t 1`, {sbs['duration_s']:g} s measured after "
              f"{sbs['h2load_warmup_s']:g} s h2load warm-up per run, {sbs['warmup_s']:g} s warm-up traffic per server "
              f"before its runs; {sbs['payload_bytes']} B plaintext; grpc-java {sbs['versions'].get('grpc.version')}, "
              f"protobuf {sbs['versions'].get('protobuf.version')} (echo and cipherd). All on 127.0.0.1.", ""]
    body = []
    for s in shapes:
        for t in TARGETS:
            r = find(rows, t, s.name)
            if r is not None:
                body.append(table_row(r))
            elif t == "vault-transit" and not s.has_vault:
                body.append(no_counterpart_row(s.name, t))
    lines += [table(HEADER, body), ""]
    lines += [limit_line(rows), ""]
    cancelled = [f"{r.label} {r.cancelled_at_stop:.0f}" for r in rows if r.cancelled_at_stop]
    if cancelled:
        lines += ["Calls the server counted as CANCELLED when h2load reset its in-flight streams at the end of a run "
                  f"(at most one per client, not errors): {', '.join(cancelled)}.", ""]
    rat = sbs["ratios"]
    rlines = [[s.name, num(rat[s.name]["cipherd_vs_vault"], 2) + "×" if rat[s.name]["cipherd_vs_vault"] else "–",
               num((rat[s.name]["cipherd_vs_echo"] or 0) * 100) + " %" if rat[s.name]["cipherd_vs_echo"] else "–"]
              for s in shapes]
    lines += ["Ratios (items/s; only between valid runs):", "", table(["shape", "cipherd ÷ Vault", "cipherd ÷ ceiling"], rlines), ""]
    lines += ["### Targets (issue 4)", ""]
    for g in sbs["targets"]:
        mark = "not measured" if g.met is None else f"**{g.mark}**"
        lines.append(f"- {mark}: {g.target} — {g.figure}")
    lines += [""]
    lines += [f"- {n}" for n in sbs.get("notes", [])] + [""]
    return lines
