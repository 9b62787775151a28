"""Make sure the browser tests have a chromium (``make test`` runs this first).

In order: Debian's ``/usr/bin/chromium`` when it is there; else Playwright's own chromium,
installed with ``python -m playwright install chromium`` (within a time limit: without
network it fails in seconds) and kept when it starts; else, as root where ``apt-get``
exists, Debian's chromium (``apt-get update``, ``apt-get install chromium``). When none
of these works it prints one line saying what to install and exits with status 1.
``tests/conftest.py`` launches the same browser: ``/usr/bin/chromium`` when present, else
Playwright's.

Environment (for tests, and for a chromium elsewhere):

- ``TAVLI_CHROMIUM``: the chromium to use (default ``/usr/bin/chromium``);
- ``TAVLI_PLAYWRIGHT_CHECK``, ``TAVLI_PLAYWRIGHT_INSTALL``: the commands that start
  Playwright's chromium and install it (default: this Python's ``playwright``);
- ``TAVLI_PLAYWRIGHT_TIMEOUT``: seconds the install may take (default 300);
- ``TAVLI_APT_GET``: the apt-get command (default ``apt-get`` on the PATH).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

DEBIAN_CHROMIUM = "/usr/bin/chromium"
LAUNCH = ("from playwright.sync_api import sync_playwright\n"
          "with sync_playwright() as p:\n"
          "    p.chromium.launch(headless=True, args=['--no-sandbox']).close()\n")
CHECK_TIMEOUT = 60

Runner = Callable[[Sequence[str], float | None, dict[str, str] | None], bool]


def run_quietly(cmd: Sequence[str], timeout: float | None = None,
                env: dict[str, str] | None = None) -> bool:
    """Run ``cmd`` without showing its output; True when it exits with status 0 within
    ``timeout`` seconds."""
    try:
        done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout,
                              env=None if env is None else {**os.environ, **env})
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@dataclass
class Setup:
    """Where the browser may come from, and how commands are run (fakes in the tests)."""

    chromium: str = DEBIAN_CHROMIUM
    playwright_check: list[str] = field(
        default_factory=lambda: [sys.executable, "-c", LAUNCH])
    playwright_install: list[str] = field(
        default_factory=lambda: [sys.executable, "-m", "playwright", "install", "chromium"])
    playwright_timeout: float = 300.0
    apt_get: str | None = field(default_factory=lambda: shutil.which("apt-get"))
    is_root: bool = field(default_factory=lambda: os.geteuid() == 0)
    run: Runner = run_quietly
    say: Callable[[str], None] = print

    @classmethod
    def from_env(cls, env: dict[str, str]) -> Setup:
        s = cls()
        s.chromium = env.get("TAVLI_CHROMIUM") or s.chromium
        if env.get("TAVLI_PLAYWRIGHT_CHECK"):
            s.playwright_check = shlex.split(env["TAVLI_PLAYWRIGHT_CHECK"])
        if env.get("TAVLI_PLAYWRIGHT_INSTALL"):
            s.playwright_install = shlex.split(env["TAVLI_PLAYWRIGHT_INSTALL"])
        if env.get("TAVLI_PLAYWRIGHT_TIMEOUT"):
            s.playwright_timeout = float(env["TAVLI_PLAYWRIGHT_TIMEOUT"])
        if env.get("TAVLI_APT_GET"):
            s.apt_get = shutil.which(env["TAVLI_APT_GET"])
        return s


def _runs(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def provision(s: Setup) -> tuple[str | None, str]:
    """The browser the tests will use (``s.chromium``, ``"playwright"``), or None and the
    one line saying what to install."""
    if _runs(s.chromium):
        return s.chromium, ""
    if s.run(s.playwright_check, CHECK_TIMEOUT, None):
        return "playwright", ""
    s.say("the browser tests need chromium: trying Playwright's (python -m playwright "
          "install chromium)")
    if (s.run(s.playwright_install, s.playwright_timeout, None)
            and s.run(s.playwright_check, CHECK_TIMEOUT, None)):
        return "playwright", ""
    if s.apt_get and s.is_root:
        s.say("no Playwright chromium (no network to its download site?): installing "
              "Debian's chromium with apt-get")
        quiet = {"DEBIAN_FRONTEND": "noninteractive"}
        if (s.run([s.apt_get, "update", "-qq"], None, quiet)
                and s.run([s.apt_get, "install", "-y", "-qq", "chromium"], None, quiet)
                and _runs(s.chromium)):
            return s.chromium, ""
        return None, (f"make test: apt-get could not install chromium at {s.chromium}: "
                      "run `apt-get install chromium` to see why, then make test again")
    if s.apt_get:
        return None, ("make test: the browser tests need chromium: run `sudo apt-get install "
                      "chromium` (or make test as root), then make test again")
    return None, ("make test: the browser tests need chromium: install Playwright's "
                  "(`.venv/bin/python -m playwright install --with-deps chromium`, needs "
                  f"network) or your system's at {s.chromium} (else set TAVLI_CHROMIUM to "
                  "its path)")


def main() -> int:
    browser, error = provision(Setup.from_env(dict(os.environ)))
    if browser is None:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
