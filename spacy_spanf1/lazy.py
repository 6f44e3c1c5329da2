"""Names a package exports when first asked for (a module `__getattr__`),
so that importing the package does not import what they need."""

import importlib
from typing import Any, Callable, Dict, Mapping, Sequence


def lazy_exports(package: str, modules: Mapping[str, Sequence[str]], namespace: Dict[str, Any]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package` that imports the module that
    exports a name (`modules`: a module relative to the package -> the
    names it exports) when the name is first asked for, and keeps the
    value in the package's `namespace` (its globals()), so that it is
    looked up once."""
    names = {name: module for module, exported in modules.items() for name in exported}

    def __getattr__(name: str) -> Any:
        if name in names:
            value = getattr(importlib.import_module(f".{names[name]}", package), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
