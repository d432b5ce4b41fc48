"""A cipherd that is already running somewhere (a container, a Kubernetes Service, a remote node), for
campaigns against a deployment (--target): nothing is started or stopped, figures come from its own
/metrics (--metrics-url). Its process CPU comes from the same scrape (process_cpu_time_ns_total), so a
server on another host is measured by its own account, not by this host's."""

import urllib.error
import urllib.request

from ..measure import prom


def split_target(target: str) -> tuple[str, int]:
    """HOST:PORT (an IPv6 host in brackets) -> (host, port); raises ValueError with the reason."""
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--target {target!r}: expected HOST:PORT")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise ValueError(f"--target {target!r}: put an IPv6 address in brackets, [ADDR]:PORT")
    return host, int(port)


def check_metrics_url(url: str) -> None:
    if not url.startswith(("http://", "https://")) or "/" not in url.split("://", 1)[1]:
        raise ValueError(f"--metrics-url {url!r}: expected http(s)://HOST:PORT/metrics")


def cpu_seconds_from(samples) -> float | None:
    """The server's process CPU time by its own metrics, or None when it does not export it."""
    ns = [v for n, _, v in samples if n == "process_cpu_time_ns_total"]
    if ns:
        return ns[0] / 1e9
    s = [v for n, _, v in samples if n == "process_cpu_seconds_total"]
    return s[0] if s else None


class RemoteCipherd:
    """The same surface as servers.cipherd.Cipherd, for a server this runner does not own."""

    jvm_flags: list[str] = []  # unknown: the deployment's own

    def __init__(self, target: str, metrics_url: str, label: str):
        split_target(target)
        check_metrics_url(metrics_url)
        self._target, self._metrics_url, self.label = target, metrics_url, label

    @property
    def target(self) -> str:
        return self._target

    @property
    def metrics_url(self) -> str:
        return self._metrics_url

    def start(self, timeout: float = 10.0) -> None:
        """Only checks that its /metrics answers with cipherd's metrics: the server is not ours to start."""
        try:
            text = prom.scrape(self._metrics_url, timeout)
        except (OSError, urllib.error.URLError) as e:
            raise SystemExit(f"loadtest: --metrics-url {self._metrics_url} does not answer: {e}") from None
        if "grpc_server" not in text and "cipherd_" not in text:
            raise SystemExit(f"loadtest: --metrics-url {self._metrics_url} does not look like cipherd's /metrics")

    def cpu_seconds(self) -> float:
        """From its /metrics; 0 when it exports no process CPU (server_cores then reads 0)."""
        return cpu_seconds_from(prom.parse(prom.scrape(self._metrics_url))) or 0.0

    def stop(self, grace: float = 0.0) -> None:
        """Leaves it running."""
