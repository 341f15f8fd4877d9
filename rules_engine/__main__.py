"""`python -m rules_engine …`: see rules_engine.cli."""
from __future__ import annotations

import sys

from rules_engine.cli import main

sys.exit(main())
