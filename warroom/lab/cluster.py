"""A sweep's tasks on a Ray cluster (`--ray HOST:PORT`, the head's address): joined once, the tasks kept a few
per CPU in flight, and the head watched while no task finishes, so that a head killed or paused stops the run
plainly within `GRACE` seconds instead of Ray ending the process a minute later with a message of its own.

The head is asked at the wire: its GCS is a gRPC server, which answers an HTTP/2 greeting with its settings at
once. A process that is gone refuses the connection; one that is paused accepts it (the kernel does) but says
nothing. Ray itself is imported only here, and only when a run names a cluster.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from warroom.lab.errors import LabRunError, LabStopped

T = TypeVar("T")
Notice = Callable[[str], None]
"""Called with a line for the person running the sweep (the cluster has no CPUs, say): the run goes on."""

POLL = 1.0
"""Seconds a sweep on Ray waits for a task before it looks at the cluster's health, and the time a probe of the
head is given."""
GRACE = 10.0
"""Seconds a Ray head may go unanswering before the sweep stops: well within the minute after which Ray ends a
driver whose head is gone."""
GREETING = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""HTTP/2's client preface and an empty SETTINGS frame: what a gRPC client says first."""

_joined: list[str] = []
"""The address this process joined Ray at (`join`), while it is joined there."""


def head_of(address: str) -> tuple[str, int]:
    """The host and port of a head's address (HOST:PORT, [IPv6]:PORT), or `LabRunError` saying what to give."""
    if address.startswith("ray://"):
        raise LabRunError(f"--ray {address!r}: give the head's HOST:PORT (the GCS port, 6379 unless `ray start "
                          "--head --port` said otherwise); Ray Client's ray:// addresses are not supported")
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or not 1 <= int(port) <= 65535 or not host:
        raise LabRunError(f"--ray {address!r}: give the cluster's head as HOST:PORT with a port from 1 to 65535 "
                          "(e.g. 10.0.0.5:6379)")
    return host.removeprefix("[").removesuffix("]"), int(port)


def greet(address: str, timeout: float) -> bytes:
    """The first bytes the head's port says back to an HTTP/2 greeting (a gRPC server: a SETTINGS frame);
    `OSError` if nothing listens there or nothing is said within `timeout` seconds (a paused process)."""
    with socket.create_connection(head_of(address), timeout=timeout) as conn:
        conn.settimeout(timeout)
        conn.sendall(GREETING)
        got = conn.recv(9)
    if not got:
        raise ConnectionResetError("the connection was closed without a word")
    return got


def reachable(address: str, timeout: float = 5.0) -> None:
    """Raise `LabRunError` unless something that could be a Ray head answers at `address`."""
    head_of(address)
    try:
        said = greet(address, timeout)
    except OSError as exc:
        why = f"no answer in {timeout:g} s" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise LabRunError(f"no Ray cluster answers at {address} ({why}): start one with `ray start --head`, or "
                          "check the address") from exc
    settings = len(said) > 3 and said[3] == 4  # an HTTP/2 SETTINGS frame: how a gRPC server begins
    tls = said[0] in (0x15, 0x16)  # a TLS record: a cluster with Ray's TLS on, which Ray itself may join
    if not settings and not tls:
        what = "a web server" if said.startswith((b"HTTP/", b"<")) else "something that is not a gRPC server"
        raise LabRunError(f"{address} is {what}, not a Ray head: give the head's GCS port (6379 unless `ray start "
                          "--head --port` said otherwise), not the dashboard's or another service's")


def token_hint() -> str:
    """Why a cluster that wants a token did not get one from this run, and what to set (never the token)."""
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return ("refused this run's token: give the cluster's own (`ray get-auth-token` on the head prints it) in "
                "RAY_AUTH_TOKEN, or in the file RAY_AUTH_TOKEN_PATH names, or in ~/.ray/auth_token")
    has = (os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
           or (Path.home() / ".ray" / "auth_token").exists())
    if has:
        return ("wants a token (Ray's token authentication), and this run has one but does not send it: set "
                "RAY_AUTH_MODE=token (Ray sends a token to an address it is given only then)")
    return ("wants a token (Ray's token authentication) and this run gives none: set RAY_AUTH_MODE=token and the "
            "cluster's token (`ray get-auth-token` on the head prints it) in RAY_AUTH_TOKEN or ~/.ray/auth_token")


def join(address: str, timeout: float = 60.0) -> Any:
    """Ray, joined to the cluster whose head is at `address` (at once if this process already is), or
    `LabRunError` naming why not: nothing answering there, no Ray cluster answering within `timeout` seconds
    (another version of Ray, say), or a cluster that wants a token this run does not give. What Ray writes to the
    standard error meanwhile (a line a second while it retries) is kept back and read for the reason; a refused
    token is said as soon as Ray reports it."""
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise LabRunError("--ray needs Ray: pip install 'warroom[ray]'") from exc
    reachable(address)
    if ray.is_initialized() and _joined == [address]:
        return ray
    if ray.is_initialized():
        ray.shutdown()  # joined elsewhere (a local instance): this sweep goes where it was sent
    _joined.clear()
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token" and not (
            os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
            or (Path.home() / ".ray" / "auth_token").exists()):
        raise LabRunError(f"the Ray cluster at {address} cannot be joined: RAY_AUTH_MODE=token, but this machine "
                          "has no token: put the cluster's (`ray get-auth-token` on the head prints it) in "
                          "RAY_AUTH_TOKEN or ~/.ray/auth_token")
    failed: list[BaseException] = []

    def attempt() -> None:
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=False, logging_level=logging.ERROR)
        except BaseException as exc:  # handed to the caller
            failed.append(exc)
    with tempfile.TemporaryFile() as said:
        sys.stderr.flush()
        stderr = os.dup(2)
        os.dup2(said.fileno(), 2)
        refused = False
        try:
            thread = threading.Thread(target=attempt, daemon=True)  # ray.init has no time limit of its own
            thread.start()
            deadline = time.monotonic() + timeout
            while thread.is_alive() and time.monotonic() < deadline and not refused:
                thread.join(0.25)
                said.seek(0)
                text = said.read().decode(errors="replace")
                refused = "Unauthenticated" in text or "InvalidAuthToken" in text
        finally:
            sys.stderr.flush()
            os.dup2(stderr, 2)
            os.close(stderr)
        said.seek(0)
        text = said.read().decode(errors="replace")
    if not thread.is_alive() and not failed:
        _joined.append(address)
        return ray
    if refused or "Unauthenticated" in text or "InvalidAuthToken" in text:
        raise LabRunError(f"the Ray cluster at {address} {token_hint()}")
    why = f"{type(failed[0]).__name__}: {failed[0]}" if failed else f"no answer in {timeout:g} s"
    raise LabRunError(f"{address} does not answer as a Ray cluster ({why}): check the address "
                      "(the head's, as `ray start --head` printed it) and that Ray is the same version there")


class Head:
    """The health of a sweep's Ray cluster, looked at while no task finishes: its head answering at its address,
    and CPUs in the cluster for the tasks (an autoscaled cluster may have none until it adds a node, so that is
    said, not a stop)."""

    def __init__(self, address: str, ray: Any = None, notice: Notice | None = None) -> None:
        self.address = address
        self.ray = ray
        self.notice = notice
        self.alive = True
        self.silent: float | None = None  # when the head stopped answering, if it has
        self.idle: float | None = None  # when the cluster was first seen with no CPUs, if it was
        self.told = False

    def answering(self) -> bool:
        try:
            greet(self.address, POLL)
        except OSError:
            return False
        return True

    def check(self) -> None:
        now = time.monotonic()
        if not self.answering():
            if self.silent is None:
                self.silent = now
            if now - self.silent < GRACE:
                return
            self.alive = False
            raise LabStopped(f"the Ray cluster's head at {self.address} stopped answering (for {GRACE:g} s): start the "
                             "cluster again")
        self.silent = None
        if self.ray is None or self.notice is None or self.told:
            return
        if self.ray.cluster_resources().get("CPU", 0) > 0:
            self.idle = None
        elif self.idle is None:
            self.idle = now
        elif now - self.idle >= GRACE:
            self.told = True
            self.notice(f"the Ray cluster at {self.address} has no CPUs: the tasks wait for a node to join (start "
                        "one with `ray start --address`, or wait for the autoscaler); Ctrl-C stops the run")


def on_ray(todo: Sequence[T], play: Callable[..., Any], args: Callable[[T], tuple[Any, ...]],
           name: Callable[[T], str], address: str, notice: Notice | None = None) -> Iterator[tuple[T, Any]]:
    """`play(*args(t))` for each task `t` as it finishes, each a Ray task on the cluster at `address`, a few per
    CPU in flight. A `LabRunError` a task raised is raised as it was; `LabStopped` when a task is lost for good (Ray
    tries one again on another node first) or the head goes, `name(t)` naming the task. The tasks in flight are
    cancelled when the run stops, where the head still answers."""
    ray = join(address)
    remote = ray.remote(play)
    window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
    waiting = iter(todo)
    inflight: dict[Any, T] = {}
    head = Head(address, ray, notice)
    try:
        for t in waiting:
            inflight[remote.remote(*args(t))] = t
            if len(inflight) >= window:
                break
        while inflight:
            done, _ = ray.wait(list(inflight), num_returns=1, timeout=POLL)
            if not done:
                head.check()
                continue
            t = inflight.pop(done[0])
            try:
                got = ray.get(done[0])
            except ray.exceptions.RayError as exc:
                cause = exc.cause if isinstance(exc, ray.exceptions.RayTaskError) else None
                if isinstance(cause, LabRunError):  # a game that failed: said as it was raised
                    raise cause from exc
                raise LabStopped(f"a Ray task failed ({name(t)}): {type(exc).__name__}: {exc}") from exc
            nxt = next(waiting, None)
            if nxt is not None:
                inflight[remote.remote(*args(nxt))] = nxt
            yield t, got
    finally:
        if inflight and head.alive and head.answering():  # a gone or paused head's tasks cannot be cancelled
            for ref in inflight:
                ray.cancel(ref, force=True)
