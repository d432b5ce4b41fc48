"""The wheel and sdist a team depends on: `python -m build` of the files git tracks in clients/python (the
sdist first, then the wheel built from the unpacked sdist), their contents and metadata, `twine check`, and
the wheel installed into a fresh venv outside the checkout, where a program with no source path on sys.path
passes `mypy --strict` against it and makes real calls to the jar."""

from __future__ import annotations

import email.parser
import email.policy
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from server import RunningServer

PACKAGE = Path(__file__).resolve().parents[1]
REPO = PACKAGE.parents[1]
PYPROJECT = tomllib.loads((PACKAGE / "pyproject.toml").read_text())
VERSION: str = PYPROJECT["project"]["version"]
TIMEOUT_S = 600


@dataclass(frozen=True)
class Dist:
    wheel: Path
    sdist: Path
    build_log: str


def _tracked(under: Path) -> list[Path]:
    """The files git tracks (or would track) under `under`, relative to it: what a checkout of a tag has."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "."],
            cwd=under,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    return [Path(name) for name in listed if name and (under / name).exists()]


def _run(
    command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=cwd, env=env)
    assert run.returncode == 0, f"{' '.join(command)} failed:\n{run.stdout}\n{run.stderr}"
    return run


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """Built from a copy of the tracked files (LICENSE, a link to the repository's, copied as its text), so the
    build writes nothing into the checkout and sees no stray file of a working tree."""
    tmp = tmp_path_factory.mktemp("dist")
    source = tmp / "cipherd-python"
    for name in _tracked(PACKAGE):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / name, source / name)
    # --no-isolation: the setuptools pinned in requirements-dev.txt, not one downloaded per build.
    build = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp / "out"), str(source)])
    wheels, sdists = list((tmp / "out").glob("*.whl")), list((tmp / "out").glob("*.tar.gz"))
    assert [w.name for w in wheels] == [f"cipherd-{VERSION}-py3-none-any.whl"]
    assert [s.name for s in sdists] == [f"cipherd-{VERSION}.tar.gz"]
    return Dist(wheels[0], sdists[0], build.stdout + build.stderr)


def _sources() -> set[str]:
    """The modules, stubs and marker of the package as the checkout has them, generated cipherd/v1 included."""
    src = PACKAGE / "src"
    return {
        str(Path("cipherd") / p)
        for p in _tracked(src / "cipherd")
        if p.suffix in (".py", ".pyi") or p.name == "py.typed"
    }


def _metadata(text: str) -> Message:
    return email.parser.Parser(policy=email.policy.compat32).parsestr(text)


def test_the_wheel_is_built_from_the_sdist(dist: Dist) -> None:
    assert "Building wheel from sdist" in dist.build_log, dist.build_log[-2000:]


def test_the_wheel_holds_every_module_the_generated_code_and_py_typed(dist: Dist) -> None:
    with zipfile.ZipFile(dist.wheel) as wheel:
        names = set(wheel.namelist())
        licence = wheel.read(f"cipherd-{VERSION}.dist-info/licenses/LICENSE")
    modules = {n for n in names if n.startswith("cipherd/")}
    expected = _sources()
    assert {
        "cipherd/py.typed",
        "cipherd/v1/crypto_service_pb2.py",
        "cipherd/v1/crypto_service_pb2_grpc.pyi",
        "cipherd/v1/error_reason_pb2.py",
    } <= expected
    assert modules == expected, (
        f"missing from the wheel: {sorted(expected - modules)}; not in the source: {sorted(modules - expected)}"
    )
    assert licence == (REPO / "LICENSE").read_bytes()


def test_the_wheel_metadata_says_what_pip_and_an_index_need(dist: Dist) -> None:
    with zipfile.ZipFile(dist.wheel) as wheel:
        meta = _metadata(wheel.read(f"cipherd-{VERSION}.dist-info/METADATA").decode())
    assert (meta["Name"], meta["Version"]) == ("cipherd", VERSION)
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta["Requires-Python"] == ">=3.11"
    assert "Typing :: Typed" in meta.get_all("Classifier", [])
    assert any(url.startswith("Source, https://") for url in meta.get_all("Project-URL", []))
    requires = meta.get_all("Requires-Dist", [])
    assert {r.split("<")[0].split(">")[0].split("=")[0] for r in requires} == {
        "grpcio",
        "protobuf",
        "grpcio-status",
        "googleapis-common-protos",
        "cryptography",
    }
    assert all(">=" in r for r in requires), f"a dependency without a lower bound: {requires}"
    assert str(meta.get_payload()).startswith("# cipherd Python client")  # the README, as the index shows it


def test_the_sdist_holds_the_generated_code_py_typed_licence_and_readme_and_no_tests(dist: Dist) -> None:
    root = f"cipherd-{VERSION}"
    with tarfile.open(dist.sdist) as sdist:
        names = {m.name.removeprefix(root + "/") for m in sdist.getmembers() if m.isfile()}
        licence = sdist.extractfile(f"{root}/LICENSE")
        assert licence is not None
        licence_text = licence.read()
    assert {"PKG-INFO", "pyproject.toml", "README.md", "LICENSE"} <= names
    missing = {f"src/{n}" for n in _sources()} - names
    assert not missing, f"missing from the sdist: {sorted(missing)}"
    assert not {n for n in names if n.startswith("tests/")}, "the sdist ships half a test suite"
    assert licence_text == (REPO / "LICENSE").read_bytes()


def test_twine_accepts_both(dist: Dist) -> None:
    run = _run([sys.executable, "-m", "twine", "check", "--strict", str(dist.wheel), str(dist.sdist)])
    assert run.stdout.count("PASSED") == 2, run.stdout


@pytest.fixture(scope="module")
def installed(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv outside the checkout with the wheel installed by pip, its dependencies resolved from the
    wheel's metadata (pinned to the versions the tests run with, requirements-dev.txt, as constraints)."""
    venv = tmp_path_factory.mktemp("consumer") / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    _run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-c",
            str(PACKAGE / "requirements-dev.txt"),
            str(dist.wheel),
        ]
    )
    yield venv


CONSUMER = """\
import importlib.metadata
import sys
from pathlib import Path

import cipherd
from cipherd.v1 import error_reason_pb2

checkout, target = sys.argv[1], sys.argv[2]
assert not [p for p in sys.path if p and Path(p).resolve().is_relative_to(checkout)], sys.path
assert Path(cipherd.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), cipherd.__file__

with cipherd.Client(target) as c:
    ciphertext = c.encrypt("demo", b"from the wheel", context=b"row-1")
    assert c.decrypt(ciphertext, context=b"row-1") == b"from the wheel"
    try:
        c.decrypt(ciphertext, context=b"row-2")
        raise AssertionError("a wrong context decrypted")
    except cipherd.DecryptionFailedError as e:
        reason = e.reason
assert reason == error_reason_pb2.ErrorReason.Name(error_reason_pb2.DECRYPTION_FAILED), reason
header = cipherd.parse_ciphertext(ciphertext)
print(f"cipherd {importlib.metadata.version('cipherd')}: {header.key_name}, {reason}")
"""


def test_a_program_outside_the_checkout_uses_the_installed_wheel(
    installed: Path, plain_server: RunningServer, tmp_path: Path
) -> None:
    program = tmp_path / "consumer.py"
    program.write_text(CONSUMER)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    # py.typed shipped: mypy --strict reads the installed package's types (an untyped one fails the import).
    _run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--python-executable",
            str(installed / "bin" / "python"),
            str(program),
        ],
        cwd=tmp_path,
        env=env,
    )
    run = _run([str(installed / "bin" / "python"), str(program), str(REPO), plain_server.target], cwd=tmp_path, env=env)
    assert run.stdout.strip() == f"cipherd {VERSION}: demo, DECRYPTION_FAILED"
