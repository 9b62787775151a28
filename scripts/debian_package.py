"""Install a Debian package the tests need when its program is missing (used by
``provision_gnubg.py`` and ``provision_postgresql.py``, which ``make test`` runs first).

:func:`provision`: nothing when ``found()`` already holds; else, as root where ``apt-get``
exists, ``apt-get update`` and ``apt-get install -y PACKAGE``; when neither works, one
line saying what to install, and status 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable


def provision(package: str, found: Callable[[], object], needs: str, otherwise: str) -> int:
    """0 when ``found()`` is true (after installing ``package`` if need be), else 1 with a
    line on stderr. ``needs``: who needs it (for the messages: "the format tests need
    gnubg"); ``otherwise``: how else to provide it, said when apt-get cannot be used."""
    if found():
        return 0
    apt = shutil.which("apt-get")
    if apt and os.geteuid() == 0:
        print(f"{needs}: installing Debian's {package} with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", package]):
            subprocess.run(cmd, env=env, capture_output=True)
        if found():
            return 0
        print(f"make test: apt-get could not install {package}: run `apt-get install "
              f"{package}` to see why, then make test again", file=sys.stderr)
        return 1
    print(f"make test: {needs}: run `sudo apt-get install {package}` ({otherwise})",
          file=sys.stderr)
    return 1
