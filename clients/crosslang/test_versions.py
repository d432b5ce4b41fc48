"""The four clients and the server carry one release number (docs/compatibility.md, "Versions"): the Python
wheel's, the npm package's, the Maven artifacts' (with -SNAPSHOT between releases, as Maven has it), the Go
client's Version (its module tag is clients/go/v<Version>) and the server's. A release that bumps one and
forgets another fails here, before anything is published."""
from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
POM = "{http://maven.apache.org/POM/4.0.0}"


def _pom_version(path: Path) -> str:
    root = ET.parse(path).getroot()
    version = root.find(f"{POM}version")
    if version is None:  # a module inherits its parent's
        version = root.find(f"{POM}parent/{POM}version")
    assert version is not None and version.text, f"{path} has no version"
    return version.text


def versions() -> dict[str, str]:
    go = re.search(r'^const Version = "([^"]+)"$', (REPO / "clients/go/version.go").read_text(), re.M)
    assert go, "clients/go/version.go declares no Version"
    return {
        "clients/python/pyproject.toml": tomllib.loads((REPO / "clients/python/pyproject.toml").read_text())
        ["project"]["version"],
        "clients/typescript/package.json": json.loads((REPO / "clients/typescript/package.json").read_text())["version"],
        "clients/typescript/package-lock.json":
            json.loads((REPO / "clients/typescript/package-lock.json").read_text())["packages"][""]["version"],
        "clients/go/version.go": go.group(1),
        **{str(p.relative_to(REPO)): _pom_version(p).removesuffix("-SNAPSHOT")
           for p in [REPO / "clients/java/pom.xml", *sorted((REPO / "clients/java").glob("*/pom.xml")),
                     REPO / "server/pom.xml"]},
    }


def test_every_client_and_the_server_carry_one_version() -> None:
    found = versions()
    assert len(found) >= 7, found
    assert len(set(found.values())) == 1, f"the versions differ: {json.dumps(found, indent=2)}"
    assert re.fullmatch(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)", next(iter(found.values()))), found


def test_the_maven_modules_are_snapshots_together_or_releases_together() -> None:
    poms = [REPO / "clients/java/pom.xml", *sorted((REPO / "clients/java").glob("*/pom.xml")), REPO / "server/pom.xml"]
    kinds = {p.relative_to(REPO).as_posix(): _pom_version(p).endswith("-SNAPSHOT") for p in poms}
    assert len(set(kinds.values())) == 1, kinds
