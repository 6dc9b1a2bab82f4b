"""A scripted LSP session with fuser-lsp-server (test/Embedding/lsp.test):
initialize, open a document with an ill-typed fuser op, print the
diagnostics the server publishes, hover over an op, shut down."""
import json
import subprocess
import sys
import threading

DOCUMENT = """\
func.func @ill_typed(%a: tensor<4x8xf32>) -> tensor<4x6xf32> {
  %0 = fuser.view %a : tensor<4x8xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
"""
URI = "file:///tmp/fuser-lsp-test/ill_typed.mlir"
VALID = """\
func.func @neg(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.neg %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
VALID_URI = "file:///tmp/fuser-lsp-test/neg.mlir"

server = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
# Never hang the test suite.
watchdog = threading.Timer(60, server.kill)
watchdog.start()


def send(message):
    body = json.dumps(dict(jsonrpc="2.0", **message)).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def receive():
    length = None
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit("the server closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(server.stdout.read(length))


def receive_until(predicate):
    while True:
        message = receive()
        if predicate(message):
            return message


send(dict(id=1, method="initialize",
          params=dict(processId=None, rootUri=None, capabilities={})))
reply = receive_until(lambda m: m.get("id") == 1)
capabilities = reply["result"]["capabilities"]
print("initialized: hover=%s definition=%s" % (
    bool(capabilities.get("hoverProvider")),
    bool(capabilities.get("definitionProvider"))))
send(dict(method="initialized", params={}))

send(dict(method="textDocument/didOpen", params=dict(textDocument=dict(
    uri=URI, languageId="mlir", version=1, text=DOCUMENT))))
published = receive_until(
    lambda m: m.get("method") == "textDocument/publishDiagnostics")
for diagnostic in published["params"]["diagnostics"]:
    start = diagnostic["range"]["start"]
    print("diagnostic %d:%d severity %d: %s" % (
        start["line"] + 1, start["character"] + 1, diagnostic["severity"],
        diagnostic["message"]))

# A valid document: no diagnostics, hover over `fuser.neg` (line 2), and
# the definition of the `%0` that the return uses.
send(dict(method="textDocument/didOpen", params=dict(textDocument=dict(
    uri=VALID_URI, languageId="mlir", version=1, text=VALID))))
published = receive_until(
    lambda m: m.get("method") == "textDocument/publishDiagnostics")
print("valid document: %d diagnostics" % len(published["params"]["diagnostics"]))
send(dict(id=2, method="textDocument/hover", params=dict(
    textDocument=dict(uri=VALID_URI), position=dict(line=1, character=10))))
hover = receive_until(lambda m: m.get("id") == 2)
print("hover: %s" % json.dumps(hover["result"]["contents"]["value"]))
send(dict(id=4, method="textDocument/definition", params=dict(
    textDocument=dict(uri=VALID_URI), position=dict(line=2, character=10))))
definition = receive_until(lambda m: m.get("id") == 4)["result"]
for location in definition:
    print("definition: line %d" % (location["range"]["start"]["line"] + 1))

send(dict(id=3, method="shutdown"))
receive_until(lambda m: m.get("id") == 3)
send(dict(method="exit"))
server.stdin.close()
status = server.wait()
watchdog.cancel()
print("exit status %d" % status)
