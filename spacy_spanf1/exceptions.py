"""The package's two exceptions.

`SettingError`: a setting is wrong (a scheme name, a threshold out of
range, an option a format does not take, a missing one). It is a
ValueError (only: `except ValueError` catches it), and `.setting` names
the setting as Python spells it (`iou_threshold`); the command line shows
the flag of that setting instead (`--iou-threshold`).

`InputError`: the input is wrong (a file, a line, a document, a span).
`str()` is one line, `path:line: problem`.

Messages name settings in quotes as Python spells them ('spans_key');
nothing here knows the command line.
"""

from pathlib import Path
from typing import Optional, Union

PathLike = Union[str, Path]

__all__ = ["InputError", "SettingError"]


class SettingError(ValueError):
    """A bad setting.

    message (str): What is wrong and what is valid.
    setting (Optional[str]): The setting at fault, e.g. "format", "unit",
        "iou_threshold"; str() names it when the message does not.
    """

    def __init__(self, message: str, setting: Optional[str] = None):
        self.message = message
        self.setting = setting
        named = setting is None or f"'{setting}'" in message or f"{setting}=" in message
        super().__init__(message if named else f"'{setting}': {message}")

    def __reduce__(self):
        return (type(self), (self.message, self.setting))


class InputError(ValueError):
    """Bad input data. str() gives one line: `path:line: problem`.

    setting (Optional[str]): The setting the problem is about, if any (e.g.
        "labels", "spans_key"); without a path, str() starts with it.
    """

    def __init__(
        self,
        message: str,
        path: Optional[PathLike] = None,
        line: Optional[int] = None,
        *,
        setting: Optional[str] = None,
    ):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.setting = setting
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None:
            return self.message if self.setting is None else f"'{self.setting}': {self.message}"
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"

    def __reduce__(self):
        return (_input_error, (self.message, self.path, self.line, self.setting))


def _input_error(message, path, line, setting) -> InputError:
    return InputError(message, path, line, setting=setting)
