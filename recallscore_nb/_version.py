"""The package version, in one place (signatures and reports read it from here)."""

__version__ = "0.1.0"
