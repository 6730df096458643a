"""The registry of diagnostic codes: every family, declared once beside its codes.

A code is a family letter and three digits (``R101``).  Each family is a
:class:`Family` declared in the module that reports its codes: what it
covers, the specification page that shows an example of each code, and the
codes with their severity and summary.  A :class:`CodeRegistry` gathers
families; one that is costly to import may be deferred
(:meth:`CodeRegistry.defer`): it is imported the first time the registry is
needed in full (iterated, measured, or asked for a code it does not hold
yet), or asked about one of its codes.

>>> reg = CodeRegistry()
>>> reg.add(Family("A", "an example", "diagnostics.md", {"A101": (Severity.INFO, "a")}))
>>> reg.defer("B", lambda: Family("B", "deferred", "other.md", {"B101": (Severity.INFO, "b")}))
>>> reg.pending, "B101" in reg, reg.pending, reg.page("B101")
(('B',), True, (), 'other.md')
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, Mapping, MutableMapping, NamedTuple, Tuple

from .diagnostics import Severity

__all__ = ["Codes", "Family", "CodeRegistry"]

#: code -> (severity, summary)
Codes = Mapping[str, Tuple[Severity, str]]


class Family(NamedTuple):
    """A family of codes: its letter, what it covers, the specification page that
    documents its codes (a file of ``spec/``; each code is an anchor there, in
    lower case) and the codes themselves."""

    prefix: str
    name: str
    page: str
    codes: Codes


class CodeRegistry(MutableMapping[str, Tuple[Severity, str]]):
    """code -> (severity, summary), over the families added to it;
    :attr:`families` maps each prefix to its :class:`Family`, and :meth:`page`
    says where a code is documented."""

    def __init__(self) -> None:
        self._codes: Dict[str, Tuple[Severity, str]] = {}
        self._pending: Dict[str, Callable[[], Family]] = {}
        self._families: Dict[str, Family] = {}
        #: The prefixes in the order they were added or deferred: the order of
        #: :attr:`families` and of the codes, however the families were loaded.
        self._order: Dict[str, None] = {}
        self._in_order = True

    @property
    def pending(self) -> Tuple[str, ...]:
        """The prefixes of the families not loaded yet."""
        return tuple(self._pending)

    def add(self, family: Family) -> None:
        """Add ``family`` and its codes (each must start with its prefix)."""
        wrong = [code for code in family.codes if not code.startswith(family.prefix)]
        if wrong:
            raise ValueError(f"codes of family {family.prefix} must start with "
                             f"{family.prefix}: {wrong}")
        self._order.setdefault(family.prefix)
        for prefix in self._order:
            if prefix == family.prefix:
                break
            if prefix not in self._families:
                self._in_order = False  # loaded before a family declared ahead of it
        self._families[family.prefix] = family
        self._pending.pop(family.prefix, None)
        self._codes.update(family.codes)

    def defer(self, prefix: str, load: Callable[[], Family]) -> None:
        """Add the family ``prefix`` that ``load()`` returns when it is first
        needed: when a code of it is asked for, or the registry is used whole."""
        self._order.setdefault(prefix)
        self._pending[prefix] = load

    def remove(self, prefix: str) -> None:
        """Take the family ``prefix`` and its codes out again."""
        self._pending.pop(prefix, None)
        self._families.pop(prefix, None)
        self._order.pop(prefix, None)
        for code in [c for c in self._codes if c.startswith(prefix)]:
            del self._codes[code]

    def load(self) -> None:
        """Load every deferred family now."""
        while self._pending:
            self._load(next(iter(self._pending)))
        if not self._in_order:  # the families and codes in the order they were declared
            self._families = {p: self._families[p] for p in self._order if p in self._families}
            codes = self._codes
            self._codes = {code: codes[code] for family in self._families.values()
                           for code in family.codes if code in codes}
            self._codes.update(codes)
            self._in_order = True

    def _load(self, prefix: str) -> None:
        family = self._pending.pop(prefix)()
        if family.prefix != prefix:
            raise ValueError(f"family {prefix} was deferred, and {family.prefix} came")
        self.add(family)

    @property
    def families(self) -> Mapping[str, Family]:
        """Every family, by prefix (the deferred ones loaded)."""
        self.load()
        return self._families

    def family(self, code: str) -> "Family | None":
        """The family of ``code`` (loaded if it was deferred), or None."""
        if code[:1] in self._pending:
            self._load(code[:1])
        return self._families.get(code[:1])

    def page(self, code: str) -> str:
        """The specification page that documents ``code`` (``diagnostics.md``
        for a code of no known family)."""
        family = self.family(code)
        return family.page if family is not None else "diagnostics.md"

    def name(self, code: str) -> str:
        """What the family of ``code`` covers ('' for no known family)."""
        family = self.family(code)
        return family.name if family is not None else ""

    def __getitem__(self, code: str) -> Tuple[Severity, str]:
        try:
            return self._codes[code]
        except KeyError:
            if not self._pending:
                raise
        if code[:1] in self._pending:  # its family first: the others may stay unloaded
            self._load(code[:1])
            found = self._codes.get(code)
            if found is not None:
                return found
        self.load()
        return self._codes[code]

    def __setitem__(self, code: str, value: Tuple[Severity, str]) -> None:
        self._codes[code] = value

    def __delitem__(self, code: str) -> None:
        self.load()
        del self._codes[code]

    def __iter__(self) -> Iterator[str]:
        self.load()
        return iter(self._codes)

    def __len__(self) -> int:
        self.load()
        return len(self._codes)

    def __repr__(self) -> str:
        self.load()
        return repr(self._codes)
