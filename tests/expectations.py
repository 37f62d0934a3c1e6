"""Reads the ``# expect: JNPxxx`` marks in fixture files."""
import io
import re
import tokenize

MARK = re.compile(r"#\s*expect:\s*(JNP\d{3}(?:\s*,\s*JNP\d{3})*)")


def expected_findings(path):
    """{(line, code)} marked in ``path``."""
    found = set()
    with open(path, "rb") as handle:
        tokens = tokenize.tokenize(io.BytesIO(handle.read()).readline)
        for token in tokens:
            if token.type == tokenize.COMMENT:
                match = MARK.search(token.string)
                if match:
                    for code in re.split(r"\s*,\s*", match.group(1)):
                        found.add((token.start[0], code))
    return found
