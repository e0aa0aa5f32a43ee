"""The `rubricate` command line: `grade` and `agreement` (typer + rich).

Each command lives in its own module and only parses arguments, calls the library and prints
what the renderers build; adding a command is one module and one line in `_app.py`.
"""

from rubricate._cli._app import app, create_app, main
from rubricate._cli._common import ExitCode, JudgeFactory

__all__ = ["ExitCode", "JudgeFactory", "app", "create_app", "main"]
