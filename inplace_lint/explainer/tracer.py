"""The runtime tracer behind ``inplace-lint explain``: it imports torch, so only ``explain`` imports it.

While a :class:`Tracer` is active:

- a ``TorchFunctionMode`` compares the version counter of every tensor argument before and after each
  torch call; a change is an in-place write, recorded with the user-code frame that made the call;
- saved-tensor hooks remember, for every tensor autograd saves, its version and the user line whose op
  saved it. Hooks silence torch's own version check, so the unpack hook redoes it, raising torch's own
  message word for word; on a stale tensor it first looks up the write that moved the version past the
  saved one: that is the culprit;
- ``nn.Module.__init__`` records the user line that built each module, so a write inside a torch module
  called by a torch container (an ``nn.ReLU(inplace=True)`` inside an ``nn.Sequential``) is blamed on the
  line that built the module.

Writes are kept only for storages that a pending backward still holds a saved tensor of (a saved
tensor's record counts itself out when autograd frees it), so a long training run does not grow memory.
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig
import threading
from collections import OrderedDict
from typing import Callable, Dict, List, Optional, Tuple

import torch
from torch.overrides import TorchFunctionMode

from inplace_lint.explainer.records import ImmediateError, Site, StaleSave, Write

# Torch's message for a stale saved tensor (torch/csrc/autograd/saved_variable.cpp), and the two hints.
_HINT = (
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
_ANOMALY_HINT = (
    " Hint: the backtrace further above shows the operation that failed to compute its gradient. The "
    "variable in question was changed in there or anywhere later. Good luck!"
)
_BASE_MODIFIED = "its base or another view of its base has been modified inplace"
_MAX_LAST_WRITES = 256
_MAX_RECORDS = 50  # errors kept for the report (a program may catch and retry many)
_IMMEDIATE = (
    "leaf Variable that requires grad",
    "is the output of a function that returns multiple views",
    "mode and is being modified inplace",
    "mode and its base or another view of its base has been modified inplace",
)


def _library_dirs() -> Tuple[str, ...]:
    """Folders whose code is never the user's: torch, this package, the standard library."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # inplace_lint/
    dirs = {os.path.dirname(torch.__file__), package}
    for key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(path)
    return tuple(os.path.realpath(d) + os.sep for d in dirs)


def default_user_code() -> Callable[[str], bool]:
    """``filename -> bool``: code outside torch, inplace_lint and the standard library."""
    libraries = _library_dirs()

    def is_user(filename: str) -> bool:
        if filename.startswith("<"):
            return not filename.startswith("<frozen")
        return not os.path.realpath(filename).startswith(libraries)

    return is_user


def _version(t) -> Optional[int]:
    try:
        return t._version
    except Exception:  # inference tensors have no version counter
        return None


def _storage_key(t) -> Optional[int]:
    try:
        return t.untyped_storage().data_ptr()
    except Exception:
        return None


def _tensors_in(args, kwargs) -> list:
    """The tensors among a torch call's arguments, and in lists of them (``_foreach_add_(params, ...)``,
    ``torch.cat([a, b])``) two levels deep. Every traced call pays for this, so no recursion."""
    found = []
    for values in (args, kwargs.values()) if kwargs else (args,):
        for a in values:
            if isinstance(a, torch.Tensor):
                found.append(a)
            elif type(a) in _SEQUENCES:
                for b in a:
                    if isinstance(b, torch.Tensor):
                        found.append(b)
                    elif type(b) in _SEQUENCES:
                        found.extend(c for c in b if isinstance(c, torch.Tensor))
    return found


_SEQUENCES = (list, tuple)


def _op_name(func) -> str:
    name = getattr(func, "__name__", None) or repr(func)
    owner = getattr(func, "__objclass__", None) or getattr(func, "__self__", None)
    if name.startswith("__"):  # Tensor.__imul__, Tensor.__setitem__
        return name
    if owner is torch.Tensor or getattr(owner, "__name__", "") in ("TensorBase", "_TensorBase"):
        return f"Tensor.{name}"
    module = getattr(func, "__module__", None) or ""
    if module.startswith("torch.nn.functional"):
        return f"F.{name}"
    if module.startswith("torch"):
        return f"torch.{name}"
    return name


def _module_name(module) -> str:
    cls = type(module)
    prefix = "nn." if cls.__module__.startswith("torch.nn") else ""
    extra = " (inplace=True)" if getattr(module, "inplace", False) is True else ""
    return f"{prefix}{cls.__name__}{extra}"


class _Saved:
    """What the pack hook returns: the tensor, its version when saved, where it was saved.

    Counts itself in and out of the tracer's live storages, so writes are only kept while they can
    still make a saved tensor stale.
    """

    __slots__ = ("tensor", "version", "key", "seq", "site", "op", "role", "grad_fn", "output_nr", "tracer")

    def __init__(self, tracer, tensor, version, key, seq, site, op, role, grad_fn, output_nr):
        self.tensor, self.version, self.key, self.seq = tensor, version, key, seq
        self.site, self.op, self.role, self.grad_fn, self.output_nr = site, op, role, grad_fn, output_nr
        self.tracer = tracer
        live = tracer._live
        live[key] = live.get(key, 0) + 1

    def __del__(self):
        try:
            live = self.tracer._live
            left = live.get(self.key, 0) - 1
            if left > 0:
                live[self.key] = left
            else:
                live.pop(self.key, None)
                self.tracer._writes.pop(self.key, None)
        except Exception:  # interpreter shutdown
            pass


class Tracer(TorchFunctionMode):
    """Record in-place writes and saved tensors; see the module docstring.

    ``is_user(filename)`` says which code is the user's: reported lines are the innermost user frame's.
    """

    def __init__(self, is_user: Optional[Callable[[str], bool]] = None):
        super().__init__()
        self.is_user_file = is_user or default_user_code()
        self._user_code: Dict[object, bool] = {}
        self._writes: Dict[Optional[int], List[Write]] = {}  # storage -> writes while a save of it is live
        self._live: Dict[Optional[int], int] = {}  # storage -> saved tensors autograd still holds
        self._seq = 0
        # storage -> the last write to it, for the error raised when a view is used after its base was
        # written ("its base or another view of its base has been modified inplace"); bounded, oldest out
        self._last_write: "OrderedDict[Optional[int], Write]" = OrderedDict()
        self._stack: List[Tuple[object, list]] = []  # the torch calls running: (func, [(arg, version)])
        self._ctor_sites: Dict[int, Site] = {}
        self._modules: list = []  # modules whose build line is known, kept alive so ids stay unique
        self.stale: List[StaleSave] = []
        self.immediate: List[ImmediateError] = []
        self._thread = None
        self._exits: list = []

    # --- where in the user's code ----------------------------------------------------------------

    def _is_user(self, code) -> bool:
        known = self._user_code.get(code)
        if known is None:
            known = self._user_code[code] = self.is_user_file(code.co_filename)
        return known

    def site(self, frame) -> Optional[Site]:
        """The user line responsible for the op running under ``frame``, with the torch modules between.

        The innermost user frame, skipping a custom ``autograd.Function``'s forward (its writes are the
        ``apply`` call's, as the caller sees them). When the op runs in a torch module's forward that
        a torch container called (an ``nn.ReLU(inplace=True)`` in an ``nn.Sequential``), the primary
        line is the one that built the innermost module.
        """
        modules = []
        while frame is not None:
            code = frame.f_code
            if self._is_user(code):
                if not _in_function_forward(frame):
                    return self._make_site(frame, modules)
            elif code.co_name == "forward":
                owner = frame.f_locals.get("self")
                if isinstance(owner, torch.nn.Module) and (not modules or modules[-1] is not owner):
                    modules.append(owner)
            frame = frame.f_back
        return None

    def _make_site(self, frame, modules) -> Site:
        code = frame.f_code
        module = built = None
        via_container = False
        if modules:
            module = _module_name(modules[0])
            built = self._ctor_sites.get(id(modules[0]))
            via_container = len(modules) >= 2
        return Site(
            path=code.co_filename,
            line=frame.f_lineno,
            code=code,
            lasti=frame.f_lasti,
            function=code.co_name,
            module=module,
            module_built=built,
            via_container=via_container and built is not None,
        )

    # --- in-place writes ---------------------------------------------------------------------------

    def __torch_function__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True
        kwargs = kwargs or {}
        if threading.get_ident() != self._thread:  # threads off: only the thread that entered is traced
            return func(*args, **kwargs)
        before = [(t, _version(t)) for t in _tensors_in(args, kwargs)]
        self._stack.append((func, before))
        try:
            return func(*args, **kwargs)
        except RuntimeError as error:
            message = str(error)
            if any(text in message for text in _IMMEDIATE):
                site = self.site(sys._getframe(1))
                if site is not None:
                    if len(self.immediate) >= _MAX_RECORDS:
                        del self.immediate[0]
                    write = None
                    if _BASE_MODIFIED in message:  # raised where the view is used: find the write
                        for t, _ in before:
                            write = self._last_write.get(_storage_key(t)) if t._is_view() else None
                            if write is not None:
                                break
                    self.immediate.append(ImmediateError(site=site, op=_op_name(func), message=message,
                                                         write=write))
            raise
        finally:
            self._stack.pop()
            if before:
                self._record_writes(func, before)

    def _record_writes(self, func, before) -> None:
        live, site = self._live, None
        seen = set()
        for t, was in before:
            now = _version(t)
            if was is None or now is None or now == was:
                continue
            key = _storage_key(t)
            if (key, was) in seen:
                continue
            # kept for a pending save of this storage, or for torch's error at a later use of a view of
            # it (raised only for a write with grad mode on to a tensor that requires grad)
            wanted = key in live
            if not wanted and not (t.requires_grad and torch.is_grad_enabled()):
                continue
            seen.add((key, was))
            if site is None:
                site = self.site(sys._getframe(2))
            self._seq += 1
            write = Write(seq=self._seq, site=site, op=_op_name(func), before=was, after=now,
                          shape=tuple(t.shape), dtype=str(t.dtype).replace("torch.", ""),
                          is_view=t._is_view())
            if wanted:
                self._writes.setdefault(key, []).append(write)
            last = self._last_write
            last[key] = write
            last.move_to_end(key)
            if len(last) > _MAX_LAST_WRITES:
                last.popitem(last=False)

    # --- saved tensors -----------------------------------------------------------------------------

    def pack(self, t):
        version = _version(t)
        if threading.get_ident() != self._thread or version is None:
            return _Plain(t)
        op, role = None, "result"
        if self._stack:
            func, arguments = self._stack[-1]
            op = _op_name(func)
            # an argument the op did not write is an input; one it wrote (exp_ saves its result) a result
            if any(a is t and was == version for a, was in arguments):
                role = "input"
        else:  # saved outside any torch call: a custom autograd.Function's ctx.save_for_backward
            op, arguments = _function_applied(sys._getframe(1))
            if t.grad_fn is None or t.is_leaf or any(a is t for a in arguments):
                role = "input"
        self._seq += 1
        grad_fn = t.grad_fn
        return _Saved(self, t, version, _storage_key(t), self._seq, self.site(sys._getframe(1)), op, role,
                      grad_fn.name() if grad_fn is not None else None, t.output_nr)

    def unpack(self, saved):
        __tracebackhide__ = True  # pytest: the error is torch's, not the tracer's
        if isinstance(saved, _Plain):
            return saved.tensor
        t = saved.tensor
        now = _version(t)
        if now is not None and now != saved.version:
            culprit = next(
                (w for w in self._writes.get(saved.key, ())
                 if w.seq > saved.seq and w.before <= saved.version < w.after),
                None,
            )
            if len(self.stale) >= _MAX_RECORDS:
                del self.stale[0]
            self.stale.append(StaleSave(
                site=saved.site, op=saved.op, role=saved.role, shape=tuple(t.shape),
                dtype=str(t.dtype).replace("torch.", ""), saved_version=saved.version, version=now,
                culprit=culprit, is_view=t._is_view(),
            ))
            raise RuntimeError(_version_message(t, saved, now))
        return t

    # --- activation --------------------------------------------------------------------------------

    def __enter__(self):
        self._thread = threading.get_ident()
        original_init = torch.nn.Module.__init__
        tracer = self

        def recording_init(module, *args, **kwargs):
            original_init(module, *args, **kwargs)
            if threading.get_ident() == tracer._thread and id(module) not in tracer._ctor_sites:
                site = tracer.site(sys._getframe(1))
                if site is not None:
                    tracer._ctor_sites[id(module)] = site
                    tracer._modules.append(module)

        # backward() reaches the engine through this mode's __torch_function__, which runs with the mode
        # off: put it back on for the engine, so writes in hooks and custom backward()s are seen
        autograd = torch.autograd
        original_engine = autograd._engine_run_backward

        def traced_engine(*args, **kwargs):
            if threading.get_ident() != tracer._thread or tracer in _mode_stack():
                return original_engine(*args, **kwargs)
            TorchFunctionMode.__enter__(tracer)
            try:
                return original_engine(*args, **kwargs)
            finally:
                TorchFunctionMode.__exit__(tracer, None, None, None)

        torch.nn.Module.__init__ = recording_init
        autograd._engine_run_backward = traced_engine
        hooks = torch.autograd.graph.saved_tensors_hooks(self.pack, self.unpack)
        hooks.__enter__()
        self._exits = [lambda *exc: hooks.__exit__(*exc),
                       lambda *exc: setattr(torch.nn.Module, "__init__", original_init),
                       lambda *exc: setattr(autograd, "_engine_run_backward", original_engine)]
        return super().__enter__()

    def __exit__(self, *exc):
        try:
            return super().__exit__(*exc)
        finally:
            for undo in self._exits:
                undo(*exc)
            self._exits = []


def _function_applied(frame) -> Tuple[Optional[str], tuple]:
    """``("MyFn.apply", its arguments)`` when ``frame`` runs inside a custom ``autograd.Function``'s
    ``apply``, else ``(None, ())``."""
    for _ in range(8):
        if frame is None:
            break
        if frame.f_code.co_name == "apply":
            cls = frame.f_locals.get("cls")
            if isinstance(cls, type) and issubclass(cls, torch.autograd.Function):
                arguments = frame.f_locals.get("args")
                return f"{cls.__name__}.apply", arguments if isinstance(arguments, tuple) else ()
        frame = frame.f_back
    return None, ()


def _mode_stack():
    from torch.overrides import _get_current_function_mode_stack

    return _get_current_function_mode_stack()


class _Plain:
    """A saved tensor the tracer does not check (another thread's, or one without a version)."""

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor


def _in_function_forward(frame) -> bool:
    """Is ``frame`` a custom ``autograd.Function``'s forward (its first argument the Function's ctx)?"""
    code = frame.f_code
    if code.co_name != "forward" or not code.co_argcount:
        return False
    return isinstance(frame.f_locals.get(code.co_varnames[0]), torch.autograd.function.FunctionCtx)


def _version_message(t, saved: _Saved, now: int) -> str:
    """Torch's own error for a stale saved tensor, word for word: it names the saved tensor's node, which
    for an input is the tensor's node now (after the write), for a result the node that saved it."""
    text = (
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"[{t.type()} {list(t.shape)}]"
    )
    name, output_nr = saved.grad_fn, saved.output_nr
    if saved.role == "input":
        grad_fn = t.grad_fn
        name = grad_fn.name() if grad_fn is not None else None
        if name is not None and t._is_view():  # torch rebuilds a written view's node as AsStrided
            name = "AsStridedBackward0"
        output_nr = t.output_nr
    if name is not None:
        # the node's name as torch prints it: ExpBackward0 -> Exp, ClampBackward1 -> Clamp1, FnBackward -> Fn
        name = re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) == "0" else m.group(1), name)
        text += f", which is output {output_nr} of {name},"
    text += f" is at version {now}; expected version {saved.version} instead."
    return text + (_ANOMALY_HINT if torch.is_anomaly_enabled() else _HINT)
