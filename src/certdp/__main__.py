"""The ``certdp`` command line: ``certdp audit``, ``certdp vet NAME --by WHO``, ``certdp verify``,
``certdp prove``."""

from __future__ import annotations

import argparse
import sys

__all__ = ["main"]


def _verify(arguments) -> int:
    from certdp.registry import certified_constructors

    failures = 0
    for constructor in certified_constructors(arguments.names):
        from certdp.contracts import contract_of

        try:
            report = contract_of(constructor).verify(max_examples=arguments.examples)
        except Exception as error:  # report every failing contract, not only the first
            failures += 1
            print(f"FAIL {constructor.__name__}: {type(error).__name__}: {error}")
        else:
            print(f"ok   {report}")
    return 1 if failures else 0


def _audit(arguments) -> int:
    from certdp.audit.report import QUICK_EXAMPLES, run

    return run(
        arguments.names,
        strict=arguments.strict,
        as_json=arguments.json,
        junit=arguments.junit,
        build=arguments.build,
        examples=arguments.examples or QUICK_EXAMPLES,
    )


def _vet(arguments) -> int:
    from certdp.audit.report import vet
    from certdp.core.errors import DPError

    try:
        vetting = vet(arguments.name, arguments.by)
    except DPError as error:
        print(f"certdp vet: {error}", file=sys.stderr)
        return 1
    print(f"vetted {arguments.name} by {vetting.reviewer} at {vetting.commit} ({vetting.date})")
    return 0


def _prove(arguments) -> int:
    from certdp.prove.cli import run

    return run(arguments)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="certdp", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="run every constructor's contract checks")
    verify.add_argument("names", nargs="*", help="constructor names (default: all)")
    verify.add_argument(
        "--examples", type=int, default=None, help="hypothesis examples per contract"
    )
    verify.set_defaults(run=_verify)
    audit = commands.add_parser("audit", help="do code, proof and contract still agree?")
    audit.add_argument("names", nargs="*", help="constructor names (default: all)")
    audit.add_argument("--json", action="store_true", help="machine-readable output")
    audit.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    audit.add_argument(
        "--strict", action="store_true", help="fail on never-vetted constructors too"
    )
    audit.add_argument("--build", action="store_true", help="also compile each proof")
    audit.add_argument(
        "--examples", type=int, default=None, help="hypothesis examples per contract"
    )
    audit.set_defaults(run=_audit)
    vet = commands.add_parser("vet", help="record that a reviewer vetted a constructor's proof")
    vet.add_argument("name", help="constructor name, e.g. make_is_equal")
    vet.add_argument("--by", required=True, help="the reviewer's name")
    vet.set_defaults(run=_vet)
    prove = commands.add_parser("prove", help="bounded SMT proofs of each constructor's theorem")
    prove.add_argument("names", nargs="*", help="constructor or lemma names (default: all)")
    prove.add_argument("--force", action="store_true", help="re-prove cached results too")
    prove.add_argument("--jobs", type=int, default=2, help="solver processes (default 2)")
    prove.add_argument("--timeout", type=float, default=300.0, help="seconds per obligation")
    prove.add_argument("--json", action="store_true", help="machine-readable output")
    prove.set_defaults(run=_prove)
    arguments = parser.parse_args(argv)
    return arguments.run(arguments)


if __name__ == "__main__":
    sys.exit(main())
