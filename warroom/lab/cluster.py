"""A sweep's tasks on a Ray cluster (`--ray HOST:PORT`, the head's address): joined once, the tasks kept a few
per CPU in flight, and the head watched while no task finishes, so that a head killed or paused stops the run
plainly within `GRACE` seconds instead of Ray ending the process a minute later with a message of its own.

The head is asked at the wire: its GCS is a gRPC server, which answers an HTTP/2 greeting with its settings at
once. A process that is gone refuses the connection; one that is paused accepts it (the kernel does) but says
nothing. Ray itself is imported only here, and only when a run names a cluster.
"""

from __future__ import annotations

import logging
import math
import os
import re
import socket
import subprocess
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
driver whose head is gone. `GRACE_ENV` sets another."""
GRACE_ENV = "WARROOM_LAB_RAY_GRACE"
MOST_GRACE = 50.0
"""The longest wait `GRACE_ENV` may set: the run must hear of a lost head before Ray's own minute, and it notices
a few seconds after the wait ends (its poll, then a greeting that goes unanswered)."""
SAME = 30.0
"""Seconds without a finished task after which a sweep on Ray checks that its cluster is still the one it joined."""
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
    if not colon or not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535 or not host:
        raise LabRunError(f"--ray {address!r}: give the cluster's head as HOST:PORT with a port from 1 to 65535 "
                          "(e.g. 10.0.0.5:6379)")
    return host.removeprefix("[").removesuffix("]"), int(port)


def grace() -> float:
    """The seconds a head may go unanswering for this run: `GRACE`, or what `GRACE_ENV` says (more on a network
    that drops out now and then, less to hear of a killed head sooner), or `LabRunError` for a value that is not
    a number of seconds above 0 and below `MOST_GRACE`."""
    text = os.environ.get(GRACE_ENV, "").strip()
    if not text:
        return GRACE
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < MOST_GRACE:
        raise LabRunError(f"{GRACE_ENV}={text!r}: give the seconds a Ray head may go unanswering, above 0 and "
                          f"below {MOST_GRACE:g} (Ray ends the run itself after a minute without its head)")
    return seconds


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


def token_source() -> tuple[bool, str]:
    """Whether this machine has a Ray token for a driver to send (Ray's order: RAY_AUTH_TOKEN, the file
    RAY_AUTH_TOKEN_PATH names, ~/.ray/auth_token), and what is wrong with the source named if there is none."""
    if os.environ.get("RAY_AUTH_TOKEN", "").strip():
        return True, ""
    named = os.environ.get("RAY_AUTH_TOKEN_PATH")
    path = Path(named) if named else Path.home() / ".ray" / "auth_token"
    try:
        has = bool(path.read_text(encoding="utf-8", errors="replace").strip())
    except OSError:
        has = False
    if has:
        return True, ""
    return False, (f"RAY_AUTH_TOKEN_PATH names {named}, which is missing or empty" if named else
                   "this machine has no token (neither RAY_AUTH_TOKEN nor ~/.ray/auth_token)")


def token_hint() -> str:
    """Why a cluster that wants a token did not get one from this run, and what to set (never the token)."""
    has, _ = token_source()
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return ("refused this run's token: give the cluster's own (`ray get-auth-token` on the head prints it) in "
                "RAY_AUTH_TOKEN, or in the file RAY_AUTH_TOKEN_PATH names, or in ~/.ray/auth_token")
    if has:
        return ("wants a token (Ray's token authentication), and this run has one but does not send it: set "
                "RAY_AUTH_MODE=token (Ray sends a token to an address it is given only then)")
    return ("wants a token (Ray's token authentication) and this run gives none: set RAY_AUTH_MODE=token and the "
            "cluster's token (`ray get-auth-token` on the head prints it) in RAY_AUTH_TOKEN or ~/.ray/auth_token")


TRIAL = ("import logging, sys, ray; from warroom.lab.cluster import session; "
         "ray.init(address=sys.argv[1], log_to_driver=False, configure_logging=False, logging_level=logging.ERROR); "
         "print('joined', session(ray), flush=True)")
"""A trial join, in a child process: Ray may end a process it cannot join (a raylet that does not answer), and
says why on its standard error, which the parent reads."""


REFUSED = re.compile("Unauthenticated|InvalidAuthToken")
"""What Ray writes when a head refuses a driver's token (or its lack of one)."""


def session(ray: Any) -> str:
    """The session of the cluster a process has joined: new each time a head starts (a head started again at the
    same address is another cluster, whose tasks are not this run's). Read from Ray's worker, not asked of the
    head; '' where this Ray keeps it elsewhere."""
    node = getattr(getattr(getattr(ray, "_private", None), "worker", None), "global_worker", None)
    return str(getattr(getattr(node, "node", None), "session_name", "") or "")


def reason(text: str) -> str:
    """The last line of what Ray wrote that says something, without its log prefix or colours."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).strip() for line in text.splitlines()]
    lines = [re.sub(r"^\[[^]]*\]\s*\S+:\d+:\s*", "", line) for line in lines if line and not line.startswith(
        ("***", "@", "Traceback", "File ", "SIGTERM handler"))]
    return lines[-1][:300] if lines else "it said nothing"


def trial(address: str, timeout: float) -> str:
    """Join the cluster at `address` from a child process and return its session, or `LabRunError` with Ray's
    reason; a refused token is said as soon as Ray reports it, and Ctrl-C ends the trial at once."""
    with tempfile.TemporaryFile() as said:
        child = subprocess.Popen([sys.executable, "-c", TRIAL, address], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=said)
        try:
            deadline = time.monotonic() + timeout
            while child.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
                said.seek(0)
                if REFUSED.search(said.read().decode(errors="replace")):
                    break
            silent = child.poll() is None
        finally:
            if child.poll() is None:
                child.kill()
            out = child.communicate()[0].decode(errors="replace")
        said.seek(0)
        text = said.read().decode(errors="replace")
    if child.returncode == 0 and "joined" in out:
        return out.split("joined", 1)[1].strip()
    if REFUSED.search(text):
        raise LabRunError(f"the Ray cluster at {address} {token_hint()}")
    why = f"no answer in {timeout:g} s" if silent else reason(text)
    raise LabRunError(f"{address} answers, but Ray cannot join it ({why}): check that the address is the head's "
                      "(as `ray start --head` printed it), that this machine reaches the cluster's other ports "
                      "too, and that Ray is the same version there")


def join(address: str, timeout: float = 60.0) -> Any:
    """Ray, joined to the cluster whose head is at `address` (at once if this process already is), or
    `LabRunError` naming why not: nothing answering there, something else than a Ray head answering, a cluster
    that wants a token this run does not give, or one Ray cannot join (`trial`) within `timeout` seconds. What Ray
    writes to the standard error meanwhile (a line a second while it retries) is kept back."""
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
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        has, missing = token_source()
        if not has:
            raise LabRunError(f"the Ray cluster at {address} cannot be joined: RAY_AUTH_MODE=token, but {missing}: "
                              "put the cluster's token (`ray get-auth-token` on the head prints it) there")
    trial(address, timeout)
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
        try:
            thread = threading.Thread(target=attempt, daemon=True)  # ray.init has no time limit of its own
            thread.start()
            thread.join(timeout)
        finally:
            sys.stderr.flush()
            os.dup2(stderr, 2)
            os.close(stderr)
        said.seek(0)
        text = said.read().decode(errors="replace")
    if not thread.is_alive() and not failed:
        _joined.append(address)
        return ray
    why = f"{type(failed[0]).__name__}: {failed[0]}" if failed else reason(text)
    raise LabRunError(f"{address} answered a trial join but not this one ({why}): run the same command again")


def leave(timeout: float = 5.0) -> None:
    """Leave the cluster, waiting at most `timeout` seconds: Ray's own shutdown waits on a head that is gone or
    paused, so a caller that ends its process next need not wait (the games are stored by then)."""
    if not _joined:
        return
    import ray

    thread = threading.Thread(target=ray.shutdown, daemon=True)
    thread.start()
    thread.join(timeout)
    _joined.clear()


class Head:
    """The health of a sweep's Ray cluster, looked at while no task finishes: its head answering at its address
    (asked at the wire, every check), and, after `SAME` seconds without a finished task, still the cluster the run
    joined (asked by a trial join in a child process: a call through Ray to a head started again at the same
    address makes Ray end the process, and its tasks would never finish)."""

    def __init__(self, address: str, joined: str = "", grace: float | None = None) -> None:
        self.address = address
        self.joined = joined  # the session this run joined ('' : not checked)
        self.grace = GRACE if grace is None else grace
        self.alive = True
        self.silent: float | None = None  # when the head stopped answering, if it has
        self.quiet = time.monotonic()  # since when no task has finished, or the session was last found the same

    def progress(self) -> None:
        self.quiet = time.monotonic()

    def answering(self) -> bool:
        try:
            greet(self.address, POLL)
        except OSError:
            return False
        return True

    def check(self) -> None:
        now = time.monotonic()
        if self.answering():
            self.silent = None
            if self.joined and now - self.quiet >= SAME:
                try:
                    now_there = trial(self.address, 60.0)
                except LabRunError:
                    return  # said again by the wire, or not at all: the next checks tell
                self.quiet = time.monotonic()
                if now_there and now_there != self.joined:
                    self.alive = False
                    raise LabStopped(f"the Ray cluster at {self.address} was started again (its session is "
                                     f"{now_there}, not this run's {self.joined}): the tasks in flight are gone")
            return
        if self.silent is None:
            self.silent = now
        if now - self.silent >= self.grace:
            self.alive = False
            raise LabStopped(f"the Ray cluster's head at {self.address} stopped answering (for {self.grace:g} s): "
                             "start the cluster again")


def on_ray(todo: Sequence[T], play: Callable[..., Any], args: Callable[[T], tuple[Any, ...]],
           name: Callable[[T], str], address: str, notice: Notice | None = None) -> Iterator[tuple[T, Any]]:
    """`play(*args(t))` for each task `t` as it finishes, each a Ray task on the cluster at `address`, a few per
    CPU in flight. A `LabRunError` a task raised is raised as it was; `LabStopped` when a task is lost for good (Ray
    tries one again on another node first) or the head goes, `name(t)` naming the task. The tasks in flight are
    cancelled when the run stops, where the head still answers."""
    patience = grace()  # a bad setting is said before the run joins
    ray = join(address)
    remote = ray.remote(play)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if not cpus and notice is not None:  # an autoscaled cluster may have none until it adds a node
        notice(f"the Ray cluster at {address} has no CPUs yet: the tasks wait for a node to join (start one with "
               "`ray start --address`, or wait for the autoscaler); Ctrl-C stops the run")
    window = max(4, 2 * cpus)
    waiting = iter(todo)
    inflight: dict[Any, T] = {}
    head = Head(address, session(ray), patience)
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
            head.progress()
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
