"""``python -m evalkit``: the same as the ``evalkit`` command."""

import sys

from evalkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
