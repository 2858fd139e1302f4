"""Print how much of MindSpore 2.10's public API cellonnx covers, per namespace (the README's figure):

    python -m tests.mindspore_api.coverage
"""
from __future__ import annotations

from tests.mindspore_api.api import coverage


def main() -> None:
    total = {"implemented": 0, "unsupported": 0, "absent": 0}
    print(f"{'namespace':30} {'names':>6} {'implemented':>12} {'unsupported':>12} {'pending':>8}")
    for namespace, counts in coverage().items():
        n = sum(counts.values())
        for key in total:
            total[key] += counts[key]
        print(f"{namespace:30} {n:6d} {counts['implemented']:12d} {counts['unsupported']:12d} "
              f"{counts['absent']:8d}")
    n = sum(total.values())
    print(f"{'all':30} {n:6d} {total['implemented']:12d} {total['unsupported']:12d} {total['absent']:8d}"
          f"   ({100 * total['implemented'] / n:.1f}% implemented)")


if __name__ == "__main__":
    main()
