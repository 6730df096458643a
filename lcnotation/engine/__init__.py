"""Engines: the engine protocol (spec/engine-protocol.md), for bot authors and
for programs that drive engines."""
