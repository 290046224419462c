"""A publisher's Python configuration functions, evaluated by reading them with `ast`: never imported, never run.

Megatron-Bridge builds a training configuration with Python: a performance function starts from a
library recipe (`llama3_70b_pretrain_config(mock=True, ...)`), which starts from shared defaults
(`_llama3_common(seq_length=8192, ...)`, `_pretrain_common()`), and each assigns fields of the
`ConfigContainer` it returns (`cfg.model.tensor_model_parallel_size = 4`,
`GPTDatasetConfig(sequence_length=seq_length)`). What a launch runs is what those statements leave
in the object, so this module follows them as Python would, as far as that can be known without
running anything:

- **Values** are constants, tuples, dicts, objects (an attribute bag: what a constructor was given
  and what statements assigned since), modules, functions and classes of the files it may read,
  or *unknown*. Each known value carries where it is written (file and line), so that a recipe can
  cite the line a value of its configuration comes from; an unknown value carries why.
- **Statements**: assignments (to names, attributes, tuples), calls, `return`, `if`/`elif`/`else`
  whose test it can decide, and `with`. Where the test cannot be decided, and inside loops and
  `try`, whatever is assigned becomes unknown ("assigned under a condition"); a `return` there
  makes the rest of the function conditional too.
- **Calls** to a function of the files it may read (`readable`) are followed with their arguments
  bound (positional, keyword, defaults, `*args`, `**kwargs`); a dataclass of those files is built
  from its annotated defaults and the keywords; `dataclasses.replace` copies an object with new
  fields; anything else (a class or function of Megatron Core, PyTorch, a method of an object) makes
  an object of the keywords it was given, whose other fields are unknown. Such a function is taken
  not to change the objects it is given (the tracked fields of the configuration are assigned by
  the recipe files themselves); a caller may intercept a function by name (`intercepts`) to give
  what it returns where it cannot be read (one chosen with `importlib`).

Bounded: calls nest at most `MAX_DEPTH` deep and an evaluation runs at most `MAX_STEPS` statements;
past either, what is left is unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 24
MAX_STEPS = 50_000


@dataclass(frozen=True)
class Where:
    path: str
    line: int


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN_VALUE = _Unknown()


@dataclass(frozen=True)
class Val:
    """A value, where it is written, and (for an unknown one) why it is not known."""

    value: Any
    where: Where | None = None
    why: str = ""

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN_VALUE

    @property
    def constant(self) -> bool:
        return isinstance(self.value, (int, float, str, bool, type(None)))


def unknown(why: str, where: Where | None = None) -> Val:
    return Val(UNKNOWN_VALUE, where, why)


class Obj:
    """An object under construction: the fields it was given or assigned, each a Val."""

    def __init__(self, kind: str, fields: dict[str, Val] | None = None, built: bool = False) -> None:
        self.kind = kind
        self.fields: dict[str, Val] = dict(fields or {})
        self.built = built
        """Made by a class of the files read: surely an object (the result of a function not read
        may be anything, a boolean included)."""

    def get(self, name: str) -> Val:
        if name in self.fields:
            return self.fields[name]
        return unknown(f"{self.kind} is not given {name} by the files read (its own default applies)")

    def copy(self) -> Obj:
        return Obj(self.kind, self.fields, self.built)


@dataclass(frozen=True)
class DictVal:
    """A dict: each key's value, with the Val of the key as written (its line)."""

    items: tuple[tuple[Any, Val, Val], ...]

    def get(self, key: Any) -> Val | None:
        for written, _, value in reversed(self.items):
            if written == key:
                return value
        return None

    def keys_where(self) -> dict[Any, Where | None]:
        found: dict[Any, Where | None] = {}
        for written, key, _ in self.items:
            found[written] = key.where
        return found


@dataclass(frozen=True)
class Function:
    module: Module
    node: ast.FunctionDef


@dataclass(frozen=True)
class Class:
    module: Module
    node: ast.ClassDef


@dataclass(frozen=True)
class External:
    """A name of a module this evaluator does not read (`torch.bfloat16`, `GPTDatasetConfig`)."""

    dotted: str


class Module:
    """A Python file of the publisher's, parsed: its top-level names."""

    def __init__(self, path: str, dotted: str, tree: ast.Module) -> None:
        self.path = path
        self.dotted = dotted
        self.tree = tree
        self.package = dotted if path.endswith("/__init__.py") else dotted.rpartition(".")[0]
        self.definitions: dict[str, ast.stmt] = {}
        self.imports: dict[str, tuple[str, str | None]] = {}
        """name -> (module, attribute): `from a.b import c as d` is d -> ('a.b', 'c');
        `import a.b as m` is m -> ('a.b', None)."""
        for node, nested in _top_level(tree.body, False):
            for name, meaning in self._names(node):
                if nested and (name in self.definitions or name in self.imports):
                    continue  # the first of a guarded block's branches (a `try`'s import) is the one kept
                if isinstance(meaning, tuple):
                    self.imports[name] = meaning
                    self.definitions.pop(name, None)
                else:
                    self.definitions[name] = meaning
                    self.imports.pop(name, None)

    def _names(self, node: ast.stmt) -> Iterator[tuple[str, ast.stmt | tuple[str, str | None]]]:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node.name, node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    yield target.id, node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            yield node.target.id, node
        elif isinstance(node, ast.ImportFrom):
            base = self._absolute(node.module, node.level)
            for alias in node.names:
                yield alias.asname or alias.name, (base, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    yield alias.asname, (alias.name, None)
                else:
                    top = alias.name.split(".")[0]
                    yield top, (top, None)

    def _absolute(self, name: str | None, level: int) -> str:
        if not level:
            return name or ""
        parts = self.package.split(".") if self.package else []
        parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
        return ".".join([*parts, *([name] if name else [])])


@dataclass
class Frame:
    module: Module
    names: dict[str, Val]
    sure: bool = True
    returned: Val | None = None
    maybe_returned: bool = False
    stopped: bool = False
    why: str = ""
    """Why what this frame assigns is not known, when it is not sure."""


@dataclass
class Evaluator:
    """Evaluates calls of one repository's configuration functions at one commit.

    `read(path)` gives a file's text (None when absent); `locate(dotted)` the paths a module may be
    at, or () for a module this evaluator does not read."""

    read: Callable[[str], str | None]
    locate: Callable[[str], tuple[str, ...]]
    intercepts: dict[str, Callable[[list[Val], dict[str, Val]], Val]] = field(default_factory=dict)
    """Function name -> what a call of it gives, for functions that cannot be read."""
    aliases: dict[str, str] = field(default_factory=dict)
    """An attribute name -> another name of the same field: assigning either assigns both."""
    tracked: frozenset[str] | None = None
    """The attribute names whose assignments are evaluated (None: every one); another attribute
    assigned anything but a call's result is left unknown."""
    run: list[Function] = field(default_factory=list)
    """Every function of the readable files run, in order (what a launch cites)."""
    _modules: dict[str, Module | None] = field(default_factory=dict)
    _globals: dict[tuple[str, str], Val] = field(default_factory=dict)
    _depth: int = 0
    _steps: int = 0

    # -- modules and names ----------------------------------------------------------------------

    def module(self, dotted: str) -> Module | None:
        if dotted not in self._modules:
            self._modules[dotted] = None
            for path in self.locate(dotted):
                text = self.read(path)
                if text is not None:
                    self._modules[dotted] = Module(path, dotted, ast.parse(text))
                    break
        return self._modules[dotted]

    def function(self, dotted: str, name: str) -> Function | None:
        module = self.module(dotted)
        found = self.global_name(module, name) if module is not None else None
        return found.value if found is not None and isinstance(found.value, Function) else None

    def global_name(self, module: Module, name: str) -> Val:
        key = (module.dotted, name)
        if key in self._globals:
            return self._globals[key]
        self._globals[key] = unknown(f"{name} refers to itself in {module.path}")
        found = self._resolve(module, name)
        self._globals[key] = found
        return found

    def _resolve(self, module: Module, name: str) -> Val:
        node = module.definitions.get(name)
        if isinstance(node, ast.FunctionDef):
            return Val(Function(module, node), Where(module.path, node.lineno))
        if isinstance(node, ast.ClassDef):
            return Val(Class(module, node), Where(module.path, node.lineno))
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            frame = Frame(module, {})
            return self.expr(node.value, frame)
        if name in module.imports:
            dotted, attribute = module.imports[name]
            if attribute is None:
                target = self.module(dotted)
                return Val(target, None) if target is not None else Val(External(dotted))
            source = self.module(dotted)
            if source is not None and (attribute in source.definitions or attribute in source.imports):
                return self.global_name(source, attribute)
            submodule = self.module(f"{dotted}.{attribute}")
            if submodule is not None:
                return Val(submodule)
            return Val(External(f"{dotted}.{attribute}"))
        return unknown(f"{name} is not defined in {module.path}")

    def enclosing(self, where: Where) -> tuple[str, int, int, str] | None:
        """The top-level function, class or assignment of a file read that holds `where`'s line:
        (path, first line, last line, its name)."""
        for module in self._modules.values():
            if module is None or module.path != where.path:
                continue
            for node in module.tree.body:
                last = node.end_lineno or node.lineno
                if node.lineno <= where.line <= last:
                    if isinstance(node, ast.FunctionDef):
                        return (module.path, node.lineno, last, node.name)
                    if isinstance(node, ast.ClassDef):
                        return (module.path, node.lineno, last, f"class {node.name}")
                    targets = node.targets if isinstance(node, ast.Assign) else getattr(node, "target", None)
                    names = [
                        t.id for t in (targets if isinstance(targets, list) else [targets]) if isinstance(t, ast.Name)
                    ]
                    return (module.path, node.lineno, last, names[0] if names else "a statement")
        return None

    # -- calls ----------------------------------------------------------------------------------

    def call(self, target: Val, args: list[Val], keywords: dict[str, Val], sure: bool = True, why: str = "") -> Val:
        value = target.value
        name = _name_of(value)
        if name in self.intercepts:
            return self.intercepts[name](args, keywords)
        if isinstance(value, Function):
            return self._call_function(value, args, keywords, sure, why)
        if isinstance(value, Class):
            return self._construct(value, keywords)
        if isinstance(value, External) and value.dotted.rsplit(".", 1)[-1] == "replace" and args:
            first = args[0].value
            if isinstance(first, Obj):
                copied = first.copy()
                copied.fields.update(keywords)
                return Val(copied, args[0].where)
        kind = value.dotted.rsplit(".", 1)[-1] if isinstance(value, External) else "the object"
        return Val(Obj(kind, keywords), target.where)

    def _construct(self, cls: Class, keywords: dict[str, Val]) -> Val:
        fields: dict[str, Val] = {}
        for statement in cls.node.body:
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.value is not None
            ):
                fields[statement.target.id] = self.expr(statement.value, Frame(cls.module, {}))
        fields.update(keywords)
        return Val(Obj(cls.node.name, fields, built=True), Where(cls.module.path, cls.node.lineno))

    def _call_function(
        self, function: Function, args: list[Val], keywords: dict[str, Val], sure: bool, why: str
    ) -> Val:
        if self._depth >= MAX_DEPTH:
            return unknown(f"{function.node.name} is called deeper than {MAX_DEPTH} calls")
        self.run.append(function)
        frame = Frame(function.module, self._bind(function, args, keywords), sure=sure, why=why)
        self._depth += 1
        try:
            self.block(function.node.body, frame)
        finally:
            self._depth -= 1
        if frame.returned is None:
            return unknown(f"{function.node.name} returns nothing known") if frame.maybe_returned else Val(None)
        if frame.maybe_returned and not frame.sure:
            return unknown(f"{function.node.name} returns under a condition")
        return frame.returned

    def _bind(self, function: Function, args: list[Val], keywords: dict[str, Val]) -> dict[str, Val]:
        spec = function.node.args
        positional = [*spec.posonlyargs, *spec.args]
        names: dict[str, Val] = {}
        defaults = spec.defaults
        for parameter, default in zip(positional[len(positional) - len(defaults) :], defaults, strict=True):
            names[parameter.arg] = self.expr(default, Frame(function.module, {}))
        for parameter, kw_default in zip(spec.kwonlyargs, spec.kw_defaults, strict=True):
            if kw_default is not None:
                names[parameter.arg] = self.expr(kw_default, Frame(function.module, {}))
        for parameter, value in zip(positional, args, strict=False):
            names[parameter.arg] = value
        extra_args = args[len(positional) :]
        if spec.vararg is not None:
            names[spec.vararg.arg] = Val(tuple(extra_args))
        accepted = {parameter.arg for parameter in [*positional, *spec.kwonlyargs]}
        extra: list[tuple[Any, Val, Val]] = []
        for key, value in keywords.items():
            if key in accepted:
                names[key] = value
            else:
                extra.append((key, Val(key), value))
        if spec.kwarg is not None:
            names[spec.kwarg.arg] = Val(DictVal(tuple(extra)))
        for parameter in [*positional, *spec.kwonlyargs]:
            names.setdefault(parameter.arg, unknown(f"{function.node.name} is not given {parameter.arg}"))
        return names

    # -- statements -----------------------------------------------------------------------------

    def block(self, body: list[ast.stmt], frame: Frame) -> None:
        for statement in body:
            if frame.stopped:
                return
            self._steps += 1
            if self._steps > MAX_STEPS:
                frame.sure = False
            self.statement(statement, frame)

    def statement(self, node: ast.stmt, frame: Frame) -> None:
        where = Where(frame.module.path, node.lineno)
        if isinstance(node, ast.Assign):
            if self._untracked(node):
                return
            value = self.expr(node.value, frame)
            for target in node.targets:
                self.assign(target, value, frame, where)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.assign(node.target, self.expr(node.value, frame), frame, where)
        elif isinstance(node, ast.AugAssign):
            self.assign(node.target, unknown("changed in place (+=, *=, ...)", where), frame, where)
        elif isinstance(node, ast.Expr):
            self.expr(node.value, frame)
        elif isinstance(node, ast.Return):
            value = self.expr(node.value, frame) if node.value is not None else Val(None, where)
            if frame.sure:
                frame.returned = value if not frame.maybe_returned else unknown("returned under a condition", where)
                frame.stopped = True
            else:
                frame.maybe_returned = True
        elif isinstance(node, ast.Raise):
            if frame.sure:
                frame.returned = unknown("raises", where)
                frame.stopped = True
            else:
                frame.maybe_returned = True
        elif isinstance(node, ast.If):
            self._if(node, frame)
        elif isinstance(node, ast.With):
            self.block(node.body, frame)
        elif isinstance(node, ast.FunctionDef):
            frame.names[node.name] = Val(Function(frame.module, node), where)
        elif isinstance(node, (ast.For, ast.While, ast.Try, ast.AsyncFor, ast.AsyncWith, ast.Match)):
            self._unsure(list(_bodies(node)), frame, f"assigned in a {type(node).__name__.lower()} at", where)
        # pass, assert, import, global, delete, break, continue: nothing a configuration keeps

    def _untracked(self, node: ast.Assign) -> bool:
        """An assignment of a field no one asks for (`cfg.tokenizer.vocab_size = VOCAB`) is not
        evaluated, so that the modules its value names are not read; one whose value is a call is,
        since the call may change the configuration."""
        if self.tracked is None or isinstance(node.value, ast.Call):
            return False
        return all(isinstance(target, ast.Attribute) and target.attr not in self.tracked for target in node.targets)

    def _if(self, node: ast.If, frame: Frame) -> None:
        test = self.expr(node.test, frame)
        truth = _truth(test)
        if truth is True:
            self.block(node.body, frame)
        elif truth is False:
            self.block(node.orelse, frame)
        else:
            self._unsure(
                [node.body, node.orelse], frame, "assigned under a condition at", Where(frame.module.path, node.lineno)
            )

    def _unsure(self, bodies: list[list[ast.stmt]], frame: Frame, why: str, where: Where) -> None:
        inner = Frame(frame.module, frame.names, sure=False, why=frame.why or f"{why} {where.path} line {where.line}")
        for body in bodies:
            inner.stopped = False
            self.block(body, inner)
        if inner.maybe_returned:
            frame.maybe_returned = True
            if frame.sure:
                frame.sure = False
                frame.why = f"assigned after a return under a condition at {where.path} line {where.line}"

    def assign(self, target: ast.expr, value: Val, frame: Frame, where: Where) -> None:
        if not frame.sure:
            value = unknown(frame.why or f"assigned under a condition at {where.path} line {where.line}", where)
        elif value.known and value.where is None:
            value = Val(value.value, where)
        if isinstance(target, ast.Name):
            frame.names[target.id] = value
        elif isinstance(target, ast.Attribute):
            owner = self.expr(target.value, frame)
            if isinstance(owner.value, Obj):
                owner.value.fields[target.attr] = value
                if target.attr in self.aliases:
                    owner.value.fields[self.aliases[target.attr]] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = value.value if isinstance(value.value, tuple) and len(value.value) == len(target.elts) else None
            for index, element in enumerate(target.elts):
                part = parts[index] if parts is not None else unknown("unpacked from a value not known", where)
                self.assign(element, part, frame, where)
        # a subscript target (d["k"] = v) changes nothing this reader keeps

    # -- expressions ----------------------------------------------------------------------------

    def expr(self, node: ast.expr, frame: Frame) -> Val:
        where = Where(frame.module.path, node.lineno)
        if isinstance(node, ast.Constant):
            return Val(node.value, where)
        if isinstance(node, ast.Name):
            if node.id in frame.names:
                return frame.names[node.id]
            if node.id in _BUILTINS:
                return Val(External(node.id), where)
            return self.global_name(frame.module, node.id)
        if isinstance(node, ast.Attribute):
            return self._attribute(self.expr(node.value, frame), node.attr, where)
        if isinstance(node, ast.Call):
            return self._call_expr(node, frame, where)
        if isinstance(node, (ast.Tuple, ast.List)):
            if any(isinstance(element, ast.Starred) for element in node.elts):
                return unknown("a starred list", where)
            return Val(tuple(self.expr(element, frame) for element in node.elts), where)
        if isinstance(node, ast.Dict):
            return self._dict(node, frame, where)
        if isinstance(node, ast.BoolOp):
            return self._boolop(node, frame, where)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand, frame)
            if isinstance(node.op, ast.Not):
                truth = _truth(operand)
                return Val(not truth, where) if truth is not None else unknown(operand.why, where)
            if operand.constant and isinstance(operand.value, (int, float)) and not isinstance(operand.value, bool):
                return Val(-operand.value if isinstance(node.op, ast.USub) else operand.value, where)
            return unknown("not a constant", where)
        if isinstance(node, ast.BinOp):
            return _binop(node.op, self.expr(node.left, frame), self.expr(node.right, frame), where)
        if isinstance(node, ast.Compare):
            return self._compare(node, frame, where)
        if isinstance(node, ast.IfExp):
            truth = _truth(self.expr(node.test, frame))
            if truth is None:
                return unknown("chosen by a condition not known", where)
            return self.expr(node.body if truth else node.orelse, frame)
        if isinstance(node, ast.Subscript):
            container = self.expr(node.value, frame)
            key = self.expr(node.slice, frame)
            if isinstance(container.value, DictVal) and key.constant:
                found = container.value.get(key.value)
                return found if found is not None else unknown(f"no key {key.value!r}", where)
            if (
                isinstance(container.value, tuple)
                and isinstance(key.value, int)
                and -len(container.value) <= key.value < len(container.value)
            ):
                return container.value[key.value]
            return unknown("an item of a value not known", where)
        return unknown(f"a {type(node).__name__} expression", where)

    def _attribute(self, owner: Val, name: str, where: Where) -> Val:
        value = owner.value
        if isinstance(value, Obj):
            return value.get(name)
        if isinstance(value, Module):
            return self.global_name(value, name)
        if isinstance(value, External):
            return Val(External(f"{value.dotted}.{name}"), where)
        if isinstance(value, (str, DictVal)):
            return Val(_Method(owner, name), where)
        return unknown(owner.why or f"an attribute of a value not known ({name})", where)

    def _call_expr(self, node: ast.Call, frame: Frame, where: Where) -> Val:
        if isinstance(node.func, ast.Attribute):
            owner = self.expr(node.func.value, frame)
            if isinstance(owner.value, Obj) and node.func.attr not in owner.value.fields:
                # A method of an object (`bridge.to_megatron_provider(...)`): not read; an object of its keywords.
                keywords = {item.arg: self.expr(item.value, frame) for item in node.keywords if item.arg is not None}
                return Val(Obj(f"{node.func.attr}()", keywords), where)
            target = self._attribute(owner, node.func.attr, where)
        else:
            target = self.expr(node.func, frame)
        args: list[Val] = []
        for argument in node.args:
            if isinstance(argument, ast.Starred):
                spread = self.expr(argument.value, frame)
                if not isinstance(spread.value, tuple):
                    return unknown("called with *arguments not known", where)
                args.extend(spread.value)
            else:
                args.append(self.expr(argument, frame))
        keywords: dict[str, Val] = {}
        for keyword in node.keywords:
            value = self.expr(keyword.value, frame)
            if keyword.arg is not None:
                keywords[keyword.arg] = value
            elif isinstance(value.value, DictVal):
                for key, _, item in value.value.items:
                    if isinstance(key, str):
                        keywords[key] = item
            else:
                return unknown("called with **arguments not known", where)
        if isinstance(target.value, _Method):
            return _method(target.value, args, where)
        if isinstance(target.value, External) and target.value.dotted in ("dict",):
            return Val(DictVal(tuple((key, Val(key), value) for key, value in keywords.items())), where)
        if not target.known:
            return unknown(target.why or "calls a function not known", where)
        if not isinstance(target.value, (Function, Class, External)):
            return unknown("calls a value that is not a function", where)
        if isinstance(target.value, External) and target.value.dotted in _BUILTINS:
            return unknown(f"the result of {target.value.dotted}()", where)
        result = self.call(target, args, keywords, sure=frame.sure, why=frame.why)
        if not frame.sure and isinstance(target.value, Function):
            return unknown(frame.why or "called under a condition", where)
        return result

    def _dict(self, node: ast.Dict, frame: Frame, where: Where) -> Val:
        items: list[tuple[Any, Val, Val]] = []
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            value = self.expr(value_node, frame)
            if key_node is None:
                if not isinstance(value.value, DictVal):
                    return unknown(value.why or "merges a dict not known", where)
                items.extend(value.value.items)
                continue
            key = self.expr(key_node, frame)
            if not key.constant:
                return unknown("a key not known", where)
            items.append((key.value, key, value))
        return Val(DictVal(tuple(items)), where)

    def _boolop(self, node: ast.BoolOp, frame: Frame, where: Where) -> Val:
        last = Val(None, where)
        for operand in node.values:
            last = self.expr(operand, frame)
            truth = _truth(last)
            if truth is None:
                return unknown(last.why or "a condition not known", where)
            if isinstance(node.op, ast.And) and not truth:
                return last
            if isinstance(node.op, ast.Or) and truth:
                return last
        return last

    def _compare(self, node: ast.Compare, frame: Frame, where: Where) -> Val:
        left = self.expr(node.left, frame)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.expr(right_node, frame)
            outcome = _compared(op, left, right)
            if outcome is None:
                return unknown(left.why or right.why or "a comparison of values not known", where)
            if not outcome:
                return Val(False, where)
            left = right
        return Val(True, where)


@dataclass(frozen=True)
class _Method:
    owner: Val
    name: str


_BUILTINS = frozenset({"dict", "int", "str", "bool", "float", "len", "isinstance", "hasattr", "getattr", "list"})


def _name_of(value: Any) -> str:
    if isinstance(value, Function):
        return value.node.name
    if isinstance(value, External):
        return value.dotted.rsplit(".", 1)[-1]
    return ""


def _method(method: _Method, args: list[Val], where: Where) -> Val:
    owner = method.owner.value
    if isinstance(owner, str) and not args and method.name in ("upper", "lower", "strip"):
        return Val(getattr(owner, method.name)(), where)
    if isinstance(owner, DictVal) and method.name == "get" and args and args[0].constant:
        found = owner.get(args[0].value)
        if found is not None:
            return found
        return args[1] if len(args) > 1 else Val(None, where)
    return unknown(f"the result of .{method.name}()", where)


def _truth(value: Val) -> bool | None:
    if value.constant:
        return bool(value.value)
    if isinstance(value.value, Obj):
        return True if value.value.built else None
    if isinstance(value.value, (Function, Class)):
        return True
    if isinstance(value.value, tuple):
        return bool(value.value)
    if isinstance(value.value, DictVal):
        return bool(value.value.items)
    return None


def _compared(op: ast.cmpop, left: Val, right: Val) -> bool | None:
    if isinstance(op, (ast.Is, ast.IsNot)):
        if left.value is None or right.value is None:
            if left.known and right.known:
                same = left.value is None and right.value is None
                return same if isinstance(op, ast.Is) else not same
            return None
        return None
    if isinstance(op, (ast.In, ast.NotIn)):
        if left.constant and isinstance(right.value, tuple) and all(item.constant for item in right.value):
            inside = left.value in [item.value for item in right.value]
            return inside if isinstance(op, ast.In) else not inside
        return None
    if not (left.constant and right.constant):
        return None
    try:
        if isinstance(op, ast.Eq):
            return bool(left.value == right.value)
        if isinstance(op, ast.NotEq):
            return bool(left.value != right.value)
        if isinstance(op, ast.Lt):
            return bool(left.value < right.value)
        if isinstance(op, ast.LtE):
            return bool(left.value <= right.value)
        if isinstance(op, ast.Gt):
            return bool(left.value > right.value)
        if isinstance(op, ast.GtE):
            return bool(left.value >= right.value)
    except TypeError:
        return None
    return None


def _binop(op: ast.operator, left: Val, right: Val, where: Where) -> Val:
    numbers = (int, float)
    if not (left.constant and right.constant):
        return unknown(left.why or right.why or "arithmetic on values not known", where)
    a, b = left.value, right.value
    try:
        if isinstance(op, ast.Add) and (isinstance(a, str) == isinstance(b, str)):
            return Val(a + b, where)
        if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
            if isinstance(op, ast.Sub):
                return Val(a - b, where)
            if isinstance(op, ast.Mult):
                return Val(a * b, where)
            if isinstance(op, ast.FloorDiv):
                return Val(a // b, where)
            if isinstance(op, ast.Div):
                return Val(a / b, where)
    except (TypeError, ZeroDivisionError):
        pass
    return unknown("arithmetic this reader does not do", where)


def _bodies(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if body:
            yield body
    for handler in getattr(node, "handlers", []) or []:
        yield handler.body
    for case in getattr(node, "cases", []) or []:
        yield case.body


def _top_level(body: list[ast.stmt], nested: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """A module's top-level statements, with those inside its top-level `if` and `try` blocks (an
    import guarded by `if HAVE_MEGATRON_BRIDGE:` is what the launcher imports, in the container),
    each with whether it is inside such a block."""
    for node in body:
        if isinstance(node, (ast.If, ast.Try)):
            for inner in _bodies(node):
                yield from _top_level(inner, True)
        else:
            yield node, nested


def field_at(value: Val, *path: str) -> Val:
    """`cfg.model.seq_length` of an evaluated configuration: the Val, or unknown with why."""
    for name in path:
        if not isinstance(value.value, Obj):
            return unknown(value.why or f"{name}: not an object the files build")
        value = value.value.get(name)
    return value
