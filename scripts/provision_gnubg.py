"""Make sure the format tests have Debian's gnubg (``make test`` runs this first).

In order: ``gnubg`` on the PATH or ``/usr/games/gnubg``; else, as root where ``apt-get``
exists, ``apt-get install -y gnubg``. When neither works it prints one line saying what
to install and exits with status 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

DEBIAN_GNUBG = "/usr/games/gnubg"


def found() -> str | None:
    path = shutil.which("gnubg") or DEBIAN_GNUBG
    return path if os.access(path, os.X_OK) else None


def main() -> int:
    if found():
        return 0
    apt = shutil.which("apt-get")
    if apt and os.geteuid() == 0:
        print("the format tests need gnubg: installing Debian's with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "gnubg"]):
            subprocess.run(cmd, env=env, capture_output=True)
        if found():
            return 0
        print("make test: apt-get could not install gnubg: run `apt-get install gnubg` to "
              "see why, then make test again", file=sys.stderr)
        return 1
    print("make test: the format tests need GNU Backgammon's text interface: run `sudo "
          "apt-get install gnubg` (or install gnubg so that `gnubg` is on the PATH)",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
