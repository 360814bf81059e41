"""LibCST-shaped trees built from CPython's ``ast``, for the analysis's first look at a file.

LibCST's parse costs about ten times ``ast.parse`` and is most of a lint's time, yet on real code almost
every analysed file has no finding. So the engine first runs the analysis on a tree built here from the
``ast`` tree: the same LibCST node classes in the same shapes (``Arg``, ``SubscriptElement``,
``SimpleStatementLine``, ``IndentedBlock``, ...), with every field the analysis reads, but no formatting
(no whitespace, parentheses or commas) and no positions. When that analysis finds no hazard, the file has
no finding; when it finds one, the engine parses the text with LibCST and analyses it again, so that every
finding, message, position and fix comes from LibCST's own tree as before.

Anything this module does not build exactly as LibCST would (``match`` statements, say) raises
:class:`Unsupported`, and the engine parses with LibCST instead. ``tests/test_cst_from_ast.py`` compares
the trees built here with LibCST's, field by field, on every fixture and on real code.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Callable, Dict, List, Optional, Set, Tuple

import libcst as cst

from inplace_lint.syntax.lines import char_column, lines_with_breaks
from inplace_lint.syntax.triggers import AUGMENTED_ASSIGNMENTS


class Unsupported(Exception):
    """The source holds something not built here: parse it with LibCST."""


# -- node construction ------------------------------------------------------------------------------
# LibCST's nodes are frozen, slotted dataclasses whose __init__ costs several times the work here: each
# maker sets the slots directly, the given fields from its arguments and every other field to its default.
_MAKERS: Dict[Tuple[type, Tuple[str, ...]], Callable] = {}


def _maker(kind: type, *names: str) -> Callable:
    key = (kind, names)
    made = _MAKERS.get(key)
    if made is not None:
        return made
    namespace = {"new": object.__new__, "kind": kind}
    lines = [f"def make({', '.join(names)}):", "    node = new(kind)"]
    for field in dataclasses.fields(kind):
        setter = f"set_{field.name}"
        namespace[setter] = getattr(kind, field.name).__set__
        if field.name in names:
            lines.append(f"    {setter}(node, {field.name})")
            continue
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
            if type(default) is list:
                default = ()  # LibCST's parser builds tuples; nothing mutates a node's sequences
        else:
            raise TypeError(f"{kind.__name__}.{field.name} has no default")
        namespace[f"default_{field.name}"] = default
        lines.append(f"    {setter}(node, default_{field.name})")
    lines.append("    return node")
    exec("\n".join(lines), namespace)  # noqa: S102 - code generated above from LibCST's own field names
    made = _MAKERS[key] = namespace["make"]
    return made


_name = _maker(cst.Name, "value")
_attribute = _maker(cst.Attribute, "value", "attr")
_call = _maker(cst.Call, "func", "args")
_arg = _maker(cst.Arg, "value", "keyword", "star")
_subscript = _maker(cst.Subscript, "value", "slice")
_subscript_element = _maker(cst.SubscriptElement, "slice")
_index = _maker(cst.Index, "value")
_slice = _maker(cst.Slice, "lower", "upper", "step")
_binary = _maker(cst.BinaryOperation, "left", "operator", "right")
_unary = _maker(cst.UnaryOperation, "operator", "expression")
_boolean = _maker(cst.BooleanOperation, "left", "operator", "right")
_comparison = _maker(cst.Comparison, "left", "comparisons")
_comparison_target = _maker(cst.ComparisonTarget, "operator", "comparator")
_if_exp = _maker(cst.IfExp, "test", "body", "orelse")
_lambda = _maker(cst.Lambda, "params", "body")
_named = _maker(cst.NamedExpr, "target", "value")
_await = _maker(cst.Await, "expression")
_yield = _maker(cst.Yield, "value")
_from = _maker(cst.From, "item")
_element = _maker(cst.Element, "value")
_starred_element = _maker(cst.StarredElement, "value")
_dict_element = _maker(cst.DictElement, "key", "value")
_starred_dict_element = _maker(cst.StarredDictElement, "value")
_tuple = _maker(cst.Tuple, "elements")
_list = _maker(cst.List, "elements")
_set = _maker(cst.Set, "elements")
_dict = _maker(cst.Dict, "elements")
_list_comp = _maker(cst.ListComp, "elt", "for_in")
_set_comp = _maker(cst.SetComp, "elt", "for_in")
_generator = _maker(cst.GeneratorExp, "elt", "for_in")
_dict_comp = _maker(cst.DictComp, "key", "value", "for_in")
_comp_for = _maker(cst.CompFor, "target", "iter", "ifs", "inner_for_in", "asynchronous")
_comp_if = _maker(cst.CompIf, "test")
_integer = _maker(cst.Integer, "value")
_float = _maker(cst.Float, "value")
_imaginary = _maker(cst.Imaginary, "value")
_simple_string = _maker(cst.SimpleString, "value")
_concatenated = _maker(cst.ConcatenatedString, "left", "right")
_formatted = _maker(cst.FormattedString, "parts")  # only the expressions: the text parts are never read
_formatted_expression = _maker(cst.FormattedStringExpression, "expression")
_ellipsis = _maker(cst.Ellipsis)

_module = _maker(cst.Module, "body")
_line = _maker(cst.SimpleStatementLine, "body")
_suite = _maker(cst.SimpleStatementSuite, "body")
_block = _maker(cst.IndentedBlock, "body")
_expr = _maker(cst.Expr, "value")
_assign = _maker(cst.Assign, "targets", "value")
_assign_target = _maker(cst.AssignTarget, "target")
_ann_assign = _maker(cst.AnnAssign, "target", "annotation", "value")
_annotation = _maker(cst.Annotation, "annotation")
_aug_assign = _maker(cst.AugAssign, "target", "operator", "value")
_return = _maker(cst.Return, "value")
_raise = _maker(cst.Raise, "exc", "cause")
_assert = _maker(cst.Assert, "test", "msg")
_del = _maker(cst.Del, "target")
_pass = _maker(cst.Pass)
_break = _maker(cst.Break)
_continue = _maker(cst.Continue)
_global = _maker(cst.Global, "names")
_nonlocal = _maker(cst.Nonlocal, "names")
_name_item = _maker(cst.NameItem, "name")
_import = _maker(cst.Import, "names")
_import_from = _maker(cst.ImportFrom, "module", "names", "relative")
_import_alias = _maker(cst.ImportAlias, "name", "asname")
_as_name = _maker(cst.AsName, "name")
_dot = _maker(cst.Dot)
_if = _maker(cst.If, "test", "body", "orelse")
_else = _maker(cst.Else, "body")
_for = _maker(cst.For, "target", "iter", "body", "orelse", "asynchronous")
_while = _maker(cst.While, "test", "body", "orelse")
_with = _maker(cst.With, "items", "body", "asynchronous")
_with_item = _maker(cst.WithItem, "item", "asname")
_try = _maker(cst.Try, "body", "handlers", "orelse", "finalbody")
_try_star = _maker(cst.TryStar, "body", "handlers", "orelse", "finalbody")
_handler = _maker(cst.ExceptHandler, "body", "type", "name")
_star_handler = _maker(cst.ExceptStarHandler, "body", "type", "name")
_finally = _maker(cst.Finally, "body")
_function = _maker(cst.FunctionDef, "name", "params", "body", "decorators", "returns", "asynchronous")
_class = _maker(cst.ClassDef, "name", "body", "bases", "keywords", "decorators")
_decorator = _maker(cst.Decorator, "decorator")
_parameters = _maker(cst.Parameters, "params", "star_arg", "kwonly_params", "star_kwarg", "posonly_params",
                     "posonly_ind")
_param = _maker(cst.Param, "name", "annotation", "default", "star")

# Operators carry only formatting: one instance of each serves every node.
_BINARY = {
    ast.Add: cst.Add(), ast.Sub: cst.Subtract(), ast.Mult: cst.Multiply(), ast.Div: cst.Divide(),
    ast.FloorDiv: cst.FloorDivide(), ast.Mod: cst.Modulo(), ast.Pow: cst.Power(),
    ast.MatMult: cst.MatrixMultiply(), ast.LShift: cst.LeftShift(), ast.RShift: cst.RightShift(),
    ast.BitOr: cst.BitOr(), ast.BitAnd: cst.BitAnd(), ast.BitXor: cst.BitXor(),
}
_AUGMENTED = {getattr(ast, operator): getattr(cst, assignment)()
              for operator, assignment in AUGMENTED_ASSIGNMENTS.values()}
_UNARY = {ast.USub: cst.Minus(), ast.UAdd: cst.Plus(), ast.Not: cst.Not(), ast.Invert: cst.BitInvert()}
_BOOLEAN = {ast.And: cst.And(), ast.Or: cst.Or()}
_COMPARE = {
    ast.Eq: cst.Equal(), ast.NotEq: cst.NotEqual(), ast.Lt: cst.LessThan(), ast.LtE: cst.LessThanEqual(),
    ast.Gt: cst.GreaterThan(), ast.GtE: cst.GreaterThanEqual(), ast.Is: cst.Is(), ast.IsNot: cst.IsNot(),
    ast.In: cst.In(), ast.NotIn: cst.NotIn(),
}
_TRY_STAR = getattr(ast, "TryStar", None)  # ``try: ... except* E:``, Python 3.11+
_ASYNC = cst.Asynchronous()
_PARAM_STAR = cst.ParamStar()
_PARAM_SLASH = cst.ParamSlash()
_IMPORT_STAR = cst.ImportStar()
_DEFAULT = cst.MaybeSentinel.DEFAULT

# One string token, whole (a prefix, then a quoted body): anything else is an implicit concatenation.
_ONE_STRING = re.compile(
    r"[A-Za-z]{0,2}(?:"
    r"'''(?:[^'\\]|\\.|'(?!''))*'''"  # triple-quoted: no three quotes inside
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'(?:[^'\\\n]|\\.)*'"  # one quote: no quote or line break inside
    r'|"(?:[^"\\\n]|\\.)*")',
    re.DOTALL,
)


# The string statement a blanked run of statements becomes, and the one string of a blanked literal table
# (its text, the blanked lines' breaks, is never read)
BLANKED = '""""""'


class Converter:
    """Builds the LibCST-shaped tree of one text from its ``ast`` tree."""

    def __init__(self, text: str, reductions=None):
        # with the selection's record of what it blanked (inplace_lint.syntax.select.Reductions), ``text`` is the
        # whole text and the tree built is the reduced text's: blanked runs and tables as it parses them
        self.reductions = reductions
        self.text = text
        self.lines = lines_with_breaks(text)
        self.expressions: Dict[int, ast.AST] = {}  # id(node built) -> its ast node, for its source text
        self.mentions: Dict[str, int] = {}  # Name nodes built (other than attributes' names), by value
        self.calls: Dict[str, int] = {}  # calls of a plain name built, by the name
        self.inplace_attribute = False  # an attribute named ``inplace`` built (``m.inplace = True``)

    def _named(self, value: str) -> cst.Name:
        """A Name that is no attribute's ``attr``: counted for :meth:`directly_called`."""
        self.mentions[value] = self.mentions.get(value, 0) + 1
        return _name(value)

    def _dotted_name(self, name: str):
        """``a.b.c`` as LibCST's Attribute chain."""
        parts = name.split(".")
        node = self._named(parts[0])
        for part in parts[1:]:
            node = _attribute(node, _name(part))
        return node

    def directly_called(self, names: Set[str]) -> Set[str]:
        """Of ``names`` (module-level functions and classes), those the built tree mentions only in direct
        calls and their ``def``/``class``: what inplace_lint.analysis._directly_called finds by walking the
        tree, counted while it was built."""
        mentions, calls = self.mentions, self.calls
        return {name for name in names if calls.get(name) and mentions.get(name, 0) == calls[name] + 1}

    # -- source text -----------------------------------------------------------------------------------
    def segment(self, node: ast.AST) -> str:
        """The source text of ``node``."""
        lines = self.lines
        first, last = node.lineno - 1, node.end_lineno - 1
        head = lines[first]
        start = char_column(head, node.col_offset)
        if first == last:
            return head[start:char_column(head, node.end_col_offset)]
        tail = lines[last]
        return head[start:] + "".join(lines[first + 1:last]) + tail[:char_column(tail, node.end_col_offset)]

    def code(self, node) -> Optional[str]:
        """The source text of a node built here, if it is an expression."""
        origin = self.expressions.get(id(node))
        return None if origin is None else self.segment(origin)

    def _starts_line(self, node: ast.AST) -> bool:
        """Is ``node`` the first thing on its line (an indented block's statement, not a one-line suite)?"""
        line = self.lines[node.lineno - 1]
        return not line[: char_column(line, node.col_offset)].strip(" \t\f")

    # -- statements ------------------------------------------------------------------------------------
    def module(self, tree: ast.Module) -> cst.Module:
        body = self.statements(tree.body)
        if self.reductions is not None:
            body.extend(_line((_expr(self._named(name)),)) for name in self.reductions.witnesses)
        return _module(tuple(body))

    def _reduced(self, node: ast.stmt):
        """What the reduced text holds for ``node``: itself (None), nothing (``()``: inside a blanked run), or
        the run's one statement."""
        reductions = self.reductions
        key = id(node)
        if key in reductions.inside_runs:
            return ()
        how = reductions.runs.get(key)
        if how is None:
            return None
        return _expr(_simple_string(BLANKED)) if how == "string" else _pass()

    def statements(self, body: List[ast.stmt]) -> List[cst.CSTNode]:
        """LibCST groups the small statements of one line (``a = 1; b = 2``) in one SimpleStatementLine."""
        out: List[cst.CSTNode] = []
        group: List[cst.CSTNode] = []
        last_line = -1
        small = _SMALL_STATEMENTS
        reduced = self.reductions is not None
        for node in body:
            if reduced:
                replacement = self._reduced(node)
                if replacement is not None:
                    if replacement != ():
                        if group:
                            out.append(_line(tuple(group)))
                            group = []
                        out.append(_line((replacement,)))
                        last_line = -1
                    continue
            make = small.get(type(node))
            if make is None:
                if group:
                    out.append(_line(tuple(group)))
                    group = []
                make = _STATEMENTS.get(type(node))
                if make is None:
                    raise Unsupported(type(node).__name__)
                out.append(make(self, node))
                last_line = -1
                continue
            if group and node.lineno != last_line:
                out.append(_line(tuple(group)))
                group = []
            group.append(make(self, node))
            last_line = node.end_lineno
        if group:
            out.append(_line(tuple(group)))
        return out

    def block(self, body: List[ast.stmt]):
        if self._starts_line(body[0]):
            return _block(tuple(self.statements(body)))
        # ``if flag: y.mul_(2)``: the small statements after the colon (a suite holds no compound one)
        small = _SMALL_STATEMENTS
        out = []
        for node in body:
            if self.reductions is not None:
                replacement = self._reduced(node)
                if replacement is not None:
                    if replacement != ():
                        out.append(replacement)
                    continue
            make = small.get(type(node))
            if make is None:
                raise Unsupported("a compound statement in a one-line suite")
            out.append(make(self, node))
        return _suite(tuple(out))

    def _orelse(self, orelse: List[ast.stmt]):
        if not orelse:
            return None
        return _else(self.block(orelse))

    def _decorators(self, node) -> tuple:
        return tuple(_decorator(self.expression(d)) for d in node.decorator_list)

    def _functiondef(self, node) -> cst.FunctionDef:
        returns = None if node.returns is None else _annotation(self.expression(node.returns))
        return _function(self._named(node.name), self.parameters(node.args), self.block(node.body),
                         self._decorators(node), returns,
                         _ASYNC if type(node) is ast.AsyncFunctionDef else None)

    def _classdef(self, node: ast.ClassDef) -> cst.ClassDef:
        bases = tuple(_arg(self.expression(b.value), None, "*") if type(b) is ast.Starred
                      else _arg(self.expression(b), None, "") for b in node.bases)
        keywords = tuple(self._keyword(k) for k in node.keywords)
        return _class(self._named(node.name), self.block(node.body), bases, keywords, self._decorators(node))

    def _ifstatement(self, node: ast.If) -> cst.If:
        orelse = node.orelse
        if not orelse:
            other = None
        elif len(orelse) == 1 and type(orelse[0]) is ast.If and self._is_elif(orelse[0]):
            other = self._ifstatement(orelse[0])
        else:
            other = _else(self.block(orelse))
        return _if(self.expression(node.test), self.block(node.body), other)

    def _is_elif(self, node: ast.If) -> bool:
        line = self.lines[node.lineno - 1]
        return line.startswith("elif", char_column(line, node.col_offset))

    def _forstatement(self, node) -> cst.For:
        return _for(self.expression(node.target), self.expression(node.iter), self.block(node.body),
                    self._orelse(node.orelse), _ASYNC if type(node) is ast.AsyncFor else None)

    def _whilestatement(self, node: ast.While) -> cst.While:
        return _while(self.expression(node.test), self.block(node.body), self._orelse(node.orelse))

    def _withstatement(self, node) -> cst.With:
        items = tuple(_with_item(self.expression(item.context_expr), None if item.optional_vars is None
                                 else _as_name(self.expression(item.optional_vars)))
                      for item in node.items)
        return _with(items, self.block(node.body), _ASYNC if type(node) is ast.AsyncWith else None)

    def _trystatement(self, node) -> cst.CSTNode:
        star = type(node) is _TRY_STAR
        handler = _star_handler if star else _handler
        handlers = tuple(handler(self.block(h.body), None if h.type is None else self.expression(h.type),
                                 None if h.name is None else _as_name(self._named(h.name)))
                         for h in node.handlers)
        final = _finally(self.block(node.finalbody)) if node.finalbody else None
        make = _try_star if star else _try
        return make(self.block(node.body), handlers, self._orelse(node.orelse), final)

    # -- small statements ------------------------------------------------------------------------------
    def _exprstatement(self, node: ast.Expr) -> cst.Expr:
        return _expr(self.expression(node.value))

    def _assignstatement(self, node: ast.Assign) -> cst.Assign:
        targets = tuple(_assign_target(self.expression(t)) for t in node.targets)
        return _assign(targets, self.expression(node.value))

    def _annassign(self, node: ast.AnnAssign) -> cst.AnnAssign:
        value = None if node.value is None else self.expression(node.value)
        return _ann_assign(self.expression(node.target), _annotation(self.expression(node.annotation)), value)

    def _augassign(self, node: ast.AugAssign) -> cst.AugAssign:
        operator = _AUGMENTED[type(node.op)]
        return _aug_assign(self.expression(node.target), operator, self.expression(node.value))

    def _returnstatement(self, node: ast.Return) -> cst.Return:
        return _return(None if node.value is None else self.expression(node.value))

    def _raisestatement(self, node: ast.Raise) -> cst.Raise:
        exc = None if node.exc is None else self.expression(node.exc)
        return _raise(exc, None if node.cause is None else _from(self.expression(node.cause)))

    def _assertstatement(self, node: ast.Assert) -> cst.Assert:
        return _assert(self.expression(node.test), None if node.msg is None else self.expression(node.msg))

    def _delete(self, node: ast.Delete) -> cst.Del:
        if len(node.targets) == 1:
            return _del(self.expression(node.targets[0]))
        return _del(_tuple(tuple(self._element(t) for t in node.targets)))

    def _globalstatement(self, node: ast.Global) -> cst.Global:
        return _global(tuple(_name_item(self._named(n)) for n in node.names))

    def _nonlocalstatement(self, node: ast.Nonlocal) -> cst.Nonlocal:
        return _nonlocal(tuple(_name_item(self._named(n)) for n in node.names))

    def _importstatement(self, node: ast.Import) -> cst.Import:
        return _import(tuple(self._alias(a) for a in node.names))

    def _importfrom(self, node: ast.ImportFrom) -> cst.ImportFrom:
        module = None if node.module is None else self._dotted_name(node.module)
        if len(node.names) == 1 and node.names[0].name == "*":
            names = _IMPORT_STAR
        else:
            names = tuple(self._alias(a) for a in node.names)
        return _import_from(module, names, tuple(_dot() for _ in range(node.level or 0)))

    def _alias(self, alias: ast.alias) -> cst.ImportAlias:
        return _import_alias(self._dotted_name(alias.name),
                             None if alias.asname is None else _as_name(self._named(alias.asname)))

    # -- parameters ------------------------------------------------------------------------------------
    def parameters(self, args: ast.arguments) -> cst.Parameters:
        positional = args.posonlyargs + args.args
        defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults))
        defaults += args.defaults
        made = [self._param(a, d, "") for a, d in zip(positional, defaults)]
        posonly = tuple(made[: len(args.posonlyargs)])
        params = tuple(made[len(args.posonlyargs):])
        if args.vararg is not None:
            star_arg = self._param(args.vararg, None, "*")
        elif args.kwonlyargs:
            star_arg = _PARAM_STAR
        else:
            star_arg = _DEFAULT
        kwonly = tuple(self._param(a, d, "") for a, d in zip(args.kwonlyargs, args.kw_defaults))
        star_kwarg = None if args.kwarg is None else self._param(args.kwarg, None, "**")
        slash = _PARAM_SLASH if posonly else _DEFAULT
        return _parameters(params, star_arg, kwonly, star_kwarg, posonly, slash)

    def _param(self, arg: ast.arg, default: Optional[ast.expr], star: str) -> cst.Param:
        annotation = None if arg.annotation is None else _annotation(self.expression(arg.annotation))
        default = None if default is None else self.expression(default)
        return _param(self._named(arg.arg), annotation, default, star)

    # -- expressions -----------------------------------------------------------------------------------
    def expression(self, node: ast.expr) -> cst.CSTNode:
        make = _EXPRESSIONS.get(type(node))
        if make is None:
            raise Unsupported(type(node).__name__)
        if self.reductions is not None and id(node) in self.reductions.tables:
            return _tuple((_element(_simple_string(BLANKED)),))  # a literal table's one-string tuple
        built = make(self, node)
        self.expressions[id(built)] = node
        return built

    def _name(self, node: ast.Name) -> cst.Name:
        return self._named(node.id)

    def _attribute(self, node: ast.Attribute) -> cst.Attribute:
        if node.attr == "inplace":
            self.inplace_attribute = True
        return _attribute(self.expression(node.value), _name(node.attr))

    def _call(self, node: ast.Call) -> cst.Call:
        if type(node.func) is ast.Name:
            self.calls[node.func.id] = self.calls.get(node.func.id, 0) + 1
        args = node.args
        keywords = node.keywords
        if keywords and args and _after(args[-1], keywords[0]):
            # ``f(x, key=1, *rest)``: LibCST keeps the source order
            items = sorted(args + keywords, key=lambda n: (n.lineno, n.col_offset))
            built = tuple(self._keyword(n) if type(n) is ast.keyword else self._positional(n) for n in items)
        else:
            built = tuple(self._positional(a) for a in args) + tuple(self._keyword(k) for k in keywords)
        return _call(self.expression(node.func), built)

    def _positional(self, node: ast.expr) -> cst.Arg:
        if type(node) is ast.Starred:
            return _arg(self.expression(node.value), None, "*")
        return _arg(self.expression(node), None, "")

    def _keyword(self, node: ast.keyword) -> cst.Arg:
        if node.arg is None:
            return _arg(self.expression(node.value), None, "**")
        return _arg(self.expression(node.value), self._named(node.arg), "")

    def _constant(self, node: ast.Constant):
        value = node.value
        kind = type(value)
        if kind is str or kind is bytes:
            text = self.segment(node)
            if _ONE_STRING.fullmatch(text):
                return _simple_string(text)
            return _concatenated(_simple_string('""'), _simple_string('""'))  # its pieces are never read
        if value is None or kind is bool:
            return self._named(str(value))
        if kind is int:
            return _integer(self.segment(node))
        if kind is float:
            return _float(self.segment(node))
        if kind is complex:
            return _imaginary(self.segment(node))
        if value is Ellipsis:
            return _ellipsis()
        raise Unsupported(f"constant {kind.__name__}")

    def _joinedstr(self, node: ast.JoinedStr):
        parts = tuple(_formatted_expression(self.expression(value)) for value in _formatted_values(node))
        if _ONE_STRING.fullmatch(self.segment(node)):
            return _formatted(parts)
        # an implicit concatenation: the analysis reads only its type, and the walks the names within
        return _concatenated(_formatted(parts), _simple_string('""'))

    def _subscript(self, node: ast.Subscript) -> cst.Subscript:
        index = node.slice
        if type(index) is ast.Tuple and not self._parenthesised(index):
            elements = tuple(_subscript_element(self._slice_item(e)) for e in index.elts)
        else:
            elements = (_subscript_element(self._slice_item(index)),)
        return _subscript(self.expression(node.value), elements)

    def _slice_item(self, node: ast.expr):
        if type(node) is ast.Slice:
            return _slice(None if node.lower is None else self.expression(node.lower),
                          None if node.upper is None else self.expression(node.upper),
                          None if node.step is None else self.expression(node.step))
        if type(node) is ast.Starred:
            raise Unsupported("a starred index")
        return _index(self.expression(node))

    def _parenthesised(self, node: ast.Tuple) -> bool:
        """``x[(a, b)]`` (one index, a tuple) rather than ``x[a, b]`` (two)."""
        if not node.elts:
            return True  # ``x[()]``
        if any(type(e) is ast.Slice for e in node.elts):
            return False
        text = self.segment(node)
        if not text.startswith("("):
            return False
        depth = 0
        for position, char in enumerate(text):
            if char in "'\"#":
                raise Unsupported("a string in a subscript's parentheses")
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                if depth == 0:
                    return position == len(text) - 1  # the first parenthesis closes at the very end
        return False

    def _binop(self, node: ast.BinOp) -> cst.BinaryOperation:
        return _binary(self.expression(node.left), _BINARY[type(node.op)], self.expression(node.right))

    def _unaryop(self, node: ast.UnaryOp) -> cst.UnaryOperation:
        return _unary(_UNARY[type(node.op)], self.expression(node.operand))

    def _boolop(self, node: ast.BoolOp):
        operator = _BOOLEAN[type(node.op)]
        values = node.values
        built = self.expression(values[0])
        for value in values[1:]:  # ``a and b and c`` is ``(a and b) and c``
            built = _boolean(built, operator, self.expression(value))
        return built

    def _compare(self, node: ast.Compare) -> cst.Comparison:
        targets = tuple(_comparison_target(_COMPARE[type(op)], self.expression(c))
                        for op, c in zip(node.ops, node.comparators))
        return _comparison(self.expression(node.left), targets)

    def _ifexp(self, node: ast.IfExp) -> cst.IfExp:
        return _if_exp(self.expression(node.test), self.expression(node.body), self.expression(node.orelse))

    def _lambda(self, node: ast.Lambda) -> cst.Lambda:
        return _lambda(self.parameters(node.args), self.expression(node.body))

    def _namedexpr(self, node: ast.NamedExpr) -> cst.NamedExpr:
        return _named(self.expression(node.target), self.expression(node.value))

    def _await(self, node: ast.Await) -> cst.Await:
        return _await(self.expression(node.value))

    def _yield_(self, node: ast.Yield) -> cst.Yield:
        return _yield(None if node.value is None else self.expression(node.value))

    def _yield_from(self, node: ast.YieldFrom) -> cst.Yield:
        return _yield(_from(self.expression(node.value)))

    def _element(self, node: ast.expr):
        if type(node) is ast.Starred:
            return _starred_element(self.expression(node.value))
        return _element(self.expression(node))

    def _starred(self, node: ast.Starred):
        raise Unsupported("a starred expression outside a display or call")

    def _tuple(self, node: ast.Tuple) -> cst.Tuple:
        return _tuple(tuple(self._element(e) for e in node.elts))

    def _list(self, node: ast.List) -> cst.List:
        return _list(tuple(self._element(e) for e in node.elts))

    def _set(self, node: ast.Set) -> cst.Set:
        return _set(tuple(self._element(e) for e in node.elts))

    def _dict(self, node: ast.Dict) -> cst.Dict:
        elements = tuple(_starred_dict_element(self.expression(v)) if k is None
                         else _dict_element(self.expression(k), self.expression(v))
                         for k, v in zip(node.keys, node.values))
        return _dict(elements)

    def _comprehension(self, generators: List[ast.comprehension]) -> cst.CompFor:
        inner = None
        for generator in reversed(generators):
            ifs = tuple(_comp_if(self.expression(test)) for test in generator.ifs)
            inner = _comp_for(self.expression(generator.target), self.expression(generator.iter), ifs, inner,
                              _ASYNC if generator.is_async else None)
        return inner

    def _listcomp(self, node: ast.ListComp) -> cst.ListComp:
        return _list_comp(self.expression(node.elt), self._comprehension(node.generators))

    def _setcomp(self, node: ast.SetComp) -> cst.SetComp:
        return _set_comp(self.expression(node.elt), self._comprehension(node.generators))

    def _genexp(self, node: ast.GeneratorExp) -> cst.GeneratorExp:
        return _generator(self.expression(node.elt), self._comprehension(node.generators))

    def _dictcomp(self, node: ast.DictComp) -> cst.DictComp:
        return _dict_comp(self.expression(node.key), self.expression(node.value),
                          self._comprehension(node.generators))


def _after(first: ast.AST, second: ast.AST) -> bool:
    return (first.lineno, first.col_offset) > (second.lineno, second.col_offset)


# The builders by ast node type: plain functions (bound methods stored on the instance would make every
# Converter a reference cycle, which keeps its trees alive until the cyclic collector runs).
_EXPRESSIONS = {
    ast.Name: Converter._name, ast.Attribute: Converter._attribute, ast.Call: Converter._call,
    ast.Constant: Converter._constant, ast.Subscript: Converter._subscript, ast.BinOp: Converter._binop,
    ast.UnaryOp: Converter._unaryop, ast.BoolOp: Converter._boolop, ast.Compare: Converter._compare,
    ast.IfExp: Converter._ifexp, ast.Lambda: Converter._lambda, ast.NamedExpr: Converter._namedexpr,
    ast.Await: Converter._await, ast.Yield: Converter._yield_, ast.YieldFrom: Converter._yield_from,
    ast.Tuple: Converter._tuple, ast.List: Converter._list, ast.Set: Converter._set,
    ast.Dict: Converter._dict, ast.ListComp: Converter._listcomp, ast.SetComp: Converter._setcomp,
    ast.GeneratorExp: Converter._genexp, ast.DictComp: Converter._dictcomp,
    ast.JoinedStr: Converter._joinedstr, ast.Starred: Converter._starred,
}
_STATEMENTS = {
    ast.FunctionDef: Converter._functiondef, ast.AsyncFunctionDef: Converter._functiondef,
    ast.ClassDef: Converter._classdef, ast.If: Converter._ifstatement, ast.For: Converter._forstatement,
    ast.AsyncFor: Converter._forstatement, ast.While: Converter._whilestatement,
    ast.With: Converter._withstatement, ast.AsyncWith: Converter._withstatement,
    ast.Try: Converter._trystatement,
}
if _TRY_STAR is not None:
    _STATEMENTS[_TRY_STAR] = Converter._trystatement
_SMALL_STATEMENTS = {
    ast.Expr: Converter._exprstatement, ast.Assign: Converter._assignstatement,
    ast.AnnAssign: Converter._annassign, ast.AugAssign: Converter._augassign,
    ast.Return: Converter._returnstatement, ast.Raise: Converter._raisestatement,
    ast.Assert: Converter._assertstatement, ast.Delete: Converter._delete,
    ast.Pass: lambda self, node: _pass(), ast.Break: lambda self, node: _break(),
    ast.Continue: lambda self, node: _continue(),
    ast.Global: Converter._globalstatement, ast.Nonlocal: Converter._nonlocalstatement,
    ast.Import: Converter._importstatement, ast.ImportFrom: Converter._importfrom,
}


def _formatted_values(node: ast.JoinedStr) -> List[ast.expr]:
    """The expressions of an f-string, those in format specs (``f"{x:{width}}"``) included."""
    out = []
    for value in node.values:
        if type(value) is ast.FormattedValue:
            out.append(value.value)
            if value.format_spec is not None:
                out.extend(_formatted_values(value.format_spec))
    return out


def convert(text: str, tree: ast.Module, reductions=None) -> Tuple[cst.Module, Converter]:
    """The LibCST-shaped tree of ``text``, whose ``ast`` tree is ``tree``; raises :class:`Unsupported`.
    With ``reductions`` (inplace_lint.syntax.select.Reductions, made from ``tree``): the tree of the selection's
    reduced text instead, which keeps ``text``'s lines wherever it has code."""
    converter = Converter(text, reductions)
    return converter.module(tree), converter
