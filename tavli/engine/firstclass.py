"""Compiled functions handed to kernels by address: called, never compiled into them.

Numba compiles each kernel as a library of its own that links in the code of every
compiled function it calls and optimises and translates the whole again (docs/design.md,
"The first run's compiling"): a search over the evaluator over the encoders pays for the
encoders three times, and none of them can compile before what it calls. A kernel that
receives a function as a *value* of Numba's first-class function type calls it through
its address instead: the callee's code stays in the callee's library, the caller is typed
from the signature alone (so the two compile in parallel, in any order), and one compiled
caller serves every callee of that signature (one evaluator for every family's encoders).

:class:`FirstClass` is such a value: a compiled function and the one signature kernels
call it with (Numba's wrapper address protocol; its type is ``FunctionType(signature)``,
in a tuple too, and a kernel typed with it is found in Numba's cache by the next process).
The function is compiled, or loaded from the cache, the first time a kernel receives it.
The call goes through the function's C wrapper: no exception crosses it, so only
functions that cannot raise are handed over this way (the kernels run with bounds
checking off and report failures in their results).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from numba import typeof
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.types import FunctionType
from numba.core.types.function_type import WrapperAddressProtocol
from numba.core.typing import Signature
from numba.experimental.function_type import _get_wrapper_address
from numba.extending import typeof_impl

# Numba marks first-class functions experimental (since 0.49, unchanged in its 0.6x series);
# the use here is the documented one (tests/test_firstclass.py checks results and caching)
warnings.filterwarnings("ignore", message="First-class function type feature is experimental",
                        category=NumbaExperimentalFeatureWarning)


class FirstClass(WrapperAddressProtocol):
    """The compiled function ``dispatcher`` (an ``@njit`` function) as a value kernels call
    with ``signature`` (a Numba :class:`~numba.core.typing.Signature`). From Python it is
    called as the function itself."""

    def __init__(self, dispatcher: Any, signature: Signature) -> None:
        self.dispatcher = dispatcher
        self._signature = signature
        self._type = FunctionType(signature)
        self._address = 0

    def signature(self) -> Signature:
        """The signature kernels call it with (the wrapper address protocol)."""
        return self._signature

    @property
    def type(self) -> FunctionType:
        """Its Numba type."""
        return self._type

    def __wrapper_address__(self) -> int:
        """The address of its compiled C wrapper: compiled (or loaded from Numba's cache)
        at the first kernel call that receives it, then kept."""
        if not self._address:
            self._address = _get_wrapper_address(self.dispatcher, self._signature)
        return self._address

    def compile(self) -> None:
        """Compile it now (or load it from Numba's cache), as the first kernel call that
        receives it would."""
        self.__wrapper_address__()

    def __call__(self, *args: Any) -> Any:
        return self.dispatcher(*args)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # to another process (a Ray worker) as the function and signature, not the address
        return FirstClass, (by_name(self.dispatcher), self._signature)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, FirstClass) and other.dispatcher is self.dispatcher
                and other._signature == self._signature)

    def __hash__(self) -> int:
        return hash((id(self.dispatcher), self._signature))

    def __repr__(self) -> str:
        return f"FirstClass({self.dispatcher.py_func.__qualname__}, {self._signature})"


class TypedCall:
    """Calls of the compiled function ``dispatcher`` whose arguments are always of the same
    types (the caller makes them so): the first goes through Numba's dispatcher (compiling
    the function or loading it from the cache), the next ones straight to that compiled
    code. Numba types an argument holding a :class:`FirstClass` value in Python at every
    call (an evaluator's tables: some 5 microseconds, a third of a one-position
    evaluation); a call with other types than the first's is unsafe, so only a caller
    that builds every argument itself uses this. Numba versions without the compiled
    code's entry keep dispatching."""

    def __init__(self, dispatcher: Any) -> None:
        self.dispatcher = dispatcher
        self._entry: Any = None

    def __call__(self, *args: Any) -> Any:
        if self._entry is not None:
            return self._entry(*args)
        result = self.dispatcher(*args)
        try:
            self._entry = self.dispatcher.overloads[tuple(typeof(a) for a in args)].entry_point
        except (AttributeError, KeyError):  # another Numba, or a type it converted
            pass
        return result

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return TypedCall, (by_name(self.dispatcher),)  # the entry is this process's


class _Named:
    """A module-level compiled function pickled by its module and name: the receiving
    process imports it. (Numba pickles a dispatcher as its Python function, which the
    receiver compiles again into a new dispatcher without Numba's cache: some seconds in
    every pool or Ray worker, for each function handed over.)"""

    def __init__(self, module: str, qualname: str) -> None:
        self.module, self.qualname = module, qualname

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _import, (self.module, self.qualname)


def _import(module: str, qualname: str) -> Any:
    found: Any = importlib.import_module(module)
    for name in qualname.split("."):
        found = getattr(found, name)
    return found


def by_name(dispatcher: Any) -> Any:
    """What pickles ``dispatcher``: its module and name when importing them finds it (every
    kernel of the package), else the dispatcher itself (Numba's own pickling)."""
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return dispatcher
    try:
        if _import(func.__module__, func.__qualname__) is dispatcher:
            return _Named(func.__module__, func.__qualname__)
    except (ImportError, AttributeError):
        pass
    return dispatcher


# its type kept, not made again at each kernel call (Numba's own rule for the protocol
# builds a FunctionType per call: tens of microseconds)
typeof_impl.register(FirstClass)(lambda val, c: val.type)


__all__ = ["FirstClass", "TypedCall"]
