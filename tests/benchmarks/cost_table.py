"""The --measure-cost figures of the fixtures whose rules' harm is time, as the Markdown table of
docs/figures.md: one row per finding.

    python tests/benchmarks/cost_table.py --platform cpu
    python tests/benchmarks/cost_table.py --platform tpu --json OUT.json

Runs ``python -m flake8_jaxnp.confirm --platform P --jobs 1 --cache-dir '' --measure-cost
--format json`` over the six fixtures (with ``--require-accelerator`` on a GPU or TPU; ``--json``
keeps that report) and prints the table and the summary line.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [f"fixtures/jnp{code}.py" for code in ("101", "102", "103", "104", "602", "603")]
HEAD = ("| finding | event | a call | bytes each | ms each (waiting for the device) | share of a loop iteration "
        "(ms) | share of the call (ms) | against the fix, per call |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")


def row(cost):
    figure, fix = cost["at_event"], cost["against_fix"]
    name = f"{Path(cost['path']).name}:{cost['line']} {cost['code']}"
    versus = "" if fix is None else fix["reason"].partition(":")[0] or \
        f"{fix['cost_ms_per_call']:+.3g} ms ({fix['share_of_call']:+.1%})"
    if figure is None:
        return f"| {name} | not measured: {cost['reason']} | | | | | | {versus} |"
    event, each, share = figure["event"], f"{figure['ms_each']:.3g}", ""
    if event == "compile":
        return (f"| {name} | compile, in the first call (later calls: {figure['later_per_call']:g}) | "
                f"{figure['per_call']} | | {each} | | {figure['share_of_call']:.1%} ({figure['call_ms']:.3g}) "
                f"| {versus} |")
    if event == "clock read":
        return f"| {name} | clock read: leaves out | {figure['per_call']:g} | | {each} | | | {versus} |"
    if event == "transfer":
        each += f" ({figure['wait_ms']:.3g})"
    if figure["iteration_ms"]:
        share = f"{figure['share_of_iteration']:.1%} ({figure['iteration_ms']:.3g})"
    return (f"| {name} | {event} | {figure['per_call']:g} | {figure['bytes']} | {each} | {share} | "
            f"{figure['share_of_call']:.1%} ({figure['call_ms']:.3g}) | {versus} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", default="cpu", choices=("cpu", "gpu", "tpu"))
    parser.add_argument("--json", help="also write the runtime mode's JSON report here")
    args = parser.parse_args()
    command = [sys.executable, "-m", "flake8_jaxnp.confirm", "--platform", args.platform, "--jobs", "1",
               "--cache-dir", "", "--measure-cost", "--format", "json", *FIXTURES]
    if args.platform != "cpu":
        command.insert(5, "--require-accelerator")
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"the runtime mode failed ({result.returncode}): {result.stderr[-500:]}")
    if args.json:
        Path(args.json).write_text(result.stdout)
    report = json.loads(result.stdout)
    print(HEAD)
    print("\n".join(row(cost) for cost in report["costs"]))
    print(f"\n{report['backends']}: {report['summary']}")


if __name__ == "__main__":
    main()
