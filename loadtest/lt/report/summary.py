"""Reads a result folder's summary.json back with typed rows (RunFigures, SbsRow, BaselineRatio, and the
floor's JceCost, FloorRow, StreamOverhead and Goal), older results too."""

import json
from pathlib import Path

from ..campaign.figures import RunFigures
from ..sidebyside.baseline import BaselineRatio
from ..sidebyside.floor import FloorRow, StreamOverhead
from ..sidebyside.goals import Goal
from ..sidebyside.jce import JceCost
from ..sidebyside.row import SbsRow


def load_summary(d: Path) -> dict:
    """A result folder's summary.json with its rows read back as RunFigures, SbsRow and BaselineRatio."""
    path = d / "summary.json"
    if not path.exists():
        raise SystemExit(f"loadtest: {path} not found; --compare needs two result folders")
    summary = json.loads(path.read_text())
    summary["runs"] = [RunFigures.from_json(r) for r in summary.get("runs", [])]
    sbs = summary.get("side_by_side") or {}
    if sbs.get("rows"):
        sbs["rows"] = [SbsRow.from_json(r) for r in sbs["rows"]]
    if sbs.get("baseline"):
        sbs["baseline"] = [BaselineRatio.from_json(r) for r in sbs["baseline"]]
    if sbs.get("jce"):
        sbs["jce"] = JceCost.from_json(sbs["jce"])
    for key, row_type in (("floor", FloorRow), ("stream_overhead", StreamOverhead), ("floor_targets", Goal)):
        if sbs.get(key):
            sbs[key] = [row_type.from_json(r) for r in sbs[key]]
    return summary
