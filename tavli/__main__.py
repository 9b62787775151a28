"""``python -m tavli``: the ``tavli`` command (:func:`tavli.cli.main`)."""

import sys

from tavli.cli import main

sys.exit(main())
