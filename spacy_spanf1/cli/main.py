"""The typer app of `spacy-spanf1` and what every command shares: running
a plain function with its errors turned into one line (`run`), the
--schemes option given once, and a Dask client when one is asked for."""

import contextlib
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException
from wasabi import color

from ..about import __version__
from ..exceptions import InputError, SettingError
from ..settings import LINK_SCHEMES, RELATION_SCHEMES, SCHEMES, STRING_SCHEMES
from .options import flag, flags_of
from .output import use_color

NAME = "spacy-spanf1"
HELP = """Span precision, recall and F1 under explicitly named matching schemes
(strict, exact, partial, type, iou, overlap). Run a command with --help for
its options."""


def closed_pipe(exit_code: int = 0) -> None:
    """Exit quietly (with status 0, unless the command was failing) when the
    reader of stdout has gone (`| head`): what is still to print goes
    nowhere (click would exit 1, and Python's flush at exit would print a
    traceback)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    raise typer.Exit(exit_code)


@contextlib.contextmanager
def quiet_when_stdout_closes() -> Iterator[None]:
    """Run a step of the command line, stdout flushed at its end (a
    closed pipe shows there, not at exit): stdout closed by its reader ends
    it quietly (`closed_pipe`)."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        closed_pipe()
    except typer.Exit as done:  # --help, --version, a command's end or failure
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            closed_pipe(done.exit_code)
        raise


#: The exit status of an unexpected exception: not bad input (1) nor a
#: usage error (2), but a bug of the package or an exception of the user's
#: own code (a pipeline component, a --code file); sysexits' EX_SOFTWARE.
UNEXPECTED_ERROR = 70


@contextlib.contextmanager
def unexpected_errors() -> Iterator[None]:
    """Run a command: an exception that is not one of the ends click and
    `run` make (bad input, a bad setting, --help, a closed stdout) keeps
    its traceback, is not called bad input, and exits with
    UNEXPECTED_ERROR."""
    try:
        yield
    except (typer.Exit, typer.Abort, TyperException, BrokenPipeError):
        raise
    except Exception as err:
        traceback.print_exc()
        print(
            f"✘ Unexpected {type(err).__name__} (not a problem of the input or the options): if the traceback "
            f"above ends in {NAME}'s code rather than in a pipeline's or a --code file's, please report it "
            "with the traceback and the command",
            file=sys.stderr,
        )
        raise typer.Exit(UNEXPECTED_ERROR) from None


class QuietPipeGroup(TyperGroup):
    """The app's group: every command, and --help and --version, ends
    quietly with status 0 when the reader of stdout goes early (`| head`,
    `| true`), as `compare | head -1` does."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:  # a click Context, of typer's own copy of click
        with quiet_when_stdout_closes():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]  # typer gives its Context
        with quiet_when_stdout_closes(), unexpected_errors():
            return super().invoke(ctx)


app = typer.Typer(
    name=NAME,
    help=HELP,
    cls=QuietPipeGroup,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        print(f"{NAME} {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit"
    ),
) -> None:
    # The app's help is HELP; this callback only takes --version.
    return None


def fail(message: str, exits: int = 1) -> None:
    """Print one line on stderr and exit."""
    line = " ".join(str(message).split())
    text = f"✘ {line}"
    if use_color(sys.stderr):
        text = color(text, fg="red")
    print(text, file=sys.stderr)
    raise typer.Exit(exits)


def run(ctx: typer.Context, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a plain function; bad input -> one line on stderr, status 1; a
    bad setting -> a usage error naming its flag, status 2; stdout closed
    early by its reader -> status 0, quietly; any other exception goes on
    (the app shows its traceback: `unexpected_errors`)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a character no encoding has is shown escaped, never a traceback
            stream.reconfigure(errors="backslashreplace")
    try:
        result = func(*args, **kwargs)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return result
    except BrokenPipeError:
        closed_pipe()
    except SettingError as err:
        command = _settings_of(ctx)
        message = flags_of(err.message, command)
        if err.setting:
            raise typer.BadParameter(message, ctx=ctx, param_hint=f"'{flag(err.setting, command)}'") from None
        ctx.fail(message)
    except InputError as err:
        command = _settings_of(ctx)
        if err.path is None and err.setting is not None:
            fail(f"{flag(err.setting, command)}: {flags_of(err.message, command)}", 1)
        fail(flags_of(str(err), command), 1)


def _settings_of(ctx: typer.Context) -> List[str]:
    """The settings of the command's own options and arguments."""
    return [str(param.name) for param in ctx.command.params] if ctx.command is not None else []


def one_schemes(schemes: Optional[List[str]]) -> str:
    """The --schemes value, given once (a repeated option is an error, not
    "the last one wins")."""
    if not schemes:
        raise SettingError(
            f"Missing option '--schemes': name at least one scheme, e.g. --schemes strict,iou. "
            f"Valid schemes: {', '.join(SCHEMES + STRING_SCHEMES + LINK_SCHEMES + RELATION_SCHEMES)}"
        )
    if len(schemes) > 1:
        given = " ".join(f"-s {s}" for s in schemes)
        raise SettingError(
            f"'schemes' is given {len(schemes)} times ({given}); give it once, comma-separated: "
            f"--schemes {','.join(schemes)}",
            "schemes",
        )
    return schemes[0]


def on_cluster(
    func: Callable[..., Any], cluster: Optional[str], scheduler: Optional[str], scheduler_file: Optional[Path]
) -> Callable[..., Any]:
    """func(client=...) inside `distributed.open_client` (None: in-process,
    and Dask is not imported); the cluster closes on any exit, Ctrl-C too."""

    def run_on(**kwargs: Any) -> Any:
        if not (cluster or scheduler or scheduler_file):
            return func(**kwargs)
        from ..distributed.run import open_client

        with open_client(cluster, scheduler, None if scheduler_file is None else str(scheduler_file)) as client:
            return func(client=client, **kwargs)

    return run_on


#: The options of a Dask client (`on_cluster`).
CLUSTER_OPTIONS = ("cluster", "scheduler", "scheduler_file")


def run_command(ctx: typer.Context, plain: Callable[..., Any], arguments: Sequence[str], values: Dict[str, Any]) -> Any:
    """The command's plain function, plain(*arguments, schemes=..., **the
    other options), on a Dask client when one is asked for; its errors as
    `run` shows them."""
    positional = [values[name] for name in arguments]
    rest = {
        name: value
        for name, value in values.items()
        if name not in arguments and name not in CLUSTER_OPTIONS and name != "schemes"
    }
    func = on_cluster(
        lambda **kw: plain(*positional, schemes=one_schemes(values["schemes"]), **kw),
        *(values.get(name) for name in CLUSTER_OPTIONS),  # a command without them runs in-process
    )
    return run(ctx, func, **rest)
