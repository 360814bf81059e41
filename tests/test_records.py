"""inplace_lint.model.records: the value classes that stand in for dataclasses on every start-up."""

import pickle

import pytest

from inplace_lint.model.findings import Evidence, Finding, LintOptions, Position
from inplace_lint.model.records import FrozenRecord, Record, as_dict, factory


class Pair(FrozenRecord):
    first: int
    second: str = "b"


class Bag(Record):
    name: str
    items: list = factory(list)


def test_fields_in_order_with_defaults_positional_or_keyword():
    assert Pair._fields == ("first", "second")
    assert Pair(1) == Pair(first=1, second="b") == Pair(1, "b")
    assert Pair(1) != Pair(1, "c")
    assert repr(Pair(1)) == "Pair(first=1, second='b')"


def test_wrong_arguments_raise_type_error_as_a_dataclass_does():
    with pytest.raises(TypeError, match="missing required argument 'first'"):
        Pair()
    with pytest.raises(TypeError, match="unexpected keyword argument 'third'"):
        Pair(1, third=3)
    with pytest.raises(TypeError, match="multiple values for argument 'first'"):
        Pair(1, first=2)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        Pair(1, "b", 3)


def test_frozen_records_refuse_assignment_and_hash_by_value():
    pair = Pair(1)
    with pytest.raises(AttributeError):
        pair.first = 2
    with pytest.raises(AttributeError):
        del pair.first
    assert hash(pair) == hash(Pair(1))
    assert len({Pair(1), Pair(1), Pair(2)}) == 2


def test_mutable_records_get_a_fresh_factory_default_and_no_hash():
    one, two = Bag("a"), Bag("b")
    one.items.append(1)
    assert two.items == []
    one.name = "c"
    assert one == Bag("c", [1])
    with pytest.raises(TypeError):
        hash(one)
    assert LintOptions().extra is not LintOptions().extra


def test_replace_copies_with_changes_and_other_classes_are_never_equal():
    pair = Pair(1)
    assert pair.replace(second="z") == Pair(1, "z")
    assert pair == Pair(1)  # unchanged
    assert Pair(1) != (1, "b")


def test_positions_order_by_line_then_column():
    assert sorted([Position(2, 0), Position(1, 5), Position(1, 2)]) == [
        Position(1, 2), Position(1, 5), Position(2, 0)]
    assert Position(1, 2) <= Position(1, 2) < Position(1, 3)
    assert Position(3, 0) >= Position(2, 9) > Position(2, 8)
    with pytest.raises(TypeError):  # as a dataclass: ordered only against its own class
        Position(1, 2) < (1, 3)


def test_findings_pickle_and_convert_to_nested_dicts():
    finding = Finding("AGI001", "saved-tensor-modified-inplace", "message", "x.py", Position(1, 0),
                      Position(1, 5), Evidence("*=", "b", saving_line=1))
    assert pickle.loads(pickle.dumps(finding)) == finding  # results cross processes under -j
    data = as_dict(finding)
    assert data["start"] == {"line": 1, "column": 0}
    assert data["evidence"]["saving_line"] == 1
    assert as_dict([Pair(1), (Pair(2),)]) == [{"first": 1, "second": "b"}, ({"first": 2, "second": "b"},)]
