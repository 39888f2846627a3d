"""``python -m pytest_pacts.cli`` = ``pacts``."""

import sys

from pytest_pacts.cli.main import main

sys.exit(main())
