"""``python -m lcnotation``: the same as the ``lcn`` command."""

import sys

from .cli import main

sys.exit(main())
