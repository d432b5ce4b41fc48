"""The four clients and the server carry one release number (docs/publishing.md, "Versions"): the Python
wheel's, the npm package's, the Maven artifacts' (with -SNAPSHOT between releases, as Maven has it), the Go
client's Version (its module tag is clients/go/v<Version>), the server's and the Helm chart's appVersion. A
release that bumps one and forgets another fails here, before anything is published; clients/set-version
writes them all, and is run here on a copy of those files."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
POM = "{http://maven.apache.org/POM/4.0.0}"
MAVEN_POMS = (
    "clients/java/pom.xml",
    "clients/java/cipherd-api/pom.xml",
    "clients/java/cipherd-client/pom.xml",
    "server/pom.xml",
)
QUICKSTART_POM = "clients/java/examples/quickstart/pom.xml"
# What set-version reads or runs besides the files it writes.
SET_VERSION_TOOLS = (
    "clients/set-version",
    ".ci/jdk-home",
    "server/mvnw",
    "server/.mvn/wrapper/maven-wrapper.properties",
)


def _pom_version(path: Path) -> str:
    root = ET.parse(path).getroot()
    version = root.find(f"{POM}version")
    if version is None:  # a module inherits its parent's
        version = root.find(f"{POM}parent/{POM}version")
    assert version is not None and version.text, f"{path} has no version"
    return version.text


def _client_dependency_version(path: Path) -> str:
    for dependency in ET.parse(path).getroot().iter(f"{POM}dependency"):
        if dependency.findtext(f"{POM}artifactId") == "cipherd-client":
            return dependency.findtext(f"{POM}version") or ""
    raise AssertionError(f"{path} does not depend on cipherd-client")


def maven_versions(root: Path) -> dict[str, str]:
    """Each POM's version as written (-SNAPSHOT included), and the quick start's dependency on the client."""
    return {
        **{pom: _pom_version(root / pom) for pom in MAVEN_POMS},
        f"{QUICKSTART_POM} (its cipherd-client)": _client_dependency_version(root / QUICKSTART_POM),
    }


def versions(root: Path) -> dict[str, str]:
    """Every place the release number is written, less Maven's -SNAPSHOT."""
    go = re.search(r'^const Version = "([^"]+)"$', (root / "clients/go/version.go").read_text(), re.M)
    chart = re.search(r'^appVersion: "([^"]+)"$', (root / "helm/cipherd/Chart.yaml").read_text(), re.M)
    assert go and chart, "clients/go/version.go or helm/cipherd/Chart.yaml lost its version line"
    lock = json.loads((root / "clients/typescript/package-lock.json").read_text())
    return {
        "clients/python/pyproject.toml": tomllib.loads((root / "clients/python/pyproject.toml").read_text())["project"][
            "version"
        ],
        "clients/typescript/package.json": json.loads((root / "clients/typescript/package.json").read_text())[
            "version"
        ],
        "clients/typescript/package-lock.json": lock["version"],
        "clients/typescript/package-lock.json (its root package)": lock["packages"][""]["version"],
        "clients/go/version.go": go.group(1),
        "helm/cipherd/Chart.yaml (appVersion)": chart.group(1),
        **{where: v.removesuffix("-SNAPSHOT") for where, v in maven_versions(root).items()},
    }


def _one_version(root: Path) -> str:
    found = versions(root)
    assert len(set(found.values())) == 1, f"the versions differ: {json.dumps(found, indent=2)}"
    return next(iter(found.values()))


def _snapshots(root: Path) -> set[bool]:
    return {v.endswith("-SNAPSHOT") for v in maven_versions(root).values()}


def test_every_client_and_the_server_carry_one_version() -> None:
    assert re.fullmatch(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)", _one_version(REPO))


def test_the_maven_poms_are_snapshots_together_or_releases_together() -> None:
    assert len(_snapshots(REPO)) == 1, json.dumps(maven_versions(REPO), indent=2)


def test_set_version_writes_every_place(tmp_path: Path) -> None:
    written = [
        "clients/python/pyproject.toml",
        "clients/typescript/package.json",
        "clients/typescript/package-lock.json",
        "clients/go/version.go",
        "helm/cipherd/Chart.yaml",
        *MAVEN_POMS,
        QUICKSTART_POM,
    ]
    for name in (*written, *SET_VERSION_TOOLS):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tmp_path / name)
    before = {name: (tmp_path / name).read_text() for name in written}
    script = str(tmp_path / "clients/set-version")

    refused = subprocess.run([script, "v1.2"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "usage" in refused.stderr
    assert {name: (tmp_path / name).read_text() for name in written} == before

    env = {**os.environ, "MAVEN_OPTS": os.environ.get("CIPHERD_JAVA_OPTS", "")}
    run = subprocess.run([script, "7.8.9-SNAPSHOT"], capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert _one_version(tmp_path) == "7.8.9"
    assert _snapshots(tmp_path) == {True}
    # Only the version lines changed: a file's other lines, and its layout, stay as they were.
    for name in written:
        old, new = before[name].splitlines(), (tmp_path / name).read_text().splitlines()
        changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
        assert changed and all("7.8.9" in b for _, b in changed), (name, changed)
