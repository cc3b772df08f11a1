"""jsonschema, imported without its slowest optional format checker.

jsonschema imports every optional format-checking library it finds, and one of them
(``rfc3987_syntax``, pulled in by Jupyter) compiles a grammar at import time: seconds on
every command and every notebook. recallscore's schemas check no ``format``, so that library
is kept out of this process unless something imported it already.
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

from jsonschema import Draft202012Validator, ValidationError  # noqa: E402

__all__ = ["Draft202012Validator", "ValidationError"]
