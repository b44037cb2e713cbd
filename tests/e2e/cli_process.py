"""How the end-to-end tests run `warroom`: as the installed console script, or forked from a warm copy of it.

Starting the console script costs about half a second of CPU before a command does anything (the interpreter,
then Typer, Rich and the engine are imported), and the CLI tests run it a few hundred times. `WarmCli` pays that
once: a server process, started with exactly the environment the console script would get, imports the command
line and then forks one child per command. Each child is still a real process of its own: it runs the console
script's entry point (`warroom.cli.main:main`) from a fresh copy of the server's memory, reads a real file as
standard input (so it meets a real end of file), writes its own standard output and error, and its exit code is
the one the operating system reports. Nothing one command does is seen by the next, nor by the test process.

What a fork shares with its siblings, and a fresh interpreter would not: the hash seed of `str` (every child of
one server iterates a set of strings in the same order). A test comparing two runs for equality (the same seed
gives the same game) therefore runs one of them as the console script, so that a result depending on that order
still shows up as a difference.

Run as a script (`python cli_process.py REQUESTS REPLIES`), this file is the server: it reads one JSON request a
line from the file descriptor REQUESTS and answers on REPLIES.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import select
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

_SIBLING = Path(sys.executable).parent / "warroom"
WARROOM = str(_SIBLING) if _SIBLING.exists() else (shutil.which("warroom") or str(_SIBLING))
"""The installed console script: the one next to the running interpreter (installed from this checkout), else
the one on PATH."""


@dataclass(frozen=True)
class Ran:
    """A finished command: its exit code (negative: killed by that signal) and what it wrote."""

    code: int
    out_bytes: bytes
    err_bytes: bytes


def console_script(args: Sequence[str | Path], env: Mapping[str, str], stdin: bytes = b"",
                   cwd: Path | None = None, timeout: float = 120) -> Ran:
    """Run the installed `warroom` script with `stdin` (closed at its end) in a new interpreter."""
    proc = subprocess.run([WARROOM, *map(str, args)], input=stdin, capture_output=True, timeout=timeout, cwd=cwd,
                          env=dict(env), check=False)
    return Ran(proc.returncode, proc.stdout, proc.stderr)


class WarmCli:
    """A server that has imported the command line and forks a child for each command (see the module's text).

    One server serves one environment: the environment is read by the interpreter and by Rich as they start, so
    a command wanting another one gets another server (`warm` keeps one per environment)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.scratch = Path(tempfile.mkdtemp(prefix="warroom-cli-"))
        requests_read, self._requests = os.pipe()
        self._replies, replies_write = os.pipe()
        # Neither of the server's own outputs is a terminal, as neither is the console script's in a test: Rich
        # decides at import, in the server, whether it writes to one.
        self.errors = self.scratch / "server.err"
        with self.errors.open("wb") as errors:
            self.proc = subprocess.Popen([sys.executable, __file__, str(requests_read), str(replies_write)],
                                         env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=errors, pass_fds=(requests_read, replies_write))
        os.close(requests_read)
        os.close(replies_write)
        self._pending = b""  # read from the replies but not yet answered (a reply is one line)
        self.runs = 0
        self.cpu = 0.0
        """The CPU seconds of the commands run so far (for measuring the tests; the server's own is not in it)."""

    def run(self, args: Sequence[str | Path], stdin: bytes = b"", cwd: Path | None = None, timeout: float = 120,
            env: Mapping[str, str] | None = None) -> Ran:
        """Run `warroom ARGS` in a fork of the server, with `env` as its environment (default: the server's; it may
        differ only in `VOLATILE` variables); `timeout` as `subprocess.run`'s (the child is killed)."""
        self.runs += 1
        files = {name: self.scratch / f"{self.runs}.{name}" for name in ("in", "out", "err")}
        files["in"].write_bytes(stdin)
        request = {"args": [str(a) for a in args], "cwd": None if cwd is None else str(cwd),
                   "env": dict(self.env if env is None else env), **{name: str(path) for name, path in files.items()}}
        try:
            os.write(self._requests, (json.dumps(request) + "\n").encode("utf-8"))
            pid = int(self._reply(timeout)["pid"])
        except BaseException:
            self.proc.kill()  # the server itself is stuck or gone: `warm` starts another for the next command
            raise
        try:
            reply = self._reply(timeout)
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)  # the server reaps it, and then answers the next request
            self._reply(timeout)
            raise
        self.cpu += float(reply["cpu"])
        ran = Ran(int(reply["code"]), files["out"].read_bytes(), files["err"].read_bytes())
        for path in files.values():
            path.unlink()
        return ran

    def _reply(self, timeout: float) -> dict[str, Any]:
        """The server's next reply line, read unbuffered so that waiting for it can time out."""
        while b"\n" not in self._pending:
            ready, _, _ = select.select([self._replies], [], [], timeout)
            if not ready:
                raise subprocess.TimeoutExpired([WARROOM], timeout)
            chunk = os.read(self._replies, 4096)
            if not chunk:
                raise RuntimeError(f"the warm warroom server stopped (exit code {self.proc.wait()}): "
                                   + self.errors.read_text(encoding="utf-8", errors="replace")[-2000:])
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        reply = json.loads(line)
        assert isinstance(reply, dict)
        return reply

    def close(self) -> None:
        """Stop the server and wait for it (so that its CPU time, and its children's, is counted in ours)."""
        os.close(self._requests)  # the server ends at the end of its input
        os.close(self._replies)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)


_servers: dict[tuple[tuple[str, str], ...], WarmCli] = {}


VOLATILE = frozenset({"PYTEST_CURRENT_TEST", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN",
                      *(() if site.ENABLE_USER_SITE else ("HOME",))})
"""Variables that change from test to test and that nothing reads as it starts: a server started with other values
of them still serves (each child is given the exact environment of its command). Ray's token settings and HOME
(where Ray and `warroom lab` look for ~/.ray/auth_token) are read only as a command joins a Ray cluster, and Ray is
imported only then, in the child; the interpreter reads HOME at start only for the user's site-packages, and
HOME is volatile only where there are none (a virtual environment's interpreter)."""


def warm(args: Sequence[str | Path], env: Mapping[str, str], stdin: bytes = b"", cwd: Path | None = None,
         timeout: float = 120) -> Ran:
    """Run `warroom ARGS` with environment `env`, forked from the warm server started with that environment (at
    its first command)."""
    key = tuple(sorted((name, value) for name, value in env.items() if name not in VOLATILE))
    if key in _servers and _servers[key].proc.poll() is not None:
        _servers.pop(key).close()
    if key not in _servers:
        if not _servers:
            atexit.register(_close_all)
        elif len(_servers) == 4:  # each costs a second or two to start: the environments should be few
            changing = sorted({name for other in _servers for name, value in other if env.get(name) != value})
            warnings.warn(f"a fifth warm warroom server: the environment differs in {', '.join(changing)}; a "
                          "variable that changes from test to test and is not read at start-up belongs in VOLATILE",
                          stacklevel=2)
        _servers[key] = WarmCli(env)
    return _servers[key].run(args, stdin, cwd, timeout, env)


def _close_all() -> None:
    while _servers:
        _servers.popitem()[1].close()


# ---------------------------------------------------------------- the server (this file run as a script)


def _exit_code(code: object) -> int:
    """The exit status of `SystemExit(code)`, as the interpreter turns it into one (a text is printed, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _command(job: dict[str, Any]) -> int:
    """In the child: standard input, output and error to the request's files, then the console script's entry
    point, ended as the interpreter ends a script."""
    import atexit as exits

    for fd, name, flags in ((0, "in", os.O_RDONLY), (1, "out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (2, "err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        opened = os.open(job[name], flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    if job["cwd"] is not None:
        os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    sys.argv = [WARROOM, *job["args"]]
    from warroom.cli.main import main

    try:
        main()
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except KeyboardInterrupt:  # the interpreter prints it and dies of SIGINT
        traceback.print_exc()
        code = -signal.SIGINT
    except BaseException:
        traceback.print_exc()
        code = 1
    exits._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


LIBRARIES = ("typer._adapters", "typer.rich_utils", "typer._click.decorators", "typer._click._textwrap",
             "pydantic.plugin._loader", "importlib.metadata", "rich._emoji_codes", "multiprocessing.popen_fork",
             "multiprocessing.synchronize", "encodings.ascii")
"""Modules of the libraries that a command imports only as it runs (found by listing `sys.modules` after each
command); a name a library's version does not have is skipped."""


def _preload() -> None:
    """Import, once in the server, what each command would otherwise import again in its fork."""
    import importlib
    import pkgutil

    import rich.cells

    import warroom.cli.main  # what every command imports first

    # What the commands import only when they need it (the rule systems, their screens and bots, the session,
    # the simulator, validate's checks). The data stays unread: every command still loads its scenario itself.
    # The console-script runs of each test module import all this in the order a real command does.
    for package in ("warroom.rulesets", "warroom.ai", "warroom.cli"):
        for found in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            importlib.import_module(found.name)
    for name in ("warroom.sim.runner", "warroom.lab.calibration", "warroom.lab.spec"):
        importlib.import_module(name)
    for name in LIBRARIES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    rich.cells.cell_len("é─")  # Rich loads its table of character widths at the first wide character
    _build_once(warroom.cli.main.app)


def _build_once(app: typer.Typer) -> None:
    """Typer turns the app into a Click command at every `app()`, evaluating every option's annotation again: 50 ms
    of each fork's time. The command is built here once, and `app()` in a fork takes it, as long as the app has the
    same commands it was built from. Building reads nothing but the app (neither the environment nor the command
    line), so it is the command each fork would have built; the console-script runs still build their own."""
    import typer.main

    build = typer.main.get_command
    built = build(app)
    made_of = (list(app.registered_commands), list(app.registered_groups), app.registered_callback)

    def get_command(typer_instance: typer.Typer) -> Any:
        if typer_instance is app and (list(app.registered_commands), list(app.registered_groups),
                                      app.registered_callback) == made_of:
            return built
        return build(typer_instance)

    vars(typer.main)["get_command"] = get_command  # the name `Typer.__call__` looks up


def serve(requests: int, replies: int) -> None:
    """Import the command line, then fork a child per request and answer with its pid, then its exit code."""
    sys.path[0] = str(Path(WARROOM).parent)  # as the console script sees it, not this folder of tests
    _preload()
    # Everything imported so far lives as long as the server: kept out of the collector's way, so that a fork's
    # first collection does not walk (and so copy) the whole inherited heap.
    gc.freeze()
    sys.stdout.flush()
    sys.stderr.flush()
    with os.fdopen(requests, "r", encoding="utf-8") as inbox, os.fdopen(replies, "w", encoding="utf-8") as outbox:
        for line in inbox:
            job = json.loads(line)
            pid = os.fork()
            if pid == 0:
                code = 70  # EX_SOFTWARE: the child could not even run the command
                try:
                    os.close(requests)
                    os.close(replies)
                    code = _command(job)
                finally:
                    os._exit(code)
            outbox.write(json.dumps({"pid": pid}) + "\n")
            outbox.flush()
            _, status, usage = os.wait4(pid, 0)
            outbox.write(json.dumps({"code": os.waitstatus_to_exitcode(status),
                                     "cpu": usage.ru_utime + usage.ru_stime}) + "\n")
            outbox.flush()


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
