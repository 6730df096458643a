"""``lcn server``: the language server, for editors (needs ``lcnotation[lsp]``)."""

from __future__ import annotations

import argparse

from .common import EXIT_USAGE, Parser, add_command, err

_SERVER_EXAMPLES = """\
examples:
  lcn server                   speak LSP on standard input and output (editors start it so)
  lcn server --tcp             listen on 127.0.0.1:2087 instead, to debug the server
  lcn server --tcp --port 9000

--tcp is for debugging (attach a client to a server you started yourself);
each connection gets a server of its own.  Any local user can connect to
the port: it listens on 127.0.0.1 unless --host says otherwise.

It needs the lsp extra: pip install 'lcnotation[lsp]'.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    server = add_command(sub, "server", "run the language server (LSP) for editors",
                         _SERVER_EXAMPLES)
    server.add_argument("--stdio", action="store_true",
                        help="speak on standard input and output (the default)")
    server.add_argument("--tcp", action="store_true", help="listen on a TCP port instead")
    server.add_argument("--host", default="127.0.0.1", help="address for --tcp "
                        "(default: 127.0.0.1)")
    server.add_argument("--port", type=_port, default=2087, help="port for --tcp, 0 to 65535 "
                        "(default: 2087)")
    server.set_defaults(handler=run)


def _port(value: str) -> int:
    """A TCP port number, or a usage error that says what is wrong (quoting at
    most a few characters of it)."""
    text = value.strip()
    if not text.isdigit() or len(text) > 5 or int(text) > 65535:
        shown = value if len(value) <= 20 else value[:20] + "..."
        raise argparse.ArgumentTypeError(f"not a port number (0 to 65535): {shown!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    # pygls is imported only here: 'lcn lint' does not pay for it at start-up.
    try:
        from ..lsp.server import main
    except ImportError as exc:
        err(f"the language server needs the lsp extra: pip install 'lcnotation[lsp]' "
            f"({exc})")
        return EXIT_USAGE
    from ..lsp.transport import ListenError
    try:
        return main((args.host, args.port) if args.tcp else None)
    except ListenError as exc:
        err(f"server: {exc}")
        return EXIT_USAGE
