"""No module under lt/ imports or uses another module's _private name: what is shared is public."""

import ast
import sys
import unittest
from pathlib import Path

LT = Path(__file__).resolve().parents[1] / "lt"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _from_lt(node: ast.ImportFrom) -> bool:
    return node.level > 0 or (node.module or "").split(".")[0] == "lt"


def violations(source: str, filename: str = "<module>") -> list[str]:
    """Each place `source` imports a _name from an lt module, or reads `x._name` off something it
    imported from lt (a module or a class)."""
    tree = ast.parse(source, filename)
    found, imported = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _from_lt(node):
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{filename}:{node.lineno}: imports {alias.name} from {node.module or '.'}")
                imported.add(alias.asname or alias.name)
            if node.module and _private(node.module.split(".")[-1]):
                found.append(f"{filename}:{node.lineno}: imports from private module {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "lt":
                    imported.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):  # lt.x.y._z
                base = base.value
            if isinstance(base, ast.Name) and base.id in imported:
                found.append(f"{filename}:{node.lineno}: uses {ast.unparse(node)}")
    return found


class PrivateNamesTest(unittest.TestCase):
    def test_no_module_reaches_into_another_modules_private_names(self):
        found = []
        for path in sorted(LT.rglob("*.py")):
            found += violations(path.read_text(), str(path.relative_to(LT.parent)))
        self.assertEqual(found, [], "\n".join(found))

    def test_the_check_catches_each_kind_of_reach(self):
        cases = {
            "from .derive import _allocated\n": "imports _allocated",
            "from . import derive\nx = derive._failed_ops(1, 2)\n": "uses derive._failed_ops",
            "from ..measure import prom\nprom._LINE.match('x')\n": "uses prom._LINE",
            "import lt.measure.prom\nlt.measure.prom._LINE\n": "uses lt.measure.prom._LINE",
            "from .servers.cipherd import Cipherd\nCipherd._ready(None)\n": "uses Cipherd._ready",
        }
        for source, expected in cases.items():
            with self.subTest(source):
                self.assertTrue(any(expected in v for v in violations(source)), violations(source))

    def test_own_private_names_and_other_libraries_are_fine(self):
        source = (
            "import os\nfrom dataclasses import _FIELDS\nfrom . import prom\n"
            "def _mine():\n    return os._exit, prom.parse, self._x\n_mine()\n"
        )
        self.assertEqual(violations(source), [])


if __name__ == "__main__":
    sys.exit(unittest.main())
