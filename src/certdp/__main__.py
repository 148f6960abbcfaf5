"""The ``certdp`` command line.

Each subcommand is one ``_<name>_command(commands)`` function that adds its parser and sets
``run``; :data:`SUBCOMMANDS` lists them in the order ``--help`` shows them.  To add one, write
such a function and append it to :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["main", "SUBCOMMANDS"]

DESCRIPTION = """\
certdp: differential-privacy constructors, each with a LaTeX proof and an executable contract.

Audit that code, proofs and contracts agree, run the contracts, and record proof reviews."""

EPILOG = """\
examples:
  certdp audit                      audit every constructor of the installed package
  certdp audit make_sum --json      one constructor, as JSON
  certdp audit --strict --build     also fail on never-vetted proofs; build the proof PDFs
  certdp verify make_sum            run make_sum's contract under hypothesis
  certdp vet make_sum --by "Name" --reviewed "proof against code listing, cited lemmas"
                                    record a review (in a source checkout, after committing)
  certdp crosscheck opendp --quick  audit OpenDP's constructors against certdp's proofs

Run 'certdp COMMAND --help' for the options of a command."""


def _verify(arguments) -> int:
    from certdp.audit.terminal import console, plural, progress
    from certdp.contracts import contract_of
    from certdp.registry import certified_constructors

    try:
        constructors = certified_constructors(arguments.names)
    except SystemExit as error:
        print(f"certdp verify: error: {error}", file=sys.stderr)
        return 2
    if not constructors:
        print("certdp verify: error: no certified constructor found", file=sys.stderr)
        return 2
    failures = []
    with progress(len(constructors), "verifying contracts", sys.stderr) as reporter:
        for constructor in constructors:
            try:
                report = contract_of(constructor).verify(max_examples=arguments.examples)
            except Exception as error:  # report every failing contract, not only the first
                failures.append(f"{constructor.__name__}: {type(error).__name__}: {error}")
                reporter.done("FAIL", constructor.__name__)
            else:
                name = constructor.__name__
                reporter.done("ok", name, str(report).removeprefix(f"{name}: "))
    out = console(sys.stdout)
    for failure in failures:
        out.print(f"FAIL {failure}")
    passed = len(constructors) - len(failures)
    out.print(f"{plural(len(constructors), 'contract')}: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


def _verify_command(commands) -> None:
    verify = commands.add_parser(
        "verify",
        help="search every constructor's contract for a counterexample",
        description="Run each constructor's contract: its preconditions, its output domain and "
        "its map against the proof's bound, on inputs that hypothesis searches for.",
    )
    verify.add_argument("names", nargs="*", help="constructor names (default: all)")
    verify.add_argument(
        "--examples", type=int, default=None, help="hypothesis examples per contract"
    )
    verify.set_defaults(run=_verify)


def _audit(arguments) -> int:
    from certdp.audit.report import run

    return run(
        arguments.names,
        strict=arguments.strict,
        as_json=arguments.json,
        junit=arguments.junit,
        build=arguments.build,
        build_dir=arguments.build_dir,
        examples=arguments.examples,
    )


def _audit_command(commands) -> None:
    from certdp.audit.checks import QUICK_EXAMPLES

    audit = commands.add_parser(
        "audit",
        help="check that code, proof and contract still agree",
        description="For each constructor: are its artifacts there, does the proof bind to the "
        "code and the contract, is the proof vetted for the code as it is now, does the contract "
        "hold, what did the bounded SMT check (certdp prove) establish and over what scope "
        "(formats, sizes, bit-precise parts, abstractions, free functions), and (with --build) "
        "does the proof compile? Works on the installed package, with "
        "the proofs and the vetting ledger it ships. Exit status: 0 all passed, 1 a check "
        "failed, 2 nothing to audit (no constructor, an unknown name, no ledger).",
    )
    audit.add_argument("names", nargs="*", help="constructor names (default: all)")
    audit.add_argument("--json", action="store_true", help="print the report as JSON")
    audit.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    audit.add_argument(
        "--strict", action="store_true", help="fail on never-vetted constructors too"
    )
    audit.add_argument(
        "--build",
        action="store_true",
        help="also compile each proof to PDF (needs make and LaTeX; skipped, saying so, without)",
    )
    audit.add_argument(
        "--build-dir",
        metavar="DIR",
        help="where --build writes the PDFs (default: build/proofs in a source checkout, "
        "./certdp-proofs otherwise)",
    )
    audit.add_argument(
        "--examples",
        type=int,
        default=QUICK_EXAMPLES,
        help=f"hypothesis examples per contract (default: {QUICK_EXAMPLES})",
    )
    audit.set_defaults(run=_audit)


def _vet(arguments) -> int:
    from certdp.audit.vetting import vet
    from certdp.core.errors import DPError

    if arguments.migrate:
        return _migrate(arguments)
    if arguments.name is None or arguments.by is None or arguments.reviewed is None:
        print("certdp vet: NAME, --by and --reviewed are required", file=sys.stderr)
        return 2
    try:
        recorded = vet(
            arguments.name,
            arguments.by,
            uncommitted=arguments.uncommitted,
            reviewed=arguments.reviewed,
        )
    except DPError as error:
        print(f"certdp vet: {error}", file=sys.stderr)
        return 1
    vetting = recorded.vetting
    if recorded.dropped:
        print(_dropped_note(recorded.dropped))
    if recorded.uncommitted:
        print(
            f"vetted {arguments.name} by {vetting.reviewer} ({vetting.date}; reviewed: "
            f"{vetting.reviewed}): recorded the "
            "content fingerprint only, with no commit, because these files are not committed: "
            + ", ".join(recorded.uncommitted)
        )
    else:
        print(
            f"vetted {arguments.name} by {vetting.reviewer} at {vetting.commit} ({vetting.date}); "
            f"reviewed: {vetting.reviewed}"
        )
    return 0


def _migrate(arguments) -> int:
    """``certdp vet --migrate``: rewrite the ledger in the current format, entries unchanged,
    with only the pairs they use; the file is replaced only once the new text has read back
    as the same vettings (:meth:`certdp.audit.ledger.Ledger.write`)."""
    from certdp.audit.ledger import LEDGER_FORMAT, Ledger
    from certdp.core.errors import DPError

    if arguments.name is not None or arguments.by is not None or arguments.reviewed is not None:
        print("certdp vet: --migrate takes no NAME, --by or --reviewed", file=sys.stderr)
        return 2
    try:
        ledger = Ledger()
        if not ledger.exists:
            print(f"certdp vet: no vetting ledger at {ledger.path}", file=sys.stderr)
            return 1
        ledger.write()  # raises, the file unchanged, unless the rewrite reads back the same
    except DPError as error:
        print(f"certdp vet: {error}", file=sys.stderr)
        return 1
    if ledger.dropped:
        print(_dropped_note(ledger.dropped))
    print(
        f"rewrote {ledger.path} in ledger format {LEDGER_FORMAT} "
        f"({len(ledger.entries)} entries, unchanged)"
    )
    return 0


def _dropped_note(keys) -> str:
    return (
        "dropped from the ledger (not a vetting of strings, and no constructor of the package "
        f"has its key): {', '.join(keys)}"
    )


def _vet_command(commands) -> None:
    vet = commands.add_parser(
        "vet",
        help="record that a reviewer vetted a constructor's proof",
        description="Record in the vetting ledger that REVIEWER (a name or a role) reviewed WHAT "
        "(--reviewed) of the proof and the code as committed at HEAD. Refused while binding or contracts fail, and while a "
        "reviewed file (proven code, proof, cited lemmas) is not committed as it is now.",
    )
    vet.add_argument("name", nargs="?", help="constructor name, e.g. make_is_equal")
    vet.add_argument("--by", metavar="REVIEWER", help="the reviewer's name or role (required)")
    vet.add_argument(
        "--reviewed",
        metavar="WHAT",
        help='what was reviewed, e.g. "proof against code listing, cited lemmas, contract" '
        "(stored in the ledger and shown by the audit, the proof's first page and the docs)",
    )
    vet.add_argument(
        "--uncommitted",
        action="store_true",
        help="record the content fingerprint without a commit when reviewed files are not "
        "committed (the ledger then names no commit)",
    )
    vet.add_argument(
        "--migrate",
        action="store_true",
        help="vet nothing: rewrite the ledger in the current format (format 3: each distinct "
        "fingerprint stored once, an entry's fingerprints a bitset over them), every entry "
        "unchanged",
    )
    vet.set_defaults(run=_vet)


def _prove(arguments) -> int:
    from certdp._solvers import INSTALL_HINT, missing_solvers

    missing = missing_solvers()
    if missing:
        print(
            f"certdp prove: the SMT solvers are not installed ({', '.join(missing)}); they "
            f"come with the 'prove' extra: {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2
    from certdp.prove.cli import run

    return run(arguments)


def _prove_command(commands) -> None:
    prove = commands.add_parser(
        "prove",
        help="bounded SMT proofs of each constructor's theorem",
        description="Bounded SMT proofs (z3; Bitwuzla for some IEEE lemmas) of each modelled "
        "constructor's theorem, with the map value taken from the real constructor wherever the "
        "check runs in a format the code supports. What each check covers differs by constructor and is printed under its "
        "result: the formats (f64, f32, or only a reduced format such as f8), the sizes N, "
        "which parts are bit-precise, which are exact-real abstractions, which functions are "
        "free (uninterpreted, e.g. exp and ln) and what is assumed from a proof. Results are "
        "cached by fingerprint: an unchanged tree re-proves nothing. Needs the solvers of the "
        "'prove' extra (pip install 'certdp[prove]'); without them it says so and exits with 2.",
    )
    prove.add_argument("names", nargs="*", help="constructor or lemma names (default: all)")
    prove.add_argument("--force", action="store_true", help="re-prove cached results too")
    prove.add_argument("--jobs", type=int, default=2, help="solver processes (default 2)")
    prove.add_argument("--timeout", type=float, default=300.0, help="seconds per obligation")
    prove.add_argument("--json", action="store_true", help="print the results as JSON")
    prove.set_defaults(run=_prove)


def _crosscheck(arguments) -> int:
    from certdp.crosscheck.report import run

    return run(
        arguments.target,
        arguments.names,
        quick=arguments.quick,
        as_json=arguments.json,
        junit=arguments.junit,
        reproducers=arguments.reproducers,
        jobs=arguments.jobs,
        fail_on_suspect=arguments.fail_on_suspect,
        timeout=arguments.timeout,
    )


def _crosscheck_command(commands) -> None:
    crosscheck = commands.add_parser(
        "crosscheck",
        help="audit another DP library (OpenDP's prelude API) against certdp's proofs",
        description="For every certdp constructor with a twin in TARGET (an importable module "
        "with OpenDP's prelude API, e.g. opendp.prelude): compare TARGET's maps with certdp's "
        "exact bounds, search for neighbouring inputs on which TARGET's own function exceeds "
        "its own map, and test TARGET's noise against its exact distribution. Exit status: "
        "0 nothing failed, 1 a violation (with a concrete pair or an output outside the output "
        "domain), a sampler deviation, a timeout or a crash of the target (or a suspect with "
        "--fail-on-suspect), 2 "
        "nothing could be checked (TARGET does not import, an unknown NAME, no twin built).",
    )
    crosscheck.add_argument("target", metavar="TARGET", help="module to audit, e.g. opendp")
    crosscheck.add_argument("names", nargs="*", metavar="NAME", help="twins (default: all)")
    crosscheck.add_argument("--quick", action="store_true", help="a small grid (about a minute)")
    crosscheck.add_argument("--json", action="store_true", help="print the report as JSON")
    crosscheck.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    crosscheck.add_argument(
        "--reproducers", metavar="DIR", help="write every finding's reproducer script into DIR"
    )
    crosscheck.add_argument(
        "--jobs", type=int, default=2, help="processes, one twin each at a time (default 2)"
    )
    crosscheck.add_argument(
        "--fail-on-suspect",
        action="store_true",
        help="exit 1 on a suspect too (a map below certdp's exact bound; on a measurement an "
        "under-reported privacy loss); by default suspects are reported and the run exits 0",
    )
    crosscheck.add_argument(
        "--timeout",
        type=float,
        default=600.0,  # run.DEFAULT_TIMEOUT: a whole grid point (noise draws included)
        metavar="SECONDS",
        help="seconds per grid point before a blocked target call is abandoned and reported "
        "as a timeout (default 600)",
    )
    crosscheck.set_defaults(run=_crosscheck)


#: Every subcommand, in the order ``certdp --help`` lists them.
SUBCOMMANDS = [
    _audit_command,
    _verify_command,
    _vet_command,
    _prove_command,
    _crosscheck_command,
]


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``certdp`` with every subcommand of :data:`SUBCOMMANDS`."""
    top = argparse.ArgumentParser(
        prog="certdp",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(commands)
    return top


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    return arguments.run(arguments)


if __name__ == "__main__":
    sys.exit(main())
