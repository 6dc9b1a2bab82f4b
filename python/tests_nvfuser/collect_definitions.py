"""pytest plugin: records every definition the Python tests finish, for the
differential test's second part (differential.py --test-definitions, which
runs `python3 -m pytest -p collect_definitions python/tests` with this
directory on the path and $FUSER_TEST_DEFINITIONS naming the output).

Per distinct definition (its module's API and its recorded calls, the text
fd._recorded_text() prints, which builds it again on either API): the first
test that made it, how many times the tests made it, fuser_mlir's outputs
(dtype and extents, as differential.describe_outputs gives them) and
repr(fd). Only definitions fuser_mlir accepted are seen (the hook runs when a
definition is finished); recording never changes a test's outcome: a
definition whose text or types cannot be taken (a test that replaced the
printer, say) is counted, not recorded.
"""

import json
import os

_DEFINITIONS = {}  # (module, text) -> record
_UNRECORDED = [0]


def _record(fd):
    from fuser_mlir import FusionError
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
    try:
        text = fd._recorded_text()
        key = (fd._module_name, text)
        if key in _DEFINITIONS:
            _DEFINITIONS[key]["count"] += 1
            return
        outputs = []
        for handle in fd._fusion_outputs():
            try:
                extents, dtype = fd._type_of(handle)
                outputs.append({"dtype": "DataType." + _datatype_name(dtype),
                                "shape": [] if extents is None else list(extents)})
            except FusionError:
                outputs.append({"dtype": None, "shape": None})
        _DEFINITIONS[key] = {"module": fd._module_name, "text": text, "test": test,
                             "count": 1, "outputs": outputs, "repr": repr(fd)}
    except Exception:  # noqa: BLE001 - a test's own replacements must not fail it
        _UNRECORDED[0] += 1


def _datatype_name(dtype):
    from fuser_mlir._states import DTYPE_NAMES
    return DTYPE_NAMES[dtype].name


def pytest_configure(config):
    from fuser_mlir import _fusion
    previous = _fusion.definition_hook

    def hook(fd):
        _record(fd)
        if previous is not None:
            previous(fd)
    _fusion.definition_hook = hook


def pytest_unconfigure(config):
    path = os.environ.get("FUSER_TEST_DEFINITIONS")
    if path:
        with open(path, "w") as output:
            json.dump({"definitions": list(_DEFINITIONS.values()),
                       "unrecorded": _UNRECORDED[0]}, output)
