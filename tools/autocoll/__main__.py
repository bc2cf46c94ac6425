"""`python -m autocoll`: the `autocoll` command."""

import sys

from .cli import main

sys.exit(main())
