"""No import cycle in lt/: neither between two modules nor between two of its parts (a subpackage such as
lt.report, or a top-level module such as lt.rows). Python runs a package-level loop happily as long as
no two modules need each other while loading, which is why a test has to look for it. Imports inside
functions count: a loop deferred to call time is still a loop."""

import ast
import unittest
from pathlib import Path

LT = Path(__file__).resolve().parents[1] / "lt"


def module_name(path: Path, root: Path = LT) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(name: str, root: Path) -> bool:
    return (root.parent / Path(*name.split(".")) / "__init__.py").is_file()


def exists(name: str, root: Path) -> bool:
    return is_package(name, root) or (root.parent / Path(*name.split("."))).with_suffix(".py").is_file()


def imports(path: Path, root: Path = LT) -> set[str]:
    """The lt modules that the module at `path` imports, anywhere in it."""
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == root.name}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").split(".")[0] == root.name:
                target = node.module
            else:
                continue
            # `from pkg import name` imports pkg.name when that is a module, and pkg itself either way.
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names if exists(f"{target}.{a.name}", root)}
    return {m for m in found if exists(m, root)} - {here}


def module_graph(root: Path = LT) -> dict[str, set[str]]:
    return {module_name(p, root): imports(p, root) for p in sorted(root.rglob("*.py"))}


def part(module: str) -> str:
    """The part of lt a module belongs to: lt.report.markdown -> lt.report, lt.rows -> lt.rows."""
    return ".".join(module.split(".")[:2])


def part_graph(modules: dict[str, set[str]]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, targets in modules.items():
        graph.setdefault(part(module), set()).update(part(t) for t in targets if part(t) != part(module))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path that comes back to its start) through each node that is on one."""
    found, seen = [], set()
    for start in sorted(graph):
        stack = [(start, [start])]
        visited = set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    loop = path + [start]
                    if frozenset(loop) not in seen:
                        seen.add(frozenset(loop))
                        found.append(loop)
                elif nxt not in visited:
                    visited.add(nxt)
                    stack.append((nxt, path + [nxt]))
    return found


class ImportGraphTest(unittest.TestCase):
    def test_no_module_imports_itself_through_others(self):
        self.assertEqual(cycles(module_graph()), [])

    def test_no_two_parts_of_lt_import_each_other(self):
        self.assertEqual(cycles(part_graph(module_graph())), [])

    def test_graph_sees_relative_and_package_imports(self):
        # Without this the two tests above would pass on a graph that found no imports at all.
        graph = module_graph()
        self.assertIn("lt.tables", graph["lt.report.markdown"])
        self.assertIn("lt.sidebyside.report", graph["lt.report.markdown"])  # from ..sidebyside import report
        self.assertIn("lt.tools", graph["lt.sidebyside.h2load"])  # from .. import tools
        self.assertIn("lt.report.markdown", graph["lt.cli"])  # an import inside a function

    def test_a_package_loop_is_found(self):
        graph = part_graph({"lt.a.x": {"lt.b.y"}, "lt.b.y": set(), "lt.b.z": {"lt.a.w"}, "lt.a.w": set()})
        self.assertEqual(cycles(graph), [["lt.a", "lt.b", "lt.a"]])

    def test_a_module_loop_is_found(self):
        self.assertEqual(cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}), [["a", "b", "c", "a"]])


if __name__ == "__main__":
    unittest.main()
