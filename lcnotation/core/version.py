"""The package's version, in one place: the package root, the command line and
the language server all read it here."""

__version__ = "0.1.0"
