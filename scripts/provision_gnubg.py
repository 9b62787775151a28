"""Make sure the format tests have Debian's gnubg (``make test`` runs this first).

In order: ``gnubg`` on the PATH or ``/usr/games/gnubg``; else, as root where ``apt-get``
exists, ``apt-get install -y gnubg``. When neither works it prints one line saying what
to install and exits with status 1.
"""

from __future__ import annotations

import os
import shutil
import sys

from debian_package import provision

DEBIAN_GNUBG = "/usr/games/gnubg"


def found() -> str | None:
    path = shutil.which("gnubg") or DEBIAN_GNUBG
    return path if os.access(path, os.X_OK) else None


def main() -> int:
    return provision("gnubg", found, "the format tests need GNU Backgammon's text interface",
                     "or install gnubg so that `gnubg` is on the PATH")


if __name__ == "__main__":
    sys.exit(main())
