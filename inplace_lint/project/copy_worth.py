"""Which imported definitions can bring a caller an in-place hazard: what whole-program linking
(inplace_lint.project.linking) copies into an importing file.

A definition is worth copying when, called, it may write in place a tensor its caller can hold (a
parameter, or what it leads to; a module built in place; an optimizer step), or uses one that does
outside no_grad code. Judged on Python's ``ast`` of the definition's own text, a scope at a time; nothing
is imported or run. The linker asks through two hooks, :func:`writes_in_place` and
:func:`names_run_with_grad`.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Tuple

from inplace_lint.project.linking import definition_tree


# What a definition may write a tensor in place with (a wider net than the rules: a linked definition
# is only copied when it, or one it uses, matches): ``x.add_(``, ``+=`` and the other augmented
# assignments, ``x[i] =``, ``inplace=``, ``out=``, ``max_norm=``, ``nn.ReLU(True)``, ``.step(``
_WRITES_IN_PLACE = re.compile(
    r"[^\W_]_\s*\("
    r"|(?<![=<>!])(?:\+|-|\*|/|@|%|&|\||\^|//|\*\*|<<|>>)=(?!=)"
    r"|\]\s*=(?!=)"
    r"|\b(?:inplace|out|max_norm)\s*="
    r"|nn\.\w+\(\s*True"
    r"|\.(?:step|load_state_dict)\s*\("
)


def writes_in_place(text: str) -> bool:
    """May this definition, when called, write in place a tensor its caller can hold: one of its
    parameters (or what they lead to: ``x.view(-1).add_(1)``, ``self.state.mul_(d)``), a module built in
    place? What it makes itself (``torch.zeros(...).add_(1)``, ``kwargs[k] = v``, ``noise =
    x.new_empty(s).bernoulli_(p)``), its module's globals and writes under no_grad
    that read no gradient (initialisation: ``nn.init.trunc_normal_(m.weight)``, ``load_state_dict``) are
    no hazard it brings to a caller."""
    if _WRITES_IN_PLACE.search(text) is None:
        return False
    scopes = _scopes_of(text)
    if scopes is None:
        return True
    try:
        return any(scope.builds_in_place for scope in scopes) or any(
            any(scope.writes_outside()) for scope in scopes if scope.is_function)
    except RecursionError:
        return True


def names_run_with_grad(text: str) -> Optional[frozenset]:
    """The names this definition refers to outside no_grad code (None: every name it mentions): a helper
    it calls only under no_grad brings its callers no hazard either."""
    if "no_grad" not in text and "inference_mode" not in text:
        return None
    scopes = _scopes_of(text)
    if scopes is None:
        return None
    return frozenset().union(*(scope.loads for scope in scopes))


_LAST_SCOPES: List[Tuple[str, Optional[List["_Scope"]]]] = []  # the text both hooks were last asked about


def _scopes_of(text: str) -> Optional[List["_Scope"]]:
    """The scopes of a definition's text (None: it does not parse), for both hooks from one parse."""
    if _LAST_SCOPES and _LAST_SCOPES[0][0] is text:
        return _LAST_SCOPES[0][1]
    tree = definition_tree(text)
    try:
        scopes = None if tree is None else _scopes(tree)
    except RecursionError:
        scopes = None
    _LAST_SCOPES[:] = [(text, scopes)]
    return scopes


# Python's builtins that build a new value from their arguments (``len(x)``, ``dict(d)``)
_FRESH_BUILTINS = frozenset({"abs", "bool", "float", "int", "len", "range", "round", "str", "sum"})
_CONTAINER_BUILTINS = frozenset({"dict", "list", "set", "tuple", "sorted", "zip", "enumerate", "OrderedDict",
                                 "defaultdict", "deque"})
# an annotation naming only these says the parameter holds no tensor
_PLAIN_TYPES = frozenset({"Optional", "Union", "Dict", "dict", "List", "list", "Tuple", "tuple", "Set", "set",
                          "FrozenSet", "frozenset", "str", "int", "float", "bool", "bytes", "Mapping",
                          "MutableMapping", "Sequence", "Iterable", "Callable", "Type", "type", "None",
                          "Literal", "typing"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# methods of str a Tensor does not have
_STR_METHODS = frozenset({"format", "join", "lower", "lstrip", "rstrip", "strip", "upper", "removeprefix",
                          "removesuffix"})


def _is_inplace_method(name: str) -> bool:
    return len(name) > 1 and name.endswith("_") and not name.endswith("__") and name[-2] != "_"


def _dotted(node) -> Optional[List[str]]:
    """``a.b.c`` as its names, None for anything else."""
    names = []
    while type(node) is ast.Attribute:
        names.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
        return None
    names.append(node.id)
    return names[::-1]


def _no_grad(node) -> bool:
    """``torch.no_grad()``, ``torch.inference_mode()`` (or without the call, as a decorator)."""
    names = _dotted(node.func if type(node) is ast.Call else node)
    return names is not None and names[-1] in ("no_grad", "inference_mode")


def _reads_grad(node) -> bool:
    """Does no_grad code read ``.grad``: an optimizer's update (``p -= lr * p.grad``), which runs between
    a forward and its backward, not an initialisation?"""
    return any(type(n) is ast.Attribute and n.attr == "grad" for n in ast.walk(node))


def _root(node):
    while type(node) in (ast.Attribute, ast.Subscript, ast.Starred) or (
            type(node) is ast.Call and type(node.func) is ast.Attribute):
        node = node.func.value if type(node) is ast.Call else node.value
    return node


def _scopes(tree: ast.AST) -> List["_Scope"]:
    scopes = []
    work = [_Scope(None, tree, frozenset(), False)]
    while work:
        scope = work.pop()
        scopes.append(scope)
        outer = scope.outer | scope.params | set(scope.bound) if scope.is_function else scope.outer
        classes = {id(method): klass for klass in scope.classes for method in klass.body}
        for function, no_grad in scope.functions:
            inner = _Scope(function, function, frozenset(outer), no_grad)
            inner.klass = classes.get(id(function))
            work.append(inner)
    return scopes


_CLASS_CONTAINERS: Dict[int, Tuple[ast.ClassDef, Dict[str, int]]] = {}


def _class_containers(klass: ast.ClassDef) -> Dict[str, int]:
    """The containers a class keeps in its attributes (name -> _container_depth): set, by every method
    that sets them, to one made there."""
    known = _CLASS_CONTAINERS.get(id(klass))
    if known is not None and known[0] is klass:
        return known[1]
    made: Dict[str, int] = {}
    other = set()
    for method in klass.body:
        if type(method) not in (ast.FunctionDef, ast.AsyncFunctionDef) or not (
                method.args.posonlyargs + method.args.args):
            continue
        self_name = (method.args.posonlyargs + method.args.args)[0].arg
        for statement in ast.walk(method):
            if type(statement) is ast.Assign:
                for target in statement.targets:
                    if type(target) is ast.Attribute and type(target.value) is ast.Name and \
                            target.value.id == self_name:
                        depth = _container_depth(statement.value)
                        if depth:
                            made[target.attr] = min(made.get(target.attr, depth), depth)
                        else:
                            other.add(target.attr)
    made = {name: depth for name, depth in made.items() if name not in other}
    if len(_CLASS_CONTAINERS) > 64:
        _CLASS_CONTAINERS.clear()  # the classes of the last few definitions judged
    _CLASS_CONTAINERS[id(klass)] = (klass, made)
    return made


def _container_depth(value) -> int:
    """A container made by ``value`` (1), of containers it makes too (2: ``defaultdict(dict)``); else 0."""
    kind = type(value)
    if kind in (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp):
        return 1
    if kind is ast.Call and type(value.func) is ast.Name and value.func.id in _CONTAINER_BUILTINS:
        if value.func.id == "defaultdict" and value.args and type(value.args[0]) is ast.Name and \
                value.args[0].id in _CONTAINER_BUILTINS:
            return 2
        return 1
    return 0


class _Scope:
    """One function's names: its parameters, what it binds and from what, its write sites, and the
    names it refers to outside no_grad code."""

    def __init__(self, function, root, outer: frozenset, no_grad: bool):
        self.outer = outer  # the data names of the functions around it
        self.functions: List[Tuple[ast.AST, bool]] = []  # the functions defined in it (, under no_grad)
        self.params = set()
        # parameters no caller's tensor is reached through: annotated with types that hold no tensor
        # (Optional[Dict], int), ``__init__``'s self
        self.plain = set()
        self.containers = set()  # *args, **kwargs (made for the call), parameters annotated Dict, List
        self.is_function = function is not None
        self.klass: Optional[ast.ClassDef] = None  # the class of a method
        self.classes: List[ast.ClassDef] = []  # the classes defined in it
        self.builds_in_place = False  # inplace=, nn.ReLU(True), max_norm=, an optimizer step
        self.self_name = None
        if function is not None:
            arguments = function.args
            for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
                self.params.add(arg.arg)
                if arg.annotation is not None and _plain(arg.annotation):
                    self.plain.add(arg.arg)
                if arg.annotation is not None and _container(arg.annotation):
                    self.containers.add(arg.arg)
            for arg in (arguments.vararg, arguments.kwarg):
                if arg is not None:
                    self.params.add(arg.arg)
                    self.containers.add(arg.arg)
            no_grad = no_grad or (any(_no_grad(d) for d in getattr(function, "decorator_list", ()))
                                  and not _reads_grad(function))
            positional = arguments.posonlyargs + arguments.args
            self.self_name = positional[0].arg if positional else None
            if getattr(function, "name", None) == "__init__" and positional:
                self.plain.add(positional[0].arg)  # the object it builds: no caller holds its state yet
        self.bound: Dict[str, List] = {}  # name -> the values bound to it (None: unknown)
        self.declared = set()  # global, nonlocal: not this scope's
        # (what is written, True: only what it holds is replaced, x[i] = v; ``body += [x]``)
        self.sites: List[Tuple[ast.AST, bool]] = []
        self.loads = set()  # names mentioned outside no_grad code
        body = [root.body] if type(root) is ast.Lambda else list(root.body)
        if function is not None:
            body += [d for d in function.args.defaults + function.args.kw_defaults if d is not None]
        self._collect(body, no_grad)

    def _collect(self, nodes, no_grad: bool) -> None:
        stack = [(node, no_grad) for node in nodes]
        while stack:
            node, no_grad = stack.pop()
            kind = type(node)
            if kind is ast.Name:
                if not no_grad:
                    self.loads.add(node.id)
                continue
            if kind in _FUNCTIONS:
                if kind is not ast.Lambda:
                    self.bound.setdefault(node.name, []).append(None)
                    stack.extend((d, no_grad) for d in node.decorator_list)
                self.functions.append((node, no_grad))  # a scope of its own
                continue
            if kind in (ast.With, ast.AsyncWith):
                stack.extend((item, no_grad) for item in node.items)
                inside = no_grad or (any(_no_grad(item.context_expr) for item in node.items)
                                     and not _reads_grad(node))
                stack.extend((statement, inside) for statement in node.body)
                continue
            if kind is ast.Call:
                self._builds_in_place(node)
            elif kind is ast.ClassDef:
                self.classes.append(node)
            if no_grad:
                pass  # what runs under no_grad writes no tensor a caller saved for backward
            elif kind is ast.AugAssign:
                # ``body += [x]`` writes the list ``body`` is: one made here is enough
                self.sites.append((node.target, type(node.target) is ast.Name))
            elif kind is ast.Call:
                func = node.func
                if (type(func) is ast.Attribute and _is_inplace_method(func.attr)) or (
                        type(func) is ast.Name and _is_inplace_method(func.id)):
                    self.sites.append((node, False))
                for keyword in node.keywords:
                    if keyword.arg == "out":
                        self.sites.append((keyword.value, False))
            if kind is ast.Assign:
                for target in node.targets:
                    self._bind(target, node.value, no_grad)
            elif kind is ast.AnnAssign and node.value is not None:
                self._bind(node.target, node.value, no_grad)
            elif kind is ast.AugAssign and type(node.target) is ast.Name:
                self.bound.setdefault(node.target.id, [])
            elif kind is ast.NamedExpr:
                self._bind(node.target, node.value, no_grad)
            elif kind in (ast.For, ast.AsyncFor, ast.comprehension):
                self._bind(node.target, None, no_grad)
            elif kind is ast.withitem and node.optional_vars is not None:
                self._bind(node.optional_vars, None, no_grad)
            elif kind in (ast.Global, ast.Nonlocal):
                self.declared.update(node.names)
            elif kind is ast.ExceptHandler and node.name:
                self.bound.setdefault(node.name, []).append(None)
            stack.extend((child, no_grad) for child in ast.iter_child_nodes(node))

    def _builds_in_place(self, call: ast.Call) -> None:
        for keyword in call.keywords:
            if keyword.arg in ("inplace", "max_norm") and not (
                    type(keyword.value) is ast.Constant and keyword.value.value in (False, None)):
                self.builds_in_place = True  # a module or functional op built or run in place
        func = call.func
        if type(func) is ast.Attribute:
            if func.attr == "step":
                self.builds_in_place = True  # an optimizer step: parameters written in place
            elif call.args and type(call.args[0]) is ast.Constant and call.args[0].value is True and \
                    _dotted(func.value) is not None:
                self.builds_in_place = True  # nn.ReLU(True)

    def _bind(self, target, value, no_grad: bool) -> None:
        kind = type(target)
        if kind is ast.Name:
            self.bound.setdefault(target.id, []).append(value)
        elif kind in (ast.Tuple, ast.List):
            for element in target.elts:
                self._bind(element, None, no_grad)
        elif kind is ast.Starred:
            self._bind(target.value, None, no_grad)
        elif kind is ast.Subscript and not no_grad:
            self.sites.append((target, True))  # x[i] = v writes x

    def _local(self, name: str) -> bool:
        return name in self.bound and name not in self.params and name not in self.declared

    def _data(self, name: str) -> bool:
        """Is ``name`` data of this call (a parameter, a local, one of the enclosing function's), not a
        global of its module or a module?"""
        return name in self.params or self._local(name) or (name in self.outer and name not in self.bound)

    def fresh(self, node, replaced: bool = False, seen=None) -> bool:
        """Is ``node`` certainly made here (no caller holds it, nor a view of what it holds)?
        ``replaced``: only an element is replaced (``node[i] = v``): a container made here is enough."""
        kind = type(node)
        if kind is ast.Constant or kind is ast.JoinedStr:
            return True
        if kind in (ast.BinOp, ast.UnaryOp, ast.Compare):
            return True  # a new value
        if kind is ast.BoolOp:
            return all(self.fresh(v, replaced, seen) for v in node.values)
        if kind in (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
                    ast.GeneratorExp):
            if replaced:
                return True
            if kind in (ast.List, ast.Tuple, ast.Set):
                return all(self.fresh(e, False, seen) for e in node.elts)
            if kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp):
                return self.fresh(node.elt, False, seen)
            return False
        if kind is ast.IfExp:
            return self.fresh(node.body, replaced, seen) and self.fresh(node.orelse, replaced, seen)
        if kind is ast.Name:
            name = node.id
            if name in self.params:
                return name in self.plain or (replaced and name in self.containers)
            if not self._local(name):
                return False
            seen = set() if seen is None else seen
            if name in seen:
                return True  # a cycle: the other bindings decide
            seen.add(name)
            return all(value is not None and self.fresh(value, replaced, seen) for value in self.bound[name])
        if kind is ast.Call:
            func = node.func
            if type(func) is ast.Name and not self._data(func.id):
                return func.id in _FRESH_BUILTINS or (replaced and func.id in _CONTAINER_BUILTINS) or \
                    self._made_of_fresh(node, seen)
            if type(func) is ast.Attribute:
                if func.attr == "clone" or func.attr.startswith("new_"):
                    return True  # x.clone(), x.new_empty(...)
                dotted = _dotted(func.value)
                if dotted is not None and not self._data(dotted[0]):
                    return self._made_of_fresh(node, seen)  # torch.zeros(3, 4)
                # what a method of a tensor made here returns is made here too
                return self.fresh(func.value, False, seen)
            return False
        if replaced and self._made_attribute(node, 1):
            return True  # self.outputs[k] = v
        if replaced and kind is ast.Subscript and self._made_attribute(node.value, 2):
            return True  # self.outputs[device][k] = v, outputs a defaultdict(dict)
        if kind in (ast.Subscript, ast.Attribute, ast.Starred):
            return self.fresh(node.value, False, seen)
        return False

    def _str(self, node, seen=None) -> bool:
        """Is ``node`` certainly a str (no tensor is indexed by one)?"""
        kind = type(node)
        if kind is ast.Constant:
            return type(node.value) is str
        if kind is ast.JoinedStr:
            return True
        if kind is ast.BinOp and type(node.op) in (ast.Add, ast.Mod):
            return self._str(node.left, seen) or (type(node.op) is ast.Add and self._str(node.right, seen))
        if kind is ast.Call and type(node.func) is ast.Attribute:
            return node.func.attr in _STR_METHODS
        if kind is ast.Name and self._local(node.id):
            seen = set() if seen is None else seen
            if node.id in seen:
                return True
            seen.add(node.id)
            # one binding a str is enough (``tag = tag.strip("*")``): no name indexes both a tensor and a dict
            return any(value is not None and self._str(value, seen) for value in self.bound[node.id])
        return False

    def _made_of_fresh(self, call, seen) -> bool:
        """A function of a module called with nothing of the caller's (``load(path)``, ``path`` a str)
        returns nothing of the caller's either."""
        values = list(call.args) + [keyword.value for keyword in call.keywords]
        return all(self.fresh(value.value if type(value) is ast.Starred else value, False, seen)
                   for value in values)

    def _made_attribute(self, node, depth: int) -> bool:
        return type(node) is ast.Attribute and type(node.value) is ast.Name and \
            node.value.id == self.self_name and self.klass is not None and \
            _class_containers(self.klass).get(node.attr, 0) >= depth

    def writes_outside(self):
        """For each write site: may it write what a caller holds?"""
        for target, replaced in self.sites:
            if type(target) is ast.Call:  # x.add_(...), torch.relu_(x), nn.init.zeros_(w), zeros_(w)
                func = target.func
                receiver = func.value if type(func) is ast.Attribute else None
                dotted = _dotted(receiver) if receiver is not None else []
                if dotted is not None and (not dotted or not self._data(dotted[0])):
                    # a function of a module (or a name): it writes its first argument; torch.nn.init's
                    # run under no_grad
                    if target.args and "init" not in dotted:
                        yield self._outside(target.args[0], False)
                    continue
                yield self._outside(receiver, False)
            elif type(target) is ast.Name:
                yield self._outside(target, replaced)
            elif replaced and self._str(target.slice):
                continue  # d["key"] = v, d[name + ".bias"] = v: a mapping, no tensor
            else:
                yield self._outside(target.value if replaced else target, replaced)

    def _outside(self, target, replaced: bool) -> bool:
        root = _root(target)
        if type(root) is ast.Name and not self._data(root.id):
            return False  # a global of its module: no caller holds it
        return not self.fresh(target, replaced)


_CONTAINER_TYPES = frozenset({"Dict", "dict", "List", "list", "Mapping", "MutableMapping", "OrderedDict"})


def _container(annotation) -> bool:
    """``Dict[str, Any]``, ``Optional[List[Tensor]]``: a container (replacing an element writes no tensor)."""
    kind = type(annotation)
    if kind is ast.Constant:
        return annotation.value is None
    if kind is ast.Subscript:
        names = _dotted(annotation.value)
        if names is not None and names[-1] in ("Optional", "Union"):
            inner = annotation.slice
            return all(_container(e) for e in (inner.elts if type(inner) is ast.Tuple else [inner]))
        return names is not None and names[-1] in _CONTAINER_TYPES
    names = _dotted(annotation)
    return names is not None and names[-1] in _CONTAINER_TYPES


def _plain(annotation) -> bool:
    names = set()
    for node in ast.walk(annotation):
        if type(node) is ast.Name:
            names.add(node.id)
        elif type(node) is ast.Attribute:
            names.add(node.attr)
        elif type(node) is ast.Constant and type(node.value) is str:
            names.add(node.value)  # a forward reference
    return bool(names) and names <= _PLAIN_TYPES
