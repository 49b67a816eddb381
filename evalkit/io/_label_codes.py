"""Label codes of the columns of a prediction file: a label's code in the order labels are
first seen (fixed labels first), labels outside the fixed ones refused at their line, score
columns given as labels refused, codes named back as text or by value (``"1"`` and
``"1.0"`` one class when every label is a number), and label sets split at a separator.

What the readers (``evalkit.io._readers``) give as fields, this turns into the codes the
stream counters count.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from evalkit._results.evaluation import Evaluation
from evalkit.exceptions import InputFileError, InvalidArgumentError
from evalkit.io._readers import (
    Batch,
    Labels,
    label_number,
    label_text,
    weights,
)


def label_set(value: Any, separator: str, at: str) -> frozenset:
    if isinstance(value, list):
        return frozenset(label_text(item, at) for item in value)
    if value is None or isinstance(value, (bool, dict)):
        raise InputFileError(f"{at}: expected a label set, got {json.dumps(value)}")
    text = value.decode("utf-8") if isinstance(value, bytes) else str(value)
    return frozenset(label_text(part, at) for part in text.split(separator) if part.strip())


def option_list(option: str | None, name: str = "--labels") -> list[str] | None:
    if option is None:
        return None
    labels = [label.strip() for label in option.split(",") if label.strip()]
    twice = next((label for k, label in enumerate(labels) if label in labels[:k]), None)
    if twice is not None:
        raise InvalidArgumentError(f"{name} names {twice!r} twice: {option!r}")
    return labels


def label_coder(labels: Sequence[str] | None) -> Labels:
    """Label codes with the fixed labels (if any) first, as codes 0, 1, ..."""
    coder = Labels()
    for label in labels or ():
        coder.code(label)
    return coder


def column_codes(coder: Labels, batch: Batch, role: str, fixed: int | None, option: str = "--labels") -> np.ndarray:
    """The label codes of a column; with ``fixed`` labels, a label outside them is an error."""
    return codes_within(coder, coder.codes(batch.fields[role], batch.where(role)), batch, role, fixed, option)


def codes_within(coder: Labels, codes: np.ndarray, batch: Batch, role: str, fixed: int | None, option: str = "--labels") -> np.ndarray:
    """``codes``, checked to be among the ``fixed`` first labels (when fixed); a label that is
    the number of a fixed one (``1.0`` for ``1``) is that one."""
    if fixed is not None:
        codes = coder.matched(codes, range(fixed)) if (codes >= fixed).any() else codes
        refuse_outside(coder, codes, codes >= fixed, batch, role, f"is not in {option} ({', '.join(sorted(coder.texts[:fixed]))})")
    return codes


def refuse_outside(coder: Labels, codes: np.ndarray, outside: np.ndarray, batch: Batch, role: str, why: str) -> None:
    """The first label code marked ``outside``, if any, refused with its line."""
    if outside.any():
        position = int(np.argmax(outside))
        raise InputFileError(f"{batch.where(role)(position)}: label {coder.texts[codes[position]]!r} {why}")


def code_texts(coder: Labels, codes: np.ndarray) -> np.ndarray:
    """The label texts of codes: a numpy string array (which the counters encode at twice the
    speed of Python strings), or an object array when a label is long (a string array's width
    is its longest label's)."""
    texts = coder.texts
    short = bool(texts) and max(map(len, texts)) <= 16
    return (np.array(texts) if short else np.array(texts, dtype=object))[codes]


def batch_weights(weight_column: str | None, batch: Batch) -> Any:
    """The sample weights of a batch (``None`` without a weight column)."""
    return None if weight_column is None else weights(batch.fields["weight"], batch.where("actual"))


def label_order(labels: Sequence[str]) -> list[str]:
    """Labels read as text, in order: by number when every label is a number (0, 1, 2, ..., 10),
    else as text."""
    numbers = [label_number(label) for label in labels]
    if labels and all(number is not None for number in numbers):
        return [label for _, label in sorted(zip(numbers, labels), key=lambda pair: (pair[0], pair[1]))]
    return sorted(labels)


def check_not_scores(coder: Labels, codes: np.ndarray, batch: Batch, role: str, numbers: dict[int, Any]) -> None:
    """A column of numbers that are not whole is a score column given as labels: refuse it.
    (``numbers`` remembers the number of each label code.)"""
    present = np.flatnonzero(np.bincount(codes, minlength=len(coder.texts))).tolist()
    for code in present:
        if code not in numbers:
            numbers[code] = coder.value(code)
    if present and all(numbers[code] is not None for code in present):
        odd = [code for code in present if not float(numbers[code]).is_integer()]
        if odd:
            position = int(np.flatnonzero(np.isin(codes, odd))[0])
            raise InputFileError(
                f"{batch.where(role)(position)}: the {role} label {coder.texts[codes[position]]!r} is a number that is not whole: "
                "the column looks like scores (probabilities) or numeric targets: use --score COLUMN with --threshold, or --regression for a regressor's predictions"
            )


def texts_by_value(coder: Labels, codes: list[int]) -> list[str] | None:
    """The texts of label codes by value when every one is a number (``"1.0"`` is ``"1"``),
    else None (text); refused when an option matched a label by value in labels that are text."""
    valued = coder.by_value(codes)
    if valued is None and coder.spellings:
        code, target = next(iter(coder.spellings.items()))
        other = next(coder.texts[c] for c in codes if coder.value(c) is None)
        raise InputFileError(f"the label {coder.texts[code]!r} was read as {coder.texts[target]!r} (the same number), but the labels are not "
                             f"all numbers ({other!r}), so they are text: write {coder.texts[target]!r} as it is given")  # fmt: skip
    return valued


def named_evaluation(evaluation: Evaluation, coder: Labels, fixed: bool) -> Evaluation:
    """An evaluation counted over label codes, with the label texts in the report's order.
    Labels are numbers by value when every one of them is a number (``"1"`` and ``"1.0"`` one
    class, named ``1``), else text."""
    codes = list(evaluation.labels)
    valued = texts_by_value(coder, codes)
    if fixed or valued is None:
        named = evaluation.renamed([coder.texts[code] for code in codes])
    elif len(set(valued)) < len(valued):  # spellings of one number: one class
        distinct = list(dict.fromkeys(valued))
        position = {text: k for k, text in enumerate(distinct)}
        mapping = np.array([position[text] for text in valued], dtype=np.intp)
        pairs = evaluation.pair_counts()
        named = Evaluation.from_labels(mapping[pairs.actual], mapping[pairs.predicted], range(len(distinct)), sample_weight=pairs.counts,
                                       metrics_class=evaluation.metrics_class).compact().renamed(distinct)  # fmt: skip
    else:
        named = evaluation.renamed(valued)
    return named if fixed else named.with_labels(label_order(named.labels))


def group_keys(keys: Sequence[Any], columns: list[str], names: dict[str, Labels]) -> list[Any]:
    """The groups' keys with each column's values as numbers when every value of that column
    spells one (``"1"`` and ``"1.0"`` are the group ``1``), else as text."""
    value_of: dict[str, dict[str, Any]] = {}
    for name in columns:
        texts = names[name].texts
        valued = names[name].by_value(list(range(len(texts))))
        value_of[name] = dict(zip(texts, texts if valued is None else [label_number(value) for value in valued]))

    def key_of(key: Any) -> Any:
        found = tuple(value_of[name][part] for name, part in zip(columns, key if len(columns) > 1 else (key,)))
        return found if len(columns) > 1 else found[0]

    return [key_of(key) for key in keys]
