"""jsonschema, imported without its optional format checkers.

jsonschema imports every optional format-checking library it finds, and Jupyter pulls in
most of them: one (``rfc3987_syntax``) compiles a grammar at import time (seconds on every
command and every notebook), another (``isoduration``) imports ``arrow`` (34 ms of a 0.35 s
``validate``). recallscore's schemas check no ``format``, so while jsonschema is imported
here those libraries that nothing imported yet are hidden from it, and only then: anything
imported later finds them as usual.
"""

import sys

FORMAT_LIBRARIES = ("fqdn", "idna", "isoduration", "jsonpointer", "rfc3339_validator",
                    "rfc3986_validator", "rfc3987", "rfc3987_syntax", "uri_template",
                    "webcolors")
"""What ``jsonschema._format`` tries to import, each for one ``format`` it may check."""

_hidden = [name for name in FORMAT_LIBRARIES if name not in sys.modules]
sys.modules.update(dict.fromkeys(_hidden))  # a None entry: its import raises ImportError
try:
    from jsonschema import Draft202012Validator, ValidationError  # noqa: E402
finally:
    for _name in _hidden:
        if sys.modules.get(_name, 0) is None:
            del sys.modules[_name]

__all__ = ["Draft202012Validator", "ValidationError"]
