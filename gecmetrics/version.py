"""The package version (a leaf module: signatures and the CLI read it)."""

__version__ = "0.1.0"
