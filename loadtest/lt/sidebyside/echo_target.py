"""The echo ceiling in the side-by-side: the very bodies cipherd got, its answers compared with cipherd's,
and per run the calls and allocation its /stats reports."""

import contextlib

from ..measure import prom
from ..servers.echo import Echo
from . import responses
from .grpc_client import Client
from .shapes import Shape
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
    with Client(srv.target) as client:
        seen = responses.check(client, ctx.messages, "echo")
    ctx.checks["echo"] = seen
    for name, c in ctx.checks["cipherd"].items():
        if seen[name] != c:
            ctx.notes.append(f"echo's answer to `{name}` differs from cipherd's: echo {seen[name]}, cipherd {c}")

    def after(before_text: str, shape: Shape) -> ServerFigures:
        return server_figures(prom.parse(before_text), prom.parse(srv.scrape()), shape.method)

    return Target("echo", grpc_specs(srv.target, ctx.files, ctx.args), srv.cpu_seconds, srv.scrape, after)
