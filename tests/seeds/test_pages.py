"""The examples of MindSpore's reference pages (/work/shared/seeds: the nn.Cell reference, the "Functional and
Cell" guide, the old mindspore.nn catalogue) run on cellonnx as written, with the page's imports rewritten to
cellonnx (tests/ports/port.py), and show what the page prints.

Each example (tests/seeds/examples.py) runs prompt by prompt (tests/seeds/session.py). Four checks:

- it raises where the page's own code raises under MindSpore 2.10 too (PAGE_ERRORS: mistakes of the page), and
  nowhere else - the page's older spellings (``Tensor.shape()``, ``nn.Buffer``, ``AdamWeightDecayDynamicLR``,
  ``scale_update_cell=``...) keep working;
- each line the page prints appears, in order, in what the example shows (numbers within tests/tolerance.py's
  tolerance of the printed digits, text as printed), except where MindSpore 2.10 itself prints otherwise
  (PAGE_SUPERSEDED: the test checks that MindSpore 2.10's output does differ from the page there);
- what it shows (and what the probe run after it shows) is what MindSpore 2.10 showed for the same code
  (tests/fixtures/mindspore/seeds.json, written by gen_seeds.py), numbers within tolerance;
- the ``values`` expressions evaluate to MindSpore 2.10's values: dtype, shape and numbers.

Outputs that depend on a random initialization are compared by their text and shape only (RANDOM, with why).
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.ports.port import port_source
from tests.seeds import examples, session
from tests.tolerance import assert_close, close_mask

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "seeds.json"
RECORDS: dict[str, Any] = json.loads(FIXTURE.read_text())
EXAMPLES = examples.by_id()
RTOL, SCALE_RTOL = 1e-5, 1e-6

# the page's own mistakes: (first line of the prompt, error type) that MindSpore 2.10 raises for the same code
PAGE_ERRORS: dict[str, list[tuple[str, str]]] = {
    # the example decorates with lazy_inline without importing it
    "000:Cell.offload": [("class OuterBlock(nn.Cell):", "NameError")],
    # the page passes the buffer's name as the tensor's data: mindspore.tensor("buffer0", [4, 5, 6])
    "000:Cell.register_buffer": [('net.register_buffer(mindspore.tensor("buffer0", [4, 5, 6]))',
                                  "TypeError")],
    # the page calls the loss-wrapped network with a third input (the scale) its construct does not take
    "004:TrainOneStepWithLossScaleCell": [("output = train_network(inputs, label, scaling_sens)",
                                           "TypeError")],
    # the page's network gives 4-D logits (N, 10, 1, 1) to a loss that takes 2-D ones
    "004:WithLossCell": [("net_with_criterion(data, label)", "ValueError")],
}

# device-only names of the older catalogue: importing them raises an error that says so
DEVICE_ONLY: dict[str, list[tuple[str, str]]] = {
    "004:DataWrapper": [("from cellonnx.nn import DataWrapper", "UnsupportedError")],
}

# examples whose page output MindSpore 2.10 no longer prints (the older catalogue's reprs, a typo): cellonnx
# prints what MindSpore 2.10 prints, checked against seeds.json
PAGE_SUPERSEDED: dict[str, str] = {
    "000:Cell.buffers": "MindSpore 2.x prints an int tensor as [4 5 6], not [4, 5, 6]",
    "000:Cell.named_buffers": "MindSpore 2.x prints an int tensor as [4 5 6], not [4, 5, 6]",
    "000:Cell.get_buffer": "MindSpore 2.x prints an int tensor as [0 0 0], not [0, 0, 0]",
    "000:Cell.get_inputs": "the page's extraction joined the repr's two lines",
    "002:parameter saving and loading": "the weights are drawn at random (the page shows one draw)",
    "004:AvgPool2d": "MindSpore 2.x prints a shown Tensor as Tensor(shape=..., value=...); the page's x is "
                     "another draw",
    "004:MaxPool2d": "MindSpore 2.x prints a shown Tensor as Tensor(shape=..., value=...); the page's x is "
                     "another draw",
    "004:CellList": "MindSpore 0.1's repr (CellList< ... >); 2.x prints CellList( ... )",
    "004:Conv2d": "the page's 637 is a typo: pad_mode='same' (the default) keeps the width (640 on the "
                  "page's input, 40 on the scaled one of examples.py)",
    "004:Dense": "the weights are drawn at random (the page shows one draw); 2.x prints Tensor(...)",
    "004:Flatten": "MindSpore 2.x prints a shown Tensor as Tensor(shape=..., value=...)",
    "004:OneHot": "MindSpore 2.x prints a shown Tensor as Tensor(shape=..., value=...)",
    "004:SequentialCell": "the weights are drawn at random (the page shows one draw); 2.x prints Tensor(...)",
}

# the page prints the value of an assignment (the catalogue's metrics examples): the value's repr is compared
PAGE_SHOWS: dict[str, str] = {
    "004:Fbeta": "fbeta", "004:Loss": "result", "004:Precision": "precision", "004:Recall": "recall",
    "004:TopKCategoricalAccuracy": "result",
}

# outputs and values drawn from a random initialization: compared by text and shape only
RANDOM: dict[str, str] = {
    "002:parameter saving and loading": "Dense's weight comes from HeUniform's random draw",
    "004:Dense": "Dense's weight comes from HeUniform's random draw (the probe sets seeded weights)",
    "004:SequentialCell": "Conv2d's weight comes from HeUniform's random draw (the probe sets seeded "
                          "weights)",
    "004:Conv2dTranspose": "weight_init='normal' is a random draw (the probe sets seeded weights)",
}

# examples whose MindSpore 2.10 run failed (no CPU kernel): their outputs have no MindSpore reference
NO_REFERENCE: dict[str, str] = {
    "004:LARS": "MindSpore 2.10 has no CPU kernel for LARS's update (Kernel select failed)",
    "004:Lamb": "MindSpore 2.10 has no CPU kernel for Lamb's update (Kernel select failed)",
}

# examples that fail only for a name another part of cellonnx adds: strict, so the marker goes when it lands
MISSING: dict[str, str] = {}

IDS = sorted(EXAMPLES)


def _marks(example_id: str) -> list[Any]:
    if example_id in MISSING:
        return [pytest.mark.xfail(strict=True, reason=f"needs {MISSING[example_id]}")]
    return []


def params(ids: list[str]) -> list[Any]:
    return [pytest.param(i, id=i, marks=_marks(i)) for i in ids]


def shows_something(example_id: str) -> bool:
    rec = RECORDS[example_id].get("variant", RECORDS[example_id]["code"])
    return any(p["out"] for p in rec["prompts"] + rec["probe"])


@functools.cache
def run(example_id: str, tmp: str) -> tuple[session.Session, session.Session | None]:
    """The example (context and code) run with cellonnx in ``tmp``, and its probe after it."""
    ex = EXAMPLES[example_id]
    first = session.run(port_source(ex.context + ex.code), tmp)
    after = session.run(port_source(ex.probe), tmp, namespace=first.namespace) if ex.probe else None
    return first, after


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("seeds")


def ran(example_id: str, workdir: Path) -> tuple[session.Session, session.Session | None]:
    folder = workdir / re.sub(r"\W", "_", example_id)
    folder.mkdir(exist_ok=True)
    return run(example_id, str(folder))


def reference(example_id: str) -> dict[str, Any]:
    """MindSpore 2.10's record: of the variant where the page's code needed 2.10's spelling."""
    rec = RECORDS[example_id]
    return rec.get("variant", rec["code"])


# ------------------------------------------------------------------------------------------ text comparison
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\bnan\b|\binf\b")


def normalized(text: str) -> str:
    """Object addresses and module paths left out (cellonnx's classes live in cellonnx's own modules), and
    ``mindspore.`` read as ``cellonnx.`` (a port prints its own package where MindSpore prints its)."""
    text = re.sub(r" at 0x[0-9a-fA-F]+", " at 0x", text)
    text = re.sub(r"\bmindspore\.", "cellonnx.", text)
    return re.sub(r"<class '(?:mindspore|cellonnx)\.[\w.]*\.(\w+)'>", r"<class '\1'>", text)


def split(text: str) -> tuple[str, list[float]]:
    """The text with each number written as '#' and white space left out (the pages' extraction moved it),
    and the numbers."""
    text = normalized(text)
    return re.sub(r"\s+", "", NUMBER.sub("#", text)), [float(n) for n in NUMBER.findall(text)]


def same_text(got: str, want: str, numbers: bool = True) -> bool:
    got_words, got_numbers = split(got)
    want_words, want_numbers = split(want)
    if got_words != want_words:
        return False
    return not numbers or bool(close_mask(got_numbers, want_numbers, RTOL, SCALE_RTOL).all())


def unmatched_lines(page: str, shown: str) -> list[str]:
    """The page's lines not found, in order, among the shown lines (the page leaves some prompts' output
    out)."""
    lines = [line for line in shown.splitlines() if line.strip()]
    missing, at = [], 0
    for want in (line for line in page.splitlines() if line.strip()):
        found = next((i for i in range(at, len(lines)) if same_text(lines[i], want)), None)
        if found is None:
            missing.append(want)
        else:
            at = found + 1
    return missing


def assert_same_output(got: str, want: str, what: str, numbers: bool = True) -> None:
    got_words, got_numbers = split(got)
    want_words, want_numbers = split(want)
    assert got_words == want_words, f"{what}: cellonnx shows\n{got}\nMindSpore 2.10 shows\n{want}"
    if numbers:
        assert_close(np.array(got_numbers), np.array(want_numbers), RTOL, SCALE_RTOL, what=what)


# ------------------------------------------------------------------------------------------------ the tests
@pytest.mark.parametrize("example_id", params(IDS))
def test_runs_as_written(example_id: str, workdir: Path) -> None:
    first, after = ran(example_id, workdir)
    errors = first.errors + (after.errors if after else [])
    expected = PAGE_ERRORS.get(example_id, []) + DEVICE_ONLY.get(example_id, [])
    # a NameError of a name an earlier failed prompt did not define follows from that failure
    raised = [(line, error.split(":")[0]) for line, error in errors
              if not error.startswith("NameError: name '") or (line, "NameError") in expected]
    assert raised == expected, f"{example_id}: {errors}"


def test_page_errors_are_mindspores() -> None:
    """Each error the table expects is one MindSpore 2.10 raises for the page's code (or its 2.10 variant)."""
    for example_id, expected in PAGE_ERRORS.items():
        rec = reference(example_id)
        ms = [(p["line"], p["error"].split(":")[0]) for p in rec["prompts"] + rec["probe"] if p["error"]]
        for item in expected:
            assert item in ms, f"{example_id}: MindSpore 2.10 does not raise {item}: {ms}"


WITH_PAGE_OUTPUT = [i for i in IDS if EXAMPLES[i].page_output]


@pytest.mark.parametrize("example_id", params(WITH_PAGE_OUTPUT))
def test_shows_what_the_page_prints(example_id: str, workdir: Path) -> None:
    ex = EXAMPLES[example_id]
    first, _ = ran(example_id, workdir)
    shown = first.output
    if example_id in PAGE_SHOWS:
        shown += str(first.namespace[PAGE_SHOWS[example_id]]) + "\n"  # as print shows it
    missing = unmatched_lines(ex.page_output, shown)
    if example_id in PAGE_SUPERSEDED:
        ms_shown = "".join(p["out"] for p in reference(example_id)["prompts"])
        assert unmatched_lines(ex.page_output, ms_shown), (
            f"{example_id}: MindSpore 2.10 prints what the page prints: drop it from PAGE_SUPERSEDED")
        return  # test_shows_what_mindspore_shows compares the output with MindSpore 2.10's
    assert not missing, f"{example_id}: the page's lines {missing} are not in what cellonnx shows:\n{shown}"


# an example that shows nothing fails only where it runs (its output compared with MindSpore's empty one
# passes)
@pytest.mark.parametrize("example_id", params([i for i in IDS if i not in MISSING or shows_something(i)]))
def test_shows_what_mindspore_shows(example_id: str, workdir: Path) -> None:
    if example_id in NO_REFERENCE:
        pytest.skip(NO_REFERENCE[example_id])
    first, after = ran(example_id, workdir)
    rec = reference(example_id)
    numbers = example_id not in RANDOM
    for which, got, prompts in (("example", first, rec["prompts"]), ("probe", after, rec["probe"])):
        if got is None:
            continue
        want = "".join(p["out"] for p in prompts)
        if example_id in RANDOM and which == "probe":
            numbers = True  # the probe sets seeded weights
        assert_same_output(got.output, want, f"{example_id} ({which})", numbers)


WITH_VALUES = [i for i in IDS if EXAMPLES[i].values]


def assert_same_value(got: Any, want: Any, what: str) -> None:
    if isinstance(want, dict) and "error" in want:
        assert isinstance(got, dict) and got.get("error", "").split(":")[0] == want["error"].split(":")[0], (
            f"{what}: MindSpore 2.10 raises {want['error']}, cellonnx gives {got}")
    elif isinstance(want, dict) and "dtype" in want:
        assert isinstance(got, dict) and "dtype" in got, f"{what}: {got!r}, MindSpore 2.10 gives an array"
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), (
            f"{what}: {got['dtype']} {got['shape']}, MindSpore 2.10 gives {want['dtype']} {want['shape']}")
        if want["dtype"].startswith(("float", "complex")):
            assert_close(np.array(got["data"]), np.array(want["data"]), RTOL, SCALE_RTOL, what=what)
        else:
            assert got["data"] == want["data"], what
    elif isinstance(want, list) and isinstance(got, list) and len(got) == len(want):
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same_value(g, w, f"{what}[{i}]")
    elif isinstance(want, float) and isinstance(got, float):
        assert_close(got, want, RTOL, SCALE_RTOL, what=what)
    elif isinstance(want, str) and isinstance(got, str):
        assert normalized(got) == normalized(want), what
    else:
        assert got == want, f"{what}: {got!r}, MindSpore 2.10 gives {want!r}"


@pytest.mark.parametrize("example_id", params(WITH_VALUES))
def test_values_are_mindspores(example_id: str, workdir: Path) -> None:
    if example_id in NO_REFERENCE:
        pytest.skip(NO_REFERENCE[example_id])
    first, _ = ran(example_id, workdir)
    got = session.evaluate(first, list(EXAMPLES[example_id].values))
    want = reference(example_id)["values"]
    for expr in EXAMPLES[example_id].values:
        assert_same_value(got[expr], want[expr], f"{example_id}: {expr}")
