"""Reads a result folder's summary.json back with typed rows (RunFigures, SbsRow, BaselineRatio), older
results too."""
import json
from pathlib import Path

from ..campaign.figures import RunFigures
from ..sidebyside.baseline import BaselineRatio
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
    return summary
