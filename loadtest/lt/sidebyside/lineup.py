"""Which servers the side-by-side measures (`--sbs-targets`, `--baseline-jar`) and in what order each
round: Vault and echo first, then cipherd and its baseline back to back, the pair's order swapped every
round so that neither always runs on the machine the other has just warmed. Pure: no servers."""

from .shapes import Shape

VAULT, ECHO, CIPHERD, BASELINE = "vault-transit", "echo", "cipherd", "cipherd-baseline"
ALL = (VAULT, ECHO, CIPHERD, BASELINE)  # also the order of the report's rows
ALIASES = {"vault": VAULT}  # what --sbs-targets accepts besides the names themselves


def parse(text: str | None, with_baseline: bool) -> tuple[str, ...]:
    """The servers named by --sbs-targets (None: every one, the baseline only with --baseline-jar), in
    ALL's order; ValueError for an unknown name, a baseline without its jar or a lineup without cipherd
    (whose request bodies echo gets and whose figures every ratio divides)."""
    if text is None or text.strip() == "all":
        return tuple(t for t in ALL if t != BASELINE or with_baseline)
    asked = [ALIASES.get(n.strip(), n.strip()) for n in text.split(",") if n.strip()]
    unknown = [n for n in asked if n not in ALL]
    if unknown:
        raise ValueError(
            f"unknown side-by-side target(s) {', '.join(unknown)}; choose from vault, echo, cipherd, cipherd-baseline"
        )
    if CIPHERD not in asked:
        raise ValueError(
            "--sbs-targets must include cipherd: echo gets its request bodies and every ratio is of its figures"
        )
    if BASELINE in asked and not with_baseline:
        raise ValueError("--sbs-targets names cipherd-baseline but no --baseline-jar was given")
    if with_baseline and BASELINE not in asked:
        raise ValueError("--baseline-jar was given but --sbs-targets leaves cipherd-baseline out")
    return tuple(t for t in ALL if t in asked)


def order(servers: tuple[str, ...], round_no: int) -> list[str]:
    """The servers in the order each shape measures them in round `round_no` (from 1): as listed, with
    cipherd and its baseline adjacent and last, cipherd first in odd rounds and the baseline in even ones."""
    rest = [t for t in servers if t not in (CIPHERD, BASELINE)]
    pair = [t for t in (CIPHERD, BASELINE) if t in servers]
    return rest + (pair if round_no % 2 else pair[::-1])


def for_shape(shape: Shape, servers: tuple[str, ...] = ALL[:3]) -> tuple[str, ...]:
    """The servers of `servers` that a shape runs on: Vault only where Transit has a counterpart, echo on
    every shape but the subject-bound ones (it has no subject keys; their floor is their plain twin's)."""
    return tuple(t for t in servers if (t != VAULT or shape.has_vault) and (t != ECHO or not shape.subjects))
