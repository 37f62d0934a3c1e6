"""A minimal LSP client for the tests that drive a real pylsp: JSON-RPC over its stdin/stdout."""
import json
import os
import queue
import re
import subprocess
import sys
import threading


class LanguageServer:
    """``python -m pylsp`` over stdio (Content-Length framing); a context manager that kills
    the server on exit, whatever happened, so nothing outlives the test."""

    def __init__(self, cwd, env):
        self.process = subprocess.Popen([sys.executable, "-m", "pylsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.process.kill()
        self.process.wait(timeout=30)

    def _read(self):
        stream = self.process.stdout
        while True:
            header = {}
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                header[name.strip().lower()] = value.strip()
            if not header:
                return
            self.messages.put(json.loads(stream.read(int(header["content-length"]))))

    def send(self, method, params, request=False):
        """Send a notification, or a request (returns its id)."""
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()
        return message.get("id")

    def wait_for(self, accept, timeout=60):
        """The next message ``accept`` takes (others are dropped); queue.Empty after ``timeout`` s."""
        while True:
            message = self.messages.get(timeout=timeout)
            if accept(message):
                return message

    def request(self, method, params, timeout=60):
        """A request's result (an error response fails the test)."""
        number = self.send(method, params, request=True)
        response = self.wait_for(lambda m: m.get("id") == number and "method" not in m, timeout)
        assert "error" not in response, response["error"]
        return response["result"]

    def start(self, root, settings):
        """initialize, initialized and the given workspace settings."""
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}})
        self.send("initialized", {})
        self.send("workspace/didChangeConfiguration", {"settings": settings})

    def open_and_save(self, path, text):
        """Open ``path`` with ``text``, save it, and return the diagnostics pylsp publishes for it."""
        uri = path.as_uri()
        self.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                            "text": text}})
        self.send("textDocument/didSave", {"textDocument": {"uri": uri}})
        published = self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                  and m["params"]["uri"] == uri and m["params"]["diagnostics"])
        return published["params"]["diagnostics"]


def apply_edits(text, edits):
    """``text`` with LSP TextEdits applied, as an editor applies them: line breaks are
    \\n, \\r\\n and \\r only, columns count UTF-16 units, edits do not overlap."""
    pieces = re.split(r"(\r\n|\r|\n)", text)
    lines = ["".join(pieces[i:i + 2]) for i in range(0, len(pieces), 2)]  # each line with its break

    def offset(position):
        line, units = position["line"], position["character"]
        start = sum(map(len, lines[:line]))
        content = lines[line].rstrip("\r\n") if line < len(lines) else ""
        column = 0
        while column < len(content) and units > 0:
            units -= len(content[column].encode("utf-16-le")) // 2
            column += 1
        return start + column

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
