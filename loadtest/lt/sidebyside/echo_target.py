"""The echo ceiling in the side-by-side: the very bodies cipherd got, its answers compared with cipherd's,
and per run the calls and allocation its /stats reports."""

import contextlib

from ..measure import prom
from ..servers.echo import Echo
from . import lineup, responses
from .grpc_client import Client
from .shapes import SHAPES, Shape
from .target import ServerFigures, Target, grpc_specs


def server_figures(before, after, method: str) -> ServerFigures:
    return ServerFigures(
        calls=prom.total(after, "echo_calls_total", method=method)
        - prom.total(before, "echo_calls_total", method=method),
        allocated_bytes=prom.total(after, "echo_allocated_bytes_total")
        - prom.total(before, "echo_allocated_bytes_total"),
    )


def start(ctx, stack: contextlib.ExitStack) -> Target:
    srv = Echo(ctx.java, ctx.dir, ctx.extra_jvm)
    stack.callback(srv.stop)
    srv.start()
    # The subject-bound shapes are cipherd's alone: echo has no subject keys, and its answers stand in
    # for none of cipherd's there, so it runs every shape but those.
    subject_bound = {s.name for s in SHAPES if lineup.ECHO not in lineup.for_shape(s, (lineup.ECHO,))}
    messages = {name: m for name, m in ctx.messages.items() if name not in subject_bound}
    with Client(srv.target) as client:
        seen = responses.check(client, messages, "echo")
    ctx.checks["echo"] = seen
    for name, c in ctx.checks["cipherd"].items():
        if name in seen and seen[name] != c:
            ctx.notes.append(f"echo's answer to `{name}` differs from cipherd's: echo {seen[name]}, cipherd {c}")

    def after(before_text: str, shape: Shape) -> ServerFigures:
        return server_figures(prom.parse(before_text), prom.parse(srv.scrape()), shape.method)

    specs = {
        name: spec for name, spec in grpc_specs(srv.target, ctx.files, ctx.args).items() if name not in subject_bound
    }
    return Target("echo", specs, srv.cpu_seconds, srv.scrape, after)
