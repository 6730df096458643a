"""``lcn completion SHELL``: tab completion for bash, zsh and fish.

The scripts are written from the command line's own parsers, so every
subcommand, option and choice is completed as ``lcn`` defines it (and the
names of the registries an argument takes: formats, codes); PATH arguments
complete file names.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, NamedTuple, Optional, Sequence, Tuple

from .common import EXIT_OK, Parser, add_command

__all__ = ["SHELLS", "script", "commands", "register", "run"]

SHELLS = ("bash", "zsh", "fish")

_COMPLETION_EXAMPLES = """\
examples:
  lcn completion bash > ~/.local/share/bash-completion/completions/lcn
  lcn completion zsh > "${fpath[1]}/_lcn"
  lcn completion fish > ~/.config/fish/completions/lcn.fish
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    parser = add_command(sub, "completion", "print a shell completion script",
                         _COMPLETION_EXAMPLES)
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    parser.set_defaults(handler=run)


class Option(NamedTuple):
    flags: Tuple[str, ...]
    help: str
    #: None: a flag; () any value; else the values it takes
    values: Optional[Tuple[str, ...]]
    file: bool


class Command(NamedTuple):
    name: str
    help: str
    options: List[Option]
    paths: bool
    #: the values of its words (not options), when they are not file names:
    #: a choice (``lcn completion SHELL``), a subcommand, a code
    words: Optional[Tuple[str, ...]] = None
    #: ``words`` only for the first word after the command (then file names)
    once: bool = False


def commands(top: argparse.ArgumentParser) -> List[Command]:
    """What ``lcn`` accepts, read from its parsers (``top`` is ``lcn``'s own,
    which every command finds in ``args.top_parser``)."""
    found: List[Command] = []
    for action in top._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: a.help or "" for a in action._choices_actions}
        for name, parser in action.choices.items():
            options: List[Option] = []
            paths = False
            words: Optional[Tuple[str, ...]] = None
            once = False
            for a in parser._actions:
                if not a.option_strings:
                    paths = paths or a.metavar == "PATH"
                    given = _values(a)
                    if given and words is None:
                        words = given
                        once = a.nargs not in ("*", "+")
                    continue
                if isinstance(a, argparse._HelpAction):
                    continue
                values = None if a.nargs == 0 else _values(a)
                file = values == () and (a.metavar or "").split("|")[0] in ("FILE", "PATH")
                options.append(Option(tuple(a.option_strings), _clean(a.help), values, file))
            found.append(Command(name, _clean(helps.get(name, "")), options, paths, words, once))
    return found


def _values(action: argparse.Action) -> Tuple[str, ...]:
    """What an argument takes, when it is one of a few: its choices (for
    subcommands, their names), or the names of a registry (see
    :func:`~lcnotation.cli.common.completes_with`); () for anything."""
    if action.choices:
        return tuple(str(c) for c in action.choices)
    completions = getattr(action, "completions", None)
    return tuple(completions()) if completions is not None else ()


def _clean(text: Optional[str]) -> str:
    return (text or "").replace("\n", " ").replace("'", "").replace('"', "").replace(
        "[", "(").replace("]", ")").replace(":", " -").replace("`", "").replace("$", "")


def bash_script(cmds: Sequence[Command]) -> str:
    names = " ".join(c.name for c in cmds)
    cases = []
    for c in cmds:
        flags = " ".join(f for o in c.options for f in o.flags)
        takes = []
        for o in c.options:
            if o.values is None:
                continue
            pattern = "|".join(o.flags)
            if o.values:
                takes.append(f'        {pattern}) COMPREPLY=($(compgen -W "{" ".join(o.values)}"'
                             ' -- "$cur")); return;;')
            elif o.file:
                takes.append(f'        {pattern}) COMPREPLY=($(compgen -f -- "$cur")); return;;')
            else:
                takes.append(f"        {pattern}) return;;")
        words = "" if not c.words else (
            f'\n      words="{" ".join(c.words)}"' + ("\n      once=1" if c.once else ""))
        cases.append(f'    {c.name})\n      opts="{flags} --help"{words}\n      case "$prev" in\n'
                     + "\n".join(takes) + ("\n" if takes else "") + "      esac;;")
    return f"""# bash completion for lcn (lcn completion bash)
_lcn() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" opts="" words=""
  local once=0
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "{names} --help --version" -- "$cur"))
    return
  fi
  case "${{COMP_WORDS[1]}}" in
{chr(10).join(cases)}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n $words && ( $once -eq 0 || $COMP_CWORD -eq 2 ) ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -o bashdefault -F _lcn lcn
"""


def zsh_script(cmds: Sequence[Command]) -> str:
    described = "\n".join(f"    '{c.name}:{c.help}'" for c in cmds)
    cases = []
    for c in cmds:
        specs = []
        for o in c.options:
            if o.values is None:
                action = ""
            elif o.values:
                action = f":value:({' '.join(o.values)})"
            else:
                action = ":file:_files" if o.file else ":value: "
            names = "{" + ",".join(o.flags) + "}" if len(o.flags) > 1 else "".join(o.flags)
            prefix = f"'({' '.join(o.flags)})'" if len(o.flags) > 1 else ""
            specs.append(f"        {prefix}{names}'[{o.help}]{action}'")
        if c.words and c.once:
            specs.append(f"        '1:value:({' '.join(c.words)})'")
            specs.append("        '*:file:_files'")
        elif c.words:
            specs.append(f"        '*:value:({' '.join(c.words)})'")
        else:
            specs.append("        '*:file:_files'")
        cases.append(f"    {c.name})\n      _arguments -s \\\n" + " \\\n".join(specs) + ";;")
    return f"""#compdef lcn
# zsh completion for lcn (lcn completion zsh)
_lcn() {{
  local -a commands
  commands=(
{described}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  shift words
  (( CURRENT-- ))
  case $words[1] in
{chr(10).join(cases)}
  esac
}}
_lcn "$@"
"""


def fish_script(cmds: Sequence[Command]) -> str:
    names = " ".join(c.name for c in cmds)
    lines = ["# fish completion for lcn (lcn completion fish)",
             "complete -c lcn -f",
             f"complete -c lcn -n 'not __fish_seen_subcommand_from {names}' -l version "
             "-d 'show the version'"]
    for c in cmds:
        lines.append(f"complete -c lcn -n 'not __fish_seen_subcommand_from {names}' "
                     f"-a {c.name} -d '{c.help}'")
        when = f"-n '__fish_seen_subcommand_from {c.name}'"
        if c.words:
            lines.append(f"complete -c lcn {when} -x -a '{' '.join(c.words)}'")
        elif c.paths:
            lines.append(f"complete -c lcn {when} -F")
        for o in c.options:
            parts = []
            for flag in o.flags:
                parts.append(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
            if o.values:
                parts.append(f"-x -a '{' '.join(o.values)}'")
            elif o.values == ():
                parts.append("-r -F" if o.file else "-x")
            lines.append(f"complete -c lcn {when} {' '.join(parts)} -d '{o.help}'")
    return "\n".join(lines) + "\n"


_WRITERS = {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}


def script(shell: str, top: argparse.ArgumentParser) -> str:
    """The completion script for ``shell``, from ``lcn``'s parser ``top``."""
    return _WRITERS[shell](commands(top))


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell, args.top_parser))
    return EXIT_OK

