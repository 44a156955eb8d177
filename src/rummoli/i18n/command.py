"""The ``rummoli`` command in the language asked for: ``--lang``, else the environment.

Typer builds the command's help texts when ``cli.py`` is imported, before any language is
known, so they are written in English (their message ids) and translated here, on the
click command Typer makes, just before it runs: every command's help, every option's
help, the help option's own line, the ``Usage:`` prefix and the titles of Typer's help
panels, and the errors the command line prints (click's sentences such as "Invalid value
for '--players': ..." are translated by their shape, as the engine's are). Each command
gets a ``--lang`` option, for its help and its check; the language itself is read from
the arguments before click parses them, so ``rummoli play --help --lang fr`` is French
too, and an unknown ``--lang`` is refused, listing the languages, before anything runs.

Typer 0.29 carries its own copy of click, whose messages are plain English strings (and
checks values with pydantic): both are translated by shape, whichever click is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import typer
import typer.main

from rummoli.i18n import (
    NP_,
    LanguageError,
    check_language,
    current_language,
    gettext,
    language_from_environment,
    language_name,
    languages,
    pgettext,
    set_language,
)
from rummoli.i18n.sentences import ERRORS, Shape, translate

#: Texts built anew in the language, by command name and attribute (``play``'s epilog).
Recompute = Mapping[str, Mapping[str, Callable[[], str]]]

HELP_OPTION = NP_("command", "Show this message and exit.")
USAGE = NP_("command", "Usage:")
#: The usage line's placeholders (click's ``options_metavar`` and Typer's
#: ``subcommand_metavar``), as click writes them.
METAVARS = {
    "[OPTIONS]": NP_("command", "[OPTIONS]"),
    "COMMAND [ARGS]...": NP_("command", "COMMAND [ARGS]..."),
}
#: The kinds of value Typer writes beside an option (``<int range>``), by its label, in
#: the other languages (English keeps Typer's own; the range itself follows the label).
VALUE_KINDS = {
    "str": NP_("value kind", "text"),
    "int": NP_("value kind", "integer"),
    "bool": NP_("value kind", "yes/no"),
    "path": NP_("value kind", "path"),
    "int range": NP_("value kind", "integer"),
    "float range": NP_("value kind", "number"),
    "list[str]": NP_("value kind", "texts"),
}

#: Typer's fixed strings (module constants of ``typer.rich_utils``), set in the language.
_TYPER_CONSTANTS = {
    "ARGUMENTS_PANEL_TITLE": NP_("command", "Arguments"),
    "OPTIONS_PANEL_TITLE": NP_("command", "Options"),
    "COMMANDS_PANEL_TITLE": NP_("command", "Commands"),
    "ERRORS_PANEL_TITLE": NP_("command", "Error"),
    "ABORTED_TEXT": NP_("command", "Aborted."),
    "RICH_HELP": NP_("command", "Try [blue]'{command_path} {help_option}'[/] for help."),
    "DEFAULT_STRING": NP_("command", "[default: {}]"),
    "REQUIRED_LONG_STRING": NP_("command", "[required]"),
}

#: The errors click and Typer write, by shape (``{message}`` is translated in turn).
COMMAND_ERRORS = (
    Shape("command", NP_("command", "Invalid value for {hint}: {message}")),
    Shape("command", NP_("command", "Invalid value: {message}")),
    Shape("command", NP_("command", "Missing argument {hint}.")),
    Shape("command", NP_("command", "Missing option {hint}.")),
    Shape("command", NP_("command", "Missing command.")),
    Shape("command", NP_("command", "No such option: {name} (Possible options: {names})")),
    Shape("command", NP_("command", "No such option: {name}")),
    Shape("command", NP_("command", "No such command {name}.")),
    Shape("command", NP_("command", "Got unexpected extra argument(s) ({args})")),
    Shape("command", NP_("command", "Got unexpected extra argument ({args})")),
    Shape("command", NP_("command", "Got unexpected extra arguments ({args})")),
    Shape("command", NP_("command", "{value} is not in the range {range}.")),
    Shape("command", NP_("command", "{value} is not a valid integer.")),
    Shape("command", NP_("command", "{value} is not a valid float.")),
    Shape("command", NP_("command", "{value} is not one of {choices}.")),
    Shape("command", NP_("command", "File {name} does not exist.")),
    Shape("command", NP_("command", "Path {name} does not exist.")),
    # Typer's own check of a Path argument (its label: file, directory or path).
    Shape("command", NP_("command", "file {name} does not exist.")),
    Shape("command", NP_("command", "directory {name} does not exist.")),
    Shape("command", NP_("command", "path {name} does not exist.")),
    Shape("command", NP_("command", "file {name} is a directory.")),
    Shape("command", NP_("command", "path {name} is a directory.")),
    Shape("command", NP_("command", "directory {name} is a file.")),
    Shape("command", NP_("command", "path {name} is a file.")),
    Shape("command", NP_("command", "file {name} is not readable.")),
    Shape("command", NP_("command", "path {name} is not readable.")),
    Shape("command", NP_("command", "file {name} is not writable.")),
    Shape("command", NP_("command", "path {name} is not writable.")),
    Shape("command", NP_("command", "Option {name} requires an argument.")),
    # Typer 0.29 checks values with pydantic, whose messages these are.
    Shape("command", NP_("command", "Input should be less than or equal to {value}")),
    Shape("command", NP_("command", "Input should be greater than or equal to {value}")),
    Shape(
        "command",
        NP_("command", "Input should be a valid integer, unable to parse string as an integer"),
    ),
    Shape(
        "command",
        NP_("command", "Input should be a valid number, unable to parse string as a number"),
    ),
)


def language_in_arguments(argv: Sequence[str]) -> str | None:
    """The value of ``--lang X`` or ``--lang=X`` anywhere before ``--``; None if absent."""
    found = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith("--lang="):
            found = word.partition("=")[2]
    return found


def command_error(text: str) -> str:
    """An error of the command line (click's, Typer's, the engine's), translated."""
    return translate(text, COMMAND_ERRORS + ERRORS, {"message": command_error})


def speak_click() -> None:
    """Make what click and Typer print themselves use the language in force."""
    try:
        rich_utils: Any = importlib.import_module("typer.rich_utils")
    except ImportError:  # Typer without rich
        rich_utils = None
    if rich_utils is not None:
        for attribute, message in _TYPER_CONSTANTS.items():
            if hasattr(rich_utils, attribute):
                setattr(rich_utils, attribute, _p(message))
    for name in ("typer._click.formatting", "click.formatting"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        formatter = getattr(module, "HelpFormatter", None)
        if formatter is not None and not getattr(formatter, "_rummoli", False):
            formatter.write_usage = _usage(formatter.write_usage)
            formatter._rummoli = True


def _p(message: str) -> str:
    from rummoli.i18n import pgettext

    return pgettext("command", message)


def _usage(write_usage: Callable[..., None]) -> Callable[..., None]:
    def translated(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, _p(USAGE) + " " if prefix is None else prefix)

    return translated


def _check_lang(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return check_language(value)
    except LanguageError as error:
        raise typer.BadParameter(str(error)) from None


def lang_option() -> Any:
    """``--lang``, as every command shows it in its help: an option of the click Typer
    uses (made by Typer itself, so it fits whichever click that is). One option object
    serves every command (it holds no state of its own), made once per language."""
    return _lang_option(current_language())


@cache
def _lang_option(lang: str) -> Any:
    known = ", ".join(f"{code} ({language_name(code)})" for code in languages())
    help_text = gettext(
        "the language to speak: {languages} (default: from LC_ALL, LC_MESSAGES or LANG)"
    ).format(languages=known)
    maker = typer.Typer()

    @maker.command()
    def _command(
        lang: str | None = typer.Option(
            None,
            "--lang",
            metavar="LANG",
            help=help_text,
            expose_value=False,
            is_eager=True,
            callback=_check_lang,
        ),
    ) -> None:  # pragma: no cover - only its option is used
        pass

    return next(p for p in typer.main.get_command(maker).params if p.name == "lang")


def translate_command(command: Any, recompute: Recompute) -> None:
    """Translate every help text of ``command`` and its sub-commands in place (English
    stays where the catalogue has nothing), and give each a ``--lang`` option."""
    for attribute in ("help", "short_help", "epilog"):
        text = getattr(command, attribute, None)
        if text:
            setattr(command, attribute, gettext(text))
    for attribute, build in recompute.get(command.name or "", {}).items():
        setattr(command, attribute, build())
    for attribute in ("options_metavar", "subcommand_metavar"):
        placeholder = getattr(command, attribute, None)
        if placeholder in METAVARS:
            setattr(command, attribute, _p(METAVARS[placeholder]))
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = gettext(text)
        _translate_value_kind(param)
    if not any(param.name == "lang" for param in command.params):
        command.params.append(lang_option())
    _translate_help_option(command)
    for sub in getattr(command, "commands", {}).values():
        translate_command(sub, recompute)


def _translate_value_kind(param: Any) -> None:
    """Make Typer's label of ``param``'s kind of value (``<int range>``) speak the
    language (once: the help option is handed out again at each call); a list of
    choices (``<text|json>``) is the values themselves and stays."""
    display_type = getattr(param, "display_type", None)
    if display_type is None or getattr(param, "_rummoli_kind", False):
        return

    def translated(ctx: Any) -> str | None:
        label: str | None = display_type(ctx)
        kind = VALUE_KINDS.get(label[1:-1]) if label and label[0] + label[-1] == "<>" else None
        if kind is not None and (said := pgettext("value kind", kind)) != kind:
            return f"<{said}>"  # English keeps Typer's label as it is
        return label

    param.display_type = translated
    param._rummoli_kind = True


def _translate_help_option(command: Any) -> None:
    original = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None:
            option.help = _p(HELP_OPTION)
            _translate_value_kind(option)
        return option

    command.get_help_option = get_help_option


def localized(
    app: typer.Typer,
    argv: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
    recompute: Recompute | None = None,
) -> Any:
    """The click command of ``app`` in the language ``argv`` and ``environ`` ask for,
    which is now the language in force. :class:`LanguageError` for an unknown ``--lang``
    (in the environment's language)."""
    set_language(language_from_environment(environ))
    explicit = language_in_arguments(sys.argv[1:] if argv is None else argv)
    if explicit is not None:
        set_language(check_language(explicit))
    speak_click()
    command = typer.main.get_command(app)
    translate_command(command, recompute or {})
    return command


def run(app: typer.Typer, recompute: Recompute | None = None) -> None:
    """The ``rummoli`` command: the language chosen, the command translated, run. An
    unknown ``--lang`` or a bad option ends with exit code 2 and a translated error."""
    args = sys.argv[1:]
    try:
        command = localized(app, args, recompute=recompute)
    except LanguageError as error:
        print(f"rummoli: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        code = command.main(args=args, prog_name="rummoli", standalone_mode=False)
    except Exception as error:
        if _is_a(error, "Abort"):  # Ctrl-C or end of input, as click's standalone mode
            print(_p(_TYPER_CONSTANTS["ABORTED_TEXT"]), file=sys.stderr)
            raise SystemExit(1) from None
        if not _is_a(error, "ClickException"):
            raise
        show_error(error)
        raise SystemExit(getattr(error, "exit_code", 2)) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def _is_a(error: BaseException, name: str) -> bool:
    """Whether ``error`` is click's ``name`` class (the real click's or Typer's copy)."""
    return any(cls.__name__ == name for cls in type(error).__mro__)


def show_error(error: Any) -> None:
    """Print a click error as Typer would, its message translated."""
    if _is_a(error, "NoArgsIsHelpError"):  # `rummoli` alone: Typer printed the help
        return
    message = command_error(error.format_message())
    error.format_message = lambda: message
    rich_utils: Any = sys.modules.get("typer.rich_utils")
    if rich_utils is not None and hasattr(rich_utils, "rich_format_error"):
        rich_utils.rich_format_error(error)
    else:
        error.show()
