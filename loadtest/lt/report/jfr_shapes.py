"""Where a server's CPU went during each side-by-side shape, from its JFR recording: the execution
samples taken while that shape's runs were measured, per million items served, and where the
recording has them (JDK 25's CPU-time sampler, jdk.CPUTimeSample), the CPU each item cost by the
threads' own CPU clocks. Execution samples see only threads running Java code; CPU-time samples also
count time in native and VM code (a thread handing work to another, allocation slow paths), so their
µs per item, set beside the server's CPU per item in the report, says how much of it no Java frame
shows (GC and compiler threads, and what the kernel charges the process outside its threads).

Two jars in one sitting differ by up to a tenth in CPU per item on identical code (each JVM's JIT and
memory layout), so a change worth a few percent shows in neither items/s nor CPU seconds; the samples
under the methods it touched, per million items, do. A run's window is read from its row file: written
when the run ended (its mtime), `wall_s` long, of which h2load's warm-up (`h2load_warmup_s` in
sidebyside.json) comes first and is left out; its items are its items/s over the measured `duration_s`.
"""

import datetime
import json
import re
import subprocess
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..servers.cipherd import CPU_SAMPLE_PERIOD_MS

_TIME = re.compile(r"startTime = (\d\d):(\d\d):(\d\d)(?:\.(\d+))? \((\d{4})-(\d\d)-(\d\d)\)")
_FRAME = re.compile(r"^\s+([\w.$<>/]+)\(")
EXECUTION = "jdk.ExecutionSample"
CPU_TIME = "jdk.CPUTimeSample"
# Each CPU-time sample stands for the period the side-by-side's servers sample at. (An event's own
# samplingPeriod field is not that: it ran up to ten times it when the sampler fell behind, and summing
# it gave twice the process's CPU.)


@dataclass(frozen=True)
class Window:
    start: float  # unix seconds
    end: float

    def holds(self, t: float) -> bool:
        return self.start <= t <= self.end


@dataclass
class ShapeRuns:
    """One target's measured runs of one shape."""

    target: str
    shape: str
    windows: list[Window] = field(default_factory=list)
    items: float = 0.0
    served: float = 0.0  # items of the calls the server counted, warm-up included (as server CPU per item)
    thread_cpu_s: Counter[str] = field(default_factory=Counter)  # the server's threads', by kind


@dataclass
class Profile:
    """The samples of one target's shape: how many, over how many items, by top frame and by every
    frame on the stack."""

    runs: ShapeRuns
    samples: int = 0
    top: Counter[str] = field(default_factory=Counter)
    anywhere: Counter[str] = field(default_factory=Counter)
    cpu_samples: int = 0
    cpu_ms: float = 0.0  # CPU time the CPU-time samples stand for, CPU_SAMPLE_PERIOD_MS each
    cpu_top: Counter[str] = field(default_factory=Counter)
    cpu_stack: Counter[str] = field(default_factory=Counter)  # per wanted frame, on the stack
    cpu_own: Counter[str] = field(default_factory=Counter)  # per wanted frame, its own code or thread
    cpu_own_any: float = 0.0  # any wanted frame's own code or thread

    def per_million(self, count: int) -> float:
        return count * 1e6 / self.runs.items if self.runs.items else float("nan")

    def cpu_us_per_item(self, ms: float) -> float:
        return ms * 1e3 / self.runs.items if self.runs.items else float("nan")


def shape_runs(results: Path) -> list[ShapeRuns]:
    """The measured windows of each target's shapes, from `results`/sidebyside/runs/*.row.json and the
    sitting's settings in sidebyside.json."""
    side = results / "sidebyside"
    settings = json.loads((side / "sidebyside.json").read_text())
    warm_up, measured = float(settings["h2load_warmup_s"]), float(settings["duration_s"])
    found: dict[tuple[str, str], ShapeRuns] = {}
    for row_file in sorted((side / "runs").glob("*.row.json")):
        row = json.loads(row_file.read_text())
        if not row.get("valid", True) or not row.get("wall_s"):
            continue
        end = row_file.stat().st_mtime
        runs = found.setdefault((row["target"], row["shape"]), ShapeRuns(row["target"], row["shape"]))
        runs.windows.append(Window(end - row["wall_s"] + warm_up, end))
        runs.items += row["items_per_s"] * measured
        if row.get("server_thread_cpu_s") and row.get("server_calls"):
            runs.served += row["server_calls"] * row["items_per_call"]
            runs.thread_cpu_s.update(row["server_thread_cpu_s"])
    return list(found.values())


def samples(jfr_print: str) -> Iterator[tuple[str, float, list[str]]]:
    """(event type, unix time, frames from the top) of each jdk.ExecutionSample and jdk.CPUTimeSample
    in `jfr print` output printed with TZ=UTC."""
    kind: str | None = None
    when: float | None = None
    frames: list[str] = []
    in_stack = False
    for line in jfr_print.splitlines():
        if line.startswith((EXECUTION, CPU_TIME)):
            if kind is not None and when is not None:
                yield kind, when, frames
            kind = EXECUTION if line.startswith(EXECUTION) else CPU_TIME
            when, frames, in_stack = None, [], False
        elif (m := _TIME.search(line)) is not None:
            h, mi, s, frac, y, mo, d = m.groups()
            stamp = datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), tzinfo=datetime.UTC)
            when = stamp.timestamp() + (int(frac) / 10 ** len(frac) if frac else 0.0)
        elif "stackTrace = [" in line:
            in_stack = True
        elif in_stack and line.strip() == "]":
            in_stack = False
        elif in_stack and (f := _FRAME.match(line)) is not None:
            frames.append(f.group(1))
    if kind is not None and when is not None:
        yield kind, when, frames


_JDK = ("java.", "jdk.", "sun.", "com.sun.")


def own_frames(frames: list[str]) -> tuple[str, str]:
    """The innermost and the outermost frame outside the JDK: the code a sample's CPU went to (the JDK
    methods it called are its cost too) and the thread's own entry point."""
    mine = [f for f in frames if not f.startswith(_JDK)]
    return (mine[0], mine[-1]) if mine else ("", "")


def profiles(
    sampled: Iterable[tuple[str, float, list[str]]], runs: list[ShapeRuns], wanted: list[str] = ()
) -> list[Profile]:
    """Each of `runs` with the samples taken in its windows (one recording: one target's runs); for
    each of `wanted`, the CPU time on the stack and in its own code or thread (`own_frames`)."""
    out = [Profile(r) for r in runs]
    period = CPU_SAMPLE_PERIOD_MS
    for kind, when, frames in sampled:
        for p in out:
            if any(w.holds(when) for w in p.runs.windows):
                if kind == CPU_TIME:
                    p.cpu_samples += 1
                    p.cpu_ms += period
                    if frames:
                        p.cpu_top[frames[0]] += period
                    inner, entry = own_frames(frames)
                    owned = False
                    for w in wanted:
                        if any(w in f for f in frames):
                            p.cpu_stack[w] += period
                        if w in inner or w in entry:
                            p.cpu_own[w] += period
                            owned = True
                    if owned:
                        p.cpu_own_any += period
                else:
                    p.samples += 1
                    if frames:
                        p.top[frames[0]] += 1
                    p.anywhere.update(set(frames))
                break
    return out


def recordings(results: Path, target: str) -> list[Path]:
    """Where the side-by-side kept `target`'s recordings: cipherd.jfr, then one per restart
    (cipherd-2.jfr, … with --sbs-fresh-servers), in the order they were made."""
    side = results / "sidebyside"
    folder = side if target == "cipherd" else side / target
    later = sorted(folder.glob("cipherd-*.jfr"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [p for p in [folder / "cipherd.jfr", *later] if p.is_file()]


def read_samples(jfr_tool: Path, jfr_file: Path) -> str:
    """`jfr print` of the execution and CPU-time samples, whole stacks, times in UTC."""
    return subprocess.run(
        [str(jfr_tool), "print", "--stack-depth", "256", "--events", f"{EXECUTION},{CPU_TIME}", str(jfr_file)],
        check=True,
        capture_output=True,
        text=True,
        env={"TZ": "UTC", "PATH": "/usr/bin:/bin"},
    ).stdout


def render(found: list[Profile], frames: list[str], top: int) -> str:
    """Per target and shape: samples per million items, then those of each frame in `frames` (a
    substring of a method's name, counted wherever on the stack), then the `top` methods most often
    on top of the stack; from the CPU-time samples, each frame's ns per item on the stack and in its
    own code or thread, and all of theirs together as a share of the CPU; where the runs' rows have
    them, the server's threads' CPU per item by kind, from /proc."""
    lines = []
    for p in sorted(found, key=lambda p: (p.runs.shape, p.runs.target)):
        r = p.runs
        lines.append(
            f"{r.target} {r.shape}: {p.samples} samples in {len(r.windows)} runs, "
            f"{r.items / 1e6:.1f} M items, {p.per_million(p.samples):.1f} per M items"
        )
        for wanted in frames:
            count = max((c for name, c in p.anywhere.items() if wanted in name), default=0)
            lines.append(f"  {p.per_million(count):7.1f}  {wanted} (on the stack)")
        for name, count in p.top.most_common(top):
            lines.append(f"  {p.per_million(count):7.1f}  {name} (on top)")
        if p.cpu_samples:
            lines.append(
                f"  CPU-time samples: {p.cpu_samples}, {p.cpu_us_per_item(p.cpu_ms):.3f} µs of CPU per item "
                "(set beside the report's server CPU per item: the rest no Java thread's clock counted)"
            )
            for wanted in frames:
                lines.append(
                    f"  {p.cpu_us_per_item(p.cpu_own[wanted]) * 1e3:7.1f}  ns per item: {wanted} in its own "
                    f"code or thread, {p.cpu_us_per_item(p.cpu_stack[wanted]) * 1e3:.1f} on the stack (CPU time)"
                )
            if frames:
                lines.append(
                    f"  {p.cpu_us_per_item(p.cpu_own_any) * 1e3:7.1f}  ns per item, "
                    f"{100 * p.cpu_own_any / p.cpu_ms:.1f} % of the CPU-time samples: any of them in its own "
                    "code or thread (CPU time)"
                )
            for name, ms in p.cpu_top.most_common(top):
                lines.append(f"  {p.cpu_us_per_item(ms) * 1e3:7.1f}  ns per item: {name} (on top, CPU time)")
        if r.served:
            lines.append(
                f"  threads' CPU by /proc: {sum(r.thread_cpu_s.values()) * 1e6 / r.served:.3f} µs per item "
                "(the runs' CPU seconds over the items served, warm-up included, as the report's server CPU per item)"
            )
            for kind, secs in r.thread_cpu_s.most_common(top):
                lines.append(f"  {secs * 1e9 / r.served:7.1f}  ns per item: {kind} threads")
    return "\n".join(lines)


def report(results: Path, jfr_tool: Path, frames: list[str], top: int = 12) -> str:
    """`render` of every target's shapes in the side-by-side of `results`."""
    runs = shape_runs(results)
    wanted = [f for f in frames if f]
    found: list[Profile] = []
    for target in sorted({r.target for r in runs}):
        jfr_files = recordings(results, target)
        if not jfr_files:
            continue
        mine = [r for r in runs if r.target == target]
        text = "".join(read_samples(jfr_tool, f) for f in jfr_files)
        found += profiles(samples(text), mine, wanted)
    if not found:
        return f"loadtest: no side-by-side runs with a recording in {results}"
    return render(found, wanted, top)
